/* SPDX-License-Identifier: MIT */
/*
 * stillframectl's commands, one file each (ctl-status.c, ctl-top.c,
 * ...), called by the command table of stillframectl.c with argv[0] the
 * command's name and `choice` what --x11 or --wayland before it said.
 * Each parses its own options and returns the exit status.
 */
#ifndef STILLFRAMECTL_COMMANDS_H
#define STILLFRAMECTL_COMMANDS_H

#include "ctl-util.h"

typedef int (*sf_ctl_command_fn)(int argc, char **argv,
				 enum sf_ctl_choice choice);

/* Through a backend (ctl-backend.h). */
int
sf_ctl_cmd_status(int argc, char **argv, enum sf_ctl_choice choice);

int
sf_ctl_cmd_top(int argc, char **argv, enum sf_ctl_choice choice);

/* "pause" and "resume". */
int
sf_ctl_cmd_pause(int argc, char **argv, enum sf_ctl_choice choice);

int
sf_ctl_cmd_hint(int argc, char **argv, enum sf_ctl_choice choice);

int
sf_ctl_cmd_output(int argc, char **argv, enum sf_ctl_choice choice);

int
sf_ctl_cmd_trace(int argc, char **argv, enum sf_ctl_choice choice);

/* The battery; with --ab through a backend too. */
int
sf_ctl_cmd_measure(int argc, char **argv, enum sf_ctl_choice choice);

/* Neither compositor nor server: this machine's sysfs ("platform" and
 * "restore"), an image or a screenshot ("fbc"), a trace ("timeline"). */
int
sf_ctl_cmd_platform(int argc, char **argv, enum sf_ctl_choice choice);

int
sf_ctl_cmd_fbc(int argc, char **argv, enum sf_ctl_choice choice);

int
sf_ctl_cmd_timeline(int argc, char **argv, enum sf_ctl_choice choice);

#endif /* STILLFRAMECTL_COMMANDS_H */
