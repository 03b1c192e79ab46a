/* SPDX-License-Identifier: MIT */
/* The one table of every option (sf-config.h): key, X name, type,
 * range, default and the man page's text. */
#include <stddef.h>

#include "config-private.h"


/* offsetof() that also fails to compile when the field does not have the
 * C type that the option's type reads and writes. */
#define FIELD(name, ctype)						\
	(offsetof(struct sf_config, name) +				\
	 0 * sizeof(struct {						\
		int type_matches : _Generic(				\
			((struct sf_config *)0)->name,			\
			ctype: 1, default: -1);				\
	 }))

/* The same for a STRING option: the field must be a char array of exactly
 * SF_CONFIG_STRING_MAX, which its address (an array, unlike the field
 * itself, does not decay there) tells _Generic. */
#define FIELD_STRING(name)						\
	(offsetof(struct sf_config, name) +				\
	 0 * sizeof(struct {						\
		int type_matches : _Generic(				\
			&((struct sf_config *)0)->name,			\
			char (*)[SF_CONFIG_STRING_MAX]: 1,		\
			default: -1);					\
	 }))

#define OPT_BOOL(key_, xorg_, def_, field_, doc_)			\
	{ .key = key_, .xorg_name = xorg_, .type = SF_OPTION_BOOL,	\
	  .min = 0, .max = 1, .def = def_,				\
	  .offset = FIELD(field_, bool), .doc = doc_ }

#define OPT_INT(key_, xorg_, unit_, min_, max_, def_, field_, doc_)	\
	{ .key = key_, .xorg_name = xorg_, .type = SF_OPTION_INT,	\
	  .unit = unit_, .min = min_, .max = max_, .def = def_,	\
	  .offset = FIELD(field_, int64_t), .doc = doc_ }

#define OPT_DOUBLE(key_, xorg_, unit_, min_, max_, def_, field_, doc_)	\
	{ .key = key_, .xorg_name = xorg_, .type = SF_OPTION_DOUBLE,	\
	  .unit = unit_, .dmin = min_, .dmax = max_, .ddef = def_,	\
	  .offset = FIELD(field_, double), .doc = doc_ }

#define OPT_ENUM(key_, xorg_, choices_, def_, field_, doc_)		\
	{ .key = key_, .xorg_name = xorg_, .type = SF_OPTION_ENUM,	\
	  .min = 0, .max = SF_ARRAY_LENGTH(choices_) - 2, .def = def_,	\
	  .choices = choices_,						\
	  .offset = FIELD(field_, int64_t), .doc = doc_ }

#define OPT_STRING(key_, xorg_, syntax_, def_, field_, doc_)		\
	{ .key = key_, .xorg_name = xorg_, .type = SF_OPTION_STRING,	\
	  .sdef = def_, .syntax = &syntax_,				\
	  .offset = FIELD_STRING(field_), .doc = doc_ }


static const struct sf_option_syntax output_list_syntax = {
	.placeholder = "output,...",
	.range = "comma-separated output names, internal or all",
	.expected = "a comma-separated list of output names (letters, digits, . _ : -, at most 31 each)",
	.parse = sf_config_parse_output_list,
};

static const struct sf_option_syntax unneeded_list_syntax = {
	.placeholder = "output,...",
	.range = "comma-separated output names, external or all-but-internal, or empty",
	.expected = "a comma-separated list of output names (letters, digits, . _ : -, at most 31 each), external or all-but-internal",
	.parse = sf_config_parse_unneeded_list,
};

static const struct sf_option_syntax app_list_syntax = {
	.placeholder = "app,...",
	.range = "comma-separated app ids or X WM_CLASS names, or empty",
	.expected = "a comma-separated list of app ids (letters, digits, . _ : -, at most 63 each)",
	.parse = sf_config_parse_app_list,
};

static const struct sf_option_syntax root_path_syntax = {
	.placeholder = "directory",
	.range = "an absolute directory path without \"..\"",
	.expected = "an absolute directory path (starting with /, without \"..\", at most 255 bytes)",
	.parse = sf_config_parse_root_path,
};

/* Same order as enum sf_refresh_switch_choice. */
static const char *const refresh_switch_choices[] = {
	"seamless", "always", "never", NULL,
};

