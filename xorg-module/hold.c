/* SPDX-License-Identifier: MIT */
/*
 * Holding a client, and letting it go as soon as it sends anything but
 * its blinks or ticks (sf-hold.h decides what that is).
 *
 * X has no repaint to veto: a client's drawing is on screen once its
 * request ran.  So when the core holds an output's damage (blinks and
 * ticks while the user is idle), the client that drew it is held instead
 * (IgnoreClient): its next blink waits, queued in its socket, until the
 * output paints again, input arrives, the class's staleness deadline
 * passes, the window turns essential, its window is covered, uncovered
 * or exposed (ClipNotify), or it sends anything but its blinks or ticks:
 * then it is let go (AttendClient) in the same server cycle.  Nothing
 * but a blink or a tick waits.
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
hold_watch_handle_ready(int fd, int ready, void *data)
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
	if (!SetNotifyFd(sx->hold_epoll_fd, hold_watch_handle_ready,
			 X_NOTIFY_READ, sx)) {
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

/* The core keeps the windows a held client draws in their class: their
 * next commits come at our release, not on their own cadence. */
static void
mark_client_windows(struct sf_xorg *sx, ClientPtr client, bool held)
{
	struct sf_xorg_window *xw;

	xorg_list_for_each_entry(xw, &sx->windows, link)
		if (xw->drawer == client)
			sf_surface_set_held(xw->core, held);
}

bool
sf_xorg_client_is_held(struct sf_xorg *sx, ClientPtr client)
{
	struct sf_xorg_hold *hold;

	xorg_list_for_each_entry(hold, &sx->holds, link)
		if (hold->client == client)
			return true;
	return false;
}

static void
hold_client(struct sf_xorg *sx, struct sf_xorg_window *xw,
	    struct sf_xorg_output *xo, sf_time_t now)
{
	ClientPtr client = xw->drawer;

	/* Not with requests read and not yet run: they are no blink the
	 * module has seen, and it could not see them wait. */
	if (!client || client->clientGone ||
	    sf_xorg_client_is_held(sx, client) ||
	    !xorg_list_is_empty(&client->ready))
		return;
	struct sf_xorg_drawer *drawer = sf_xorg_drawer_find(sx, client, false);
	if (!drawer)
		return;		/* none of its blinks or ticks known */
	struct sf_xorg_hold *hold = calloc(1, sizeof(*hold));
	if (!hold)
		return;		/* not holding is always safe */
	hold->client = client;
	hold->output = xo;
	hold->since = now;
	hold->fd = -1;
	hold->drawer = drawer;
	hold->match = sf_surface_get_classification(xw->core)->cls ==
				      SF_CLASS_TICKING ?
			      SF_HOLD_MATCH_SHAPE : SF_HOLD_MATCH_EXACT;
	if (!sf_xorg_hold_watch(sx, hold) ||
	    !sf_xorg_hold_still_only_blinks(sx, hold)) {
		sf_xorg_hold_unwatch(sx, hold);
		free(hold);
		return;
	}
	IgnoreClient(client);
	xorg_list_append(&hold->link, &sx->holds);
	mark_client_windows(sx, client, true);
	sf_xorg_log(SF_LOG_DEBUG, "client %d held: it drew only blinks or "
		    "ticks while the user is idle", client->index);
}

/* Why a release_where: a deadline's lets the windows be held again once
 * painted; a paint leaves an output whose deadline waits for a caret. */
enum release_kind {
	RELEASE_NOW = 0,
	RELEASE_DEADLINE,
	RELEASE_PAINTED,
};

static void
release_where(struct sf_xorg *sx, struct sf_xorg_output *xo,
	      ClientPtr client, const char *why, enum release_kind kind)
{
	struct sf_xorg_hold *hold, *next;
	struct sf_xorg_window *xw;
	bool deadline = kind == RELEASE_DEADLINE;

	xorg_list_for_each_entry_safe(hold, next, &sx->holds, link) {
		if ((xo && hold->output != xo) ||
		    (client && hold->client != client))
			continue;
		if (kind == RELEASE_PAINTED && hold->output &&
		    hold->output->deadline_waits)
			continue;
		xorg_list_del(&hold->link);
		sf_xorg_hold_unwatch(sx, hold);
		mark_client_windows(sx, hold->client, false);
		hold->drawer->backlog = true;
		if (deadline)
			xorg_list_for_each_entry(xw, &sx->windows, link)
				if (xw->drawer == hold->client)
					xw->hold_after_paint = true;
		if (!hold->client->clientGone)
			AttendClient(hold->client);
		sx->releases++;
		sf_xorg_log(SF_LOG_DEBUG, "client %d released after %.3f s (%s)",
			    hold->client->index,
			    (double)(sf_support_now() - hold->since) /
				    SF_NSEC_PER_SEC, why);
		free(hold);
	}
}

void
sf_xorg_release(struct sf_xorg *sx, struct sf_xorg_output *xo,
		const char *why)
{
	struct sf_xorg_output *o;

	xorg_list_for_each_entry(o, &sx->outputs, link)
		if (!xo || o == xo)
			o->deadline_waits = false;
	release_where(sx, xo, NULL, why, RELEASE_NOW);
}

/* The phase a blinker held on `xo` leaves on screen if let go now:
 * HIDDEN if any would hide its caret (X shows it until its next blink). */
