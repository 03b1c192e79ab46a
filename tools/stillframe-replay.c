/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-replay.h"
#include "sf-stats.h"
#include "sf-scenario.h"
#include "sf-trace-file.h"

/* stillframe-replay: runs a trace (or a built-in scenario) through the
 * policy core on a virtual clock and prints what it decided. */

struct app {
	struct sf_replay *replay;
	bool verbose;
	bool changes_only;
	FILE *dump;			/* --dump: write events instead */
	/* --changes-only bookkeeping */
	struct sf_replay_report last;
	bool have_last;
	unsigned collapsed;
	sf_time_t end;
	bool failed;
};

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: stillframe-replay [OPTIONS] [TRACE]\n"
		"Runs a stillframe trace (a file, or - for standard input) through\n"
		"the policy core on a virtual clock and prints its decisions.\n"
		"\n"
		"  -s, --scenario NAME    replay a built-in scenario (demo)\n"
		"  -d, --dump             print the scenario as a trace, do not replay\n"
		"  -o, --option KEY=VALUE set an option (weston.ini key, see stillframe(7))\n"
		"  -r, --report SECONDS   print a line per output every SECONDS of trace\n"
		"                         time (default 1; 0 turns the table off)\n"
		"  -c, --changes-only     collapse report lines that repeat the one before\n"
		"  -v, --verbose          print every decision the core logs\n"
		"      --status           print the final status (key value)\n"
		"      --prometheus       print the final status as Prometheus text\n"
		"  -h, --help             show this help\n");
}

static const char *const dpms_names[] = { "on", "standby", "off" };

static void
print_header(void)
{
	printf("%9s  %-8s %-11s %8s %5s %5s %-7s %4s %-6s %8s %8s\n",
	       "time", "output", "state", "refresh", "paint", "held", "dpms",
	       "bl%", "gpu", "est. W", "none W");
}

static void
print_report(const struct sf_replay_report *r)
{
	char backlight[8] = "-";

	/* A blanked panel has no backlight, whatever level is set. */
	if (r->dpms == SF_DPMS_ON)
		snprintf(backlight, sizeof(backlight), "%d", r->backlight);
	printf("%8.0fs  %-8s %-11s %7.2fHz %5llu %5llu %-7s %4s %-6s %8.2f %8.2f\n",
	       (double)r->time / SF_NSEC_PER_SEC, r->output,
	       sf_idle_state_name(r->state), r->refresh_mhz / 1000.0,
	       (unsigned long long)r->repaints,
	       (unsigned long long)r->suppressed, dpms_names[r->dpms],
	       backlight, r->reclock == SF_RECLOCK_LOW ? "low" : "normal",
	       r->actual_w, r->baseline_w);
}

static bool
same_line(const struct sf_replay_report *a, const struct sf_replay_report *b)
{
	return a->state == b->state && a->refresh_mhz == b->refresh_mhz &&
	       a->repaints == b->repaints && a->suppressed == b->suppressed &&
	       a->dpms == b->dpms && a->backlight == b->backlight &&
	       a->reclock == b->reclock && strcmp(a->output, b->output) == 0;
}

static void
flush_collapsed(struct app *app)
{
	if (app->collapsed)
		printf("%9s  (%u more seconds like the line above)\n", "...",
		       app->collapsed);
	app->collapsed = 0;
}

static void
handle_report(void *data, const struct sf_replay_report *r)
{
	struct app *app = data;

	if (app->changes_only && app->have_last && same_line(&app->last, r)) {
		app->collapsed++;
		return;
	}
	flush_collapsed(app);
	print_report(r);
	app->last = *r;
	app->have_last = true;
}

static void
handle_log(void *data, sf_time_t now, enum sf_log_level level,
	   const char *message)
{
	struct app *app = data;

	if (level == SF_LOG_ERROR || app->verbose) {
		flush_collapsed(app);
		printf("%12.3f  %s%s\n", (double)now / SF_NSEC_PER_SEC,
		       level == SF_LOG_ERROR ? "error: " : "", message);
	}
}

static bool
handle_event(void *data, const struct sf_trace_event *ev)
{
	struct app *app = data;
	char err[256];

	if (app->dump) {
		char line[1024];
		sf_trace_format_event(ev, line, sizeof(line));
		return fputs(line, app->dump) >= 0;
	}
	if (ev->type == SF_TRACE_END || ev->time > app->end)
		app->end = ev->time;
	if (!sf_replay_feed(app->replay, ev, err, sizeof(err))) {
		fprintf(stderr, "stillframe-replay: at %.3f ms: %s\n",
			(double)ev->time / SF_NSEC_PER_MSEC, err);
		return false;
	}
	return true;
}

