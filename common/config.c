/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-config.h"
#include "sf-energy.h"
#include "sf-governor.h"
#include "sf-selector.h"
#include "sf-suppress.h"

/*
 * Both adapters and stillframe-replay parse through here, so a value means
 * the same in weston.ini, in xorg.conf and on the command line, and the
 * man page (generated from the same table) cannot drift from the code.
 */

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

static bool
parse_output_list(const char *s, size_t len,
		  char out[SF_CONFIG_STRING_MAX]);
static bool
parse_unneeded_list(const char *s, size_t len,
		    char out[SF_CONFIG_STRING_MAX]);
static bool
parse_app_list(const char *s, size_t len, char out[SF_CONFIG_STRING_MAX]);
static bool
parse_root_path(const char *s, size_t len, char out[SF_CONFIG_STRING_MAX]);

static const struct sf_option_syntax output_list_syntax = {
	.placeholder = "output,...",
	.range = "comma-separated output names, internal or all",
	.expected = "a comma-separated list of output names (letters, digits, . _ : -, at most 31 each)",
	.parse = parse_output_list,
};

static const struct sf_option_syntax unneeded_list_syntax = {
	.placeholder = "output,...",
	.range = "comma-separated output names, external or all-but-internal, or empty",
	.expected = "a comma-separated list of output names (letters, digits, . _ : -, at most 31 each), external or all-but-internal",
	.parse = parse_unneeded_list,
};

static const struct sf_option_syntax app_list_syntax = {
	.placeholder = "app,...",
	.range = "comma-separated app ids or X WM_CLASS names, or empty",
	.expected = "a comma-separated list of app ids (letters, digits, . _ : -, at most 63 each)",
	.parse = parse_app_list,
};

static const struct sf_option_syntax root_path_syntax = {
	.placeholder = "directory",
	.range = "an absolute directory path without \"..\"",
	.expected = "an absolute directory path (starting with /, without \"..\", at most 255 bytes)",
	.parse = parse_root_path,
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
		100, 600000, 1000, low_refresh_timeout_ms,
		"Time without input before the output may drop to a lower refresh rate"),
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
		"Longest time an empty or identical commit may be held before it is painted"),
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
		"Largest damaged area whose pixels are hashed to detect identical commits and what really changed, for a commit within a 60 Hz frame of the previous one; a rarer commit may have as many times more read as frames went by, up to 60 (a window redrawn whole once a second for a clock); 0 never hashes"),

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

/* The "C" locale's idea of white space, whatever the process's locale. */
static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' ||
	       c == '\f' || c == '\r';
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool
xorg_ignored(char c)
{
	return c == '_' || c == ' ' || c == '\t';
}

/* The X server's xf86NameCmp() rule: case, '_', ' ' and '\t' do not
 * count, so "Low_Refresh Timeout" names LowRefreshTimeout. */
static bool
xorg_name_equal(const char *a, const char *b)
{
	for (;;) {
		while (xorg_ignored(*a))
			a++;
		while (xorg_ignored(*b))
			b++;
		if (lower(*a) != lower(*b))
			return false;
		if (*a == '\0')
			return true;
		a++;
		b++;
	}
}

/* Case-insensitive comparison of the `len` bytes at `s` with `word`. */
static bool
word_equal(const char *s, size_t len, const char *word)
{
	if (strlen(word) != len)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (lower(s[i]) != lower(word[i]))
			return false;
	}
	return true;
}

const struct sf_option *
sf_config_find(enum sf_config_namespace ns, const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < SF_ARRAY_LENGTH(options); i++) {
		const struct sf_option *opt = &options[i];
		bool match = ns == SF_CONFIG_NS_XORG ?
			     xorg_name_equal(opt->xorg_name, name) :
			     strcmp(opt->key, name) == 0;
		if (match)
			return opt;
	}
	return NULL;
}

const char *
sf_option_name(const struct sf_option *opt, enum sf_config_namespace ns)
{
	return ns == SF_CONFIG_NS_XORG ? opt->xorg_name : opt->key;
}

