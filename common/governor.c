/* SPDX-License-Identifier: MIT */
#include "sf-governor.h"

/*
 * The governor is a pure function of the timestamps it is given: no
 * clock, no allocation.  Stage deadlines are always derived from
 * `last_input`, never from when a stage was entered, so that a late
 * update() cannot shift the schedule and re-entering LOW_REFRESH always
 * takes the full timeout after the last input.
 */

#define DEEPEST_STATE (SF_STATE_COUNT - 1)

void
sf_governor_params_init_default(struct sf_governor_params *params)
{
	params->stage_timeout[SF_STATE_ACTIVE] = 0;
	/* Like i915 DRRS: drop the refresh rate after a second of quiet. */
	params->stage_timeout[SF_STATE_LOW_REFRESH] = SF_SEC(5);
	params->stage_timeout[SF_STATE_DIM] = SF_SEC(120);
	params->stage_timeout[SF_STATE_DPMS_STANDBY] = SF_SEC(300);
	params->stage_timeout[SF_STATE_DPMS_OFF] = SF_SEC(600);
	params->reclock = true;
	params->reclock_delay = SF_SEC(2);
	params->quick_wake_window = SF_SEC(10);
	params->max_backoff = 2;
	for (int st = 0; st < SF_STATE_COUNT; st++)
		params->wake_latency[st] = sf_governor_default_wake_latency(
			SF_OUTPUT_KIND_INTERNAL, st);
}

sf_time_t
sf_governor_default_wake_latency(enum sf_output_kind kind,
				 enum sf_idle_state state)
{
	bool cable = kind == SF_OUTPUT_KIND_EXTERNAL;

	switch (state) {
	case SF_STATE_ACTIVE:
		return 0;
	case SF_STATE_LOW_REFRESH:
		/* The switch back is one frame of the low rate. */
		return SF_MSEC(34);
	case SF_STATE_DIM:
		return SF_MSEC(34);
	case SF_STATE_DPMS_STANDBY:
		/* A panel only relights; a monitor leaves its standby. */
		return cable ? SF_MSEC(1000) : SF_MSEC(50);
	case SF_STATE_DPMS_OFF:
		/* eDP power sequencing and link training take about
		 * 250 ms; a monitor resynchronises in seconds. */
		return cable ? SF_MSEC(2500) : SF_MSEC(250);
	case SF_STATE_COUNT:
		break;
	}
	return SF_TIME_NEVER;
}

static sf_time_t
time_add(sf_time_t a, sf_time_t b)
{
	if (b > 0 && a > SF_TIME_NEVER - b)
		return SF_TIME_NEVER;
	return a + b;
}

static sf_time_t
time_max(sf_time_t a, sf_time_t b)
{
	return a > b ? a : b;
}

static bool
stage_enabled(const struct sf_governor *gov, enum sf_idle_state s)
{
	if (s == SF_STATE_ACTIVE)
		return true;
	return gov->params.stage_timeout[s] > 0;
}

/* The timeout of one stage with the hysteresis applied.  Only DIM and
 * deeper back off: LOW_REFRESH is invisible to the user. */
static sf_time_t
stage_timeout(const struct sf_governor *gov, enum sf_idle_state s)
{
	sf_time_t t = gov->params.stage_timeout[s];

	if (s < SF_STATE_DIM)
		return t;
	for (unsigned i = 0; i < gov->backoff; i++) {
		if (t > SF_TIME_NEVER / 2)
			return SF_TIME_NEVER;
		t *= 2;
	}
	return t;
}

/* Quiet time needed to enter stage `s`: a stage never comes before a
 * shallower enabled one, so a misordered configuration still walks the
 * stages in order. */
static sf_time_t
stage_threshold(const struct sf_governor *gov, enum sf_idle_state s)
{
	sf_time_t threshold = 0;

	for (int t = SF_STATE_LOW_REFRESH; t <= (int)s; t++) {
		if (stage_enabled(gov, t))
			threshold = time_max(threshold, stage_timeout(gov, t));
	}
	return threshold;
}

