/* SPDX-License-Identifier: MIT */
/*
 * stillframectl: looks at and steers the stillframe plugin of a running
 * Weston through stillframe_control_v1, or the Xorg module through the
 * STILLFRAME extension (ctl-backend.h).  This file is the usage and the
 * command table; each command is a file of its own (ctl-commands.h).
 */
#include <stdio.h>
#include <string.h>

#include "ctl-commands.h"

#ifndef SF_VERSION
#define SF_VERSION "unknown"
#endif

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

void
sf_ctl_usage(FILE *f)
{
	fprintf(f,
		"usage: stillframectl [--help | --version] [--x11 | --wayland]\n"
		"                     COMMAND [ARGS]\n"
		"Looks at and steers stillframe inside the Wayland compositor of\n"
		"$WAYLAND_DISPLAY, or the X server of $DISPLAY when only DISPLAY\n"
		"is set (--x11 and --wayland choose).\n"
		"\n"
		"commands:\n"
		"  status [--json]        print the status counters\n"
		"  status --prom FILE     write them to FILE as a Prometheus\n"
		"                         node_exporter textfile, atomically (Weston)\n"
		"  top [--interval S] [--count N] [--all] [--json]\n"
		"                         print each surface's wakeups per second\n"
		"                         every S seconds (default 1), N times\n"
		"  pause                  put back the user's settings and stop acting\n"
		"  resume                 act again\n"
		"  hint SURFACE-ID [--rate NUM[/DEN]] [--range MIN-MAX]\n"
		"       [--priority normal|essential|background]\n"
		"                         set a surface's hints (refresh in Hz);\n"
		"                         hints not given are withdrawn\n"
		"  hint SURFACE-ID --clear\n"
		"                         withdraw every hint of the surface\n"
		"  output [NAME [on|off|auto]]\n"
		"                         show the outputs' power, or power one on\n"
		"                         or off while connected, or hand it back\n"
		"                         to unneeded-outputs (auto)\n"
		"  platform [--root DIR] [--try SECONDS] [--nouveau] [--verbose]\n"
		"                         print the GPUs, panels, backlight and battery\n"
		"                         found here and what low clocks would write;\n"
		"                         --try lowers them for a while and measures\n"
		"  restore [--root DIR]   put back what a stillframe that died left in\n"
		"                         its state file\n"
		"  trace --for SECONDS -o FILE\n"
		"                         record what stillframe sees as a trace\n"
		"                         for stillframe-replay (- for stdout)\n"
		"  fbc [--refresh HZ] [--json] IMAGE\n"
		"                         estimate how well a wallpaper or screenshot\n"
		"                         (PNG or PPM) compresses in the framebuffer\n"
		"  timeline TRACE -o FILE.svg [--option KEY=VALUE] [--title TEXT]\n"
		"                         replay a trace through the policy core and\n"
		"                         draw refresh, idle state, repaints, DPMS,\n"
		"                         GPU clocks and input over time\n"
		"  measure --for SECONDS [--interval S] [--force] [--json]\n"
		"          [--root DIR]   the battery's mean power over SECONDS\n"
		"  measure --ab --for SECONDS [--window S] [--settle S] ...\n"
		"                         stillframe paused and running in turns:\n"
		"                         the difference, with a 95%% confidence\n"
		"                         interval (see 'measure --help')\n"
		"On X11, hint takes a WINDOW (0x40000c or decimal) instead of a\n"
		"SURFACE-ID, and the server takes hints only from the window's\n"
		"own client.  platform, restore, fbc and timeline need neither,\n"
		"nor does measure without --ab.\n");
}

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