static bool *
bool_field(struct sf_config *cfg, const struct sf_option *opt)
{
	return (bool *)((char *)cfg + opt->offset);
}

static int64_t *
int_field(struct sf_config *cfg, const struct sf_option *opt)
{
	return (int64_t *)((char *)cfg + opt->offset);
}

static double *
double_field(struct sf_config *cfg, const struct sf_option *opt)
{
	return (double *)((char *)cfg + opt->offset);
}

/* SF_CONFIG_STRING_MAX bytes, always NUL-terminated. */
static char *
string_field(struct sf_config *cfg, const struct sf_option *opt)
{
	return (char *)cfg + opt->offset;
}

/* An output name as RandR and DRM spell connectors (eDP-1, HDMI-A-1,
 * DP-2-1, Virtual-1, headless, ...): nothing a list or a log would need
 * to quote. */
#define OUTPUT_NAME_MAX 31

static bool
is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

/* "internal" and "all" are words of the list, not output names: like
 * the choices of an ENUM they are taken in any case, and stored in
 * lower case so that sf_config_output_selected() compares exactly. */
static const char *const output_words[] = { "internal", "all" };

/* An app id: Wayland app_ids are reverse-DNS names (org.gnome.Nautilus)
 * or plain words (foot, mpv); X WM_CLASS names are plain words. */
#define APP_NAME_MAX 63

/* " eDP-1 ,HDMI-A-1" is stored as "eDP-1,HDMI-A-1": items of at most
 * `item_max` name characters, `words` taken in any case and stored in
 * lower case; an empty string is the empty list if `allow_empty`. */
static bool
parse_name_list(const char *s, size_t len, char out[SF_CONFIG_STRING_MAX],
		size_t item_max, const char *const *words, size_t n_words,
		bool allow_empty)
{
	char buf[SF_CONFIG_STRING_MAX];
	size_t n = 0;
	size_t i = 0;

	size_t blank = 0;
	while (blank < len && is_space(s[blank]))
		blank++;
	if (blank == len && allow_empty) {
		out[0] = '\0';
		return true;
	}
	for (;;) {
		size_t start = i;
		while (i < len && s[i] != ',')
			i++;
		size_t end = i;
		while (start < end && is_space(s[start]))
			start++;
		while (end > start && is_space(s[end - 1]))
			end--;
		size_t item = end - start;
		if (item == 0 || item > item_max)
			return false;
		for (size_t k = start; k < end; k++) {
			if (!is_name_char(s[k]))
				return false;
		}
		/* The separator, the item and the final NUL must fit. */
		if ((n ? n + 1 : 0) + item >= sizeof(buf))
			return false;
		if (n)
			buf[n++] = ',';
		const char *word = NULL;
		for (size_t w = 0; w < n_words; w++) {
			if (word_equal(s + start, item, words[w]))
				word = words[w];
		}
		memcpy(buf + n, word ? word : s + start, item);
		n += item;
		if (i == len)
			break;
		i++;	/* past the ',' */
	}
	buf[n] = '\0';
	memcpy(out, buf, n + 1);
	return true;
}

static bool
parse_output_list(const char *s, size_t len, char out[SF_CONFIG_STRING_MAX])
{
	return parse_name_list(s, len, out, OUTPUT_NAME_MAX, output_words,
			       SF_ARRAY_LENGTH(output_words), false);
}

/* The classes of unneeded-outputs, stored in lower case like the words
 * of "outputs". */
static const char *const unneeded_words[] = { "external", "all-but-internal" };

static bool
parse_unneeded_list(const char *s, size_t len, char out[SF_CONFIG_STRING_MAX])
{
	return parse_name_list(s, len, out, OUTPUT_NAME_MAX, unneeded_words,
			       SF_ARRAY_LENGTH(unneeded_words), true);
}

