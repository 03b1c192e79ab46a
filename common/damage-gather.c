/* SPDX-License-Identifier: MIT */
#include "sf-damage-gather.h"

/* `quiet` after the last damage, or SF_DAMAGE_GATHER_MAX after the first,
 * whichever comes first. */
static sf_time_t
settled_at(sf_time_t first, sf_time_t last, sf_time_t quiet)
{
	sf_time_t at = last + quiet;

	if (first + SF_DAMAGE_GATHER_MAX < at)
		at = first + SF_DAMAGE_GATHER_MAX;
	return at;
}

sf_time_t
sf_damage_gather_ready_at(sf_time_t first, sf_time_t last)
{
	return settled_at(first, last, SF_DAMAGE_GATHER_SETTLE);
}

sf_time_t
sf_damage_gather_due_at(sf_time_t first, sf_time_t last)
{
	return settled_at(first, last, SF_DAMAGE_GATHER_WAKE);
}
