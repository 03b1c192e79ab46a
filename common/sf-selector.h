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
 *
 * Nothing but a client's explicit request (a rate or range hint, a game
 * through _VARIABLE_REFRESH) takes the output above its native mode, the
 * one the user chose.  A switch made for a measured content rate, not
 * for input, an idle stage or a client's request, is rare: its target
 * must stay the same for a dwell, and it comes at least
 * SF_SELECTOR_CONTENT_INTERVALS dwells after the previous one.
 */

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
	/* Shown for the first time a moment ago: runs at native, because
	 * clients read the refresh rate as they start and pace by it. */
	bool new_surface;
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

/* A content-rate switch waits this many dwells after the previous one:
 * with the default 2 s dwell, at most one every 10 s. */
#define SF_SELECTOR_CONTENT_INTERVALS 5

struct sf_selector_input {
	const struct sf_mode *modes;
	size_t n_modes;
	size_t current;			/* index into modes */
	const struct sf_vote *votes;
	size_t n_votes;
	enum sf_idle_state state;	/* from the governor */
	bool pointer_moving;
	/* The user's mode, the one the output ran when stillframe took it:
	 * the native mode.  Without it, the panel's preferred mode (or its
	 * fastest) is. */
	bool has_user_mode;
	size_t user_mode;		/* index into modes */
};

struct sf_selector {
	struct sf_selector_params params;
	sf_time_t last_change;
	bool changed_once;
	/* What the last choice saw: a change of the idle state or of the
	 * pointer is a transition, carried out at once. */
	bool seen;
	enum sf_idle_state last_state;
	bool last_pointer;
	bool last_new;			/* a vote was a new surface's */
	bool transition;		/* not carried out yet */
	/* The transition began in ACTIVE: the idle drop, not a deeper
	 * stage. */
	bool transition_from_active;
	/* A content-rate switch wanted since `pending_since`. */
	bool pending;
	size_t pending_mode;
	sf_time_t pending_since;
	/* The last choice was a content-rate switch: counted as one if it
	 * is carried out (sf_selector_notify_switched). */
	bool content_proposed;
	bool content_changed_once;
	sf_time_t last_content_change;
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

/*
 * A surface's measured rate as the selector should take it, steadied.
 * The classifier's estimate of a real animation wanders (a CSS animation
 * read anywhere from 40 to 57 fps), and a single odd reading of a 24 fps
 * video read 25 fps: either way the output went hunting.  A rate settles
 * once readings stay within SF_RATE_SETTLE_BAND of each other for the
 * settle time, and then holds against any reading within the band of it;
 * another rate replaces it only by settling the same way.  A reading
 * equal to the output's current rate while that is below native says
 * nothing: a client that draws on frame callbacks, or one that read the
 * rate at start (Chromium on X), is paced by the output, and taking that
 * for its own rate would keep the output low for good.  Until a rate
 * settles, the surface's rate is unknown (0): it runs at native.  With a
 * rate settled, such readings must hold as long to unsettle it: a video
 * catching up after a hitch reads its output's rate for a moment.  Nor
 * does a slower reading below native lower a settled rate: a slow
 * renderer draws fewer frames at a lower refresh rate.
 */
#define SF_RATE_SETTLE_BAND 10		/* percent */
/* A settled rate is forgotten after the surface is this long not busy. */
#define SF_RATE_FORGET SF_SEC(10)

struct sf_rate_settle {
	uint32_t settled_mhz;		/* 0: unknown */
	uint32_t candidate_mhz;		/* 0: none */
	sf_time_t candidate_since;
	/* Its readings, which settle as their mean: X's readings of a
	 * 24 fps video are 23.98 and 25 in turn. */
	uint64_t candidate_sum;
	uint32_t candidate_n;
	sf_time_t quiet_since;		/* not busy since; 0 while busy */
};

/* `busy`: the surface animates or plays video; `measured_mhz` its
 * current estimate, 0 while unknown.  `current_mhz` and `native_mhz` are
 * its output's.  Returns the settled rate, 0 if none. */
uint32_t
sf_rate_settle_update(struct sf_rate_settle *rs, bool busy,
		      uint32_t measured_mhz, uint32_t current_mhz,
		      uint32_t native_mhz, sf_time_t settle, sf_time_t now);

/* When a candidate settles if readings stay as they are: SF_TIME_NEVER
 * without one. */
sf_time_t
sf_rate_settle_due(const struct sf_rate_settle *rs, sf_time_t settle);

/* How well content at `content_mhz` plays at `refresh_mhz`, in [0, 1]:
 * 1 for an exact multiple, 0.8 for a fractional pair (23.976 at 24 Hz
 * multiples), less for a cadence that judders. */
double
sf_selector_cadence_score(uint32_t content_mhz, uint32_t refresh_mhz);

#endif /* SF_SELECTOR_H */