static bool
parse_root_path(const char *s, size_t len, char out[SF_CONFIG_STRING_MAX])
{
	while (len > 0 && is_space(*s)) {
		s++;
		len--;
	}
	while (len > 0 && is_space(s[len - 1]))
		len--;
	if (len == 0 || len >= SF_CONFIG_STRING_MAX || s[0] != '/' ||
	    memchr(s, '\n', len))
		return false;
	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '.' && s[i + 1] == '.')
			return false;
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

static bool
parse_app_list(const char *s, size_t len, char out[SF_CONFIG_STRING_MAX])
{
	return parse_name_list(s, len, out, APP_NAME_MAX, NULL, 0, true);
}

/* Whether the list `list` ("a,b,c") has the item `name`. */
static bool
list_has(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; *p;) {
		size_t item = strcspn(p, ",");
		if (item == len && memcmp(p, name, len) == 0)
			return true;
		p += item;
		if (*p == ',')
			p++;
	}
	return false;
}

bool
sf_config_output_selected(const struct sf_config *cfg,
			  const char *output_name, bool is_internal)
{
	if (list_has(cfg->outputs, "all"))
		return true;
	if (is_internal && list_has(cfg->outputs, "internal"))
		return true;
	/* An empty name is no output's name, and never an item. */
	return output_name && output_name[0] &&
	       list_has(cfg->outputs, output_name);
}

bool
sf_config_output_unneeded(const struct sf_config *cfg,
			  const char *output_name, enum sf_output_kind kind)
{
	if (kind != SF_OUTPUT_KIND_INTERNAL &&
	    list_has(cfg->unneeded_outputs, "all-but-internal"))
		return true;
	if (kind == SF_OUTPUT_KIND_EXTERNAL &&
	    list_has(cfg->unneeded_outputs, "external"))
		return true;
	return output_name && output_name[0] &&
	       list_has(cfg->unneeded_outputs, output_name);
}

enum sf_priority
sf_config_app_priority(const struct sf_config *cfg, const char *app,
		       const char *app_class)
{
	bool essential = false, background = false;
	const char *names[] = { app, app_class };

	for (size_t i = 0; i < SF_ARRAY_LENGTH(names); i++) {
		if (!names[i] || !names[i][0])
			continue;
		essential |= list_has(cfg->essential_apps, names[i]);
		background |= list_has(cfg->background_apps, names[i]);
	}
	/* Listed in both: holding an essential surface is the worse
	 * mistake. */
	if (essential)
		return SF_PRIORITY_ESSENTIAL;
	return background ? SF_PRIORITY_BACKGROUND : SF_PRIORITY_NORMAL;
}

void
sf_config_init_defaults(struct sf_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < SF_ARRAY_LENGTH(options); i++) {
		const struct sf_option *opt = &options[i];
		switch (opt->type) {
		case SF_OPTION_BOOL:
			*bool_field(cfg, opt) = opt->def != 0;
			break;
		case SF_OPTION_INT:
		case SF_OPTION_ENUM:
			*int_field(cfg, opt) = opt->def;
			break;
		case SF_OPTION_DOUBLE:
			*double_field(cfg, opt) = opt->ddef;
			break;
		case SF_OPTION_STRING:
			snprintf(string_field(cfg, opt), SF_CONFIG_STRING_MAX,
				 "%s", opt->sdef);
			break;
		}
	}
}

/*
 * Doubles are read and written with a '.' whatever LC_NUMERIC says: a
 * compositor that calls setlocale() must not start rejecting "2.5".
 */
static const char *
locale_point(void)
{
	const char *point = localeconv()->decimal_point;

	return point && *point ? point : ".";
}

/* The shortest fixed-point form with at least one decimal that reads
 * back as the same double; values too small or too large for 17
 * decimals get the shortest exponent form instead. */
static int
format_double(double v, char *buf, size_t size)
{
	char tmp[64];
	bool found = false;

	if (v == 0.0)
		v = 0.0;	/* no "-0.0" */
	for (int prec = 1; prec <= 17 && !found; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*f", prec, v);
		found = strtod(tmp, NULL) == v;
	}
	for (int prec = 1; prec <= 17 && !found; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		found = strtod(tmp, NULL) == v;
	}

	const char *point = locale_point();
	char *at = strcmp(point, ".") != 0 ? strstr(tmp, point) : NULL;
	if (at) {
		*at = '.';
		memmove(at + 1, at + strlen(point),
			strlen(at + strlen(point)) + 1);
	}
	return snprintf(buf, size, "%s", tmp);
}

