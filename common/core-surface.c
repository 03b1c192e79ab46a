/* SPDX-License-Identifier: MIT */
/* Surfaces: geometry, focus, hints, commits, their votes for the
 * refresh rate and how long their frames and clients are held. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core-private.h"

bool
sf_core_is_busy_class(enum sf_class cls)
{
	return cls == SF_CLASS_ANIMATING || cls == SF_CLASS_VIDEO;
}

/*
 * A hitch (a frame late) restarts the run the classifier measures a rate
 * over, which is not known again for its first intervals: a busy surface
 * keeps the rate it had until it is.  Without this the idle output fell
 * to its floor at the hitch, and a client drawing on frame callbacks
 * then kept it there: at 30 Hz it drew 30 frames a second, which read as
 * its rate (Weston's 60 fps animation, after callgrind's start stalled
 * it once).
 */
static void
keep_rate_through_hitch(struct sf_surface *s,
			const struct sf_classification *old)
{
	if (sf_core_is_busy_class(s->cls.cls) && s->cls.rate_mhz == 0 &&
	    sf_core_is_busy_class(old->cls))
		s->cls.rate_mhz = old->rate_mhz;
}

/* Until when a surface shown at `shown_at` counts as new: its output
 * stays at native meanwhile (new-window-native). */
sf_time_t
sf_surface_new_until(const struct sf_surface *s)
{
	sf_time_t hold = SF_MSEC(s->core->config.new_window_native_ms);

	return s->shown_at && hold > 0 ? s->shown_at + hold : 0;
}

/* The surface's measured rate, steadied (sf_rate_settle_update): fed
 * at every refresh choice, which a move of the estimate by more than
 * 1 Hz, or a class change, triggers. */
static uint32_t
settled_rate(struct sf_surface *s, const struct sf_output *o, sf_time_t now)
{
	return sf_rate_settle_update(&s->rate,
				     sf_core_is_busy_class(s->cls.cls),
				     s->cls.rate_mhz,
				     o->modes[o->current].refresh_mhz,
				     o->modes[o->original].refresh_mhz,
				     s->core->selector.min_dwell, now);
}

void
sf_surface_vote(struct sf_surface *s, const struct sf_output *o,
		struct sf_vote *v, sf_time_t now)
{
	uint32_t settled = settled_rate(s, o, now);
	/* A rate the client asked for its window holds for the parts it
	 * draws in (a player's video in a sub-surface), unless a part
	 * asked for its own. */
	const struct sf_surface *hints = s;

	if (!s->hint_min_mhz && !s->hint_max_mhz && !s->hint_rate_mhz)
		hints = surface_window(s);
	*v = (struct sf_vote){
		.content = surface_content(s),
		.weight = s->visible_fraction,
		.new_surface = now < sf_surface_new_until(s),
	};
	if (hints->hint_min_mhz || hints->hint_max_mhz) {
		v->type = SF_VOTE_RANGE;
		v->min_mhz = hints->hint_min_mhz;
		v->max_mhz = hints->hint_max_mhz;
		return;
	}
	if (hints->hint_rate_mhz) {
		v->type = SF_VOTE_EXACT_OR_MULTIPLE;
		v->rate_mhz = hints->hint_rate_mhz;
		return;
	}
	if (v->content == SF_CONTENT_GAME) {
		v->type = SF_VOTE_MAX;
		return;
	}
	switch (s->cls.cls) {
	case SF_CLASS_ANIMATING:
	case SF_CLASS_VIDEO:
		v->type = SF_VOTE_HEURISTIC;
		v->rate_mhz = settled;
		break;
	case SF_CLASS_INTERACTIVE:
		v->type = SF_VOTE_MAX;
		break;
	case SF_CLASS_BLINKING:
	case SF_CLASS_TICKING:
		/* Served by suppression, not by a rate. */
		v->type = SF_VOTE_NONE;
		break;
	case SF_CLASS_STATIC:
	case SF_CLASS_COUNT:
		v->type = SF_VOTE_MIN;
		break;
	}
}

/* How long a surface may go without committing before its pattern is
 * taken to have stopped.  While its frame callbacks are held it commits
 * only when they are released, so the wait includes the throttle. */
