/* SPDX-License-Identifier: MIT */
#include "sf-config.h"
#include "sf-core.h"
#include "sf-modes.h"

size_t
sf_modes_build(const struct sf_mode_report *reported, size_t n,
	       size_t current, bool managed, struct sf_mode *out,
	       size_t *map, size_t *out_current)
{
	size_t count = 0;

	*out_current = 0;
	if (current >= n)
		return 0;
	const struct sf_mode_report *cur = &reported[current];
	for (size_t i = 0; i < n; i++) {
		const struct sf_mode_report *m = &reported[i];
		/* The current mode is always there: it is what the output
		 * shows, settable or not. */
		if (i != current && (!managed || !m->settable))
			continue;
		if (i == current)
			*out_current = count;
		out[count] = (struct sf_mode){
			.width = m->width,
			.height = m->height,
			.refresh_mhz = m->refresh_mhz,
			.seamless = m->width == cur->width &&
				    m->height == cur->height,
			.preferred = m->preferred,
		};
		if (map)
			map[count] = i;
		count++;
	}
	return count;
}

bool
sf_modes_low_copy(const struct sf_core *core, bool managed,
		  uint32_t native_mhz, uint32_t *refresh_mhz)
{
	const struct sf_config *cfg = sf_core_get_config(core);

	*refresh_mhz = 0;
	if (!managed || !cfg->synthesize_low_refresh)
		return false;
	*refresh_mhz = (uint32_t)cfg->idle_min_refresh_hz * 1000;
	return native_mhz && *refresh_mhz < native_mhz;
}
