/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAMECTL_SCREEN_H
#define STILLFRAMECTL_SCREEN_H

#include <stdint.h>

/* One output's picture: width x height pixels, 0xRRGGBB, row by row,
 * valid during the call.  Returns an exit status; not 0 stops. */
typedef int (*sf_ctl_screen_shot_fn)(void *data, const char *output,
				     uint32_t width, uint32_t height,
				     uint32_t *pixels);

/* Captures every output of the Weston at $WAYLAND_DISPLAY through
 * weston_screenshooter, one after the other, and hands each to `shot`.
 * Returns an exit status, having said on stderr what went wrong. */
int
sf_ctl_screen_capture(sf_ctl_screen_shot_fn shot, void *data);

#endif