static sf_time_t
class_hold(const struct sf_surface *s, sf_time_t throttle)
{
	sf_time_t hold = s->core->classifier.inactive;

	if (2 * s->cls.period > hold)
		hold = 2 * s->cls.period;
	return hold + throttle;
}

/* A cadence needs this many regular commits to show (the classifier's
 * minimum); until then a released surface keeps its class. */
#define RELEASE_COMMITS SF_CLASSIFIER_MIN_COMMITS

/* How long an adapter's hold of a blinking or ticking surface lasts at
 * most: its class's staleness. */
static sf_time_t
adapter_hold_interval(const struct sf_surface *s)
{
	const struct sf_suppress_params *p = &s->core->suppress;

	return s->cls.cls == SF_CLASS_TICKING ? p->tick_max_staleness
					      : p->blink_max_staleness;
}

/* How long a surface's commits may be held back by us rather than by
 * its own cadence: its frame-callback throttle, or, for a blinking or
 * ticking surface whose client the adapter holds (X), the hold's
 * length while the user is idle, whether it is held right now or was
 * just let go.  Its commits then come at our release, so timing says
 * nothing and its class is kept.  Weston answers a blinking surface's
 * frame callbacks at once (they are never throttled), but an X client
 * let go draws its backlog at our time. */
static sf_time_t
retention_interval(const struct sf_surface *s, sf_time_t now)
{
	sf_time_t t = sf_surface_get_frame_interval(s, now);

	if (t == 0 && s->client_holds && s->core->config.enable &&
	    s->core->suppress.enabled && user_idle(s->core, now) &&
	    (s->cls.cls == SF_CLASS_BLINKING ||
	     s->cls.cls == SF_CLASS_TICKING))
		t = adapter_hold_interval(s);
	return t;
}

void
sf_core_reclassify_expired(struct sf_core *core, sf_time_t now)
{
	sf_time_t next = SF_TIME_NEVER;

	if (core->surface_expiry > now)
		return;
	sf_list_for_each(s, &core->surfaces, struct sf_surface, link) {
		if (s->cls.cls == SF_CLASS_STATIC)
			continue;
		struct sf_classification old = s->cls;
		sf_time_t throttle = retention_interval(s, now);
		const struct sf_commit_record *r =
			sf_surface_activity_get(&s->activity, 0);
		/* Held by the adapter: it commits when let go. */
		if (s->held_by_adapter && throttle == 0)
			throttle = adapter_hold_interval(s);
		/* Held back by us, not stopped: keep the class. */
		if (!(throttle > 0 && r && now - r->time <= class_hold(s, throttle)))
			sf_classify(&core->classifier, &s->activity,
				    sf_seat_activity_last_input(&core->seat),
				    now, &s->cls);
		keep_rate_through_hitch(s, &old);
		if (s->cls.cls != old.cls) {
			sf_core_log(core, SF_LOG_DEBUG,
				    "surface %u (%s): %s -> %s (no commits)",
				    s->id, s->label, sf_class_name(old.cls),
				    sf_class_name(s->cls.cls));
			if (s->output)
				s->output->votes_dirty = true;
			throttle = retention_interval(s, now);
		}
		if (s->cls.cls != SF_CLASS_STATIC) {
			sf_time_t hold = class_hold(s, throttle);
			sf_time_t expiry = r ? r->time + hold + 1 : now + hold;
			if (expiry <= now)
				expiry = now + hold;
			if (expiry < next)
				next = expiry;
		}
	}
	core->surface_expiry = next;
}

/* --- surfaces --- */

struct sf_surface *
sf_surface_create(struct sf_core *core, int32_t width, int32_t height,
		  sf_time_t now)
{
	struct sf_surface *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->core = core;
	s->id = core->next_surface_id++;
	snprintf(s->label, sizeof(s->label), "-");
	sf_surface_activity_init(&s->activity, width, height);
	s->cls.cls = SF_CLASS_STATIC;
	sf_list_init(&s->output_link);
	sf_list_insert_tail(&core->surfaces, &s->link);
	core->n_surfaces++;
	return s;
}

