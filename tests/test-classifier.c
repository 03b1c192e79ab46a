/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "sf-classifier.h"
#include "sf-test.h"

/*
 * Synthetic traces of real update patterns, each run through the tracker
 * and classified after every commit, as the core does.  A case states
 * the class it must reach, by when, with what period or rate, and which
 * classes it must never show on the way.
 */

#define MAX_EVENTS 4096

struct event {
	sf_time_t time;
	bool input;
	struct sf_box box;
	bool has_hash;
	uint64_t hash;
};

struct trace {
	int32_t width, height;
	struct event ev[MAX_EVENTS];
	size_t n;
};

static void
add_commit(struct trace *t, sf_time_t time, struct sf_box box, bool has_hash,
	   uint64_t hash)
{
	if (t->n < MAX_EVENTS)
		t->ev[t->n++] = (struct event){ time, false, box, has_hash,
						hash };
}

static void
add_input(struct trace *t, sf_time_t time)
{
	if (t->n < MAX_EVENTS)
		t->ev[t->n++] = (struct event){ .time = time, .input = true };
}

/* Deterministic jitter in [-amp, amp]. */
static sf_time_t
jitter(uint32_t *seed, sf_time_t amp)
{
	*seed = *seed * 1103515245u + 12345u;
	if (amp == 0)
		return 0;
	return (sf_time_t)((*seed >> 8) % (uint32_t)(2 * amp + 1)) - amp;
}

static const struct sf_box cursor_cell = { 400, 300, 410, 320 };

/* A text cursor: on for `on`, off for `off`, from `start` for `length`. */
static void
gen_blink(struct trace *t, sf_time_t start, sf_time_t length, sf_time_t on,
	  sf_time_t off, bool hashed)
{
	sf_time_t now = start;
	for (int phase = 0; now < start + length; phase ^= 1) {
		add_commit(t, now, cursor_cell, hashed, phase ? 0xb1 : 0xa1);
		now += phase ? off : on;
	}
}

static void
gen_xterm(struct trace *t)
{
	gen_blink(t, SF_SEC(1), SF_SEC(20), SF_MSEC(600), SF_MSEC(300), true);
}

static void
gen_xterm_unhashed(struct trace *t)
{
	gen_blink(t, SF_SEC(1), SF_SEC(20), SF_MSEC(600), SF_MSEC(300), false);
}

static void
gen_gtk(struct trace *t)
{
	/* GTK: a 1200 ms cycle, 2/3 on, 1/3 off, and it gives up after
	 * 10 s without input. */
	gen_blink(t, SF_SEC(1), SF_SEC(10), SF_MSEC(800), SF_MSEC(400), true);
}

static void
gen_foot(struct trace *t)
{
	gen_blink(t, SF_SEC(1), SF_SEC(20), SF_MSEC(500), SF_MSEC(500), true);
}

static void
gen_foot_unhashed(struct trace *t)
{
	gen_blink(t, SF_SEC(1), SF_SEC(20), SF_MSEC(500), SF_MSEC(500), false);
}

static void
gen_seconds_clock(struct trace *t)
{
	struct sf_box digits = { 700, 4, 716, 20 };
	uint32_t seed = 1;
	/* Timers fire a little late, never early. */
	for (int s = 0; s < 30; s++) {
		sf_time_t late = jitter(&seed, SF_MSEC(10)) + SF_MSEC(10);
		add_commit(t, SF_SEC(1 + s) + late, digits, true, 1000 + s);
	}
}

static void
gen_seconds_clock_unhashed(struct trace *t)
{
	struct sf_box digits = { 700, 4, 716, 20 };
	for (int s = 0; s < 30; s++)
		add_commit(t, SF_SEC(1 + s), digits, false, 0);
}

static void
gen_colon_alone(struct trace *t)
{
	/* Only the colon of "12:34" is redrawn: two states, a blink. */
	struct sf_box colon = { 720, 4, 724, 20 };
	for (int i = 0; i < 40; i++)
		add_commit(t, SF_SEC(1) + SF_MSEC(500) * i, colon, true,
			   (i & 1) ? 0xc0 : 0xc1);
}

static void
gen_colon_with_seconds(struct trace *t)
{
	/* "12:34:56" redrawn whole: the colons blink every 0.5 s and the
	 * seconds move on every second, so no state repeats. */
	struct sf_box label = { 680, 4, 744, 20 };
	for (int i = 0; i < 40; i++)
		add_commit(t, SF_SEC(1) + SF_MSEC(500) * i, label, true,
			   0x5000 + (uint64_t)i);
}

static void
gen_video(struct trace *t, uint32_t rate_mhz)
{
	struct sf_box frame = { 0, 0, 1920, 1080 };
	sf_time_t length = SF_SEC(5);
	for (uint64_t i = 0;; i++) {
		sf_time_t now = SF_SEC(1) + (sf_time_t)(i * 1000000000000ull /
							rate_mhz);
		if (now > SF_SEC(1) + length)
			break;
		add_commit(t, now, frame, false, 0);
	}
}