/* The next stage the timers may enter, or SF_STATE_COUNT for none. */
static enum sf_idle_state
next_stage(const struct sf_governor *gov)
{
	for (int s = gov->state + 1; s <= (int)gov->cap; s++) {
		if (stage_enabled(gov, s))
			return s;
	}
	return SF_STATE_COUNT;
}

static sf_time_t
stage_deadline(const struct sf_governor *gov)
{
	enum sf_idle_state next = next_stage(gov);

	if (next == SF_STATE_COUNT)
		return SF_TIME_NEVER;
	return time_add(time_max(gov->last_input, gov->cap_raised_at),
			stage_threshold(gov, next));
}

static bool
reclock_allowed(const struct sf_governor *gov)
{
	return gov->params.reclock && gov->state >= SF_STATE_LOW_REFRESH &&
	       !gov->content_busy;
}

static sf_time_t
reclock_deadline(const struct sf_governor *gov)
{
	if (gov->reclock != SF_RECLOCK_NORMAL || !reclock_allowed(gov))
		return SF_TIME_NEVER;
	return time_add(gov->settled_since, gov->params.reclock_delay);
}

static void
transition_begin(const struct sf_governor *gov,
		 struct sf_governor_transition *out,
		 enum sf_governor_reason reason)
{
	out->from = gov->state;
	out->to = gov->state;
	out->reclock_from = gov->reclock;
	out->reclock_to = gov->reclock;
	out->reason = reason;
}

static void
transition_end(const struct sf_governor *gov,
	       struct sf_governor_transition *out)
{
	out->to = gov->state;
	out->reclock_to = gov->reclock;
}

static void
governor_enter(struct sf_governor *gov, enum sf_idle_state to, sf_time_t now)
{
	/* Leaving ACTIVE starts the settle timer of the reclock. */
	if (gov->state == SF_STATE_ACTIVE && to != SF_STATE_ACTIVE)
		gov->settled_since = time_max(gov->settled_since, now);
	gov->state = to;
	gov->entered_at = now;
	if (to < SF_STATE_LOW_REFRESH)
		gov->reclock = SF_RECLOCK_NORMAL;
}

void
sf_governor_init(struct sf_governor *gov,
		 const struct sf_governor_params *params, sf_time_t now)
{
	/* Every field named or zeroed: content quiet, no backoff. */
	*gov = (struct sf_governor){
		.params = *params,
		.state = SF_STATE_ACTIVE,
		.cap = DEEPEST_STATE,
		.reclock = SF_RECLOCK_NORMAL,
		.last_input = now,
		.cap_raised_at = now,
		.entered_at = now,
		.settled_since = now,
	};
}

bool
sf_governor_notify_input(struct sf_governor *gov, sf_time_t now,
			 struct sf_governor_transition *out)
{
	gov->last_input = time_max(gov->last_input, now);

	if (gov->state >= SF_STATE_DIM) {
		/* A wake soon after the screen dimmed or blanked: the user
		 * was still there, so wait longer next time.  A later wake
		 * means the idle period was real. */
		if (now - gov->entered_at <= gov->params.quick_wake_window) {
			if (gov->backoff < gov->params.max_backoff)
				gov->backoff++;
		} else {
			gov->backoff = 0;
		}
	}

	if (gov->state == SF_STATE_ACTIVE &&
	    gov->reclock == SF_RECLOCK_NORMAL)
		return false;

	transition_begin(gov, out, SF_GOVERNOR_REASON_INPUT);
	governor_enter(gov, SF_STATE_ACTIVE, now);
	gov->reclock = SF_RECLOCK_NORMAL;
	transition_end(gov, out);
	return true;
}

