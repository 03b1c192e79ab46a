/* SPDX-License-Identifier: MIT */
/*
 * stillframectl timeline TRACE -o FILE.svg.  The trace holds what the
 * user and the clients did; what stillframe decided comes from replaying
 * it through the real core (tools/sf-replay.h) with a report interval
 * fine enough for the picture.  The trace is read twice: once for its
 * length and its input events, which fix the scale, then for the replay.
 * The drawing is in ctl-timeline-svg.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-commands.h"
#include "ctl-timeline.h"

/* About this many report intervals over the whole trace, none shorter
 * than MIN_STEP: state changes land within a pixel or so. */
#define TARGET_STEPS 4000
#define MIN_STEP (10 * SF_NSEC_PER_MSEC)

static void
timeline_usage(FILE *f)
{
	fprintf(f,
		"usage: stillframectl timeline [--option KEY=VALUE]... [--title TEXT]\n"
		"                              TRACE -o FILE.svg\n"
		"Replays TRACE (doc/trace-format.md) through the policy core and\n"
		"draws, over time, each output's refresh rate, idle state, repaints\n"
		"and suppressed repaints per second, DPMS level and backlight, the\n"
		"GPU clock level and the input events, as an SVG picture.\n"
		"\n"
		"  -o, --output FILE      write the SVG to FILE (- for standard output)\n"
		"      --option KEY=VALUE replay with this option (weston.ini key,\n"
		"                         see stillframe(7)); may be repeated\n"
		"      --title TEXT       the picture's title\n");
}

/* "stillframectl: timeline: ...", a pointer to timeline --help; 2. */
#define timeline_usage_error(...) \
	sf_ctl_command_usage_error("timeline", __VA_ARGS__)

/* A free slot at the end of a growing array, or NULL. */
static void *
append(void **array, size_t *n, size_t *cap, size_t size)
{
	if (*n == *cap) {
		size_t want = *cap ? *cap * 2 : 256;
		void *grown = realloc(*array, want * size);

		if (!grown)
			return NULL;
		*array = grown;
		*cap = want;
	}
	return (char *)*array + (*n)++ * size;
}

/* At most 12 ticks, at round times. */
static double
tick_seconds(sf_time_t span)
{
	static const double steps[] = {
		0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60,
		120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200,
		86400,
	};
	size_t n = sizeof(steps) / sizeof(steps[0]);

	for (size_t i = 0; i < n; i++)
		if (seconds(span) / steps[i] <= 12)
			return steps[i];
	return seconds(span) / 12;
}

/* --- reading and replaying --- */

static bool
scan_event(void *data, const struct sf_trace_event *ev)
{
	struct timeline *tl = data;

	if (ev->time > tl->end)
		tl->end = ev->time;
	if (ev->type != SF_TRACE_INPUT)
		return true;

	struct mark *m = append((void **)&tl->marks, &tl->n_marks,
				&tl->marks_cap, sizeof(*m));

	if (!m) {
		fprintf(stderr, PROG ": out of memory\n");
		return false;
	}
	*m = (struct mark){ ev->time, ev->u.input.kind };
	return true;
}

static void
handle_report(void *data, const struct sf_replay_report *r)
{
	struct timeline *tl = data;

	if (r->time != tl->tick) {
		tl->tick = r->time;
		tl->tick_index = 0;
	}
	size_t i = tl->tick_index++;

	if (i >= MAX_OUTPUTS)
		return;
	struct lane_output *lo = &tl->outputs[i];

	if (i >= tl->n_outputs) {
		snprintf(lo->name, sizeof(lo->name), "%s", r->output);
		tl->n_outputs = i + 1;
	}

	struct sample *s = append((void **)&lo->samples, &lo->n, &lo->cap,
				  sizeof(*s));

	if (!s) {
		tl->out_of_memory = true;
		return;
	}
	*s = (struct sample){
		.time = r->time,
		.refresh_mhz = r->refresh_mhz,
		.repaints = (uint32_t)r->repaints,
		.suppressed = (uint32_t)r->suppressed,
		.backlight = r->backlight,
		.state = r->state,
		.dpms = r->dpms,
		.reclock = r->reclock,
	};
}

