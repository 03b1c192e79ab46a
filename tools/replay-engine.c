/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-replay.h"

#define MAX_OUTPUTS 16
#define MAX_SURFACE_ID (SF_TRACE_MAX_SURFACE_ID + 1)

struct replay_output {
	uint32_t id;
	struct sf_output *output;
	bool pending;			/* wants a repaint */
	uint32_t force;
	sf_time_t next_vblank;		/* valid while pending */
	enum sf_dpms_level dpms;
	int32_t backlight;
	/* Since the last report. */
	uint64_t repaints, suppressed;
	struct sf_energy_totals last_energy;
};

struct sf_replay {
	struct sf_replay_options options;
	struct sf_core *core;
	sf_time_t now;
	bool started;
	sf_time_t next_report;
	enum sf_reclock_level reclock;

	struct replay_output outputs[MAX_OUTPUTS];
	size_t n_outputs;

	struct sf_surface **surfaces;	/* indexed by trace id */
	uint32_t *surface_output;	/* trace output id per surface */
	uint32_t surfaces_cap;

	struct sf_replay_counts counts;
};

static struct replay_output *
find_output(struct sf_replay *r, uint32_t id)
{
	for (size_t i = 0; i < r->n_outputs; i++)
		if (r->outputs[i].id == id)
			return &r->outputs[i];
	return NULL;
}

static struct replay_output *
sim_of(struct sf_output *output)
{
	return sf_output_get_user_data(output);
}

static void
handle_log(void *data, enum sf_log_level level, const char *message)
{
	struct sf_replay *r = data;

	if (r->options.log)
		r->options.log(r->options.data, r->now, level, message);
}

static bool
handle_set_mode(void *data, struct sf_output *output, size_t mode)
{
	struct sf_replay *r = data;

	if (r->options.fail_mode_switch)
		return false;
	r->counts.mode_sets++;
	return true;
}

static bool
handle_set_dpms(void *data, struct sf_output *output,
		enum sf_dpms_level level)
{
	struct sf_replay *r = data;

	r->counts.dpms_sets++;
	sim_of(output)->dpms = level;
	return true;
}

static bool
handle_set_backlight(void *data, struct sf_output *output, int32_t percent)
{
	struct sf_replay *r = data;

	r->counts.backlight_sets++;
	sim_of(output)->backlight = percent;
	return true;
}

static bool
handle_set_reclock(void *data, enum sf_reclock_level level)
{
	struct sf_replay *r = data;

	r->counts.reclock_sets++;
	r->reclock = level;
	return true;
}

static sf_time_t
frame_period(const struct replay_output *ro)
{
	size_t n;
	const struct sf_mode *modes = sf_output_get_modes(ro->output, &n);
	uint32_t mhz = modes[sf_output_get_mode(ro->output)].refresh_mhz;

	return (sf_time_t)(1000000000000LL / mhz);
}

/* Repaints land on the vblank grid of the current refresh rate. */
static void
want_repaint(struct sf_replay *r, struct replay_output *ro, uint32_t force)
{
	ro->force |= force;
	if (ro->pending)
		return;
	sf_time_t period = frame_period(ro);
	ro->pending = true;
	ro->next_vblank = (r->now / period + 1) * period;
}

static void
handle_schedule_repaint(void *data, struct sf_output *output)
{
	struct sf_replay *r = data;

	r->counts.repaint_requests++;
	want_repaint(r, sim_of(output), 0);
}

static const struct sf_core_interface replay_interface = {
	.log = handle_log,
	.set_mode = handle_set_mode,
	.set_dpms = handle_set_dpms,
	.set_backlight = handle_set_backlight,
	.set_reclock = handle_set_reclock,
	.schedule_repaint = handle_schedule_repaint,
};

struct sf_replay *
sf_replay_create(const struct sf_replay_options *options)
{
	struct sf_replay *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->options = *options;
	return r;
}

void
sf_replay_destroy(struct sf_replay *r)
{
	if (!r)
		return;
	sf_core_destroy(r->core);
	free(r->surfaces);
	free(r->surface_output);
	free(r);
}

static void
start(struct sf_replay *r, sf_time_t t)
{
	r->now = t;
	r->started = true;
	r->core = sf_core_create(r->options.config, &replay_interface, r, t);
	r->next_report = r->options.report_interval ?
		t + r->options.report_interval : SF_TIME_NEVER;
}

