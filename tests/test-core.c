/* SPDX-License-Identifier: MIT */
#include "sf-config.h"
#include "sf-core.h"
#include "sf-replay.h"
#include "sf-scenario.h"
#include "sf-stats.h"
#include "sf-test.h"
#include "sf-test-core.h"

/* What the core asks for is written down by sf-test-core.h's recorder.
 * The tests here track no output (one panel each: the last request of a
 * kind is its own) and give the core no set_output_power unless a test
 * says otherwise. */

static const struct sf_mode panel_modes[] = {
	{ 1920, 1080, 60000, false, true },
	{ 1920, 1080, 48000, true, false },
	{ 1920, 1080, 30000, true, false },
};

static struct sf_core *
make_core(struct sf_test_core *r, struct sf_config *cfg, struct sf_output **o)
{
	struct sf_config defaults;

	if (!cfg) {
		sf_config_init_defaults(&defaults);
		cfg = &defaults;
	}
	sf_test_core_init(r);
	struct sf_core *core = sf_core_create(cfg,
		&sf_test_core_interface_no_power, r, 0);
	*o = sf_output_create(core, "eDP-1", panel_modes, 3, 0, 0);
	return core;
}

SF_TEST(idle_drops_refresh_reclocks_dims_and_blanks)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	sf_core_notify_input(core, SF_INPUT_KEY, SF_MSEC(10));
	/* A user who types in bursts pauses for a few seconds to read: no
	 * switch while they are at work (each would be two, and a panel
	 * may show a switch). */
	sf_test_core_run_until(core, SF_MSEC(4900));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_ACTIVE);
	sf_assert_int_eq(r.mode_calls, 0);

	/* 5 s after the last input: the lowest seamless mode >= 30 Hz. */
	sf_test_core_run_until(core, SF_MSEC(5010));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_LOW_REFRESH);
	sf_assert_int_eq(r.mode, 2);
	sf_assert_int_eq(r.reclock, SF_RECLOCK_NORMAL);
	/* The clocks follow once the rate has settled. */
	sf_test_core_run_until(core, SF_MSEC(7010));
	sf_assert_int_eq(r.reclock, SF_RECLOCK_LOW);
	sf_assert_int_eq(sf_core_get_reclock(core), SF_RECLOCK_LOW);

	sf_test_core_run_until(core, SF_SEC(121));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_DIM);
	sf_assert_int_eq(r.backlight, 30);
	sf_test_core_run_until(core, SF_SEC(301));
	sf_assert_int_eq(r.dpms, SF_DPMS_STANDBY);
	sf_test_core_run_until(core, SF_SEC(601));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_DPMS_OFF);
	sf_assert_int_eq(r.dpms, SF_DPMS_OFF);

	/* Any input restores everything in the same call. */
	sf_core_notify_input(core, SF_INPUT_BUTTON, SF_SEC(700));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_ACTIVE);
	sf_assert_int_eq(r.dpms, SF_DPMS_ON);
	sf_assert_int_eq(r.backlight, 100);
	sf_assert_int_eq(r.mode, 0);
	sf_assert_int_eq(r.reclock, SF_RECLOCK_NORMAL);
	sf_core_destroy(core);
}

SF_TEST(keep_awake_lights_the_display_but_is_no_input)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	sf_test_core_run_until(core, SF_SEC(601));
	sf_assert_int_eq(r.dpms, SF_DPMS_OFF);
	unsigned mode_calls = r.mode_calls;

	/* A video player's screensaver reset: lit again, undimmed, at the
	 * low rate it had. */
	sf_core_notify_keep_awake(core, SF_SEC(610));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_LOW_REFRESH);
	sf_assert_int_eq(r.dpms, SF_DPMS_ON);
	sf_assert_int_eq(r.backlight, 100);
	sf_assert_int_eq(r.mode, 2);
	sf_assert_int_eq(r.mode_calls, mode_calls);
	/* Its heartbeat keeps it so. */
	for (int t = 620; t <= 700; t += 10) {
		sf_core_notify_keep_awake(core, SF_SEC(t));
		sf_test_core_run_until(core, SF_SEC(t));
		sf_assert_int_eq(sf_output_get_state(o),
				 SF_STATE_LOW_REFRESH);
	}
	sf_assert_int_eq(r.mode_calls, mode_calls);
	/* The heartbeat stops: a minute after the last one the stages
	 * count again, each its full timeout from then, as the server's own
	 * screen saver would after a reset. */
	sf_test_core_run_until(core, SF_SEC(879));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_LOW_REFRESH);
	sf_test_core_run_until(core, SF_SEC(881));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_DIM);
	sf_test_core_run_until(core, SF_SEC(1361));
	sf_assert_int_eq(r.dpms, SF_DPMS_OFF);
	sf_core_destroy(core);
}

SF_TEST(destroy_restores_what_the_user_had)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	sf_test_core_run_until(core, SF_SEC(400));
	sf_assert_int_eq(r.dpms, SF_DPMS_STANDBY);
	sf_assert_int_eq(r.mode, 2);
	sf_assert_int_eq(r.reclock, SF_RECLOCK_LOW);
	sf_assert_int_eq(r.backlight, 30);
	sf_core_destroy(core);
	sf_assert_int_eq(r.dpms, SF_DPMS_ON);
	sf_assert_int_eq(r.mode, 0);
	sf_assert_int_eq(r.reclock, SF_RECLOCK_NORMAL);
	sf_assert_int_eq(r.backlight, 100);
	sf_core_destroy(NULL);
}

SF_TEST(disabled_changes_nothing)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "enable",
				       "false", NULL, 0), SF_CONFIG_OK);
	struct sf_core *core = make_core(&r, &cfg, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_surface_set_output(s, o, 0.2, 0);
	for (int i = 0; i < 40; i++) {
		struct sf_box b = { 0, 0, 8, 16 };
		struct sf_commit_desc c = { .time = SF_MSEC(5000 + 500 * i), .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = (uint64_t)(i & 1) };
		sf_surface_commit(s, &c);
		sf_time_t dl;
		sf_assert_int_eq(sf_output_repaint(o, 0, c.time, &dl),
				 SF_REPAINT_NOW);
	}
	sf_test_core_run_until(core, SF_SEC(1000));
	sf_assert_int_eq(r.calls, 0);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, SF_SEC(1000)), 0);
	sf_core_destroy(core);
	sf_assert_int_eq(r.calls, 0);
}

SF_TEST(blink_is_held_while_idle_and_flushed_on_input)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_surface_set_output(s, o, 0.2, 0);

	unsigned held = 0, painted = 0;
	sf_time_t t;
	for (t = SF_SEC(5); t < SF_SEC(20); t += SF_MSEC(500)) {
		struct sf_box b = { 40, 300, 48, 316 };
		struct sf_commit_desc c = {
			.time = t, .boxes = &b, .n_boxes = 1, .has_hash = true,
			.hash = (uint64_t)((t / SF_MSEC(500)) & 1),
			/* Hash 1 shows the 8x16 cursor. */
			.ink = (t / SF_MSEC(500)) & 1 ? 128 : 0,
		};
		sf_test_core_run_until(core, t);
		sf_surface_commit(s, &c);
		sf_time_t dl = 0;
		if (sf_output_repaint(o, 0, t + SF_MSEC(10), &dl) ==
		    SF_REPAINT_DEFER) {
			held++;
			/* Every deferral names a finite flush time. */
			sf_assert(dl > t && dl < SF_TIME_NEVER);
		} else {
			painted++;
		}
	}
	sf_assert_int_eq(sf_surface_get_classification(s)->cls,
			 SF_CLASS_BLINKING);
	sf_assert_int_ge(held, 24);
	sf_assert_int_le(painted, 6);
	/* Its repaints are held, its frame callbacks are not: whatever
	 * else it draws must not wait for the blink's staleness. */
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), 0);

	/* Input: the next repaint shows the held cursor, and if none comes
	 * the core asks for one within a frame of the native 60 Hz, not at
	 * once (the client's answer would miss the frame it took). */
	unsigned before = r.repaint_requests;
	t += SF_MSEC(100);
	sf_core_notify_input(core, SF_INPUT_KEY, t);
	sf_assert_int_eq(r.repaint_requests, before);
	sf_assert(sf_core_next_deadline(core) <= t + SF_MSEC(17));
	sf_test_core_run_until(core, t + SF_MSEC(17));
	sf_assert_int_eq(r.repaint_requests, before + 1);
	sf_time_t dl;
	sf_assert_int_eq(sf_output_repaint(o, 0, t + SF_MSEC(17), &dl),
			 SF_REPAINT_NOW);
	sf_core_destroy(core);
}


/* A blinking cursor for 15 s from t=5 s; returns how many were held. */
static unsigned
blink_for_a_while(struct sf_core *core, struct sf_output *o,
		  struct sf_surface *s, sf_time_t *end)
{
	unsigned held = 0;
	sf_time_t t;
	for (t = SF_SEC(5); t < SF_SEC(20); t += SF_MSEC(500)) {
		struct sf_box b = { 40, 300, 48, 316 };
		struct sf_commit_desc c = {
			.time = t, .boxes = &b, .n_boxes = 1, .has_hash = true,
			.hash = (uint64_t)((t / SF_MSEC(500)) & 1),
			/* Hash 1 shows the 8x16 cursor. */
			.ink = (t / SF_MSEC(500)) & 1 ? 128 : 0,
		};
		sf_test_core_run_until(core, t);
		sf_surface_commit(s, &c);
		sf_time_t dl;
		if (sf_output_repaint(o, 0, t + SF_MSEC(10), &dl) ==
		    SF_REPAINT_DEFER)
			held++;
	}
	*end = t;
	return held;
}

/* A repaint that was waiting on the gate when the key came (Weston asks
 * again and again while it holds) is no reason to paint: painted 0.3 ms
 * after the key, it took the frame Firefox's answer needed 14 ms later,
 * which then came a frame late.  The answer's commit paints, with what
 * was held; without one, the held damage a frame later. */
SF_TEST(input_lets_the_answer_paint_what_was_held)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_surface_set_output(s, o, 0.2, 0);
	sf_time_t t, dl;

	blink_for_a_while(core, o, s, &t);
	sf_assert_int_eq(sf_output_repaint(o, 0, t, &dl), SF_REPAINT_DEFER);
	t += SF_MSEC(100);
	sf_core_notify_input(core, SF_INPUT_KEY, t);
	sf_assert_int_eq(sf_output_repaint(o, 0, t + 300000, &dl),
			 SF_REPAINT_DEFER);
	sf_assert_int_le(dl, t + SF_MSEC(17));
	/* The answer: a line of new text. */
	struct sf_box b = { 40, 300, 400, 316 };
	struct sf_commit_desc c = {
		.time = t + SF_MSEC(14), .boxes = &b, .n_boxes = 1,
		.has_hash = true, .hash = 77,
	};
	sf_test_core_run_until(core, t + SF_MSEC(14));
	sf_surface_commit(s, &c);
	sf_assert_int_eq(sf_output_repaint(o, 0, t + SF_MSEC(14), &dl),
			 SF_REPAINT_NOW);
	sf_core_destroy(core);
}