static void gen_video_23976(struct trace *t) { gen_video(t, 23976); }
static void gen_video_24(struct trace *t) { gen_video(t, 24000); }
static void gen_video_25(struct trace *t) { gen_video(t, 25000); }
static void gen_video_30(struct trace *t) { gen_video(t, 30000); }
static void gen_video_60(struct trace *t) { gen_video(t, 60000); }

/* 60 fps with one frame in twenty dropped (or merged into the next, as
 * an X server's frame gathering may): still 60 fps. */
static void
gen_video_60_drops(struct trace *t)
{
	struct sf_box frame = { 0, 0, 1920, 1080 };
	for (int i = 0; i < 300; i++)
		if (i % 20 != 7)
			add_commit(t, SF_SEC(1) + i * SF_NSEC_PER_SEC / 60,
				   frame, false, 0);
}

static void
gen_spinner(struct trace *t)
{
	/* A 32x32 busy spinner at 60 fps: animating, not video. */
	struct sf_box box = { 100, 100, 132, 132 };
	for (int i = 0; i < 300; i++)
		add_commit(t, SF_SEC(1) + i * SF_NSEC_PER_SEC / 60, box, true,
			   (uint64_t)i % 12);
}

/* Typing: a key, then the echo a few ms later one cell to the right. */
static void
gen_typing_at(struct trace *t, sf_time_t start, sf_time_t length)
{
	uint32_t seed = 7;
	sf_time_t now = start;
	for (int col = 0; now < start + length; col++) {
		add_input(t, now);
		struct sf_box cell = { 10 * col, 300, 10 * col + 10, 320 };
		add_commit(t, now + SF_MSEC(4), cell, true, 0x7000 + col);
		now += SF_MSEC(220) + jitter(&seed, SF_MSEC(120));
	}
}

static void
gen_typing(struct trace *t)
{
	gen_typing_at(t, SF_SEC(1), SF_SEC(10));
}

static void
gen_typing_then_foot(struct trace *t)
{
	gen_typing_at(t, SF_SEC(1), SF_SEC(3));
	/* foot resumes blinking half a period after the last key. */
	gen_blink(t, SF_SEC(4) + SF_MSEC(500), SF_SEC(10), SF_MSEC(500),
		  SF_MSEC(500), true);
}

static void
gen_scrolling(struct trace *t)
{
	/* Touchpad scrolling: axis events at 60 Hz, the whole view damaged
	 * after each. */
	struct sf_box view = { 0, 0, 800, 600 };
	for (int i = 0; i < 120; i++) {
		sf_time_t now = SF_SEC(1) + i * SF_NSEC_PER_SEC / 60;
		add_input(t, now);
		add_commit(t, now + SF_MSEC(3), view, true, 0x900 + (uint64_t)i);
	}
}

static void
gen_log_tail(struct trace *t)
{
	/* `tail -f` of a log written every 5 s: the terminal scrolls one
	 * line. */
	struct sf_box view = { 0, 0, 800, 600 };
	for (int i = 0; i < 12; i++)
		add_commit(t, SF_SEC(1 + 5 * i), view, true, 0x100 + (uint64_t)i);
}

static void
gen_log_tail_line(struct trace *t)
{
	/* The same, drawn as one new line at the bottom. */
	struct sf_box line = { 0, 580, 800, 600 };
	for (int i = 0; i < 12; i++)
		add_commit(t, SF_SEC(1 + 5 * i), line, true, 0x200 + (uint64_t)i);
}

static void
gen_large_flash(struct trace *t)
{
	/* A banner flashing the whole window: regular, two states, but
	 * far from small. */
	struct sf_box view = { 0, 0, 800, 600 };
	for (int i = 0; i < 20; i++)
		add_commit(t, SF_SEC(1) + SF_MSEC(500) * i, view, true,
			   (i & 1) ? 1 : 2);
}

static void
gen_analog_clock(struct trace *t)
{
	/* xclock -update 1, 164x164: the second hand's old and new
	 * positions redraw about a third of the window every second. */
	struct sf_box face = { 8, 8, 156, 76 };
	uint32_t seed = 7;
	for (int s = 0; s < 30; s++) {
		sf_time_t late = jitter(&seed, SF_MSEC(10)) + SF_MSEC(5);
		add_commit(t, SF_SEC(1 + s) + late, face, true, 5000 + s);
	}
}

static void
gen_clock_after_first_frame(struct trace *t)
{
	/* xclock maps with a full redraw, and its first tick comes a
	 * second later: the big first frame must not hide the ticks. */
	struct sf_box all = { 0, 0, 164, 164 };
	add_commit(t, SF_MSEC(50), all, true, 1);
	gen_analog_clock(t);
}

