/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAMECTL_X_H
#define STILLFRAMECTL_X_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * stillframectl's two backends: the Wayland one in stillframectl.c and
 * the X11 one in stillframectl-x.c, which speaks the STILLFRAME
 * extension (protocol/stillframe-x.h) to the X server at $DISPLAY.  The
 * X11 functions connect, do their command, disconnect and return the
 * exit status, having said on stderr what went wrong.
 */

/* --priority, numbered as stillframe_surface_v1's priority enum. */
enum sf_ctl_priority {
	SF_CTL_PRIORITY_NORMAL = 0,
	SF_CTL_PRIORITY_ESSENTIAL = 1,
	SF_CTL_PRIORITY_BACKGROUND = 2,
};

/* What `hint` sets; a max_mhz of 0 means no upper bound. */
struct sf_ctl_hints {
	uint32_t rate_num, rate_den;
	uint32_t min_mhz, max_mhz;
	uint32_t priority;		/* enum sf_ctl_priority */
};

int
sf_ctl_x_status(bool json);

int
sf_ctl_x_top(double interval, long count, bool json, bool all);

int
sf_ctl_x_pause(bool paused);

/* Whether stillframe is paused now (for measure --ab). */
int
sf_ctl_x_get_paused(bool *paused);

int
sf_ctl_x_hint(uint32_t window, const struct sf_ctl_hints *hints);

/* `output`: what an output's power follows, numbered as
 * stillframe_control_v1.output_power and SetOutputPower. */
enum sf_ctl_power {
	SF_CTL_POWER_AUTO = 0,
	SF_CTL_POWER_ON = 1,
	SF_CTL_POWER_OFF = 2,
};

/* Lists the outputs' power (name NULL), shows one, or with `set` asks
 * for `power` on the named one. */
int
sf_ctl_x_output(const char *name, bool set, enum sf_ctl_power power);

/* `trace`: records for `seconds` into `path` ("-": standard output). */
int
sf_ctl_x_trace(double seconds, const char *path);

/* Shared by both, from stillframectl.c. */

/* "stillframectl: COMMAND: " and the message, a pointer to COMMAND's
 * --help; returns the exit status of bad usage, 2. */
int
sf_ctl_command_usage_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void
sf_ctl_json_string(const char *s);

double
sf_ctl_monotonic_seconds(void);

void
sf_ctl_sleep_seconds(double seconds);

/* A file written next to `path` and renamed over it when complete, so
 * that no reader sees half of it; with allow_stdout, "-" is standard
 * output. */
struct sf_ctl_output_file {
	FILE *f;
	char *tmp;			/* NULL for standard output */
	const char *path;
	const char *what;		/* the command, for messages */
};

/* 0, or 1 after saying why. */
int
sf_ctl_output_file_open(struct sf_ctl_output_file *of, const char *path,
			const char *what, bool allow_stdout);

/* Completes the file (keep) or throws it away; 0, or 1 after saying
 * why. */
int
sf_ctl_output_file_close(struct sf_ctl_output_file *of, bool keep);
/* libwayland-client's errors go to a buffer instead of stderr, so that
 * each command says what went wrong in one line of its own; the last
 * message, "" if none. */
void
sf_ctl_wayland_log_capture(void);

const char *
sf_ctl_wayland_message(void);

#endif /* STILLFRAMECTL_X_H */