void
sf_surface_destroy(struct sf_surface *s)
{
	if (!s)
		return;
	struct sf_output *o = s->output;
	struct sf_core *core = s->core;
	struct sf_trace_event ev = { .type = SF_TRACE_DESTROY };

	/* No time here: at the last event's. */
	sf_core_trace_surface_event(s, &ev);
	sf_core_trace_surface_inhibit(s, false, 0);
	sf_list_remove(&s->output_link);
	sf_list_remove(&s->link);
	core->n_surfaces--;
	/* Its parts are parts of nothing now; a focused part no longer
	 * makes its window focused. */
	sf_list_for_each(part, &core->surfaces, struct sf_surface, link)
		if (part->parent == s)
			part->parent = NULL;
	if (s->parent && s->focused)
		s->parent->focused_parts--;
	if (o) {
		/* Its vote is gone: choose again at the next dispatch. */
		o->n_surfaces--;
		o->selector_retry = 0;
		/* So is its inhibitor: the cap follows at the next
		 * dispatch, which knows the time. */
		if (s->inhibit_count)
			o->cap_dirty = true;
	}
	free(s);
}

void
sf_surface_set_parent(struct sf_surface *s, struct sf_surface *parent)
{
	if (!s || parent == s)
		return;
	/* One level: a part of a part belongs to the same window. */
	while (parent && parent->parent)
		parent = parent->parent;
	if (parent == s)
		parent = NULL;
	if (parent == s->parent)
		return;
	if (s->focused && s->parent)
		s->parent->focused_parts--;
	if (s->focused && parent)
		parent->focused_parts++;
	if (s->output)
		s->output->votes_dirty = true;	/* it may vote as its window */
	s->parent = parent;
}

uint32_t
sf_surface_get_id(const struct sf_surface *s)
{
	return s->id;
}

void
sf_surface_set_label(struct sf_surface *s, const char *label)
{
	char old[sizeof(s->label)];

	memcpy(old, s->label, sizeof(old));
	snprintf(s->label, sizeof(s->label), "%s", label ? label : "-");
	/* Labels come without a time: at the last event's. */
	if (s->traced && strcmp(old, s->label) != 0)
		sf_core_trace_surface_on(s, s->output, s->visible_fraction, 0);
}

void
sf_surface_set_size(struct sf_surface *s, int32_t width, int32_t height)
{
	bool changed = s->activity.width != width ||
		       s->activity.height != height;

	sf_surface_activity_set_size(&s->activity, width, height);
	if (changed && s->traced)
		sf_core_trace_surface_on(s, s->output, s->visible_fraction, 0);
}

void
sf_surface_set_output(struct sf_surface *s, struct sf_output *output,
		      double visible_fraction, sf_time_t now)
{
	struct sf_output *old = s->output;

	if (visible_fraction < 0)
		visible_fraction = 0;
	if (visible_fraction > 1)
		visible_fraction = 1;
	if (old == output && s->visible_fraction == visible_fraction)
		return;
	if (old != output) {
		if (old) {
			sf_list_remove(&s->output_link);
			old->n_surfaces--;
		}
		s->output = output;
		if (output) {
			output->n_surfaces++;
			if (!sf_output_grow_votes(output))
				sf_core_log(s->core, SF_LOG_ERROR,
					    "out of memory: surface %u does not "
					    "vote", s->id);
			sf_list_insert_tail(&output->surfaces, &s->output_link);
		}
	}
	s->visible_fraction = visible_fraction;
	if (output && visible_fraction > 0 && s->shown_at == 0)
		s->shown_at = now > 0 ? now : 1;
	/* Taken off every output: the trace has no such event, so it shows
	 * the surface hidden where it was. */
	if (output)
		sf_core_trace_surface_on(s, output, visible_fraction, now);
	else if (s->traced)
		sf_core_trace_surface_on(s, old, 0, now);
	if (old && old != output)
		old->votes_dirty = true;
	if (output)
		output->votes_dirty = true;
	/* An inhibitor holds the output that shows its surface. */
	if (s->inhibit_count) {
		sf_core_trace_surface_inhibit(s, true, now);
		if (old && old != output)
			sf_output_update_cap(old, now);
		if (output)
			sf_output_update_cap(output, now);
	}
}