static void
gen_slideshow(struct trace *t)
{
	/* A new picture over the whole window every second. */
	struct sf_box view = { 0, 0, 800, 600 };
	for (int s = 0; s < 30; s++)
		add_commit(t, SF_SEC(1 + s), view, true, 9000 + s);
}

struct classifier_case {
	const char *name;
	void (*gen)(struct trace *t);
	int32_t width, height;
	enum sf_class expect;
	/* Must be reached by this time and then held while commits come. */
	sf_time_t detect_by;
	sf_time_t period;		/* BLINKING/TICKING, 0: unchecked */
	uint32_t rate_mhz;		/* ANIMATING/VIDEO, 0: unchecked */
	uint32_t never;			/* bitmask of classes never shown */
	/* When the trace stops: STATIC no later than this after the last
	 * commit (0: unchecked). */
	sf_time_t static_after;
};

#define BIT(c) (1u << (c))
#define NOT_PATTERN (BIT(SF_CLASS_BLINKING) | BIT(SF_CLASS_TICKING))

static const struct classifier_case cases[] = {
	{ "xterm 600/300", gen_xterm, 800, 600, SF_CLASS_BLINKING,
	  SF_SEC(1) + 3 * SF_MSEC(900), SF_MSEC(900), 0,
	  BIT(SF_CLASS_TICKING) | BIT(SF_CLASS_VIDEO), SF_MSEC(1801) },
	{ "xterm 600/300 without hashes", gen_xterm_unhashed, 800, 600,
	  SF_CLASS_BLINKING, SF_SEC(1) + 3 * SF_MSEC(900), SF_MSEC(900), 0,
	  BIT(SF_CLASS_VIDEO), 0 },
	{ "GTK 1200 ms, stops after 10 s", gen_gtk, 800, 600, SF_CLASS_BLINKING,
	  SF_SEC(1) + 3 * SF_MSEC(1200), SF_MSEC(1200), 0,
	  BIT(SF_CLASS_TICKING), SF_MSEC(2401) },
	{ "foot 500 ms", gen_foot, 800, 600, SF_CLASS_BLINKING,
	  SF_SEC(1) + 3 * SF_SEC(1), SF_SEC(1), 0, BIT(SF_CLASS_TICKING),
	  SF_MSEC(2001) },
	{ "foot 500 ms without hashes", gen_foot_unhashed, 800, 600,
	  SF_CLASS_TICKING, SF_SEC(1) + 3 * SF_SEC(1), SF_MSEC(500), 0,
	  BIT(SF_CLASS_BLINKING), 0 },
	{ "seconds clock", gen_seconds_clock, 1920, 24, SF_CLASS_TICKING,
	  SF_SEC(1) + 3 * SF_SEC(1) + SF_MSEC(20), SF_SEC(1), 0,
	  BIT(SF_CLASS_BLINKING), SF_MSEC(2001) },
	{ "seconds clock without hashes", gen_seconds_clock_unhashed, 1920,
	  24, SF_CLASS_TICKING, SF_SEC(4), SF_SEC(1), 0,
	  BIT(SF_CLASS_BLINKING), 0 },
	{ "blinking colon alone", gen_colon_alone, 1920, 24, SF_CLASS_BLINKING,
	  SF_SEC(1) + 3 * SF_SEC(1), SF_SEC(1), 0, BIT(SF_CLASS_TICKING), 0 },
	{ "blinking colon with seconds", gen_colon_with_seconds, 1920, 24,
	  SF_CLASS_TICKING, SF_SEC(1) + 3 * SF_MSEC(500), SF_MSEC(500), 0,
	  BIT(SF_CLASS_BLINKING), 0 },
	{ "video 23.976 fps", gen_video_23976, 1920, 1080, SF_CLASS_VIDEO,
	  SF_SEC(1) + 3 * SF_MSEC(42) + 1, 0, 23976, NOT_PATTERN,
	  SF_MSEC(1201) },
	{ "video 24 fps", gen_video_24, 1920, 1080, SF_CLASS_VIDEO,
	  SF_SEC(1) + 3 * SF_MSEC(42), 0, 24000, NOT_PATTERN, SF_MSEC(1201) },
	{ "video 25 fps", gen_video_25, 1920, 1080, SF_CLASS_VIDEO,
	  SF_SEC(1) + 3 * SF_MSEC(40), 0, 25000, NOT_PATTERN, 0 },
	{ "video 30 fps", gen_video_30, 1920, 1080, SF_CLASS_VIDEO,
	  SF_SEC(1) + 3 * SF_MSEC(34), 0, 30000, NOT_PATTERN, 0 },
	{ "video 60 fps", gen_video_60, 1920, 1080, SF_CLASS_VIDEO,
	  SF_SEC(1) + 3 * SF_MSEC(17), 0, 60000, NOT_PATTERN, 0 },
	{ "video 60 fps, a frame in 20 dropped", gen_video_60_drops, 1920,
	  1080, SF_CLASS_VIDEO, SF_SEC(1) + 3 * SF_MSEC(17), 0, 60000,
	  NOT_PATTERN, 0 },
	{ "spinner 60 fps", gen_spinner, 800, 600, SF_CLASS_ANIMATING,
	  SF_SEC(1) + 3 * SF_MSEC(17), 0, 60000, NOT_PATTERN, 0 },
	{ "typing", gen_typing, 800, 600, SF_CLASS_INTERACTIVE, SF_SEC(1) +
	  SF_MSEC(5), 0, 0, NOT_PATTERN | BIT(SF_CLASS_ANIMATING) |
	  BIT(SF_CLASS_VIDEO), SF_MSEC(1201) },
	{ "scrolling", gen_scrolling, 800, 600, SF_CLASS_INTERACTIVE,
	  SF_SEC(1) + SF_MSEC(5), 0, 0, NOT_PATTERN, 0 },
	{ "log tail every 5 s", gen_log_tail, 800, 600, SF_CLASS_STATIC,
	  SF_SEC(1), 0, 0, ~BIT(SF_CLASS_STATIC), 0 },
	{ "log tail, one line every 5 s", gen_log_tail_line, 800, 600,
	  SF_CLASS_STATIC, SF_SEC(1), 0, 0, ~BIT(SF_CLASS_STATIC), 0 },
	{ "large flashing banner", gen_large_flash, 800, 600, SF_CLASS_STATIC,
	  SF_SEC(1), 0, 0, NOT_PATTERN, 0 },
	{ "analog clock, a third of a small window", gen_analog_clock, 164,
	  164, SF_CLASS_TICKING, SF_SEC(1) + 3 * SF_SEC(1) + SF_MSEC(20),
	  SF_SEC(1), 0, BIT(SF_CLASS_BLINKING), SF_MSEC(2001) },
	{ "analog clock right after its first frame",
	  gen_clock_after_first_frame, 164, 164, SF_CLASS_TICKING,
	  SF_SEC(1) + 3 * SF_SEC(1) + SF_MSEC(20), SF_SEC(1), 0,
	  BIT(SF_CLASS_BLINKING), SF_MSEC(2001) },
	{ "slideshow, one picture a second", gen_slideshow, 800, 600,
	  SF_CLASS_STATIC, SF_SEC(1), 0, 0, NOT_PATTERN, 0 },
};

