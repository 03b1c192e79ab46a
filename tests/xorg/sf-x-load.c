/* SPDX-License-Identifier: MIT */
/*
 * Load for the Xorg module's load test and bench/load: many X clients in
 * one process, each its own connection, as many separate programs would
 * be.
 *
 *   sf-x-load --clients N [--fps F] [--seconds S] [--churn] [--linger S]
 *   sf-x-load --cycle TOTAL [--batch B]
 *
 * --clients: N connections, each with one mapped 64x64 top-level window
 * that draws F times a second (default 60) for S seconds (default 10),
 * paced by a timer: one new 1x64 column a frame, so each frame is a
 * small damage.  With --churn, every frame one client in ten changes its
 * window's hints before drawing, in turn: STILLFRAME SetWindowHint with
 * a content rate, a refresh range, a priority flag, nothing (where the
 * server has the extension; a stock one just skips them); the
 * _STILLFRAME_HINT property written and deleted; _VARIABLE_REFRESH set
 * and deleted.  Prints "ready N" once every window is mapped, and at the
 * end "done FRAMES CHURN" (drawing requests sent, hint changes sent),
 * then keeps every window for --linger seconds (default 0), so that a
 * test can read the server's state with them there.
 *
 * --cycle: TOTAL top-level windows created, mapped, drawn into, hinted
 * and destroyed, B at a time (default 100); every fifth batch is on a
 * connection of its own that is closed with its windows still there.
 * Prints "cycled TOTAL".
 *
 * Every request is valid: an X error, or a lost connection, is named and
 * ends the run with status 1.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/xcbext.h>

#include "load-client.h"
#include "stillframe-x.h"

#define SIZE 64

static xcb_extension_t stillframe_ext = { STILLFRAME_X_NAME, 0 };

struct client {
	xcb_connection_t *conn;
	xcb_screen_t *screen;
	xcb_window_t window;
	xcb_gcontext_t gc;
	xcb_atom_t hint_atom, vrr_atom;
	unsigned frame;
	unsigned churn_step;
	bool has_stillframe;	/* the server has the STILLFRAME extension */
};

static xcb_atom_t
intern(xcb_connection_t *conn, const char *name)
{
	xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(
		conn, xcb_intern_atom(conn, 0, (uint16_t)strlen(name), name),
		NULL);
	xcb_atom_t atom;

	if (!reply)
		sf_load_die("InternAtom %s failed", name);
	atom = reply->atom;
	free(reply);
	return atom;
}

/* Reads what the server sent; an error names its request. */
static void
client_drain(struct client *c, const char *when)
{
	xcb_generic_event_t *event;

	if (xcb_connection_has_error(c->conn))
		sf_load_die("%s: connection lost (xcb error %d)", when,
		    xcb_connection_has_error(c->conn));
	while ((event = xcb_poll_for_event(c->conn))) {
		if (event->response_type == 0) {
			xcb_generic_error_t *e = (xcb_generic_error_t *)event;
			sf_load_die("%s: X error %u, request %u.%u, "
				    "resource 0x%x", when, e->error_code,
				    e->major_code, e->minor_code,
				    e->resource_id);
		}
		free(event);
	}
}

/* A round trip: everything sent before has been handled. */
static void
client_sync(struct client *c, const char *when)
{
	free(xcb_get_input_focus_reply(c->conn,
				       xcb_get_input_focus(c->conn), NULL));
	client_drain(c, when);
}

static void
client_connect(struct client *c)
{
	*c = (struct client){ 0 };
	c->conn = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(c->conn))
		sf_load_die("cannot connect to the X server ($DISPLAY)");
	c->screen = xcb_setup_roots_iterator(xcb_get_setup(c->conn)).data;
	const xcb_query_extension_reply_t *ext =
		xcb_get_extension_data(c->conn, &stillframe_ext);
	/* A stock server (bench/load) has none: only the properties. */
	c->has_stillframe = ext && ext->present;
	c->hint_atom = intern(c->conn, STILLFRAME_X_HINT_PROPERTY);
	c->vrr_atom = intern(c->conn, STILLFRAME_X_VRR_PROPERTY);
}

static void
client_disconnect(struct client *c)
{
	xcb_disconnect(c->conn);
	c->conn = NULL;
}

