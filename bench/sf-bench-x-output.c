/* SPDX-License-Identifier: MIT */
#include "sf-bench-x-output.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int64_t
sf_bench_x_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void
sf_bench_x_stamp(const char *keyword, int64_t us)
{
	printf("%s %" PRId64 ".%03" PRId64, keyword, us / 1000, us % 1000);
}

void
sf_bench_x_line_end(void)
{
	putchar('\n');
	/* Whoever reads us has gone: nobody is left to witness for. */
	if (fflush(stdout) != 0 || ferror(stdout))
		exit(1);
}

void
sf_bench_x_connection_lost(void)
{
	sf_bench_x_stamp("error", sf_bench_x_now_us());
	printf(" connection lost");
	sf_bench_x_line_end();
	exit(1);
}
