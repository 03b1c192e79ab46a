/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAMECTL_MEASURE_H
#define STILLFRAMECTL_MEASURE_H

#include <stdbool.h>

/* How measure --ab steers stillframe: the Wayland or the X11 backend of
 * stillframectl.  Both return an exit status, having said on stderr
 * what went wrong. */
struct sf_ctl_policy {
	/* Whether stillframe is paused now. */
	int (*get_paused)(void *data, bool *paused);
	int (*set_paused)(void *data, bool paused);
	void *data;
};

/* "measure", from argv[0] on (the command's name); `policy` is used
 * only with --ab. */
int
sf_ctl_measure_main(int argc, char **argv, const struct sf_ctl_policy *policy);

#endif