/* Held blinks reach their deadline with the caret shown or hidden, at
 * random.  Flushed hidden, the next blink (the caret back) had to paint
 * at once: two repaints per deadline, the idle desktop's 3 a minute with
 * a clock and a terminal.  The flush waits, up to 1.5 s, for the blink
 * that shows the caret, and is the deadline's only repaint. */
SF_TEST(a_deadline_flush_comes_with_the_caret_shown)
{
	for (int offset = 0; offset < 2; offset++) {
		struct sf_test_core r;
		struct sf_output *o;
		struct sf_core *core = make_core(&r, NULL, &o);
		struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
		sf_surface_set_output(s, o, 0.2, 0);
		unsigned painted = 0, painted_hidden = 0;

		for (int i = 0; i < 250; i++) {
			/* 500 ms phases; the shown one has the ink. */
			sf_time_t t = SF_SEC(5) + offset * SF_MSEC(250) +
				      i * SF_MSEC(500);
			bool shown = i & 1;
			struct sf_box b = { 40, 300, 48, 316 };
			struct sf_commit_desc c = {
				.time = t, .boxes = &b, .n_boxes = 1,
				.has_hash = true, .hash = shown,
				.ink = shown ? 128 : 0,
			};
			sf_test_core_run_until(core, t);
			sf_surface_commit(s, &c);
			sf_time_t dl;
			if (sf_output_repaint(o, 0, t + SF_MSEC(1), &dl) ==
				    SF_REPAINT_NOW &&
			    t >= SF_SEC(20)) {
				painted++;
				painted_hidden += !shown;
			}
		}
		sf_assert_int_eq(sf_surface_get_classification(s)->cls,
				 SF_CLASS_BLINKING);
		/* 105 s of idle blinking: a flush per 30 s deadline. */
		sf_assert_int_le(painted, 4);
		sf_assert_int_ge(painted, 3);
		sf_assert_int_eq(painted_hidden, 0);
		sf_core_destroy(core);
	}
}

/* foot from 1.25 on (Debian unstable) draws its decorations in eight
 * subsurfaces and commits them, unchanged (empty commits), with each
 * blink of its cursor.  Static themselves, they were held for the 1 s of
 * a redundant commit only, and each second's flush showed the blink:
 * 60 repaints a minute where foot 1.21's window needed none. */
SF_TEST(a_window_part_that_commits_nothing_along_with_a_blink_is_held_as_the_blink)
{
	for (int with_parent = 0; with_parent < 2; with_parent++) {
		struct sf_test_core r;
		struct sf_output *o;
		struct sf_core *core = make_core(&r, NULL, &o);
		struct sf_surface *win = sf_surface_create(core, 800, 600, 0);
		struct sf_surface *deco = sf_surface_create(core, 800, 30, 0);
		sf_surface_set_output(win, o, 0.2, 0);
		sf_surface_set_output(deco, o, 0.02, 0);
		if (with_parent)
			sf_surface_set_parent(deco, win);

		unsigned painted_late = 0;
		sf_time_t t;
		for (t = SF_SEC(5); t < SF_SEC(40); t += SF_MSEC(500)) {
			struct sf_box b = { 40, 300, 48, 316 };
			struct sf_commit_desc c = {
				.time = t, .boxes = &b, .n_boxes = 1,
				.has_hash = true,
				.hash = (uint64_t)((t / SF_MSEC(500)) & 1),
				.ink = (t / SF_MSEC(500)) & 1 ? 128 : 0,
			};
			struct sf_commit_desc empty = { .time = t };
			sf_test_core_run_until(core, t);
			sf_surface_commit(deco, &empty);
			sf_surface_commit(win, &c);
			sf_time_t dl;
			if (sf_output_repaint(o, 0, t + SF_MSEC(10), &dl) ==
				    SF_REPAINT_NOW &&
			    t >= SF_SEC(10))
				painted_late++;
		}
		sf_assert_int_eq(sf_surface_get_classification(win)->cls,
				 SF_CLASS_BLINKING);
		sf_assert_int_eq(sf_surface_get_classification(deco)->cls,
				 SF_CLASS_STATIC);
		/* Held with its window, and since nothing new is held
		 * while the user is away as long as a blink, also as a
		 * surface of its own. */
		sf_assert_int_le(painted_late, 2);
		/* Either can go first. */
		if (with_parent)
			sf_surface_destroy(win);
		sf_surface_destroy(deco);
		if (!with_parent)
			sf_surface_destroy(win);
		sf_core_destroy(core);
	}
}

/* A parent chain is one level: the part of a part belongs to the
 * window; a surface is never its own part. */
SF_TEST(a_part_of_a_part_belongs_to_the_window)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *win = sf_surface_create(core, 800, 600, 0);
	struct sf_surface *a = sf_surface_create(core, 80, 60, 0);
	struct sf_surface *b = sf_surface_create(core, 8, 6, 0);

	sf_surface_set_parent(a, win);
	sf_surface_set_parent(b, a);
	sf_surface_set_parent(win, win);
	sf_surface_set_parent(NULL, win);
	/* b's window goes first, then a: nothing dangles (ASan). */
	sf_surface_destroy(win);
	struct sf_commit_desc empty = { .time = SF_SEC(1) };
	sf_surface_commit(b, &empty);
	sf_surface_destroy(a);
	sf_surface_commit(b, &empty);
	sf_surface_destroy(b);
	sf_core_destroy(core);
}

/* Found by tests/fuzz/fuzz-core: a dark output's held damage kept its
 * flush deadline (input sets it a frame ahead) in
 * sf_core_next_deadline(), but no flush is asked for while dark, so
 * once the deadline passed the core asked to be run at that same
 * instant again and again: a busy loop in the adapter. */
SF_TEST(held_damage_of_a_dark_output_asks_for_no_dispatch)
{
	struct sf_config cfg;
	struct sf_test_core r = { .backlight = 100 };

	sf_config_init_defaults(&cfg);
	struct sf_core *core = sf_core_create(&cfg, &sf_test_core_interface,
					      &r, 0);
	struct sf_output *o = sf_output_create(core, "eDP-1", panel_modes, 3,
					       0, 0);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_surface_set_output(s, o, 0.2, 0);
	sf_time_t t;
	sf_assert_int_gt(blink_for_a_while(core, o, s, &t), 0);

	/* Damage is held when the user turns the output off, then types
	 * (on another screen): held damage is due a frame after input. */
	sf_output_request_power(o, SF_OUTPUT_POWER_OFF, t);
	sf_assert(!sf_output_is_powered(o));
	sf_core_notify_input(core, SF_INPUT_KEY, t);
	sf_assert(!sf_output_is_powered(o));
	sf_core_dispatch(core, t);
	unsigned before = r.repaint_requests;
	for (int i = 0; i < 100; i++) {
		sf_time_t next = sf_core_next_deadline(core);
		if (next > t + SF_SEC(5))
			break;
		/* Each call back is later than the one just served. */
		sf_assert_int_gt(next, t);
		t = next;
		sf_core_dispatch(core, t);
	}
	sf_assert_int_eq(r.repaint_requests, before);
	sf_core_destroy(core);
}

/* Commits as an adapter passes them: `n` damage boxes (0: none), each
 * with its own hash. */
static void
commit_burst(struct sf_surface *s, sf_time_t t, int n, int16_t w, int16_t h)
{
	for (int i = 0; i < n; i++) {
		struct sf_box b = { 0, 0, w, h };
		struct sf_commit_desc c = {
			.time = t,
			.boxes = w ? &b : NULL,
			.n_boxes = w ? 1 : 0,
			.has_hash = true,
			.hash = (uint64_t)i + 1,
		};
		sf_surface_commit(s, &c);
	}
}

/* Found by tests/fuzz/fuzz-core: a measured rate waiting to settle kept
 * its due time while the surface, busy again, had no rate yet; once that
 * time passed, the core asked to choose again at that same instant, over
 * and over, a busy loop in the adapter.  Each call back must be later
 * than the one just served. */
SF_TEST(a_rate_left_unsettled_asks_for_no_dispatch_at_once)
{
	static const struct sf_mode modes[] = {
		{ 1920, 1080, 60000, false, false },
		{ 1920, 1080, 55120, true, false },
		{ 1920, 1080, 24000, false, false },
	};
	struct sf_config cfg;
	struct sf_test_core r = { .backlight = 100 };

	sf_config_init_defaults(&cfg);
	sf_assert_int_eq(sf_config_set(&cfg, SF_CONFIG_NS_INI, "outputs",
				       "all", NULL, 0), SF_CONFIG_OK);
	struct sf_core *core = sf_core_create(&cfg,
		&sf_test_core_interface_no_power, &r, 0);
	struct sf_output *o = sf_output_create(core, "HDMI-A-1", modes, 3,
					       0, 0);
	struct sf_surface *s = sf_surface_create(core, 1280, 720, 0);
	sf_surface_set_output(s, o, 1.0, 0);
	sf_test_core_run_until(core, SF_SEC(51));

	/* Bursts read as a fast animation: a rate to settle in 2 s. */
	sf_time_t t = SF_MSEC(51200);
	commit_burst(s, t, 5, 200, 200);
	sf_core_dispatch(core, t);
	t += SF_MSEC(41);
	commit_burst(s, t, 8, 200, 200);
	sf_core_dispatch(core, t);
	t += SF_MSEC(809);
	commit_burst(s, t, 1, 200, 200);
	sf_core_dispatch(core, t);
	/* Static for a commit of no damage, busy again with no rate. */
	t += SF_MSEC(809);
	commit_burst(s, t, 2, 200, 200);
	commit_burst(s, t, 1, 0, 0);
	commit_burst(s, t, 1, 2, 5);
	sf_core_dispatch(core, t);

	for (int i = 0; i < 100; i++) {
		sf_time_t next = sf_core_next_deadline(core);
		if (next > t + SF_SEC(5))
			break;
		if (next <= t) {
			sf_assert_int_gt(next, t);
			break;
		}
		t = next;
		sf_core_dispatch(core, t);
	}
	sf_surface_destroy(s);
	sf_core_destroy(core);
}

/* A seconds clock that waits for its frame callbacks, as toolkits do.
 * While the user is idle its repaints are held (one a staleness), but
 * its callbacks are not: it ticks on its own cadence, so that anything
 * else it draws is shown at once.  Only a background one is throttled:
 * it then commits only when they are released, and must stay "ticking"
 * rather than fall back to static at each release (which would paint
 * its next ticks and throttle it again). */
