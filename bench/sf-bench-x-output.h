/* SPDX-License-Identifier: MIT */
/*
 * sf-bench-x's lines on stdout: "KEYWORD T ...", T the CLOCK_MONOTONIC
 * time in ms with three decimals.  Shared by sf-bench-x.c and the
 * --frames part.
 */
#ifndef SF_BENCH_X_OUTPUT_H
#define SF_BENCH_X_OUTPUT_H

#include <stdint.h>

/* CLOCK_MONOTONIC in microseconds */
int64_t
sf_bench_x_now_us(void);

/* The line's head; the caller prints the rest with printf and ends it
 * with sf_bench_x_line_end(), which line buffering turns into one write
 * (or a few, for a line longer than stdout's buffer). */
void
sf_bench_x_stamp(const char *keyword, int64_t us);

/* The newline; exits 1 when nobody reads us any more. */
void
sf_bench_x_line_end(void);

/* "error T connection lost", and exit 1. */
void
sf_bench_x_connection_lost(void);

#endif