static void
stdout_write(void *data, const char *text, size_t len)
{
	fwrite(text, 1, len, stdout);
}

static void
print_summary(struct app *app)
{
	struct sf_core *core = sf_replay_get_core(app->replay);
	struct sf_energy_totals e;

	sf_core_energy_totals(core, sf_replay_now(app->replay), &e);
	printf("\nOver %.0f s of trace time (an estimate from the energy "
	       "model, not a measurement):\n", (double)e.span / SF_NSEC_PER_SEC);
	printf("  doing nothing: %9.1f J (%.2f W average)\n", e.baseline_j,
	       e.baseline_avg_w);
	printf("  stillframe:    %9.1f J (%.2f W average)\n", e.actual_j,
	       e.actual_avg_w);
	if (e.baseline_j > 0)
		printf("  saved:         %9.1f J (%.1f %%)\n",
		       e.baseline_j - e.actual_j,
		       100.0 * (e.baseline_j - e.actual_j) / e.baseline_j);
}

int
main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "scenario", required_argument, NULL, 's' },
		{ "dump", no_argument, NULL, 'd' },
		{ "option", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'r' },
		{ "changes-only", no_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "status", no_argument, NULL, 'S' },
		{ "prometheus", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct app app = { 0 };
	struct sf_config config;
	const char *scenario = NULL;
	double report_s = 1.0;
	bool status = false, prometheus = false, dump = false;
	int c;

	sf_config_init_defaults(&config);
	while ((c = getopt_long(argc, argv, "s:do:r:cvh", long_options,
				NULL)) != -1) {
		switch (c) {
		case 's': scenario = optarg; break;
		case 'd': dump = true; break;
		case 'o': {
			char err[256];

			if (!sf_trace_config_option(&config, optarg, err,
						    sizeof(err))) {
				fprintf(stderr, "stillframe-replay: %s\n", err);
				return 2;
			}
			break;
		}
		case 'r': {
			char *end;
			errno = 0;
			report_s = strtod(optarg, &end);
			if (errno || *end || !(report_s >= 0) ||
			    report_s > 86400) {
				fprintf(stderr, "stillframe-replay: --report "
					"%s: expected seconds in 0..86400\n",
					optarg);
				return 2;
			}
			break;
		}
		case 'c': app.changes_only = true; break;
		case 'v': app.verbose = true; break;
		case 'S': status = true; break;
		case 'P': prometheus = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if ((scenario == NULL) == (optind >= argc) || optind + 1 < argc) {
		fprintf(stderr, "stillframe-replay: give one trace file or "
			"--scenario NAME\n");
		usage(stderr);
		return 2;
	}
	if (dump && !scenario) {
		fprintf(stderr, "stillframe-replay: --dump needs --scenario\n");
		return 2;
	}
	if (dump) {
		app.dump = stdout;
		if (!sf_scenario_by_name(scenario, handle_event, &app)) {
			fprintf(stderr, "stillframe-replay: no scenario "
				"\"%s\" (known: demo)\n", scenario);
			return 1;
		}
		return 0;
	}

	struct sf_replay_options options = {
		.config = &config,
		.log = handle_log,
		.report_interval = (sf_time_t)(report_s * SF_NSEC_PER_SEC),
		.report = handle_report,
		.data = &app,
	};
	app.replay = sf_replay_create(&options);
	if (!app.replay) {
		fprintf(stderr, "stillframe-replay: out of memory\n");
		return 1;
	}
	if (options.report_interval)
		print_header();

	bool ok = scenario ? sf_scenario_by_name(scenario, handle_event, &app)
			   : sf_trace_read_file("stillframe-replay",
						 argv[optind],
						 handle_event, &app);
	if (!ok && scenario && !app.failed && !app.end)
		fprintf(stderr, "stillframe-replay: no scenario \"%s\" "
			"(known: demo)\n", scenario);
	if (ok) {
		sf_replay_run_until(app.replay, app.end);
		flush_collapsed(&app);
		print_summary(&app);
		struct sf_writer w = { stdout_write, NULL };
		struct sf_core *core = sf_replay_get_core(app.replay);
		if (status) {
			printf("\n");
			sf_core_write_status(core, sf_replay_now(app.replay),
					     SF_STATUS_TEXT, &w);
		}
		if (prometheus) {
			printf("\n");
			sf_core_write_status(core, sf_replay_now(app.replay),
					     SF_STATUS_PROMETHEUS, &w);
		}
	}
	sf_replay_destroy(app.replay);
	return ok ? 0 : 1;
}
