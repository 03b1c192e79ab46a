/* SPDX-License-Identifier: MIT */
/*
 * What every stillframectl command uses and no backend provides: usage
 * errors, option parsing, JSON strings, the clock, files written
 * atomically.  Includes nothing of tools/, so any file may include it.
 */
#ifndef STILLFRAMECTL_UTIL_H
#define STILLFRAMECTL_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct option;

#define SF_CTL_EXIT_USAGE 2

/* --- messages --- */

/* "stillframectl: " and the message, a pointer to --help; returns the
 * exit status of bad usage, 2. */
int
sf_ctl_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* "stillframectl: COMMAND: " and the message, a pointer to COMMAND's
 * --help; returns 2. */
int
sf_ctl_command_usage_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Says so; returns 1. */
int
sf_ctl_out_of_memory(void);

/* stillframectl's usage (ctl-usage.c), for --help. */
void
sf_ctl_usage(FILE *f);

/* --- which backend: --x11, --wayland, or what the environment says --- */

enum sf_ctl_choice {
	SF_CTL_CHOICE_AUTO,
	SF_CTL_CHOICE_WAYLAND,
	SF_CTL_CHOICE_X11,
};

/* --x11 or --wayland, which may be repeated but not mixed: 0, or the
 * usage error's exit status. */
int
sf_ctl_force_backend(enum sf_ctl_choice *choice, enum sf_ctl_choice want);

/* --- options --- */

/*
 * The options of the commands that talk to a server, parsed by each
 * command from one table so that an option of another command gets
 * "status does not take --rate" rather than "unknown".  The letters:
 * j --json, P --prom, a --all, i --interval, n --count, r --rate,
 * R --range, p --priority, c --clear, F --for, o -o/--output.  --x11,
 * --wayland and --help are handled here.
 */
struct sf_ctl_options {
	const char *command;		/* for messages */
	const char *takes;		/* the letters the command takes */
	enum sf_ctl_choice *choice;	/* --x11, --wayland */
	/* Once sf_ctl_next_option returned -1: 0 when the options are
	 * done (operands start at optind), -1 after --help, or the exit
	 * status of a usage error. */
	int status;

	/* For sf_ctl_next_own_option only: a command with an option table
	 * of its own (fbc, measure, timeline), getopt's short options
	 * (":h" and more) and its own --help. */
	const struct option *table;
	const char *letters;
	void (*usage)(FILE *f);
	bool table_started;		/* optind reset, on the first call */
};

/* The next option the command takes (its letter, the value in optarg),
 * or -1. */
int
sf_ctl_next_option(struct sf_ctl_options *o, int argc, char **argv);

/* The same over o->table, from argv[1]: --help prints o->usage, an
 * unknown option or a missing value is a usage error of o->command
 * ("stillframectl: COMMAND: ..."). */
int
sf_ctl_next_own_option(struct sf_ctl_options *o, int argc, char **argv);

/* The exit status once sf_ctl_next_option stopped with o->status != 0:
 * 0 after --help. */
int
sf_ctl_options_exit(const struct sf_ctl_options *o);

/* For a command without operands, once sf_ctl_next_option (or
 * sf_ctl_next_own_option) returned -1: true when the command stops
 * there, with its exit status in *exit_status (after --help, a usage
 * error or an operand). */
bool
sf_ctl_options_end(const struct sf_ctl_options *o, int argc, char **argv,
		   int *exit_status);

bool
sf_ctl_parse_u32(const char *s, uint32_t *out);

/* A number from min to max, both included, and nothing after it. */
bool
sf_ctl_parse_number(const char *s, double min, double max, double *out);

/* top --interval: 0.05 to 3600 seconds. */
bool
sf_ctl_parse_interval(const char *s, double *out);

/* trace --for: more than 0, at most a day. */
bool
sf_ctl_parse_seconds(const char *s, double *out);

/* A decimal with up to three decimals, as thousandths: "47.952" is
 * 47952.  Stops at the first character that does not belong. */
bool
sf_ctl_parse_thousandths(const char **s, uint32_t *out);

/* An X window: 0x and hex, as xwininfo and status print it, or decimal,
 * as xdotool does; not 0. */
bool
sf_ctl_parse_window(const char *s, uint32_t *out);

/* Whether --root names an absolute directory without "..", as every
 * command that takes it wants. */
bool
sf_ctl_root_ok(const char *root);

/* --- output --- */

void
sf_ctl_json_string(const char *s);

/* "a,b" as ["a", "b"]; "-" as []. */
void
sf_ctl_json_list(const char *value);

/* A JSON number, exactly as the grammar has it (so no "007", "inf"). */
bool
sf_ctl_is_json_number(const char *s);

/* SIGINT and SIGTERM end what runs gracefully: from now on they set
 * the flag sf_ctl_interrupted reads (and cut a sleep short). */
void
sf_ctl_catch_interrupts(void);

bool
sf_ctl_interrupted(void);

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

#endif /* STILLFRAMECTL_UTIL_H */
