/* SPDX-License-Identifier: MIT */
/*
 * stillframectl trace --for SECONDS -o FILE: what stillframe sees, as a
 * trace for stillframe-replay.  The backend starts the display server's
 * recording, reads what it recorded so far, and stops it; this file
 * times the reads, writes the file atomically and says how it went.
 */
#include <getopt.h>
#include <string.h>
#include <time.h>

#include "ctl-backend.h"
#include "ctl-commands.h"

/* Reads come this often: the server's buffer holds many times more. */
#define READ_INTERVAL 0.2
/* After the stop, the rest comes in a few reads; more means a server
 * that never says finished. */
#define MAX_FINAL_READS 10000

/* Sleeps up to `seconds`; a signal cuts it short. */
static void
nap(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9),
	};

	nanosleep(&ts, NULL);
}

static int
record(struct sf_ctl_conn *conn, double seconds, FILE *out,
       struct sf_ctl_trace_progress *progress)
{
	const struct sf_ctl_backend *b = conn->backend;
	int ret = b->trace_start(conn);
	/* From the server's start, not ours: a recording is never shorter
	 * than asked by the start's round trip. */
	double end = sf_ctl_monotonic_seconds() + seconds;

	while (ret == 0 && !sf_ctl_interrupted()) {
		double left = end - sf_ctl_monotonic_seconds();

		if (left <= 0)
			break;
		nap(left < READ_INTERVAL ? left : READ_INTERVAL);
		ret = b->trace_read(conn, out, progress);
	}
	if (ret == 0)
		ret = b->trace_stop(conn);
	for (int i = 0; ret == 0 && !progress->finished; i++) {
		if (i == MAX_FINAL_READS) {
			fprintf(stderr, "stillframectl: trace: the recording "
				"does not end after its stop\n");
			return 1;
		}
		ret = b->trace_read(conn, out, progress);
	}
	return ret;
}

static int
run(struct sf_ctl_conn *conn, double seconds, const char *path)
{
	struct sf_ctl_output_file of;
	struct sf_ctl_trace_progress progress = { 0 };

	if (sf_ctl_output_file_open(&of, path, "trace", true) != 0)
		return 1;
	/* Ctrl-C ends the recording early and keeps what it has. */
	sf_ctl_catch_interrupts();

	int ret = record(conn, seconds, of.f, &progress);

	if (sf_ctl_output_file_close(&of, ret == 0) != 0)
		ret = 1;
	if (ret != 0)
		return ret;
	/* The summary stays out of a trace written to standard output. */
	bool to_stdout = strcmp(path, "-") == 0;

	fprintf(to_stdout ? stderr : stdout,
		"stillframectl: trace: %llu events, %llu dropped%s%s\n",
		(unsigned long long)progress.events,
		(unsigned long long)progress.dropped,
		to_stdout ? "" : ", written to ", to_stdout ? "" : path);
	if (progress.dropped)
		fprintf(stderr, "stillframectl: trace: warning: %llu events "
			"dropped (the server's buffer was full); the trace "
			"still replays, without them\n",
			(unsigned long long)progress.dropped);
	return 0;
}

int
sf_ctl_cmd_trace(int argc, char **argv, enum sf_ctl_choice choice)
{
	struct sf_ctl_options o = {
		.command = "trace", .takes = "Fo", .choice = &choice,
	};
	const char *path = NULL;
	double seconds = 0;
	int c;

	while ((c = sf_ctl_next_option(&o, argc, argv)) != -1) {
		if (c == 'F' && !sf_ctl_parse_seconds(optarg, &seconds))
			return sf_ctl_usage_error("--for %s: expected seconds, more than 0 and at most 86400",
						  optarg);
		if (c == 'o' && !optarg[0])
			return sf_ctl_usage_error("-o needs a file name (- for standard output)");
		if (c == 'o')
			path = optarg;
	}
	int ret;

	if (sf_ctl_options_end(&o, argc, argv, &ret))
		return ret;
	if (seconds <= 0)
		return sf_ctl_usage_error("trace: give --for SECONDS");
	if (!path)
		return sf_ctl_usage_error("trace: give -o FILE (- for standard output)");

	struct sf_ctl_conn *conn;

	ret = sf_ctl_connect(choice, &conn);
	if (ret == 0)
		ret = run(conn, seconds, path);
	/* Disconnecting ends a recording that is still running. */
	sf_ctl_disconnect(conn);
	return ret;
}
