/* SPDX-License-Identifier: MIT */
#ifndef SF_TEST_CORE_H
#define SF_TEST_CORE_H

/*
 * The C tests' stand-in for an adapter: a struct sf_core_interface whose
 * hooks write down what the core asked for, and the adapter's timer on
 * the virtual clock (sf_test_core_run_until).  One copy for every test
 * of the core (test-core.c, test-output-power.c) and for the fuzz
 * target's clock (fuzz/fuzz-core.c); compiled into each of them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sf-core.h"

#define SF_TEST_CORE_MAX_OUTPUTS 4

/* A dispatch at one instant more often than this in a row is a busy
 * loop: the core keeps asking for a time it has just been run at. */
#define SF_TEST_CORE_MAX_SAME 1000

/* sf_test_core_run_until() stops after this many dispatches: a unit
 * test's bound on a core that would keep it busy. */
#define SF_TEST_CORE_MAX_DISPATCHES 10000

struct sf_test_core {
	/* The last request of each kind, whichever output it was for. */
	size_t mode;
	enum sf_dpms_level dpms;
	int32_t backlight;		/* the user's 100 until asked */
	enum sf_reclock_level reclock;
	/* set_mode, set_dpms, set_backlight, set_reclock and
	 * set_output_power calls, refused ones included. */
	unsigned calls;
	unsigned mode_calls;
	unsigned repaint_requests;
	char last_info[256];
	char last_error[256];

	/* Set by a test: the hook refuses (returns false). */
	bool mode_fails;
	bool power_fails;

	/* Per output, for those a test tracks (sf_test_core_track). */
	struct sf_output *outputs[SF_TEST_CORE_MAX_OUTPUTS];
	bool powered[SF_TEST_CORE_MAX_OUTPUTS];
	enum sf_dpms_level output_dpms[SF_TEST_CORE_MAX_OUTPUTS];
	unsigned power_calls[SF_TEST_CORE_MAX_OUTPUTS];
	unsigned dpms_calls[SF_TEST_CORE_MAX_OUTPUTS];
	unsigned repaints[SF_TEST_CORE_MAX_OUTPUTS];
};

/* Every hook, the recorder (struct sf_test_core) as their data. */
extern const struct sf_core_interface sf_test_core_interface;

/* Every hook but set_output_power: a server that cannot turn an output
 * off, so the core counts on nothing of the kind. */
extern const struct sf_core_interface sf_test_core_interface_no_power;

/* Nothing asked yet, the backlight at the user's 100 %. */
void
sf_test_core_init(struct sf_test_core *rec);

/* From now on, what the core asks of `output` is also written down at
 * index `i` (below SF_TEST_CORE_MAX_OUTPUTS); it starts powered. */
void
sf_test_core_track(struct sf_test_core *rec, int i, struct sf_output *output);

/* The index of a tracked output, or -1. */
int
sf_test_core_index(const struct sf_test_core *rec,
		   const struct sf_output *output);

/* Hooks around each dispatch of sf_test_core_run(); any may be NULL. */
struct sf_test_clock {
	/* Before the dispatch at `at`: a fuzz target moves its clock. */
	void (*before)(void *data, sf_time_t at);
	/* After it: a fuzz target checks its invariants. */
	void (*after)(void *data, sf_time_t at);
	void *data;
	/* Stop after this many dispatches (0: no bound). */
	int max_dispatches;
};

/* Runs the core's timers due by `until`, in order, each at its deadline
 * but never before `from` (a deadline already past runs at once), as an
 * adapter's timer does; `clock` may be NULL.  Returns false if the core
 * asked for one instant more than SF_TEST_CORE_MAX_SAME times in a row
 * after the first (it then stops). */
bool
sf_test_core_run(struct sf_core *core, sf_time_t from, sf_time_t until,
		 const struct sf_test_clock *clock);

/* sf_test_core_run() from any time, without hooks, at most
 * SF_TEST_CORE_MAX_DISPATCHES dispatches: the unit tests' timer. */
void
sf_test_core_run_until(struct sf_core *core, sf_time_t until);

#endif /* SF_TEST_CORE_H */
