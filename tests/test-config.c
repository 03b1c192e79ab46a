/* SPDX-License-Identifier: MIT */
#include <locale.h>

#include "sf-config.h"
#include "sf-energy.h"
#include "sf-governor.h"
#include "sf-selector.h"
#include "sf-suppress.h"
#include "sf-test.h"

/*
 * The option table is the contract between the parsers of both adapters,
 * the man page and the example files: every test here walks the whole
 * table, so an option added without its documentation fails.
 */

/* What the table must say, in documentation order. */
static const struct {
	const char *key, *xorg, *unit, *range, *def;
	enum sf_option_type type;
} expected_options[] = {
	{ "enable", "Enable", NULL, "true|false", "true", SF_OPTION_BOOL },
	{ "low-refresh-timeout", "LowRefreshTimeout", "ms", "100..600000",
	  "5000", SF_OPTION_INT },
	{ "dim-timeout", "DimTimeout", "s", "0..86400", "120",
	  SF_OPTION_INT },
	{ "dim-brightness", "DimBrightness", "%", "1..100", "30",
	  SF_OPTION_INT },
	{ "standby-timeout", "StandbyTimeout", "s", "0..86400", "300",
	  SF_OPTION_INT },
	{ "off-timeout", "OffTimeout", "s", "0..86400", "600",
	  SF_OPTION_INT },
	{ "external-standby-timeout", "ExternalStandbyTimeout", "s",
	  "-1..86400", "-1", SF_OPTION_INT },
	{ "external-off-timeout", "ExternalOffTimeout", "s", "-1..86400",
	  "-1", SF_OPTION_INT },
	{ "wake-request-hold", "WakeRequestHold", "s", "0..86400", "300",
	  SF_OPTION_INT },
	{ "wake-latency-limit", "WakeLatencyLimit", "ms", "0..60000", "1000",
	  SF_OPTION_INT },
	{ "quick-wake-window", "QuickWakeWindow", "s", "0..600", "10",
	  SF_OPTION_INT },
	{ "reclock", "Reclock", NULL, "true|false", "true", SF_OPTION_BOOL },
	{ "reclock-delay", "ReclockDelay", "ms", "0..600000", "2000",
	  SF_OPTION_INT },
	{ "reclock-memory", "ReclockMemory", NULL, "true|false", "true",
	  SF_OPTION_BOOL },
	{ "reclock-nouveau", "ReclockNouveau", NULL, "true|false", "false",
	  SF_OPTION_BOOL },
	{ "platform-root", "PlatformRoot", NULL,
	  "an absolute directory path without \"..\"", "/",
	  SF_OPTION_STRING },
	{ "outputs", "Outputs", NULL,
	  "comma-separated output names, internal or all", "internal",
	  SF_OPTION_STRING },
	{ "unneeded-outputs", "UnneededOutputs", NULL,
	  "comma-separated output names, external or all-but-internal, or "
	  "empty", "", SF_OPTION_STRING },
	{ "hotplug-power-on", "HotplugPowerOn", NULL, "true|false", "true",
	  SF_OPTION_BOOL },
	{ "active-refresh", "ActiveRefresh", "Hz", "0..1000", "0",
	  SF_OPTION_INT },
	{ "idle-min-refresh", "IdleMinRefresh", "Hz", "1..1000", "30",
	  SF_OPTION_INT },
	{ "pointer-min-refresh", "PointerMinRefresh", "Hz", "0..1000", "30",
	  SF_OPTION_INT },
	{ "refresh-dwell", "RefreshDwell", "ms", "0..60000", "2000",
	  SF_OPTION_INT },
	{ "new-window-native", "NewWindowNative", "ms", "0..60000", "3000",
	  SF_OPTION_INT },
	{ "synthesize-low-refresh", "SynthesizeLowRefresh", NULL,
	  "true|false", "false", SF_OPTION_BOOL },
	{ "refresh-switch", "RefreshSwitch", NULL, "seamless|always|never",
	  "seamless", SF_OPTION_ENUM },
	{ "suppress", "Suppress", NULL, "true|false", "true",
	  SF_OPTION_BOOL },
	{ "suppress-idle-delay", "SuppressIdleDelay", "ms", "0..600000",
	  "3000", SF_OPTION_INT },
	{ "blink-max-staleness", "BlinkMaxStaleness", "ms", "100..3600000",
	  "30000", SF_OPTION_INT },
	{ "tick-max-staleness", "TickMaxStaleness", "ms", "100..3600000",
	  "30000", SF_OPTION_INT },
	{ "redundant-max-staleness", "RedundantMaxStaleness", "ms",
	  "10..600000", "1000", SF_OPTION_INT },
	{ "background-frame-rate", "BackgroundFrameRate", "Hz", "0..240", "5",
	  SF_OPTION_INT },
	{ "essential-apps", "EssentialApps", NULL,
	  "comma-separated app ids or X WM_CLASS names, or empty", "",
	  SF_OPTION_STRING },
	{ "background-apps", "BackgroundApps", NULL,
	  "comma-separated app ids or X WM_CLASS names, or empty", "",
	  SF_OPTION_STRING },
	{ "hash-max-area", "HashMaxArea", "px", "0..16777216", "65536",
	  SF_OPTION_INT },
	{ "energy-gpu-active-watts", "EnergyGpuActiveWatts", "W",
	  "0.0..500.0", "15.0", SF_OPTION_DOUBLE },
	{ "energy-wake-hold", "EnergyWakeHold", "ms", "0..10000", "67",
	  SF_OPTION_INT },
	{ "energy-link-watts-per-hz", "EnergyLinkWattsPerHz", "W/Hz",
	  "0.0..1.0", "0.0167", SF_OPTION_DOUBLE },
	{ "energy-reclock-watts", "EnergyReclockWatts", "W", "0.0..500.0",
	  "10.0", SF_OPTION_DOUBLE },
	{ "energy-backlight-watts", "EnergyBacklightWatts", "W",
	  "0.0..100.0", "2.5", SF_OPTION_DOUBLE },
	{ "energy-panel-watts", "EnergyPanelWatts", "W", "0.0..100.0", "1.0",
	  SF_OPTION_DOUBLE },
	{ "energy-output-watts", "EnergyOutputWatts", "W", "0.0..100.0",
	  "0.5", SF_OPTION_DOUBLE },
};

static bool *
bool_at(struct sf_config *cfg, const struct sf_option *opt)
{
	return (bool *)((char *)cfg + opt->offset);
}

static int64_t *
int_at(struct sf_config *cfg, const struct sf_option *opt)
{
	return (int64_t *)((char *)cfg + opt->offset);
}

static double *
double_at(struct sf_config *cfg, const struct sf_option *opt)
{
	return (double *)((char *)cfg + opt->offset);
}

static char *
string_at(struct sf_config *cfg, const struct sf_option *opt)
{
	return (char *)cfg + opt->offset;
}

/* Room for what show() and show_default() write. */
#define SHOWN_MAX (SF_CONFIG_STRING_MAX + 64)

/* "key=value" of one option, so a failed comparison says which. */
static const char *
show(const struct sf_config *cfg, const struct sf_option *opt, char *buf,
     size_t size)
{
	char value[SF_CONFIG_STRING_MAX];

	sf_config_format_value(cfg, opt, value, sizeof(value));
	snprintf(buf, size, "%s=%s", opt->key, value);
	return buf;
}

static const char *
show_default(const struct sf_option *opt, char *buf, size_t size)
{
	char value[SF_CONFIG_STRING_MAX];

	sf_option_format_default(opt, value, sizeof(value));
	snprintf(buf, size, "%s=%s", opt->key, value);
	return buf;
}

/* The whole configuration as text, to see that a set touched one field. */
static void
show_all(const struct sf_config *cfg, char *buf, size_t size)
{
	size_t n, used = 0;
	const struct sf_option *opts = sf_config_options(&n);

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++) {
		char one[SF_CONFIG_STRING_MAX + 64];
		int len = snprintf(buf + used, size - used, "%s\n",
				   show(cfg, &opts[i], one, sizeof(one)));
		used += (size_t)len;
	}
}

/* The STRING options other than outputs: lists of app ids. */
static bool
is_app_list(const struct sf_option *o)
{
	return o->type == SF_OPTION_STRING &&
	       strcmp(o->syntax->placeholder, "app,...") == 0;
}

/* Lists that may be empty: the app lists and unneeded-outputs. */
static bool
list_may_be_empty(const struct sf_option *o)
{
	return is_app_list(o) ||
	       (o->type == SF_OPTION_STRING &&
		strcmp(o->key, "unneeded-outputs") == 0);
}

/* The one STRING option that is a directory, not a list. */
static bool
is_path(const struct sf_option *o)
{
	return o->type == SF_OPTION_STRING &&
	       strcmp(o->syntax->placeholder, "directory") == 0;
}

/* A valid value other than the default. */
static void
other_value(const struct sf_option *opt, char *buf, size_t size)
{
	switch (opt->type) {
	case SF_OPTION_BOOL:
		snprintf(buf, size, "%s", opt->def ? "false" : "true");
		return;
	case SF_OPTION_INT:
		snprintf(buf, size, "%lld", (long long)(opt->def != opt->max ?
							opt->max : opt->min));
		return;
	case SF_OPTION_ENUM:
		snprintf(buf, size, "%s", opt->choices[(opt->def + 1) %
						       (opt->max + 1)]);
		return;
	case SF_OPTION_DOUBLE:
		/* Halfway to the maximum: not a round number. */
		snprintf(buf, size, "%.17g", (opt->ddef + opt->dmax) / 2);
		return;
	case SF_OPTION_STRING:
		/* Already normalised. */
		snprintf(buf, size, is_path(opt) ? "/tmp/sf-fake-root" :
			 is_app_list(opt) ? "org.example.App,mpv" :
			 "eDP-1,HDMI-A-1");
		return;
	}
}

/* The Xorg name spelled the other ways the X server accepts:
 * "low_refresh_timeout" and "_LOW REFRESH\tTIMEOUT ". */