/* Runs one case; returns a failure message or NULL. */
static const char *
run_case(const struct classifier_case *c, char *msg, size_t size)
{
	static struct trace t;
	struct sf_classifier_params params;
	struct sf_surface_activity act;
	struct sf_classification cls = { 0 };
	sf_time_t last_input = 0, detected = -1, last_commit = 0;

	t.n = 0;
	c->gen(&t);
	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, c->width, c->height);

	for (size_t i = 0; i < t.n; i++) {
		const struct event *e = &t.ev[i];
		if (e->input) {
			last_input = e->time;
			continue;
		}
		struct sf_commit_desc d = { .time = e->time, .boxes = &e->box,
					    .n_boxes = 1,
					    .has_hash = e->has_hash,
					    .hash = e->hash };
		sf_surface_activity_record(&act, &d);
		sf_classify(&params, &act, last_input, e->time, &cls);
		last_commit = e->time;

		if (c->never & BIT(cls.cls)) {
			snprintf(msg, size, "%s: %s at %.3f s", c->name,
				 sf_class_name(cls.cls),
				 (double)e->time / SF_NSEC_PER_SEC);
			return msg;
		}
		if (detected < 0 && cls.cls == c->expect)
			detected = e->time;
		if (detected >= 0 && cls.cls != c->expect) {
			snprintf(msg, size, "%s: fell back to %s at %.3f s",
				 c->name, sf_class_name(cls.cls),
				 (double)e->time / SF_NSEC_PER_SEC);
			return msg;
		}
	}
	if (detected < 0 || detected > c->detect_by) {
		snprintf(msg, size, "%s: %s reached at %.3f s, wanted by %.3f s",
			 c->name, sf_class_name(c->expect),
			 (double)detected / SF_NSEC_PER_SEC,
			 (double)c->detect_by / SF_NSEC_PER_SEC);
		return msg;
	}
	if (c->period) {
		sf_time_t d = cls.period - c->period;
		if (d < -SF_MSEC(15) || d > SF_MSEC(15)) {
			snprintf(msg, size, "%s: period %.1f ms, wanted %.1f",
				 c->name, (double)cls.period / SF_NSEC_PER_MSEC,
				 (double)c->period / SF_NSEC_PER_MSEC);
			return msg;
		}
	}
	if (c->rate_mhz && cls.rate_mhz != c->rate_mhz) {
		snprintf(msg, size, "%s: rate %u mHz, wanted %u", c->name,
			 cls.rate_mhz, c->rate_mhz);
		return msg;
	}
	if (c->static_after) {
		/* Just before the limit the pattern may hold; at it, not. */
		sf_classify(&params, &act, last_input,
			    last_commit + c->static_after, &cls);
		if (cls.cls != SF_CLASS_STATIC) {
			snprintf(msg, size, "%s: still %s %.3f s after the end",
				 c->name, sf_class_name(cls.cls),
				 (double)c->static_after / SF_NSEC_PER_SEC);
			return msg;
		}
	}
	return NULL;
}

