/* SPDX-License-Identifier: MIT */
#include "sf-config.h"
#include "sf-core.h"
#include "sf-output-policy.h"

bool
sf_output_policy_managed(const struct sf_core *core, const char *name,
			 bool internal, bool can_switch_modes,
			 bool *selected)
{
	bool chosen = sf_config_output_selected(sf_core_get_config(core),
						name, internal);

	if (selected)
		*selected = chosen;
	return chosen && can_switch_modes;
}

enum sf_output_backlight
sf_output_policy_backlight(bool managed, int32_t percent)
{
	if (managed)
		return SF_OUTPUT_BACKLIGHT_WRITE;
	return percent >= 100 ? SF_OUTPUT_BACKLIGHT_KEPT :
				SF_OUTPUT_BACKLIGHT_REFUSED;
}

int32_t
sf_output_policy_initial_backlight(bool managed)
{
	return managed ? 100 : -1;
}
