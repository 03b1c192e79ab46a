/* SPDX-License-Identifier: MIT */
#ifndef SF_MODES_H
#define SF_MODES_H

/*
 * The core's mode list of an output, built from the modes its server
 * reports.  One rule for every adapter: an output whose refresh is not
 * managed offers only its current mode; a managed one offers every mode
 * the adapter can set, in the order reported; a mode is seamless when it
 * has the current mode's size (the same resolution at another clock: a
 * panel takes it without a visible modeset as far as a server can tell).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sf-selector.h"

struct sf_core;

/* One mode as the server reports it. */
struct sf_mode_report {
	int32_t width, height;
	uint32_t refresh_mhz;
	bool preferred;		/* the server's native (preferred) mode */
	/* The adapter can switch the output to it.  The Xorg module keeps
	 * the screen's size, so a RandR mode of another size is not. */
	bool settable;
};

/* Fills `out` (room for `n` modes) from `reported[0..n)`, whose index
 * `current` is the output's mode now; `map[i]` (may be NULL) gets the
 * reported index of out[i], `*out_current` the current mode's index in
 * `out`.  Returns how many modes `out` holds (at least 1 with n > 0 and
 * current < n, else 0). */
size_t
sf_modes_build(const struct sf_mode_report *reported, size_t n,
	       size_t current, bool managed, struct sf_mode *out,
	       size_t *map, size_t *out_current);

/* Whether to make a low-refresh copy of the native mode (the
 * LVDS-downclock technique: the same timings at a lower dot clock) for
 * an output: synthesize-low-refresh is on, its refresh is managed and
 * the native mode, at `native_mhz`, is faster than idle-min-refresh.
 * `*refresh_mhz` gets idle-min-refresh in mHz whenever the option asks
 * for a copy on this output, made or not (for the adapter's log), else
 * 0. */
bool
sf_modes_low_copy(const struct sf_core *core, bool managed,
		  uint32_t native_mhz, uint32_t *refresh_mhz);

#endif /* SF_MODES_H */
