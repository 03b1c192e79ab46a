/* SPDX-License-Identifier: MIT */
/*
 * Who draws a window, and with which requests: the damage layer reports
 * inside the request that drew, so the request and its client are the
 * server's current ones.  A client whose held frames were blinks or
 * ticks has those requests learnt (sf-hold.h), so that only they may
 * wait while it is held (hold.c).
 */
#include <stdlib.h>

#include <xorg-server.h>
#include <dix.h>

#include "sf-xorg.h"

struct sf_xorg_drawer *
sf_xorg_drawer_find(struct sf_xorg *sx, ClientPtr client, bool create)
{
	struct sf_xorg_drawer *d;

	xorg_list_for_each_entry(d, &sx->drawers, link)
		if (d->client == client)
			return d;
	if (!create)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->client = client;
	sf_hold_vocab_init(&d->vocab);
	sf_hold_vocab_init(&d->candidate);
	xorg_list_append(&d->link, &sx->drawers);
	return d;
}

void
sf_xorg_drawer_note_request(struct sf_xorg_window *xw, bool learn)
{
	ClientPtr client = GetCurrentClient();

	if (!client || client == serverClient || client->clientGone) {
		xw->frame_mixed = true;
		return;
	}
	if (!xw->frame_drawer)
		xw->frame_drawer = client;
	else if (xw->frame_drawer != client)
		xw->frame_mixed = true;
	if (!learn || (client == xw->frame_seq_client &&
		       client->sequence == xw->frame_seq))
		return;
	xw->frame_seq_client = client;
	xw->frame_seq = client->sequence;
	sf_hold_vocab_learn(&xw->frame_vocab, client->requestBuffer,
			    (size_t)client->req_len * 4, client->swapped);
}

void
sf_xorg_drawer_end_frame(struct sf_xorg_window *xw, bool held)
{
	struct sf_xorg *sx = xw->sx;

	xw->drawer = xw->frame_mixed ? NULL : xw->frame_drawer;
	struct sf_xorg_drawer *d = xw->drawer ?
		sf_xorg_drawer_find(sx, xw->drawer, held) : NULL;
	/* The core held the frame: what drew it, what drew the frame
	 * before (the blink's other phase) and what waited when the
	 * client was last let go are its blinks or ticks. */
	/* A blink's requests also say which phase they drew: a deadline
	 * lets a blinker go after it drew the caret (hold.c). */
	enum sf_blink_phase phase = sf_surface_get_blink_phase(xw->core);
	if (d && d->backlog)
		phase = SF_BLINK_PHASE_UNKNOWN;
	if (d && held) {
		sf_hold_vocab_merge_phase(&d->vocab, &xw->frame_vocab, phase);
		if (xw->prev_frame_drawer == xw->drawer)
			sf_hold_vocab_merge_phase(&d->vocab,
						  &xw->prev_frame_vocab,
						  xw->prev_frame_phase);
		sf_hold_vocab_merge(&d->vocab, &d->candidate);
	}
	if (d) {
		sf_hold_vocab_init(&d->candidate);
		d->backlog = false;
	}
	xw->prev_frame_vocab = xw->frame_vocab;
	xw->prev_frame_drawer = xw->drawer;
	xw->prev_frame_phase = phase;
	sf_hold_vocab_init(&xw->frame_vocab);
	xw->frame_drawer = NULL;
	xw->frame_mixed = false;
	xw->frame_seq_client = NULL;
}

void
sf_xorg_drawer_forget(struct sf_xorg *sx, ClientPtr client)
{
	struct sf_xorg_drawer *d = sf_xorg_drawer_find(sx, client, false);
	struct sf_xorg_window *xw;

	if (d) {
		xorg_list_del(&d->link);
		free(d);
	}
	xorg_list_for_each_entry(xw, &sx->windows, link) {
		if (xw->drawer == client)
			xw->drawer = NULL;
		if (xw->frame_drawer == client) {
			xw->frame_drawer = NULL;
			xw->frame_mixed = true;
		}
		if (xw->frame_seq_client == client)
			xw->frame_seq_client = NULL;
		if (xw->prev_frame_drawer == client)
			xw->prev_frame_drawer = NULL;
	}
}