static enum sf_blink_phase
held_caret_phase(struct sf_xorg *sx, struct sf_xorg_output *xo)
{
	struct sf_xorg_hold *hold;

	xorg_list_for_each_entry(hold, &sx->holds, link)
		if (hold->output == xo && hold->match == SF_HOLD_MATCH_EXACT &&
		    sf_xorg_hold_waiting_phase(hold) == SF_BLINK_PHASE_HIDDEN)
			return SF_BLINK_PHASE_HIDDEN;
	return SF_BLINK_PHASE_UNKNOWN;
}

/*
 * At the core's deadline every client held on the output is let go, and
 * draws what waited, in one frame.  When a blinker's waiting requests end
 * with its caret hidden, the release waits until it draws the caret again
 * (hold.c watches it write) or its grace ends (sf_hold_deadline_waits);
 * the output's other clients wait with it, to draw in the same frame.
 */
void
sf_xorg_release_at_deadline(struct sf_xorg *sx, struct sf_xorg_output *xo)
{
	sf_time_t now = sf_support_now();
	bool waited = xo->deadline_waits;

	if (!waited)
		xo->deadline_since = now;
	if (sf_hold_deadline_waits(held_caret_phase(sx, xo),
				   xo->deadline_since, now)) {
		xo->deadline_waits = true;
		return;
	}
	xo->deadline_waits = false;
	release_where(sx, xo, NULL,
		      !waited ? "deadline or input" :
		      now >= xo->deadline_since + SF_HOLD_DEADLINE_CARET_GRACE ?
			      "deadline, no caret drawn since" :
			      "deadline, its caret drawn",
		      RELEASE_DEADLINE);
}

void
sf_xorg_deadline_check(struct sf_xorg *sx, struct sf_xorg_output *xo)
{
	if (xo->deadline_waits)
		sf_xorg_release_at_deadline(sx, xo);
}

void
sf_xorg_release_client(struct sf_xorg *sx, ClientPtr client, const char *why)
{
	if (client)
		release_where(sx, NULL, client, why, RELEASE_NOW);
}

void
sf_xorg_forget_client(struct sf_xorg *sx, ClientPtr client)
{
	struct sf_xorg_hold *hold, *next;

	sf_xorg_drawer_forget(sx, client);
	xorg_list_for_each_entry_safe(hold, next, &sx->holds, link) {
		if (hold->client != client)
			continue;
		xorg_list_del(&hold->link);
		sf_xorg_hold_unwatch(sx, hold);
		sf_xorg_log(SF_LOG_INFO, "client %d gone while held: its hold "
			    "is dropped", client->index);
		free(hold);
	}
}

/* Whether the client drew anything this cycle that was not held. */
static bool
client_drew_unheld(struct sf_xorg *sx, ClientPtr client)
{
	struct sf_xorg_window *xw;

	xorg_list_for_each_entry(xw, &sx->windows, link)
		if (xw->drawer == client && xw->committed_now && !xw->held)
			return true;
	return false;
}

/*
 * A client let go at its deadline draws what waited, then its next blink
 * on its own cadence: held again only after that one, it would show one
 * more frame per deadline (two when that blink hid the caret).  So a
 * window whose drawer a deadline let go, once what waited is drawn and
 * painted, has its drawer held again at once if the core would hold it
 * now: the user still idle, and for a blink, the caret shown.
 */
static void
hold_again_after_paint(struct sf_xorg *sx, struct sf_xorg_output *xo,
		       sf_time_t now)
{
	struct sf_xorg_window *xw;

	xorg_list_for_each_entry(xw, &sx->windows, link) {
		if (xw->output != xo || !xw->committed_now ||
		    !xw->hold_after_paint)
			continue;
		/* Its requests not all run yet: the next frame says. */
		if (xw->drawer && !xw->drawer->clientGone &&
		    !xorg_list_is_empty(&xw->drawer->ready))
			continue;
		xw->hold_after_paint = false;
		if (xw->drawer && sf_surface_may_hold_client(xw->core, now))
			hold_client(sx, xw, xo, now);
	}
}

void
sf_xorg_hold_cycle(struct sf_xorg *sx, sf_time_t now, void *timeout)
{
	struct sf_xorg_window *xw;
	struct sf_xorg_output *xo;
	sf_time_t deadline;

	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		if (!xo->committed_now && !xo->repaint_due)
			continue;
		/* Powered off, it will not paint to let a held client go:
		 * nobody is held on it. */
		if (!sf_output_is_powered(xo->core)) {
			xo->committed_now = false;
			xo->repaint_due = false;
			sf_output_repaint(xo->core, 0, now, &deadline);
			sf_xorg_release(sx, xo, "output powered off");
			continue;
		}
		xo->committed_now = false;
		xo->repaint_due = false;
		enum sf_repaint_decision d =
			sf_output_repaint(xo->core, 0, now, &deadline);
		if (d != SF_REPAINT_DEFER) {
			/* The output shows everything again. */
			release_where(sx, xo, NULL, "painted",
				      RELEASE_PAINTED);
			hold_again_after_paint(sx, xo, now);
			continue;
		}
		xorg_list_for_each_entry(xw, &sx->windows, link) {
			if (xw->output != xo || !xw->committed_now ||
			    !xw->held || !xw->drawer ||
			    client_drew_unheld(sx, xw->drawer) ||
			    !sf_surface_may_hold_client(xw->core, now))
				continue;
			hold_client(sx, xw, xo, now);
		}
	}
	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		if (!xo->deadline_waits)
			continue;
		sf_xorg_deadline_check(sx, xo);
		if (xo->deadline_waits)
			sf_xorg_wake_up_in(timeout, xo->deadline_since +
					   SF_HOLD_DEADLINE_CARET_GRACE - now);
	}
}