static void
xorg_spellings(const char *name, char *lower_buf, char *upper_buf)
{
	size_t a = 0, b = 0, words = 0;

	upper_buf[b++] = '_';
	for (size_t i = 0; name[i]; i++) {
		char c = name[i];
		bool cap = c >= 'A' && c <= 'Z';
		if (cap && i > 0) {
			lower_buf[a++] = '_';
			upper_buf[b++] = words++ % 2 ? '\t' : ' ';
		}
		lower_buf[a++] = cap ? (char)(c - 'A' + 'a') : c;
		upper_buf[b++] = c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A')
						      : c;
	}
	upper_buf[b++] = ' ';
	lower_buf[a] = '\0';
	upper_buf[b] = '\0';
}

/* Roff text as gen-man writes it. */
static void
roff(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s && n + 5 < size; s++) {
		if (*s == '-') {
			buf[n++] = '\\';
			buf[n++] = '-';
		} else if (*s == '"') {
			memcpy(buf + n, "\\(dq", 4);
			n += 4;
		} else if (*s == '\\') {
			buf[n++] = '\\';
			buf[n++] = 'e';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
}

static char *
read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *data = malloc(cap);
	size_t got;
	while (data && (got = fread(data + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len - 1 == 0) {
			char *bigger = realloc(data, cap * 2);
			if (!bigger) {
				free(data);
				data = NULL;
				break;
			}
			data = bigger;
			cap *= 2;
		}
	}
	if (data)
		data[len] = '\0';
	fclose(f);
	return data;
}

/* Whether `text` has a line that, with leading blanks removed, is
 * exactly `line`; returns how many such lines. */
static int
count_lines(const char *text, const char *line)
{
	int count = 0;
	size_t len = strlen(line);

	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		const char *q = p;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(end - q) == len && memcmp(q, line, len) == 0)
			count++;
		p = *end ? end + 1 : end;
	}
	return count;
}

SF_TEST(table_is_the_documented_one)
{
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);

	sf_assert_int_eq(n, SF_ARRAY_LENGTH(expected_options));
	for (size_t i = 0; i < n; i++) {
		char range[128], def[64], got[256], want[256];
		sf_option_format_range(&opts[i], range, sizeof(range));
		sf_option_format_default(&opts[i], def, sizeof(def));
		snprintf(got, sizeof(got), "%s %s %d %s %s %s", opts[i].key,
			 opts[i].xorg_name, opts[i].type,
			 opts[i].unit ? opts[i].unit : "-", range, def);
		snprintf(want, sizeof(want), "%s %s %d %s %s %s",
			 expected_options[i].key, expected_options[i].xorg,
			 expected_options[i].type,
			 expected_options[i].unit ? expected_options[i].unit
						  : "-",
			 expected_options[i].range, expected_options[i].def);
		sf_assert_str_eq(got, want);
	}
}

SF_TEST(table_is_well_formed)
{
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);

	sf_assert_int_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		const struct sf_option *o = &opts[i];
		sf_assert(o->key && o->key[0]);
		sf_assert(o->xorg_name && o->xorg_name[0]);
		/* Unique in both namespaces: each name finds its own entry,
		 * not an earlier one that compares equal. */
		sf_assert(sf_config_find(SF_CONFIG_NS_INI, o->key) == o);
		sf_assert(sf_config_find(SF_CONFIG_NS_XORG, o->xorg_name) == o);
		for (size_t j = 0; j < i; j++)
			sf_assert_int_ne(opts[j].offset, o->offset);
		sf_assert(o->doc && o->doc[0]);
		size_t len = strlen(o->doc);
		sf_assert_int_ne(o->doc[len - 1], '.');
		sf_assert(!strchr(o->doc, '\n'));
		sf_assert_str_eq(sf_option_name(o, SF_CONFIG_NS_INI), o->key);
		sf_assert_str_eq(sf_option_name(o, SF_CONFIG_NS_XORG),
				 o->xorg_name);
		switch (o->type) {
		case SF_OPTION_BOOL:
			sf_assert(o->min == 0 && o->max == 1);
			sf_assert(o->unit == NULL);
			sf_assert_int_le(o->offset + sizeof(bool),
					 sizeof(struct sf_config));
			break;
		case SF_OPTION_ENUM: {
			size_t k = 0;
			while (o->choices[k])
				k++;
			sf_assert_int_eq(o->max + 1, k);
			sf_assert(o->unit == NULL);
		}
			/* fall through */
		case SF_OPTION_INT:
			sf_assert_int_le(o->min, o->def);
			sf_assert_int_le(o->def, o->max);
			sf_assert_int_le(o->offset + sizeof(int64_t),
					 sizeof(struct sf_config));
			break;
		case SF_OPTION_DOUBLE:
			sf_assert(o->dmin <= o->ddef && o->ddef <= o->dmax);
			sf_assert_int_le(o->offset + sizeof(double),
					 sizeof(struct sf_config));
			break;
		case SF_OPTION_STRING:
			sf_assert(o->unit == NULL);
			sf_assert(o->sdef != NULL);
			sf_assert_int_lt(strlen(o->sdef), SF_CONFIG_STRING_MAX);
			sf_assert(o->syntax != NULL);
			sf_assert(o->syntax->placeholder && o->syntax->range &&
				  o->syntax->expected && o->syntax->parse);
			sf_assert_int_le(o->offset + SF_CONFIG_STRING_MAX,
					 sizeof(struct sf_config));
			break;
		}
	}
}

SF_TEST(defaults_come_from_the_table)
{
	struct sf_config cfg;
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);

	sf_config_init_defaults(&cfg);
	for (size_t i = 0; i < n; i++) {
		const struct sf_option *o = &opts[i];
		char got[SHOWN_MAX], want[SHOWN_MAX];
		sf_assert_str_eq(show(&cfg, o, got, sizeof(got)),
				 show_default(o, want, sizeof(want)));
		switch (o->type) {
		case SF_OPTION_BOOL:
			sf_assert_int_eq(*bool_at(&cfg, o), o->def);
			break;
		case SF_OPTION_INT:
		case SF_OPTION_ENUM:
			sf_assert_int_eq(*int_at(&cfg, o), o->def);
			break;
		case SF_OPTION_DOUBLE:
			sf_assert(*double_at(&cfg, o) == o->ddef);
			break;
		case SF_OPTION_STRING:
			sf_assert_str_eq(string_at(&cfg, o), o->sdef);
			break;
		}
	}
	/* A few fields by name, in case the table's offsets are wrong. */
	sf_assert(cfg.enable);
	sf_assert_str_eq(cfg.outputs, "internal");
	sf_assert_int_eq(cfg.low_refresh_timeout_ms, 5000);
	sf_assert_int_eq(cfg.dim_brightness_pct, 30);
	sf_assert_int_eq(cfg.refresh_switch, SF_CONFIG_REFRESH_SWITCH_SEAMLESS);
	sf_assert_int_eq(cfg.hash_max_area_px, 65536);
	sf_assert_int_eq(cfg.energy_wake_hold_ms, 67);
	sf_assert_double_near(cfg.energy_link_w_per_hz, 0.0167, 0);
	sf_assert_double_near(cfg.energy_output_w, 0.5, 0);
}

SF_TEST(every_option_is_set_alike_in_both_namespaces)
{
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);
	static char before[8192], after[8192];

	for (size_t i = 0; i < n; i++) {
		const struct sf_option *o = &opts[i];
		char value[64], lower[64], upper[80];
		const char *names[4];
		enum sf_config_namespace ns[4] = {
			SF_CONFIG_NS_INI, SF_CONFIG_NS_XORG,
			SF_CONFIG_NS_XORG, SF_CONFIG_NS_XORG,
		};
		struct sf_config cfg[4];
		char shown[4][SHOWN_MAX];

		other_value(o, value, sizeof(value));
		xorg_spellings(o->xorg_name, lower, upper);
		names[0] = o->key;
		names[1] = o->xorg_name;
		names[2] = lower;
		names[3] = upper;
		for (int k = 0; k < 4; k++) {
			char err[256] = "";
			sf_config_init_defaults(&cfg[k]);
			enum sf_config_status st =
				sf_config_set(&cfg[k], ns[k], names[k], value,
					      err, sizeof(err));
			sf_assert_str_eq(err, "");
			sf_assert_str_eq(sf_config_status_name(st), "ok");
			show(&cfg[k], o, shown[k], sizeof(shown[k]));
			sf_assert_str_eq(shown[k], shown[0]);
		}
		/* The value landed, and nothing else moved. */
		char def[SHOWN_MAX];
		sf_assert_int_ne(strcmp(shown[0], show_default(o, def,
							       sizeof(def))),
				 0);
		if (o->type == SF_OPTION_DOUBLE) {
			sf_assert(*double_at(&cfg[0], o) ==
				  strtod(value, NULL));
		} else {
			char want[128];
			snprintf(want, sizeof(want), "%s=%s", o->key, value);
			sf_assert_str_eq(shown[0], want);
		}
		struct sf_config fresh;
		sf_config_init_defaults(&fresh);
		if (o->type == SF_OPTION_BOOL)
			*bool_at(&fresh, o) = *bool_at(&cfg[0], o);
		if (o->type == SF_OPTION_INT || o->type == SF_OPTION_ENUM)
			*int_at(&fresh, o) = *int_at(&cfg[0], o);
		if (o->type == SF_OPTION_DOUBLE)
			*double_at(&fresh, o) = *double_at(&cfg[0], o);
		if (o->type == SF_OPTION_STRING)
			memcpy(string_at(&fresh, o), string_at(&cfg[0], o),
			       SF_CONFIG_STRING_MAX);
		show_all(&fresh, before, sizeof(before));
		show_all(&cfg[3], after, sizeof(after));
		sf_assert_str_eq(after, before);
	}
}