bool
sf_governor_set_cap(struct sf_governor *gov, enum sf_idle_state cap,
		    sf_time_t now, struct sf_governor_transition *out)
{
	if ((int)cap < SF_STATE_ACTIVE)
		cap = SF_STATE_ACTIVE;
	if (cap > DEEPEST_STATE)
		cap = DEEPEST_STATE;
	if (cap > gov->cap)
		gov->cap_raised_at = now;
	gov->cap = cap;

	if (gov->state <= cap)
		return false;

	/* Lift to the deepest enabled state the cap allows: a disabled
	 * stage (say, no dimming) is never shown, not even by a cap. */
	enum sf_idle_state to = SF_STATE_ACTIVE;
	for (int s = cap; s > SF_STATE_ACTIVE; s--) {
		if (stage_enabled(gov, s)) {
			to = s;
			break;
		}
	}

	transition_begin(gov, out, SF_GOVERNOR_REASON_CAP);
	governor_enter(gov, to, now);
	transition_end(gov, out);
	return true;
}

enum sf_idle_state
sf_governor_deepest_within(const struct sf_governor *gov, sf_time_t latency)
{
	enum sf_idle_state deepest = SF_STATE_ACTIVE;

	for (int st = SF_STATE_LOW_REFRESH; st <= DEEPEST_STATE; st++) {
		if (!stage_enabled(gov, st))
			continue;
		if (gov->params.wake_latency[st] > latency)
			break;
		deepest = st;
	}
	return deepest;
}

void
sf_governor_set_params(struct sf_governor *gov,
		       const struct sf_governor_params *params)
{
	gov->params = *params;
}

bool
sf_governor_set_content_busy(struct sf_governor *gov, bool busy,
			     sf_time_t now,
			     struct sf_governor_transition *out)
{
	if (busy == gov->content_busy)
		return false;
	gov->content_busy = busy;

	if (!busy) {
		gov->settled_since = time_max(gov->settled_since, now);
		return false;
	}
	if (gov->reclock == SF_RECLOCK_NORMAL)
		return false;

	transition_begin(gov, out, SF_GOVERNOR_REASON_BUSY);
	gov->reclock = SF_RECLOCK_NORMAL;
	transition_end(gov, out);
	return true;
}

void
sf_governor_notify_refresh_changed(struct sf_governor *gov, sf_time_t now)
{
	/* Only restarts the settle timer: a level already LOW stays LOW,
	 * since input and busy content, which raise the refresh rate, end
	 * it on their own. */
	gov->settled_since = time_max(gov->settled_since, now);
}

bool
sf_governor_update(struct sf_governor *gov, sf_time_t now,
		   struct sf_governor_transition *out)
{
	/* One transition per call: when both are due, the stage goes
	 * first and the reclock follows on the next call. */
	sf_time_t stage = stage_deadline(gov);
	sf_time_t reclock = reclock_deadline(gov);

	if (stage != SF_TIME_NEVER && now >= stage) {
		transition_begin(gov, out, SF_GOVERNOR_REASON_TIMEOUT);
		governor_enter(gov, next_stage(gov), now);
		transition_end(gov, out);
		return true;
	}

	if (reclock != SF_TIME_NEVER && now >= reclock) {
		transition_begin(gov, out, SF_GOVERNOR_REASON_SETTLED);
		gov->reclock = SF_RECLOCK_LOW;
		transition_end(gov, out);
		return true;
	}

	return false;
}

sf_time_t
sf_governor_next_deadline(const struct sf_governor *gov)
{
	sf_time_t stage = stage_deadline(gov);
	sf_time_t reclock = reclock_deadline(gov);

	return stage < reclock ? stage : reclock;
}

const char *
sf_governor_reason_name(enum sf_governor_reason reason)
{
	switch (reason) {
	case SF_GOVERNOR_REASON_TIMEOUT: return "timeout";
	case SF_GOVERNOR_REASON_INPUT: return "input";
	case SF_GOVERNOR_REASON_CAP: return "cap";
	case SF_GOVERNOR_REASON_SETTLED: return "settled";
	case SF_GOVERNOR_REASON_BUSY: return "busy";
	}
	return "invalid";
}