static bool
feed_event(void *data, const struct sf_trace_event *ev)
{
	struct timeline *tl = data;
	char err[256];

	if (!sf_replay_feed(tl->replay, ev, err, sizeof(err))) {
		fprintf(stderr, PROG ": at %.3f ms: %s\n",
			(double)ev->time / SF_NSEC_PER_MSEC, err);
		return false;
	}
	if (tl->out_of_memory) {
		fprintf(stderr, PROG ": out of memory\n");
		return false;
	}
	return true;
}

static bool
replay_trace(struct timeline *tl, const struct sf_config *config)
{
	if (!sf_trace_read_file(PROG, tl->trace_path, scan_event, tl))
		return false;

	/* Whole milliseconds keep the report times readable. */
	sf_time_t step = tl->end / TARGET_STEPS;

	step = (step + SF_NSEC_PER_MSEC - 1) / SF_NSEC_PER_MSEC *
	       SF_NSEC_PER_MSEC;
	tl->step = step < MIN_STEP ? MIN_STEP : step;
	tl->span = tl->end > 0 ? tl->end : SF_NSEC_PER_SEC;
	tl->tick_s = tick_seconds(tl->span);

	struct sf_replay_options options = {
		.config = config,
		.report_interval = tl->step,
		.report = handle_report,
		.data = tl,
	};

	tl->replay = sf_replay_create(&options);
	if (!tl->replay) {
		fprintf(stderr, PROG ": out of memory\n");
		return false;
	}
	if (!sf_trace_read_file(PROG, tl->trace_path, feed_event, tl))
		return false;
	sf_replay_run_until(tl->replay, tl->end);
	if (tl->out_of_memory) {
		fprintf(stderr, PROG ": out of memory\n");
		return false;
	}
	sf_core_energy_totals(sf_replay_get_core(tl->replay), tl->end,
			      &tl->energy);
	return true;
}
static int
write_svg(const struct timeline *tl, const char *path)
{
	bool to_stdout = strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "w");

	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return 1;
	}
	sf_ctl_timeline_render(f, tl);
	bool failed = ferror(f) != 0;

	if (to_stdout)
		failed = fflush(f) != 0 || failed;
	else
		failed = fclose(f) != 0 || failed;
	if (failed) {
		fprintf(stderr, PROG ": %s: write error\n", path);
		if (!to_stdout)
			remove(path);
		return 1;
	}
	return 0;
}

static void
timeline_free(struct timeline *tl)
{
	sf_replay_destroy(tl->replay);
	for (size_t i = 0; i < MAX_OUTPUTS; i++)
		free(tl->outputs[i].samples);
	free(tl->marks);
}

int
sf_ctl_cmd_timeline(int argc, char **argv, enum sf_ctl_choice choice)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "option", required_argument, NULL, 'O' },
		{ "title", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct timeline tl = { 0 };
	struct sf_config config;
	struct sf_ctl_options o = {
		.command = "timeline", .table = options, .letters = ":o:h",
		.usage = timeline_usage,
	};
	const char *output = NULL;
	int c;

	sf_config_init_defaults(&config);
	while ((c = sf_ctl_next_own_option(&o, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			if (!optarg[0])
				return timeline_usage_error(
					"-o needs a file name");
			output = optarg;
			break;
		case 'O': {
			char err[256];

			if (!sf_trace_config_option(&config, optarg, err,
						    sizeof(err)))
				return timeline_usage_error("--option %s",
							    err);
			break;
		}
		case 'T':
			tl.title = optarg;
			break;
		}
	}
	if (o.status != 0)
		return sf_ctl_options_exit(&o);
	if (optind != argc - 1)
		return timeline_usage_error(optind >= argc ? "missing TRACE" :
							     "one TRACE only");
	if (!output)
		return timeline_usage_error("missing -o FILE.svg");
	tl.trace_path = argv[optind];
	/* Read twice: the first pass fixes the scale. */
	if (strcmp(tl.trace_path, "-") == 0)
		return timeline_usage_error(
			"TRACE must be a file, not standard input (it is "
			"read twice)");

	int ret = replay_trace(&tl, &config) ? write_svg(&tl, output) : 1;

	timeline_free(&tl);
	return ret;
}