/* A mapped top-level window with a WM_CLASS and a GC to draw with. */
static xcb_window_t
client_create_window(struct client *c, int16_t x, int16_t y)
{
	static const char wm_class[] = "sf-x-load\0SfXLoad";
	xcb_window_t window = xcb_generate_id(c->conn);
	uint32_t background = c->screen->black_pixel;

	xcb_create_window(c->conn, XCB_COPY_FROM_PARENT, window,
			  c->screen->root, x, y, SIZE, SIZE, 0,
			  XCB_WINDOW_CLASS_INPUT_OUTPUT, XCB_COPY_FROM_PARENT,
			  XCB_CW_BACK_PIXEL, &background);
	xcb_change_property(c->conn, XCB_PROP_MODE_REPLACE, window,
			    XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8,
			    sizeof(wm_class), wm_class);
	xcb_map_window(c->conn, window);
	return window;
}

static void
client_draw(struct client *c, xcb_window_t window)
{
	uint32_t color = c->frame * 2654435761u >> 8;
	xcb_rectangle_t column = { (int16_t)(c->frame % SIZE), 0, 1, SIZE };

	if (!c->gc) {
		c->gc = xcb_generate_id(c->conn);
		xcb_create_gc(c->conn, c->gc, window, 0, NULL);
	}
	xcb_change_gc(c->conn, c->gc, XCB_GC_FOREGROUND, &color);
	xcb_poly_fill_rectangle(c->conn, window, c->gc, 1, &column);
	c->frame++;
}

/* STILLFRAME SetWindowHint, sent as an unchecked request: an error
 * comes back as an event, which client_drain reports. */
static void
set_window_hint(struct client *c, xcb_window_t window, uint32_t num,
		uint32_t den, uint32_t min_mhz, uint32_t max_mhz,
		uint32_t flags)
{
	if (!c->has_stillframe)
		return;

	struct stillframe_x_set_window_hint_req req = {
		.window = window,
		.rate_num = num,
		.rate_den = den,
		.min_mhz = min_mhz,
		.max_mhz = max_mhz,
		.flags = flags,
	};
	/* xcb fills in the major opcode and length and needs the two
	 * vector entries before ours for itself. */
	struct iovec parts[4] = {
		[2] = { &req, sizeof(req) },
		[3] = { NULL, 0 },
	};
	xcb_protocol_request_t request = {
		.count = 2,
		.ext = &stillframe_ext,
		.opcode = STILLFRAME_X_SET_WINDOW_HINT,
		.isvoid = 1,
	};

	xcb_send_request(c->conn, 0, parts + 2, &request);
}

/* One hint change; false when it was a request the server lacks. */
static bool
client_churn(struct client *c)
{
	unsigned step = c->churn_step++;
	uint32_t hint[STILLFRAME_X_HINT_ITEMS] = { 24, 1, 0, 0, 0 };
	uint32_t one = 1;

	if (!c->has_stillframe && step % 8 < 4)
		return false;
	switch (step % 8) {
	case 0:
		set_window_hint(c, c->window, 1 + step % 60, 1, 0, 0, 0);
		break;
	case 1:
		set_window_hint(c, c->window, 0, 0, 30000,
				30000 + 1000 * (step % 31), 0);
		break;
	case 2:
		set_window_hint(c, c->window, 0, 0, 0, 0,
				(step / 8) % 2 ? STILLFRAME_X_FLAG_ESSENTIAL :
						 STILLFRAME_X_FLAG_BACKGROUND);
		break;
	case 3:
		set_window_hint(c, c->window, 0, 0, 0, 0, 0);
		break;
	case 4:
		xcb_change_property(c->conn, XCB_PROP_MODE_REPLACE, c->window,
				    c->hint_atom, XCB_ATOM_CARDINAL, 32,
				    STILLFRAME_X_HINT_ITEMS, hint);
		break;
	case 5:
		xcb_delete_property(c->conn, c->window, c->hint_atom);
		break;
	case 6:
		xcb_change_property(c->conn, XCB_PROP_MODE_REPLACE, c->window,
				    c->vrr_atom, XCB_ATOM_CARDINAL, 32, 1,
				    &one);
		break;
	case 7:
		xcb_delete_property(c->conn, c->window, c->vrr_atom);
		break;
	}
	return true;
}

