/* SPDX-License-Identifier: MIT */
/*
 * A client of the other byte order: its requests swapped before the same
 * handlers as a client of the server's byte order run (dispatch.c), and
 * StateNotify swapped on its way to it.  The replies are swapped where
 * they are written, field by field.
 */
#include <xorg-server.h>
#include <X11/Xproto.h>
#include <dixstruct.h>
#include <misc.h>

#include "request.h"
#include "sf-xorg.h"
#include "stillframe-x.h"

void
sf_xorg_swap_state_notify(xEvent *from, xEvent *to)
{
	struct stillframe_x_state_notify_event *f = (void *)from;
	struct stillframe_x_state_notify_event *t = (void *)to;

	*t = *f;
	swaps(&t->sequence);
	swapl(&t->window);
	swapl(&t->output);
	swapl(&t->refresh_mhz);
	swapl(&t->timestamp);
}

/* The size checked before any field is swapped, then the fields swapped
 * in place (request.c), then the same code as for a client of the
 * server's byte order. */
int
sf_xorg_sproc_dispatch(ClientPtr client)
{
	int rc = sf_xorg_request_check_size(client);

	if (rc != Success)
		return rc;
	sf_x_request_swap(client->requestBuffer);
	return sf_xorg_proc_dispatch(client);
}