SF_TEST(names_follow_their_namespace)
{
	struct sf_config cfg;
	sf_config_init_defaults(&cfg);
	static const struct {
		enum sf_config_namespace ns;
		const char *name;
		bool found;
	} cases[] = {
		{ SF_CONFIG_NS_INI, "low-refresh-timeout", true },
		{ SF_CONFIG_NS_INI, "LowRefreshTimeout", false },
		{ SF_CONFIG_NS_INI, "Low-Refresh-Timeout", false },
		{ SF_CONFIG_NS_INI, "low_refresh_timeout", false },
		{ SF_CONFIG_NS_INI, " low-refresh-timeout", false },
		{ SF_CONFIG_NS_INI, "low-refresh-timeou", false },
		{ SF_CONFIG_NS_INI, "", false },
		{ SF_CONFIG_NS_XORG, "LowRefreshTimeout", true },
		{ SF_CONFIG_NS_XORG, "lowrefreshtimeout", true },
		{ SF_CONFIG_NS_XORG, "Low_Refresh_Timeout", true },
		{ SF_CONFIG_NS_XORG, "low refresh\ttimeout", true },
		{ SF_CONFIG_NS_XORG, "__LOWREFRESHTIMEOUT__", true },
		/* '-' is not one of the characters xf86NameCmp skips. */
		{ SF_CONFIG_NS_XORG, "low-refresh-timeout", false },
		{ SF_CONFIG_NS_XORG, "LowRefreshTimeoutX", false },
		{ SF_CONFIG_NS_XORG, "LowRefreshTimeou", false },
		{ SF_CONFIG_NS_XORG, "", false },
		{ SF_CONFIG_NS_XORG, "_ \t", false },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		const struct sf_option *o = sf_config_find(cases[i].ns,
							   cases[i].name);
		char got[128], want[128];
		snprintf(got, sizeof(got), "%d \"%s\": %s", cases[i].ns,
			 cases[i].name, o ? o->key : "(none)");
		snprintf(want, sizeof(want), "%d \"%s\": %s", cases[i].ns,
			 cases[i].name,
			 cases[i].found ? "low-refresh-timeout" : "(none)");
		sf_assert_str_eq(got, want);
	}
	sf_assert(sf_config_find(SF_CONFIG_NS_INI, NULL) == NULL);
	sf_assert(sf_config_find(SF_CONFIG_NS_XORG, NULL) == NULL);
}

SF_TEST(unknown_key_is_reported_and_changes_nothing)
{
	struct sf_config cfg;
	static char before[8192], after[8192];
	char err[128];

	sf_config_init_defaults(&cfg);
	show_all(&cfg, before, sizeof(before));
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "foo", "1", err,
				       sizeof(err)), SF_CONFIG_UNKNOWN_KEY);
	sf_assert_str_eq(err, "unknown option \"foo\"");
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_XORG, "Foo_Bar",
				       "1", err, sizeof(err)),
			 SF_CONFIG_UNKNOWN_KEY);
	sf_assert_str_eq(err, "unknown option \"Foo_Bar\"");
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "Enable",
				       "false", NULL, 0),
			 SF_CONFIG_UNKNOWN_KEY);
	show_all(&cfg, after, sizeof(after));
	sf_assert_str_eq(after, before);
}

/* One bad value for one option: the status, the value kept, and a
 * message naming the key, the value, the range and the kept value. */
struct bad_case {
	const char *value;
	enum sf_config_status status;
};

static void
trimmed(const char *s, char *buf, size_t size)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	size_t len = strlen(s);
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
			   s[len - 1] == '\n'))
		len--;
	snprintf(buf, size, "%.*s", (int)len, s);
}

/* Room for one bad value: a name one past the longest app id. */
#define BAD_CASE_MAX 96

static size_t
bad_cases(const struct sf_option *o, struct bad_case *out,
	  char storage[][BAD_CASE_MAX])
{
	size_t n = 0;
	int too_long = is_app_list(o) ? 64 : 32;

#define ADD(status_, ...)						\
	do {								\
		snprintf(storage[n], BAD_CASE_MAX, __VA_ARGS__);	\
		out[n].value = storage[n];				\
		out[n].status = status_;				\
		n++;							\
	} while (0)
	switch (o->type) {
	case SF_OPTION_INT:
		ADD(SF_CONFIG_OUT_OF_RANGE, "%lld", (long long)o->min - 1);
		ADD(SF_CONFIG_OUT_OF_RANGE, "%lld", (long long)o->max + 1);
		ADD(SF_CONFIG_OUT_OF_RANGE, " %lld\t", (long long)o->max * 10);
		ADD(SF_CONFIG_OUT_OF_RANGE, "99999999999999999999");
		ADD(SF_CONFIG_OUT_OF_RANGE, "-99999999999999999999");
		ADD(SF_CONFIG_INVALID_VALUE, "12abc");
		ADD(SF_CONFIG_INVALID_VALUE, "abc");
		ADD(SF_CONFIG_INVALID_VALUE, "%s", "");
		ADD(SF_CONFIG_INVALID_VALUE, "   ");
		ADD(SF_CONFIG_INVALID_VALUE, "nan");
		ADD(SF_CONFIG_INVALID_VALUE, "inf");
		ADD(SF_CONFIG_INVALID_VALUE, "1.5");
		ADD(SF_CONFIG_INVALID_VALUE, "1e3");
		ADD(SF_CONFIG_INVALID_VALUE, "0x10");
		ADD(SF_CONFIG_INVALID_VALUE, "-");
		ADD(SF_CONFIG_INVALID_VALUE, "1 2");
		ADD(SF_CONFIG_INVALID_VALUE, "- 5");
		break;
	case SF_OPTION_DOUBLE:
		ADD(SF_CONFIG_OUT_OF_RANGE, "-1");
		ADD(SF_CONFIG_OUT_OF_RANGE, "-0.001");
		ADD(SF_CONFIG_OUT_OF_RANGE, "%.17g", o->dmax * 2);
		ADD(SF_CONFIG_OUT_OF_RANGE, "%.17g", o->dmax + 0.001);
		ADD(SF_CONFIG_OUT_OF_RANGE, "1e999");
		ADD(SF_CONFIG_OUT_OF_RANGE, "-1e999");
		ADD(SF_CONFIG_INVALID_VALUE, "nan");
		ADD(SF_CONFIG_INVALID_VALUE, "NaN");
		ADD(SF_CONFIG_INVALID_VALUE, "inf");
		ADD(SF_CONFIG_INVALID_VALUE, "-infinity");
		ADD(SF_CONFIG_INVALID_VALUE, "12abc");
		ADD(SF_CONFIG_INVALID_VALUE, "%s", "");
		ADD(SF_CONFIG_INVALID_VALUE, " \t ");
		ADD(SF_CONFIG_INVALID_VALUE, "0x1p3");
		ADD(SF_CONFIG_INVALID_VALUE, "1.5.2");
		ADD(SF_CONFIG_INVALID_VALUE, "1,5");
		ADD(SF_CONFIG_INVALID_VALUE, ".");
		ADD(SF_CONFIG_INVALID_VALUE, "e5");
		ADD(SF_CONFIG_INVALID_VALUE, "1e");
		ADD(SF_CONFIG_INVALID_VALUE, "1 W");
		break;
	case SF_OPTION_BOOL:
		ADD(SF_CONFIG_INVALID_VALUE, "maybe");
		ADD(SF_CONFIG_INVALID_VALUE, "2");
		ADD(SF_CONFIG_INVALID_VALUE, "tru");
		ADD(SF_CONFIG_INVALID_VALUE, "truee");
		ADD(SF_CONFIG_INVALID_VALUE, "y");
		ADD(SF_CONFIG_INVALID_VALUE, "on off");
		ADD(SF_CONFIG_INVALID_VALUE, "01");
		break;
	case SF_OPTION_ENUM:
		ADD(SF_CONFIG_INVALID_VALUE, "sometimes");
		ADD(SF_CONFIG_INVALID_VALUE, "%s", "");
		ADD(SF_CONFIG_INVALID_VALUE, "%s2", o->choices[0]);
		ADD(SF_CONFIG_INVALID_VALUE, "0");
		ADD(SF_CONFIG_INVALID_VALUE, "1");
		break;
	case SF_OPTION_STRING:
		if (is_path(o)) {
			ADD(SF_CONFIG_INVALID_VALUE, "%s", "");
			ADD(SF_CONFIG_INVALID_VALUE, " \t ");
			ADD(SF_CONFIG_INVALID_VALUE, "relative/dir");
			ADD(SF_CONFIG_INVALID_VALUE, "/tmp/../etc");
			ADD(SF_CONFIG_INVALID_VALUE, "..");
			ADD(SF_CONFIG_INVALID_VALUE, "~/root");
			break;
		}
		/* Empty lists (app lists may be empty) and empty items. */
		if (!list_may_be_empty(o)) {
			ADD(SF_CONFIG_INVALID_VALUE, "%s", "");
			ADD(SF_CONFIG_INVALID_VALUE, " \t ");
		}
		ADD(SF_CONFIG_INVALID_VALUE, ",");
		ADD(SF_CONFIG_INVALID_VALUE, " , ");
		ADD(SF_CONFIG_INVALID_VALUE, "eDP-1,,x");
		ADD(SF_CONFIG_INVALID_VALUE, "eDP-1, ,x");
		ADD(SF_CONFIG_INVALID_VALUE, ",eDP-1");
		ADD(SF_CONFIG_INVALID_VALUE, "eDP-1,");
		ADD(SF_CONFIG_INVALID_VALUE, "internal,,all");
		/* Characters outside [A-Za-z0-9_.:-]. */
		ADD(SF_CONFIG_INVALID_VALUE, "eDP 1");
		ADD(SF_CONFIG_INVALID_VALUE, "eDP-1 HDMI-A-1");
		ADD(SF_CONFIG_INVALID_VALUE, "eDP-1;HDMI-A-1");
		ADD(SF_CONFIG_INVALID_VALUE, "HDMI/A");
		ADD(SF_CONFIG_INVALID_VALUE, "\"eDP-1\"");
		ADD(SF_CONFIG_INVALID_VALUE, "eDP-*");
		ADD(SF_CONFIG_INVALID_VALUE, "a=b");
		ADD(SF_CONFIG_INVALID_VALUE, "caf\xc3\xa9");
		ADD(SF_CONFIG_INVALID_VALUE, "eDP-1,HDMI\\A");
		/* Names one character too long (32 for outputs, 64 for
		 * apps), alone and in a list. */
		ADD(SF_CONFIG_INVALID_VALUE, "%.*s", too_long,
		    "abcdefghijklmnopqrstuvwxyz0123456789"
		    "abcdefghijklmnopqrstuvwxyz0123456789");
		ADD(SF_CONFIG_INVALID_VALUE, "all,%.*s", too_long,
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
		break;
	}
#undef ADD
	return n;
}

SF_TEST(bad_values_keep_the_current_value_and_say_why)
{
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);
	static char before[8192], after[8192];

	for (size_t i = 0; i < n; i++) {
		const struct sf_option *o = &opts[i];
		struct bad_case cases[32];
		char storage[32][BAD_CASE_MAX];
		size_t n_cases = bad_cases(o, cases, storage);

		sf_assert_int_gt(n_cases, 0);
		for (size_t c = 0; c < n_cases; c++) {
			for (int ns = SF_CONFIG_NS_INI; ns <= SF_CONFIG_NS_XORG;
			     ns++) {
				struct sf_config cfg;
				char value[BAD_CASE_MAX], kept[BAD_CASE_MAX];
				char range[128];
				char got[256], want[256], err[256];
				char needle[256];

				/* Start from a value that is not the
				 * default: "keeping" is the current value. */
				sf_config_init_defaults(&cfg);
				other_value(o, value, sizeof(value));
				sf_assert_int_eq(sf_config_set(&cfg, ns,
					sf_option_name(o, ns), value, NULL, 0),
					SF_CONFIG_OK);
				show_all(&cfg, before, sizeof(before));
				sf_config_format_value(&cfg, o, kept,
						       sizeof(kept));

				enum sf_config_status st = sf_config_set(&cfg,
					ns, sf_option_name(o, ns),
					cases[c].value, err, sizeof(err));
				snprintf(got, sizeof(got), "%s=\"%s\": %s",
					 sf_option_name(o, ns), cases[c].value,
					 sf_config_status_name(st));
				snprintf(want, sizeof(want), "%s=\"%s\": %s",
					 sf_option_name(o, ns), cases[c].value,
					 sf_config_status_name(
						 cases[c].status));
				sf_assert_str_eq(got, want);
				show_all(&cfg, after, sizeof(after));
				sf_assert_str_eq(after, before);

				snprintf(needle, sizeof(needle), "%s: ",
					 sf_option_name(o, ns));
				sf_assert_int_eq(strncmp(err, needle,
							 strlen(needle)), 0);
				trimmed(cases[c].value, value, sizeof(value));
				snprintf(needle, sizeof(needle), "\"%s\"",
					 value);
				sf_assert_str_contains(err, needle);
				sf_option_format_range(o, range,
						       sizeof(range));
				snprintf(needle, sizeof(needle), "%s%s%s",
					 range, o->unit ? " " : "",
					 o->unit ? o->unit : "");
				/* A string says what it may be in words. */
				if (o->type == SF_OPTION_STRING)
					snprintf(needle, sizeof(needle),
						 " is not %s;",
						 o->syntax->expected);
				sf_assert_str_contains(err, needle);
				snprintf(needle, sizeof(needle), "; keeping %s",
					 kept);
				sf_assert_str_contains(err, needle);
				sf_assert_int_eq(strcspn(err, "\n"),
						 strlen(err));
			}
		}
	}
}

