/* SPDX-License-Identifier: MIT */
#include "sf-suppress.h"

/*
 * The gate only ever holds damage with a finite deadline, so the worst a
 * wrong classification can do is show a blink or a clock tick late by
 * the class's maximum staleness; it can never lose a frame.
 */

/* Latest deadline the gate hands out: finite, so held damage always
 * flushes. */
#define LATEST_DEADLINE (SF_TIME_NEVER - 1)

void
sf_suppress_params_init_default(struct sf_suppress_params *params)
{
	params->enabled = true;
	params->idle_delay = SF_SEC(3);
	params->blink_max_staleness = SF_SEC(30);
	/* A seconds display may be half a minute behind while nobody looks:
	 * that is what makes an idle desktop with a clock 30x cheaper. */
	params->tick_max_staleness = SF_SEC(30);
	params->redundant_max_staleness = SF_SEC(1);
	/* 5 Hz for animations nobody is looking at. */
	params->background_frame_interval = SF_MSEC(200);
}

void
sf_repaint_gate_init(struct sf_repaint_gate *gate)
{
	gate->pending = false;
	gate->must_paint = false;
	gate->force = 0;
	gate->deferred = 0;
	gate->pending_since = 0;
	gate->deadline = SF_TIME_NEVER;
	gate->hold_reason = SF_REPAINT_REASON_NONE;
}

static sf_time_t
flush_time(sf_time_t now, sf_time_t staleness)
{
	if (staleness < 0)
		staleness = 0;
	if (now > LATEST_DEADLINE - staleness)
		return LATEST_DEADLINE;
	return now + staleness;
}

/* How long a commit that brings nothing new may wait while the user is
 * away, by the class of its surface (see classify()). */
static sf_time_t
redundant_idle_hold(const struct sf_suppress_params *params,
		    enum sf_class cls)
{
	if (cls == SF_CLASS_BLINKING)
		return params->blink_max_staleness;
	if (cls == SF_CLASS_TICKING)
		return params->tick_max_staleness;
	if (params->blink_max_staleness < params->tick_max_staleness)
		return params->blink_max_staleness;
	return params->tick_max_staleness;
}

/* Whether a commit may be held, and for how long; REASON_CHANGED when
 * it must be painted. */
static enum sf_repaint_reason
classify(const struct sf_suppress_params *params, enum sf_class cls,
	 enum sf_commit_kind kind, bool user_idle, sf_time_t *staleness)
{
	if (!params->enabled)
		return SF_REPAINT_REASON_DISABLED;

	switch (kind) {
	case SF_COMMIT_EMPTY:
	case SF_COMMIT_IDENTICAL:
		*staleness = params->redundant_max_staleness;
		/* Nothing new while the user is away may wait as long as a
		 * blink or a tick would: holding it shows nothing stale, and
		 * releasing it early only wakes the display.  From a blink
		 * or a tick, as long as its class (a blink drawn on and off
		 * in one go: the backlog of a client the Xorg module held);
		 * from any other surface (the empty commits a browser sends
		 * around its page's caret or clock, once a second a repaint
		 * with Firefox; a static part of a window committed with its
		 * blinking page) as long as the shorter of the two. */
		if (user_idle) {
			sf_time_t hold = redundant_idle_hold(params, cls);
			if (hold > *staleness)
				*staleness = hold;
		}
		return SF_REPAINT_REASON_REDUNDANT;
	case SF_COMMIT_CHANGED:
		break;
	}

	/* Blinks and ticks are only worth holding while nobody watches
	 * closely; a user at the keyboard sees a late cursor blink. */
	if (user_idle && cls == SF_CLASS_BLINKING) {
		*staleness = params->blink_max_staleness;
		return SF_REPAINT_REASON_BLINK_IDLE;
	}
	if (user_idle && cls == SF_CLASS_TICKING) {
		*staleness = params->tick_max_staleness;
		return SF_REPAINT_REASON_TICK_IDLE;
	}
	return SF_REPAINT_REASON_CHANGED;
}

static void
gate_mark_pending(struct sf_repaint_gate *gate, sf_time_t now)
{
	if (!gate->pending) {
		gate->pending = true;
		gate->pending_since = now;
	}
}

bool
sf_repaint_gate_add_commit(struct sf_repaint_gate *gate,
			   const struct sf_suppress_params *params,
			   enum sf_class cls, enum sf_commit_kind kind,
			   bool user_idle, sf_time_t now)
{
	sf_time_t staleness = 0;
	enum sf_repaint_reason reason =
		classify(params, cls, kind, user_idle, &staleness);

	gate_mark_pending(gate, now);

	if (reason == SF_REPAINT_REASON_CHANGED ||
	    reason == SF_REPAINT_REASON_DISABLED) {
		gate->must_paint = true;
		return false;
	}

	sf_time_t flush = flush_time(now, staleness);
	if (flush < gate->deadline)
		gate->deadline = flush;
	gate->deferred++;
	gate->hold_reason = reason;
	return true;
}

