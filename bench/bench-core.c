/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sf-core.h"
#include "sf-config.h"

/*
 * Per-commit cost of the policy core on a generated desktop: N surfaces
 * (blinking cursors, seconds clocks, animations, videos, sporadic
 * windows) on a few outputs, their commits interleaved in time order,
 * with a repaint decision for each output at each 60 Hz vblank that has
 * damage, occasional input and the core's timers.  Counts heap
 * allocations inside the timed loop through the linker's --wrap.
 */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static unsigned long allocations;

void *
__wrap_malloc(size_t size)
{
	allocations++;
	return __real_malloc(size);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	allocations++;
	return __real_calloc(n, size);
}

void *
__wrap_realloc(void *p, size_t size)
{
	allocations++;
	return __real_realloc(p, size);
}

#define N_OUTPUTS 4

struct bench_event {
	sf_time_t time;
	uint32_t surface;		/* index; UINT32_MAX: input */
	uint32_t output;
	struct sf_box box;
	uint64_t hash;
};

struct source {
	sf_time_t period, next;
	struct sf_box box;
	int kind;
	uint32_t output;
	uint64_t counter;
};

/* Videos and animations play on the first two outputs only, so the
 * other two show nothing but cursors, clocks and log lines: both the
 * painting and the holding paths are measured. */
static uint32_t
output_of(uint32_t surface, int kind)
{
	return kind == 5 || kind == 6 ? surface % 2 : surface % N_OUTPUTS;
}

static uint32_t
next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Min-heap of sources by next event time: generation is O(log n). */
static void
heap_down(struct source **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && h[l]->next < h[m]->next)
			m = l;
		if (r < n && h[r]->next < h[m]->next)
			m = r;
		if (m == i)
			return;
		struct source *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static struct bench_event *
generate(uint32_t n_surfaces, uint32_t n_events, struct source *src)
{
	struct bench_event *ev = malloc(n_events * sizeof(*ev));
	struct source **heap = malloc(n_surfaces * sizeof(*heap));
	uint32_t rnd = 12345;

	if (!ev || !heap) {
		free(ev);
		free(heap);
		return NULL;
	}
	for (uint32_t i = 0; i < n_surfaces; i++) {
		struct source *s = &src[i];
		int32_t x = (int32_t)(next_random(&rnd) % 1800);
		int32_t y = (int32_t)(next_random(&rnd) % 1000);
		s->kind = (int)(i % 10);
		switch (s->kind) {
		case 0: case 1: case 2:	/* blinking cursor, 500-600 ms */
			s->period = SF_MSEC(500 + 100 * (i % 2));
			s->box = (struct sf_box){ x, y, x + 8, y + 16 };
			break;
		case 3: case 4:		/* seconds clock */
			s->period = SF_SEC(1);
			s->box = (struct sf_box){ x, y, x + 48, y + 16 };
			break;
		case 5:			/* 24 fps video */
			s->period = SF_SEC(1) / 24;
			s->box = (struct sf_box){ 0, 0, 640, 360 };
			break;
		case 6:			/* 60 Hz animation */
			s->period = SF_SEC(1) / 60;
			s->box = (struct sf_box){ x, y, x + 64, y + 64 };
			break;
		default:		/* sporadic: a log line every 5 s */
			s->period = SF_SEC(5);
			s->box = (struct sf_box){ 0, y, 400, y + 16 };
			break;
		}
		s->next = (sf_time_t)(next_random(&rnd) % (uint32_t)(s->period /
						       SF_NSEC_PER_USEC)) *
			  SF_NSEC_PER_USEC;
		s->output = output_of(i, s->kind);
		heap[i] = s;
	}
	for (size_t i = n_surfaces / 2 + 1; i-- > 0;)
		heap_down(heap, n_surfaces, i);

	for (uint32_t e = 0; e < n_events; e++) {
		struct source *s = heap[0];
		ev[e].time = s->next;
		/* The user types for the first two seconds (one event in
		 * 500 is a key), then leaves the machine idle. */
		if (s->next < SF_SEC(2) && next_random(&rnd) % 500 == 0) {
			ev[e].surface = UINT32_MAX;
			continue;
		}
		ev[e].surface = (uint32_t)(s - src);
		ev[e].output = s->output;
		ev[e].box = s->box;
		s->counter++;
		/* Blinks alternate two looks; the rest change. */
		ev[e].hash = s->kind <= 2 ? (s->counter & 1) : s->counter;
		s->next += s->period;
		heap_down(heap, n_surfaces, 0);
	}
	free(heap);
	return ev;
}

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct run_result {
	uint64_t commits, decisions, deferred;
};

/* The measured part: kept in one function so that callgrind's
 * --toggle-collect can count exactly it. */