SF_TEST(messages_read_as_documented)
{
	struct sf_config cfg;
	char err[256];

	sf_config_init_defaults(&cfg);
	static const struct {
		enum sf_config_namespace ns;
		const char *name, *value, *err;
	} cases[] = {
		{ SF_CONFIG_NS_INI, "low-refresh-timeout", "50",
		  "low-refresh-timeout: \"50\" is out of range 100..600000 ms; keeping 5000" },
		{ SF_CONFIG_NS_XORG, "low_refresh_timeout", " 50 ",
		  "LowRefreshTimeout: \"50\" is out of range 100..600000 ms; keeping 5000" },
		{ SF_CONFIG_NS_INI, "refresh-switch", "sometimes",
		  "refresh-switch: \"sometimes\" is not one of seamless|always|never; keeping seamless" },
		{ SF_CONFIG_NS_INI, "dim-timeout", "12abc",
		  "dim-timeout: \"12abc\" is not an integer in 0..86400 s; keeping 120" },
		{ SF_CONFIG_NS_INI, "reclock", "maybe",
		  "reclock: \"maybe\" is not a boolean (true|false); keeping true" },
		{ SF_CONFIG_NS_INI, "energy-backlight-watts", "nan",
		  "energy-backlight-watts: \"nan\" is not a number in 0.0..100.0 W; keeping 2.5" },
		{ SF_CONFIG_NS_XORG, "EnergyBacklightWatts", "101",
		  "EnergyBacklightWatts: \"101\" is out of range 0.0..100.0 W; keeping 2.5" },
		{ SF_CONFIG_NS_INI, "dim-brightness", "0",
		  "dim-brightness: \"0\" is out of range 1..100 %; keeping 30" },
		{ SF_CONFIG_NS_INI, "outputs", "eDP-1,,x",
		  "outputs: \"eDP-1,,x\" is not a comma-separated list of output names (letters, digits, . _ : -, at most 31 each); keeping internal" },
		{ SF_CONFIG_NS_XORG, "outputs", " eDP 1 ",
		  "Outputs: \"eDP 1\" is not a comma-separated list of output names (letters, digits, . _ : -, at most 31 each); keeping internal" },
		/* Control characters are not copied into a log line. */
		{ SF_CONFIG_NS_INI, "hash-max-area", "1\n2",
		  "hash-max-area: \"1?2\" is not an integer in 0..16777216 px; keeping 65536" },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		sf_assert_int_ne(sf_config_set(&cfg, cases[i].ns,
					       cases[i].name, cases[i].value,
					       err, sizeof(err)),
				 SF_CONFIG_OK);
		sf_assert_str_eq(err, cases[i].err);
	}

	/* A long value is cut short, but the message still ends. */
	char longval[300];
	memset(longval, '9', sizeof(longval) - 1);
	longval[sizeof(longval) - 1] = '\0';
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "dim-timeout",
				       longval, err, sizeof(err)),
			 SF_CONFIG_OUT_OF_RANGE);
	sf_assert_str_contains(err, "...\" is out of range 0..86400 s");
	sf_assert_str_contains(err, "; keeping 120");
}

SF_TEST(err_buffer_is_always_terminated)
{
	struct sf_config cfg;
	char err[16];

	sf_config_init_defaults(&cfg);
	/* Truncated, still a string. */
	memset(err, 'x', sizeof(err));
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
				       "low-refresh-timeout", "50", err, 10),
			 SF_CONFIG_OUT_OF_RANGE);
	sf_assert_str_eq(err, "low-refre");
	sf_assert_int_eq(err[10], 'x');
	memset(err, 'x', sizeof(err));
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "nope", "1",
				       err, 5), SF_CONFIG_UNKNOWN_KEY);
	sf_assert_str_eq(err, "unkn");
	/* Size 0 and NULL: nothing written, nothing crashes. */
	memset(err, 'x', sizeof(err));
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
				       "low-refresh-timeout", "50", err, 0),
			 SF_CONFIG_OUT_OF_RANGE);
	sf_assert_int_eq(err[0], 'x');
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
				       "low-refresh-timeout", "x", NULL, 0),
			 SF_CONFIG_INVALID_VALUE);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "nope", "x",
				       NULL, 0), SF_CONFIG_UNKNOWN_KEY);
	/* Success leaves an empty message, not the previous one. */
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
				       "low-refresh-timeout", "500", err,
				       sizeof(err)), SF_CONFIG_OK);
	sf_assert_str_eq(err, "");
	sf_assert_int_eq(cfg.low_refresh_timeout_ms, 500);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
				       "low-refresh-timeout", "600", NULL, 0),
			 SF_CONFIG_OK);
	sf_assert_int_eq(cfg.low_refresh_timeout_ms, 600);
}