void
sf_surface_inhibit(struct sf_surface *s, sf_time_t now)
{
	s->inhibit_count++;
	sf_core_trace_surface_inhibit(s, true, now);
	if (s->output)
		sf_output_update_cap(s->output, now);
}

void
sf_surface_uninhibit(struct sf_surface *s, sf_time_t now)
{
	if (s->inhibit_count == 0) {
		sf_core_log(s->core, SF_LOG_ERROR,
			    "stillframe bug: surface %u uninhibited more often "
			    "than inhibited", s->id);
		return;
	}
	s->inhibit_count--;
	if (s->inhibit_count == 0)
		sf_core_trace_surface_inhibit(s, false, now);
	if (s->output)
		sf_output_update_cap(s->output, now);
}

void
sf_surface_set_focused(struct sf_surface *s, bool focused, sf_time_t now)
{
	/* Called for every window in every cycle of the X module: only a
	 * change costs more than a compare. */
	if (focused && !s->focused) {
		struct sf_trace_event ev = {
			.type = SF_TRACE_FOCUS,
			.time = now,
		};
		sf_core_trace_surface_event(s, &ev);
	}
	if (focused != s->focused && s->parent) {
		if (focused)
			s->parent->focused_parts++;
		else
			s->parent->focused_parts--;
	}
	s->focused = focused;
}

static void
hint_changed(struct sf_surface *s, sf_time_t now)
{
	if (s->output)
		s->output->votes_dirty = true;
}

void
sf_surface_set_client_inhibiting(struct sf_surface *s, bool on)
{
	s->client_inhibiting = on;
}

void
sf_surface_set_content_type(struct sf_surface *s, enum sf_content_type type,
			    sf_time_t now)
{
	s->content = type;
	sf_core_trace_hint(s, SF_TRACE_HINT_CONTENT, type, 0, now);
	hint_changed(s, now);
}

void
sf_surface_set_content_rate(struct sf_surface *s, uint32_t num,
			    uint32_t den, sf_time_t now)
{
	uint64_t mhz = den ? (uint64_t)num * 1000 / den : 0;

	s->hint_rate_mhz = mhz > UINT32_MAX ? UINT32_MAX : (uint32_t)mhz;
	sf_core_trace_hint(s, SF_TRACE_HINT_RATE, num, den, now);
	hint_changed(s, now);
}

void
sf_surface_set_rate_range(struct sf_surface *s, uint32_t min_mhz,
			  uint32_t max_mhz, sf_time_t now)
{
	s->hint_min_mhz = min_mhz;
	s->hint_max_mhz = max_mhz;
	sf_core_trace_hint(s, SF_TRACE_HINT_RANGE, min_mhz, max_mhz, now);
	hint_changed(s, now);
}

static bool
classification_moved(const struct sf_classification *a,
		     const struct sf_classification *b)
{
	if (a->cls != b->cls)
		return true;
	/* Re-vote only when the rate moved by more than 1 Hz, as Android. */
	uint32_t d = a->rate_mhz > b->rate_mhz ? a->rate_mhz - b->rate_mhz :
						 b->rate_mhz - a->rate_mhz;
	return d > 1000;
}

bool
sf_surface_in_focused_window(const struct sf_surface *s)
{
	return surface_window_focused(s);
}

bool
sf_surface_should_read_pixels(const struct sf_surface *s)
{
	if (s->pixels_last_unchanged)
		return true;
	/* A cadence of its own, not a burst (a window's first frames):
	 * a blink or a tick is told by its pixels from its first commits. */
	if ((s->cls.cls != SF_CLASS_ANIMATING &&
	     s->cls.cls != SF_CLASS_VIDEO) ||
	    s->cls.rate_mhz < SF_PIXEL_SAMPLE_MIN_MHZ)
		return true;
	/* A power of two, so that the jitter of a measured rate (59.9 or
	 * 60.1 Hz) does not move the sample from one commit to another. */
	uint64_t commits = (uint64_t)s->cls.rate_mhz *
			   SF_PIXEL_SAMPLE_INTERVAL_MS / 1000000;
	uint64_t period = SF_PIXEL_SAMPLE_MIN_PERIOD;
	while (period < commits)
		period *= 2;
	/* Two in a row: the second compares with the first. */
	return s->stats.commits % period < 2;
}