__attribute__((noinline)) void bench_run_events(struct sf_core *core,
			      struct sf_output **outputs,
			      struct sf_surface **surfaces,
			      const struct bench_event *ev, uint32_t n,
			      struct run_result *res);

void
bench_run_events(struct sf_core *core, struct sf_output **outputs,
		 struct sf_surface **surfaces, const struct bench_event *ev,
		 uint32_t n, struct run_result *res)
{
	const sf_time_t frame = SF_SEC(1) / 60;
	sf_time_t next_vblank = frame;
	sf_time_t next_timer = sf_core_next_deadline(core);
	bool dirty[N_OUTPUTS] = { false };

	for (uint32_t i = 0; i < n; i++) {
		sf_time_t t = ev[i].time;

		while (next_vblank <= t) {
			for (int o = 0; o < N_OUTPUTS; o++) {
				if (!dirty[o])
					continue;
				sf_time_t deadline;
				if (sf_output_repaint(outputs[o], 0,
						      next_vblank, &deadline) ==
				    SF_REPAINT_DEFER)
					res->deferred++;
				res->decisions++;
				dirty[o] = false;
			}
			next_vblank += frame;
		}
		if (next_timer <= t)
			next_timer = sf_core_dispatch(core, t);
		if (ev[i].surface == UINT32_MAX) {
			sf_core_notify_input(core, SF_INPUT_KEY, t);
			next_timer = sf_core_next_deadline(core);
			continue;
		}
		struct sf_commit_desc c = {
			.time = t,
			.boxes = &ev[i].box,
			.n_boxes = 1,
			.has_hash = true,
			.hash = ev[i].hash,
			/* A blink's look 1 is its caret (sf-classifier.h). */
			.ink = ev[i].hash == 1 ? 128 : 0,
		};
		sf_surface_commit(surfaces[ev[i].surface], &c);
		dirty[ev[i].output] = true;
		res->commits++;
	}
}

int
main(int argc, char **argv)
{
	uint32_t n_surfaces = 1000, n_events = 200000;

	for (int i = 1; i + 1 < argc; i += 2) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(argv[i + 1], &end, 10);
		if (errno || *end || v == 0 || v > 50000000) {
			fprintf(stderr, "bench-core: bad value %s\n",
				argv[i + 1]);
			return 2;
		}
		if (strcmp(argv[i], "--surfaces") == 0)
			n_surfaces = (uint32_t)v;
		else if (strcmp(argv[i], "--events") == 0)
			n_events = (uint32_t)v;
		else {
			fprintf(stderr, "usage: bench-core [--surfaces N] "
				"[--events N]\n");
			return 2;
		}
	}

	struct source *src = calloc(n_surfaces, sizeof(*src));
	struct sf_surface **surfaces = calloc(n_surfaces, sizeof(*surfaces));
	struct bench_event *ev = src ? generate(n_surfaces, n_events, src) :
				       NULL;
	if (!src || !surfaces || !ev) {
		fprintf(stderr, "bench-core: out of memory\n");
		return 1;
	}

	struct sf_config config;
	sf_config_init_defaults(&config);
	struct sf_core *core = sf_core_create(&config, NULL, NULL, 0);
	struct sf_output *outputs[N_OUTPUTS];
	static const struct sf_mode modes[] = {
		{ 1920, 1080, 60000, false, true },
		{ 1920, 1080, 48000, true, false },
		{ 1920, 1080, 30000, true, false },
	};
	for (int o = 0; o < N_OUTPUTS; o++) {
		char name[16];
		snprintf(name, sizeof(name), "OUT-%d", o);
		outputs[o] = sf_output_create(core, name, modes, 3, 0, 0);
	}
	for (uint32_t i = 0; i < n_surfaces; i++) {
		surfaces[i] = sf_surface_create(core, 1920, 1080, 0);
		sf_surface_set_output(surfaces[i], outputs[src[i].output],
				      1.0 / (n_surfaces / N_OUTPUTS + 1), 0);
	}

	struct run_result res = { 0 };
	unsigned long allocs_before = allocations;
	double t0 = now_s();
	bench_run_events(core, outputs, surfaces, ev, n_events, &res);
	double t1 = now_s();
	unsigned long allocs = allocations - allocs_before;

	printf("surfaces %u\nevents %u\ncommits %llu\nrepaint_decisions %llu\n"
	       "deferred %llu\n", n_surfaces, n_events,
	       (unsigned long long)res.commits,
	       (unsigned long long)res.decisions,
	       (unsigned long long)res.deferred);
	printf("ns_per_commit %.1f\n", (t1 - t0) * 1e9 / (double)res.commits);
	printf("allocations_in_loop %lu\n", allocs);

	sf_core_destroy(core);
	free(ev);
	free(surfaces);
	free(src);
	return allocs == 0 ? 0 : 3;
}
