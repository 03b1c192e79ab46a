/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAMECTL_TRACE_H
#define STILLFRAMECTL_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * `stillframectl trace`: the loop both backends share.  A backend starts
 * the display server's recording, reads what it recorded so far into a
 * file, and stops it; this file times the reads, writes the file
 * atomically and says how it went.
 */

struct sf_ctl_trace_progress {
	uint64_t events, dropped;
	/* Stopped, and everything read: the recording is over. */
	bool finished;
};

struct sf_ctl_trace_backend {
	/* Each returns 0, or the exit status after saying what went
	 * wrong. */
	int (*start)(void *data);
	/* Writes the text recorded since the last read to `out`. */
	int (*read)(void *data, FILE *out,
		    struct sf_ctl_trace_progress *progress);
	int (*stop)(void *data);
};

/* Records for `seconds` (or until SIGINT or SIGTERM) into `path`, "-"
 * being standard output. */
int
sf_ctl_trace_run(const struct sf_ctl_trace_backend *backend, void *data,
		 double seconds, const char *path);

#endif /* STILLFRAMECTL_TRACE_H */