static int
format_bool(bool v, char *buf, size_t size)
{
	return snprintf(buf, size, "%s", v ? "true" : "false");
}

static int
format_enum(const struct sf_option *opt, int64_t v, char *buf, size_t size)
{
	if (v < opt->min || v > opt->max)
		return snprintf(buf, size, "%lld", (long long)v);
	return snprintf(buf, size, "%s", opt->choices[v]);
}

int
sf_option_format_default(const struct sf_option *opt, char *buf,
			 size_t size)
{
	switch (opt->type) {
	case SF_OPTION_BOOL:
		return format_bool(opt->def != 0, buf, size);
	case SF_OPTION_INT:
		return snprintf(buf, size, "%lld", (long long)opt->def);
	case SF_OPTION_DOUBLE:
		return format_double(opt->ddef, buf, size);
	case SF_OPTION_ENUM:
		return format_enum(opt, opt->def, buf, size);
	case SF_OPTION_STRING:
		return snprintf(buf, size, "%s", opt->sdef);
	}
	return snprintf(buf, size, "?");
}

int
sf_option_format_range(const struct sf_option *opt, char *buf, size_t size)
{
	char lo[64], hi[64];

	switch (opt->type) {
	case SF_OPTION_BOOL:
		return snprintf(buf, size, "true|false");
	case SF_OPTION_INT:
		return snprintf(buf, size, "%lld..%lld", (long long)opt->min,
				(long long)opt->max);
	case SF_OPTION_DOUBLE:
		format_double(opt->dmin, lo, sizeof(lo));
		format_double(opt->dmax, hi, sizeof(hi));
		return snprintf(buf, size, "%s..%s", lo, hi);
	case SF_OPTION_ENUM: {
		int total = 0;
		if (size)
			buf[0] = '\0';
		for (size_t i = 0; opt->choices[i]; i++) {
			/* Keep appending past a full buffer only to count. */
			bool room = (size_t)total < size;
			int n = snprintf(room ? buf + total : NULL,
					 room ? size - (size_t)total : 0,
					 "%s%s", i ? "|" : "",
					 opt->choices[i]);
			if (n < 0)
				return n;
			total += n;
		}
		return total;
	}
	case SF_OPTION_STRING:
		return snprintf(buf, size, "%s", opt->syntax->range);
	}
	return snprintf(buf, size, "?");
}

int
sf_config_format_value(const struct sf_config *cfg,
		       const struct sf_option *opt, char *buf, size_t size)
{
	struct sf_config *c = (struct sf_config *)cfg;

	switch (opt->type) {
	case SF_OPTION_BOOL:
		return format_bool(*bool_field(c, opt), buf, size);
	case SF_OPTION_INT:
		return snprintf(buf, size, "%lld",
				(long long)*int_field(c, opt));
	case SF_OPTION_DOUBLE:
		return format_double(*double_field(c, opt), buf, size);
	case SF_OPTION_ENUM:
		return format_enum(opt, *int_field(c, opt), buf, size);
	case SF_OPTION_STRING:
		return snprintf(buf, size, "%s", string_field(c, opt));
	}
	return snprintf(buf, size, "?");
}

/* What a parser found, before the option is touched. */
union parsed {
	bool b;
	int64_t i;
	double d;
	char s[SF_CONFIG_STRING_MAX];
};

static enum sf_config_status
parse_bool(const char *s, size_t len, enum sf_config_namespace ns,
	   bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	/* xorg.conf: `Option "Reclock"` with no value means true, as it
	 * does for the X server's own boolean options. */
	if (len == 0 && ns == SF_CONFIG_NS_XORG) {
		*out = true;
		return SF_CONFIG_OK;
	}
	for (size_t i = 0; i < SF_ARRAY_LENGTH(yes); i++) {
		if (word_equal(s, len, yes[i])) {
			*out = true;
			return SF_CONFIG_OK;
		}
		if (word_equal(s, len, no[i])) {
			*out = false;
			return SF_CONFIG_OK;
		}
	}
	return SF_CONFIG_INVALID_VALUE;
}

