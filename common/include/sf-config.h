/* SPDX-License-Identifier: MIT */
#ifndef SF_CONFIG_H
#define SF_CONFIG_H

#include <stddef.h>
#include "sf-types.h"

struct sf_governor_params;
struct sf_selector_params;
struct sf_suppress_params;
struct sf_energy_params;

/*
 * The one table of every option.  The Weston plugin reads each key from
 * its [stillframe] section, the Xorg module each Option name from its
 * SubSection, and both hand the raw string to sf_config_set(); the man
 * page is generated from the same table.  Values are stored in the units
 * the user writes (ms, s, Hz, %, W); the *_params() helpers convert.
 */

enum sf_config_namespace {
	SF_CONFIG_NS_INI = 0,	/* weston.ini key, e.g. "low-refresh-timeout" */
	SF_CONFIG_NS_XORG,	/* xorg.conf Option, e.g. "LowRefreshTimeout" */
};

enum sf_config_status {
	SF_CONFIG_OK = 0,
	SF_CONFIG_UNKNOWN_KEY,
	SF_CONFIG_INVALID_VALUE,	/* not a number, bool, choice, list */
	SF_CONFIG_OUT_OF_RANGE,
};

enum sf_option_type {
	SF_OPTION_BOOL = 0,
	SF_OPTION_INT,
	SF_OPTION_DOUBLE,
	SF_OPTION_ENUM,
	SF_OPTION_STRING,
};

/* Room for a STRING option's value, its NUL included. */
#define SF_CONFIG_STRING_MAX 256

/* Checks the `len` bytes at `s` (already trimmed) and writes the
 * normalised value to `out`; false if they are not allowed, and then
 * `out` is left alone. */
typedef bool sf_option_parse_fn(const char *s, size_t len,
				char out[SF_CONFIG_STRING_MAX]);

/* What a STRING option may hold. */
struct sf_option_syntax {
	const char *placeholder;	/* man page synopsis: "output,..." */
	const char *range;		/* man page and format_range() */
	const char *expected;		/* messages: "is not <expected>" */
	sf_option_parse_fn *parse;
};

struct sf_option {
	const char *key;		/* weston.ini */
	const char *xorg_name;		/* xorg.conf Option */
	enum sf_option_type type;
	const char *unit;		/* "ms", "s", "Hz", "%", "px", "W", ... or NULL */
	int64_t min, max, def;		/* BOOL (0/1), INT, ENUM (index) */
	double dmin, dmax, ddef;	/* DOUBLE */
	const char *const *choices;	/* ENUM: NULL-terminated names */
	const char *sdef;		/* STRING */
	const struct sf_option_syntax *syntax;	/* STRING */
	size_t offset;			/* into struct sf_config */
	const char *doc;		/* one line, no trailing period */
};

enum sf_refresh_switch_choice {
	SF_CONFIG_REFRESH_SWITCH_SEAMLESS = 0,
	SF_CONFIG_REFRESH_SWITCH_ALWAYS,
	SF_CONFIG_REFRESH_SWITCH_NEVER,
};

struct sf_config {
	bool enable;
	/* idle governor */
	int64_t low_refresh_timeout_ms;
	int64_t dim_timeout_s;
	int64_t dim_brightness_pct;
	int64_t standby_timeout_s;
	int64_t off_timeout_s;
	int64_t external_standby_timeout_s;	/* -1: as standby-timeout */
	int64_t external_off_timeout_s;		/* -1: as off-timeout */
	int64_t wake_request_hold_s;
	int64_t wake_latency_limit_ms;
	int64_t quick_wake_window_s;
	bool reclock;
	int64_t reclock_delay_ms;
	bool reclock_memory;
	bool reclock_nouveau;
	char platform_root[SF_CONFIG_STRING_MAX];
	/* refresh selector */
	char outputs[SF_CONFIG_STRING_MAX];	/* normalised "a,b,c" */
	/* output power */
	char unneeded_outputs[SF_CONFIG_STRING_MAX];	/* "a,b" or "" */
	bool hotplug_power_on;
	int64_t active_refresh_hz;
	int64_t idle_min_refresh_hz;
	int64_t pointer_min_refresh_hz;
	int64_t refresh_dwell_ms;
	int64_t new_window_native_ms;
	int64_t refresh_switch;		/* enum sf_refresh_switch_choice */
	/* repaint suppression */
	bool suppress;
	int64_t suppress_idle_delay_ms;
	int64_t blink_max_staleness_ms;
	int64_t tick_max_staleness_ms;
	int64_t redundant_max_staleness_ms;
	int64_t background_frame_rate_hz;
	bool synthesize_low_refresh;
	char essential_apps[SF_CONFIG_STRING_MAX];	/* "a,b,c" or "" */
	char background_apps[SF_CONFIG_STRING_MAX];
	int64_t hash_max_area_px;
	/* energy model (an estimate) */
	double energy_gpu_active_w;
	int64_t energy_wake_hold_ms;
	double energy_link_w_per_hz;
	double energy_reclock_w;
	double energy_backlight_w;
	double energy_panel_w;
	double energy_output_w;
};

