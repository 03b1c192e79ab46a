/* SPDX-License-Identifier: MIT */
/*
 * Holding a client, and letting it go as soon as it sends anything but
 * its blinks or ticks (sf-hold.h decides what that is).
 *
 * A held client is ignored (IgnoreClient): the server neither reads its
 * socket nor wakes up for it.  So the module watches each held client's
 * socket itself, edge-triggered in an epoll set of its own that the
 * server polls with its other descriptors: every time the client writes,
 * the server wakes, the module peeks at what waits (MSG_PEEK: nothing is
 * taken from the server) and lets the client go in the same cycle unless
 * it is only what its blinks or ticks sent before.  A printing terminal,
 * a redraw or a request waiting for its reply is drawn or answered at
 * once, and the client never blocks on a full socket.
 *
 * What a client's blinks and ticks are is learned from the requests that
 * drew them: the damage layer reports inside the request that drew, so
 * the request and its client are the server's current ones.  That is
 * also how the client that draws a window is known, when it is not the
 * one that owns it (Chromium's GPU process drawing the browser's window):
 * it is that client that is held.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xorg-server.h>
#include <dix.h>

#include "sf-xorg.h"

/* The server's per-connection record starts with the client's socket
 * (os/osdep.h, struct _osComm, not installed with the SDK); it has since
 * X11R6.  Only read, and only checked as a socket before use. */
struct sf_os_comm_head {
	int fd;
};

/* More than this waiting lets a held client go whatever it is: below
 * what a local socket buffers (some 200 kB with the kernel's overhead
 * per write), so the client never blocks writing to the server.  An
 * anti-aliased xclock sends 9 kB a tick. */
#define HOLD_BUDGET (64 * 1024)

static int
client_fd(ClientPtr client)
{
	const struct sf_os_comm_head *oc = client->osPrivate;
	int type = 0;
	socklen_t len = sizeof(type);

	if (!oc || oc->fd < 0 ||
	    getsockopt(oc->fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 ||
	    type != SOCK_STREAM)
		return -1;
	return oc->fd;
}

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
	 * lets a blinker go after it drew the caret (window.c). */
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

/* What waits in the held client's socket, judged. */
static uint8_t peeked[HOLD_BUDGET + 1];
static size_t peeked_len;

static enum sf_hold_verdict
judge(struct sf_xorg_hold *hold, uint8_t *opcode, bool *closed)
{
	uint8_t *buf = peeked;
	ClientPtr client = hold->client;

	peeked_len = 0;
	ssize_t n = recv(hold->fd, buf, sizeof(peeked), MSG_PEEK | MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? SF_HOLD_KEEP :
								 SF_HOLD_MALFORMED;
	if (n == 0) {
		*closed = true;		/* let the server see it go */
		return SF_HOLD_MALFORMED;
	}
	peeked_len = (size_t)n;
	return sf_hold_check(&hold->drawer->vocab, hold->match, buf, (size_t)n,
			     client->swapped, HOLD_BUDGET, opcode);
}

static void
let_go_if_more(struct sf_xorg *sx, struct sf_xorg_hold *hold)
{
	uint8_t opcode = 0;
	bool closed = false;
	enum sf_hold_verdict v = judge(hold, &opcode, &closed);

	if (v == SF_HOLD_KEEP) {
		if (hold->output && hold->output->deadline_waits)
			sf_xorg_deadline_check(sx, hold->output);
		return;
	}
	if (closed) {
		sf_xorg_release_client(sx, hold->client,
				       "its connection closed");
		return;
	}
	sx->sends_released++;
	if (v == SF_HOLD_NEW)
		sf_hold_vocab_learn_stream(&hold->drawer->candidate, peeked,
					   peeked_len, hold->client->swapped);
	if (v == SF_HOLD_NEW)
		sf_xorg_log(SF_LOG_DEBUG, "client %d: request %u is not one "
			    "of its blinks or ticks (%u learnt)",
			    hold->client->index, opcode,
			    hold->drawer->vocab.exact.n);
	sf_xorg_release_client(sx, hold->client, sf_hold_verdict_name(v));
}

static void
watch_handle(int fd, int ready, void *data)
{
	struct sf_xorg *sx = data;
	struct epoll_event events[16];
	(void)fd;
	(void)ready;

	int n = epoll_wait(sx->hold_epoll_fd, events, 16, 0);
	for (int i = 0; i < n; i++) {
		struct sf_xorg_hold *hold;
		xorg_list_for_each_entry(hold, &sx->holds, link) {
			if (hold->fd != events[i].data.fd)
				continue;
			let_go_if_more(sx, hold);
			break;
		}
	}
	sf_xorg_want_cycle(sx);
}

bool
sf_xorg_hold_watch(struct sf_xorg *sx, struct sf_xorg_hold *hold)
{
	int fd = client_fd(hold->client);

	if (fd < 0 || sx->hold_epoll_fd < 0)
		return false;
	struct epoll_event ev = {
		.events = EPOLLIN | EPOLLET | EPOLLRDHUP,
		.data.fd = fd,
	};
	if (epoll_ctl(sx->hold_epoll_fd, EPOLL_CTL_ADD, fd, &ev) != 0)
		return false;
	hold->fd = fd;
	return true;
}

void
sf_xorg_hold_unwatch(struct sf_xorg *sx, struct sf_xorg_hold *hold)
{
	if (hold->fd >= 0 && sx->hold_epoll_fd >= 0)
		epoll_ctl(sx->hold_epoll_fd, EPOLL_CTL_DEL, hold->fd, NULL);
	hold->fd = -1;
}

enum sf_blink_phase
sf_xorg_hold_waiting_phase(struct sf_xorg_hold *hold)
{
	bool closed = false;

	if (judge(hold, NULL, &closed) != SF_HOLD_KEEP)
		return SF_BLINK_PHASE_UNKNOWN;
	return sf_hold_last_phase(&hold->drawer->vocab, peeked, peeked_len,
				  hold->client->swapped);
}

bool
sf_xorg_hold_still_only_blinks(struct sf_xorg *sx, struct sf_xorg_hold *hold)
{
	bool closed = false;
	(void)sx;
	return judge(hold, NULL, &closed) == SF_HOLD_KEEP;
}

bool
sf_xorg_hold_init(struct sf_xorg *sx)
{
	xorg_list_init(&sx->drawers);
	sx->hold_epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (sx->hold_epoll_fd < 0)
		return false;
	if (!SetNotifyFd(sx->hold_epoll_fd, watch_handle, X_NOTIFY_READ, sx)) {
		close(sx->hold_epoll_fd);
		sx->hold_epoll_fd = -1;
		return false;
	}
	return true;
}

void
sf_xorg_hold_finish(struct sf_xorg *sx)
{
	struct sf_xorg_drawer *d, *next;

	if (sx->hold_epoll_fd >= 0) {
		RemoveNotifyFd(sx->hold_epoll_fd);
		close(sx->hold_epoll_fd);
		sx->hold_epoll_fd = -1;
	}
	if (!sx->drawers.next)
		return;
	xorg_list_for_each_entry_safe(d, next, &sx->drawers, link) {
		xorg_list_del(&d->link);
		free(d);
	}
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
