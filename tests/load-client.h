/* SPDX-License-Identifier: MIT */
#ifndef SF_LOAD_CLIENT_H
#define SF_LOAD_CLIENT_H

/*
 * What the two load clients (tests/weston/sf-load-client.c and
 * tests/xorg/sf-x-load.c) share: their command line, their clock and how
 * they fail.  Header-only, as each is a single-file program.
 *
 *   PROG --clients N [--fps F] [--seconds S] [--churn] [--linger S]
 *   PROG --cycle TOTAL [--batch B]
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sf_load_options {
	unsigned clients, cycle, batch, fps, seconds, linger;
	bool churn;
};

/* Set by sf_load_parse_options, for sf_load_die's messages. */
static const char *sf_load_prog = "load-client";

static inline void __attribute__((noreturn, format(printf, 1, 2)))
sf_load_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", sf_load_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static inline long long
sf_load_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline bool
sf_load_parse_count(const char *s, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

/* Fills `o` from the command line; false, with a message naming the
 * argument and the usage, when it is wrong. */
static inline bool
sf_load_parse_options(int argc, char **argv, const char *prog,
		      struct sf_load_options *o)
{
	*o = (struct sf_load_options){ .batch = 100, .fps = 60,
				       .seconds = 10 };
	sf_load_prog = prog;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : "";
		bool ok;

		if (strcmp(arg, "--churn") == 0) {
			o->churn = true;
			continue;
		}
		if (strcmp(arg, "--clients") == 0)
			ok = sf_load_parse_count(val, 1000, &o->clients);
		else if (strcmp(arg, "--cycle") == 0)
			ok = sf_load_parse_count(val, 10000000, &o->cycle);
		else if (strcmp(arg, "--batch") == 0)
			ok = sf_load_parse_count(val, 1000, &o->batch);
		else if (strcmp(arg, "--fps") == 0)
			ok = sf_load_parse_count(val, 1000, &o->fps);
		else if (strcmp(arg, "--seconds") == 0)
			ok = sf_load_parse_count(val, 86400, &o->seconds);
		else if (strcmp(arg, "--linger") == 0)
			ok = sf_load_parse_count(val, 86400, &o->linger);
		else
			ok = false;
		if (!ok) {
			fprintf(stderr, "%s: bad argument: %s %s\n"
				"usage: %s --clients N [--fps F] [--seconds S] "
				"[--churn] [--linger S]\n"
				"       %s --cycle TOTAL [--batch B]\n",
				prog, arg, val, prog, prog);
			return false;
		}
		i++;
	}
	if (!o->clients == !o->cycle) {
		fprintf(stderr, "%s: give --clients or --cycle\n", prog);
		return false;
	}
	return true;
}

#endif /* SF_LOAD_CLIENT_H */