SF_TEST(synthetic_traces)
{
	char msg[256];
	int failures = 0;

	/* Every case is run and every failure named, not just the first. */
	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		const char *fail = run_case(&cases[i], msg, sizeof(msg));
		if (fail) {
			printf("# %s\n", fail);
			failures++;
		}
	}
	sf_assert_int_eq(failures, 0);
}

SF_TEST(typing_then_blinking)
{
	static struct trace t;
	struct sf_classifier_params params;
	struct sf_surface_activity act;
	struct sf_classification cls = { 0 };
	sf_time_t last_input = 0, blinking_at = 0;

	t.n = 0;
	gen_typing_then_foot(&t);
	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, 800, 600);
	for (size_t i = 0; i < t.n; i++) {
		const struct event *e = &t.ev[i];
		if (e->input) {
			last_input = e->time;
			continue;
		}
		struct sf_commit_desc d = { .time = e->time, .boxes = &e->box,
					    .n_boxes = 1,
					    .has_hash = e->has_hash,
					    .hash = e->hash };
		sf_surface_activity_record(&act, &d);
		sf_classify(&params, &act, last_input, e->time, &cls);
		if (e->time < SF_SEC(4))
			sf_assert_int_eq(cls.cls, SF_CLASS_INTERACTIVE);
		if (cls.cls == SF_CLASS_BLINKING && !blinking_at)
			blinking_at = e->time;
	}
	/* The typing history in the ring does not delay detection: three
	 * periods after the cursor started blinking. */
	sf_assert_int_gt(blinking_at, 0);
	sf_assert_int_le(blinking_at, SF_SEC(4) + SF_MSEC(500) + 3 * SF_SEC(1));
	sf_assert_int_eq(cls.cls, SF_CLASS_BLINKING);
}

/* Blinks at `on`/`off` ms from 1 s, hash 1 with `ink1` and hash 2 with
 * `ink2`, hash 1 first; classified after the last commit. */
static void
blink_states(int on, int off, uint32_t ink1, uint32_t ink2, int commits,
	     struct sf_surface_activity *act, struct sf_classification *cls)
{
	struct sf_classifier_params params;
	sf_time_t now = SF_SEC(1);

	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(act, 800, 600);
	for (int i = 0; i < commits; i++) {
		struct sf_commit_desc d = { .time = now, .boxes = &cursor_cell,
					    .n_boxes = 1, .has_hash = true,
					    .hash = i % 2 ? 2 : 1,
					    .ink = i % 2 ? ink2 : ink1 };
		sf_surface_activity_record(act, &d);
		sf_classify(&params, act, 0, now, cls);
		now += SF_MSEC(i % 2 ? off : on);
	}
}

/* Which state shows the caret: the one with more ink, else the one shown
 * longer, else nobody can tell. */
SF_TEST(a_blink_s_shown_state_is_told_by_ink_then_by_time)
{
	static const struct {
		int on, off;		/* hash 1 lasts on, hash 2 off */
		uint32_t ink1, ink2;
		uint64_t shown;		/* 0: unknown */
	} table[] = {
		{ 500, 500, 24, 0, 1 },		/* foot, Qt: by ink */
		{ 500, 500, 0, 24, 2 },
		{ 400, 800, 56, 32, 1 },	/* ink wins over time */
		{ 600, 300, 7, 7, 1 },		/* xterm: by time */
		{ 300, 600, 7, 7, 2 },
		{ 800, 400, 0, 0, 1 },		/* GTK, without ink */
		{ 500, 500, 7, 7, 0 },		/* no telling */
		{ 520, 480, 0, 0, 0 },		/* too close to call */
	};

	for (size_t k = 0; k < SF_ARRAY_LENGTH(table); k++) {
		struct sf_surface_activity act;
		struct sf_classification cls;

		/* Both parities of the newest commit. */
		for (int commits = 8; commits <= 9; commits++) {
			blink_states(table[k].on, table[k].off, table[k].ink1,
				     table[k].ink2, commits, &act, &cls);
			sf_assert_int_eq(cls.cls, SF_CLASS_BLINKING);
			sf_assert_int_eq(cls.phases_known, table[k].shown != 0);
			if (!table[k].shown)
				continue;
			sf_assert_int_eq(cls.shown_hash, table[k].shown);
			sf_assert_int_eq(cls.hidden_hash, 3 - table[k].shown);
			enum sf_blink_phase want =
				(commits % 2 ? 1u : 2u) == table[k].shown ?
					SF_BLINK_PHASE_SHOWN :
					SF_BLINK_PHASE_HIDDEN;
			const struct sf_commit_record *newest =
				sf_surface_activity_get(&act, 0);
			sf_assert_str_eq(sf_blink_phase_name(
				sf_classifier_blink_phase(&cls, newest)),
				sf_blink_phase_name(want));
		}
	}
}