SF_TEST(a_tick_is_held_but_only_a_background_one_throttled)
{
	static const enum sf_priority priorities[] = {
		SF_PRIORITY_NORMAL, SF_PRIORITY_BACKGROUND,
	};

	for (size_t k = 0; k < SF_ARRAY_LENGTH(priorities); k++) {
		bool background = priorities[k] == SF_PRIORITY_BACKGROUND;
		struct sf_test_core r;
		struct sf_output *o;
		struct sf_core *core = make_core(&r, NULL, &o);
		struct sf_surface *s = sf_surface_create(core, 1024, 32, 0);
		sf_surface_set_output(s, o, 0.05, 0);
		sf_surface_set_priority(s, priorities[k], 0);

		unsigned commits = 0, painted = 0, lost_class = 0;
		sf_time_t next_allowed = 0, first_tick = 0;
		for (sf_time_t t = SF_SEC(5); t < SF_SEC(125);
		     t += SF_SEC(1)) {
			sf_test_core_run_until(core, t);
			if (t < next_allowed)
				continue;	/* waiting for its callback */
			struct sf_box b = { 976, 0, 992, 32 };
			struct sf_commit_desc c = {
				.time = t, .boxes = &b, .n_boxes = 1,
				.has_hash = true, .hash = (uint64_t)t,
			};
			sf_surface_commit(s, &c);
			commits++;
			sf_time_t dl;
			if (sf_output_repaint(o, 0, t + SF_MSEC(10), &dl) ==
			    SF_REPAINT_NOW)
				painted++;
			enum sf_class cls =
				sf_surface_get_classification(s)->cls;
			if (cls == SF_CLASS_TICKING && !first_tick)
				first_tick = t;
			else if (first_tick && cls != SF_CLASS_TICKING)
				lost_class++;
			sf_time_t interval = sf_surface_get_frame_interval(s, t);
			if (!background)
				sf_assert_int_eq(interval, 0);
			next_allowed = interval > 0 ? t + interval : 0;
		}
		printf("# %s: %u commits, %u painted\n",
		       background ? "background" : "normal", commits, painted);
		sf_assert_int_gt(first_tick, 0);
		sf_assert_int_le(first_tick, SF_SEC(9));
		sf_assert_int_eq(lost_class, 0);
		/* Two minutes: four ticks to be detected, then one paint
		 * a staleness; a background one commits only as often. */
		if (background)
			sf_assert_int_le(commits, 4 + 120 / 30 + 1);
		else
			sf_assert_int_eq(commits, 120);
		sf_assert_int_le(painted, 4 + 120 / 30 + 1);

		/* The user is back: the next tick paints, and a background
		 * one stays throttled. */
		sf_time_t t = SF_SEC(126);
		sf_core_notify_input(core, SF_INPUT_KEY, t);
		sf_assert_int_eq(sf_surface_get_frame_interval(s, t) > 0,
				 background);
		sf_core_destroy(core);
	}
}

/* The Xorg module holds a blinking client and lets it go at each
 * deadline; each release brings its backlog in one commit, once a
 * second, which alone would read as a tick.  Held, it stays blinking;
 * the same commits from a client nobody held make it ticking. */
SF_TEST(a_held_blink_keeps_its_class_through_the_backlog)
{
	static const bool hold_it[] = { false, true };

	for (size_t k = 0; k < SF_ARRAY_LENGTH(hold_it); k++) {
		struct sf_test_core r;
		struct sf_output *o;
		struct sf_core *core = make_core(&r, NULL, &o);
		struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
		sf_time_t t;
		sf_surface_set_output(s, o, 0.2, 0);

		blink_for_a_while(core, o, s, &t);
		sf_assert_int_eq(sf_surface_get_classification(s)->cls,
				 SF_CLASS_BLINKING);
		if (hold_it[k])
			sf_surface_set_held(s, true);
		for (int i = 0; i < 12; i++) {
			t += SF_SEC(1);
			sf_test_core_run_until(core, t);
			if (hold_it[k])
				sf_surface_set_held(s, false);
			struct sf_box b = { 40, 300, 48, 316 };
			struct sf_commit_desc c = {
				.time = t, .boxes = &b, .n_boxes = 1,
				.has_hash = true, .hash = (uint64_t)(100 + i),
			};
			sf_surface_commit(s, &c);
			sf_time_t dl;
			sf_output_repaint(o, 0, t + SF_MSEC(1), &dl);
			if (hold_it[k])
				sf_surface_set_held(s, true);
		}
		printf("# held=%d: %s\n", hold_it[k],
		       sf_class_name(sf_surface_get_classification(s)->cls));
		sf_assert_int_eq(sf_surface_get_classification(s)->cls ==
					 SF_CLASS_BLINKING,
				 hold_it[k]);
		sf_core_destroy(core);
	}
}

/* The Xorg module holds clients, not repaints: only a blinking or
 * ticking surface, with the user away, and never an essential one. */
SF_TEST(only_idle_blinks_and_ticks_may_hold_their_client)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	struct sf_surface *still = sf_surface_create(core, 800, 600, 0);
	sf_time_t end;
	sf_surface_set_output(s, o, 0.2, 0);
	sf_surface_set_output(still, o, 0.2, 0);

	blink_for_a_while(core, o, s, &end);
	sf_assert_int_eq(sf_surface_get_classification(s)->cls,
			 SF_CLASS_BLINKING);
	sf_assert(sf_surface_may_hold_client(s, end));
	sf_assert(!sf_surface_may_hold_client(still, end));
	sf_surface_set_priority(s, SF_PRIORITY_ESSENTIAL, end);
	sf_assert(!sf_surface_may_hold_client(s, end));
	sf_surface_set_priority(s, SF_PRIORITY_NORMAL, end);
	sf_core_notify_input(core, SF_INPUT_KEY, end);
	sf_assert(!sf_surface_may_hold_client(s, end + SF_MSEC(10)));
	sf_core_destroy(core);
}

/* A GTK 3 entry as Weston shows it: its caret blinks 800 ms on and
 * 400 ms off from `start`, is drawn only when the frame callback of its
 * last commit came (Weston answers it at the next repaint, held or not,
 * or the throttle later), and stops blinking with the caret shown after
 * 10 s.  At `flush` another window changes and the output paints (a
 * notification, a line of output): whatever the entry committed last
 * is on screen then, its caret hidden perhaps.  Returns the longest time the
 * screen showed no caret after `from`, up to `until`. */
static sf_time_t
gtk_entry_hides_for(sf_time_t start, sf_time_t flush,
		    sf_time_t from, sf_time_t until, unsigned *repaints)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *entry = sf_surface_create(core, 400, 100, 0);
	struct sf_surface *other = sf_surface_create(core, 800, 600, 0);
	const struct sf_box caret = { 48, 32, 64, 64 };
	const struct sf_box window = { 0, 0, 800, 600 };
	bool state = true, drawn = false, on_screen = false, flushed = false;
	sf_time_t toggle = start + SF_MSEC(800), callback = 0;
	sf_time_t hidden_since = 0, longest = 0;
	unsigned asked = 0;

	sf_surface_set_output(entry, o, 0.05, 0);
	sf_surface_set_output(other, o, 0.4, 0);
	sf_surface_set_focused(entry, true, 0);
	*repaints = 0;
	for (sf_time_t t = start; t <= until; t += SF_MSEC(2)) {
		bool paint = false;
		sf_time_t dl;

		sf_test_core_run_until(core, t);
		if (r.repaint_requests != asked) {	/* a deadline */
			asked = r.repaint_requests;
			paint = true;
		}
		if (t >= toggle && t < start + SF_SEC(10)) {
			state = !state;
			toggle += state ? SF_MSEC(800) : SF_MSEC(400);
		} else if (t >= start + SF_SEC(10)) {
			state = true;
		}
		if ((state != drawn || t == start) && t >= callback) {
			struct sf_commit_desc c = {
				.time = t, .boxes = &caret, .n_boxes = 1,
				.has_hash = true, .hash = state ? 1 : 2,
				.ink = state ? 24 : 0,
			};
			sf_surface_commit(entry, &c);
			drawn = state;
			sf_time_t interval =
				sf_surface_get_frame_interval(entry, t);
			callback = t + (interval > SF_MSEC(16) ?
					interval : SF_MSEC(16));
			paint = true;
		}
		if (t >= flush && !flushed) {
			struct sf_commit_desc w = {
				.time = t, .boxes = &window, .n_boxes = 1,
			};
			sf_surface_commit(other, &w);
			flushed = true;
			paint = true;
		}
		if (paint && sf_output_repaint(o, 0, t, &dl) ==
			     SF_REPAINT_NOW) {
			on_screen = drawn;
			if (t > start + SF_SEC(12))
				(*repaints)++;
		}
		if (on_screen || t < from)
			hidden_since = 0;
		else if (!hidden_since)
			hidden_since = t;
		if (hidden_since && t - hidden_since > longest)
			longest = t - hidden_since;
	}
	sf_core_destroy(core);
	return longest;
}

/* Finding 2 of issue 25: GTK stopped blinking with its caret off screen,
 * and its last frame waited 30 s for a throttled frame callback.  Now
 * the caret is never hidden for longer than GTK hides it (400 ms) and a
 * frame, also after a paint that showed it hidden; and holding still
 * saves: after GTK stops, at most a flush of what was held. */
SF_TEST(a_held_blink_never_leaves_the_caret_hidden)
{
	static const sf_time_t flushes[] = {
		SF_SEC(5), SF_SEC(8), SF_MSEC(9500), SF_SEC(100),
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(flushes); i++) {
		unsigned repaints;
		sf_time_t hidden = gtk_entry_hides_for(
			SF_SEC(1), flushes[i], SF_SEC(1), SF_SEC(75),
			&repaints);
		printf("# flush after %.1f s: hidden at most %.0f ms, "
		       "%u repaints after 13 s\n",
		       (double)flushes[i] / SF_NSEC_PER_SEC,
		       (double)hidden / SF_NSEC_PER_MSEC, repaints);
		sf_assert_int_le(hidden, SF_MSEC(400) + SF_MSEC(20));
		sf_assert_int_le(repaints, 3);
	}
}

/* A terminal as Weston shows it (foot): its caret blinks 500 ms on and
 * 500 ms off, it draws only when the frame callback of its last commit
 * came (Weston answers it with the next repaint, held or not, or the
 * throttle later), and a program in it prints a line every 2 s from
 * `first_line` on, five in all, while the user is idle.  Returns the
 * longest time from a print to the repaint that showed its line; counts
 * the repaints from `quiet` on, when only the caret blinks. */
