/* SPDX-License-Identifier: MIT */
/*
 * stillframectl hint SURFACE-ID|WINDOW [--rate NUM[/DEN]] [--range
 * MIN-MAX] [--priority P] | --clear: sets or withdraws a surface's (on
 * X, a window's) hints.  What the operand is comes from the backend.
 */
#include <getopt.h>
#include <string.h>

#include "ctl-backend.h"
#include "ctl-commands.h"
#include "sf-priority.h"

static uint32_t
gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* NUM/DEN, NUM, or a decimal such as 23.976. */
static bool
parse_rate(const char *s, struct sf_ctl_hints *h)
{
	const char *slash = strchr(s, '/');

	if (slash) {
		char num[16];
		size_t len = (size_t)(slash - s);

		if (len == 0 || len >= sizeof(num))
			return false;
		memcpy(num, s, len);
		num[len] = '\0';
		return sf_ctl_parse_u32(num, &h->rate_num) &&
		       sf_ctl_parse_u32(slash + 1, &h->rate_den) &&
		       (h->rate_num == 0 || h->rate_den != 0);
	}
	if (!strchr(s, '.')) {
		h->rate_den = 1;
		return sf_ctl_parse_u32(s, &h->rate_num);
	}

	uint32_t milli;
	const char *p = s;

	if (!sf_ctl_parse_thousandths(&p, &milli) || *p)
		return false;

	uint32_t d = milli ? gcd(milli, 1000) : 1;

	h->rate_num = milli / d;
	h->rate_den = milli ? 1000 / d : 0;
	return true;
}

/* MIN-MAX in Hz; MAX may be 0 or empty for no upper bound. */
static bool
parse_range(const char *s, struct sf_ctl_hints *h)
{
	const char *p = s;

	if (!sf_ctl_parse_thousandths(&p, &h->min_mhz) || *p != '-')
		return false;
	p++;
	if (*p == '\0') {
		h->max_mhz = 0;
		return true;
	}
	return sf_ctl_parse_thousandths(&p, &h->max_mhz) && *p == '\0';
}

/* A priority by the name common gives it (sf_priority_name); common's
 * enum sf_priority is numbered as the wire's. */
static bool
parse_priority(const char *s, enum sf_priority *out)
{
	static const enum sf_priority all[] = {
		SF_PRIORITY_NORMAL, SF_PRIORITY_ESSENTIAL, SF_PRIORITY_BACKGROUND,
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (strcmp(s, sf_priority_name(all[i])) == 0) {
			*out = all[i];
			return true;
		}
	}
	return false;
}

int
sf_ctl_cmd_hint(int argc, char **argv, enum sf_ctl_choice choice)
{
	struct sf_ctl_options o = {
		.command = "hint", .takes = "rRpc", .choice = &choice,
	};
	struct sf_ctl_hints h = { .priority = SF_PRIORITY_NORMAL };
	bool clear = false, some_hint = false;
	uint32_t id;
	int c;

	while ((c = sf_ctl_next_option(&o, argc, argv)) != -1) {
		switch (c) {
		case 'r':
			if (!parse_rate(optarg, &h))
				return sf_ctl_usage_error("--rate %s: expected frames per second as NUM/DEN (DEN not 0), NUM or a decimal",
							  optarg);
			some_hint = true;
			break;
		case 'R':
			if (!parse_range(optarg, &h))
				return sf_ctl_usage_error("--range %s: expected MIN-MAX in Hz, such as 48-60 or 30- (no upper bound)",
							  optarg);
			if (h.max_mhz != 0 && h.min_mhz > h.max_mhz)
				return sf_ctl_usage_error("--range %s: the minimum is above the maximum",
							  optarg);
			some_hint = true;
			break;
		case 'p':
			if (!parse_priority(optarg, &h.priority))
				return sf_ctl_usage_error("--priority %s: expected normal, essential or background",
							  optarg);
			some_hint = true;
			break;
		case 'c':
			clear = true;
			break;
		}
	}
	if (o.status != 0)
		return sf_ctl_options_exit(&o);

	const struct sf_ctl_backend *b = sf_ctl_backend_choose(choice);
	const struct sf_ctl_view *view = b->view;
	int rest = argc - optind;

	if (rest == 0)
		return sf_ctl_usage_error("hint: missing %s", view->target);
	if (rest > 1)
		return sf_ctl_usage_error("hint: give one %s, not '%s' too",
					  view->target, argv[optind + 1]);
	if (!view->parse_target(argv[optind], &id))
		return sf_ctl_usage_error("hint: '%s' %s", argv[optind],
					  view->target_error);
	if (clear && some_hint)
		return sf_ctl_usage_error("hint: --clear does not go with --rate, --range or --priority");
	if (!clear && !some_hint)
		return sf_ctl_usage_error("hint: give --rate, --range, --priority or --clear");

	struct sf_ctl_conn *conn;
	int ret = sf_ctl_connect(choice, &conn);

	if (ret == 0)
		ret = b->hint(conn, id, &h);
	sf_ctl_disconnect(conn);
	return ret;
}
