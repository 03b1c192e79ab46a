/* SPDX-License-Identifier: MIT */
/* What the core feeds a trace recording (sf-recorder.h), and starting
 * and ending one. */
#include <string.h>

#include "core-private.h"

/* --- trace recording --- */

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
uint32_t
sf_core_trace_mode_index(const struct sf_output *o, size_t mode)
{
	return mode < SF_TRACE_MAX_MODES ? (uint32_t)mode :
					   SF_TRACE_MAX_MODES - 1;
}

void
sf_core_trace_output(struct sf_output *o, sf_time_t now)
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
	ev.u.output.current = sf_core_trace_mode_index(o, o->current);
	if (o->current >= n)
		ev.u.output.modes[n - 1] = o->modes[o->current];
	sf_trace_recorder_add(o->core->trace, &ev);
}

void
sf_core_trace_output_event(struct sf_output *o, enum sf_trace_type type,
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
void
sf_core_trace_surface_on(struct sf_surface *s, const struct sf_output *output,
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
void
sf_core_trace_surface_inhibit(struct sf_surface *s, bool on, sf_time_t now)
{
	if (!tracing(s->core))
		return;
	if (on && !s->inhibit_traced_output && s->output) {
		s->inhibit_traced_output = s->output->id;
		sf_core_trace_output_event(s->output, SF_TRACE_INHIBIT, now, 1);
	} else if (!on && s->inhibit_traced_output) {
		sf_list_for_each(o, &s->core->outputs, struct sf_output, link)
			if (o->id == s->inhibit_traced_output)
				sf_core_trace_output_event(
					o, SF_TRACE_INHIBIT, now, 0);
		s->inhibit_traced_output = 0;
	}
}

/* An event of a surface the recording knows; the others are left out,
 * since a replay could not tell what they belong to. */
void
sf_core_trace_surface_event(struct sf_surface *s, struct sf_trace_event *ev)
{
	if (!tracing(s->core) || !s->traced)
		return;
	ev->id = s->id;
	sf_trace_recorder_add(s->core->trace, ev);
}

/* A hint as the format has it: for a rate NUM and DEN, for a range MIN
 * and MAX, for content the type in `a`. */
void
sf_core_trace_hint(struct sf_surface *s, enum sf_trace_hint_kind kind,
		   uint32_t a, uint32_t b, sf_time_t now)
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
	sf_core_trace_surface_event(s, &ev);
}

void
sf_core_trace_commit(struct sf_surface *s, const struct sf_commit_desc *c)
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
	sf_core_trace_surface_event(s, &ev);
}

/* --- trace recording --- */

/* The surface's hints and focus, for the start of a recording. */
static void
trace_surface_state(struct sf_surface *s, sf_time_t now)
{
	if (s->content != SF_CONTENT_NONE)
		sf_core_trace_hint(s, SF_TRACE_HINT_CONTENT, s->content, 0,
				   now);
	if (s->hint_rate_mhz)
		sf_core_trace_hint(s, SF_TRACE_HINT_RATE, s->hint_rate_mhz,
				   1000, now);
	if (s->hint_min_mhz || s->hint_max_mhz)
		sf_core_trace_hint(s, SF_TRACE_HINT_RANGE, s->hint_min_mhz,
				   s->hint_max_mhz, now);
	if (s->focused) {
		struct sf_trace_event ev = {
			.type = SF_TRACE_FOCUS,
			.time = now,
		};
		sf_core_trace_surface_event(s, &ev);
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
		sf_core_trace_output(o, now);
		for (unsigned i = 0; i < o->inhibit_count; i++)
			sf_core_trace_output_event(o, SF_TRACE_INHIBIT, now, 1);
	}
	sf_list_for_each(s, &core->surfaces, struct sf_surface, link) {
		s->traced = false;
		s->inhibit_traced_output = 0;
		sf_core_trace_surface_on(s, s->output, s->visible_fraction,
					 now);
		trace_surface_state(s, now);
		if (s->inhibit_count)
			sf_core_trace_surface_inhibit(s, true, now);
	}
	sf_core_log(core, SF_LOG_INFO, "trace: recording (%zu outputs, %zu "
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

	sf_core_log(core, SF_LOG_INFO, "trace: recording closed (%llu events, "
		    "%llu dropped)",
		    (unsigned long long)sf_trace_recorder_get_events(rec),
		    (unsigned long long)sf_trace_recorder_get_dropped(rec));
	sf_trace_recorder_destroy(core->trace);
	core->trace = NULL;
	sf_list_for_each(s, &core->surfaces, struct sf_surface, link)
		s->traced = false;
}