static sf_time_t
terminal_line_delay(sf_time_t first_line, sf_time_t quiet,
		    sf_time_t until, unsigned *quiet_repaints)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *term = sf_surface_create(core, 800, 600, 0);
	bool state = true, drawn = false;
	sf_time_t toggle = SF_MSEC(500), callback = 0, longest = 0;
	sf_time_t printed = 0;		/* of the line not yet drawn */
	sf_time_t committed = 0;	/* of the line not yet shown */
	unsigned asked = 0, lines = 0, shown = 0;

	sf_surface_set_output(term, o, 0.5, 0);
	sf_surface_set_focused(term, true, 0);
	*quiet_repaints = 0;
	for (sf_time_t t = 0; t <= until; t += SF_MSEC(2)) {
		bool paint = false;
		sf_time_t dl;

		sf_test_core_run_until(core, t);
		if (r.repaint_requests != asked) {	/* a deadline */
			asked = r.repaint_requests;
			paint = true;
		}
		if (t >= toggle) {
			state = !state;
			toggle += SF_MSEC(500);
		}
		if (lines < 5 && !printed &&
		    t >= first_line + SF_SEC(2) * lines) {
			printed = t;
			lines++;
		}
		if ((state != drawn || printed || t == 0) && t >= callback) {
			/* The line, and the caret on the row below it. */
			int row = (int)lines * 16;
			struct sf_box boxes[2] = {
				{ 0, row - 16, 800, row },
				{ 40, row, 48, row + 16 },
			};
			struct sf_commit_desc c = {
				.time = t, .has_hash = true,
				.hash = (uint64_t)(state ? 1 : 2) + 16 * lines,
				.ink = state ? 128 : 0,
			};
			if (printed) {
				c.boxes = boxes;
				c.n_boxes = 2;
				c.has_hash = false;
				committed = printed;
				printed = 0;
			} else {
				c.boxes = &boxes[1];
				c.n_boxes = 1;
			}
			sf_surface_commit(term, &c);
			drawn = state;
			sf_time_t interval =
				sf_surface_get_frame_interval(term, t);
			callback = t + (interval > SF_MSEC(16) ?
					interval : SF_MSEC(16));
			paint = true;
		}
		if (paint && sf_output_repaint(o, 0, t, &dl) ==
			     SF_REPAINT_NOW) {
			if (t >= quiet)
				(*quiet_repaints)++;
			if (committed) {
				if (t - committed > longest)
					longest = t - committed;
				committed = 0;
				shown++;
			}
		}
	}
	/* A line never shown is as late as the run is long. */
	if (shown < 5)
		longest = SF_TIME_NEVER;
	sf_core_destroy(core);
	return longest;
}

/* Found with foot under Weston (issue 25, "nothing but a blink or a
 * tick is ever delayed"): a blinking surface's frame callbacks were held
 * for the blink's staleness while the user was idle, so a line a program
 * printed waited for the held callback, up to 30 s.  They are released
 * with the next repaint while idle: each line is shown within a frame
 * of its print, and the idle blinking still repaints the output about
 * once a staleness. */
SF_TEST(a_blink_s_frame_callbacks_are_released_with_the_next_repaint)
{
	static const sf_time_t firsts[] = {
		SF_SEC(10), SF_MSEC(10250), SF_MSEC(20777),
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(firsts); i++) {
		unsigned quiet_repaints;
		sf_time_t delay = terminal_line_delay(firsts[i], SF_SEC(40),
						      SF_SEC(100),
						      &quiet_repaints);
		printf("# lines from %.2f s: shown at most %.0f ms late, "
		       "%u repaints in 60 s of blinking\n",
		       (double)firsts[i] / SF_NSEC_PER_SEC,
		       delay == SF_TIME_NEVER ? -1.0 :
		       (double)delay / SF_NSEC_PER_MSEC, quiet_repaints);
		/* A frame for the callback, a frame for the repaint. */
		sf_assert_int_le(delay, SF_MSEC(34));
		sf_assert_int_le(quiet_repaints, 60 / 30 + 2);
	}
}

/* The Xorg module holds a blinking client; X shows its drawing as it
 * runs, so the client is held only after it drew the caret. */
SF_TEST(a_blinking_client_is_held_only_after_showing_the_caret)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_time_t t;
	sf_surface_set_output(s, o, 0.2, 0);

	blink_for_a_while(core, o, s, &t);
	sf_assert(sf_surface_may_hold_client(s, t));
	for (int i = 0; i < 4; i++, t += SF_MSEC(500)) {
		bool shown = i % 2;
		struct sf_box b = { 40, 300, 48, 316 };
		struct sf_commit_desc c = {
			.time = t, .boxes = &b, .n_boxes = 1, .has_hash = true,
			.hash = shown ? 1 : 0, .ink = shown ? 128 : 0,
		};
		sf_surface_commit(s, &c);
		sf_assert_int_eq(sf_surface_may_hold_client(s, t), shown);
		/* Its frame callbacks never wait (Weston). */
		sf_assert_int_eq(sf_surface_get_frame_interval(s, t), 0);
	}
	sf_core_destroy(core);
}

/* Found with xterm on Xorg (the idle desktop benchmark): a client let
 * go at its deadline draws the blinks that waited, ending with the
 * caret shown as the screen already showed it.  That draw changes no
 * pixel; it must not make the caret's phase unknown, or the client is
 * held again only after two more blinks of its own. */
SF_TEST(a_blink_drawn_again_unchanged_keeps_its_phase)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	struct sf_box b = { 40, 300, 48, 316 };
	sf_time_t t;
	sf_surface_set_output(s, o, 0.2, 0);

	blink_for_a_while(core, o, s, &t);
	struct sf_commit_desc hidden = {
		.time = t, .boxes = &b, .n_boxes = 1, .has_hash = true,
		.hash = 0, .ink = 0,
	};
	sf_surface_commit(s, &hidden);
	sf_assert(!sf_surface_may_hold_client(s, t));
	t += SF_MSEC(500);
	struct sf_commit_desc shown = {
		.time = t, .boxes = &b, .n_boxes = 1, .has_hash = true,
		.hash = 1, .ink = 128,
	};
	sf_surface_commit(s, &shown);
	sf_assert(sf_surface_may_hold_client(s, t));
	/* Held, then let go at its deadline. */
	sf_surface_set_held(s, true);
	t += SF_SEC(30);
	sf_surface_set_held(s, false);
	struct sf_commit_desc same = {
		.time = t, .boxes = &b, .n_boxes = 1, .unchanged = true,
	};
	sf_surface_commit(s, &same);
	sf_assert(sf_surface_may_hold_client(s, t));
	sf_core_destroy(core);
}

SF_TEST(essential_surfaces_are_never_held_or_throttled)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_surface_set_output(s, o, 0.2, 0);
	sf_surface_set_priority(s, SF_PRIORITY_ESSENTIAL, 0);
	sf_time_t end;

	sf_assert_int_eq(blink_for_a_while(core, o, s, &end), 0);
	sf_assert_int_eq(sf_surface_get_classification(s)->cls,
			 SF_CLASS_BLINKING);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, end), 0);

	/* Back to normal: held again, as background throttled again. */
	sf_surface_set_priority(s, SF_PRIORITY_NORMAL, end);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, end), 0);
	struct sf_box b = { 40, 300, 48, 316 };
	struct sf_commit_desc c = {
		.time = end, .boxes = &b, .n_boxes = 1, .has_hash = true,
		.hash = 0, .ink = 0,
	};
	sf_test_core_run_until(core, end);
	sf_surface_commit(s, &c);
	sf_time_t dl;
	sf_assert_int_eq(sf_output_repaint(o, 0, end + SF_MSEC(10), &dl),
			 SF_REPAINT_DEFER);
	sf_surface_set_priority(s, SF_PRIORITY_BACKGROUND, end);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, end), SF_SEC(30));
	sf_core_destroy(core);
}

/* `frames` frames at `fps` of a small part of a surface from `t`, the
 * user idle; with `late_callbacks`, every third frame an empty commit (a
 * player whose frame callbacks come late).  Returns the time after. */
static sf_time_t
play_frames(struct sf_core *core, struct sf_surface *s, sf_time_t t,
	    int fps, int frames, bool late_callbacks)
{
	struct sf_box b = { 0, 0, 64, 64 };

	for (int f = 0; f < frames; f++, t += SF_SEC(1) / fps) {
		struct sf_commit_desc c = { .time = t, .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = (uint64_t)f };
		struct sf_commit_desc empty = { .time = t };
		sf_test_core_run_until(core, t);
		sf_surface_commit(s, late_callbacks && f % 3 == 2 ? &empty : &c);
	}
	return t;
}

/* A 24 fps video for `secs` seconds, unfocused, its callbacks late. */
static sf_time_t
play_24fps(struct sf_core *core, struct sf_surface *s, sf_time_t t,
	   int secs)
{
	return play_frames(core, s, t, 24, 24 * secs, true);
}

SF_TEST(videos_are_never_throttled_or_held)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 200, 200, 0);
	sf_surface_set_output(s, o, 0.02, 0);
	sf_surface_set_focused(s, false, 0);

	/* Not known as a video: an unfocused animation, throttled to
	 * background-frame-rate while the user is idle, and its empty
	 * commits held. */
	sf_time_t t = play_24fps(core, s, SF_SEC(10), 5);
	sf_assert_int_eq(sf_surface_get_classification(s)->cls,
			 SF_CLASS_ANIMATING);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), SF_MSEC(200));
	struct sf_commit_desc empty = { .time = t };
	sf_output_repaint(o, 0, t, NULL);
	sf_surface_commit(s, &empty);
	sf_assert_int_eq(sf_output_repaint(o, 0, t, NULL), SF_REPAINT_DEFER);

	/* Its client holds an idle inhibitor on it, as players do. */
	sf_surface_inhibit(s, t);
	t = play_24fps(core, s, t, 2);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), 0);
	sf_assert(!sf_surface_may_hold_client(s, t));
	sf_output_repaint(o, 0, t, NULL);
	empty.time = t;
	sf_surface_commit(s, &empty);
	sf_assert_int_eq(sf_output_repaint(o, 0, t, NULL), SF_REPAINT_NOW);
	sf_surface_uninhibit(s, t);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), SF_MSEC(200));

	/* Its client holds one on another of its surfaces. */
	sf_surface_set_client_inhibiting(s, true);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), 0);
	sf_assert(!sf_surface_may_hold_client(s, t));
	sf_surface_set_client_inhibiting(s, false);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), SF_MSEC(200));

	/* Its client says it is video (wp_content_type). */
	sf_surface_set_content_type(s, SF_CONTENT_VIDEO, t);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), 0);
	sf_output_repaint(o, 0, t, NULL);
	sf_surface_commit(s, &empty);
	sf_assert_int_eq(sf_output_repaint(o, 0, t, NULL), SF_REPAINT_NOW);
	sf_surface_set_content_type(s, SF_CONTENT_NONE, t);

	/* The classifier's video: large frames at a video cadence. */
	struct sf_surface *v = sf_surface_create(core, 1280, 720, t);
	sf_surface_set_output(v, o, 0.5, t);
	struct sf_box b = { 0, 0, 1280, 720 };
	for (int f = 0; f < 24 * 5; f++, t += SF_SEC(1) / 24) {
		struct sf_commit_desc c = { .time = t, .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = (uint64_t)f };
		sf_test_core_run_until(core, t);
		sf_surface_commit(v, &c);
	}
	sf_assert_int_eq(sf_surface_get_classification(v)->cls,
			 SF_CLASS_VIDEO);
	sf_assert_int_eq(sf_surface_get_frame_interval(v, t), 0);
	/* Asked to be background, it is throttled like any animation. */
	sf_surface_set_priority(v, SF_PRIORITY_BACKGROUND, t);
	sf_assert_int_eq(sf_surface_get_frame_interval(v, t), SF_MSEC(200));
	sf_core_destroy(core);
}

