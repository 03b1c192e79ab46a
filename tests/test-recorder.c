/* SPDX-License-Identifier: MIT */
#include "sf-config.h"
#include "sf-core.h"
#include "sf-recorder.h"
#include "sf-replay.h"
#include "sf-stats.h"
#include "sf-test.h"

/* Everything pending, as one string. */
static size_t
read_all(struct sf_trace_recorder *rec, char *buf, size_t size)
{
	size_t len = 0, n;

	while (len + SF_TRACE_RECORDER_LINE_MAX < size &&
	       (n = sf_trace_recorder_read(rec, buf + len, size - len - 1)))
		len += n;
	buf[len] = '\0';
	return len;
}

static struct sf_trace_event
input_at(sf_time_t t, enum sf_input_kind kind)
{
	return (struct sf_trace_event){
		.type = SF_TRACE_INPUT,
		.time = t,
		.u.input.kind = kind,
	};
}

SF_TEST(times_are_relative_and_never_go_back)
{
	struct sf_trace_recorder *rec =
		sf_trace_recorder_create(4096, SF_SEC(100));
	char text[4096];

	sf_assert(rec);
	struct sf_trace_event a = input_at(SF_SEC(100) + SF_MSEC(5),
					   SF_INPUT_KEY);
	struct sf_trace_event b = input_at(SF_SEC(100) + SF_MSEC(3),
					   SF_INPUT_POINTER);
	struct sf_trace_event c = input_at(SF_SEC(99), SF_INPUT_BUTTON);
	struct sf_trace_event d = input_at(SF_SEC(100) + 1500,
					   SF_INPUT_TOUCH);
	sf_assert(sf_trace_recorder_add(rec, &a));
	sf_assert(sf_trace_recorder_add(rec, &b));
	sf_assert(sf_trace_recorder_add(rec, &c));
	sf_trace_recorder_end(rec, SF_SEC(101));
	/* Ended: ignored, and not a drop. */
	sf_assert(!sf_trace_recorder_add(rec, &d));
	read_all(rec, text, sizeof(text));
	sf_assert_str_eq(text, "stillframe-trace 1\n"
			       "5 input key\n"
			       "5 input pointer\n"
			       "5 input button\n"
			       "1000 end\n");
	sf_assert_int_eq(sf_trace_recorder_get_events(rec), 4);
	sf_assert_int_eq(sf_trace_recorder_get_dropped(rec), 0);
	sf_assert_int_eq(sf_trace_recorder_pending(rec), 0);
	sf_trace_recorder_destroy(rec);
	sf_trace_recorder_destroy(NULL);
}

SF_TEST(reads_return_whole_lines)
{
	struct sf_trace_recorder *rec = sf_trace_recorder_create(4096, 0);
	char buf[64];

	for (int i = 0; i < 3; i++) {
		struct sf_trace_event ev = input_at(SF_MSEC(10 * i),
						    SF_INPUT_KEY);
		sf_assert(sf_trace_recorder_add(rec, &ev));
	}
	/* "stillframe-trace 1\n" is 19 bytes: 10 is too little for it. */
	sf_assert_int_eq(sf_trace_recorder_read(rec, buf, 10), 0);
	/* 30 bytes hold the header and not the 12 of "0 input key\n". */
	size_t n = sf_trace_recorder_read(rec, buf, 30);
	sf_assert_int_eq(n, 19);
	sf_assert_int_eq(memcmp(buf, "stillframe-trace 1\n", n), 0);
	n = sf_trace_recorder_read(rec, buf, sizeof(buf) - 1);
	buf[n] = '\0';
	sf_assert_str_eq(buf, "0 input key\n10 input key\n20 input key\n");
	sf_assert_int_eq(sf_trace_recorder_read(rec, buf, sizeof(buf)), 0);
	sf_trace_recorder_destroy(rec);
}

SF_TEST(a_full_buffer_drops_and_counts_but_still_ends)
{
	struct sf_trace_recorder *rec =
		sf_trace_recorder_create(SF_TRACE_RECORDER_MIN_CAPACITY, 0);
	static char text[SF_TRACE_RECORDER_MIN_CAPACITY + 1];
	uint64_t added = 0;

	for (int i = 0; i < 1000; i++) {
		struct sf_trace_event ev = input_at(SF_MSEC(i), SF_INPUT_KEY);
		if (sf_trace_recorder_add(rec, &ev))
			added++;
	}
	sf_assert_int_lt(added, 1000);
	sf_assert_int_gt(added, 0);
	sf_assert_int_eq(sf_trace_recorder_get_dropped(rec), 1000 - added);
	sf_trace_recorder_end(rec, SF_SEC(5));
	read_all(rec, text, sizeof(text));
	size_t len = strlen(text);
	sf_assert_int_le(len, SF_TRACE_RECORDER_MIN_CAPACITY);
	sf_assert(len > 10 && strcmp(text + len - 10, "\n5000 end\n") == 0);
	/* Room again after a read. */
	rec = (sf_trace_recorder_destroy(rec),
	       sf_trace_recorder_create(SF_TRACE_RECORDER_MIN_CAPACITY, 0));
	for (int i = 0; i < 1000; i++) {
		struct sf_trace_event ev = input_at(SF_MSEC(i), SF_INPUT_KEY);
		sf_trace_recorder_add(rec, &ev);
		if (i % 50 == 0)
			read_all(rec, text, sizeof(text));
	}
	sf_assert_int_eq(sf_trace_recorder_get_dropped(rec), 0);
	sf_trace_recorder_destroy(rec);
}

