/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-core.h"
#include "sf-energy.h"
#include "sf-governor.h"
#include "sf-list.h"
#include "sf-recorder.h"

/* Pointer motion within this window counts as "the pointer is moving". */
#define POINTER_MOVING_WINDOW SF_MSEC(200)

struct sf_core {
	struct sf_config config;
	struct sf_core_interface iface;
	void *data;

	struct sf_classifier_params classifier;
	struct sf_governor_params governor;
	struct sf_selector_params selector;
	struct sf_suppress_params suppress;

	struct sf_seat_activity seat;
	struct sf_energy_account energy;
	sf_time_t start;
	enum sf_reclock_level reclock;

	struct sf_list outputs;		/* sf_output.link */
	struct sf_list surfaces;	/* sf_surface.link */
	size_t n_outputs, n_surfaces;
	uint32_t next_surface_id;
	/* Earliest time a surface's classification goes stale. */
	sf_time_t surface_expiry;
	/* Until then a client's keep-awake request holds every output lit
	 * (sf_core_notify_keep_awake); 0 when none does. */
	sf_time_t keep_awake_until;
	bool paused;
	bool enable_before_pause;
	uint32_t next_output_id;
	struct sf_trace_recorder *trace;	/* NULL unless recording */
};

struct sf_output {
	struct sf_core *core;
	struct sf_list link;
	char name[32];
	uint32_t id;			/* in traces */
	void *user_data;

	struct sf_mode *modes;
	size_t n_modes;
	size_t current;
	size_t original;		/* restored on pause and exit */
	/* set_mode failed: no more tries until the modes change
	 * (sf_output_set_modes). */
	bool switch_failed;

	struct sf_governor gov;
	struct sf_selector sel;
	sf_time_t selector_retry;
	struct sf_repaint_gate gate;
	bool flush_requested;		/* schedule_repaint sent for `gate` */
	struct sf_output_stats stats;

	unsigned inhibit_count;
	bool pointer_moving;
	/* A surface's vote changed: reselect at the next repaint or
	 * dispatch, once, however many surfaces changed in between. */
	bool votes_dirty;
	enum sf_dpms_level dpms;
	int32_t backlight;		/* percent we asked for */

	/* Output power: what the kind and unneeded-outputs say, what the
	 * user asked, and what was carried out. */
	enum sf_output_kind kind;
	bool unneeded;
	enum sf_output_power power_request;
	bool powered;
	bool power_dirty;		/* policy not applied yet */
	bool cap_dirty;			/* an inhibiting surface went */
	bool power_unsupported_logged;
	/* A wake request (power-on on request, hotplug) limits how deep
	 * the output may go until then. */
	sf_time_t wake_hold_until;

	struct sf_list surfaces;	/* sf_surface.output_link */
	struct sf_vote *votes;		/* scratch, n_votes_cap long */
	size_t n_votes_cap;
	size_t n_surfaces;
};

struct sf_surface {
	struct sf_core *core;
	struct sf_list link;
	struct sf_output *output;
	struct sf_list output_link;
	uint32_t id;
	char label[64];
	double visible_fraction;
	bool focused;

	enum sf_content_type content;
	enum sf_priority priority;
	/* The adapter holds what the surface's client sends (X: the
	 * client is ignored).  After a release the first commit is the
	 * backlog and the next ones are too few to show the cadence
	 * again: for RELEASE_COMMITS commits the class holds. */
	bool held_by_adapter;
	/* The adapter holds this surface's client (X) rather than its
	 * frame callbacks: set at its first hold. */
	bool client_holds;
	uint8_t release_commits;
	/* Commits of a steady busy surface since it was last classified. */
	uint8_t unclassified_commits;
	unsigned inhibit_count;		/* idle inhibitors on it, nested */
	bool client_inhibiting;		/* its client has one, anywhere */
	uint32_t hint_rate_mhz;
	uint32_t hint_min_mhz, hint_max_mhz;

	struct sf_surface_activity activity;
	struct sf_classification cls;
	/* Its measured rate as the refresh choice takes it. */
	struct sf_rate_settle rate;
	/* When it was first shown on an output; 0: not yet. */
	sf_time_t shown_at;
	struct sf_surface_stats stats;
	/* The pixels last read showed the same content as before. */
	bool pixels_last_unchanged;
	/* Blinking: the state of its newest commit with damage, and the
	 * one its output last painted (sf_suppress_blink_may_hold). */
	enum sf_blink_phase newest_phase;
	enum sf_blink_phase shown_phase;
	/* The window it is drawn as part of (sf_surface_set_parent). */
	struct sf_surface *parent;
	/* The recording knows it: its events may go into the trace. */
	bool traced;
	/* The output whose trace holds this surface's inhibitor as an
	 * output's (the format has no surface inhibitor); 0 for none. */
	uint32_t inhibit_traced_output;
};