SF_TEST(rare_commits_may_read_larger_damage)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	cfg.hash_max_area_px = 10000;
	struct sf_core *core = make_core(&r, &cfg, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_surface_set_output(s, o, 0.5, 0);
	struct sf_box b = { 0, 0, 800, 600 };
	struct sf_commit_desc c = { .time = SF_SEC(1), .boxes = &b,
				    .n_boxes = 1 };

	/* Nothing before: the first frame of a window is read only when
	 * small. */
	sf_assert_int_eq(sf_surface_pixel_read_limit(s, SF_SEC(1)), 10000);
	sf_surface_commit(s, &c);
	/* Within a 60 Hz frame, or at the same time: hash-max-area. */
	sf_assert_int_eq(sf_surface_pixel_read_limit(s, SF_SEC(1)), 10000);
	sf_assert_int_eq(sf_surface_pixel_read_limit(s, SF_SEC(1) +
						      SF_MSEC(10)), 10000);
	/* Ten frames later, ten times as much: the same pixels a second. */
	sf_assert_int_eq(sf_surface_pixel_read_limit(s, SF_SEC(1) +
						      SF_SEC(10) / 60), 100000);
	/* A second apart (a clock redrawn whole), and longer: 60 times. */
	sf_assert_int_eq(sf_surface_pixel_read_limit(s, SF_SEC(2)), 600000);
	sf_assert_int_eq(sf_surface_pixel_read_limit(s, SF_SEC(100)), 600000);
	sf_core_destroy(core);

	/* hash-max-area 0 never reads. */
	cfg.hash_max_area_px = 0;
	core = make_core(&r, &cfg, &o);
	s = sf_surface_create(core, 800, 600, 0);
	sf_surface_commit(s, &c);
	sf_assert_int_eq(sf_surface_pixel_read_limit(s, SF_SEC(5)), 0);
	sf_core_destroy(core);
}

SF_TEST(background_surfaces_are_throttled_even_when_focused)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 200, 200, 0);
	sf_surface_set_output(s, o, 0.02, 0);
	sf_surface_set_focused(s, true, 0);

	struct sf_box b = { 0, 0, 64, 64 };
	sf_time_t t = 0;
	for (int f = 0; f < 120; f++, t += SF_SEC(1) / 60) {
		sf_core_notify_input(core, SF_INPUT_KEY, t);
		struct sf_commit_desc c = { .time = t, .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = (uint64_t)f };
		sf_surface_commit(s, &c);
	}
	sf_assert_int_eq(sf_surface_get_classification(s)->cls,
			 SF_CLASS_INTERACTIVE);
	/* The user is typing into it: normal priority never throttles. */
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), 0);
	/* Now an animation nobody needs smooth. */
	for (int f = 0; f < 120; f++, t += SF_SEC(1) / 60) {
		struct sf_commit_desc c = { .time = t, .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = (uint64_t)f };
		sf_surface_commit(s, &c);
	}
	sf_assert_int_eq(sf_surface_get_classification(s)->cls,
			 SF_CLASS_ANIMATING);
	sf_surface_set_priority(s, SF_PRIORITY_BACKGROUND, t);
	sf_assert_int_eq(sf_surface_get_frame_interval(s, t), SF_MSEC(200));
	sf_core_destroy(core);
}

/* An animation at 60 fps in `s` for `frames` frames from `t`, the user
 * idle.  Returns the time after. */
static sf_time_t
animate(struct sf_core *core, struct sf_surface *s, sf_time_t t, int frames)
{
	return play_frames(core, s, t, 60, frames, false);
}

/* Firefox draws its page into a sub-surface; the key goes to the
 * toplevel.  Judged per surface, a focused page's animation was an
 * unfocused one and throttled to background-frame-rate while the user
 * read it: 9 frames a second on screen where stock showed 36. */
SF_TEST(a_part_of_the_focused_window_is_never_throttled_while_it_animates)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *win = sf_surface_create(core, 800, 600, 0);
	struct sf_surface *page = sf_surface_create(core, 800, 560, 0);
	struct sf_surface *other = sf_surface_create(core, 400, 300, 0);

	sf_surface_set_output(win, o, 0.2, 0);
	sf_surface_set_output(page, o, 0.2, 0);
	sf_surface_set_output(other, o, 0.05, 0);
	sf_surface_set_parent(page, win);
	sf_surface_set_focused(win, true, 0);
	sf_time_t t = animate(core, page, SF_SEC(5), 300);
	animate(core, other, SF_SEC(5), 300);
	sf_assert_int_eq(sf_surface_get_classification(page)->cls,
			 SF_CLASS_ANIMATING);
	sf_assert(sf_surface_in_focused_window(page));
	sf_assert_int_eq(sf_surface_get_frame_interval(page, t), 0);
	/* Another window's animation is the unfocused one. */
	sf_assert(!sf_surface_in_focused_window(other));
	sf_assert_int_gt(sf_surface_get_frame_interval(other, t), 0);

	/* The focus moves away: the page is throttled as its window. */
	sf_surface_set_focused(win, false, t);
	sf_surface_set_focused(other, true, t);
	sf_assert(!sf_surface_in_focused_window(page));
	sf_assert_int_gt(sf_surface_get_frame_interval(page, t), 0);
	sf_assert_int_eq(sf_surface_get_frame_interval(other, t), 0);
	sf_surface_destroy(win);
	sf_surface_destroy(page);
	sf_surface_destroy(other);
	sf_core_destroy(core);
}

/* A menu's popup takes the keyboard while the window stays the user's:
 * the window, and every part of it, is focused while the popup is. */
SF_TEST(a_focused_popup_keeps_its_window_focused)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *win = sf_surface_create(core, 800, 600, 0);
	struct sf_surface *page = sf_surface_create(core, 800, 560, 0);
	struct sf_surface *menu = sf_surface_create(core, 200, 300, 0);

	sf_surface_set_parent(page, win);
	/* The popup may have the focus before its first commit names its
	 * window. */
	sf_surface_set_focused(menu, true, 0);
	sf_assert(!sf_surface_in_focused_window(page));
	sf_surface_set_parent(menu, win);
	sf_assert(sf_surface_in_focused_window(win));
	sf_assert(sf_surface_in_focused_window(page));
	sf_surface_set_focused(menu, false, SF_SEC(1));
	sf_assert(!sf_surface_in_focused_window(page));
	sf_surface_set_focused(menu, true, SF_SEC(2));
	sf_assert(sf_surface_in_focused_window(page));
	/* The popup goes: its window is no longer focused through it. */
	sf_surface_destroy(menu);
	sf_assert(!sf_surface_in_focused_window(win));
	sf_assert(!sf_surface_in_focused_window(page));
	/* A part that leaves its window takes its focus along. */
	sf_surface_set_focused(page, true, SF_SEC(3));
	sf_assert(sf_surface_in_focused_window(win));
	sf_surface_set_parent(page, NULL);
	sf_assert(!sf_surface_in_focused_window(win));
	sf_assert(sf_surface_in_focused_window(page));
	sf_surface_destroy(win);
	sf_surface_destroy(page);
	sf_core_destroy(core);
}

/* essential-apps matches a toplevel's app_id; a sub-surface has none.
 * A window marked essential, or background, is so in every part, unless
 * a part says otherwise itself; a content type given to the toplevel
 * holds for the video its player shows in a sub-surface. */
SF_TEST(a_part_takes_its_window_s_priority_and_content_type)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *win = sf_surface_create(core, 800, 600, 0);
	struct sf_surface *part = sf_surface_create(core, 800, 560, 0);

	sf_surface_set_output(win, o, 0.2, 0);
	sf_surface_set_output(part, o, 0.2, 0);
	sf_surface_set_parent(part, win);
	sf_time_t t = animate(core, part, SF_SEC(5), 300);
	sf_assert_int_gt(sf_surface_get_frame_interval(part, t), 0);
	sf_surface_set_priority(win, SF_PRIORITY_ESSENTIAL, t);
	sf_assert_int_eq(sf_surface_get_frame_interval(part, t), 0);
	sf_assert(!sf_surface_may_hold_client(part, t));
	/* The part's own word wins. */
	sf_surface_set_priority(part, SF_PRIORITY_BACKGROUND, t);
	sf_assert_int_eq(sf_surface_get_frame_interval(part, t), SF_MSEC(200));
	sf_surface_set_priority(part, SF_PRIORITY_NORMAL, t);
	sf_surface_set_priority(win, SF_PRIORITY_BACKGROUND, t);
	sf_assert_int_eq(sf_surface_get_frame_interval(part, t), SF_MSEC(200));
	sf_surface_set_priority(win, SF_PRIORITY_NORMAL, t);
	sf_surface_set_content_type(win, SF_CONTENT_VIDEO, t);
	sf_assert_int_eq(sf_surface_get_frame_interval(part, t), 0);
	sf_surface_destroy(win);
	/* Its window gone, the part is its own again. */
	sf_assert_int_gt(sf_surface_get_frame_interval(part, t), 0);
	sf_surface_destroy(part);
	sf_core_destroy(core);
}

/* Feeds one 60 fps frame the way an adapter does: reads the pixels only
 * when the core asks, and then reports whether they changed.  Returns
 * whether they were read. */
static bool
commit_frame(struct sf_surface *s, sf_time_t t, bool same_pixels,
	     uint64_t frame)
{
	struct sf_box b = { 0, 0, 200, 200 };
	bool read = sf_surface_should_read_pixels(s);
	struct sf_commit_desc c = { .time = t, .boxes = &b, .n_boxes = 1 };

	if (read && same_pixels)
		c.unchanged = true;
	else if (read)
		c = (struct sf_commit_desc){ .time = t, .boxes = &b,
					     .n_boxes = 1, .has_hash = true,
					     .hash = frame };
	sf_surface_commit(s, &c);
	return read;
}