/* A core with an output and two surfaces before the recording starts,
 * and events during it. */
struct world {
	struct sf_config cfg;
	struct sf_core *core;
	struct sf_output *out;
	struct sf_surface *term, *clock, *hidden;
};

static void
world_init(struct world *w)
{
	static const struct sf_mode modes[] = {
		{ 1920, 1080, 60000, .preferred = true },
		{ 1920, 1080, 40000, .seamless = true },
	};

	sf_config_init_defaults(&w->cfg);
	w->core = sf_core_create(&w->cfg, NULL, NULL, SF_SEC(10));
	w->out = sf_output_create(w->core, "eDP 1", modes, 2, 0, SF_SEC(10));
	w->term = sf_surface_create(w->core, 800, 600, SF_SEC(10));
	sf_surface_set_label(w->term, "foot terminal");
	sf_surface_set_output(w->term, w->out, 0.25, SF_SEC(10));
	sf_surface_set_focused(w->term, true, SF_SEC(10));
	sf_surface_set_content_rate(w->term, 30, 1, SF_SEC(10));
	w->clock = sf_surface_create(w->core, 100, 100, SF_SEC(10));
	sf_surface_set_output(w->clock, w->out, 0.01, SF_SEC(10));
	/* Never on an output: nothing of it may reach the trace. */
	w->hidden = sf_surface_create(w->core, 10, 10, SF_SEC(10));
	sf_output_inhibit(w->out, SF_SEC(10));
}

SF_TEST(the_world_comes_first)
{
	struct world w;
	static char text[65536];

	world_init(&w);
	sf_assert(sf_core_get_trace(w.core) == NULL);
	struct sf_trace_recorder *rec =
		sf_core_trace_start(w.core, 65536, SF_SEC(20));
	sf_assert(rec);
	sf_assert(sf_core_get_trace(w.core) == rec);
	/* One at a time. */
	sf_assert(sf_core_trace_start(w.core, 65536, SF_SEC(20)) == NULL);
	read_all(rec, text, sizeof(text));
	sf_assert_str_eq(text,
		"stillframe-trace 1\n"
		"0 output 1 eDP_1 1920x1080@60000*p 1920x1080@40000s\n"
		"0 inhibit 1 on\n"
		"0 surface 1 1 800x600 0.25 foot_terminal\n"
		"0 hint 1 rate 30000/1000\n"
		"0 focus 1\n"
		"0 surface 2 1 100x100 0.01\n");
	sf_core_destroy(w.core);
}

SF_TEST(events_of_known_surfaces_follow)
{
	struct world w;
	static char text[65536];
	struct sf_box boxes[10];

	world_init(&w);
	sf_core_trace_start(w.core, 65536, SF_SEC(20));
	read_all(sf_core_get_trace(w.core), text, sizeof(text));

	struct sf_commit_desc blink = {
		.time = SF_SEC(21),
		.boxes = (struct sf_box[]){ { 8, 16, 16, 32 } },
		.n_boxes = 1,
		.has_hash = true,
		.hash = 0xc0ffee,
	};
	sf_surface_commit(w.term, &blink);
	sf_surface_commit(w.hidden, &blink);
	for (int i = 0; i < 10; i++)
		boxes[i] = (struct sf_box){ i * 10, i, i * 10 + 5, i + 5 };
	struct sf_commit_desc many = {
		.time = SF_SEC(22),
		.boxes = boxes,
		.n_boxes = 10,
		.unchanged = true,
	};
	sf_surface_commit(w.clock, &many);
	sf_core_notify_input(w.core, SF_INPUT_POINTER, SF_SEC(23));
	sf_surface_set_content_type(w.clock, SF_CONTENT_VIDEO, SF_SEC(23));
	sf_surface_set_rate_range(w.clock, 30000, 0, SF_SEC(23));
	sf_output_uninhibit(w.out, SF_SEC(24));
	sf_output_repaint(w.out, SF_FORCE_POINTER_MOVED, SF_SEC(24), NULL);
	sf_surface_set_focused(w.term, false, SF_SEC(24));
	sf_surface_set_focused(w.clock, true, SF_SEC(24));
	sf_surface_set_size(w.clock, 200, 100);
	sf_surface_set_output(w.clock, NULL, 0, SF_SEC(25));
	sf_surface_destroy(w.term);
	sf_surface_destroy(w.hidden);
	sf_trace_recorder_end(sf_core_get_trace(w.core), SF_SEC(30));
	read_all(sf_core_get_trace(w.core), text, sizeof(text));
	sf_assert_str_eq(text,
		"1000 commit 1 8,16,8x16 #0000000000c0ffee\n"
		"2000 commit 2 0,0,95x14 same\n"
		"3000 input pointer\n"
		"3000 hint 2 content video\n"
		"3000 hint 2 range 30000-4294967295\n"
		"4000 inhibit 1 off\n"
		"4000 repaint 1 1\n"
		"4000 focus 2\n"
		"4000 surface 2 1 200x100 0.01\n"
		"5000 surface 2 1 200x100 0\n"
		"5000 destroy 1\n"
		"10000 end\n");
	sf_core_trace_discard(w.core);
	sf_assert(sf_core_get_trace(w.core) == NULL);
	sf_core_trace_discard(w.core);
	sf_core_destroy(w.core);
}