/* A commit that is neither state, or drawn elsewhere, or not blinking:
 * nobody can tell what it shows. */
SF_TEST(a_commit_unlike_both_states_is_unknown)
{
	struct sf_surface_activity act;
	struct sf_classification cls;
	const struct sf_box elsewhere = { 0, 0, 10, 20 };

	blink_states(500, 500, 24, 0, 8, &act, &cls);
	sf_assert(cls.phases_known);
	struct sf_commit_record r = *sf_surface_activity_get(&act, 0);
	r.hash = 9;
	sf_assert_int_eq(sf_classifier_blink_phase(&cls, &r),
			 SF_BLINK_PHASE_UNKNOWN);
	r = *sf_surface_activity_get(&act, 0);
	r.extents = elsewhere;
	sf_assert_int_eq(sf_classifier_blink_phase(&cls, &r),
			 SF_BLINK_PHASE_UNKNOWN);
	r = *sf_surface_activity_get(&act, 0);
	r.has_hash = false;
	sf_assert_int_eq(sf_classifier_blink_phase(&cls, &r),
			 SF_BLINK_PHASE_UNKNOWN);
	r = *sf_surface_activity_get(&act, 0);
	sf_assert_int_ne(sf_classifier_blink_phase(&cls, &r),
			 SF_BLINK_PHASE_UNKNOWN);
	cls.cls = SF_CLASS_TICKING;
	sf_assert_int_eq(sf_classifier_blink_phase(&cls, &r),
			 SF_BLINK_PHASE_UNKNOWN);
	sf_assert_int_eq(sf_classifier_blink_phase(&cls, NULL),
			 SF_BLINK_PHASE_UNKNOWN);
}

/* Typing into xterm makes its window animating, whose pixels are read
 * only now and then: the caret's first redraw where the typing left it
 * can come unhashed.  The blinks after it tell the caret's two states as
 * soon as four of them are known, not once that commit left the history
 * (thirteen blinks later, six seconds of idle blinks painted). */
SF_TEST(an_unhashed_commit_before_a_blink_leaves_its_states_known)
{
	struct sf_classifier_params params;
	struct sf_surface_activity act;
	struct sf_classification cls;
	sf_time_t now = SF_SEC(1);
	int known_after = 0;

	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, 800, 600);
	/* A character every 40 ms, the caret moving along. */
	for (int i = 0; i < 12; i++) {
		struct sf_box cell = { 280 + 10 * i, 300, 300 + 10 * i, 320 };
		struct sf_commit_desc d = { .time = now, .boxes = &cell,
					    .n_boxes = 1, .has_hash = true,
					    .hash = 100 + (uint64_t)i,
					    .ink = 50 };
		sf_surface_activity_record(&act, &d);
		sf_classify(&params, &act, 0, now, &cls);
		now += SF_MSEC(40);
	}
	now += SF_MSEC(260);
	/* The caret drawn where the typing ended, content unknown. */
	struct sf_commit_desc first = { .time = now, .boxes = &cursor_cell,
					.n_boxes = 1 };
	sf_surface_activity_record(&act, &first);
	sf_classify(&params, &act, 0, now, &cls);
	now += SF_MSEC(600);
	/* xterm: hidden 300 ms (hash 2), shown 600 ms (hash 1, more ink). */
	for (int i = 0; i < 12; i++) {
		bool shown = i % 2;
		struct sf_commit_desc d = { .time = now, .boxes = &cursor_cell,
					    .n_boxes = 1, .has_hash = true,
					    .hash = shown ? 1 : 2,
					    .ink = shown ? 137 : 59 };
		sf_surface_activity_record(&act, &d);
		sf_classify(&params, &act, 0, now, &cls);
		if (cls.phases_known && !known_after)
			known_after = i + 1;
		if (known_after) {
			sf_assert_int_eq(cls.cls, SF_CLASS_BLINKING);
			sf_assert_int_eq(sf_classifier_blink_phase(
				&cls, sf_surface_activity_get(&act, 0)),
				shown ? SF_BLINK_PHASE_SHOWN :
					SF_BLINK_PHASE_HIDDEN);
		}
		now += SF_MSEC(shown ? 600 : 300);
	}
	printf("# states known after %d hashed blinks\n", known_after);
	sf_assert_int_gt(known_after, 0);
	sf_assert_int_le(known_after, SF_CLASSIFIER_MIN_COMMITS);
}