static void
report(struct sf_replay *r)
{
	for (size_t i = 0; i < r->n_outputs; i++) {
		struct replay_output *ro = &r->outputs[i];
		size_t n;
		const struct sf_mode *modes =
			sf_output_get_modes(ro->output, &n);
		struct sf_replay_report rep = {
			.time = r->now,
			.output = sf_output_get_name(ro->output),
			.state = sf_output_get_state(ro->output),
			.refresh_mhz =
				modes[sf_output_get_mode(ro->output)].refresh_mhz,
			.repaints = ro->repaints,
			.suppressed = ro->suppressed,
			.dpms = ro->dpms,
			.backlight = ro->backlight,
			.reclock = r->reclock,
		};
		sf_core_energy_totals(r->core, r->now, &rep.energy);
		double dt = (double)r->options.report_interval /
			    SF_NSEC_PER_SEC;
		rep.actual_w = (rep.energy.actual_j -
				ro->last_energy.actual_j) / dt;
		rep.baseline_w = (rep.energy.baseline_j -
				  ro->last_energy.baseline_j) / dt;
		ro->last_energy = rep.energy;
		ro->repaints = ro->suppressed = 0;
		if (r->options.report)
			r->options.report(r->options.data, &rep);
	}
}

static void
vblank(struct sf_replay *r, struct replay_output *ro)
{
	sf_time_t deadline;
	uint32_t force = ro->force;

	ro->pending = false;
	ro->force = 0;
	if (ro->dpms != SF_DPMS_ON && !force)
		return;			/* a blank output paints nothing */
	if (sf_output_repaint(ro->output, force, r->now, &deadline) ==
	    SF_REPAINT_NOW)
		ro->repaints++;
	else
		ro->suppressed++;
}

void
sf_replay_run_until(struct sf_replay *r, sf_time_t end)
{
	if (!r->started)
		start(r, end);
	unsigned stuck = 0;
	for (;;) {
		sf_time_t next = sf_core_next_deadline(r->core);
		struct replay_output *due = NULL;

		for (size_t i = 0; i < r->n_outputs; i++) {
			struct replay_output *ro = &r->outputs[i];
			if (ro->pending && ro->next_vblank < next) {
				next = ro->next_vblank;
				due = ro;
			}
		}
		bool reporting = r->next_report <= next;
		if (reporting)
			next = r->next_report;
		if (next > end)
			break;
		if (next > r->now) {
			r->now = next;
			stuck = 0;
		} else if (++stuck > 100000) {
			/* A deadline that never moves is a core bug; stop
			 * rather than spin. */
			handle_log(r, SF_LOG_ERROR, "stillframe bug: a deadline "
				   "does not advance; replay stopped");
			abort();
		}
		if (reporting) {
			report(r);
			r->next_report += r->options.report_interval;
		} else if (due && due->next_vblank <= r->now) {
			vblank(r, due);
		} else {
			sf_core_dispatch(r->core, r->now);
		}
	}
	if (end > r->now)
		r->now = end;
}

sf_time_t
sf_replay_now(const struct sf_replay *r)
{
	return r->now;
}

struct sf_core *
sf_replay_get_core(struct sf_replay *r)
{
	return r->core;
}

struct sf_output *
sf_replay_get_output(struct sf_replay *r, uint32_t id)
{
	struct replay_output *ro = find_output(r, id);

	return ro ? ro->output : NULL;
}

struct sf_surface *
sf_replay_get_surface(struct sf_replay *r, uint32_t id)
{
	return id < r->surfaces_cap ? r->surfaces[id] : NULL;
}

void
sf_replay_get_counts(const struct sf_replay *r, struct sf_replay_counts *out)
{
	*out = r->counts;
}