static void
core_log(struct sf_core *core, enum sf_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A video is never throttled or held, focused or not, idle user or
 * not: the classifier's video, a surface its client says is video
 * (wp_content_type, the stillframe hint), and a surface with an idle
 * inhibitor on it, which is how players say they play (mpv, Firefox and
 * Chromium hold one while a video plays), on it or on another surface of
 * its client (a player's toplevel, the video in a subsurface).  The
 * classifier alone is not enough: a player whose frame callbacks come
 * late commits some frames empty and looks like an animation. */
static bool
surface_is_video(const struct sf_surface *s)
{
	return s->cls.cls == SF_CLASS_VIDEO ||
	       s->content == SF_CONTENT_VIDEO || s->inhibit_count > 0 ||
	       s->client_inhibiting;
}

static void
core_log(struct sf_core *core, enum sf_log_level level, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!core->iface.log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	core->iface.log(core->data, level, msg);
}

static double
ms_of(sf_time_t t)
{
	return (double)t / SF_NSEC_PER_MSEC;
}

static bool
user_idle(const struct sf_core *core, sf_time_t now)
{
	sf_time_t last = sf_seat_activity_last_input(&core->seat);

	if (last == 0)
		last = core->start;
	return now - last >= core->suppress.idle_delay;
}

/* --- trace recording --- */

static bool
tracing(const struct sf_core *core)
{
	return core->trace && !sf_trace_recorder_has_ended(core->trace);
}

/* A name or label as one word of the trace: blanks become '_', "-" (no
 * label) nothing, and it is cut to fit. */
static void
trace_word(char *out, size_t size, const char *in)
{
	size_t i = 0;

	if (strcmp(in, "-") == 0)
		in = "";
	for (; in[i] && i + 1 < size; i++)
		out[i] = (unsigned char)in[i] <= ' ' ? '_' : in[i];
	out[i] = '\0';
}

/* The index of the output's current mode among those traced: with more
 * modes than the format holds, the current one takes the last place. */
static uint32_t
trace_mode_index(const struct sf_output *o, size_t mode)
{
	return mode < SF_TRACE_MAX_MODES ? (uint32_t)mode :
					   SF_TRACE_MAX_MODES - 1;
}

static void
trace_output(struct sf_output *o, sf_time_t now)
{
	struct sf_trace_event ev = {
		.type = SF_TRACE_OUTPUT,
		.time = now,
		.id = o->id,
	};
	size_t n = o->n_modes < SF_TRACE_MAX_MODES ? o->n_modes :
						     SF_TRACE_MAX_MODES;

	if (!tracing(o->core))
		return;
	trace_word(ev.u.output.name, sizeof(ev.u.output.name), o->name);
	memcpy(ev.u.output.modes, o->modes, n * sizeof(*o->modes));
	ev.u.output.n_modes = (uint32_t)n;
	ev.u.output.current = trace_mode_index(o, o->current);
	if (o->current >= n)
		ev.u.output.modes[n - 1] = o->modes[o->current];
	sf_trace_recorder_add(o->core->trace, &ev);
}

static void
trace_output_event(struct sf_output *o, enum sf_trace_type type,
		   sf_time_t now, uint32_t arg)
{
	/* First, as in trace_commit: the event is large. */
	if (!tracing(o->core))
		return;

	struct sf_trace_event ev = { .type = type, .time = now, .id = o->id };

	if (type == SF_TRACE_INHIBIT)
		ev.u.inhibit.on = arg != 0;
	else if (type == SF_TRACE_REPAINT)
		ev.u.repaint.force = arg;
	else
		ev.u.mode.mode = arg;
	sf_trace_recorder_add(o->core->trace, &ev);
}

/* The surface appears on `output` (or moves, resizes, is relabelled),
 * covering `visible` of it.  From then on its events are recorded. */
static void
trace_surface_on(struct sf_surface *s, const struct sf_output *output,
		 double visible, sf_time_t now)
{
	struct sf_trace_event ev = {
		.type = SF_TRACE_SURFACE,
		.time = now,
		.id = s->id,
	};

	if (!tracing(s->core) || !output || s->id > SF_TRACE_MAX_SURFACE_ID)
		return;
	ev.u.surface.output = output->id;
	ev.u.surface.width = s->activity.width > 0 ? s->activity.width : 0;
	ev.u.surface.height = s->activity.height > 0 ? s->activity.height : 0;
	ev.u.surface.visible = visible >= 0 && visible <= 1 ? visible : 0;
	trace_word(ev.u.surface.label, sizeof(ev.u.surface.label), s->label);
	if (sf_trace_recorder_add(s->core->trace, &ev))
		s->traced = true;
}

/* A surface's idle inhibitor goes into the trace as one on its output,
 * where it holds the idle stages back: a video player's, for one.  It
 * is taken off the output it was put on, wherever the surface is now. */
static void
trace_surface_inhibit(struct sf_surface *s, bool on, sf_time_t now)
{
	if (!tracing(s->core))
		return;
	if (on && !s->inhibit_traced_output && s->output) {
		s->inhibit_traced_output = s->output->id;
		trace_output_event(s->output, SF_TRACE_INHIBIT, now, 1);
	} else if (!on && s->inhibit_traced_output) {
		sf_list_for_each(o, &s->core->outputs, struct sf_output, link)
			if (o->id == s->inhibit_traced_output)
				trace_output_event(o, SF_TRACE_INHIBIT, now, 0);
		s->inhibit_traced_output = 0;
	}
}

/* An event of a surface the recording knows; the others are left out,
 * since a replay could not tell what they belong to. */
static void
trace_surface_event(struct sf_surface *s, struct sf_trace_event *ev)
{
	if (!tracing(s->core) || !s->traced)
		return;
	ev->id = s->id;
	sf_trace_recorder_add(s->core->trace, ev);
}

/* A hint as the format has it: for a rate NUM and DEN, for a range MIN
 * and MAX, for content the type in `a`. */
static void
trace_hint(struct sf_surface *s, enum sf_trace_hint_kind kind, uint32_t a,
	   uint32_t b, sf_time_t now)
{
	struct sf_trace_event ev = {
		.type = SF_TRACE_HINT,
		.time = now,
		.u.hint.kind = kind,
	};

	switch (kind) {
	case SF_TRACE_HINT_RATE:
		/* 0/x and x/0 both withdraw it; the format wants DEN > 0. */
		ev.u.hint.num = b ? a : 0;
		ev.u.hint.den = a && b ? b : 1;
		break;
	case SF_TRACE_HINT_RANGE:
		/* The format has no "no upper bound" (max 0) and wants MIN
		 * <= MAX; the selector reads both the same way. */
		ev.u.hint.min_mhz = a;
		ev.u.hint.max_mhz = b == 0 && a != 0 ? UINT32_MAX :
				    b < a ? a : b;
		break;
	case SF_TRACE_HINT_CONTENT:
		if (a > SF_CONTENT_GAME)
			return;
		ev.u.hint.content = (enum sf_content_type)a;
		break;
	case SF_TRACE_HINT_CLEAR:
		break;
	}
	trace_surface_event(s, &ev);
}

static void
trace_commit(struct sf_surface *s, const struct sf_commit_desc *c)
{
	/* First: the event is large, and zeroing it on every commit of
	 * every surface cost more than the check. */
	if (!tracing(s->core) || !s->traced)
		return;

	struct sf_trace_event ev = {
		.type = SF_TRACE_COMMIT,
		.time = c->time,
		.u.commit = { .has_hash = c->has_hash, .hash = c->hash,
			      .ink = c->has_hash ? c->ink : 0,
			      .unchanged = c->unchanged },
	};
	struct sf_box extents = { INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN };
	uint32_t n = 0;

	for (uint32_t i = 0; i < c->n_boxes; i++) {
		const struct sf_box *b = &c->boxes[i];

		if (sf_box_area(b) == 0)
			continue;
		if (n < SF_TRACE_MAX_BOXES)
			ev.u.commit.boxes[n] = *b;
		n++;
		if (b->x1 < extents.x1)
			extents.x1 = b->x1;
		if (b->y1 < extents.y1)
			extents.y1 = b->y1;
		if (b->x2 > extents.x2)
			extents.x2 = b->x2;
		if (b->y2 > extents.y2)
			extents.y2 = b->y2;
	}
	/* More boxes than the format holds: their extents, as the format
	 * says a recorder does. */
	if (n > SF_TRACE_MAX_BOXES) {
		ev.u.commit.boxes[0] = extents;
		n = 1;
	}
	ev.u.commit.n_boxes = n;
	trace_surface_event(s, &ev);
}

/* --- energy --- */

static void
update_energy(struct sf_core *core, sf_time_t now)
{
	const struct sf_energy_params *p = &core->energy.params;
	double actual = 0, baseline = 0;

	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		struct sf_energy_output_state cur = {
			.refresh_mhz = o->modes[o->current].refresh_mhz,
			.state = o->gov.state,
			.dim_percent = (int32_t)core->config.dim_brightness_pct,
			.powered_off = !o->powered,
		};
		struct sf_energy_output_state base = {
			.refresh_mhz = o->modes[o->original].refresh_mhz,
			.state = SF_STATE_ACTIVE,
			.dim_percent = 100,
		};
		actual += sf_energy_output_power(p, &cur);
		baseline += sf_energy_output_power(p, &base);
	}
	/* Normal clocks cost reclock_w more than low ones, busy or not;
	 * doing nothing always pays it. */
	if (core->n_outputs > 0) {
		baseline += p->reclock_w;
		if (core->reclock != SF_RECLOCK_LOW)
			actual += p->reclock_w;
	}
	sf_energy_account_set_steady(&core->energy, now, actual, baseline);
}

/* --- actions --- */

static void
update_reclock(struct sf_core *core, sf_time_t now)
{
	enum sf_reclock_level want = core->n_outputs ? SF_RECLOCK_LOW :
						       SF_RECLOCK_NORMAL;

	/* The GPU is shared: low only when every lit output agrees. */
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		if (o->powered && o->gov.reclock != SF_RECLOCK_LOW)
			want = SF_RECLOCK_NORMAL;
	if (want == core->reclock || !core->config.enable)
		return;
	if (!core->iface.set_reclock) {
		core->reclock = want;	/* tracked for the energy estimate */
	} else if (core->iface.set_reclock(core->data, want)) {
		core->reclock = want;
	} else {
		/* The adapter's platform layer said why, once. */
		core_log(core, SF_LOG_DEBUG,
			 "gpu: reclock to %s not carried out; keeping %s",
			 want == SF_RECLOCK_LOW ? "low" : "normal",
			 core->reclock == SF_RECLOCK_LOW ? "low" : "normal");
		return;
	}
	core_log(core, SF_LOG_INFO, "gpu: clocks %s",
		 want == SF_RECLOCK_LOW ? "low (display settled)" :
					  "normal");
	update_energy(core, now);
}

static void
set_backlight(struct sf_output *o, int32_t percent)
{
	struct sf_core *core = o->core;

	if (o->backlight == percent)
		return;
	if (core->iface.set_backlight &&
	    !core->iface.set_backlight(core->data, o, percent)) {
		core_log(core, SF_LOG_DEBUG,
			 "output %s: backlight to %d%% not carried out",
			 o->name, percent);
		return;
	}
	o->backlight = percent;
	o->stats.backlight_changes++;
}

static void
set_dpms(struct sf_output *o, enum sf_dpms_level level)
{
	static const char *const names[] = { "on", "standby", "off" };
	struct sf_core *core = o->core;

	if (o->dpms == level)
		return;
	if (core->iface.set_dpms &&
	    !core->iface.set_dpms(core->data, o, level)) {
		core_log(core, SF_LOG_ERROR, "output %s: DPMS %s failed",
			 o->name, names[level]);
		return;
	}
	o->dpms = level;
	o->stats.dpms_changes++;
}

static bool
switch_mode(struct sf_output *o, size_t mode, const char *reason,
	    sf_time_t now)
{
	struct sf_core *core = o->core;
	uint32_t from = o->modes[o->current].refresh_mhz;

	if (mode == o->current)
		return true;
	if (core->iface.set_mode &&
	    !core->iface.set_mode(core->data, o, mode)) {
		core_log(core, SF_LOG_ERROR,
			 "output %s: switching to %.3f Hz failed; stillframe "
			 "stops changing this output's mode until its modes "
			 "change", o->name,
			 o->modes[mode].refresh_mhz / 1000.0);
		o->switch_failed = true;
		return false;
	}
	o->current = mode;
	o->stats.mode_switches++;
	trace_output_event(o, SF_TRACE_MODE, now, trace_mode_index(o, mode));
	o->stats.refresh_mhz = o->modes[mode].refresh_mhz;
	sf_selector_notify_switched(&o->sel, now);
	sf_governor_notify_refresh_changed(&o->gov, now);
	core_log(core, SF_LOG_DEBUG, "output %s: refresh %.3f -> %.3f Hz (%s)",
		 o->name, from / 1000.0, o->modes[mode].refresh_mhz / 1000.0,
		 reason);
	return true;
}

static bool
is_busy_class(enum sf_class cls)
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
	if (is_busy_class(s->cls.cls) && s->cls.rate_mhz == 0 &&
	    is_busy_class(old->cls))
		s->cls.rate_mhz = old->rate_mhz;
}

