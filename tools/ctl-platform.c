/* SPDX-License-Identifier: MIT */
/*
 * stillframectl platform and restore: the platform layer on this
 * machine, without a compositor or server.  "platform" prints what was
 * found and what a low clock would write, and with --try lowers the
 * clocks for a while and measures the battery before and during;
 * "restore" puts back what a stillframe that died left in its state
 * file.  Both take --root for a fake tree.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sf-platform.h"
#include "ctl-commands.h"

/* The least level shown: errors for platform (what it finds is on
 * stdout), what was put back for restore, everything with --verbose. */
static enum sf_platform_log_level log_level = SF_PLATFORM_LOG_ERROR;

static void
log_to_stderr(void *data, enum sf_platform_log_level level,
	      const char *message)
{
	(void)data;
	if (level >= log_level)
		fprintf(stderr, "stillframectl: %s\n", message);
}

static void
write_stdout(void *data, const char *text, size_t len)
{
	(void)data;
	fwrite(text, 1, len, stdout);
}

static sf_time_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (sf_time_t)ts.tv_sec * SF_NSEC_PER_SEC + ts.tv_nsec;
}

static int
usage_error(const char *command, const char *what)
{
	fprintf(stderr, "stillframectl: %s: %s\nTry 'stillframectl --help'.\n",
		command, what);
	return 2;
}

static void
print_power(const char *label, struct sf_platform *p)
{
	struct sf_power_sample s;

	sf_platform_read_power(p, &s);
	if (s.have_power)
		printf("battery.power_w.%s %.2f%s\n", label, s.watts,
		       s.discharging ? "" : " (not discharging: the reading "
					    "includes charging)");
	else
		printf("battery.power_w.%s unknown (no battery power "
		       "reading)\n", label);
}

/* Lowers the clocks for `seconds`, or until SIGINT or SIGTERM, and puts
 * them back either way. */
static int
try_low(struct sf_platform *p, double seconds)
{

	sf_ctl_catch_interrupts();
	print_power("normal", p);
	if (!sf_platform_set_reclock(p, SF_RECLOCK_LOW)) {
		fprintf(stderr, "stillframectl: platform --try: no GPU took "
			"low clocks (see the lines above)\n");
		return 1;
	}
	printf("clocks low for %.1f s (Ctrl-C puts them back sooner)\n",
	       seconds);
	fflush(stdout);
	sf_time_t end = now_ns() + (sf_time_t)(seconds * SF_NSEC_PER_SEC);
	while (!sf_ctl_interrupted() && now_ns() < end) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	print_power("low", p);
	sf_platform_set_reclock(p, SF_RECLOCK_NORMAL);
	printf("clocks put back%s\n",
	       sf_ctl_interrupted() ? " (interrupted)" : "");
	return 0;
}

int
sf_ctl_cmd_platform(int argc, char **argv, enum sf_ctl_choice choice)
{
	static const struct option options[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "try", required_argument, NULL, 't' },
		{ "nouveau", no_argument, NULL, 'N' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *command = argv[0];
	bool is_restore = strcmp(command, "restore") == 0;
	struct sf_platform_options o;
	double try_seconds = 0;
	int c;

	sf_platform_options_init(&o);
	o.log = log_to_stderr;
	if (is_restore)
		log_level = SF_PLATFORM_LOG_INFO;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (!sf_ctl_root_ok(optarg))
				return usage_error(command, "--root needs an "
						   "absolute directory without "
						   "\"..\"");
			o.root = optarg;
			break;
		case 't':
			if (is_restore ||
			    !sf_ctl_parse_number(optarg, 0.1, 3600, &try_seconds))
				return usage_error(command, is_restore ?
					"restore does not take --try" :
					"--try expects seconds from 0.1 to "
					"3600");
			break;
		case 'N':
			o.reclock_nouveau = true;
			break;
		case 'v':
			log_level = SF_PLATFORM_LOG_DEBUG;
			break;
		case ':':
			return usage_error(command, "an option needs a value");
		default:
			return usage_error(command, "unknown option");
		}
	}
	if (optind < argc)
		return usage_error(command, "unexpected argument");

	char path[4096];
	sf_platform_state_path(&o, path, sizeof(path));
	if (is_restore) {
		if (access(path, F_OK) != 0) {
			printf("nothing to put back: no state file at %s\n",
			       path);
			return 0;
		}
		int n = sf_platform_restore_state(&o);
		if (n < 0) {
			fprintf(stderr, "stillframectl: restore: cannot read "
				"%s: %s\n", path, strerror(errno));
			return 1;
		}
		printf("put back %d value%s from %s\n", n, n == 1 ? "" : "s",
		       path);
		return 0;
	}

	/* One state file per machine: a running stillframe's (or a dead
	 * one's) values must not be saved over. */
	if (try_seconds > 0 && access(path, F_OK) == 0) {
		fprintf(stderr, "stillframectl: platform --try: %s holds values "
			"another stillframe changed (it runs, or it died: "
			"stillframectl restore puts them back); not trying\n",
			path);
		return 1;
	}
	/* Looking changes nothing: leftovers wait for restore. */
	o.restore_leftovers = false;
	struct sf_platform *p = sf_platform_create(&o);
	if (!p) {
		fprintf(stderr, "stillframectl: out of memory\n");
		return 1;
	}
	struct sf_writer w = { .write = write_stdout };
	sf_platform_describe(p, now_ns(), &w);
	int ret = try_seconds > 0 ? try_low(p, try_seconds) : 0;
	sf_platform_destroy(p);
	return ret;
}
