/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAMECTL_PLATFORM_H
#define STILLFRAMECTL_PLATFORM_H

/* "platform" and "restore", from argv[0] on (the command's name). */
int
sf_ctl_platform_main(int argc, char **argv);

#endif
