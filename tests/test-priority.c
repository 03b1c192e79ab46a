/* SPDX-License-Identifier: MIT */
/*
 * Priority resolution: the client's say over the app rules, where the
 * result came from, the protocols' values (stillframe_surface_v1's wire
 * values, the _STILLFRAME_HINT flags) and the X status flags.
 */
#include <string.h>

#include "sf-config.h"
#include "sf-core.h"
#include "sf-priority.h"
#include "sf-test.h"
#include "stillframe-x.h"

static void
quiet_log(void *data, enum sf_log_level level, const char *message)
{
	(void)data;
	(void)level;
	(void)message;
}

static const struct sf_core_interface iface = { .log = quiet_log };

SF_TEST(client_priority_wins_over_the_rule)
{
	struct sf_priority_source src = {
		.client_set = true,
		.client = SF_PRIORITY_BACKGROUND,
		.rule = SF_PRIORITY_ESSENTIAL,
	};

	sf_assert_int_eq(sf_priority_resolve(&src), SF_PRIORITY_BACKGROUND);
	sf_assert_int_eq(sf_priority_origin(&src), SF_PRIORITY_FROM_CLIENT);
	/* A client that says normal overrides a rule too. */
	src.client = SF_PRIORITY_NORMAL;
	sf_assert_int_eq(sf_priority_resolve(&src), SF_PRIORITY_NORMAL);
	sf_assert_str_eq(sf_priority_origin_name(sf_priority_origin(&src)),
			 "client");
}

SF_TEST(the_rule_applies_without_the_client)
{
	struct sf_priority_source src = {
		.client_set = false,
		.client = SF_PRIORITY_BACKGROUND,	/* withdrawn */
		.rule = SF_PRIORITY_ESSENTIAL,
	};

	sf_assert_int_eq(sf_priority_resolve(&src), SF_PRIORITY_ESSENTIAL);
	sf_assert_str_eq(sf_priority_origin_name(sf_priority_origin(&src)),
			 "apps");
	src.rule = SF_PRIORITY_NORMAL;
	sf_assert_int_eq(sf_priority_resolve(&src), SF_PRIORITY_NORMAL);
	sf_assert_str_eq(sf_priority_origin_name(sf_priority_origin(&src)),
			 "default");
}

SF_TEST(wire_values_of_stillframe_surface_v1)
{
	enum sf_priority p = SF_PRIORITY_NORMAL;

	sf_assert(sf_priority_from_wire(0, &p));
	sf_assert_int_eq(p, SF_PRIORITY_NORMAL);
	sf_assert(sf_priority_from_wire(1, &p));
	sf_assert_int_eq(p, SF_PRIORITY_ESSENTIAL);
	sf_assert(sf_priority_from_wire(2, &p));
	sf_assert_int_eq(p, SF_PRIORITY_BACKGROUND);
	sf_assert(!sf_priority_from_wire(3, &p));
	sf_assert_int_eq(p, SF_PRIORITY_BACKGROUND);	/* untouched */
	sf_assert_str_eq(sf_priority_name(SF_PRIORITY_NORMAL), "normal");
	sf_assert_str_eq(sf_priority_name(SF_PRIORITY_ESSENTIAL),
			 "essential");
	sf_assert_str_eq(sf_priority_name(SF_PRIORITY_BACKGROUND),
			 "background");
}

SF_TEST(x_hint_flags)
{
	struct sf_priority_source src = { .rule = SF_PRIORITY_BACKGROUND };

	sf_priority_from_x_flags(0, &src);
	sf_assert(!src.client_set);
	sf_assert_int_eq(sf_priority_resolve(&src), SF_PRIORITY_BACKGROUND);
	sf_priority_from_x_flags(STILLFRAME_X_FLAG_ESSENTIAL, &src);
	sf_assert(src.client_set);
	sf_assert_int_eq(sf_priority_resolve(&src), SF_PRIORITY_ESSENTIAL);
	sf_priority_from_x_flags(STILLFRAME_X_FLAG_BACKGROUND, &src);
	src.rule = SF_PRIORITY_ESSENTIAL;
	sf_assert_int_eq(sf_priority_resolve(&src), SF_PRIORITY_BACKGROUND);
	/* Both bits (a property written by hand): essential. */
	sf_priority_from_x_flags(STILLFRAME_X_FLAG_ALL, &src);
	sf_assert_int_eq(sf_priority_resolve(&src), SF_PRIORITY_ESSENTIAL);
	/* Bits the protocol does not define say nothing. */
	sf_priority_from_x_flags(1u << 7, &src);
	sf_assert(!src.client_set);
}

SF_TEST(x_status_flags)
{
	bool ess, bg;

	sf_priority_x_status(0, SF_PRIORITY_ESSENTIAL, &ess, &bg);
	sf_assert(ess && !bg);
	sf_priority_x_status(0, SF_PRIORITY_NORMAL, &ess, &bg);
	sf_assert(!ess && !bg);
	sf_priority_x_status(STILLFRAME_X_FLAG_BACKGROUND,
			     SF_PRIORITY_ESSENTIAL, &ess, &bg);
	sf_assert(!ess && bg);
	sf_priority_x_status(STILLFRAME_X_FLAG_ALL, SF_PRIORITY_NORMAL, &ess,
			     &bg);
	sf_assert(ess && bg);
}

SF_TEST(app_rules_through_the_core)
{
	struct sf_config cfg;
	char err[256];

	sf_config_init_defaults(&cfg);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
				       "essential-apps", "foot,mpv", err,
				       sizeof(err)), SF_CONFIG_OK);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI,
				       "background-apps", "mpv,xclock", err,
				       sizeof(err)), SF_CONFIG_OK);
	struct sf_core *core = sf_core_create(&cfg, &iface, NULL, 0);
	sf_assert(core);
	sf_assert_int_eq(sf_priority_for_app(core, "foot", NULL),
			 SF_PRIORITY_ESSENTIAL);
	/* Listed in both: essential. */
	sf_assert_int_eq(sf_priority_for_app(core, "mpv", ""),
			 SF_PRIORITY_ESSENTIAL);
	/* WM_CLASS: instance or class. */
	sf_assert_int_eq(sf_priority_for_app(core, "x", "xclock"),
			 SF_PRIORITY_BACKGROUND);
	sf_assert_int_eq(sf_priority_for_app(core, "", NULL),
			 SF_PRIORITY_NORMAL);
	sf_assert_str_eq(sf_priority_rule_option(SF_PRIORITY_ESSENTIAL,
						 false), "essential-apps");
	sf_assert_str_eq(sf_priority_rule_option(SF_PRIORITY_BACKGROUND,
						 true), "BackgroundApps");
	sf_assert(!sf_priority_rule_option(SF_PRIORITY_NORMAL, false));
	sf_core_destroy(core);
}

SF_TEST_MAIN()
