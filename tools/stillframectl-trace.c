/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <string.h>
#include <time.h>

#include "stillframectl-trace.h"
#include "stillframectl-x.h"

/* Reads come this often: the server's buffer holds many times more. */
#define READ_INTERVAL 0.2
/* After the stop, the rest comes in a few reads; more means a server
 * that never says finished. */
#define MAX_FINAL_READS 10000

static volatile sig_atomic_t interrupted;

static void
handle_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

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
record(const struct sf_ctl_trace_backend *b, void *data, double seconds,
       FILE *out, struct sf_ctl_trace_progress *progress)
{
	int ret = b->start(data);
	/* From the server's start, not ours: a recording is never shorter
	 * than asked by the start's round trip. */
	double end = sf_ctl_monotonic_seconds() + seconds;

	while (ret == 0 && !interrupted) {
		double left = end - sf_ctl_monotonic_seconds();

		if (left <= 0)
			break;
		nap(left < READ_INTERVAL ? left : READ_INTERVAL);
		ret = b->read(data, out, progress);
	}
	if (ret == 0)
		ret = b->stop(data);
	for (int i = 0; ret == 0 && !progress->finished; i++) {
		if (i == MAX_FINAL_READS) {
			fprintf(stderr, "stillframectl: trace: the recording "
				"does not end after its stop\n");
			return 1;
		}
		ret = b->read(data, out, progress);
	}
	return ret;
}

int
sf_ctl_trace_run(const struct sf_ctl_trace_backend *backend, void *data,
		 double seconds, const char *path)
{
	struct sf_ctl_output_file of;
	struct sf_ctl_trace_progress progress = { 0 };
	struct sigaction sa = { .sa_handler = handle_signal };

	if (sf_ctl_output_file_open(&of, path, "trace", true) != 0)
		return 1;
	/* Ctrl-C ends the recording early and keeps what it has. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	int ret = record(backend, data, seconds, of.f, &progress);

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