SF_TEST(accepted_spellings)
{
	static const struct {
		enum sf_config_namespace ns;
		const char *name, *value, *result;
	} cases[] = {
		{ SF_CONFIG_NS_INI, "reclock", "false", "false" },
		{ SF_CONFIG_NS_INI, "reclock", "TRUE", "true" },
		{ SF_CONFIG_NS_INI, "reclock", "No", "false" },
		{ SF_CONFIG_NS_INI, "reclock", "yEs", "true" },
		{ SF_CONFIG_NS_INI, "reclock", "  OFF\t", "false" },
		{ SF_CONFIG_NS_INI, "reclock", "on", "true" },
		{ SF_CONFIG_NS_INI, "reclock", "\n0\n", "false" },
		{ SF_CONFIG_NS_INI, "reclock", "1", "true" },
		{ SF_CONFIG_NS_XORG, "Reclock", "Off", "false" },
		{ SF_CONFIG_NS_XORG, "Reclock", "", "true" },
		{ SF_CONFIG_NS_XORG, "Suppress", "no", "false" },
		{ SF_CONFIG_NS_XORG, "Suppress", NULL, "true" },
		{ SF_CONFIG_NS_INI, "refresh-switch", "ALWAYS", "always" },
		{ SF_CONFIG_NS_INI, "refresh-switch", " Never ", "never" },
		{ SF_CONFIG_NS_XORG, "RefreshSwitch", "SeamLess", "seamless" },
		{ SF_CONFIG_NS_INI, "idle-min-refresh", "+60", "60" },
		{ SF_CONFIG_NS_INI, "idle-min-refresh", " 024 ", "24" },
		{ SF_CONFIG_NS_INI, "idle-min-refresh", "1", "1" },
		{ SF_CONFIG_NS_INI, "idle-min-refresh", "1000", "1000" },
		{ SF_CONFIG_NS_INI, "dim-timeout", "-0", "0" },
		{ SF_CONFIG_NS_INI, "blink-max-staleness", "3600000",
		  "3600000" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", "2.5", "2.5" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", " 1e1 ", "10.0" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", "5.", "5.0" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", ".25", "0.25" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", "+7", "7.0" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", "-0", "0.0" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", "500", "500.0" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", "0.1", "0.1" },
		{ SF_CONFIG_NS_INI, "energy-reclock-watts", "5E-1", "0.5" },
		{ SF_CONFIG_NS_INI, "energy-link-watts-per-hz", "0.0000001",
		  "0.0000001" },
		{ SF_CONFIG_NS_INI, "energy-link-watts-per-hz", "1e-300",
		  "1e-300" },
		{ SF_CONFIG_NS_INI, "energy-link-watts-per-hz",
		  "0.33333333333333331", "0.3333333333333333" },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		struct sf_config cfg;
		char err[256] = "", got[512], want[512];
		const struct sf_option *o = sf_config_find(cases[i].ns,
							   cases[i].name);
		sf_assert(o != NULL);
		sf_config_init_defaults(&cfg);
		enum sf_config_status st = sf_config_set(&cfg, cases[i].ns,
			cases[i].name, cases[i].value, err, sizeof(err));
		char value[64];
		sf_config_format_value(&cfg, o, value, sizeof(value));
		snprintf(got, sizeof(got), "%s=\"%s\": %s %s %s", o->key,
			 cases[i].value ? cases[i].value : "(null)",
			 sf_config_status_name(st), value, err);
		snprintf(want, sizeof(want), "%s=\"%s\": ok %s ", o->key,
			 cases[i].value ? cases[i].value : "(null)",
			 cases[i].result);
		sf_assert_str_eq(got, want);
	}

	/* An empty boolean is only true in xorg.conf. */
	struct sf_config cfg;
	sf_config_init_defaults(&cfg);
	cfg.reclock = false;
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "reclock", "",
				       NULL, 0), SF_CONFIG_INVALID_VALUE);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "reclock", NULL,
				       NULL, 0), SF_CONFIG_INVALID_VALUE);
	sf_assert(!cfg.reclock);
}

SF_TEST(output_lists_are_normalised)
{
	static const struct {
		enum sf_config_namespace ns;
		const char *name, *value, *result;
	} cases[] = {
		{ SF_CONFIG_NS_INI, "outputs", "internal", "internal" },
		{ SF_CONFIG_NS_INI, "outputs", "all", "all" },
		{ SF_CONFIG_NS_INI, "outputs", "eDP-1", "eDP-1" },
		{ SF_CONFIG_NS_INI, "outputs", "eDP-1,HDMI-A-1",
		  "eDP-1,HDMI-A-1" },
		{ SF_CONFIG_NS_INI, "outputs", " eDP-1 , HDMI-A-1 ",
		  "eDP-1,HDMI-A-1" },
		{ SF_CONFIG_NS_INI, "outputs", "eDP-1,\tLVDS-1\t,\nheadless",
		  "eDP-1,LVDS-1,headless" },
		{ SF_CONFIG_NS_INI, "outputs", "internal , HDMI-A-1",
		  "internal,HDMI-A-1" },
		/* The words in any case, stored in lower case; names keep
		 * theirs. */
		{ SF_CONFIG_NS_INI, "outputs", "ALL", "all" },
		{ SF_CONFIG_NS_INI, "outputs", "Internal,eDP-1,EDP-1",
		  "internal,eDP-1,EDP-1" },
		{ SF_CONFIG_NS_INI, "outputs", "Internals", "Internals" },
		/* Every allowed character, and the longest name. */
		{ SF_CONFIG_NS_INI, "outputs", "DP-2.1,Virtual:0,a_b,1",
		  "DP-2.1,Virtual:0,a_b,1" },
		{ SF_CONFIG_NS_INI, "outputs",
		  "abcdefghijklmnopqrstuvwxyzABCDE",
		  "abcdefghijklmnopqrstuvwxyzABCDE" },
		{ SF_CONFIG_NS_XORG, "Outputs", " eDP-1 ,DP-1", "eDP-1,DP-1" },
		{ SF_CONFIG_NS_XORG, "_OUT puts", "all", "all" },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		struct sf_config cfg;
		char err[256] = "", value[SF_CONFIG_STRING_MAX];
		char got[1024], want[1024];
		const struct sf_option *o = sf_config_find(cases[i].ns,
							   cases[i].name);
		sf_assert(o != NULL);
		sf_config_init_defaults(&cfg);
		enum sf_config_status st = sf_config_set(&cfg, cases[i].ns,
			cases[i].name, cases[i].value, err, sizeof(err));
		sf_config_format_value(&cfg, o, value, sizeof(value));
		snprintf(got, sizeof(got), "\"%s\": %s %s|%s %s",
			 cases[i].value, sf_config_status_name(st), value,
			 cfg.outputs, err);
		snprintf(want, sizeof(want), "\"%s\": ok %s|%s ",
			 cases[i].value, cases[i].result, cases[i].result);
		sf_assert_str_eq(got, want);
	}
}

/* A list of `count` names of `len` characters each, the last one `last`
 * characters long, each with `pad` blanks either side. */
static void
make_list(char *buf, size_t size, int count, int len, int last, int pad)
{
	size_t n = 0;

	for (int i = 0; i < count; i++) {
		int item = i == count - 1 ? last : len;
		n += (size_t)snprintf(buf + n, size - n, "%s%*s", i ? "," : "",
				      pad, "");
		for (int k = 0; k < item; k++)
			buf[n++] = (char)('a' + (i + k) % 26);
		n += (size_t)snprintf(buf + n, size - n, "%*s", pad, "");
	}
	buf[n] = '\0';
}

SF_TEST(output_lists_fit_the_field)
{
	struct sf_config cfg;
	char list[1024], err[256];

	/* 8 names of 31 and 7 commas: 255 characters, the most. */
	make_list(list, sizeof(list), 8, 31, 31, 0);
	sf_assert_int_eq(strlen(list), SF_CONFIG_STRING_MAX - 1);
	sf_config_init_defaults(&cfg);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "outputs",
				       list, err, sizeof(err)), SF_CONFIG_OK);
	sf_assert_str_eq(cfg.outputs, list);

	/* Blanks do not count: they are not stored. */
	char padded[1024];
	make_list(padded, sizeof(padded), 8, 31, 31, 3);
	sf_assert_int_gt(strlen(padded), SF_CONFIG_STRING_MAX);
	sf_config_init_defaults(&cfg);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_XORG, "Outputs",
				       padded, err, sizeof(err)),
			 SF_CONFIG_OK);
	sf_assert_str_eq(cfg.outputs, list);

	/* One more character does not fit, however it is spread. */
	static const int shapes[][3] = {
		{ 9, 30, 8 },	/* 8 * 30 + 8 + 8 commas = 256 */
		{ 9, 31, 31 },	/* 9 * 31 + 8 = 287 */
		{ 128, 1, 1 },	/* 128 + 127 commas = 255: fits */
		{ 129, 1, 1 },	/* 129 + 128 = 257 */
	};
	for (size_t i = 0; i < SF_ARRAY_LENGTH(shapes); i++) {
		make_list(list, sizeof(list), shapes[i][0], shapes[i][1],
			  shapes[i][2], 0);
		bool fits = strlen(list) < SF_CONFIG_STRING_MAX;
		sf_config_init_defaults(&cfg);
		enum sf_config_status st = sf_config_set(&cfg,
			SF_CONFIG_NS_INI, "outputs", list, err, sizeof(err));
		sf_assert_int_eq(st, fits ? SF_CONFIG_OK
					  : SF_CONFIG_INVALID_VALUE);
		sf_assert_str_eq(cfg.outputs, fits ? list : "internal");
		if (!fits) {
			sf_assert_str_contains(err, "outputs: \"");
			sf_assert_str_contains(err, "...\" is not a comma-separated list of output names");
			sf_assert_str_contains(err, "; keeping internal");
		}
	}

	/* The message quotes a long current value whole. */
	make_list(list, sizeof(list), 8, 31, 31, 0);
	sf_config_init_defaults(&cfg);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "outputs",
				       list, NULL, 0), SF_CONFIG_OK);
	char big_err[1024], want[sizeof(list) + 16];
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "outputs",
				       ",", big_err, sizeof(big_err)),
			 SF_CONFIG_INVALID_VALUE);
	snprintf(want, sizeof(want), "; keeping %s", list);
	sf_assert_str_contains(big_err, want);
	sf_assert_str_eq(cfg.outputs, list);
}

SF_TEST(app_lists_are_normalised)
{
	static const struct {
		const char *value, *result;
	} cases[] = {
		{ "", "" },
		{ " \t ", "" },
		{ "mpv", "mpv" },
		{ " org.mozilla.firefox , mpv ", "org.mozilla.firefox,mpv" },
		/* No words here: case is kept, "all" is an app like any. */
		{ "All,XTerm", "All,XTerm" },
		{ "a_b,c:d,e-f,1", "a_b,c:d,e-f,1" },
		/* The longest app id, 63 characters. */
		{ "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789a",
		  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789a" },
	};
	const char *keys[] = { "essential-apps", "background-apps" };

	for (size_t k = 0; k < SF_ARRAY_LENGTH(keys); k++) {
		for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
			struct sf_config cfg;
			char err[256] = "", got[1024], want[1024];
			sf_config_init_defaults(&cfg);
			enum sf_config_status st = sf_config_set(&cfg,
				SF_CONFIG_NS_INI, keys[k], cases[i].value,
				err, sizeof(err));
			const char *field = k == 0 ? cfg.essential_apps
						   : cfg.background_apps;
			snprintf(got, sizeof(got), "%s=\"%s\": %s %s|%s",
				 keys[k], cases[i].value,
				 sf_config_status_name(st), field, err);
			snprintf(want, sizeof(want), "%s=\"%s\": ok %s|",
				 keys[k], cases[i].value, cases[i].result);
			sf_assert_str_eq(got, want);
		}
	}
}

