/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "ctl-backend.h"

/* Choosing a backend and connecting to it (ctl-backend.h). */

const struct sf_ctl_backend *
sf_ctl_backend_choose(enum sf_ctl_choice choice)
{
	const char *x = getenv("DISPLAY");
	const char *wayland = getenv("WAYLAND_DISPLAY");

	if (choice == SF_CTL_CHOICE_X11)
		return &sf_ctl_backend_x11;
	if (choice == SF_CTL_CHOICE_WAYLAND)
		return &sf_ctl_backend_wayland;
	if (x && x[0] && !(wayland && wayland[0]))
		return &sf_ctl_backend_x11;
	return &sf_ctl_backend_wayland;
}

int
sf_ctl_connect(enum sf_ctl_choice choice, struct sf_ctl_conn **conn)
{
	const struct sf_ctl_backend *b = sf_ctl_backend_choose(choice);

	*conn = NULL;
	if (b->unavailable) {
		fprintf(stderr, "stillframectl: %s%s\n", b->unavailable,
			choice == SF_CTL_CHOICE_AUTO ?
				"; it chose X11 as DISPLAY is set and WAYLAND_DISPLAY is not (--wayland chooses Wayland)" :
				"");
		return 1;
	}
	return b->connect(conn);
}

bool
sf_ctl_options_end_connect(const struct sf_ctl_options *o, int argc,
			   char **argv, struct sf_ctl_conn **conn,
			   int *exit_status)
{
	*conn = NULL;
	if (sf_ctl_options_end(o, argc, argv, exit_status))
		return true;
	*exit_status = sf_ctl_connect(*o->choice, conn);
	if (*exit_status == 0)
		return false;
	sf_ctl_disconnect(*conn);
	*conn = NULL;
	return true;
}

void
sf_ctl_disconnect(struct sf_ctl_conn *conn)
{
	if (conn)
		conn->backend->disconnect(conn);
}

int
sf_ctl_set_paused(struct sf_ctl_conn *conn, bool paused)
{
	const struct sf_ctl_backend *b = conn->backend;
	bool now;
	int ret = b->set_paused(conn, paused);

	if (ret == 0)
		ret = b->get_paused(conn, &now);
	if (ret == 0 && now != paused) {
		fprintf(stderr, "stillframectl: stillframe did not %s\n",
			paused ? "pause" : "resume");
		ret = 1;
	}
	return ret;
}

int
sf_ctl_unsupported(const struct sf_ctl_backend *b, const char *what,
		   const char *capability)
{
	fprintf(stderr, "stillframectl: %s is for %s: %s has no %s\n", what,
		b->peer, b->protocol, capability);
	return 1;
}

#ifndef SF_CTL_HAVE_X11
/* Without libxcb: what hint takes is known, the rest says why not. */
const struct sf_ctl_backend sf_ctl_backend_x11 = {
	.name = "X11",
	.server = "server",
	.peer = "Weston",
	.protocol = "the X server's STILLFRAME extension",
	.view = &sf_ctl_x11_view,
	.unavailable = "this stillframectl was built without the X11 backend (libxcb was missing)",
};
#endif
