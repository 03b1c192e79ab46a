/* SPDX-License-Identifier: MIT */
#ifndef SF_GOVERNOR_H
#define SF_GOVERNOR_H

#include "sf-types.h"

/*
 * The idle governor of one output: ACTIVE -> LOW_REFRESH -> DIM ->
 * DPMS_STANDBY -> DPMS_OFF, driven by the time since the last user input.
 * Any input returns to ACTIVE at once.  Content updates do not move the
 * state (the refresh selector serves them), so a log line every few
 * seconds cannot make the state flap.
 *
 * The GPU reclock level is a sub-state: LOW only while the output is at
 * LOW_REFRESH or deeper, no high-rate content is busy, and the refresh
 * rate has not changed for `reclock_delay` (memory reclocking needs a
 * settled scanout).
 */

struct sf_governor_params {
	/* Quiet time before entering each state, counted from the last
	 * input; index by enum sf_idle_state.  stage[SF_STATE_ACTIVE] is
	 * unused.  0 disables a stage (it is skipped). */
	sf_time_t stage_timeout[SF_STATE_COUNT];
	bool reclock;			/* allow SF_RECLOCK_LOW at all */
	sf_time_t reclock_delay;
	/* Hysteresis: waking within this time after entering DIM or a
	 * DPMS stage means the user was still there; the timeouts of DIM
	 * and deeper then double, up to `max_backoff` times, until an
	 * idle period completes a stage without such a quick wake. */
	sf_time_t quick_wake_window;
	unsigned max_backoff;
	/* How long the output takes, from input, to show a frame at its
	 * native refresh again from each state: the cost of going deeper,
	 * which a cap by latency (sf_governor_deepest_within) weighs. */
	sf_time_t wake_latency[SF_STATE_COUNT];
};

struct sf_governor {
	struct sf_governor_params params;
	enum sf_idle_state state;
	enum sf_idle_state cap;		/* deepest state allowed */
	enum sf_reclock_level reclock;
	sf_time_t last_input;
	/* When the cap last became deeper: a stage that the cap held back
	 * (a video that inhibited blanking has ended) waits its full
	 * timeout from then, not from the last input hours ago. */
	sf_time_t cap_raised_at;
	sf_time_t entered_at;		/* when `state` was entered */
	sf_time_t settled_since;	/* refresh unchanged, content quiet */
	bool content_busy;
	unsigned backoff;		/* current doubling of deep timeouts */
};

/* Why a transition happened, for logs. */
enum sf_governor_reason {
	SF_GOVERNOR_REASON_TIMEOUT = 0,
	SF_GOVERNOR_REASON_INPUT,
	SF_GOVERNOR_REASON_CAP,		/* an inhibitor or hint capped it */
	SF_GOVERNOR_REASON_SETTLED,	/* reclock: refresh settled */
	SF_GOVERNOR_REASON_BUSY,	/* reclock: content became busy */
};

struct sf_governor_transition {
	enum sf_idle_state from, to;
	enum sf_reclock_level reclock_from, reclock_to;
	enum sf_governor_reason reason;
};

void
sf_governor_params_init_default(struct sf_governor_params *params);

/* The model's wake latency of `state` on an output of `kind`: a panel
 * relights in a few hundred milliseconds, a monitor on a cable takes
 * seconds to find its signal again. */
sf_time_t
sf_governor_default_wake_latency(enum sf_output_kind kind,
				 enum sf_idle_state state);

void
sf_governor_init(struct sf_governor *gov,
		 const struct sf_governor_params *params, sf_time_t now);

/* User input: back to ACTIVE and NORMAL clocks now. Returns true and
 * fills `out` if anything changed. */
bool
sf_governor_notify_input(struct sf_governor *gov, sf_time_t now,
			 struct sf_governor_transition *out);

/* The deepest state allowed (idle inhibitors, client hints).  A cap
 * shallower than the current state lifts the state to the cap at once. */
bool
sf_governor_set_cap(struct sf_governor *gov, enum sf_idle_state cap,
		    sf_time_t now, struct sf_governor_transition *out);

/* The deepest enabled state whose wake latency is at most `latency`
 * (ACTIVE if none). */
enum sf_idle_state
sf_governor_deepest_within(const struct sf_governor *gov, sf_time_t latency);

/* New timeouts and latencies (the output's kind became known); the state
 * and timers keep running, a stage now due is entered at the next
 * update. */
void
sf_governor_set_params(struct sf_governor *gov,
		       const struct sf_governor_params *params);

/* High-rate content (video, animation) is visible: no reclocking. */
bool
sf_governor_set_content_busy(struct sf_governor *gov, bool busy,
			     sf_time_t now,
			     struct sf_governor_transition *out);

/* The output's refresh rate changed: reclocking waits again. */
void
sf_governor_notify_refresh_changed(struct sf_governor *gov, sf_time_t now);

/* Advances timers.  Call at (or after) sf_governor_next_deadline(); it
 * makes at most one transition per call, so call until it returns false. */
bool
sf_governor_update(struct sf_governor *gov, sf_time_t now,
		   struct sf_governor_transition *out);

/* When sf_governor_update() next has something to do, or SF_TIME_NEVER. */
sf_time_t
sf_governor_next_deadline(const struct sf_governor *gov);

const char *
sf_governor_reason_name(enum sf_governor_reason reason);

#endif /* SF_GOVERNOR_H */