SF_TEST(empty_commits_neither_make_nor_break_patterns)
{
	struct sf_classifier_params params;
	struct sf_surface_activity act;
	struct sf_classification cls;

	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, 800, 600);
	for (int i = 0; i < 12; i++) {
		sf_time_t now = SF_MSEC(500) * (i + 1);
		struct sf_commit_desc d = { .time = now, .boxes = &cursor_cell,
					    .n_boxes = 1, .has_hash = true,
					    .hash = (i & 1) ? 1 : 2 };
		sf_surface_activity_record(&act, &d);
		/* A client that also commits without damage at 60 Hz. */
		for (int f = 1; f < 10; f++) {
			struct sf_commit_desc e = { .time = now + f * SF_MSEC(16) };
			sf_surface_activity_record(&act, &e);
		}
	}
	sf_classify(&params, &act, 0, SF_MSEC(6000) + SF_MSEC(200), &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_BLINKING);

	/* Only empty commits: nothing on screen changes. */
	struct sf_surface_activity idle;
	sf_surface_activity_init(&idle, 800, 600);
	for (int f = 0; f < 60; f++) {
		struct sf_commit_desc e = { .time = f * SF_MSEC(16) };
		sf_surface_activity_record(&idle, &e);
	}
	sf_classify(&params, &idle, 0, SF_MSEC(950), &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_STATIC);
}

/* A program prints a line into a blinking terminal on a blink's beat,
 * and the caret blinks on the row below it: regular intervals and
 * mixed content, ticks by their look.  Three commits into the new
 * blink, it is not a tick any more (and a fourth makes it a blink), so
 * that the next line, two seconds later, is not held as one. */
SF_TEST(a_blink_starting_again_after_a_line_is_not_a_tick)
{
	struct sf_classifier_params params;
	struct sf_surface_activity act;
	struct sf_classification cls;
	const struct sf_box line = { 0, 16, 800, 48 };
	const struct sf_box below = { 0, 32, 8, 48 };
	sf_time_t now = 0;

	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, 800, 600);
	for (int i = 0; i < 8; i++) {
		now += SF_MSEC(500);
		struct sf_commit_desc d = { .time = now, .boxes = &cursor_cell,
					    .n_boxes = 1, .has_hash = true,
					    .hash = (i & 1) ? 1 : 2 };
		sf_surface_activity_record(&act, &d);
	}
	sf_classify(&params, &act, 0, now, &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_BLINKING);

	now += SF_MSEC(500);
	struct sf_commit_desc l = { .time = now, .boxes = &line, .n_boxes = 1,
				    .has_hash = true, .hash = 77 };
	sf_surface_activity_record(&act, &l);
	sf_classify(&params, &act, 0, now, &cls);
	sf_assert(cls.cls != SF_CLASS_BLINKING);

	for (int i = 0; i < 4; i++) {
		now += SF_MSEC(500);
		struct sf_commit_desc d = { .time = now, .boxes = &below,
					    .n_boxes = 1, .has_hash = true,
					    .hash = (i & 1) ? 3 : 4 };
		sf_surface_activity_record(&act, &d);
		sf_classify(&params, &act, 0, now, &cls);
		printf("# blink %d on the new row: %s\n", i + 1,
		       sf_class_name(cls.cls));
		if (i >= 2)
			sf_assert(cls.cls != SF_CLASS_TICKING);
	}
	sf_assert_int_eq(cls.cls, SF_CLASS_BLINKING);
}

SF_TEST(few_commits_are_not_a_pattern)
{
	struct sf_classifier_params params;
	struct sf_surface_activity act;
	struct sf_classification cls;

	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, 1920, 1080);
	struct sf_box frame = { 0, 0, 1920, 1080 };
	for (int i = 0; i < SF_CLASSIFIER_MIN_COMMITS - 1; i++) {
		struct sf_commit_desc d = { .time = SF_MSEC(1000 + 40 * i),
					    .boxes = &frame, .n_boxes = 1 };
		sf_surface_activity_record(&act, &d);
		sf_classify(&params, &act, 0, d.time, &cls);
		sf_assert_int_eq(cls.cls, SF_CLASS_STATIC);
		/* ... unless they answer input. */
		sf_classify(&params, &act, d.time - SF_MSEC(10), d.time, &cls);
		sf_assert_int_eq(cls.cls, SF_CLASS_INTERACTIVE);
	}
	struct sf_commit_desc d = { .time = SF_MSEC(1120), .boxes = &frame,
				    .n_boxes = 1 };
	sf_surface_activity_record(&act, &d);
	sf_classify(&params, &act, 0, d.time, &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_VIDEO);
	/* Its rate takes more frames to measure. */
	sf_assert_int_eq(cls.rate_mhz, 0);
	for (int i = 4; i <= SF_CLASSIFIER_RATE_MIN_INTERVALS; i++) {
		d.time = SF_MSEC(1000 + 40 * i);
		sf_surface_activity_record(&act, &d);
	}
	sf_classify(&params, &act, 0, d.time, &cls);
	sf_assert_int_eq(cls.rate_mhz, 25000);
}

