/* SPDX-License-Identifier: MIT */
#ifndef SF_SUPPORT_H
#define SF_SUPPORT_H

/*
 * What both adapters do the same way around the core: read the clock,
 * turn the core's next deadline into a timer's milliseconds, and carry
 * out the core's backlight and reclock hooks on the platform layer.
 * sf-support links sf-platform; the core does not.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sf-platform.h"
#include "sf-types.h"

struct sf_output;

/* CLOCK_MONOTONIC in nanoseconds: the time line of input timestamps on
 * both servers (Weston's presentation clock for input, X's
 * GetTimeInMillis), commits and the core's deadlines. */
sf_time_t
sf_support_now(void);

/* Milliseconds to arm a timer with so that it fires at or after
 * `deadline`: rounded up (firing early would find nothing due and
 * spin), at least 1 for a deadline already past, at most INT32_MAX; 0
 * for SF_TIME_NEVER (disarm: wl_event_source_timer_update's 0,
 * TimerCancel on X). */
int32_t
sf_support_timer_ms(sf_time_t deadline, sf_time_t now);

/* The core's set_backlight hook for the output `o` (managed: see
 * sf_output_policy_managed): an output that is not managed never dims
 * (sf_output_policy_backlight), a managed one writes through the
 * platform's per-output wish. */
bool
sf_support_set_backlight(struct sf_platform *platform, struct sf_output *o,
			 bool managed, int32_t percent);

/* The core's set_reclock hook. */
bool
sf_support_set_reclock(struct sf_platform *platform,
		       enum sf_reclock_level level);

/* A new output called `name` is set up: a managed one keeps the panel
 * lit until it dims itself. */
void
sf_support_output_added(struct sf_platform *platform, const char *name,
			bool managed);

#endif /* SF_SUPPORT_H */
