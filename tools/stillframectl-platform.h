/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAMECTL_PLATFORM_H
#define STILLFRAMECTL_PLATFORM_H

#include <stdbool.h>

/* Whether --root names an absolute directory without "..", as every
 * command that takes it wants. */
bool
sf_ctl_root_ok(const char *root);

/* "platform" and "restore", from argv[0] on (the command's name). */
int
sf_ctl_platform_main(int argc, char **argv);

#endif
