/* SPDX-License-Identifier: MIT */
#include <time.h>

#include "sf-core.h"
#include "sf-output-policy.h"
#include "sf-support.h"

sf_time_t
sf_support_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (sf_time_t)ts.tv_sec * SF_NSEC_PER_SEC + ts.tv_nsec;
}

int32_t
sf_support_timer_ms(sf_time_t deadline, sf_time_t now)
{
	if (deadline == SF_TIME_NEVER)
		return 0;
	/* Subtracted in unsigned: a deadline far from now does not
	 * overflow. */
	if (deadline <= now)
		return 1;
	uint64_t wait = (uint64_t)deadline - (uint64_t)now;
	uint64_t ms = (wait + SF_NSEC_PER_MSEC - 1) / SF_NSEC_PER_MSEC;
	return ms > INT32_MAX ? INT32_MAX : (int32_t)ms;
}

bool
sf_support_set_backlight(struct sf_platform *platform, struct sf_output *o,
			 bool managed, int32_t percent)
{
	switch (sf_output_policy_backlight(managed, percent)) {
	case SF_OUTPUT_BACKLIGHT_WRITE:
		return sf_platform_set_output_backlight(
			platform, sf_output_get_name(o), percent);
	case SF_OUTPUT_BACKLIGHT_KEPT:
		return true;
	case SF_OUTPUT_BACKLIGHT_REFUSED:
		break;
	}
	return false;
}

bool
sf_support_set_reclock(struct sf_platform *platform,
		       enum sf_reclock_level level)
{
	return sf_platform_set_reclock(platform, level);
}

void
sf_support_output_added(struct sf_platform *platform, const char *name,
			bool managed)
{
	int32_t percent = sf_output_policy_initial_backlight(managed);

	if (percent >= 0)
		sf_platform_set_output_backlight(platform, name, percent);
}