static bool
fail(char *err, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool
fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (err && size) {
		va_start(ap, fmt);
		vsnprintf(err, size, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool
grow_surfaces(struct sf_replay *r, uint32_t id)
{
	if (id < r->surfaces_cap)
		return true;
	uint32_t cap = r->surfaces_cap ? r->surfaces_cap : 64;
	while (cap <= id)
		cap *= 2;
	struct sf_surface **s = realloc(r->surfaces, cap * sizeof(*s));
	if (!s)
		return false;
	r->surfaces = s;
	uint32_t *o = realloc(r->surface_output, cap * sizeof(*o));
	if (!o)
		return false;
	r->surface_output = o;
	memset(s + r->surfaces_cap, 0,
	       (cap - r->surfaces_cap) * sizeof(*s));
	memset(o + r->surfaces_cap, 0,
	       (cap - r->surfaces_cap) * sizeof(*o));
	r->surfaces_cap = cap;
	return true;
}

static struct sf_surface *
surface_or_fail(struct sf_replay *r, uint32_t id, char *err, size_t size)
{
	struct sf_surface *s = sf_replay_get_surface(r, id);

	if (!s)
		fail(err, size, "surface %u does not exist", id);
	return s;
}

static bool
feed_output(struct sf_replay *r, const struct sf_trace_event *ev, char *err,
	    size_t size)
{
	struct replay_output *known = find_output(r, ev->id);

	/* Known output: someone else set a mode, and these are its modes
	 * now. */
	if (known) {
		char name[sizeof(ev->u.output.name)];
		snprintf(name, sizeof(name), "%s",
			 sf_output_get_name(known->output));
		if (strcmp(name, ev->u.output.name) != 0)
			return fail(err, size, "output %u exists already, "
				    "named %s", ev->id, name);
		if (!sf_output_set_modes(known->output, ev->u.output.modes,
					 ev->u.output.n_modes,
					 ev->u.output.current, r->now))
			return fail(err, size, "output %u: its new modes were "
				    "refused", ev->id);
		want_repaint(r, known, SF_FORCE_GEOMETRY);
		return true;
	}
	if (r->n_outputs >= MAX_OUTPUTS)
		return fail(err, size, "more than %d outputs", MAX_OUTPUTS);
	struct sf_output *o = sf_output_create(r->core, ev->u.output.name,
					       ev->u.output.modes,
					       ev->u.output.n_modes,
					       ev->u.output.current, r->now);
	if (!o)
		return fail(err, size, "output %u could not be created",
			    ev->id);
	struct replay_output *ro = &r->outputs[r->n_outputs++];
	*ro = (struct replay_output){
		.id = ev->id,
		.output = o,
		.dpms = SF_DPMS_ON,
		.backlight = 100,
	};
	sf_core_energy_totals(r->core, r->now, &ro->last_energy);
	sf_output_set_user_data(o, ro);
	return true;
}

static bool
feed_surface(struct sf_replay *r, const struct sf_trace_event *ev, char *err,
	     size_t size)
{
	struct replay_output *ro = find_output(r, ev->u.surface.output);

	if (ev->id == 0 || ev->id >= MAX_SURFACE_ID)
		return fail(err, size, "surface id %u is not in 1..%u", ev->id,
			    MAX_SURFACE_ID - 1);
	if (!ro)
		return fail(err, size, "surface %u: output %u does not exist",
			    ev->id, ev->u.surface.output);
	if (!grow_surfaces(r, ev->id))
		return fail(err, size, "out of memory");
	if (r->surfaces[ev->id]) {
		/* Known surface: it moved, resized or changed visibility. */
		struct sf_surface *s = r->surfaces[ev->id];
		sf_surface_set_size(s, ev->u.surface.width,
				    ev->u.surface.height);
		sf_surface_set_output(s, ro->output, ev->u.surface.visible,
				      r->now);
		r->surface_output[ev->id] = ev->u.surface.output;
		want_repaint(r, ro, SF_FORCE_GEOMETRY);
		return true;
	}
	struct sf_surface *s = sf_surface_create(r->core, ev->u.surface.width,
						 ev->u.surface.height, r->now);
	if (!s)
		return fail(err, size, "out of memory");
	if (ev->u.surface.label[0])
		sf_surface_set_label(s, ev->u.surface.label);
	sf_surface_set_output(s, ro->output, ev->u.surface.visible, r->now);
	r->surfaces[ev->id] = s;
	r->surface_output[ev->id] = ev->u.surface.output;
	want_repaint(r, ro, SF_FORCE_GEOMETRY);
	return true;
}

static void
feed_commit(struct sf_replay *r, const struct sf_trace_event *ev,
	    struct sf_surface *s)
{
	struct sf_commit_desc desc = {
		.time = r->now,
		.boxes = ev->u.commit.boxes,
		.n_boxes = ev->u.commit.n_boxes,
		.has_hash = ev->u.commit.has_hash,
		.hash = ev->u.commit.hash,
		.ink = ev->u.commit.ink,
		.unchanged = ev->u.commit.unchanged,
	};
	sf_surface_commit(s, &desc);
	/* Like Weston, every commit schedules a repaint of its output. */
	struct replay_output *ro = find_output(r, r->surface_output[ev->id]);
	if (ro)
		want_repaint(r, ro, 0);
}

static void
feed_hint(struct sf_replay *r, const struct sf_trace_event *ev,
	  struct sf_surface *s)
{
	switch (ev->u.hint.kind) {
	case SF_TRACE_HINT_CLEAR:
		sf_surface_set_content_rate(s, 0, 1, r->now);
		sf_surface_set_rate_range(s, 0, 0, r->now);
		sf_surface_set_content_type(s, SF_CONTENT_NONE, r->now);
		break;
	case SF_TRACE_HINT_RATE:
		sf_surface_set_content_rate(s, ev->u.hint.num, ev->u.hint.den,
					    r->now);
		break;
	case SF_TRACE_HINT_RANGE:
		sf_surface_set_rate_range(s, ev->u.hint.min_mhz,
					  ev->u.hint.max_mhz, r->now);
		break;
	case SF_TRACE_HINT_CONTENT:
		sf_surface_set_content_type(s, ev->u.hint.content, r->now);
		break;
	}
}

bool
sf_replay_feed(struct sf_replay *r, const struct sf_trace_event *ev,
	       char *err, size_t size)
{
	if (ev->type == SF_TRACE_HEADER)
		return true;
	if (r->started && ev->time < r->now)
		return fail(err, size, "time goes backwards (%.3f ms after "
			    "%.3f ms)", (double)ev->time / SF_NSEC_PER_MSEC,
			    (double)r->now / SF_NSEC_PER_MSEC);
	sf_replay_run_until(r, ev->time);

	/* These name a surface, which must exist. */
	struct sf_surface *s = NULL;

	if (ev->type == SF_TRACE_COMMIT || ev->type == SF_TRACE_HINT ||
	    ev->type == SF_TRACE_FOCUS || ev->type == SF_TRACE_DESTROY) {
		s = surface_or_fail(r, ev->id, err, size);
		if (!s)
			return false;
	}

	switch (ev->type) {
	case SF_TRACE_HEADER:
		return true;
	case SF_TRACE_OUTPUT:
		return feed_output(r, ev, err, size);
	case SF_TRACE_SURFACE:
		return feed_surface(r, ev, err, size);
	case SF_TRACE_COMMIT:
		feed_commit(r, ev, s);
		return true;
	case SF_TRACE_INPUT:
		sf_core_notify_input(r->core, ev->u.input.kind, r->now);
		if (ev->u.input.kind == SF_INPUT_POINTER)
			for (size_t i = 0; i < r->n_outputs; i++)
				want_repaint(r, &r->outputs[i],
					     SF_FORCE_POINTER_MOVED);
		return true;
	case SF_TRACE_HINT:
		feed_hint(r, ev, s);
		return true;
	case SF_TRACE_FOCUS:
		for (uint32_t i = 0; i < r->surfaces_cap; i++)
			if (r->surfaces[i])
				sf_surface_set_focused(r->surfaces[i],
						       r->surfaces[i] == s,
						       ev->time);
		return true;
	case SF_TRACE_DESTROY: {
		struct replay_output *ro =
			find_output(r, r->surface_output[ev->id]);
		sf_surface_destroy(s);
		r->surfaces[ev->id] = NULL;
		if (ro)
			want_repaint(r, ro, SF_FORCE_GEOMETRY);
		return true;
	}
	case SF_TRACE_INHIBIT: {
		struct replay_output *ro = find_output(r, ev->id);
		if (!ro)
			return fail(err, size, "output %u does not exist",
				    ev->id);
		if (ev->u.inhibit.on)
			sf_output_inhibit(ro->output, r->now);
		else
			sf_output_uninhibit(ro->output, r->now);
		return true;
	}
	case SF_TRACE_REPAINT:
		/* Recorded decisions are the adapter's; the replay makes its
		 * own, so these are only counted. */
		r->counts.recorded_repaints++;
		return true;
	case SF_TRACE_MODE:
		return true;
	case SF_TRACE_END:
		return true;
	}
	return fail(err, size, "unknown event type %d", ev->type);
}
