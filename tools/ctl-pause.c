/* SPDX-License-Identifier: MIT */
/*
 * stillframectl pause | resume: puts back the user's settings and stops
 * acting, or acts again; says so when it did not take.
 */
#include <getopt.h>
#include <string.h>

#include "ctl-backend.h"
#include "ctl-commands.h"

int
sf_ctl_cmd_pause(int argc, char **argv, enum sf_ctl_choice choice)
{
	bool paused = strcmp(argv[0], "pause") == 0;
	struct sf_ctl_options o = {
		.command = argv[0], .takes = "", .choice = &choice,
	};

	while (sf_ctl_next_option(&o, argc, argv) != -1)
		;
	struct sf_ctl_conn *conn;
	int ret;

	if (sf_ctl_options_end_connect(&o, argc, argv, &conn, &ret))
		return ret;
	ret = sf_ctl_set_paused(conn, paused);
	sf_ctl_disconnect(conn);
	return ret;
}
