/* SPDX-License-Identifier: MIT */
/*
 * What an output is to stillframe: managed or not (the outputs option
 * and whether the server can switch its modes), only managed outputs
 * dim, and a managed output's panel is lit as it appears.
 */
#include <string.h>

#include "sf-config.h"
#include "sf-core.h"
#include "sf-output-policy.h"
#include "sf-test.h"

static void
quiet_log(void *data, enum sf_log_level level, const char *message)
{
	(void)data;
	(void)level;
	(void)message;
}

static const struct sf_core_interface iface = { .log = quiet_log };

static struct sf_core *
core_with_outputs(const char *outputs)
{
	struct sf_config cfg;
	char err[256];

	sf_config_init_defaults(&cfg);
	if (outputs)
		sf_config_set(&cfg, SF_CONFIG_NS_INI, "outputs", outputs, err,
			      sizeof(err));
	return sf_core_create(&cfg, &iface, NULL, 0);
}

SF_TEST(internal_outputs_are_managed_by_default)
{
	struct sf_core *core = core_with_outputs(NULL);
	bool selected = false;

	sf_assert(core);
	sf_assert(sf_output_policy_managed(core, "eDP-1", true, true,
					   &selected));
	sf_assert(selected);
	sf_assert(!sf_output_policy_managed(core, "HDMI-A-1", false, true,
					    &selected));
	sf_assert(!selected);
	/* Selected, but the backend cannot switch modes (Weston's
	 * headless without switch_mode): left alone, and the adapter
	 * can say why. */
	sf_assert(!sf_output_policy_managed(core, "eDP-1", true, false,
					    &selected));
	sf_assert(selected);
	sf_assert(!sf_output_policy_managed(core, "eDP-1", true, false,
					    NULL));
	sf_core_destroy(core);
}

SF_TEST(the_outputs_option_selects_by_name_or_all)
{
	struct sf_core *named = core_with_outputs("HDMI-A-1");
	struct sf_core *all = core_with_outputs("all");

	sf_assert(named && all);
	sf_assert(sf_output_policy_managed(named, "HDMI-A-1", false, true,
					   NULL));
	sf_assert(!sf_output_policy_managed(named, "eDP-1", true, true,
					    NULL));
	sf_assert(sf_output_policy_managed(all, "Virtual-1", false, true,
					   NULL));
	sf_core_destroy(named);
	sf_core_destroy(all);
}

SF_TEST(only_managed_outputs_dim)
{
	sf_assert_int_eq(sf_output_policy_backlight(true, 30),
			 SF_OUTPUT_BACKLIGHT_WRITE);
	sf_assert_int_eq(sf_output_policy_backlight(true, 100),
			 SF_OUTPUT_BACKLIGHT_WRITE);
	/* Not managed: dimming fails, full brightness is what it has. */
	sf_assert_int_eq(sf_output_policy_backlight(false, 30),
			 SF_OUTPUT_BACKLIGHT_REFUSED);
	sf_assert_int_eq(sf_output_policy_backlight(false, 99),
			 SF_OUTPUT_BACKLIGHT_REFUSED);
	sf_assert_int_eq(sf_output_policy_backlight(false, 100),
			 SF_OUTPUT_BACKLIGHT_KEPT);
}

SF_TEST(a_new_managed_output_lights_the_panel)
{
	sf_assert_int_eq(sf_output_policy_initial_backlight(true), 100);
	sf_assert_int_eq(sf_output_policy_initial_backlight(false), -1);
}

SF_TEST_MAIN()
