/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-private.h"
#include "sf-energy.h"
#include "sf-governor.h"
#include "sf-selector.h"
#include "sf-suppress.h"

/*
 * Both adapters and stillframe-replay parse through here, so a value means
 * the same in weston.ini, in xorg.conf and on the command line, and the
 * man page (generated from the same table) cannot drift from the code.
 */

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


const struct sf_option *
sf_config_find(enum sf_config_namespace ns, const char *name)
{
	if (!name)
		return NULL;
	size_t n_options;
	const struct sf_option *options = sf_config_options(&n_options);

	for (size_t i = 0; i < n_options; i++) {
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


/* An option's value, parsed or its default, before the option is set. */
union parsed {
	bool b;
	int64_t i;
	double d;
	char s[SF_CONFIG_STRING_MAX];
};

/* Writes a value (parsed or default) into the option's field of cfg. */
static void
store(struct sf_config *cfg, const struct sf_option *opt,
      const union parsed *v)
{
	switch (opt->type) {
	case SF_OPTION_BOOL:
		*bool_field(cfg, opt) = v->b;
		break;
	case SF_OPTION_INT:
	case SF_OPTION_ENUM:
		*int_field(cfg, opt) = v->i;
		break;
	case SF_OPTION_DOUBLE:
		*double_field(cfg, opt) = v->d;
		break;
	case SF_OPTION_STRING:
		snprintf(string_field(cfg, opt), SF_CONFIG_STRING_MAX, "%s",
			 v->s);
		break;
	}
}

/* The option's default, in the form a parser would give it. */
static void
default_value(const struct sf_option *opt, union parsed *v)
{
	if (opt->type == SF_OPTION_BOOL)
		v->b = opt->def != 0;
	else if (opt->type == SF_OPTION_DOUBLE)
		v->d = opt->ddef;
	else if (opt->type == SF_OPTION_STRING)
		snprintf(v->s, sizeof(v->s), "%s", opt->sdef);
	else
		v->i = opt->def;
}

void
sf_config_init_defaults(struct sf_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	size_t n_options;
	const struct sf_option *options = sf_config_options(&n_options);

	for (size_t i = 0; i < n_options; i++) {
		union parsed v;
		default_value(&options[i], &v);
		store(cfg, &options[i], &v);
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

/* A parser of one option type: reads the `len` bytes at `s` (already
 * trimmed) into the union member of that type. */
typedef enum sf_config_status parse_fn(const struct sf_option *opt,
				       const char *s, size_t len,
				       union parsed *out);

static enum sf_config_status
parse_bool(const struct sf_option *opt, const char *s, size_t len,
	   union parsed *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	(void)opt;
	for (size_t i = 0; i < SF_ARRAY_LENGTH(yes); i++) {
		if (word_equal(s, len, yes[i])) {
			out->b = true;
			return SF_CONFIG_OK;
		}
		if (word_equal(s, len, no[i])) {
			out->b = false;
			return SF_CONFIG_OK;
		}
	}
	return SF_CONFIG_INVALID_VALUE;
}

static enum sf_config_status
parse_int(const struct sf_option *opt, const char *s, size_t len,
	  union parsed *out)
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
	out->i = v;
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
	     union parsed *out)
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
	out->d = v == 0.0 ? 0.0 : v;
	return SF_CONFIG_OK;
}

static enum sf_config_status
parse_enum(const struct sf_option *opt, const char *s, size_t len,
	   union parsed *out)
{
	for (size_t i = 0; opt->choices[i]; i++) {
		if (word_equal(s, len, opt->choices[i])) {
			out->i = (int64_t)i;
			return SF_CONFIG_OK;
		}
	}
	return SF_CONFIG_INVALID_VALUE;
}

static enum sf_config_status
parse_string(const struct sf_option *opt, const char *s, size_t len,
	     union parsed *out)
{
	return opt->syntax->parse(s, len, out->s) ? SF_CONFIG_OK :
	       SF_CONFIG_INVALID_VALUE;
}

/* Indexed by enum sf_option_type. */
static parse_fn *const parsers[] = {
	[SF_OPTION_BOOL] = parse_bool,
	[SF_OPTION_INT] = parse_int,
	[SF_OPTION_DOUBLE] = parse_double,
	[SF_OPTION_ENUM] = parse_enum,
	[SF_OPTION_STRING] = parse_string,
};

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

	/* xorg.conf: `Option "Reclock"` with no value means true, as it
	 * does for the X server's own boolean options. */
	if (opt->type == SF_OPTION_BOOL && len == 0 &&
	    ns == SF_CONFIG_NS_XORG) {
		s = "true";
		len = strlen(s);
	}

	union parsed v;
	enum sf_config_status status = parsers[opt->type](opt, s, len, &v);
	if (status != SF_CONFIG_OK) {
		report_error(cfg, opt, ns, status, s, len, err, err_size);
		return status;
	}

	store(cfg, opt, &v);
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