SF_TEST(a_player_s_first_frames_do_not_set_the_rate)
{
	struct sf_classifier_params params;
	struct sf_surface_activity act, steady;
	struct sf_classification cls;
	struct sf_box frame = { 0, 0, 640, 360 };
	/* mpv's first frames of a 60 fps video on Xorg, as recorded
	 * (ms apart): a burst, then jitter. */
	static const double gaps_ms[] = {
		14.4, 12.8, 13.5, 17.2, 22.4, 11.7, 15.5, 16.1, 20.6, 13.3,
		16.1, 16.5, 16.7, 16.7, 17.6, 15.7,
	};
	sf_time_t t = SF_SEC(10);

	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, 640, 360);
	for (size_t i = 0; i <= SF_ARRAY_LENGTH(gaps_ms); i++) {
		struct sf_commit_desc d = { .time = t, .boxes = &frame,
					    .n_boxes = 1 };
		sf_surface_activity_record(&act, &d);
		sf_classify(&params, &act, 0, t, &cls);
		if (i < SF_CLASSIFIER_MIN_COMMITS - 1)
			sf_assert_int_eq(cls.cls, SF_CLASS_STATIC);
		else
			sf_assert_int_eq(cls.cls, SF_CLASS_VIDEO);
		/* Three of them read 73.9 fps: no rate until twelve,
		 * which read 63.1 within their jitter of 60. */
		if (i < SF_CLASSIFIER_RATE_MIN_INTERVALS)
			sf_assert_int_eq(cls.rate_mhz, 0);
		else
			sf_assert_int_eq(cls.rate_mhz, 60000);
		if (i < SF_ARRAY_LENGTH(gaps_ms))
			t += (sf_time_t)(gaps_ms[i] * 1e6);
	}

	/* A steady rate is measured as it is, not pulled to a known one:
	 * 62.5 fps, exactly 16 ms apart. */
	sf_surface_activity_init(&steady, 640, 360);
	for (int i = 0; i <= 20; i++) {
		struct sf_commit_desc d = { .time = SF_SEC(10) + i * SF_MSEC(16),
					    .boxes = &frame, .n_boxes = 1 };
		sf_surface_activity_record(&steady, &d);
	}
	sf_classify(&params, &steady, 0, SF_SEC(10) + 20 * SF_MSEC(16), &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_VIDEO);
	sf_assert_int_eq(cls.rate_mhz, 62500);
}

SF_TEST(interactive_ends_after_inactive)
{
	struct sf_classifier_params params;
	struct sf_surface_activity act;
	struct sf_classification cls;

	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, 800, 600);
	struct sf_commit_desc d = { .time = SF_SEC(5), .boxes = &cursor_cell,
				    .n_boxes = 1 };
	sf_surface_activity_record(&act, &d);
	sf_classify(&params, &act, SF_SEC(5) - SF_MSEC(3), SF_SEC(5), &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_INTERACTIVE);
	sf_classify(&params, &act, SF_SEC(5) - SF_MSEC(3),
		    SF_SEC(5) + params.inactive, &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_INTERACTIVE);
	sf_classify(&params, &act, SF_SEC(5) - SF_MSEC(3),
		    SF_SEC(5) + params.inactive + 1, &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_STATIC);
	/* A commit long after the input does not answer it. */
	sf_classify(&params, &act, SF_SEC(4), SF_SEC(5), &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_STATIC);
}

SF_TEST(a_new_surface_is_static)
{
	struct sf_classifier_params params;
	struct sf_surface_activity act;
	struct sf_classification cls = { .cls = SF_CLASS_VIDEO, .period = 5 };

	sf_classifier_params_init_default(&params);
	sf_surface_activity_init(&act, 0, 0);
	sf_classify(&params, &act, SF_SEC(1), SF_SEC(1), &cls);
	sf_assert_int_eq(cls.cls, SF_CLASS_STATIC);
	sf_assert_int_eq(cls.period, 0);
	sf_assert_int_eq(cls.rate_mhz, 0);
}

SF_TEST_MAIN()