static enum sf_config_status
parse_int(const struct sf_option *opt, const char *s, size_t len,
	  int64_t *out)
{
	char *end;

	/* strtoll() would skip leading white space itself, and accept a
	 * sign followed by nothing; both are checked here. */
	if (len == 0 || is_space(*s))
		return SF_CONFIG_INVALID_VALUE;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || (size_t)(end - s) != len)
		return SF_CONFIG_INVALID_VALUE;
	if (errno == ERANGE || v < opt->min || v > opt->max)
		return SF_CONFIG_OUT_OF_RANGE;
	*out = v;
	return SF_CONFIG_OK;
}

/* Decimal only: [+-]digits[.digits][(e|E)[+-]digits], at least one digit
 * before the exponent.  No hex, nan or inf, which strtod() would take. */
static bool
decimal_syntax(const char *s, size_t len)
{
	size_t i = 0, digits = 0;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	}
	if (digits == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t exp_digits = 0;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			exp_digits++;
		if (exp_digits == 0)
			return false;
	}
	return i == len;
}

static enum sf_config_status
parse_double(const struct sf_option *opt, const char *s, size_t len,
	     double *out)
{
	char buf[128];
	const char *point = locale_point();

	if (!decimal_syntax(s, len))
		return SF_CONFIG_INVALID_VALUE;
	/* Rewrite '.' as the locale's decimal point for strtod(). */
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		const char *piece = s[i] == '.' ? point : &s[i];
		size_t piece_len = s[i] == '.' ? strlen(point) : 1;
		if (n + piece_len >= sizeof(buf))
			return SF_CONFIG_INVALID_VALUE;	/* absurdly long */
		memcpy(buf + n, piece, piece_len);
		n += piece_len;
	}
	buf[n] = '\0';

	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (*end != '\0')
		return SF_CONFIG_INVALID_VALUE;
	/* ERANGE on underflow returns a tiny value, which the range check
	 * below judges like any other. */
	if (!isfinite(v) || v < opt->dmin || v > opt->dmax)
		return SF_CONFIG_OUT_OF_RANGE;
	*out = v == 0.0 ? 0.0 : v;
	return SF_CONFIG_OK;
}

static enum sf_config_status
parse_enum(const struct sf_option *opt, const char *s, size_t len,
	   int64_t *out)
{
	for (size_t i = 0; opt->choices[i]; i++) {
		if (word_equal(s, len, opt->choices[i])) {
			*out = (int64_t)i;
			return SF_CONFIG_OK;
		}
	}
	return SF_CONFIG_INVALID_VALUE;
}

/* "an integer in 100..600000 ms", "one of seamless|always|never", ... */
static void
format_expected(const struct sf_option *opt, char *buf, size_t size)
{
	char range[128];

	sf_option_format_range(opt, range, sizeof(range));
	switch (opt->type) {
	case SF_OPTION_BOOL:
		snprintf(buf, size, "a boolean (%s)", range);
		return;
	case SF_OPTION_INT:
		snprintf(buf, size, "an integer in %s%s%s", range,
			 opt->unit ? " " : "", opt->unit ? opt->unit : "");
		return;
	case SF_OPTION_DOUBLE:
		snprintf(buf, size, "a number in %s%s%s", range,
			 opt->unit ? " " : "", opt->unit ? opt->unit : "");
		return;
	case SF_OPTION_ENUM:
		snprintf(buf, size, "one of %s", range);
		return;
	case SF_OPTION_STRING:
		snprintf(buf, size, "%s", opt->syntax->expected);
		return;
	}
	snprintf(buf, size, "?");
}

/* The value as the message quotes it: trimmed, control characters shown
 * as '?', cut short if it is long. */