SF_TEST(app_priority_follows_the_lists)
{
	static const struct {
		const char *essential, *background, *app, *app_class;
		enum sf_priority want;
	} cases[] = {
		{ "", "", "mpv", NULL, SF_PRIORITY_NORMAL },
		{ "mpv", "", "mpv", NULL, SF_PRIORITY_ESSENTIAL },
		{ "", "mpv", "mpv", NULL, SF_PRIORITY_BACKGROUND },
		/* In both: essential. */
		{ "mpv", "foot,mpv", "mpv", NULL, SF_PRIORITY_ESSENTIAL },
		{ "mpv", "foot,mpv", "foot", NULL, SF_PRIORITY_BACKGROUND },
		/* Exact, whole items, case counts. */
		{ "mpv", "", "MPV", NULL, SF_PRIORITY_NORMAL },
		{ "mpv", "", "mp", NULL, SF_PRIORITY_NORMAL },
		{ "mpv", "", "mpv2", NULL, SF_PRIORITY_NORMAL },
		{ "org.gnome.Nautilus", "", "Nautilus", NULL,
		  SF_PRIORITY_NORMAL },
		/* X: the WM_CLASS instance or its class. */
		{ "", "XClock", "xclock", "XClock", SF_PRIORITY_BACKGROUND },
		{ "xterm", "XTerm", "xterm", "XTerm", SF_PRIORITY_ESSENTIAL },
		{ "", "", "xterm", "XTerm", SF_PRIORITY_NORMAL },
		/* No name: no rule. */
		{ "mpv", "mpv", NULL, NULL, SF_PRIORITY_NORMAL },
		{ "mpv", "mpv", "", "", SF_PRIORITY_NORMAL },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		struct sf_config cfg;
		char got[256], want[256];
		sf_config_init_defaults(&cfg);
		sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
					       "essential-apps",
					       cases[i].essential, NULL, 0),
				 SF_CONFIG_OK);
		sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_XORG,
					       "BackgroundApps",
					       cases[i].background, NULL, 0),
				 SF_CONFIG_OK);
		enum sf_priority p = sf_config_app_priority(
			&cfg, cases[i].app, cases[i].app_class);
		snprintf(got, sizeof(got), "[%s] [%s] %s/%s: %d",
			 cases[i].essential, cases[i].background,
			 cases[i].app ? cases[i].app : "(null)",
			 cases[i].app_class ? cases[i].app_class : "(null)",
			 (int)p);
		snprintf(want, sizeof(want), "[%s] [%s] %s/%s: %d",
			 cases[i].essential, cases[i].background,
			 cases[i].app ? cases[i].app : "(null)",
			 cases[i].app_class ? cases[i].app_class : "(null)",
			 (int)cases[i].want);
		sf_assert_str_eq(got, want);
	}
}

SF_TEST(output_selected_follows_the_list)
{
	static const struct {
		const char *outputs, *name;
		bool internal, selected;
	} cases[] = {
		/* The default: built-in panels only. */
		{ "internal", "eDP-1", true, true },
		{ "internal", "LVDS-1", true, true },
		{ "internal", "HDMI-A-1", false, false },
		{ "internal", NULL, true, true },
		{ "internal", NULL, false, false },
		{ "internal", "internal", false, true },	/* a name */
		{ "all", "HDMI-A-1", false, true },
		{ "all", "eDP-1", true, true },
		{ "all", NULL, false, true },
		{ "ALL", "DP-3", false, true },
		/* Names: exact, whole items, case counts. */
		{ "eDP-1,HDMI-A-1", "HDMI-A-1", false, true },
		{ "eDP-1,HDMI-A-1", "eDP-1", true, true },
		{ "eDP-1,HDMI-A-1", "eDP-1", false, true },
		{ "eDP-1,HDMI-A-1", "edp-1", true, false },
		{ "eDP-1,HDMI-A-1", "EDP-1", false, false },
		{ "eDP-1,HDMI-A-1", "eDP", false, false },
		{ "eDP-1,HDMI-A-1", "eDP-10", false, false },
		{ "eDP-1,HDMI-A-1", "A-1", false, false },
		{ "eDP-1,HDMI-A-1", "eDP-1,HDMI-A-1", false, false },
		{ "eDP-1,HDMI-A-1", "LVDS-1", true, false },
		{ "eDP-1,HDMI-A-1", "", false, false },
		{ "eDP-1,HDMI-A-1", NULL, true, false },
		{ " eDP-1 , HDMI-A-1 ", "HDMI-A-1", false, true },
		/* Words and names together. */
		{ "HDMI-A-1,internal", "eDP-1", true, true },
		{ "HDMI-A-1,internal", "eDP-1", false, false },
		{ "HDMI-A-1,internal", "HDMI-A-1", false, true },
		{ "HDMI-A-1,Internal", "LVDS-1", true, true },
		{ "headless,all", "DP-1", false, true },
		{ "headless", "headless", false, true },
		{ "headless", "headless-1", false, false },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		struct sf_config cfg;
		char got[256], want[256];
		sf_config_init_defaults(&cfg);
		sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
					       "outputs", cases[i].outputs,
					       NULL, 0), SF_CONFIG_OK);
		bool selected = sf_config_output_selected(&cfg, cases[i].name,
							  cases[i].internal);
		snprintf(got, sizeof(got), "outputs=%s %s%s: %s",
			 cases[i].outputs,
			 cases[i].name ? cases[i].name : "(null)",
			 cases[i].internal ? " (internal)" : "",
			 selected ? "selected" : "left alone");
		snprintf(want, sizeof(want), "outputs=%s %s%s: %s",
			 cases[i].outputs,
			 cases[i].name ? cases[i].name : "(null)",
			 cases[i].internal ? " (internal)" : "",
			 cases[i].selected ? "selected" : "left alone");
		sf_assert_str_eq(got, want);
	}

	/* Unset, the default selects built-in panels only. */
	struct sf_config cfg;
	sf_config_init_defaults(&cfg);
	sf_assert(sf_config_output_selected(&cfg, "eDP-1", true));
	sf_assert(!sf_config_output_selected(&cfg, "eDP-1", false));
}

SF_TEST(limits_are_inclusive)
{
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);

	for (size_t i = 0; i < n; i++) {
		const struct sf_option *o = &opts[i];
		char lo[64], hi[64], got[SHOWN_MAX], want[SHOWN_MAX];
		struct sf_config cfg;

		if (o->type == SF_OPTION_INT) {
			snprintf(lo, sizeof(lo), "%lld", (long long)o->min);
			snprintf(hi, sizeof(hi), "%lld", (long long)o->max);
		} else if (o->type == SF_OPTION_DOUBLE) {
			snprintf(lo, sizeof(lo), "%.17g", o->dmin);
			snprintf(hi, sizeof(hi), "%.17g", o->dmax);
		} else {
			continue;
		}
		sf_config_init_defaults(&cfg);
		sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, o->key,
					       lo, NULL, 0), SF_CONFIG_OK);
		if (o->type == SF_OPTION_INT) {
			snprintf(want, sizeof(want), "%s=%s", o->key, lo);
			sf_assert_str_eq(show(&cfg, o, got, sizeof(got)), want);
		} else {
			sf_assert(*double_at(&cfg, o) == o->dmin);
		}
		sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_XORG,
					       o->xorg_name, hi, NULL, 0),
				 SF_CONFIG_OK);
		if (o->type == SF_OPTION_INT) {
			snprintf(want, sizeof(want), "%s=%s", o->key, hi);
			sf_assert_str_eq(show(&cfg, o, got, sizeof(got)), want);
		} else {
			sf_assert(*double_at(&cfg, o) == o->dmax);
		}
	}
}

SF_TEST(defaults_and_values_round_trip)
{
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);

	for (size_t i = 0; i < n; i++) {
		const struct sf_option *o = &opts[i];
		struct sf_config cfg, copy;
		char def[64], other[64], cur[64];
		char got[SHOWN_MAX], want[SHOWN_MAX];
		char err[256];

		sf_config_init_defaults(&cfg);
		other_value(o, other, sizeof(other));
		sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, o->key,
					       other, NULL, 0), SF_CONFIG_OK);

		/* The current value, written back, reads the same. */
		sf_config_format_value(&cfg, o, cur, sizeof(cur));
		copy = cfg;
		sf_assert_int_eq(sf_config_set(&copy, SF_CONFIG_NS_XORG,
					       o->xorg_name, cur, err,
					       sizeof(err)), SF_CONFIG_OK);
		sf_assert_str_eq(show(&copy, o, got, sizeof(got)),
				 show(&cfg, o, want, sizeof(want)));
		if (o->type == SF_OPTION_DOUBLE)
			sf_assert(*double_at(&copy, o) == *double_at(&cfg, o));

		/* The formatted default, set, is the default again. */
		sf_option_format_default(o, def, sizeof(def));
		for (int ns = SF_CONFIG_NS_INI; ns <= SF_CONFIG_NS_XORG; ns++) {
			copy = cfg;
			sf_assert_int_eq(sf_config_set(&copy, ns,
						       sf_option_name(o, ns),
						       def, err, sizeof(err)),
					 SF_CONFIG_OK);
			sf_assert_str_eq(show(&copy, o, got, sizeof(got)),
					 show_default(o, want, sizeof(want)));
			if (o->type == SF_OPTION_DOUBLE)
				sf_assert(*double_at(&copy, o) == o->ddef);
		}
	}
}

