/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "sf-scenario.h"

/* Events are generated source by source, then merged in time order. */
struct event_list {
	struct sf_trace_event *ev;
	size_t len, cap;
	bool oom;
};

static struct sf_trace_event *
push(struct event_list *l, sf_time_t t, enum sf_trace_type type, uint32_t id)
{
	if (l->len == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		struct sf_trace_event *ev = realloc(l->ev, cap * sizeof(*ev));
		if (!ev) {
			l->oom = true;
			return NULL;
		}
		l->ev = ev;
		l->cap = cap;
	}
	struct sf_trace_event *e = &l->ev[l->len++];
	memset(e, 0, sizeof(*e));
	e->time = t;
	e->type = type;
	e->id = id;
	return e;
}

static struct sf_trace_event *
push_commit(struct event_list *l, sf_time_t t, uint32_t id, int32_t x,
	    int32_t y, int32_t w, int32_t h, uint64_t hash)
{
	struct sf_trace_event *e = push(l, t, SF_TRACE_COMMIT, id);

	if (!e)
		return NULL;
	e->u.commit.boxes[0] = (struct sf_box){ x, y, x + w, y + h };
	e->u.commit.n_boxes = 1;
	e->u.commit.has_hash = true;
	e->u.commit.hash = hash;
	return e;
}

static void
push_surface(struct event_list *l, sf_time_t t, uint32_t id, int32_t width,
	     int32_t height, double visible, const char *label)
{
	struct sf_trace_event *e = push(l, t, SF_TRACE_SURFACE, id);

	if (!e)
		return;
	e->u.surface.output = 1;
	e->u.surface.width = width;
	e->u.surface.height = height;
	e->u.surface.visible = visible;
	strncpy(e->u.surface.label, label, sizeof(e->u.surface.label) - 1);
}

static void
push_input(struct event_list *l, sf_time_t t, enum sf_input_kind kind)
{
	struct sf_trace_event *e = push(l, t, SF_TRACE_INPUT, 0);

	if (e)
		e->u.input.kind = kind;
}

struct sort_key {
	sf_time_t time;
	size_t index;
};

/* Same-time events keep the order they were generated in. */
static int
compare_keys(const void *a, const void *b)
{
	const struct sort_key *ka = a, *kb = b;

	if (ka->time != kb->time)
		return ka->time < kb->time ? -1 : 1;
	return ka->index < kb->index ? -1 : ka->index > kb->index;
}

static bool
merge_and_emit(struct event_list *l, sf_scenario_emit_t emit, void *data)
{
	struct sort_key *keys = NULL;
	bool ok = !l->oom;

	if (ok)
		keys = malloc((l->len ? l->len : 1) * sizeof(*keys));
	if (!keys)
		ok = false;
	if (ok) {
		for (size_t i = 0; i < l->len; i++)
			keys[i] = (struct sort_key){ l->ev[i].time, i };
		qsort(keys, l->len, sizeof(*keys), compare_keys);
		for (size_t i = 0; ok && i < l->len; i++)
			ok = emit(data, &l->ev[keys[i].index]);
	}
	free(keys);
	free(l->ev);
	return ok;
}