/* All options, in documentation order. */
const struct sf_option *
sf_config_options(size_t *count);

/* Looks an option up by weston.ini key (exact) or Xorg option name
 * (compared as the X server does: case, '_', ' ' and '\t' ignored). */
const struct sf_option *
sf_config_find(enum sf_config_namespace ns, const char *name);

/* The name of `opt` in `ns`. */
const char *
sf_option_name(const struct sf_option *opt, enum sf_config_namespace ns);

void
sf_config_init_defaults(struct sf_config *cfg);

/* Parses `value` for option `name`.  On error the option keeps its value,
 * and `err` (if not NULL) receives a sentence naming the key, the value
 * and the allowed range or choices. */
enum sf_config_status
sf_config_set(struct sf_config *cfg, enum sf_config_namespace ns,
	      const char *name, const char *value,
	      char *err, size_t err_size);

/* Human-readable default, e.g. "1000", "true", "seamless", "15.0",
 * "internal". */
int
sf_option_format_default(const struct sf_option *opt, char *buf,
			 size_t size);

/* Human-readable range, e.g. "100..600000", "true|false",
 * "seamless|always|never", "0.0..500.0", or a STRING option's range in
 * words. */
int
sf_option_format_range(const struct sf_option *opt, char *buf, size_t size);

/* The current value, formatted like the default. */
int
sf_config_format_value(const struct sf_config *cfg,
		       const struct sf_option *opt, char *buf, size_t size);

/* Whether stillframe may change the refresh rate of the output called
 * `output_name` (NULL for one without a name): the "outputs" list has
 * "all", or that name (exactly, case and all), or "internal" and the
 * compositor reports the output as built in (`is_internal`). */
bool
sf_config_output_selected(const struct sf_config *cfg,
			  const char *output_name, bool is_internal);

/* Whether the "unneeded-outputs" list names the output: by name
 * (exactly), or as "external" (kind EXTERNAL) or "all-but-internal"
 * (any kind but INTERNAL). */
bool
sf_config_output_unneeded(const struct sf_config *cfg,
			  const char *output_name, enum sf_output_kind kind);

/* The priority the essential-apps and background-apps lists give an
 * application known by `app` (a Wayland app_id, or an X WM_CLASS
 * instance) and `app_class` (the WM_CLASS class; NULL on Wayland):
 * essential if either name is in essential-apps, else background if
 * either is in background-apps, else normal.  Exact, case-sensitive
 * match, as app_ids and WM_CLASS are compared everywhere. */
enum sf_priority
sf_config_app_priority(const struct sf_config *cfg, const char *app,
		       const char *app_class);

/* The governor of an output of `kind`: external outputs take the
 * external-*-timeout values and a monitor's wake latencies, and are never
 * dimmed; virtual ones are treated as internal. */
void
sf_config_governor_params(const struct sf_config *cfg,
			  enum sf_output_kind kind,
			  struct sf_governor_params *out);

void
sf_config_selector_params(const struct sf_config *cfg,
			  struct sf_selector_params *out);

void
sf_config_suppress_params(const struct sf_config *cfg,
			  struct sf_suppress_params *out);

void
sf_config_energy_params(const struct sf_config *cfg,
			struct sf_energy_params *out);

const char *
sf_config_status_name(enum sf_config_status status);

#endif /* SF_CONFIG_H */