/* Until when a surface shown at `shown_at` counts as new: its output
 * stays at native meanwhile (new-window-native). */
static sf_time_t
new_until(const struct sf_surface *s)
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
	return sf_rate_settle_update(&s->rate, is_busy_class(s->cls.cls),
				     s->cls.rate_mhz,
				     o->modes[o->current].refresh_mhz,
				     o->modes[o->original].refresh_mhz,
				     s->core->selector.min_dwell, now);
}

static void
surface_vote(struct sf_surface *s, const struct sf_output *o,
	     struct sf_vote *v, sf_time_t now)
{
	uint32_t settled = settled_rate(s, o, now);

	*v = (struct sf_vote){
		.content = s->content,
		.weight = s->visible_fraction,
		.new_surface = now < new_until(s),
	};
	if (s->hint_min_mhz || s->hint_max_mhz) {
		v->type = SF_VOTE_RANGE;
		v->min_mhz = s->hint_min_mhz;
		v->max_mhz = s->hint_max_mhz;
		return;
	}
	if (s->hint_rate_mhz) {
		v->type = SF_VOTE_EXACT_OR_MULTIPLE;
		v->rate_mhz = s->hint_rate_mhz;
		return;
	}
	if (s->content == SF_CONTENT_GAME) {
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

static void apply_transition(struct sf_output *o,
			     const struct sf_governor_transition *tr,
			     sf_time_t now);

static void
reselect(struct sf_output *o, sf_time_t now)
{
	struct sf_core *core = o->core;
	size_t n = 0;
	bool busy = false;
	sf_time_t retry = SF_TIME_NEVER;

	o->votes_dirty = false;
	sf_list_for_each(s, &o->surfaces, struct sf_surface, output_link) {
		if (s->visible_fraction <= 0 || n >= o->n_votes_cap)
			continue;
		surface_vote(s, o, &o->votes[n], now);
		/* Choose again when a rate settles or a window is no
		 * longer new.  A rate whose time to settle has passed
		 * waits for a reading (a surface busy again has none
		 * yet): the time asks nothing more of a dispatch, which
		 * would come back at that same instant, over and over. */
		sf_time_t t = sf_rate_settle_due(&s->rate,
						 core->selector.min_dwell);
		if (t > now && t < retry)
			retry = t;
		t = new_until(s);
		if (t > now && t < retry)
			retry = t;
		if (o->votes[n].type == SF_VOTE_HEURISTIC ||
		    o->votes[n].type == SF_VOTE_EXACT_OR_MULTIPLE ||
		    is_busy_class(s->cls.cls))
			busy = true;
		n++;
	}

	struct sf_governor_transition tr;
	if (sf_governor_set_content_busy(&o->gov, busy, now, &tr))
		apply_transition(o, &tr, now);

	struct sf_selector_input in = {
		.modes = o->modes,
		.n_modes = o->n_modes,
		.current = o->current,
		.votes = o->votes,
		.n_votes = n,
		.state = o->gov.state,
		.pointer_moving = o->pointer_moving,
		.has_user_mode = true,
		.user_mode = o->original,
	};
	struct sf_selection sel;
	sf_selector_choose(&o->sel, &in, now, &sel);
	o->selector_retry = sel.retry_at < retry ? sel.retry_at : retry;
	/* Powered off, it shows nothing at any rate. */
	if (!core->config.enable || o->switch_failed || !o->powered)
		return;
	if (sel.mode != o->current && switch_mode(o, sel.mode, sel.reason, now))
		update_energy(core, now);
}

static enum sf_dpms_level
dpms_for_state(enum sf_idle_state state)
{
	if (state >= SF_STATE_DPMS_OFF)
		return SF_DPMS_OFF;
	if (state >= SF_STATE_DPMS_STANDBY)
		return SF_DPMS_STANDBY;
	return SF_DPMS_ON;
}

static void
apply_transition(struct sf_output *o, const struct sf_governor_transition *tr,
		 sf_time_t now)
{
	struct sf_core *core = o->core;

	if (tr->from != tr->to) {
		core_log(core, SF_LOG_DEBUG, "output %s: %s -> %s (%s)",
			 o->name, sf_idle_state_name(tr->from),
			 sf_idle_state_name(tr->to),
			 sf_governor_reason_name(tr->reason));
		sf_output_stats_enter_state(&o->stats, tr->to, now);
		if (core->config.enable && o->powered) {
			if (tr->to == SF_STATE_DIM)
				set_backlight(o, (int32_t)core->config
							.dim_brightness_pct);
			else if (tr->to < SF_STATE_DIM)
				set_backlight(o, 100);
			set_dpms(o, dpms_for_state(tr->to));
		}
		reselect(o, now);
	}
	if (tr->reclock_from != tr->reclock_to)
		update_reclock(core, now);
	update_energy(core, now);
}

static void
run_governor(struct sf_output *o, sf_time_t now)
{
	struct sf_governor_transition tr;

	/* One transition per call; bounded by the number of states. */
	for (int i = 0; i < 2 * SF_STATE_COUNT + 2; i++) {
		if (!sf_governor_update(&o->gov, now, &tr))
			break;
		apply_transition(o, &tr, now);
	}
}

static void
request_flush(struct sf_output *o)
{
	struct sf_core *core = o->core;

	if (o->flush_requested || !o->gate.pending || !o->powered)
		return;
	o->flush_requested = true;
	if (core->iface.schedule_repaint)
		core->iface.schedule_repaint(core->data, o);
}

/* --- output power --- */

static bool
power_wanted(const struct sf_output *o)
{
	/* Watching only, or paused: the user's outputs stay as they are. */
	if (!o->core->config.enable)
		return true;
	switch (o->power_request) {
	case SF_OUTPUT_POWER_ON:
		return true;
	case SF_OUTPUT_POWER_OFF:
		return false;
	case SF_OUTPUT_POWER_AUTO:
		break;
	}
	return !o->unneeded;
}

static const char *
power_reason(const struct sf_output *o)
{
	if (!o->core->config.enable)
		return o->core->paused ? "paused" : "enable=false";
	switch (o->power_request) {
	case SF_OUTPUT_POWER_ON:
	case SF_OUTPUT_POWER_OFF:
		return "on request";
	case SF_OUTPUT_POWER_AUTO:
		break;
	}
	return o->unneeded ? "listed in unneeded-outputs" :
			     "not listed in unneeded-outputs";
}

/* The deepest state the output may enter now: an inhibitor keeps the
 * screen visible (low refresh is invisible); a recent wake request
 * allows only stages that wake within wake-latency-limit. */
/* Inhibited for the whole output (X's screensaver suspension, a held
 * key, a recent keep-awake request), or by an inhibitor on a surface it
 * shows. */
static bool
output_inhibited(const struct sf_output *o)
{
	if (o->inhibit_count || o->core->keep_awake_until)
		return true;
	sf_list_for_each(s, &o->surfaces, struct sf_surface, output_link)
		if (s->inhibit_count && s->visible_fraction > 0)
			return true;
	return false;
}

static void
update_cap(struct sf_output *o, sf_time_t now)
{
	struct sf_governor_transition tr;
	enum sf_idle_state cap = output_inhibited(o) ? SF_STATE_LOW_REFRESH :
						       SF_STATE_DPMS_OFF;

	if (now < o->wake_hold_until) {
		enum sf_idle_state within = sf_governor_deepest_within(
			&o->gov, SF_MSEC(o->core->config.wake_latency_limit_ms));
		if (within < cap)
			cap = within;
	}
	if (sf_governor_set_cap(&o->gov, cap, now, &tr))
		apply_transition(o, &tr, now);
}

static void
wake_one(struct sf_output *o, sf_time_t now)
{
	struct sf_governor_transition tr;

	if (sf_governor_notify_input(&o->gov, now, &tr))
		apply_transition(o, &tr, now);
}

static void
apply_power(struct sf_output *o, sf_time_t now)
{
	struct sf_core *core = o->core;
	bool want = power_wanted(o);

	o->power_dirty = false;
	if (want == o->powered)
		return;
	if (!core->iface.set_output_power) {
		if (!o->power_unsupported_logged)
			core_log(core, SF_LOG_INFO, "output %s: cannot be "
				 "powered off here (%s); it stays on",
				 o->name, power_reason(o));
		o->power_unsupported_logged = true;
		return;
	}
	if (!core->iface.set_output_power(core->data, o, want)) {
		core_log(core, SF_LOG_ERROR, "output %s: powering %s failed; "
			 "it stays %s", o->name, want ? "on" : "off",
			 want ? "off" : "on");
		return;
	}
	sf_output_stats_set_powered(&o->stats, want, now);
	o->powered = want;
	core_log(core, SF_LOG_INFO, "output %s (%s): powered %s (%s)",
		 o->name, sf_output_kind_name(o->kind), want ? "on" : "off",
		 power_reason(o));
	if (want) {
		/* Back as the user left it: lit, native, painted. */
		o->dpms = SF_DPMS_ON;
		o->backlight = 100;
		wake_one(o, now);
		reselect(o, now);
		sf_repaint_gate_force(&o->gate, SF_FORCE_OTHER, now);
		o->flush_requested = false;
		if (core->iface.schedule_repaint)
			core->iface.schedule_repaint(core->data, o);
	}
	update_reclock(core, now);
	update_energy(core, now);
}

static void
wake_request(struct sf_output *o, sf_time_t now)
{
	const struct sf_config *cfg = &o->core->config;

	if (cfg->wake_request_hold_s > 0)
		o->wake_hold_until = now + SF_SEC(cfg->wake_request_hold_s);
	wake_one(o, now);
	update_cap(o, now);
}

/* --- core --- */

struct sf_core *
sf_core_create(const struct sf_config *config,
	       const struct sf_core_interface *iface, void *data,
	       sf_time_t now)
{
	struct sf_core *core = calloc(1, sizeof(*core));
	struct sf_energy_params energy;

	if (!core)
		return NULL;
	core->config = *config;
	if (iface)
		core->iface = *iface;
	core->data = data;
	sf_classifier_params_init_default(&core->classifier);
	sf_config_governor_params(config, SF_OUTPUT_KIND_INTERNAL,
				  &core->governor);
	sf_config_selector_params(config, &core->selector);
	sf_config_suppress_params(config, &core->suppress);
	sf_config_energy_params(config, &energy);
	sf_seat_activity_init(&core->seat);
	sf_energy_account_init(&core->energy, &energy, now);
	core->start = now;
	core->reclock = SF_RECLOCK_NORMAL;
	core->surface_expiry = SF_TIME_NEVER;
	core->next_surface_id = 1;
	sf_list_init(&core->outputs);
	sf_list_init(&core->surfaces);
	return core;
}

void
sf_core_destroy(struct sf_core *core)
{
	if (!core)
		return;
	sf_list_for_each_safe(s, &core->surfaces, struct sf_surface, link)
		sf_surface_destroy(s);
	sf_list_for_each_safe(o, &core->outputs, struct sf_output, link)
		sf_output_destroy(o);
	/* With no outputs left the GPU goes back to normal clocks. */
	sf_trace_recorder_destroy(core->trace);
	free(core);
}

const struct sf_config *
sf_core_get_config(const struct sf_core *core)
{
	return &core->config;
}

enum sf_reclock_level
sf_core_get_reclock(const struct sf_core *core)
{
	return core->reclock;
}

void
sf_core_notify_input(struct sf_core *core, enum sf_input_kind kind,
		     sf_time_t now)
{
	sf_seat_activity_record(&core->seat, kind, now);
	if (tracing(core)) {
		struct sf_trace_event ev = {
			.type = SF_TRACE_INPUT,
			.time = now,
			.u.input.kind = kind,
		};
		sf_trace_recorder_add(core->trace, &ev);
	}

	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		struct sf_governor_transition tr;

		if (sf_governor_notify_input(&o->gov, now, &tr)) {
			if (tr.from != SF_STATE_ACTIVE)
				core_log(core, SF_LOG_INFO,
					 "output %s: wake on %s input",
					 o->name, sf_input_kind_name(kind));
			apply_transition(o, &tr, now);
		}
		if (kind == SF_INPUT_POINTER && !o->pointer_moving) {
			o->pointer_moving = true;
			reselect(o, now);
		}
		/* Held damage is shown as soon as the user is back, even if
		 * an earlier flush request went unanswered while blank: with
		 * the next repaint, which the gate no longer holds, and at
		 * the latest one frame later.  Not at once: that repaint
		 * would take the frame the client's answer to this input is
		 * about to need, and show the answer a frame late. */
		if (o->gate.deferred) {
			sf_repaint_gate_force(&o->gate, SF_FORCE_INPUT, now);
			o->flush_requested = false;
			sf_time_t frame = SF_SEC(1) * 1000 /
				(o->modes[o->current].refresh_mhz ?
				 o->modes[o->current].refresh_mhz : 60000);
			if (o->gate.deadline > now + frame)
				o->gate.deadline = now + frame;
		}
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

static void
reclassify_expired(struct sf_core *core, sf_time_t now)
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
			core_log(core, SF_LOG_DEBUG,
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

void
sf_core_set_paused(struct sf_core *core, bool paused, sf_time_t now)
{
	if (paused == core->paused)
		return;
	if (!paused) {
		core->paused = false;
		core->config.enable = core->enable_before_pause;
		core_log(core, SF_LOG_INFO, "policy resumed");
		sf_core_notify_input(core, SF_INPUT_KEY, now);
		/* An output that kept ACTIVE while paused changed no state
		 * on that input: its rate, put back to the user's, is
		 * chosen again at the next dispatch. */
		sf_list_for_each(o, &core->outputs, struct sf_output, link) {
			o->votes_dirty = true;
			apply_power(o, now);
		}
		return;
	}
	if (core->config.enable) {
		sf_list_for_each(o, &core->outputs, struct sf_output, link) {
			/* Powered back on below, as the user had it. */
			if (!o->powered)
				continue;
			if (o->current != o->original && !o->switch_failed)
				switch_mode(o, o->original, "paused", now);
			set_backlight(o, 100);
			set_dpms(o, SF_DPMS_ON);
			if (o->gate.deferred) {
				sf_repaint_gate_force(&o->gate, SF_FORCE_OTHER,
						      now);
				o->flush_requested = false;
				request_flush(o);
			}
		}
		if (core->reclock == SF_RECLOCK_LOW &&
		    (!core->iface.set_reclock ||
		     core->iface.set_reclock(core->data, SF_RECLOCK_NORMAL)))
			core->reclock = SF_RECLOCK_NORMAL;
	}
	core->enable_before_pause = core->config.enable;
	core->config.enable = false;
	core->paused = true;
	/* Disabled, every output is wanted on. */
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		apply_power(o, now);
	update_energy(core, now);
	core_log(core, SF_LOG_INFO, "policy paused: the user's settings are "
		 "back and nothing is held");
}

bool
sf_core_is_paused(const struct sf_core *core)
{
	return core->paused;
}

sf_time_t
sf_core_dispatch(struct sf_core *core, sf_time_t now)
{
	reclassify_expired(core, now);
	if (core->keep_awake_until && core->keep_awake_until <= now) {
		core->keep_awake_until = 0;
		sf_list_for_each(o, &core->outputs, struct sf_output, link)
			o->cap_dirty = true;
	}
	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		if (o->power_dirty)
			apply_power(o, now);
		if (o->cap_dirty) {
			o->cap_dirty = false;
			update_cap(o, now);
		}
		if (o->wake_hold_until && o->wake_hold_until <= now) {
			o->wake_hold_until = 0;
			update_cap(o, now);
		}
		run_governor(o, now);
		if (o->pointer_moving &&
		    now - sf_seat_activity_last(&core->seat, SF_INPUT_POINTER) >=
			    POINTER_MOVING_WINDOW) {
			o->pointer_moving = false;
			reselect(o, now);
		} else if (o->selector_retry <= now || o->votes_dirty) {
			reselect(o, now);
		}
		if (o->gate.deferred && o->gate.deadline <= now)
			request_flush(o);
	}
	return sf_core_next_deadline(core);
}

sf_time_t
sf_core_next_deadline(const struct sf_core *core)
{
	sf_time_t next = core->surface_expiry;

	if (core->keep_awake_until && core->keep_awake_until < next)
		next = core->keep_awake_until;
	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		if (o->votes_dirty || o->power_dirty || o->cap_dirty)
			return 0;	/* a vote changed: dispatch at once */
		if (o->wake_hold_until && o->wake_hold_until < next)
			next = o->wake_hold_until;
		sf_time_t t = sf_governor_next_deadline(&o->gov);
		if (t < next)
			next = t;
		if (o->selector_retry < next)
			next = o->selector_retry;
		if (o->pointer_moving) {
			t = sf_seat_activity_last(&core->seat,
						  SF_INPUT_POINTER) +
			    POINTER_MOVING_WINDOW;
			if (t < next)
				next = t;
		}
		/* Only a flush request_flush() would make: a dark output's
		 * damage waits for the power-on, which paints, and a
		 * deadline that asks nothing of the adapter would have it
		 * call back at once, over and over. */
		if (o->gate.deferred && !o->flush_requested &&
		    o->gate.pending && o->powered &&
		    o->gate.deadline < next)
			next = o->gate.deadline;
	}
	return next;
}

void
sf_core_energy_totals(const struct sf_core *core, sf_time_t now,
		      struct sf_energy_totals *out)
{
	sf_energy_account_totals(&core->energy, core->start, now, out);
}

void
sf_core_write_status(struct sf_core *core, sf_time_t now,
		     enum sf_status_format format, struct sf_writer *writer)
{
	struct sf_stats_output_view *outs =
		calloc(core->n_outputs + 1, sizeof(*outs));
	struct sf_stats_surface_view *surfs =
		calloc(core->n_surfaces + 1, sizeof(*surfs));
	struct sf_stats_view view = {
		.now = now,
		.reclock = core->reclock,
		.outputs = outs,
		.surfaces = surfs,
	};

	if (!outs || !surfs) {
		sf_writer_printf(writer, "error out of memory\n");
		goto out;
	}
	sf_core_energy_totals(core, now, &view.energy);
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		outs[view.n_outputs++] = (struct sf_stats_output_view){
			o->name, &o->stats, o->kind, o->power_request
		};
	sf_list_for_each(s, &core->surfaces, struct sf_surface, link)
		surfs[view.n_surfaces++] = (struct sf_stats_surface_view){
			s->id, s->label, s->cls.cls, &s->stats
		};
	if (format == SF_STATUS_PROMETHEUS)
		sf_stats_write_prometheus(&view, writer);
	else
		sf_stats_write_text(&view, writer);
out:
	free(outs);
	free(surfs);
}

/* --- trace recording --- */

/* The surface's hints and focus, for the start of a recording. */
static void
trace_surface_state(struct sf_surface *s, sf_time_t now)
{
	if (s->content != SF_CONTENT_NONE)
		trace_hint(s, SF_TRACE_HINT_CONTENT, s->content, 0, now);
	if (s->hint_rate_mhz)
		trace_hint(s, SF_TRACE_HINT_RATE, s->hint_rate_mhz, 1000, now);
	if (s->hint_min_mhz || s->hint_max_mhz)
		trace_hint(s, SF_TRACE_HINT_RANGE, s->hint_min_mhz,
			   s->hint_max_mhz, now);
	if (s->focused) {
		struct sf_trace_event ev = {
			.type = SF_TRACE_FOCUS,
			.time = now,
		};
		trace_surface_event(s, &ev);
	}
}

struct sf_trace_recorder *
sf_core_trace_start(struct sf_core *core, size_t capacity, sf_time_t now)
{
	if (core->trace)
		return NULL;
	core->trace = sf_trace_recorder_create(capacity, now);
	if (!core->trace)
		return NULL;
	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		trace_output(o, now);
		for (unsigned i = 0; i < o->inhibit_count; i++)
			trace_output_event(o, SF_TRACE_INHIBIT, now, 1);
	}
	sf_list_for_each(s, &core->surfaces, struct sf_surface, link) {
		s->traced = false;
		s->inhibit_traced_output = 0;
		trace_surface_on(s, s->output, s->visible_fraction, now);
		trace_surface_state(s, now);
		if (s->inhibit_count)
			trace_surface_inhibit(s, true, now);
	}
	core_log(core, SF_LOG_INFO, "trace: recording (%zu outputs, %zu "
		 "surfaces)", core->n_outputs, core->n_surfaces);
	return core->trace;
}

struct sf_trace_recorder *
sf_core_get_trace(const struct sf_core *core)
{
	return core->trace;
}

void
sf_core_trace_discard(struct sf_core *core)
{
	if (!core->trace)
		return;
	struct sf_trace_recorder *rec = core->trace;

	core_log(core, SF_LOG_INFO, "trace: recording closed (%llu events, "
		 "%llu dropped)",
		 (unsigned long long)sf_trace_recorder_get_events(rec),
		 (unsigned long long)sf_trace_recorder_get_dropped(rec));
	sf_trace_recorder_destroy(core->trace);
	core->trace = NULL;
	sf_list_for_each(s, &core->surfaces, struct sf_surface, link)
		s->traced = false;
}

/* --- outputs --- */

static bool
grow_votes(struct sf_output *o)
{
	if (o->n_surfaces < o->n_votes_cap)
		return true;
	size_t cap = o->n_votes_cap ? o->n_votes_cap * 2 : 8;
	struct sf_vote *votes = realloc(o->votes, cap * sizeof(*votes));
	if (!votes)
		return false;
	o->votes = votes;
	o->n_votes_cap = cap;
	return true;
}

struct sf_output *
sf_output_create(struct sf_core *core, const char *name,
		 const struct sf_mode *modes, size_t n_modes,
		 size_t current, sf_time_t now)
{
	if (n_modes == 0 || current >= n_modes) {
		core_log(core, SF_LOG_ERROR,
			 "stillframe bug: output %s has no valid current mode",
			 name);
		return NULL;
	}
	struct sf_output *o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->modes = calloc(n_modes, sizeof(*o->modes));
	if (!o->modes || !grow_votes(o)) {
		free(o->modes);
		free(o);
		return NULL;
	}
	memcpy(o->modes, modes, n_modes * sizeof(*modes));
	o->core = core;
	o->id = ++core->next_output_id;
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->n_modes = n_modes;
	o->current = o->original = current;
	o->backlight = 100;
	o->dpms = SF_DPMS_ON;
	o->selector_retry = SF_TIME_NEVER;
	o->powered = true;
	o->kind = sf_output_kind_from_name(name);
	o->unneeded = sf_config_output_unneeded(&core->config, o->name,
						o->kind);
	/* Applied at the first dispatch, or when the adapter sets the
	 * kind: the adapter has not tied its data to `o` yet. */
	o->power_dirty = o->unneeded;
	/* A keep-awake request made before it appeared covers it too. */
	o->cap_dirty = core->keep_awake_until != 0;
	/* The selector has its say at the first dispatch, as after a wake:
	 * an output that starts below the rate an active user gets (left
	 * low by a run that died, or set low before stillframe loaded)
	 * would otherwise stay there, input or not, until its first idle
	 * stage had come and gone. */
	o->votes_dirty = true;
	struct sf_governor_params gp;
	sf_config_governor_params(&core->config, o->kind, &gp);
	sf_governor_init(&o->gov, &gp, now);
	sf_selector_init(&o->sel, &core->selector);
	sf_repaint_gate_init(&o->gate);
	sf_output_stats_init(&o->stats, o->gov.state, now);
	o->stats.refresh_mhz = modes[current].refresh_mhz;
	sf_list_init(&o->surfaces);
	sf_list_insert_tail(&core->outputs, &o->link);
	core->n_outputs++;
	trace_output(o, now);
	core_log(core, SF_LOG_INFO, "output %s: %zu modes, running %dx%d@%.3f",
		 o->name, n_modes, modes[current].width, modes[current].height,
		 modes[current].refresh_mhz / 1000.0);
	update_energy(core, now);
	return o;
}

bool
sf_output_set_modes(struct sf_output *o, const struct sf_mode *modes,
		    size_t n_modes, size_t current, sf_time_t now)
{
	struct sf_core *core = o->core;

	if (n_modes == 0 || current >= n_modes) {
		core_log(core, SF_LOG_ERROR, "stillframe bug: output %s's new "
			 "modes have no valid current mode", o->name);
		return false;
	}
	struct sf_mode *copy = calloc(n_modes, sizeof(*copy));
	if (!copy)
		return false;
	memcpy(copy, modes, n_modes * sizeof(*modes));
	const struct sf_mode *was = &o->modes[o->current];
	core_log(core, SF_LOG_INFO, "output %s: set to %dx%d@%.3f by someone "
		 "else (stillframe had it at %dx%d@%.3f): the user's mode "
		 "from now on, %zu mode%s", o->name, modes[current].width,
		 modes[current].height, modes[current].refresh_mhz / 1000.0,
		 was->width, was->height, was->refresh_mhz / 1000.0, n_modes,
		 n_modes == 1 ? "" : "s");
	free(o->modes);
	o->modes = copy;
	o->n_modes = n_modes;
	o->current = o->original = current;
	/* What failed may work in the new configuration (a mode that no
	 * longer fitted the screen, say). */
	o->switch_failed = false;
	o->stats.refresh_mhz = copy[current].refresh_mhz;
	/* Not one of ours: mode_switches counts stillframe's.  The user's
	 * choice is kept at least the dwell, like any new mode. */
	sf_selector_notify_switched(&o->sel, now);
	sf_governor_notify_refresh_changed(&o->gov, now);
	o->votes_dirty = true;
	trace_output(o, now);
	update_energy(core, now);
	return true;
}

void
sf_output_destroy(struct sf_output *o)
{
	if (!o)
		return;
	struct sf_core *core = o->core;

	/* Put back what the user had. */
	if (core->config.enable) {
		if (!o->powered && core->iface.set_output_power &&
		    core->iface.set_output_power(core->data, o, true)) {
			o->powered = true;
			o->dpms = SF_DPMS_ON;
		}
		if (o->current != o->original && !o->switch_failed)
			switch_mode(o, o->original, "restore", 0);
		set_backlight(o, 100);
		set_dpms(o, SF_DPMS_ON);
	}
	sf_list_for_each_safe(s, &o->surfaces, struct sf_surface,
			      output_link) {
		sf_list_remove(&s->output_link);
		s->output = NULL;
	}
	sf_list_remove(&o->link);
	core->n_outputs--;
	/* Without this output the others may agree to reclock, or no
	 * output is left and the clocks go back to normal. */
	if (core->n_outputs == 0 && core->reclock == SF_RECLOCK_LOW &&
	    core->config.enable) {
		if (!core->iface.set_reclock ||
		    core->iface.set_reclock(core->data, SF_RECLOCK_NORMAL))
			core->reclock = SF_RECLOCK_NORMAL;
	}
	free(o->modes);
	free(o->votes);
	free(o);
}

const char *
sf_output_get_name(const struct sf_output *o)
{
	return o->name;
}

void
sf_output_set_user_data(struct sf_output *o, void *data)
{
	o->user_data = data;
}

void *
sf_output_get_user_data(const struct sf_output *o)
{
	return o->user_data;
}

size_t
sf_output_get_mode(const struct sf_output *o)
{
	return o->current;
}

const struct sf_mode *
sf_output_get_modes(const struct sf_output *o, size_t *n_modes)
{
	*n_modes = o->n_modes;
	return o->modes;
}

enum sf_idle_state
sf_output_get_state(const struct sf_output *o)
{
	return o->gov.state;
}

const struct sf_output_stats *
sf_output_get_stats(const struct sf_output *o)
{
	return &o->stats;
}


void
sf_output_set_kind(struct sf_output *o, enum sf_output_kind kind,
		   sf_time_t now)
{
	struct sf_core *core = o->core;
	struct sf_governor_params gp;

	o->kind = kind;
	o->unneeded = sf_config_output_unneeded(&core->config, o->name, kind);
	sf_config_governor_params(&core->config, kind, &gp);
	sf_governor_set_params(&o->gov, &gp);
	apply_power(o, now);
}

enum sf_output_kind
sf_output_get_kind(const struct sf_output *o)
{
	return o->kind;
}

void
sf_output_request_power(struct sf_output *o, enum sf_output_power request,
			sf_time_t now)
{
	if ((unsigned)request > SF_OUTPUT_POWER_OFF)
		request = SF_OUTPUT_POWER_AUTO;
	o->power_request = request;
	core_log(o->core, SF_LOG_INFO, "output %s: power %s requested",
		 o->name, sf_output_power_name(request));
	apply_power(o, now);
	if (request == SF_OUTPUT_POWER_ON && o->powered)
		wake_request(o, now);
}

void
sf_output_notify_hotplug(struct sf_output *o, sf_time_t now)
{
	if (!o->core->config.hotplug_power_on) {
		core_log(o->core, SF_LOG_INFO, "output %s: plugged in; "
			 "hotplug-power-on=false, so it stays %s", o->name,
			 o->powered ? "on" : "off");
		return;
	}
	o->power_request = SF_OUTPUT_POWER_ON;
	core_log(o->core, SF_LOG_INFO, "output %s: plugged in; powered on "
		 "(hotplug-power-on)", o->name);
	apply_power(o, now);
	if (o->powered)
		wake_request(o, now);
}

bool
sf_output_is_powered(const struct sf_output *o)
{
	return o->powered;
}

enum sf_output_power
sf_output_get_power_request(const struct sf_output *o)
{
	return o->power_request;
}

struct sf_output *
sf_core_find_output(struct sf_core *core, const char *name)
{
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		if (name && strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

void
sf_core_notify_keep_awake(struct sf_core *core, sf_time_t now)
{
	if (core->keep_awake_until == 0)
		core_log(core, SF_LOG_DEBUG, "keep-awake request: outputs "
			 "stay lit for %d s",
			 (int)(SF_KEEP_AWAKE_HOLD / SF_NSEC_PER_SEC));
	core->keep_awake_until = now + SF_KEEP_AWAKE_HOLD;
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		update_cap(o, now);
}

void
sf_output_inhibit(struct sf_output *o, sf_time_t now)
{
	o->inhibit_count++;
	trace_output_event(o, SF_TRACE_INHIBIT, now, 1);
	update_cap(o, now);
}

void
sf_output_uninhibit(struct sf_output *o, sf_time_t now)
{
	if (o->inhibit_count == 0) {
		core_log(o->core, SF_LOG_ERROR,
			 "stillframe bug: output %s uninhibited more often "
			 "than inhibited", o->name);
		return;
	}
	o->inhibit_count--;
	trace_output_event(o, SF_TRACE_INHIBIT, now, 0);
	update_cap(o, now);
}

enum sf_repaint_decision
sf_output_repaint(struct sf_output *o, uint32_t force, sf_time_t now,
		  sf_time_t *deadline)
{
	struct sf_core *core = o->core;
	enum sf_repaint_reason reason;
	sf_time_t until = SF_TIME_NEVER;

	trace_output_event(o, SF_TRACE_REPAINT, now, force);
	/* Powered off: nothing is shown, whatever changed.  The damage
	 * waits for the power-on, which paints. */
	if (!o->powered) {
		o->stats.suppressed++;
		if (deadline)
			*deadline = SF_TIME_NEVER;
		return SF_REPAINT_DEFER;
	}
	/* Content that changed its rate is served from this frame on. */
	if (o->votes_dirty)
		reselect(o, now);
	if (force)
		sf_repaint_gate_force(&o->gate, force, now);
	enum sf_repaint_decision d =
		sf_repaint_gate_decide(&o->gate, &core->suppress, now, &until,
				       &reason);
	if (d == SF_REPAINT_DEFER && core->config.enable) {
		o->stats.suppressed++;
		sf_energy_account_repaint(&core->energy, now, false);
		if (deadline)
			*deadline = until;
		return SF_REPAINT_DEFER;
	}
	/* Paint when in doubt: damage the core was not told about (a
	 * surface it does not track) still reaches the screen. */
	if (reason == SF_REPAINT_REASON_STALE)
		o->stats.stale_flushes++;
	o->stats.repaints++;
	sf_energy_account_repaint(&core->energy, now, true);
	sf_repaint_gate_painted(&o->gate);
	/* Everything its surfaces committed is on screen now. */
	sf_list_for_each(s, &o->surfaces, struct sf_surface, output_link)
		s->shown_phase = s->newest_phase;
	o->flush_requested = false;
	if (deadline)
		*deadline = SF_TIME_NEVER;
	return SF_REPAINT_NOW;
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
	trace_surface_event(s, &ev);
	trace_surface_inhibit(s, false, 0);
	sf_list_remove(&s->output_link);
	sf_list_remove(&s->link);
	core->n_surfaces--;
	/* Its parts are parts of nothing now. */
	sf_list_for_each(part, &core->surfaces, struct sf_surface, link)
		if (part->parent == s)
			part->parent = NULL;
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
	s->parent = parent == s ? NULL : parent;
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
		trace_surface_on(s, s->output, s->visible_fraction, 0);
}

void
sf_surface_set_size(struct sf_surface *s, int32_t width, int32_t height)
{
	bool changed = s->activity.width != width ||
		       s->activity.height != height;

	sf_surface_activity_set_size(&s->activity, width, height);
	if (changed && s->traced)
		trace_surface_on(s, s->output, s->visible_fraction, 0);
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
			if (!grow_votes(output))
				core_log(s->core, SF_LOG_ERROR,
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
		trace_surface_on(s, output, visible_fraction, now);
	else if (s->traced)
		trace_surface_on(s, old, 0, now);
	if (old && old != output)
		old->votes_dirty = true;
	if (output)
		output->votes_dirty = true;
	/* An inhibitor holds the output that shows its surface. */
	if (s->inhibit_count) {
		trace_surface_inhibit(s, true, now);
		if (old && old != output)
			update_cap(old, now);
		if (output)
			update_cap(output, now);
	}
}

void
sf_surface_inhibit(struct sf_surface *s, sf_time_t now)
{
	s->inhibit_count++;
	trace_surface_inhibit(s, true, now);
	if (s->output)
		update_cap(s->output, now);
}

void
sf_surface_uninhibit(struct sf_surface *s, sf_time_t now)
{
	if (s->inhibit_count == 0) {
		core_log(s->core, SF_LOG_ERROR,
			 "stillframe bug: surface %u uninhibited more often "
			 "than inhibited", s->id);
		return;
	}
	s->inhibit_count--;
	if (s->inhibit_count == 0)
		trace_surface_inhibit(s, false, now);
	if (s->output)
		update_cap(s->output, now);
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
		trace_surface_event(s, &ev);
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
	trace_hint(s, SF_TRACE_HINT_CONTENT, type, 0, now);
	hint_changed(s, now);
}

void
sf_surface_set_content_rate(struct sf_surface *s, uint32_t num,
			    uint32_t den, sf_time_t now)
{
	uint64_t mhz = den ? (uint64_t)num * 1000 / den : 0;

	s->hint_rate_mhz = mhz > UINT32_MAX ? UINT32_MAX : (uint32_t)mhz;
	trace_hint(s, SF_TRACE_HINT_RATE, num, den, now);
	hint_changed(s, now);
}

void
sf_surface_set_rate_range(struct sf_surface *s, uint32_t min_mhz,
			  uint32_t max_mhz, sf_time_t now)
{
	s->hint_min_mhz = min_mhz;
	s->hint_max_mhz = max_mhz;
	trace_hint(s, SF_TRACE_HINT_RANGE, min_mhz, max_mhz, now);
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
sf_surface_is_focused(const struct sf_surface *s)
{
	return s->focused;
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
	int64_t limit = s->core->config.hash_max_area_px;
	const struct sf_commit_record *prev =
		sf_surface_activity_get(&s->activity, 0);

	if (!prev || now <= prev->time)
		return limit;
	sf_time_t frame = SF_NSEC_PER_SEC / 60;
	sf_time_t frames = (now - prev->time) / frame;
	if (frames < 1)
		frames = 1;
	if (frames > SF_PIXEL_READ_MAX_FRAMES)
		frames = SF_PIXEL_READ_MAX_FRAMES;
	return limit * frames;
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

	if (!is_busy_class(s->cls.cls) || kind == SF_COMMIT_EMPTY ||
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

	trace_commit(s, commit);
	s->stats.commits++;
	if (commit->has_hash || commit->unchanged)
		s->pixels_last_unchanged = commit->unchanged;
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
		core_log(core, SF_LOG_DEBUG,
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
	bool never_held = s->priority == SF_PRIORITY_ESSENTIAL ||
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
			core_log(core, SF_LOG_DEBUG,
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
		request_flush(s->output);
	}
}

bool
sf_surface_may_hold_client(const struct sf_surface *s, sf_time_t now)
{
	if (!s->core->config.enable || s->core->paused ||
	    s->priority == SF_PRIORITY_ESSENTIAL || surface_is_video(s))
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
	if (!s->core->config.enable || s->priority == SF_PRIORITY_ESSENTIAL)
		return 0;
	/* Background, or on an output that is powered off: as if
	 * unfocused with the user away, whatever the focus and the input
	 * say; a video too (its client's wish, or nobody sees it), at the
	 * rate of any animation. */
	if (s->priority == SF_PRIORITY_BACKGROUND ||
	    (s->output && !s->output->powered))
		return sf_suppress_unwatched_interval(&s->core->suppress,
						      s->cls.cls);
	/* A video plays at its own rate wherever the focus is, also one
	 * known as a video only by its content type or its client's idle
	 * inhibitor. */
	if (surface_is_video(s))
		return 0;
	return sf_suppress_throttle_interval(&s->core->suppress, s->cls.cls,
					     s->focused,
					     user_idle(s->core, now));
}

void
sf_surface_count_throttled_frame(struct sf_surface *s)
{
	s->stats.throttled_frames++;
}