void
sf_repaint_gate_force(struct sf_repaint_gate *gate, uint32_t force,
		      sf_time_t now)
{
	/* A caller that forces without saying why still gets its paint. */
	if (force == 0)
		force = SF_FORCE_OTHER;
	gate_mark_pending(gate, now);
	gate->force |= force;
}

enum sf_repaint_decision
sf_repaint_gate_decide(const struct sf_repaint_gate *gate,
		       const struct sf_suppress_params *params, sf_time_t now,
		       sf_time_t *deadline, enum sf_repaint_reason *reason)
{
	enum sf_repaint_decision decision = SF_REPAINT_NOW;
	enum sf_repaint_reason why;
	sf_time_t when = now;

	if (!gate->pending) {
		decision = SF_REPAINT_NOTHING;
		why = SF_REPAINT_REASON_NONE;
		when = SF_TIME_NEVER;
	} else if (!params->enabled) {
		why = SF_REPAINT_REASON_DISABLED;
	} else if (gate->force) {
		why = SF_REPAINT_REASON_FORCED;
	} else if (gate->must_paint) {
		why = SF_REPAINT_REASON_CHANGED;
	} else if (now >= gate->deadline) {
		why = SF_REPAINT_REASON_STALE;
	} else {
		decision = SF_REPAINT_DEFER;
		why = gate->hold_reason;
		when = gate->deadline;
	}

	if (deadline)
		*deadline = when;
	if (reason)
		*reason = why;
	return decision;
}

void
sf_repaint_gate_painted(struct sf_repaint_gate *gate)
{
	sf_repaint_gate_init(gate);
}

sf_time_t
sf_suppress_throttle_interval(const struct sf_suppress_params *params,
			      enum sf_class cls, bool focused, bool user_idle)
{
	/* Disabled means every commit paints; throttling the client would
	 * hold its frames just the same. */
	if (!params->enabled || !user_idle)
		return 0;

	switch (cls) {
	case SF_CLASS_BLINKING:
	case SF_CLASS_TICKING:
		/* Nothing but a blink or a tick is ever delayed.  A client
		 * draws whatever it has (a line a program printed, a
		 * prompt) when its callback comes: held for the blink's
		 * staleness, that would wait up to 30 s.  Its repaints are
		 * what the gate holds; the callbacks, one per blink or
		 * tick, cost the client little. */
		return 0;
	case SF_CLASS_ANIMATING:
		return focused ? 0 : params->background_frame_interval;
	case SF_CLASS_VIDEO:
		/* A video plays at its own rate wherever the focus is: the
		 * user watches it while typing elsewhere, or while idle. */
	case SF_CLASS_STATIC:
	case SF_CLASS_INTERACTIVE:
	case SF_CLASS_COUNT:
		break;
	}
	return 0;
}

sf_time_t
sf_suppress_unwatched_interval(const struct sf_suppress_params *params,
			       enum sf_class cls)
{
	if (!params->enabled)
		return 0;
	switch (cls) {
	case SF_CLASS_BLINKING:
		return params->blink_max_staleness;
	case SF_CLASS_TICKING:
		return params->tick_max_staleness;
	case SF_CLASS_ANIMATING:
	case SF_CLASS_VIDEO:
		return params->background_frame_interval;
	case SF_CLASS_STATIC:
	case SF_CLASS_INTERACTIVE:
	case SF_CLASS_COUNT:
		break;
	}
	return 0;
}

bool
sf_suppress_blink_may_hold(enum sf_blink_phase newest,
			   enum sf_blink_phase shown)
{
	switch (newest) {
	case SF_BLINK_PHASE_HIDDEN:
		/* The screen keeps what it shows: the caret, or (after a
		 * flush) the field the client is about to draw it on. */
		return true;
	case SF_BLINK_PHASE_SHOWN:
		return shown == SF_BLINK_PHASE_SHOWN;
	case SF_BLINK_PHASE_UNKNOWN:
		break;
	}
	return false;
}

bool
sf_suppress_blink_may_throttle(enum sf_blink_phase newest)
{
	return newest == SF_BLINK_PHASE_SHOWN;
}

const char *
sf_repaint_reason_name(enum sf_repaint_reason reason)
{
	switch (reason) {
	case SF_REPAINT_REASON_NONE: return "none";
	case SF_REPAINT_REASON_DISABLED: return "disabled";
	case SF_REPAINT_REASON_CHANGED: return "changed";
	case SF_REPAINT_REASON_FORCED: return "forced";
	case SF_REPAINT_REASON_STALE: return "stale";
	case SF_REPAINT_REASON_BLINK_IDLE: return "blink-idle";
	case SF_REPAINT_REASON_TICK_IDLE: return "tick-idle";
	case SF_REPAINT_REASON_REDUNDANT: return "redundant";
	}
	return "invalid";
}