/* A small deterministic generator (xorshift32) for jitter. */
static uint32_t
next_random(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

enum {
	OUTPUT = 1,
	TERMINAL = 1,
	CLOCK = 2,
	VIDEO = 3,
};

/* Typing into the terminal: a key, then the glyph and the moved cursor
 * a few milliseconds later, at 80-250 ms between keys. */
static sf_time_t
type_text(struct event_list *l, sf_time_t t, sf_time_t until, uint32_t *rnd,
	  int32_t *column)
{
	while (t < until) {
		push_input(l, t, SF_INPUT_KEY);
		push_commit(l, t + SF_MSEC(6), TERMINAL, 10 + 8 * *column, 300,
			    16, 16, next_random(rnd));
		*column = (*column + 1) % 90;
		t += SF_MSEC(80 + next_random(rnd) % 170);
	}
	return t;
}

/* foot's cursor: toggles every 500 ms between two looks, hidden first
 * (the typing showed it), the shown one with the block's 8x16 ink. */
static void
blink_cursor(struct event_list *l, sf_time_t from, sf_time_t until,
	     int32_t column)
{
	int phase = 0;

	for (sf_time_t t = from; t < until; t += SF_MSEC(500), phase ^= 1) {
		struct sf_trace_event *e = push_commit(
			l, t, TERMINAL, 10 + 8 * column, 300, 8, 16,
			phase ? 0xc0ffee00c0ffee00ull : 0x00ddba1100ddba11ull);
		if (e)
			e->u.commit.ink = phase ? 8 * 16 : 0;
	}
}

bool
sf_scenario_demo(sf_scenario_emit_t emit, void *data)
{
	struct event_list l = { 0 };
	struct sf_trace_event *e;
	uint32_t rnd = 0x5eed;
	int32_t column = 0;
	const sf_time_t end = SF_SEC(705);

	e = push(&l, 0, SF_TRACE_HEADER, 0);
	e = push(&l, 0, SF_TRACE_OUTPUT, OUTPUT);
	if (e) {
		static const struct sf_mode modes[] = {
			{ 1920, 1080, 60000, false, true },
			{ 1920, 1080, 48000, true, false },
			{ 1920, 1080, 40000, true, false },
			{ 1920, 1080, 30000, true, false },
			{ 1280, 720, 60000, false, false },
		};
		memcpy(e->u.output.name, "eDP-1", 6);
		memcpy(e->u.output.modes, modes, sizeof(modes));
		e->u.output.n_modes = SF_ARRAY_LENGTH(modes);
		e->u.output.current = 0;
	}
	push_surface(&l, 0, TERMINAL, 800, 600, 0.23, "foot");
	push_surface(&l, 0, CLOCK, 300, 32, 0.005, "panel-clock");
	push(&l, 0, SF_TRACE_FOCUS, TERMINAL);

	/* The panel clock shows seconds, for the whole run. */
	for (sf_time_t t = SF_MSEC(500); t < end; t += SF_SEC(1))
		push_commit(&l, t, CLOCK, 240, 8, 48, 16,
			    0x100000000ull + (uint64_t)(t / SF_SEC(1)));

	/* 0-10 s: typing; the cursor stays solid while typing. */
	sf_time_t t = type_text(&l, SF_MSEC(200), SF_SEC(10), &rnd, &column);

	/* Then foot blinks the cursor for the rest of the run, apart from
	 * the user's typing at the end. */
	blink_cursor(&l, t + SF_MSEC(500), SF_SEC(700), column);

	/* 40-60 s: a 24 fps video in mpv, which says it is video. */
	push_surface(&l, SF_SEC(40), VIDEO, 1280, 720, 0.44, "mpv");
	e = push(&l, SF_SEC(40), SF_TRACE_HINT, VIDEO);
	if (e) {
		e->u.hint.kind = SF_TRACE_HINT_CONTENT;
		e->u.hint.content = SF_CONTENT_VIDEO;
	}
	for (int frame = 0; frame < 20 * 24; frame++)
		push_commit(&l, SF_SEC(40) + SF_SEC(frame) / 24 + SF_MSEC(1),
			    VIDEO, 0, 0, 1280, 720, 0xf00d0000ull + frame);
	push(&l, SF_SEC(60), SF_TRACE_DESTROY, VIDEO);

	/* 62-68 s: the user moves the pointer at 125 Hz. */
	for (sf_time_t p = SF_SEC(62); p < SF_SEC(68); p += SF_MSEC(8))
		push_input(&l, p, SF_INPUT_POINTER);

	/* 68-700 s: nobody there.  700 s: back, typing a few words. */
	type_text(&l, SF_SEC(700), SF_SEC(703), &rnd, &column);
	push(&l, end, SF_TRACE_END, 0);

	return merge_and_emit(&l, emit, data);
}

bool
sf_scenario_by_name(const char *name, sf_scenario_emit_t emit, void *data)
{
	if (strcmp(name, "demo") == 0)
		return sf_scenario_demo(emit, data);
	return false;
}
