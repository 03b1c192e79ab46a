/* SPDX-License-Identifier: MIT */
/*
 * stillframectl fbc: how well an image would compress under line-by-line
 * framebuffer compression (common/include/sf-fbc.h), and what to do about it.
 */
#ifndef STILLFRAMECTL_FBC_H
#define STILLFRAMECTL_FBC_H

/* "fbc", from argv[0] on (the command's name). */
int
sf_ctl_fbc_main(int argc, char **argv);

#endif