int64_t
sf_surface_pixel_read_limit(const struct sf_surface *s, sf_time_t now)
{
	int64_t frame_area = s->core->config.hash_max_area_px;
	int64_t most = frame_area * SF_PIXEL_READ_MAX_FRAMES;

	int64_t budget = s->pixel_budget;

	/* Before its first commit, nothing saved: a new window's first
	 * frame is read only when small. */
	if (s->pixel_budget_time > 0 && now > s->pixel_budget_time) {
		sf_time_t frames = (now - s->pixel_budget_time) /
				   (SF_NSEC_PER_SEC / 60);
		if (frames > SF_PIXEL_READ_MAX_FRAMES)
			frames = SF_PIXEL_READ_MAX_FRAMES;
		budget += frame_area * frames;
	}
	if (budget < frame_area)
		budget = frame_area;
	return budget > most ? most : budget;
}

/* The budget starts saving at the surface's first commit; a commit
 * whose pixels were read spends their area. */
static void
update_pixel_budget(struct sf_surface *s, const struct sf_commit_desc *c)
{
	if (s->pixel_budget_time == 0)
		s->pixel_budget_time = c->time > 0 ? c->time : 1;
	if (!c->has_hash && !c->unchanged)
		return;
	int64_t area = 0;
	for (uint32_t i = 0; c->boxes && i < c->n_boxes; i++)
		area += sf_box_area(&c->boxes[i]);
	s->pixel_budget = sf_surface_pixel_read_limit(s, c->time) - area;
	if (s->pixel_budget < 0)
		s->pixel_budget = 0;
	/* Whole frames only: what a frame not yet over adds is kept. */
	sf_time_t frame = SF_NSEC_PER_SEC / 60;
	if (c->time > s->pixel_budget_time)
		s->pixel_budget_time += (c->time - s->pixel_budget_time) /
					frame * frame;
}

/* A busy surface's commit on its cadence, not answering input, with no
 * hold or throttle in play, cannot change its class; only its rate is
 * measured again, every RECLASSIFY_EVERY commits.  Classifying each
 * frame of a 60 fps video was a third of what stillframe cost the X
 * server per frame. */
#define RECLASSIFY_EVERY 8

static bool
steady_busy_commit(const struct sf_surface *s, enum sf_commit_kind kind,
		   sf_time_t throttle, sf_time_t last_input, sf_time_t now)
{
	const struct sf_classifier_params *p = &s->core->classifier;
	const struct sf_commit_record *prev =
		sf_surface_activity_get(&s->activity, 1);

	if (!sf_core_is_busy_class(s->cls.cls) || kind == SF_COMMIT_EMPTY ||
	    throttle > 0 || s->held_by_adapter || s->release_commits > 0 ||
	    s->unclassified_commits + 1 >= RECLASSIFY_EVERY || !prev ||
	    now - prev->time >= p->frequent_interval)
		return false;
	return last_input == 0 || now < last_input ||
	       now - last_input > p->input_window;
}