SF_TEST(an_animation_is_read_by_samples_until_it_repeats_itself)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 200, 200, 0);
	sf_surface_set_output(s, o, 0.05, 0);

	sf_time_t t = 0;
	uint64_t f = 0;
	for (; f < 120; f++, t += SF_SEC(1) / 60)
		commit_frame(s, t, false, f);
	enum sf_class cls = sf_surface_get_classification(s)->cls;
	sf_assert(cls == SF_CLASS_ANIMATING || cls == SF_CLASS_VIDEO);
	/* Animating at 60 fps: two reads in every 256 commits (the 240 of
	 * SF_PIXEL_SAMPLE_INTERVAL_MS, up to a power of two). */
	const unsigned period = 256;
	sf_assert_int_eq(SF_PIXEL_SAMPLE_INTERVAL_MS, 4000);
	unsigned reads = 0;
	for (unsigned i = 0; i < 4 * period; i++, f++,
	     t += SF_SEC(1) / 60)
		reads += commit_frame(s, t, false, f);
	sf_assert_int_eq(reads, 8);
	/* It starts committing the same pixels: the next sampled read sees
	 * it, and from then on every commit is read, and found unchanged. */
	unsigned unread_after_repeat = 0, read_since = 0;
	bool repeated = false;
	for (unsigned i = 0; i < 4 * period; i++, f++,
	     t += SF_SEC(1) / 60) {
		bool read = commit_frame(s, t, true, f);
		if (repeated && !read)
			unread_after_repeat++;
		if (read && repeated)
			read_since++;
		if (read)
			repeated = true;
	}
	sf_assert(repeated);
	sf_assert_int_eq(unread_after_repeat, 0);
	sf_assert(read_since > 2 * period);
	sf_assert(sf_surface_get_stats(s)->identical > 2 * period);
	/* Changed again: back to samples. */
	reads = 0;
	for (unsigned i = 0; i < 4 * period; i++, f++,
	     t += SF_SEC(1) / 60)
		reads += commit_frame(s, t, false, f);
	/* The same pixels over and over reached the screen as nothing: it
	 * was static.  Moving again, it is read until it is classed
	 * animating at its rate (some 20 frames), then by samples. */
	sf_assert(reads <= 32);
	sf_core_destroy(core);
}

/* kitty commits its whole window twice for each blink of its cursor,
 * 0.3 ms apart, the same pixels.  The second commit, read against a
 * per-frame limit the first had just used, was not read: two commits
 * 0.3 ms apart with the whole window damaged read as a video, and the
 * blinks were never held.  The budget saved over the blink's 500 ms
 * reads both; the second is identical, no frame to the classifier. */
SF_TEST(a_blink_committed_twice_in_a_row_is_a_blink)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 640, 400, 0);
	sf_surface_set_output(s, o, 0.4, 0);
	struct sf_box b = { 0, 0, 640, 400 };
	struct sf_box cell = { 40, 300, 48, 316 };
	unsigned unread = 0;

	for (int i = 0; i < 40; i++) {
		sf_time_t t = SF_SEC(5) + i * SF_MSEC(500);
		bool shown = i & 1;
		for (int again = 0; again < 2; again++) {
			sf_time_t at = t + again * (SF_MSEC(1) * 3 / 10);
			bool read = sf_surface_pixel_read_limit(s, at) >=
				    sf_box_area(&b);
			/* As the adapter reports what it read: the
			 * tiles that changed, or no change at all. */
			struct sf_commit_desc c = {
				.time = at, .boxes = &b, .n_boxes = 1,
			};
			if (read && again) {
				c.unchanged = true;
			} else if (read) {
				c.boxes = &cell;
				c.has_hash = true;
				c.hash = shown;
				c.ink = shown ? 120 : 0;
			}
			unread += !read && i > 0;
			sf_test_core_run_until(core, at);
			sf_surface_commit(s, &c);
		}
	}
	sf_assert_int_eq(unread, 0);
	sf_assert_int_eq(sf_surface_get_classification(s)->cls,
			 SF_CLASS_BLINKING);
	sf_core_destroy(core);
}

SF_TEST(pause_restores_and_resume_starts_active)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_surface_set_output(s, o, 0.2, 0);
	sf_time_t end;

	sf_assert_int_gt(blink_for_a_while(core, o, s, &end), 10);
	sf_assert_int_eq(r.mode, 2);
	sf_assert_int_eq(r.reclock, SF_RECLOCK_LOW);

	/* Paused: the user's mode and clocks are back, held damage is
	 * flushed, and nothing is held any more. */
	unsigned requests = r.repaint_requests;
	sf_core_set_paused(core, true, end);
	sf_assert(sf_core_is_paused(core));
	sf_assert_int_eq(r.mode, 0);
	sf_assert_int_eq(r.reclock, SF_RECLOCK_NORMAL);
	sf_assert_int_eq(r.dpms, SF_DPMS_ON);
	sf_time_t dl;
	sf_assert_int_eq(sf_output_repaint(o, 0, end, &dl), SF_REPAINT_NOW);
	sf_assert_int_ge(r.repaint_requests, requests);
	/* Long idle while paused: no stage acts. */
	unsigned calls = r.calls;
	sf_test_core_run_until(core, end + SF_SEC(1200));
	sf_assert_int_eq(r.calls, calls);
	sf_assert_int_eq(r.dpms, SF_DPMS_ON);

	/* Resumed: ACTIVE, and the stages run again from now. */
	sf_time_t back = end + SF_SEC(1200);
	sf_core_set_paused(core, false, back);
	sf_assert(!sf_core_is_paused(core));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_ACTIVE);
	sf_test_core_run_until(core, back + SF_SEC(5));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_LOW_REFRESH);
	sf_assert_int_eq(r.mode, 2);
	sf_core_destroy(core);
}

SF_TEST(held_damage_is_flushed_at_its_deadline)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 800, 600, 0);
	sf_surface_set_output(s, o, 0.2, 0);

	/* An identical commit while idle: held as long as a blink would
	 * be (nothing new is shown late), then flushed. */
	struct sf_box b = { 0, 0, 10, 10 };
	struct sf_commit_desc c1 = { .time = SF_SEC(10), .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = 7 };
	struct sf_commit_desc c2 = { .time = SF_SEC(11), .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = 7 };
	sf_test_core_run_until(core, SF_SEC(10));
	sf_surface_commit(s, &c1);
	sf_time_t dl;
	sf_output_repaint(o, 0, SF_SEC(10), &dl);
	sf_assert_int_eq(sf_surface_commit(s, &c2), SF_COMMIT_IDENTICAL);
	sf_assert_int_eq(sf_output_repaint(o, 0, SF_SEC(11), &dl),
			 SF_REPAINT_DEFER);
	sf_assert_int_eq(dl, SF_SEC(41));
	unsigned before = r.repaint_requests;
	sf_test_core_run_until(core, SF_SEC(41));
	sf_assert_int_eq(r.repaint_requests, before + 1);
	sf_assert_int_eq(sf_output_repaint(o, 0, SF_SEC(41), &dl),
			 SF_REPAINT_NOW);
	sf_assert_int_eq(sf_output_get_stats(o)->stale_flushes, 1);
	sf_core_destroy(core);
}

SF_TEST(inhibitor_keeps_the_screen_on)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	sf_output_inhibit(o, 0);
	sf_test_core_run_until(core, SF_SEC(3600));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_LOW_REFRESH);
	sf_assert_int_eq(r.dpms, SF_DPMS_ON);
	sf_assert_int_eq(r.backlight, 100);
	sf_output_uninhibit(o, SF_SEC(3600));
	/* Unbalanced uninhibit is a bug report, not a crash. */
	sf_output_uninhibit(o, SF_SEC(3600));
	sf_assert_str_contains(r.last_error, "uninhibited more often");
	sf_test_core_run_until(core, SF_SEC(3600 + 121));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_DIM);
	sf_core_destroy(core);
}

SF_TEST(failed_mode_switch_is_logged_and_not_retried)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	r.mode_fails = true;
	sf_test_core_run_until(core, SF_SEC(5));
	sf_assert_int_eq(r.mode_calls, 1);
	sf_assert_str_contains(r.last_error, "output eDP-1");
	sf_assert_str_contains(r.last_error, "failed");
	sf_assert_int_eq(sf_output_get_mode(o), 0);
	sf_core_notify_input(core, SF_INPUT_KEY, SF_SEC(6));
	sf_test_core_run_until(core, SF_SEC(20));
	sf_assert_int_eq(r.mode_calls, 1);
	sf_core_destroy(core);
}

SF_TEST(paused_video_stops_keeping_clocks_up)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *v = sf_surface_create(core, 1280, 720, 0);
	sf_surface_set_output(v, o, 0.5, 0);

	struct sf_box b = { 0, 0, 1280, 720 };
	sf_time_t t = SF_SEC(2);
	for (int f = 0; f < 24 * 10; f++, t = SF_SEC(2) + SF_SEC(f) / 24) {
		struct sf_commit_desc c = { .time = t, .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = (uint64_t)f };
		sf_test_core_run_until(core, t);
		sf_surface_commit(v, &c);
	}
	sf_assert_int_eq(sf_surface_get_classification(v)->cls,
			 SF_CLASS_VIDEO);
	/* 24 fps lands on 48 Hz, and the GPU stays up while it plays. */
	sf_assert_int_eq(r.mode, 1);
	sf_assert_int_eq(r.reclock, SF_RECLOCK_NORMAL);

	/* Paused: no commits.  The class decays and the clocks drop. */
	sf_test_core_run_until(core, t + SF_SEC(10));
	sf_assert_int_eq(sf_surface_get_classification(v)->cls,
			 SF_CLASS_STATIC);
	sf_assert_int_eq(r.mode, 2);
	sf_assert_int_eq(r.reclock, SF_RECLOCK_LOW);
	sf_core_destroy(core);
}

/* A frame-callback animation that runs a little under 60 fps hitches
 * once while the user is idle: the output stays at 60 Hz.  It used to
 * fall to 30 Hz while the rate was measured again, and the animation,
 * paced by the output, then measured 30 fps and kept it there. */
SF_TEST(an_animation_s_hitch_does_not_drop_its_refresh)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 250, 250, 0);
	sf_surface_set_output(s, o, 0.06, 0);
	sf_surface_set_focused(s, true, 0);

	struct sf_box b = { 0, 0, 250, 250 };
	sf_time_t t = SF_MSEC(100);
	for (int f = 0; f < 1200; f++) {
		/* One frame 250 ms late, after the output went idle. */
		t += f == 600 ? SF_MSEC(250) : SF_MSEC(17) + 800000;
		struct sf_commit_desc c = { .time = t, .boxes = &b,
					    .n_boxes = 1, .has_hash = true,
					    .hash = (uint64_t)f };
		sf_test_core_run_until(core, t);
		sf_surface_commit(s, &c);
		sf_output_repaint(o, 0, t, NULL);
		if (f == 590)
			sf_assert(sf_output_get_stats(o)->state ==
				  SF_STATE_LOW_REFRESH);
		sf_assert_int_eq(sf_output_get_stats(o)->refresh_mhz, 60000);
	}
	sf_core_destroy(core);
}

/* The text status's refresh line for eDP-1, in mHz. */
static unsigned
status_refresh_mhz(struct sf_core *core, sf_time_t now)
{
	char buf[8192];
	struct sf_buffer_writer bw;
	unsigned mhz = 0;

	sf_buffer_writer_init(&bw, buf, sizeof(buf));
	sf_core_write_status(core, now, SF_STATUS_TEXT, &bw.writer);
	const char *line = strstr(buf, "output.eDP-1.refresh_mhz ");
	if (line)
		sscanf(line, "output.eDP-1.refresh_mhz %u", &mhz);
	return mhz;
}

