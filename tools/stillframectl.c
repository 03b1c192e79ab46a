/* SPDX-License-Identifier: MIT */
/*
 * stillframectl: looks at and steers the stillframe plugin of a running
 * Weston through stillframe_control_v1, or the Xorg module through the
 * STILLFRAME extension (ctl-backend.h).  This file is the command
 * table; each command is a file of its own (ctl-commands.h), the usage
 * is in ctl-usage.c.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "ctl-commands.h"

static const struct {
	const char *name;
	sf_ctl_command_fn run;
} commands[] = {
	{ "status", sf_ctl_cmd_status },
	{ "top", sf_ctl_cmd_top },
	{ "pause", sf_ctl_cmd_pause },
	{ "resume", sf_ctl_cmd_pause },
	{ "hint", sf_ctl_cmd_hint },
	{ "output", sf_ctl_cmd_output },
	{ "trace", sf_ctl_cmd_trace },
	{ "measure", sf_ctl_cmd_measure },
	{ "platform", sf_ctl_cmd_platform },
	{ "restore", sf_ctl_cmd_platform },
	{ "fbc", sf_ctl_cmd_fbc },
	{ "timeline", sf_ctl_cmd_timeline },
};

int
main(int argc, char **argv)
{
	enum sf_ctl_choice choice = SF_CTL_CHOICE_AUTO;
	int first = 1;

	/* --x11 and --wayland may come before the command, too. */
	for (; first < argc; first++) {
		int ret;

		if (strcmp(argv[first], "--x11") == 0)
			ret = sf_ctl_force_backend(&choice, SF_CTL_CHOICE_X11);
		else if (strcmp(argv[first], "--wayland") == 0)
			ret = sf_ctl_force_backend(&choice,
						   SF_CTL_CHOICE_WAYLAND);
		else
			break;
		if (ret != 0)
			return ret;
	}
	if (first >= argc)
		return sf_ctl_usage_error("missing COMMAND");

	const char *arg = argv[first];

	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
		sf_ctl_usage(stdout);
		return 0;
	}
	if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
		printf("stillframectl %s\n", SF_VERSION);
		return 0;
	}
	if (arg[0] == '-')
		return sf_ctl_usage_error("unknown option '%s'", arg);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(arg, commands[i].name) == 0)
			return commands[i].run(argc - first, argv + first,
					       choice);
	return sf_ctl_usage_error("unknown command '%s'", arg);
}