enum sf_commit_kind
sf_surface_commit(struct sf_surface *s, const struct sf_commit_desc *commit)
{
	struct sf_core *core = s->core;
	sf_time_t now = commit->time;
	enum sf_commit_kind kind = sf_surface_activity_record(&s->activity,
							      commit);
	struct sf_classification old = s->cls;

	sf_core_trace_commit(s, commit);
	s->stats.commits++;
	if (commit->has_hash || commit->unchanged)
		s->pixels_last_unchanged = commit->unchanged;
	update_pixel_budget(s, commit);
	if (kind == SF_COMMIT_EMPTY)
		s->stats.empty++;
	else if (kind == SF_COMMIT_IDENTICAL)
		s->stats.identical++;

	/* Throttled, its commits come at our release, not on its cadence:
	 * timing says nothing, so the class stays while what it commits
	 * still fits.  Without this, each release would reclassify it
	 * static, paint its next ticks and throttle it again. */
	sf_time_t throttle = retention_interval(s, now);
	sf_time_t last_input = sf_seat_activity_last_input(&core->seat);
	if (steady_busy_commit(s, kind, throttle, last_input, now))
		s->unclassified_commits++;
	else {
		s->unclassified_commits = 0;
		sf_classify(&core->classifier, &s->activity, last_input, now,
			    &s->cls);
		keep_rate_through_hitch(s, &old);
	}
	if (throttle > 0 && s->cls.cls == SF_CLASS_STATIC &&
	    kind != SF_COMMIT_EMPTY &&
	    sf_classifier_commit_fits(&core->classifier, &s->activity,
				      last_input, &old))
		s->cls = old;
	/* Held by the adapter, its backlog arrives in one burst: several
	 * blinks or ticks at once, larger and later than one.  Unless the
	 * user just acted, it keeps its class; the next commits, on the
	 * client's own cadence again, classify it afresh. */
	bool backlog = s->held_by_adapter || s->release_commits > 0;
	bool after_input = last_input != 0 && now >= last_input &&
			   now - last_input <= core->classifier.input_window;
	if (s->release_commits > 0)
		s->release_commits--;
	if (backlog && s->cls.cls != old.cls &&
	    (old.cls == SF_CLASS_BLINKING || old.cls == SF_CLASS_TICKING) &&
	    kind != SF_COMMIT_EMPTY && !after_input)
		s->cls = old;
	if (s->cls.cls != SF_CLASS_STATIC) {
		sf_time_t hold = class_hold(s, throttle > 0 ? throttle :
					    s->held_by_adapter ?
					    adapter_hold_interval(s) : 0);
		if (now + hold + 1 < core->surface_expiry)
			core->surface_expiry = now + hold + 1;
	}
	/* A commit whose pixels are as before shows the phase the surface
	 * showed (a held X client's backlog ending where it started). */
	if (kind == SF_COMMIT_CHANGED)
		s->newest_phase = sf_classifier_blink_phase(
			&s->cls, sf_surface_activity_get(&s->activity, 0));

	struct sf_output *o = s->output;
	if (!o)
		return kind;
	if (classification_moved(&old, &s->cls)) {
		sf_core_log(core, SF_LOG_DEBUG,
			    "surface %u (%s): %s -> %s (%.2f Hz, period %.0f ms)",
			    s->id, s->label, sf_class_name(old.cls),
			    sf_class_name(s->cls.cls), s->cls.rate_mhz / 1000.0,
			    ms_of(s->cls.period));
		o->votes_dirty = true;
	}
	o->stats.commits++;
	if (o->gov.state >= SF_STATE_DPMS_STANDBY && kind != SF_COMMIT_EMPTY &&
	    s->visible_fraction > 0 && core->config.enable) {
		/* Blanked: nothing is painted, but doing nothing would
		 * have painted this. */
		sf_energy_account_baseline_repaint(&core->energy, now);
	}
	if (s->visible_fraction <= 0 && kind != SF_COMMIT_CHANGED)
		return kind;
	/* An essential surface, and a video, paint like one the user is
	 * working in: a video's empty commits (a frame callback that came
	 * late) are painted as stock paints them. */
	bool never_held = surface_priority(s) == SF_PRIORITY_ESSENTIAL ||
			  surface_is_video(s);
	enum sf_class gate_cls = never_held ? SF_CLASS_INTERACTIVE :
					      s->cls.cls;
	/* A static part of a window that commits nothing new is held as
	 * its window's commits are (sf_surface_set_parent). */
	if (!never_held && gate_cls == SF_CLASS_STATIC && s->parent &&
	    kind != SF_COMMIT_CHANGED)
		gate_cls = s->parent->cls.cls;
	enum sf_commit_kind gate_kind = never_held ? SF_COMMIT_CHANGED : kind;
	/* A tick is what repeats: a commit that only now makes the
	 * surface ticking is not known to be one, and is painted.  A line
	 * a program prints into a blinking terminal, half a second after a
	 * blink, reads as a tick; held, it would wait for the tick's
	 * staleness.  A blink needs no such rule: what the rule below
	 * holds is one of its two known pictures, and anything else (a
	 * line printed) is painted; a blink taken for static for a commit
	 * on a loaded machine is held again at its return. */
	if (gate_cls == SF_CLASS_TICKING && gate_cls != old.cls &&
	    kind == SF_COMMIT_CHANGED)
		gate_cls = SF_CLASS_STATIC;
	/* A blink is held only while the screen keeps its caret. */
	if (gate_cls == SF_CLASS_BLINKING && kind == SF_COMMIT_CHANGED &&
	    !sf_suppress_blink_may_hold(s->newest_phase, s->shown_phase)) {
		gate_cls = SF_CLASS_STATIC;
		if (user_idle(core, now))
			sf_core_log(core, SF_LOG_DEBUG,
				    "surface %u (%s): blink painted now: it "
				    "shows state %s, the screen %s",
				    s->id, s->label,
				    sf_blink_phase_name(s->newest_phase),
				    sf_blink_phase_name(s->shown_phase));
	}
	if (sf_repaint_gate_add_commit(&o->gate, &core->suppress, gate_cls,
				       gate_kind, user_idle(core, now), now))
		s->stats.held++;
	return kind;
}