static const struct sf_option options[] = {
	/* general */
	OPT_BOOL("enable", "Enable", 1, enable,
		 "Act on what stillframe decides; when false it only watches, logs and estimates what it would have done"),

	/* idle governor */
	OPT_INT("low-refresh-timeout", "LowRefreshTimeout", "ms",
		100, 600000, 5000, low_refresh_timeout_ms,
		"Time without input before the output may drop to a lower refresh rate; longer than the pauses of a user at work (reading between bursts of typing), who sees no switch"),
	OPT_INT("dim-timeout", "DimTimeout", "s", 0, 86400, 120,
		dim_timeout_s,
		"Time without input before the backlight is dimmed; 0 never dims"),
	OPT_INT("dim-brightness", "DimBrightness", "%", 1, 100, 30,
		dim_brightness_pct,
		"Backlight level while dimmed, in percent of full brightness"),
	OPT_INT("standby-timeout", "StandbyTimeout", "s", 0, 86400, 300,
		standby_timeout_s,
		"Time without input before the display goes to DPMS standby (backlight off); 0 skips standby"),
	OPT_INT("off-timeout", "OffTimeout", "s", 0, 86400, 600,
		off_timeout_s,
		"Time without input before the display is switched off (DPMS off); 0 never switches it off"),
	OPT_INT("external-standby-timeout", "ExternalStandbyTimeout", "s",
		-1, 86400, -1, external_standby_timeout_s,
		"Like standby-timeout, for external outputs (connectors for monitors and projectors: HDMI, DP, DVI, VGA...), which may blank earlier and are never dimmed; -1 takes standby-timeout"),
	OPT_INT("external-off-timeout", "ExternalOffTimeout", "s",
		-1, 86400, -1, external_off_timeout_s,
		"Like off-timeout, for external outputs; -1 takes off-timeout"),
	OPT_INT("wake-request-hold", "WakeRequestHold", "s", 0, 86400, 300,
		wake_request_hold_s,
		"After an output is powered on on request (stillframectl output NAME on, a hotplug), how long it only enters idle stages that wake within wake-latency-limit; 0 turns this off"),
	OPT_INT("wake-latency-limit", "WakeLatencyLimit", "ms", 0, 60000,
		1000, wake_latency_limit_ms,
		"The longest wake-up (from input to a frame at native refresh) allowed during wake-request-hold: with the default a monitor may go to standby (about 1 s) but not off (about 2.5 s)"),
	OPT_INT("quick-wake-window", "QuickWakeWindow", "s", 0, 600, 10,
		quick_wake_window_s,
		"Input this soon after the display dimmed or blanked means the user was still there, so the dim, standby and off timeouts double; 0 turns this off"),
	OPT_BOOL("reclock", "Reclock", 1, reclock,
		 "Lower the GPU and memory clocks while the output is idle and no video or animation plays"),
	OPT_INT("reclock-delay", "ReclockDelay", "ms", 0, 600000, 2000,
		reclock_delay_ms,
		"How long the refresh rate must stay unchanged before the clocks are lowered"),
	OPT_BOOL("reclock-memory", "ReclockMemory", 1, reclock_memory,
		 "Also lower the memory clock (amdgpu), and only while a single display is lit: memory clock switches need vertical blanking time, and with several displays they flicker"),
	OPT_BOOL("reclock-nouveau", "ReclockNouveau", 0, reclock_nouveau,
		 "Lower nouveau GPUs' performance state through debugfs; off by default, since nouveau reclocking hangs some cards"),
	OPT_STRING("platform-root", "PlatformRoot", root_path_syntax, "/",
		   platform_root,
		   "Directory under which the sysfs and debugfs trees (sys/class/drm, sys/kernel/debug...) are read and written: / on a real system, a fake tree in tests"),

	/* refresh selector */
	OPT_STRING("outputs", "Outputs", output_list_syntax, "internal",
		   outputs,
		   "Outputs whose refresh rate stillframe may change: internal (panels the compositor reports as built in), all, or a list of output names"),

	/* output power */
	OPT_STRING("unneeded-outputs", "UnneededOutputs", unneeded_list_syntax,
		   "", unneeded_outputs,
		   "Outputs kept powered off while connected (the layout stays, nothing is painted there): output names, external (connectors for monitors: HDMI, DP, DVI, VGA...), or all-but-internal; stillframectl output NAME on brings one back"),
	OPT_BOOL("hotplug-power-on", "HotplugPowerOn", 1, hotplug_power_on,
		 "Power on an output whose connector is plugged in while stillframe runs, even if unneeded-outputs names it (a projector plugged in for a talk comes up); stillframectl output NAME auto hands it back to unneeded-outputs"),
	OPT_INT("active-refresh", "ActiveRefresh", "Hz", 0, 1000, 0,
		active_refresh_hz,
		"Refresh rate to use while the user is active; 0 uses the panel's preferred mode"),
	OPT_INT("idle-min-refresh", "IdleMinRefresh", "Hz", 1, 1000, 30,
		idle_min_refresh_hz,
		"Lowest refresh rate stillframe ever chooses"),
	OPT_INT("pointer-min-refresh", "PointerMinRefresh", "Hz", 0, 1000,
		30, pointer_min_refresh_hz,
		"Lowest refresh rate while the pointer moves, so the cursor stays smooth; 0 sets no floor"),
	OPT_INT("refresh-dwell", "RefreshDwell", "ms", 0, 60000, 2000,
		refresh_dwell_ms,
		"Minimum time between a refresh rate change and the next drop to a lower rate; raising never waits.  A change made for a measured content rate also waits for the rate to hold this long, and comes at least five times this long after the previous one"),
	OPT_INT("new-window-native", "NewWindowNative", "ms", 0, 60000,
		3000, new_window_native_ms,
		"How long a newly shown window keeps its output at the native refresh rate (the mode the user chose), even while idle: clients read the rate as they start and pace their animations by it; 0 does not wait"),
	OPT_BOOL("synthesize-low-refresh", "SynthesizeLowRefresh", 0,
		 synthesize_low_refresh,
		 "Xorg only: add a copy of each managed output's mode with the same timings at a lower dot clock (idle-min-refresh), the LVDS-downclock technique, for panels that list a single refresh rate"),
	OPT_ENUM("refresh-switch", "RefreshSwitch", refresh_switch_choices,
		 SF_CONFIG_REFRESH_SWITCH_SEAMLESS, refresh_switch,
		 "Which refresh rate changes are allowed: seamless (only those that do not blank the panel), always (any mode at the same resolution) or never"),

	/* repaint suppression */
	OPT_BOOL("suppress", "Suppress", 1, suppress,
		 "Hold back repaints that show nothing new (blinking cursors, clock ticks, identical frames) while the user is idle"),
	OPT_INT("suppress-idle-delay", "SuppressIdleDelay", "ms", 0, 600000,
		3000, suppress_idle_delay_ms,
		"Time without input after which blinking and ticking repaints are held back"),
	OPT_INT("blink-max-staleness", "BlinkMaxStaleness", "ms", 100,
		3600000, 30000, blink_max_staleness_ms,
		"Longest time a blinking surface (such as a text cursor) may go without being repainted"),
	OPT_INT("tick-max-staleness", "TickMaxStaleness", "ms", 100,
		3600000, 30000, tick_max_staleness_ms,
		"Longest time a ticking surface (such as a clock with seconds) may go without being repainted"),
	OPT_INT("redundant-max-staleness", "RedundantMaxStaleness", "ms", 10,
		600000, 1000, redundant_max_staleness_ms,
		"Longest time an empty or identical commit may be held before it is painted while the user is active; while the user is idle it may wait as long as a blink or a tick (it shows nothing new)"),
	OPT_INT("background-frame-rate", "BackgroundFrameRate", "Hz", 0, 240,
		5, background_frame_rate_hz,
		"Frame rate allowed to animations in unfocused windows while the user is idle; never applied to a video (classed video, wp_content_type video, or a surface with an idle inhibitor); 0 does not throttle them"),
	OPT_STRING("essential-apps", "EssentialApps", app_list_syntax, "",
		   essential_apps,
		   "Applications whose surfaces are never held or throttled, as if they asked for the essential priority (Wayland app_id, or X WM_CLASS instance or class, matched exactly); a client's own stillframe hint wins"),
	OPT_STRING("background-apps", "BackgroundApps", app_list_syntax, "",
		   background_apps,
		   "Applications whose surfaces are throttled freely, as if they asked for the background priority; an application in both lists is essential"),
	OPT_INT("hash-max-area", "HashMaxArea", "px", 0, 16777216, 65536,
		hash_max_area_px,
		"Pixels of damage read per 60 Hz frame to detect identical commits and what really changed; what a surface does not read is saved for later commits, up to 60 frames' worth (a window redrawn whole once a second for a clock, or twice in a row for a blink); 0 never hashes"),

	/* energy model */
	OPT_DOUBLE("energy-gpu-active-watts", "EnergyGpuActiveWatts", "W",
		   0.0, 500.0, 15.0, energy_gpu_active_w,
		   "Estimate: extra power of the GPU and memory while awake for repainting"),
	OPT_INT("energy-wake-hold", "EnergyWakeHold", "ms", 0, 10000, 67,
		energy_wake_hold_ms,
		"Estimate: how long one isolated repaint keeps the GPU and memory awake"),
	OPT_DOUBLE("energy-link-watts-per-hz", "EnergyLinkWattsPerHz", "W/Hz",
		   0.0, 1.0, 0.0167, energy_link_w_per_hz,
		   "Estimate: power of the panel link per hertz of refresh rate"),
	OPT_DOUBLE("energy-reclock-watts", "EnergyReclockWatts", "W",
		   0.0, 500.0, 10.0, energy_reclock_w,
		   "Estimate: power saved while the GPU and memory clocks are lowered"),
	OPT_DOUBLE("energy-backlight-watts", "EnergyBacklightWatts", "W",
		   0.0, 100.0, 2.5, energy_backlight_w,
		   "Estimate: power of the backlight at full brightness"),
	OPT_DOUBLE("energy-panel-watts", "EnergyPanelWatts", "W",
		   0.0, 100.0, 1.0, energy_panel_w,
		   "Estimate: power of the panel electronics while the display is on"),
	OPT_DOUBLE("energy-output-watts", "EnergyOutputWatts", "W",
		   0.0, 100.0, 0.5, energy_output_w,
		   "Estimate: power of an output port that is switched on"),
};

const struct sf_option *
sf_config_options(size_t *count)
{
	if (count)
		*count = SF_ARRAY_LENGTH(options);
	return options;
}
