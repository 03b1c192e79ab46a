/* SPDX-License-Identifier: MIT */
#ifndef SF_OUTPUT_POLICY_H
#define SF_OUTPUT_POLICY_H

/*
 * What an output is to stillframe, decided once for every adapter:
 * whether its refresh is managed (and so whether it dims), and what the
 * backlight does as it appears.
 */

#include <stdbool.h>
#include <stdint.h>

struct sf_core;

/* Whether stillframe manages the refresh rate (and the backlight) of
 * the output called `name`: the outputs option selects it (`internal`:
 * the server reports it built in) and the server can switch its modes.
 * `*selected` (may be NULL) gets whether the option alone selects it,
 * for the adapter to say why a selected output is left alone. */
bool
sf_output_policy_managed(const struct sf_core *core, const char *name,
			 bool internal, bool can_switch_modes,
			 bool *selected);

/* What to do with a backlight request of the core for an output. */
enum sf_output_backlight {
	SF_OUTPUT_BACKLIGHT_WRITE = 0,	/* write `percent` to the panel */
	SF_OUTPUT_BACKLIGHT_KEPT,	/* nothing to write: done */
	SF_OUTPUT_BACKLIGHT_REFUSED,	/* not carried out: failed */
};

/* Only managed outputs dim: on an output that is not managed the panel
 * keeps its level, which is success for full brightness (what it has)
 * and a refusal for anything lower. */
enum sf_output_backlight
sf_output_policy_backlight(bool managed, int32_t percent);

/* The backlight a new output's panel is set to, or -1 to leave it: a
 * managed output keeps the panel lit until it dims itself (a level left
 * dim by a crash is put back). */
int32_t
sf_output_policy_initial_backlight(bool managed);

#endif /* SF_OUTPUT_POLICY_H */