/* A surface's idle inhibitor (a video player's) is recorded as one on
 * its output, which the format has: at the start and as it comes and
 * goes, also when the surface goes with it. */
SF_TEST(a_surface_inhibitor_is_its_outputs)
{
	struct world w;
	static char text[65536];

	world_init(&w);
	sf_output_uninhibit(w.out, SF_SEC(10));
	sf_surface_inhibit(w.clock, SF_SEC(10));
	sf_core_trace_start(w.core, 65536, SF_SEC(20));
	read_all(sf_core_get_trace(w.core), text, sizeof(text));
	sf_assert(strstr(text, "0 surface 2 1 100x100 0.01\n0 inhibit 1 on\n"));
	/* Nested within the surface: one on, one off. */
	sf_surface_inhibit(w.clock, SF_SEC(21));
	sf_surface_uninhibit(w.clock, SF_SEC(22));
	sf_surface_uninhibit(w.clock, SF_SEC(23));
	sf_surface_inhibit(w.term, SF_SEC(24));
	sf_surface_inhibit(w.hidden, SF_SEC(24));
	sf_surface_destroy(w.term);
	/* One that inhibits before it is shown (a player's window) counts
	 * from when it is. */
	sf_surface_set_output(w.hidden, w.out, 0.5, SF_SEC(25));
	sf_surface_set_output(w.hidden, w.out, 0.6, SF_SEC(26));
	sf_surface_uninhibit(w.hidden, SF_SEC(27));
	read_all(sf_core_get_trace(w.core), text, sizeof(text));
	sf_assert_str_eq(text,
		"3000 inhibit 1 off\n"
		"4000 inhibit 1 on\n"
		"4000 destroy 1\n"
		"4000 inhibit 1 off\n"
		"5000 surface 3 1 10x10 0.5\n"
		"5000 inhibit 1 on\n"
		"6000 surface 3 1 10x10 0.6\n"
		"7000 inhibit 1 off\n");
	sf_core_destroy(w.core);
}

/* What a recording says, stillframe-replay accepts. */
SF_TEST(a_recording_replays)
{
	struct world w;
	static char text[65536];
	char err[256] = "";

	world_init(&w);
	sf_core_trace_start(w.core, 65536, SF_SEC(20));
	for (int i = 1; i <= 40; i++) {
		struct sf_commit_desc c = {
			.time = SF_SEC(20) + SF_MSEC(500) * i,
			.boxes = (struct sf_box[]){ { 8, 16, 16, 32 } },
			.n_boxes = 1,
			.has_hash = true,
			.hash = (uint64_t)(i % 2),
		};
		sf_surface_commit(w.term, &c);
		sf_output_repaint(w.out, 0, c.time, NULL);
	}
	sf_trace_recorder_end(sf_core_get_trace(w.core), SF_SEC(41));
	read_all(sf_core_get_trace(w.core), text, sizeof(text));

	struct sf_replay_options opt = { .config = &w.cfg };
	struct sf_replay *r = sf_replay_create(&opt);
	unsigned lines = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		struct sf_trace_event ev;

		sf_assert_int_eq(sf_trace_parse_line(line, &ev, err,
						     sizeof(err)),
				 SF_TRACE_OK);
		sf_assert(sf_replay_feed(r, &ev, err, sizeof(err)));
		lines++;
	}
	sf_assert_int_eq(lines, 1 + 6 + 80 + 1);
	sf_assert_int_eq(sf_surface_get_stats(sf_replay_get_surface(r, 1))
				 ->commits, 40);
	sf_replay_destroy(r);
	sf_core_destroy(w.core);
}

SF_TEST_MAIN()
