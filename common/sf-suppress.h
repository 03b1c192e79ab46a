/* SPDX-License-Identifier: MIT */
#ifndef SF_SUPPRESS_H
#define SF_SUPPRESS_H

#include "sf-activity.h"

/*
 * Repaint-suppression policy.  A repaint gate per output collects what
 * contributed to the pending repaint since the last paint and answers:
 * paint now, or defer until a named deadline.  Deferred damage is never
 * dropped: it is painted with the first unsuppressed damage, on any
 * input, or at the deadline (the smallest maximum staleness of what was
 * deferred).
 */

struct sf_suppress_params {
	bool enabled;
	/* The user counts as idle this long after the last input; blink
	 * and tick damage is only suppressed while idle. */
	sf_time_t idle_delay;
	sf_time_t blink_max_staleness;
	sf_time_t tick_max_staleness;
	/* Empty and identical commits: nothing visible changed. */
	sf_time_t redundant_max_staleness;
	/* Frame-callback throttle for unfocused animating surfaces while
	 * idle; 0 disables throttling. */
	sf_time_t background_frame_interval;
};

/* Why the gate decided what it did, for logs and stats. */
enum sf_repaint_reason {
	SF_REPAINT_REASON_NONE = 0,
	SF_REPAINT_REASON_DISABLED,
	SF_REPAINT_REASON_CHANGED,	/* unsuppressible damage */
	SF_REPAINT_REASON_FORCED,	/* see force flags */
	SF_REPAINT_REASON_STALE,	/* deadline reached */
	SF_REPAINT_REASON_BLINK_IDLE,
	SF_REPAINT_REASON_TICK_IDLE,
	SF_REPAINT_REASON_REDUNDANT,	/* empty or identical */
};

struct sf_repaint_gate {
	bool pending;			/* something contributed */
	bool must_paint;		/* something unsuppressible did */
	uint32_t force;			/* enum sf_repaint_force bits */
	uint32_t deferred;		/* suppressible contributions held */
	sf_time_t pending_since;
	sf_time_t deadline;		/* flush time of what is held */
	enum sf_repaint_reason hold_reason; /* newest suppressible reason */
};

void
sf_suppress_params_init_default(struct sf_suppress_params *params);

void
sf_repaint_gate_init(struct sf_repaint_gate *gate);

/* A surface on this output committed.  `user_idle` is whether the user
 * has been idle for params->idle_delay. Returns true if this contribution
 * alone could be held. */
bool
sf_repaint_gate_add_commit(struct sf_repaint_gate *gate,
			   const struct sf_suppress_params *params,
			   enum sf_class cls, enum sf_commit_kind kind,
			   bool user_idle, sf_time_t now);

/* Something that always paints (enum sf_repaint_force bits). */
void
sf_repaint_gate_force(struct sf_repaint_gate *gate, uint32_t force,
		      sf_time_t now);

/* The backend is about to repaint: paint now, defer (with *deadline set
 * to the flush time), or nothing is pending. */
enum sf_repaint_decision
sf_repaint_gate_decide(const struct sf_repaint_gate *gate,
		       const struct sf_suppress_params *params, sf_time_t now,
		       sf_time_t *deadline, enum sf_repaint_reason *reason);

/* The output painted: everything held is flushed. */
void
sf_repaint_gate_painted(struct sf_repaint_gate *gate);

/* Frame-callback throttle interval for a surface the user may be
 * watching, 0 for none: unfocused animating surfaces get the background
 * interval while the user is idle.  A video never: it plays at its own
 * rate wherever the focus is.  Blinking and ticking surfaces never
 * either: their frame callbacks are answered by the next repaint, held
 * or not, so that anything else they draw (a program's output in a
 * terminal) is not delayed; only their repaints are held (the gate
 * above). */
sf_time_t
sf_suppress_throttle_interval(const struct sf_suppress_params *params,
			      enum sf_class cls, bool focused, bool user_idle);

/* The same for a surface nobody watches closely (background priority,
 * or shown only on an output that is powered off): blinking and ticking
 * ones are throttled to their staleness, animations to the background
 * interval, whatever the focus and the input say. */
sf_time_t
sf_suppress_unwatched_interval(const struct sf_suppress_params *params,
			       enum sf_class cls);

/*
 * A held blink never leaves the caret hidden.  `newest` is the state
 * (sf_classifier_blink_phase) of a blinking surface's newest commit,
 * `shown` the state it had when its output last painted.
 *
 * Its commits may be held (with the blink's staleness, while the user
 * is idle) only when that keeps the caret on screen: one that hides it,
 * and one that shows it while the screen shows it already (its hiding
 * commit was held).  One that brings the caret back to a screen that
 * hides it paints at once, and so does a state nobody can tell: the
 * frame a toolkit ends its blinking with (GTK after 10 s, alacritty
 * 5 s, kitty 15 s) is such a commit whenever the screen was left
 * without the caret.
 */
bool
sf_suppress_blink_may_hold(enum sf_blink_phase newest,
			   enum sf_blink_phase shown);

/*
 * Whether an adapter that holds a blinking client (Xorg) may hold it:
 * only while its newest commit shows the caret, so that what waits is
 * the commit that would hide it.  After one that hides it (or one
 * nobody can tell), the client runs as usual and draws the caret back,
 * or ends its blinking, on its own time: a toolkit that stopped
 * blinking with the caret off screen would otherwise draw its last
 * frame only when it was let go, 30 s later.
 */
bool
sf_suppress_blink_may_throttle(enum sf_blink_phase newest);

const char *
sf_repaint_reason_name(enum sf_repaint_reason reason);

#endif /* SF_SUPPRESS_H */