SF_TEST(formats_are_the_documented_ones)
{
	static const struct {
		const char *key, *def, *range;
	} cases[] = {
		{ "low-refresh-timeout", "5000", "100..600000" },
		{ "enable", "true", "true|false" },
		{ "refresh-switch", "seamless", "seamless|always|never" },
		{ "energy-gpu-active-watts", "15.0", "0.0..500.0" },
		{ "energy-link-watts-per-hz", "0.0167", "0.0..1.0" },
		{ "energy-backlight-watts", "2.5", "0.0..100.0" },
		{ "hash-max-area", "65536", "0..16777216" },
		{ "outputs", "internal",
		  "comma-separated output names, internal or all" },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		const struct sf_option *o = sf_config_find(SF_CONFIG_NS_INI,
							   cases[i].key);
		char def[64], range[128];
		sf_assert(o != NULL);
		int len = sf_option_format_default(o, def, sizeof(def));
		sf_assert_str_eq(def, cases[i].def);
		sf_assert_int_eq(len, strlen(cases[i].def));
		len = sf_option_format_range(o, range, sizeof(range));
		sf_assert_str_eq(range, cases[i].range);
		sf_assert_int_eq(len, strlen(cases[i].range));

		/* snprintf() rules: the full length, a cut string. */
		char small[5];
		memset(small, 'x', sizeof(small));
		len = sf_option_format_range(o, small, sizeof(small));
		sf_assert_int_eq(len, strlen(cases[i].range));
		sf_assert_int_eq(strncmp(small, cases[i].range, 4), 0);
		sf_assert_int_eq(small[4], '\0');
		len = sf_option_format_default(o, small, 3);
		sf_assert_int_eq(len, strlen(cases[i].def));
		sf_assert_int_eq(strlen(small), 2);
		sf_assert_int_eq(sf_option_format_range(o, NULL, 0),
				 strlen(cases[i].range));
	}
}

SF_TEST(status_names)
{
	sf_assert_str_eq(sf_config_status_name(SF_CONFIG_OK), "ok");
	sf_assert_str_eq(sf_config_status_name(SF_CONFIG_UNKNOWN_KEY),
			 "unknown key");
	sf_assert_str_eq(sf_config_status_name(SF_CONFIG_INVALID_VALUE),
			 "invalid value");
	sf_assert_str_eq(sf_config_status_name(SF_CONFIG_OUT_OF_RANGE),
			 "out of range");
}

static bool
set_all(struct sf_config *cfg, const char *const *pairs, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2) {
		if (sf_config_set(cfg, SF_CONFIG_NS_INI, pairs[i],
				  pairs[i + 1], NULL, 0) != SF_CONFIG_OK)
			return false;
	}
	return true;
}

SF_TEST(default_converters_match_the_modules_defaults)
{
	struct sf_config cfg;
	struct sf_governor_params g, g_def;
	struct sf_suppress_params s, s_def;
	struct sf_energy_params e, e_def;
	struct sf_selector_params sel;

	sf_config_init_defaults(&cfg);
	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_INTERNAL, &g);
	sf_governor_params_init_default(&g_def);
	for (int st = SF_STATE_LOW_REFRESH; st < SF_STATE_COUNT; st++)
		sf_assert_int_eq(g.stage_timeout[st], g_def.stage_timeout[st]);
	sf_assert_int_eq(g.reclock, g_def.reclock);
	sf_assert_int_eq(g.reclock_delay, g_def.reclock_delay);
	sf_assert_int_eq(g.quick_wake_window, g_def.quick_wake_window);
	sf_assert_int_eq(g.max_backoff, g_def.max_backoff);

	sf_config_suppress_params(&cfg, &s);
	sf_suppress_params_init_default(&s_def);
	sf_assert_int_eq(s.enabled, s_def.enabled);
	sf_assert_int_eq(s.idle_delay, s_def.idle_delay);
	sf_assert_int_eq(s.blink_max_staleness, s_def.blink_max_staleness);
	sf_assert_int_eq(s.tick_max_staleness, s_def.tick_max_staleness);
	sf_assert_int_eq(s.redundant_max_staleness,
			 s_def.redundant_max_staleness);
	sf_assert_int_eq(s.background_frame_interval,
			 s_def.background_frame_interval);

	sf_config_energy_params(&cfg, &e);
	sf_energy_params_init_default(&e_def);
	sf_assert_double_near(e.gpu_active_w, e_def.gpu_active_w, 0);
	sf_assert_int_eq(e.wake_hold, e_def.wake_hold);
	/* The table rounds 0.5 W / 30 Hz to four figures. */
	sf_assert_double_near(e.link_w_per_hz, e_def.link_w_per_hz, 1e-12);
	sf_assert_double_near(e.reclock_w, e_def.reclock_w, 0);
	sf_assert_double_near(e.backlight_w, e_def.backlight_w, 0);
	sf_assert_double_near(e.panel_w, e_def.panel_w, 0);
	sf_assert_double_near(e.output_w, e_def.output_w, 0);

	sf_config_selector_params(&cfg, &sel);
	sf_assert_int_eq(sel.active_refresh_mhz, 0);
	sf_assert_int_eq(sel.idle_min_mhz, 30000);
	sf_assert_int_eq(sel.pointer_min_mhz, 30000);
	sf_assert_int_eq(sel.min_dwell, SF_SEC(2));
	sf_assert_int_eq(sel.refresh_switch, SF_REFRESH_SWITCH_SEAMLESS);
}

SF_TEST(converters_produce_nanoseconds_and_millihertz)
{
	static const char *const pairs[] = {
		"low-refresh-timeout", "250",
		"dim-timeout", "0",
		"standby-timeout", "1",
		"off-timeout", "86400",
		"quick-wake-window", "0",
		"reclock", "false",
		"reclock-delay", "600000",
		"active-refresh", "144",
		"idle-min-refresh", "24",
		"pointer-min-refresh", "0",
		"refresh-dwell", "500",
		"refresh-switch", "always",
		"suppress", "off",
		"suppress-idle-delay", "0",
		"blink-max-staleness", "100",
		"tick-max-staleness", "3600000",
		"redundant-max-staleness", "10",
		"background-frame-rate", "240",
		"energy-gpu-active-watts", "20.5",
		"energy-wake-hold", "10000",
		"energy-link-watts-per-hz", "0.02",
		"energy-reclock-watts", "0",
		"energy-backlight-watts", "4",
		"energy-panel-watts", "0.75",
		"energy-output-watts", "100",
	};
	struct sf_config cfg;
	struct sf_governor_params g;
	struct sf_selector_params sel;
	struct sf_suppress_params s;
	struct sf_energy_params e;

	sf_config_init_defaults(&cfg);
	sf_assert(set_all(&cfg, pairs, SF_ARRAY_LENGTH(pairs)));

	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_INTERNAL, &g);
	sf_assert_int_eq(g.stage_timeout[SF_STATE_LOW_REFRESH],
			 250 * SF_NSEC_PER_MSEC);
	sf_assert_int_eq(g.stage_timeout[SF_STATE_DIM], 0);	/* skipped */
	sf_assert_int_eq(g.stage_timeout[SF_STATE_DPMS_STANDBY],
			 SF_NSEC_PER_SEC);
	sf_assert_int_eq(g.stage_timeout[SF_STATE_DPMS_OFF],
			 86400 * SF_NSEC_PER_SEC);
	sf_assert_int_eq(g.quick_wake_window, 0);
	sf_assert_int_eq(g.reclock, false);
	sf_assert_int_eq(g.reclock_delay, 600 * SF_NSEC_PER_SEC);

	sf_config_selector_params(&cfg, &sel);
	sf_assert_int_eq(sel.active_refresh_mhz, 144000);
	sf_assert_int_eq(sel.idle_min_mhz, 24000);
	sf_assert_int_eq(sel.pointer_min_mhz, 0);
	sf_assert_int_eq(sel.min_dwell, 500 * SF_NSEC_PER_MSEC);
	sf_assert_int_eq(sel.refresh_switch, SF_REFRESH_SWITCH_ALWAYS);
	sf_assert(set_all(&cfg, (const char *const[]){ "refresh-switch",
						      "never" }, 2));
	sf_config_selector_params(&cfg, &sel);
	sf_assert_int_eq(sel.refresh_switch, SF_REFRESH_SWITCH_NEVER);
	sf_assert(set_all(&cfg, (const char *const[]){ "refresh-switch",
						      "seamless",
						      "active-refresh", "1000",
						      "idle-min-refresh",
						      "1000" }, 6));
	sf_config_selector_params(&cfg, &sel);
	sf_assert_int_eq(sel.refresh_switch, SF_REFRESH_SWITCH_SEAMLESS);
	sf_assert_int_eq(sel.active_refresh_mhz, 1000000);
	sf_assert_int_eq(sel.idle_min_mhz, 1000000);

	sf_config_suppress_params(&cfg, &s);
	sf_assert_int_eq(s.enabled, false);
	sf_assert_int_eq(s.idle_delay, 0);
	sf_assert_int_eq(s.blink_max_staleness, 100 * SF_NSEC_PER_MSEC);
	sf_assert_int_eq(s.tick_max_staleness, 3600 * SF_NSEC_PER_SEC);
	sf_assert_int_eq(s.redundant_max_staleness, 10 * SF_NSEC_PER_MSEC);
	sf_assert_int_eq(s.background_frame_interval, 4166666);
	sf_assert(set_all(&cfg, (const char *const[]){
		"background-frame-rate", "0" }, 2));
	sf_config_suppress_params(&cfg, &s);
	/* No throttling. */
	sf_assert_int_eq(s.background_frame_interval, 0);
	sf_assert(set_all(&cfg, (const char *const[]){
		"background-frame-rate", "3" }, 2));
	sf_config_suppress_params(&cfg, &s);
	sf_assert_int_eq(s.background_frame_interval, 333333333);

	sf_config_energy_params(&cfg, &e);
	sf_assert_double_near(e.gpu_active_w, 20.5, 0);
	sf_assert_int_eq(e.wake_hold, 10 * SF_NSEC_PER_SEC);
	sf_assert_double_near(e.link_w_per_hz, 0.02, 0);
	sf_assert_double_near(e.reclock_w, 0.0, 0);
	sf_assert_double_near(e.backlight_w, 4.0, 0);
	sf_assert_double_near(e.panel_w, 0.75, 0);
	sf_assert_double_near(e.output_w, 100.0, 0);
}