/* Issue 25, Xorg finding 9: the user set 48 Hz (xrandr) while the core
 * had the panel at 30 Hz; input raised it to the 60 Hz the core
 * remembered, and pause "put back" 60 Hz. */
SF_TEST(a_mode_the_user_set_is_the_one_kept_and_put_back)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	sf_test_core_run_until(core, SF_SEC(5));
	sf_assert_int_eq(r.mode, 2);
	unsigned calls = r.mode_calls;

	/* As the adapter scans them again: the user's mode first and
	 * preferred, the others at its resolution after it. */
	static const struct sf_mode user[] = {
		{ 1920, 1080, 48000, true, true },
		{ 1920, 1080, 60000, true, false },
		{ 1920, 1080, 30000, true, false },
	};
	sf_assert(sf_output_set_modes(o, user, 3, 0, SF_SEC(5)));
	sf_assert_int_eq(r.mode_calls, calls);	/* no hook from inside */
	sf_assert_int_eq(sf_output_get_mode(o), 0);
	sf_assert_int_eq(status_refresh_mhz(core, SF_SEC(5)), 48000);
	/* Still idle: the user's mode is shown for the dwell, then the
	 * rate drops within the new list. */
	sf_test_core_run_until(core, SF_SEC(6));
	sf_assert_int_eq(r.mode_calls, calls);
	sf_test_core_run_until(core, SF_SEC(8));
	sf_assert_int_eq(r.mode, 2);
	sf_assert_int_eq(status_refresh_mhz(core, SF_SEC(8)), 30000);
	/* Input: the user's 48 Hz, not the 60 Hz of before. */
	sf_core_notify_input(core, SF_INPUT_POINTER, SF_SEC(9));
	sf_core_dispatch(core, SF_SEC(9));
	sf_assert_int_eq(r.mode, 0);
	sf_assert_int_eq(sf_output_get_mode(o), 0);
	/* Idle again, then paused: 48 Hz is what goes back. */
	sf_test_core_run_until(core, SF_SEC(20));
	sf_assert_int_eq(r.mode, 2);
	sf_core_set_paused(core, true, SF_SEC(20));
	sf_assert_int_eq(r.mode, 0);
	sf_core_set_paused(core, false, SF_SEC(21));
	sf_test_core_run_until(core, SF_SEC(30));
	sf_assert_int_eq(r.mode, 2);
	/* And at exit. */
	sf_core_destroy(core);
	sf_assert_int_eq(r.mode, 0);
}

/* The user moved to another resolution: the core chooses among its
 * modes, and a switch that had failed (the old mode no longer fitted
 * the screen) is tried again rather than given up for good. */
SF_TEST(a_new_resolution_replaces_the_modes_and_a_failed_switch_is_retried)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	r.mode_fails = true;
	sf_test_core_run_until(core, SF_SEC(5));
	sf_assert_int_eq(r.mode_calls, 1);
	sf_assert_int_eq(sf_output_get_mode(o), 0);
	sf_assert_int_eq(status_refresh_mhz(core, SF_SEC(5)), 60000);

	static const struct sf_mode smaller[] = {
		{ 1280, 720, 60000, true, true },
		{ 1280, 720, 30000, true, false },
	};
	r.mode_fails = false;
	sf_assert(sf_output_set_modes(o, smaller, 2, 0, SF_SEC(5)));
	sf_assert_int_le(sf_core_next_deadline(core), SF_SEC(5));
	sf_test_core_run_until(core, SF_SEC(10));
	sf_assert_int_eq(r.mode_calls, 2);
	sf_assert_int_eq(r.mode, 1);
	sf_assert_int_eq(status_refresh_mhz(core, SF_SEC(10)), 30000);
	size_t n;
	const struct sf_mode *m = sf_output_get_modes(o, &n);
	sf_assert_int_eq(n, 2);
	sf_assert_int_eq(m[sf_output_get_mode(o)].width, 1280);
	sf_core_notify_input(core, SF_INPUT_KEY, SF_SEC(11));
	sf_assert_int_eq(r.mode, 0);

	/* A list without a current mode is refused and changes nothing. */
	sf_assert(!sf_output_set_modes(o, smaller, 0, 0, SF_SEC(12)));
	sf_assert(!sf_output_set_modes(o, smaller, 2, 2, SF_SEC(12)));
	sf_assert_str_contains(r.last_error, "no valid current mode");
	m = sf_output_get_modes(o, &n);
	sf_assert_int_eq(n, 2);
	sf_assert_int_eq(m[0].height, 720);
	sf_core_destroy(core);
	sf_assert_int_eq(r.mode, 0);
}

SF_TEST(status_names_outputs_and_surfaces)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 100, 100, 0);
	char buf[8192];
	struct sf_buffer_writer bw;

	sf_surface_set_label(s, "xclock");
	sf_surface_set_output(s, o, 0.01, 0);
	/* Past low-refresh-timeout (5 s), and new-window-native (3 s),
	 * which holds a new window's output at native. */
	sf_test_core_run_until(core, SF_SEC(6));
	sf_buffer_writer_init(&bw, buf, sizeof(buf));
	sf_core_write_status(core, SF_SEC(6), SF_STATUS_TEXT, &bw.writer);
	sf_assert_str_contains(buf, "output.eDP-1.state low-refresh\n");
	sf_assert_str_contains(buf, "output.eDP-1.refresh_mhz 30000\n");
	sf_assert_str_contains(buf, "label=xclock");
	sf_buffer_writer_init(&bw, buf, sizeof(buf));
	sf_core_write_status(core, SF_SEC(6), SF_STATUS_PROMETHEUS,
			     &bw.writer);
	sf_assert_str_contains(buf, "stillframe_refresh_hertz{output=\"eDP-1\"} 30.000");
	sf_surface_destroy(s);
	sf_surface_destroy(NULL);
	sf_output_destroy(NULL);
	sf_core_destroy(core);
}

/* --- the demo scenario through the replay engine --- */

#define DEMO_SECONDS 705

struct demo_run {
	struct sf_replay *replay;
	struct sf_replay_report at[DEMO_SECONDS + 1];
	bool ok;
};

static void
demo_report(void *data, const struct sf_replay_report *rep)
{
	struct demo_run *d = data;
	int64_t s = rep->time / SF_NSEC_PER_SEC;

	if (s >= 0 && s <= DEMO_SECONDS)
		d->at[s] = *rep;
}

static bool
demo_emit(void *data, const struct sf_trace_event *ev)
{
	struct demo_run *d = data;
	char err[256];

	d->ok = sf_replay_feed(d->replay, ev, err, sizeof(err));
	if (!d->ok)
		printf("# %s\n", err);
	return d->ok;
}

SF_TEST(hint_outside_a_repaint_is_served_at_the_next_dispatch)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 1920, 1080, 0);
	sf_surface_set_output(s, o, 1.0, 0);

	/* Idle: down to 30 Hz. */
	sf_test_core_run_until(core, SF_SEC(10));
	sf_assert_int_eq(r.mode, 2);
	/* A player announces 24 fps: the core asks to be run at once, not
	 * at the next timer, and raises the rate when it is. */
	sf_surface_set_content_rate(s, 24, 1, SF_SEC(10));
	sf_assert_int_le(sf_core_next_deadline(core), SF_SEC(10));
	sf_core_dispatch(core, SF_SEC(10));
	sf_assert_int_eq(r.mode, 1);
	sf_assert_int_gt(sf_core_next_deadline(core), SF_SEC(10));
	sf_core_destroy(core);
}

/* The default core with the panel running its 30 Hz mode from the
 * start, as a run that died at low refresh leaves it. */
static struct sf_core *
make_core_at_30hz(struct sf_test_core *r, struct sf_output **o)
{
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	*r = (struct sf_test_core){ .backlight = 100, .mode = 2 };
	struct sf_core *core = sf_core_create(&cfg,
		&sf_test_core_interface_no_power, r, 0);
	*o = sf_output_create(core, "eDP-1", panel_modes, 3, 2, 0);
	return core;
}

/* The mode an output has when it appears is the user's, its native
 * one: input, resuming and a busy surface never take it above, though
 * the panel prefers 60 Hz.  (fuzz-core once found such an output left at
 * 30 Hz while the user typed; that was when the panel's preferred mode
 * was taken for native.) */
SF_TEST(an_output_created_at_a_low_rate_keeps_the_user_s_rate)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core_at_30hz(&r, &o);

	sf_core_notify_input(core, SF_INPUT_KEY, SF_MSEC(10));
	sf_core_dispatch(core, SF_MSEC(10));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_ACTIVE);
	sf_assert_int_eq(r.mode_calls, 0);
	sf_assert_int_eq(sf_output_get_mode(o), 2);

	sf_core_set_paused(core, true, SF_MSEC(20));
	sf_core_set_paused(core, false, SF_MSEC(30));
	sf_core_dispatch(core, SF_MSEC(30));
	sf_assert_int_eq(sf_output_get_state(o), SF_STATE_ACTIVE);
	sf_assert_int_eq(r.mode_calls, 0);

	struct sf_surface *s = sf_surface_create(core, 1920, 1080, 0);
	sf_surface_set_output(s, o, 1.0, SF_MSEC(30));
	struct sf_box b = { 0, 0, 1920, 1080 };
	for (sf_time_t t = SF_SEC(1); t < SF_SEC(20); t += SF_MSEC(16)) {
		struct sf_commit_desc c = { .time = t, .boxes = &b,
					    .n_boxes = 1 };
		sf_test_core_run_until(core, t);
		sf_surface_commit(s, &c);
		sf_output_repaint(o, 0, t, NULL);
	}
	sf_assert_int_eq(r.mode_calls, 0);
	sf_core_destroy(core);
}

