/* SPDX-License-Identifier: MIT */
#include "sf-config.h"
#include "sf-replay.h"
#include "sf-scenario.h"
#include "sf-stats.h"
#include "sf-test.h"

/* A digest of everything a run logged and reported. */
struct digest {
	struct sf_replay *replay;
	uint64_t hash;
	unsigned lines;
	bool via_text;			/* format and re-parse every event */
	bool ok;
};

static void
mix(struct digest *d, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		d->hash = (d->hash ^ b[i]) * 1099511628211ull;
}

static void
digest_log(void *data, sf_time_t now, enum sf_log_level level,
	   const char *message)
{
	struct digest *d = data;

	mix(d, &now, sizeof(now));
	mix(d, message, strlen(message));
	d->lines++;
}

static void
digest_report(void *data, const struct sf_replay_report *r)
{
	struct digest *d = data;

	mix(d, &r->state, sizeof(r->state));
	mix(d, &r->refresh_mhz, sizeof(r->refresh_mhz));
	mix(d, &r->repaints, sizeof(r->repaints));
	mix(d, &r->suppressed, sizeof(r->suppressed));
	mix(d, &r->energy.actual_j, sizeof(r->energy.actual_j));
}

static bool
digest_emit(void *data, const struct sf_trace_event *ev)
{
	struct digest *d = data;
	struct sf_trace_event copy;
	char line[1024], err[256];

	if (d->via_text) {
		sf_trace_format_event(ev, line, sizeof(line));
		if (sf_trace_parse_line(line, &copy, err, sizeof(err)) !=
		    SF_TRACE_OK) {
			printf("# %s: %s", err, line);
			return d->ok = false;
		}
		ev = &copy;
	}
	d->ok = sf_replay_feed(d->replay, ev, err, sizeof(err));
	return d->ok;
}

static void
run_demo(struct digest *d, bool via_text)
{
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	*d = (struct digest){ .hash = 14695981039346656037ull,
			      .via_text = via_text };
	struct sf_replay_options opt = {
		.config = &cfg,
		.log = digest_log,
		.report_interval = SF_SEC(1),
		.report = digest_report,
		.data = d,
	};
	d->replay = sf_replay_create(&opt);
	sf_scenario_demo(digest_emit, d);
	sf_replay_run_until(d->replay, SF_SEC(705));
	sf_replay_destroy(d->replay);
}

SF_TEST(replay_is_deterministic)
{
	struct digest a, b;

	run_demo(&a, false);
	run_demo(&b, false);
	sf_assert(a.ok && b.ok);
	sf_assert_int_gt(a.lines, 10);
	sf_assert_int_eq(a.lines, b.lines);
	sf_assert(a.hash == b.hash);
}

SF_TEST(text_trace_replays_like_the_scenario)
{
	struct digest a, b;

	run_demo(&a, false);
	run_demo(&b, true);
	sf_assert(b.ok);
	sf_assert_int_eq(a.lines, b.lines);
	sf_assert(a.hash == b.hash);
}

static bool
feed_line(struct sf_replay *r, const char *line, char *err, size_t size)
{
	struct sf_trace_event ev;

	if (sf_trace_parse_line(line, &ev, err, size) != SF_TRACE_OK)
		return false;
	return sf_replay_feed(r, &ev, err, size);
}

SF_TEST(events_that_do_not_fit_are_refused)
{
	struct sf_config cfg;
	char err[256];

	sf_config_init_defaults(&cfg);
	struct sf_replay_options opt = { .config = &cfg };
	struct sf_replay *r = sf_replay_create(&opt);

	sf_assert(feed_line(r, "0 output 1 A 640x480@60000*", err,
			    sizeof(err)));
	sf_assert(!feed_line(r, "0 output 1 B 640x480@60000*", err,
			     sizeof(err)));
	sf_assert_str_contains(err, "output 1 exists already, named A");
	sf_assert(!feed_line(r, "1 surface 3 9 10x10 0.5", err, sizeof(err)));
	sf_assert_str_contains(err, "output 9 does not exist");
	sf_assert(!feed_line(r, "1 commit 4 -", err, sizeof(err)));
	sf_assert_str_contains(err, "surface 4 does not exist");
	sf_assert(feed_line(r, "5 surface 3 1 10x10 0.5", err, sizeof(err)));
	sf_assert(!feed_line(r, "4 commit 3 -", err, sizeof(err)));
	sf_assert_str_contains(err, "time goes backwards");
	sf_assert(feed_line(r, "6 commit 3 0,0,1x1", err, sizeof(err)));
	sf_assert(feed_line(r, "7 destroy 3", err, sizeof(err)));
	sf_assert(!feed_line(r, "8 destroy 3", err, sizeof(err)));
	sf_assert(sf_replay_get_surface(r, 3) == NULL);
	sf_replay_destroy(r);
}

/* An output seen again with the same name: someone else set a mode
 * (the user's xrandr), and these are its modes from then on. */
SF_TEST(an_output_seen_again_has_the_modes_someone_else_set)
{
	struct sf_config cfg;
	char err[256];

	sf_config_init_defaults(&cfg);
	struct sf_replay_options opt = { .config = &cfg };
	struct sf_replay *r = sf_replay_create(&opt);
	sf_assert(feed_line(r, "0 output 1 A 640x480@60000*p 640x480@30000s",
			    err, sizeof(err)));
	sf_replay_run_until(r, SF_SEC(10));
	struct sf_output *o = sf_replay_get_output(r, 1);
	sf_assert_int_eq(sf_output_get_stats(o)->refresh_mhz, 30000);
	sf_assert(feed_line(r, "10000 output 1 A 800x600@75000*p "
			    "800x600@30000s", err, sizeof(err)));
	sf_assert_int_eq(sf_output_get_stats(o)->refresh_mhz, 75000);
	sf_replay_run_until(r, SF_SEC(20));
	size_t n;
	const struct sf_mode *m = sf_output_get_modes(o, &n);
	sf_assert_int_eq(n, 2);
	sf_assert_int_eq(m[sf_output_get_mode(o)].width, 800);
	sf_assert_int_eq(sf_output_get_stats(o)->refresh_mhz, 30000);
	sf_replay_destroy(r);
}

SF_TEST(recorded_repaints_are_counted_not_obeyed)
{
	struct sf_config cfg;
	char err[256];
	struct sf_replay_counts counts;

	sf_config_init_defaults(&cfg);
	struct sf_replay_options opt = { .config = &cfg };
	struct sf_replay *r = sf_replay_create(&opt);
	sf_assert(feed_line(r, "0 output 1 A 640x480@60000*", err,
			    sizeof(err)));
	sf_assert(feed_line(r, "1 repaint 1 0", err, sizeof(err)));
	sf_assert(feed_line(r, "2 repaint 1 1", err, sizeof(err)));
	sf_replay_get_counts(r, &counts);
	sf_assert_int_eq(counts.recorded_repaints, 2);
	sf_assert_int_eq(sf_output_get_stats(sf_replay_get_output(r, 1))
				 ->repaints, 0);
	sf_replay_destroy(r);
}

SF_TEST_MAIN()
