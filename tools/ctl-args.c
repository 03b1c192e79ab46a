/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-util.h"

/* stillframectl's option parsing (ctl-util.h). */

int
sf_ctl_force_backend(enum sf_ctl_choice *choice, enum sf_ctl_choice want)
{
	if (*choice != SF_CTL_CHOICE_AUTO && *choice != want)
		return sf_ctl_usage_error("--x11 and --wayland do not go together");
	*choice = want;
	return 0;
}

static const struct option options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "prom", required_argument, NULL, 'P' },
	{ "all", no_argument, NULL, 'a' },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'n' },
	{ "rate", required_argument, NULL, 'r' },
	{ "range", required_argument, NULL, 'R' },
	{ "priority", required_argument, NULL, 'p' },
	{ "clear", no_argument, NULL, 'c' },
	{ "for", required_argument, NULL, 'F' },
	{ "output", required_argument, NULL, 'o' },
	{ "x11", no_argument, NULL, 'X' },
	{ "wayland", no_argument, NULL, 'W' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *
option_name(int c)
{
	for (const struct option *o = options; o->name; o++)
		if (o->val == c)
			return o->name;
	return "?";
}

static int
stop(struct sf_ctl_options *o, int status)
{
	o->status = status;
	return -1;
}

int
sf_ctl_next_option(struct sf_ctl_options *o, int argc, char **argv)
{
	const char *name = o->command;
	int c;

	/* Options may come before or after the operand (getopt permutes);
	 * ':' first: report missing values ourselves. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", options, NULL)) != -1) {
		if (c == 'h') {
			sf_ctl_usage(stdout);
			return stop(o, -1);
		}
		if (c == '?' && optopt)
			return stop(o, sf_ctl_usage_error("%s: unknown option '-%c'",
							  name, optopt));
		if (c == '?')
			return stop(o, sf_ctl_usage_error("%s: unknown option '%s'",
							  name, argv[optind - 1]));
		if (c == ':')
			return stop(o, sf_ctl_usage_error("%s: option '%s' needs a value",
							  name, argv[optind - 1]));
		if (c == 'X' || c == 'W') {
			int ret = sf_ctl_force_backend(o->choice, c == 'X' ?
						       SF_CTL_CHOICE_X11 :
						       SF_CTL_CHOICE_WAYLAND);

			if (ret != 0)
				return stop(o, ret);
			continue;
		}
		if (!strchr(o->takes, c))
			return stop(o, sf_ctl_usage_error("%s does not take %s%s",
							  name,
							  c == 'o' ? "-o or --" : "--",
							  option_name(c)));
		return c;
	}
	return stop(o, 0);
}

int
sf_ctl_next_own_option(struct sf_ctl_options *o, int argc, char **argv)
{
	/* The first call starts over at argv[1]. */
	if (o->status == 0 && !o->table_started) {
		o->table_started = true;
		optind = 1;
	}
	opterr = 0;

	int c = getopt_long(argc, argv, o->letters, o->table, NULL);

	if (c == -1)
		return stop(o, 0);
	if (c == 'h') {
		o->usage(stdout);
		return stop(o, -1);
	}
	if (c == ':')
		return stop(o, sf_ctl_command_usage_error(o->command,
							  "option '%s' needs a value",
							  argv[optind - 1]));
	if (c == '?')
		return stop(o, sf_ctl_command_usage_error(o->command,
							  "unknown option '%s'",
							  argv[optind - 1]));
	return c;
}

int
sf_ctl_options_exit(const struct sf_ctl_options *o)
{
	return o->status < 0 ? 0 : o->status;
}

bool
sf_ctl_options_end(const struct sf_ctl_options *o, int argc, char **argv,
		   int *exit_status)
{
	if (o->status != 0)
		*exit_status = sf_ctl_options_exit(o);
	else if (optind < argc && o->table)
		*exit_status = sf_ctl_command_usage_error(o->command,
							  "unexpected argument '%s'",
							  argv[optind]);
	else if (optind < argc)
		*exit_status = sf_ctl_usage_error("%s: unexpected argument '%s'",
						  o->command, argv[optind]);
	else
		return false;
	return true;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool
sf_ctl_parse_u32(const char *s, uint32_t *out)
{
	char *end;

	if (!is_digit(*s))
		return false;
	errno = 0;

	unsigned long long v = strtoull(s, &end, 10);

	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool
sf_ctl_parse_thousandths(const char **s, uint32_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	int decimals = 0;

	if (!is_digit(*p))
		return false;
	for (; is_digit(*p); p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX / 1000)
			return false;
	}
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return false;
		for (; is_digit(*p); p++) {
			if (++decimals > 3)
				return false;
			v = v * 10 + (uint64_t)(*p - '0');
		}
	}
	for (; decimals < 3; decimals++)
		v *= 10;
	*out = (uint32_t)v;
	*s = p;
	return true;
}

bool
sf_ctl_parse_number(const char *s, double min, double max, double *out)
{
	char *end;

	errno = 0;

	double v = strtod(s, &end);

	/* !(v >= min) also turns down "nan". */
	if (errno || end == s || *end || !(v >= min) || v > max)
		return false;
	*out = v;
	return true;
}

bool
sf_ctl_parse_interval(const char *s, double *out)
{
	return sf_ctl_parse_number(s, 0.05, 3600, out);
}

/* trace --for: a day at most, which a recording's buffer outlasts only
 * on a quiet screen. */
bool
sf_ctl_parse_seconds(const char *s, double *out)
{
	double v;

	if (!sf_ctl_parse_number(s, 0, 86400, &v) || v == 0)
		return false;
	*out = v;
	return true;
}

bool
sf_ctl_parse_window(const char *s, uint32_t *out)
{
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	}
	if (!(base == 16 ? isxdigit((unsigned char)*s) : is_digit(*s)))
		return false;
	errno = 0;

	unsigned long long v = strtoull(s, &end, base);

	if (errno || *end || v == 0 || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool
sf_ctl_root_ok(const char *root)
{
	return root[0] == '/' && !strstr(root, "..");
}