SF_TEST(demo_scenario_decisions)
{
	static struct demo_run d;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	struct sf_replay_options opt = {
		.config = &cfg,
		.report_interval = SF_SEC(1),
		.report = demo_report,
		.data = &d,
	};
	d.replay = sf_replay_create(&opt);
	sf_assert(sf_scenario_demo(demo_emit, &d));
	sf_replay_run_until(d.replay, SF_SEC(DEMO_SECONDS));

	/* Typing: awake at the native rate, nothing held. */
	sf_assert_int_eq(d.at[5].state, SF_STATE_ACTIVE);
	sf_assert_int_eq(d.at[5].refresh_mhz, 60000);
	sf_assert_int_eq(d.at[5].suppressed, 0);
	/* Idle desktop: low refresh, clocks down, cursor and clock held. */
	sf_assert_int_eq(d.at[30].state, SF_STATE_LOW_REFRESH);
	sf_assert_int_eq(d.at[30].refresh_mhz, 30000);
	sf_assert_int_eq(d.at[30].reclock, SF_RECLOCK_LOW);
	sf_assert_int_ge(d.at[30].suppressed, 2);
	sf_assert_int_le(d.at[30].repaints, 1);
	/* Video: 24 fps at 48 Hz, painted, clocks up. */
	sf_assert_int_eq(d.at[50].refresh_mhz, 48000);
	sf_assert_int_ge(d.at[50].repaints, 23);
	sf_assert_int_eq(d.at[50].reclock, SF_RECLOCK_NORMAL);
	/* Pointer: native rate at once. */
	sf_assert_int_eq(d.at[65].state, SF_STATE_ACTIVE);
	sf_assert_int_eq(d.at[65].refresh_mhz, 60000);
	/* Long idle: dim, standby, off. */
	sf_assert_int_eq(d.at[200].state, SF_STATE_DIM);
	sf_assert_int_eq(d.at[200].backlight, 30);
	sf_assert_int_eq(d.at[400].dpms, SF_DPMS_STANDBY);
	sf_assert_int_eq(d.at[690].dpms, SF_DPMS_OFF);
	sf_assert_int_eq(d.at[690].repaints, 0);
	/* Back at 700 s: everything restored. */
	sf_assert_int_eq(d.at[701].state, SF_STATE_ACTIVE);
	sf_assert_int_eq(d.at[701].dpms, SF_DPMS_ON);
	sf_assert_int_eq(d.at[701].backlight, 100);
	sf_assert_int_eq(d.at[701].refresh_mhz, 60000);
	sf_assert_int_eq(d.at[701].reclock, SF_RECLOCK_NORMAL);
	/* The estimate says it saved energy. */
	sf_assert(d.at[DEMO_SECONDS].energy.actual_j <
		  0.8 * d.at[DEMO_SECONDS].energy.baseline_j);
	sf_replay_destroy(d.replay);
}

/* --- refresh changes are rare and never above native --- */

/* fake-KMS's modes (tests/weston/fake-kms.c): the user runs the
 * preferred 60 Hz. */
static const struct sf_mode kms_modes[] = {
	{ 1920, 1080, 120000, true, false },
	{ 1920, 1080, 60000, false, true },
	{ 1920, 1080, 48000, true, false },
	{ 1920, 1080, 30000, true, false },
};
/* The X dummy's with the modelines tests/xorg adds; none preferred, the
 * user runs 85 Hz. */
static const struct sf_mode x_modes[] = {
	{ 1280, 1024, 85000, true, false },
	{ 1280, 1024, 75000, true, false },
	{ 1280, 1024, 72000, true, false },
	{ 1280, 1024, 60000, true, false },
	{ 1280, 1024, 48000, true, false },
	{ 1280, 1024, 30000, true, false },
};

static struct sf_core *
make_core_with(struct sf_test_core *r, const struct sf_mode *modes,
	       size_t n_modes, size_t current, struct sf_output **o)
{
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	*r = (struct sf_test_core){ .backlight = 100, .mode = current };
	struct sf_core *core = sf_core_create(&cfg,
		&sf_test_core_interface_no_power, r, 0);
	*o = sf_output_create(core, "eDP-1", modes, n_modes, current, 0);
	return core;
}

/* One frame of a surface: the whole of it, new pixels. */
static void
frame_at(struct sf_core *core, struct sf_output *o, struct sf_surface *s,
	 int32_t w, int32_t h, sf_time_t t, uint64_t n)
{
	struct sf_box b = { 0, 0, w, h };
	struct sf_commit_desc c = { .time = t, .boxes = &b, .n_boxes = 1,
				    .has_hash = true, .hash = n };

	sf_test_core_run_until(core, t);
	sf_surface_commit(s, &c);
	sf_output_repaint(o, 0, t, NULL);
}

static uint32_t
refresh_now(const struct sf_output *o)
{
	return sf_output_get_stats(o)->refresh_mhz;
}

/* Finding 5: any input during a 24 fps video picked 120 Hz, above the
 * user's 60 Hz, where 24 fps plays exactly. */
SF_TEST(input_during_a_video_stays_at_the_user_s_rate)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core_with(&r, kms_modes, 4, 1, &o);
	struct sf_surface *s = sf_surface_create(core, 1920, 1080, 0);
	sf_surface_set_output(s, o, 1.0, 0);

	sf_time_t t = SF_MSEC(100);
	for (uint64_t f = 0; t < SF_SEC(40); f++) {
		t += SF_SEC(1) / 24;
		if (f % 48 == 0 && t > SF_SEC(15))
			sf_core_notify_input(core, SF_INPUT_KEY, t);
		frame_at(core, o, s, 1920, 1080, t, f);
		sf_assert_int_le(refresh_now(o), 60000);
	}
	sf_core_destroy(core);
}

/* Finding 5: a Chromium CSS animation read anywhere from 40 to 57 fps
 * and the output switched 60 <-> 120 Hz every 2 s.  Idle, not one
 * switch in a minute: the rate never holds still long enough. */
SF_TEST(a_wandering_animation_does_not_hunt)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core_with(&r, kms_modes, 4, 1, &o);
	struct sf_surface *s = sf_surface_create(core, 400, 300, 0);
	sf_surface_set_output(s, o, 0.06, 0);

	/* 1.5 s phases at 57, 40, 50 and 44 fps. */
	static const sf_time_t intervals[] = {
		((sf_time_t)17544 * 1000), ((sf_time_t)25000 * 1000), ((sf_time_t)20000 * 1000),
		((sf_time_t)22727 * 1000),
	};
	sf_time_t t = SF_MSEC(100);
	uint64_t switches = 0;
	for (uint64_t f = 0; t < SF_SEC(70); f++) {
		t += intervals[(t / SF_MSEC(1500)) % 4];
		if (t < SF_SEC(10))
			switches = sf_output_get_stats(o)->mode_switches;
		frame_at(core, o, s, 400, 300, t, f);
		sf_assert_int_le(refresh_now(o), 60000);
	}
	sf_assert_int_le(sf_output_get_stats(o)->mode_switches - switches, 1);
	sf_core_destroy(core);
}

/* Finding 10: mpv at 24 fps with 85/75/72/60/48/30 Hz modes went 48 ->
 * 75 Hz on a single "25 Hz" reading, and 48 -> 30 -> 48 once.  Odd
 * seconds here: at 25 fps, catching up at the output's 48 Hz, a stall. */
SF_TEST(a_video_s_odd_frames_do_not_move_its_mode)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core_with(&r, x_modes, 6, 0, &o);
	struct sf_surface *s = sf_surface_create(core, 1280, 1024, 0);
	sf_surface_set_output(s, o, 1.0, 0);

	sf_time_t t = SF_MSEC(100);
	for (uint64_t f = 0; t < SF_SEC(90); f++) {
		sf_time_t second = t / SF_SEC(1);
		sf_time_t d = SF_SEC(1) / 24;
		if (second % 15 == 7)
			d = SF_MSEC(40);	/* a second at 25 fps */
		else if (second % 15 == 3 && t % SF_SEC(1) < SF_MSEC(400))
			d = SF_SEC(1) / 48;	/* catching up at 48 fps */
		else if (second % 15 == 12 && (t % SF_SEC(1)) < d)
			d = SF_MSEC(1500);	/* a stall */
		t += d;
		frame_at(core, o, s, 1280, 1024, t, f);
	}
	sf_assert_int_eq(refresh_now(o), 48000);
	sf_assert_int_eq(sf_output_get_stats(o)->mode_switches, 1);
	sf_core_destroy(core);
}

/* Stop 23's "frame-callback feedback loop", finding 11: an animation
 * that starts while the output is at 30 Hz and draws on frame callbacks
 * draws 30 fps, which read as its rate kept the output at 30 Hz for
 * good.  At the output's own low rate a reading says nothing: native. */
SF_TEST(an_animation_paced_by_the_low_rate_gets_native)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);
	struct sf_surface *s = sf_surface_create(core, 400, 300, 0);
	sf_surface_set_output(s, o, 0.06, 0);

	sf_test_core_run_until(core, SF_SEC(10));
	sf_assert_int_eq(refresh_now(o), 30000);
	sf_time_t t = SF_SEC(10);
	for (uint64_t f = 0; t < SF_SEC(40); f++) {
		/* The next frame callback: one refresh later. */
		t += SF_SEC(1000) / refresh_now(o);
		frame_at(core, o, s, 400, 300, t, f);
		if (t > SF_SEC(15))
			sf_assert_int_eq(refresh_now(o), 60000);
	}
	sf_core_destroy(core);
}

/* Finding 11: Chromium reads the refresh rate as it starts; a window
 * shown while the output is idle runs at native for new-window-native
 * (3 s), and then the output drops again. */
SF_TEST(a_new_window_runs_at_native_for_its_first_seconds)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	sf_test_core_run_until(core, SF_SEC(10));
	sf_assert_int_eq(refresh_now(o), 30000);
	struct sf_surface *s = sf_surface_create(core, 400, 300, SF_SEC(10));
	sf_surface_set_output(s, o, 0.06, SF_SEC(10));
	sf_test_core_run_until(core, SF_SEC(10));
	sf_assert_int_eq(refresh_now(o), 60000);
	sf_test_core_run_until(core, SF_SEC(13) - 1);
	sf_assert_int_eq(refresh_now(o), 60000);
	sf_test_core_run_until(core, SF_SEC(13));
	sf_assert_int_eq(refresh_now(o), 30000);
	/* Hidden and shown again, it is no longer new. */
	sf_surface_set_output(s, o, 0, SF_SEC(20));
	sf_surface_set_output(s, o, 0.06, SF_SEC(21));
	sf_test_core_run_until(core, SF_SEC(21));
	sf_assert_int_eq(refresh_now(o), 30000);
	sf_core_destroy(core);
}

SF_TEST_MAIN()

/* libweston 13 and later cannot switch modes inside their repaint, where
 * the core decides: the Weston plugin takes the switch on and carries
 * it out right after.  When it fails then, the core must know the mode
 * the output still runs, and stop changing it as for a switch refused
 * at once. */
SF_TEST(a_switch_that_fails_later_leaves_the_mode_running)
{
	struct sf_test_core r;
	struct sf_output *o;
	struct sf_core *core = make_core(&r, NULL, &o);

	sf_test_core_run_until(core, SF_SEC(5));
	sf_assert_int_eq(r.mode_calls, 1);
	size_t taken = sf_output_get_mode(o);
	sf_assert_int_ne(taken, 0);
	/* The adapter's later switch failed: the output runs mode 0. */
	sf_output_mode_switch_failed(o, 0, SF_SEC(5));
	sf_assert_int_eq(sf_output_get_mode(o), 0);
	sf_assert_str_contains(r.last_error, "failed");
	sf_assert_int_eq(status_refresh_mhz(core, SF_SEC(5)), 60000);
	/* No more switches until the modes change. */
	sf_core_notify_input(core, SF_INPUT_KEY, SF_SEC(6));
	sf_test_core_run_until(core, SF_SEC(20));
	sf_assert_int_eq(r.mode_calls, 1);
	/* A mode index out of range changes nothing. */
	sf_output_mode_switch_failed(o, 99, SF_SEC(20));
	sf_output_mode_switch_failed(NULL, 0, SF_SEC(20));
	sf_assert_int_eq(sf_output_get_mode(o), 0);
	sf_core_destroy(core);
}
