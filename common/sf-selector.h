/* SPDX-License-Identifier: MIT */
#ifndef SF_SELECTOR_H
#define SF_SELECTOR_H

#include <stddef.h>
#include "sf-types.h"

/*
 * The refresh selector of one output: the lowest refresh rate that serves
 * every visible vote.  Votes come from surfaces (heuristic rate from the
 * tracker, explicit content rate, explicit range, content type) weighted
 * by visible area; input, pointer motion and the governor state add
 * global rules.  Raising is immediate, dropping waits a minimum dwell.
 */

struct sf_mode {
	int32_t width, height;
	uint32_t refresh_mhz;
	/* Switching to this mode from the current one is believed not to
	 * blank the panel (same timings with another clock, VRR, seamless
	 * M/N). */
	bool seamless;
	bool preferred;			/* the panel's native mode */
};

enum sf_vote_type {
	SF_VOTE_NONE = 0,	/* no opinion (e.g. suppressed blinking) */
	SF_VOTE_MIN,		/* anything will do (static content) */
	SF_VOTE_MAX,		/* as fast as possible (interactive) */
	SF_VOTE_HEURISTIC,	/* measured rate: `rate_mhz` */
	SF_VOTE_EXACT_OR_MULTIPLE, /* explicit content rate: `rate_mhz` */
	SF_VOTE_RANGE,		/* explicit [min_mhz, max_mhz] */
};

struct sf_vote {
	enum sf_vote_type type;
	uint32_t rate_mhz;
	uint32_t min_mhz, max_mhz;
	enum sf_content_type content;
	double weight;		/* visible area / output area, in (0, 1] */
};

/* Which mode switches are allowed when the selector is not boosting. */
enum sf_refresh_switch {
	SF_REFRESH_SWITCH_SEAMLESS = 0,	/* only seamless modes */
	SF_REFRESH_SWITCH_ALWAYS,	/* any mode at the same resolution */
	SF_REFRESH_SWITCH_NEVER,	/* never change the mode */
};

struct sf_selector_params {
	uint32_t active_refresh_mhz;	/* on input; 0: the preferred mode */
	uint32_t idle_min_mhz;		/* lowest rate ever chosen */
	uint32_t pointer_min_mhz;	/* floor while the pointer moves */
	sf_time_t min_dwell;		/* before dropping the rate */
	enum sf_refresh_switch refresh_switch;
};

struct sf_selector_input {
	const struct sf_mode *modes;
	size_t n_modes;
	size_t current;			/* index into modes */
	const struct sf_vote *votes;
	size_t n_votes;
	enum sf_idle_state state;	/* from the governor */
	bool pointer_moving;
};

struct sf_selector {
	struct sf_selector_params params;
	sf_time_t last_change;
	bool changed_once;
};

struct sf_selection {
	size_t mode;			/* index into modes */
	const char *reason;		/* static string, for logs */
	/* If the choice is held above the wanted rate by the dwell, when to
	 * ask again; SF_TIME_NEVER otherwise. */
	sf_time_t retry_at;
};

void
sf_selector_params_init_default(struct sf_selector_params *params);

void
sf_selector_init(struct sf_selector *sel,
		 const struct sf_selector_params *params);

/* Picks a mode.  Only modes at the resolution of `current` are
 * candidates.  Does not assume the switch happens: call
 * sf_selector_notify_switched() when it did. */
void
sf_selector_choose(struct sf_selector *sel,
		   const struct sf_selector_input *in, sf_time_t now,
		   struct sf_selection *out);

void
sf_selector_notify_switched(struct sf_selector *sel, sf_time_t now);

/* How well content at `content_mhz` plays at `refresh_mhz`, in [0, 1]:
 * 1 for an exact multiple, 0.8 for a fractional pair (23.976 at 24 Hz
 * multiples), less for a cadence that judders. */
double
sf_selector_cadence_score(uint32_t content_mhz, uint32_t refresh_mhz);

#endif /* SF_SELECTOR_H */