static int
run_clients(unsigned n, unsigned fps, unsigned seconds, bool churn,
	    unsigned linger)
{
	struct client *cs = calloc(n, sizeof(*cs));
	struct pollfd *pfds = calloc(n + 1, sizeof(*pfds));
	unsigned long long frames = 0, changes = 0;

	if (!cs || !pfds)
		sf_load_die("out of memory");
	for (unsigned i = 0; i < n; i++) {
		client_connect(&cs[i]);
		cs[i].window = client_create_window(
			&cs[i], (int16_t)(i % 20 * SIZE),
			(int16_t)(i / 20 % 12 * SIZE));
		client_draw(&cs[i], cs[i].window);
		xcb_flush(cs[i].conn);
	}
	for (unsigned i = 0; i < n; i++)
		client_sync(&cs[i], "map");
	printf("ready %u\n", n);
	fflush(stdout);

	int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	long long period = 1000000000LL / fps;
	struct itimerspec its = {
		.it_interval = { 0, period },
		.it_value = { 0, period },
	};
	if (timer < 0 || timerfd_settime(timer, 0, &its, NULL) < 0)
		sf_load_die("timerfd: %s", strerror(errno));
	for (unsigned i = 0; i < n; i++)
		pfds[i] = (struct pollfd){ xcb_get_file_descriptor(cs[i].conn),
					   POLLIN, 0 };
	pfds[n] = (struct pollfd){ timer, POLLIN, 0 };

	long long end = sf_load_now_ns() + (long long)seconds * 1000000000LL;
	unsigned frame = 0;
	while (sf_load_now_ns() < end) {
		if (poll(pfds, n + 1, 100) < 0 && errno != EINTR)
			sf_load_die("poll: %s", strerror(errno));
		for (unsigned i = 0; i < n; i++)
			if (pfds[i].revents)
				client_drain(&cs[i], "load");
		if (!(pfds[n].revents & POLLIN))
			continue;
		uint64_t expirations;
		if (read(timer, &expirations, sizeof(expirations)) < 0)
			continue;
		for (unsigned i = 0; i < n; i++) {
			if (churn && (i + frame) % 10 == 0)
				changes += client_churn(&cs[i]);
			client_draw(&cs[i], cs[i].window);
			frames++;
			xcb_flush(cs[i].conn);
		}
		frame++;
	}
	for (unsigned i = 0; i < n; i++)
		client_sync(&cs[i], "end");
	printf("done %llu %llu\n", frames, changes);
	fflush(stdout);
	for (long long until = sf_load_now_ns() + linger * 1000000000LL;
	     sf_load_now_ns() < until;) {
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
		for (unsigned i = 0; i < n; i++)
			client_drain(&cs[i], "linger");
	}
	for (unsigned i = 0; i < n; i++)
		client_disconnect(&cs[i]);
	close(timer);
	free(pfds);
	free(cs);
	return 0;
}

static int
run_cycle(unsigned total, unsigned batch)
{
	xcb_window_t *windows = calloc(batch, sizeof(*windows));
	struct client shared, own;
	unsigned done = 0;

	if (!windows)
		sf_load_die("out of memory");
	client_connect(&shared);
	for (unsigned round = 0; done < total; round++) {
		unsigned n = total - done < batch ? total - done : batch;
		bool disconnect = round % 5 == 4;
		struct client *c = &shared;

		if (disconnect) {
			client_connect(&own);
			c = &own;
		}
		for (unsigned i = 0; i < n; i++) {
			windows[i] = client_create_window(
				c, (int16_t)(i % 20 * SIZE),
				(int16_t)(i / 20 % 12 * SIZE));
			client_draw(c, windows[i]);
			set_window_hint(c, windows[i], 24, 1, 0, 0, 0);
		}
		client_sync(c, "cycle: create");
		if (disconnect) {
			client_disconnect(c);
		} else {
			for (unsigned i = 0; i < n; i++)
				xcb_destroy_window(c->conn, windows[i]);
			client_sync(c, "cycle: destroy");
		}
		done += n;
	}
	client_disconnect(&shared);
	free(windows);
	printf("cycled %u\n", done);
	fflush(stdout);
	return 0;
}

int
main(int argc, char **argv)
{
	struct sf_load_options o;

	if (!sf_load_parse_options(argc, argv, "sf-x-load", &o))
		return 2;
	return o.clients ? run_clients(o.clients, o.fps, o.seconds, o.churn,
				       o.linger) :
			   run_cycle(o.cycle, o.batch);
}