void
sf_surface_set_priority(struct sf_surface *s, enum sf_priority priority,
			sf_time_t now)
{
	if ((unsigned)priority > SF_PRIORITY_BACKGROUND)
		priority = SF_PRIORITY_NORMAL;
	s->priority = priority;
	/* Held damage of a surface that became essential is shown now. */
	if (priority == SF_PRIORITY_ESSENTIAL && s->output &&
	    s->output->gate.deferred) {
		sf_repaint_gate_force(&s->output->gate, SF_FORCE_OTHER, now);
		s->output->flush_requested = false;
		sf_output_request_flush(s->output);
	}
}

bool
sf_surface_may_hold_client(const struct sf_surface *s, sf_time_t now)
{
	if (!s->core->config.enable || s->core->paused ||
	    surface_priority(s) == SF_PRIORITY_ESSENTIAL || surface_is_video(s))
		return false;
	/* X shows a client's drawing as it runs: a client held after it
	 * hid the caret would leave it hidden until let go. */
	if (s->cls.cls == SF_CLASS_BLINKING)
		return user_idle(s->core, now) &&
		       sf_suppress_blink_may_throttle(s->newest_phase);
	return user_idle(s->core, now) && s->cls.cls == SF_CLASS_TICKING;
}

enum sf_blink_phase
sf_surface_get_blink_phase(const struct sf_surface *s)
{
	return s->cls.cls == SF_CLASS_BLINKING ? s->newest_phase :
						 SF_BLINK_PHASE_UNKNOWN;
}

void
sf_surface_set_held(struct sf_surface *s, bool held)
{
	if (s->held_by_adapter && !held)
		s->release_commits = RELEASE_COMMITS;
	s->held_by_adapter = held;
	if (held)
		s->client_holds = true;
}

const struct sf_classification *
sf_surface_get_classification(const struct sf_surface *s)
{
	return &s->cls;
}

const struct sf_surface_stats *
sf_surface_get_stats(const struct sf_surface *s)
{
	return &s->stats;
}

sf_time_t
sf_surface_get_frame_interval(const struct sf_surface *s, sf_time_t now)
{
	enum sf_priority priority = surface_priority(s);

	if (!s->core->config.enable || priority == SF_PRIORITY_ESSENTIAL)
		return 0;
	/* Background, or on an output that is powered off: as if
	 * unfocused with the user away, whatever the focus and the input
	 * say; a video too (its client's wish, or nobody sees it), at the
	 * rate of any animation. */
	if (priority == SF_PRIORITY_BACKGROUND ||
	    (s->output && !s->output->powered))
		return sf_suppress_unwatched_interval(&s->core->suppress,
						      s->cls.cls);
	/* A video plays at its own rate wherever the focus is, also one
	 * known as a video only by its content type or its client's idle
	 * inhibitor. */
	if (surface_is_video(s))
		return 0;
	return sf_suppress_throttle_interval(&s->core->suppress, s->cls.cls,
					     surface_window_focused(s),
					     user_idle(s->core, now));
}

void
sf_surface_count_throttled_frame(struct sf_surface *s)
{
	s->stats.throttled_frames++;
}
