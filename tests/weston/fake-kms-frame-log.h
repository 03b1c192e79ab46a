/* SPDX-License-Identifier: MIT */
#ifndef SF_FAKE_KMS_FRAME_LOG_H
#define SF_FAKE_KMS_FRAME_LOG_H

/*
 * The fake-KMS double's frame log ([stillframe-test] frame-log=PATH),
 * private to stillframe-test-fake-kms.so; the format is in fake-kms.c's
 * header comment.  Every function takes a NULL log (no frame log asked
 * for, or it could not be opened) and then does nothing.
 */

#include <stdint.h>

struct weston_output;
struct sf_frame_log;

/* The log's clock, CLOCK_MONOTONIC in microseconds: also the repaint
 * log's, so a frame's time is the same in both. */
int64_t
sf_frame_log_now_us(void);

/* Opens (truncates) path; NULL, said in the Weston log, if it cannot.
 * output_name NULL: the first output created is logged. */
struct sf_frame_log *
sf_frame_log_create(const char *path, const char *output_name);

void
sf_frame_log_destroy(struct sf_frame_log *log);

/* An output the double took on; the log follows it if it is the one. */
void
sf_frame_log_output_created(struct sf_frame_log *log,
			    struct weston_output *output);

/* The double lets go of an output (it is being destroyed). */
void
sf_frame_log_output_gone(struct sf_frame_log *log,
			 struct weston_output *output);

/* A repaint reached the backend and it returned success at time_us
 * (CLOCK_MONOTONIC microseconds): the tiles that changed. */
void
sf_frame_log_frame(struct sf_frame_log *log, struct weston_output *output,
		   int64_t time_us);

/* A mode switch was accepted: a mode line if the refresh changed. */
void
sf_frame_log_mode(struct sf_frame_log *log, struct weston_output *output);

/* An input command about to be injected, as printf(fmt, ...) words. */
void
sf_frame_log_input(struct sf_frame_log *log, const char *fmt, ...);

#endif