SF_TEST(enable_false_leaves_the_params_alone)
{
	struct sf_config on, off;
	struct sf_governor_params g_on, g_off;
	struct sf_suppress_params s_on, s_off;
	struct sf_selector_params sel_on, sel_off;

	sf_config_init_defaults(&on);
	sf_config_init_defaults(&off);
	sf_assert_int_eq(sf_config_set(&off, SF_CONFIG_NS_INI, "enable", "no",
				       NULL, 0), SF_CONFIG_OK);
	sf_assert(!off.enable);
	sf_config_governor_params(&on, SF_OUTPUT_KIND_INTERNAL, &g_on);
	sf_config_governor_params(&off, SF_OUTPUT_KIND_INTERNAL, &g_off);
	for (int st = 0; st < SF_STATE_COUNT; st++)
		sf_assert_int_eq(g_off.stage_timeout[st],
				 g_on.stage_timeout[st]);
	sf_assert_int_eq(g_off.reclock, g_on.reclock);
	sf_config_suppress_params(&on, &s_on);
	sf_config_suppress_params(&off, &s_off);
	sf_assert_int_eq(s_off.enabled, s_on.enabled);
	sf_assert_int_eq(s_off.idle_delay, s_on.idle_delay);
	sf_config_selector_params(&on, &sel_on);
	sf_config_selector_params(&off, &sel_off);
	sf_assert_int_eq(sel_off.refresh_switch, sel_on.refresh_switch);
	sf_assert_int_eq(sel_off.idle_min_mhz, sel_on.idle_min_mhz);
}

SF_TEST(doubles_ignore_the_numeric_locale)
{
	/* A compositor may call setlocale(); "2.5" must still be 2.5 and
	 * come out as "2.5".  Without a decimal-comma locale on this
	 * machine only the "C" behaviour is checked. */
	static const char *const locales[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8",
		"nl_NL.UTF-8", "ru_RU.UTF-8",
	};
	const char *used = NULL;
	const struct sf_option *o = sf_config_find(SF_CONFIG_NS_INI,
						   "energy-panel-watts");

	sf_assert(o != NULL);
	for (size_t i = 0; i < SF_ARRAY_LENGTH(locales) && !used; i++) {
		if (setlocale(LC_NUMERIC, locales[i]))
			used = locales[i];
	}
	if (!used)
		printf("# no decimal-comma locale installed; checking \"C\"\n");

	struct sf_config cfg;
	char value[64], range[64];
	sf_config_init_defaults(&cfg);
	enum sf_config_status st = sf_config_set(&cfg, SF_CONFIG_NS_INI,
						 o->key, "2.5", NULL, 0);
	enum sf_config_status comma = sf_config_set(&cfg, SF_CONFIG_NS_INI,
						    o->key, "3,5", NULL, 0);
	sf_config_format_value(&cfg, o, value, sizeof(value));
	sf_option_format_range(o, range, sizeof(range));
	setlocale(LC_NUMERIC, "C");
	sf_assert_int_eq(st, SF_CONFIG_OK);
	sf_assert_int_eq(comma, SF_CONFIG_INVALID_VALUE);
	sf_assert_double_near(cfg.energy_panel_w, 2.5, 0);
	sf_assert_str_eq(value, "2.5");
	sf_assert_str_eq(range, "0.0..100.0");
}

/* The man page entry of option `i`: from its key to the next option's. */
static const char *
man_entry(const char *page, const struct sf_option *opts, size_t n,
	  size_t i, size_t *len)
{
	char needle[160], key[128];

	roff(opts[i].key, key, sizeof(key));
	snprintf(needle, sizeof(needle), "\n.BR %s ", key);
	const char *start = strstr(page, needle);
	if (!start)
		return NULL;
	const char *end = NULL;
	if (i + 1 < n) {
		roff(opts[i + 1].key, key, sizeof(key));
		snprintf(needle, sizeof(needle), "\n.BR %s ", key);
		end = strstr(start + 1, needle);
	}
	if (!end)
		end = strstr(start, "\n.SH ");
	if (!end)
		end = start + strlen(start);
	*len = (size_t)(end - start);
	return start;
}

static bool
entry_contains(const char *entry, size_t len, const char *needle)
{
	size_t nlen = strlen(needle);

	for (size_t i = 0; i + nlen <= len; i++) {
		if (memcmp(entry + i, needle, nlen) == 0)
			return true;
	}
	return false;
}

SF_TEST(man_page_documents_every_option)
{
	const char *path = getenv("SF_MAN_PAGE");
	sf_assert_str_eq(path ? "SF_MAN_PAGE set" : "SF_MAN_PAGE unset",
			 "SF_MAN_PAGE set");
	char *page = read_file(path);
	sf_assert_str_eq(page ? path : "(unreadable)", path);

	size_t n;
	const struct sf_option *opts = sf_config_options(&n);
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		const struct sf_option *o = &opts[i];
		size_t len = 0;
		const char *entry = man_entry(page, opts, n, i, &len);
		char esc[512], needle[600], def[64], range[128];

		if (!entry) {
			printf("# %s: no entry for %s\n", path, o->key);
			ok = false;
			break;
		}
		snprintf(needle, sizeof(needle), "\\(dq%s\\(dq", o->xorg_name);
		ok = ok && entry_contains(entry, len, needle);
		roff(o->doc, esc, sizeof(esc));
		ok = ok && entry_contains(entry, len, esc);
		sf_option_format_range(o, range, sizeof(range));
		roff(range, esc, sizeof(esc));
		snprintf(needle, sizeof(needle), "Range: %s", esc);
		ok = ok && entry_contains(entry, len, needle);
		sf_option_format_default(o, def, sizeof(def));
		roff(def, esc, sizeof(esc));
		snprintf(needle, sizeof(needle), "Default: %s", esc);
		ok = ok && entry_contains(entry, len, needle);
		if (!ok)
			printf("# %s: entry of %s lacks %s\n", path, o->key,
			       needle);
	}
	bool whole = strstr(page, "@OPTIONS@") == NULL &&
		     strstr(page, ".SS \"Idle governor\"") &&
		     /* A heading whose first option is a string. */
		     strstr(page, ".SS \"Refresh selector\"\n.TP\n.BR outputs "
			    "\" = \" \\fIoutput,...\\fR\n") &&
		     strstr(page, ".SS \"Energy model (an estimate)\"") &&
		     strstr(page, ".SH NAME") && strstr(page, ".SH SEE ALSO") &&
		     /* The hand-written sections around the table. */
		     strstr(page, ".SH WESTON") &&
		     strstr(page, ".SS Weston's idle-time");
	free(page);
	sf_assert(ok);
	sf_assert(whole);
}

static bool
examples_check(const char *dir, char *report, size_t size)
{
	char path[4096];
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);

	snprintf(path, sizeof(path), "%s/doc/examples/weston.ini", dir);
	char *ini = read_file(path);
	snprintf(path, sizeof(path), "%s/doc/examples/xorg.conf", dir);
	char *xorg = read_file(path);
	bool ok = ini && xorg;
	if (!ok)
		snprintf(report, size, "cannot read %s/doc/examples", dir);

	for (size_t i = 0; i < n && ok; i++) {
		char def[64], line[256];
		sf_option_format_default(&opts[i], def, sizeof(def));
		snprintf(line, sizeof(line), "#%s=%s", opts[i].key, def);
		if (count_lines(ini, line) != 1) {
			snprintf(report, size, "weston.ini: want one \"%s\"",
				 line);
			ok = false;
		}
		snprintf(line, sizeof(line), "#Option \"%s\" \"%s\"",
			 opts[i].xorg_name, def);
		if (ok && count_lines(xorg, line) != 1) {
			snprintf(report, size, "xorg.conf: want one '%s'",
				 line);
			ok = false;
		}
	}
	/* Nothing in them that the table does not know. */
	for (const char *p = ini; ok && (p = strstr(p, "\n#")); p++) {
		size_t len = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
		if (len == 0 || p[2 + len] != '=')
			continue;
		char key[128];
		snprintf(key, sizeof(key), "%.*s", (int)len, p + 2);
		if (!sf_config_find(SF_CONFIG_NS_INI, key)) {
			snprintf(report, size, "weston.ini: unknown \"%s\"",
				 key);
			ok = false;
		}
	}
	for (const char *p = xorg; ok && (p = strstr(p, "#Option \"")); p++) {
		char name[128];
		size_t len = strcspn(p + 9, "\"\n");
		snprintf(name, sizeof(name), "%.*s", (int)len, p + 9);
		if (!sf_config_find(SF_CONFIG_NS_XORG, name)) {
			snprintf(report, size, "xorg.conf: unknown \"%s\"",
				 name);
			ok = false;
		}
	}
	/* The first string option, by name, in case the loop above is
	 * ever narrowed. */
	if (ok && (count_lines(ini, "#outputs=internal") != 1 ||
		   count_lines(xorg,
			       "#Option \"Outputs\" \"internal\"") != 1)) {
		snprintf(report, size, "examples lack outputs");
		ok = false;
	}
	if (ok && (count_lines(ini, "[stillframe]") != 1 ||
		   count_lines(xorg, "SubSection \"stillframe\"") != 1)) {
		snprintf(report, size, "examples lack their section");
		ok = false;
	}
	free(ini);
	free(xorg);
	return ok;
}

SF_TEST(examples_list_every_option_at_its_default)
{
	const char *dir = getenv("SF_SOURCE_DIR");
	sf_assert_str_eq(dir ? "SF_SOURCE_DIR set" : "SF_SOURCE_DIR unset",
			 "SF_SOURCE_DIR set");
	char report[512] = "";
	bool ok = examples_check(dir, report, sizeof(report));
	sf_assert_str_eq(report, "");
	sf_assert(ok);
}

SF_TEST_MAIN()