static void
quote_value(const char *s, size_t len, char *buf, size_t size)
{
	size_t max = size - 4;	/* room for "..." and the NUL */
	size_t n = 0;

	for (; n < len && n < max; n++) {
		unsigned char c = (unsigned char)s[n];
		buf[n] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (n < len)
		memcpy(buf + n, "...", 4);
	else
		buf[n] = '\0';
}

static void
report_error(const struct sf_config *cfg, const struct sf_option *opt,
	     enum sf_config_namespace ns, enum sf_config_status status,
	     const char *s, size_t len, char *err, size_t err_size)
{
	char value[72], kept[SF_CONFIG_STRING_MAX], expected[160];

	if (!err || err_size == 0)
		return;
	quote_value(s, len, value, sizeof(value));
	sf_config_format_value(cfg, opt, kept, sizeof(kept));
	if (status == SF_CONFIG_OUT_OF_RANGE) {
		char range[128];
		sf_option_format_range(opt, range, sizeof(range));
		snprintf(err, err_size,
			 "%s: \"%s\" is out of range %s%s%s; keeping %s",
			 sf_option_name(opt, ns), value, range,
			 opt->unit ? " " : "", opt->unit ? opt->unit : "",
			 kept);
		return;
	}
	format_expected(opt, expected, sizeof(expected));
	snprintf(err, err_size, "%s: \"%s\" is not %s; keeping %s",
		 sf_option_name(opt, ns), value, expected, kept);
}

enum sf_config_status
sf_config_set(struct sf_config *cfg, enum sf_config_namespace ns,
	      const char *name, const char *value,
	      char *err, size_t err_size)
{
	const struct sf_option *opt = sf_config_find(ns, name);

	if (err && err_size)
		err[0] = '\0';
	if (!opt) {
		if (err && err_size)
			snprintf(err, err_size, "unknown option \"%s\"",
				 name ? name : "");
		return SF_CONFIG_UNKNOWN_KEY;
	}

	const char *s = value ? value : "";
	size_t len = strlen(s);
	while (len > 0 && is_space(*s)) {
		s++;
		len--;
	}
	while (len > 0 && is_space(s[len - 1]))
		len--;

	enum sf_config_status status = SF_CONFIG_INVALID_VALUE;
	union parsed v;
	switch (opt->type) {
	case SF_OPTION_BOOL:
		status = parse_bool(s, len, ns, &v.b);
		break;
	case SF_OPTION_INT:
		status = parse_int(opt, s, len, &v.i);
		break;
	case SF_OPTION_DOUBLE:
		status = parse_double(opt, s, len, &v.d);
		break;
	case SF_OPTION_ENUM:
		status = parse_enum(opt, s, len, &v.i);
		break;
	case SF_OPTION_STRING:
		status = opt->syntax->parse(s, len, v.s) ? SF_CONFIG_OK :
			 SF_CONFIG_INVALID_VALUE;
		break;
	}
	if (status != SF_CONFIG_OK) {
		report_error(cfg, opt, ns, status, s, len, err, err_size);
		return status;
	}

	switch (opt->type) {
	case SF_OPTION_BOOL:
		*bool_field(cfg, opt) = v.b;
		break;
	case SF_OPTION_INT:
	case SF_OPTION_ENUM:
		*int_field(cfg, opt) = v.i;
		break;
	case SF_OPTION_DOUBLE:
		*double_field(cfg, opt) = v.d;
		break;
	case SF_OPTION_STRING:
		memcpy(string_field(cfg, opt), v.s, strlen(v.s) + 1);
		break;
	}
	return SF_CONFIG_OK;
}

void
sf_config_governor_params(const struct sf_config *cfg,
			  enum sf_output_kind kind,
			  struct sf_governor_params *out)
{
	int64_t standby = cfg->standby_timeout_s, off = cfg->off_timeout_s;

	if (kind == SF_OUTPUT_KIND_EXTERNAL) {
		if (cfg->external_standby_timeout_s >= 0)
			standby = cfg->external_standby_timeout_s;
		if (cfg->external_off_timeout_s >= 0)
			off = cfg->external_off_timeout_s;
	}
	sf_governor_params_init_default(out);
	out->stage_timeout[SF_STATE_LOW_REFRESH] =
		SF_MSEC(cfg->low_refresh_timeout_ms);
	/* 0 s stays 0, which the governor reads as "stage disabled". */
	out->stage_timeout[SF_STATE_DIM] = SF_SEC(cfg->dim_timeout_s);
	out->stage_timeout[SF_STATE_DPMS_STANDBY] = SF_SEC(standby);
	out->stage_timeout[SF_STATE_DPMS_OFF] = SF_SEC(off);
	for (int st = 0; st < SF_STATE_COUNT; st++)
		out->wake_latency[st] =
			sf_governor_default_wake_latency(kind, st);
	/* A monitor's backlight is its own (no sysfs device): dimming it
	 * is not ours to do, and would only delay its standby. */
	if (kind == SF_OUTPUT_KIND_EXTERNAL)
		out->stage_timeout[SF_STATE_DIM] = 0;
	out->reclock = cfg->reclock;
	out->reclock_delay = SF_MSEC(cfg->reclock_delay_ms);
	out->quick_wake_window = SF_SEC(cfg->quick_wake_window_s);
}

static enum sf_refresh_switch
refresh_switch(int64_t choice)
{
	switch (choice) {
	case SF_CONFIG_REFRESH_SWITCH_ALWAYS:
		return SF_REFRESH_SWITCH_ALWAYS;
	case SF_CONFIG_REFRESH_SWITCH_NEVER:
		return SF_REFRESH_SWITCH_NEVER;
	default:
		return SF_REFRESH_SWITCH_SEAMLESS;
	}
}

void
sf_config_selector_params(const struct sf_config *cfg,
			  struct sf_selector_params *out)
{
	out->active_refresh_mhz = (uint32_t)(cfg->active_refresh_hz * 1000);
	out->idle_min_mhz = (uint32_t)(cfg->idle_min_refresh_hz * 1000);
	out->pointer_min_mhz = (uint32_t)(cfg->pointer_min_refresh_hz * 1000);
	out->min_dwell = SF_MSEC(cfg->refresh_dwell_ms);
	out->refresh_switch = refresh_switch(cfg->refresh_switch);
}

void
sf_config_suppress_params(const struct sf_config *cfg,
			  struct sf_suppress_params *out)
{
	out->enabled = cfg->suppress;
	out->idle_delay = SF_MSEC(cfg->suppress_idle_delay_ms);
	out->blink_max_staleness = SF_MSEC(cfg->blink_max_staleness_ms);
	out->tick_max_staleness = SF_MSEC(cfg->tick_max_staleness_ms);
	out->redundant_max_staleness =
		SF_MSEC(cfg->redundant_max_staleness_ms);
	out->background_frame_interval =
		cfg->background_frame_rate_hz > 0 ?
		SF_SEC(1) / cfg->background_frame_rate_hz : 0;
}

void
sf_config_energy_params(const struct sf_config *cfg,
			struct sf_energy_params *out)
{
	sf_energy_params_init_default(out);
	out->gpu_active_w = cfg->energy_gpu_active_w;
	out->wake_hold = SF_MSEC(cfg->energy_wake_hold_ms);
	out->link_w_per_hz = cfg->energy_link_w_per_hz;
	out->reclock_w = cfg->energy_reclock_w;
	out->backlight_w = cfg->energy_backlight_w;
	out->panel_w = cfg->energy_panel_w;
	out->output_w = cfg->energy_output_w;
}

const char *
sf_config_status_name(enum sf_config_status status)
{
	switch (status) {
	case SF_CONFIG_OK: return "ok";
	case SF_CONFIG_UNKNOWN_KEY: return "unknown key";
	case SF_CONFIG_INVALID_VALUE: return "invalid value";
	case SF_CONFIG_OUT_OF_RANGE: return "out of range";
	}
	return "invalid";
}
