/* SPDX-License-Identifier: MIT */
/*
 * Load for the plugin's load test and bench/load: many Wayland clients
 * in one process, each its own connection, as many separate programs
 * would be.
 *
 *   sf-load-client --clients N [--fps F] [--seconds S] [--churn]
 *                  [--linger S]
 *   sf-load-client --cycle TOTAL [--batch B]
 *
 * --clients: N connections, each with one 64x64 xdg toplevel that
 * commits F times a second (default 60) for S seconds (default 10),
 * paced by a timer and not by frame callbacks, so that a throttled or
 * held surface goes on committing: the compositor sees the whole load.
 * Each frame changes one column of the picture and damages only it.
 * With --churn, every frame one client in ten changes its hints before
 * its commit, in turn: a stillframe_surface_v1 content rate, refresh
 * range or priority; a wp_content_type_v1 created, changed or
 * destroyed; an idle inhibitor created or destroyed; and now and then
 * the stillframe_surface_v1 itself destroyed and made again (on a
 * compositor without stillframe.so, none of it: "done" counts 0).
 * Prints "ready N" once every surface has its first buffer, and at the
 * end "done COMMITS CHURN" (commits sent, hint changes sent), then
 * keeps every surface for --linger seconds (default 0), still answering
 * pings, so that a test can read the compositor's state with them there.
 *
 * --cycle: TOTAL xdg toplevels created and destroyed, B at a time
 * (default 100), each with a buffer, a stillframe_surface_v1 and a
 * wp_content_type_v1 (the last two where the compositor has them).  Batches destroy their objects in turns in
 * protocol order, surface first (the hint objects go inert), or not at
 * all: every fifth batch is on a connection of its own that is closed
 * with everything still alive.  Prints "cycled TOTAL".
 *
 * Exits 1, naming what failed, on a lost connection or a protocol
 * error: either is a compositor bug here, as every request is valid.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "content-type-v1-client-protocol.h"
#include "load-client.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "stillframe-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define SIZE 64
#define STRIDE (SIZE * 4)
#define BUFFER_BYTES (STRIDE * SIZE)

struct connection {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct stillframe_manager_v1 *stillframe;
	struct wp_content_type_manager_v1 *content_type_manager;
	struct zwp_idle_inhibit_manager_v1 *inhibit_manager;
	/* stillframe.so serves all three hint protocols; a stock Weston
	 * (bench/load) none. */
	bool hints;
};

struct window {
	struct connection *conn;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_buffer *buffers[2];
	uint32_t *pixels[2];
	uint8_t *map;
	bool configured;
	unsigned frame;

	struct stillframe_surface_v1 *hint;
	struct wp_content_type_v1 *content_type;
	struct zwp_idle_inhibitor_v1 *inhibitor;
	unsigned churn_step;
};

/* --- connection --- */

static void
registry_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version)
{
	struct connection *c = data;
	(void)version;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		c->compositor = wl_registry_bind(registry, name,
						 &wl_compositor_interface, 4);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		c->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		c->wm_base = wl_registry_bind(registry, name,
					      &xdg_wm_base_interface, 1);
	else if (strcmp(interface, stillframe_manager_v1_interface.name) == 0)
		c->stillframe = wl_registry_bind(
			registry, name, &stillframe_manager_v1_interface, 1);
	else if (strcmp(interface,
			wp_content_type_manager_v1_interface.name) == 0)
		c->content_type_manager = wl_registry_bind(
			registry, name, &wp_content_type_manager_v1_interface,
			1);
	else if (strcmp(interface,
			zwp_idle_inhibit_manager_v1_interface.name) == 0)
		c->inhibit_manager = wl_registry_bind(
			registry, name, &zwp_idle_inhibit_manager_v1_interface,
			1);
}

static void
registry_global_remove(void *data, struct wl_registry *registry,
		       uint32_t name)
{
	(void)data;
	(void)registry;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {
	registry_global,
	registry_global_remove,
};

static void
wm_base_handle_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	wm_base_handle_ping,
};

/* A protocol error or a lost connection: say which and stop. */
static void __attribute__((noreturn))
connection_fail(struct connection *c, const char *when)
{
	const struct wl_interface *iface = NULL;
	uint32_t id = 0;
	int err = wl_display_get_error(c->display);

	if (err == EPROTO) {
		uint32_t code = wl_display_get_protocol_error(c->display,
							      &iface, &id);
		sf_load_die("%s: protocol error %u on %s@%u", when, code,
		    iface ? iface->name : "?", id);
	}
	sf_load_die("%s: connection lost (%s)", when,
		    strerror(err ? err : errno));
}

static void
connection_init(struct connection *c)
{
	*c = (struct connection){ 0 };
	c->display = wl_display_connect(NULL);
	if (!c->display)
		sf_load_die("no Wayland display (WAYLAND_DISPLAY, "
			    "XDG_RUNTIME_DIR)");
	struct wl_registry *registry = wl_display_get_registry(c->display);
	wl_registry_add_listener(registry, &registry_listener, c);
	if (wl_display_roundtrip(c->display) < 0)
		connection_fail(c, "registry");
	wl_registry_destroy(registry);
	if (!c->compositor || !c->shm || !c->wm_base)
		sf_load_die("the compositor lacks wl_compositor, wl_shm or "
			    "xdg_wm_base");
	c->hints = c->stillframe && c->content_type_manager &&
		   c->inhibit_manager;
	xdg_wm_base_add_listener(c->wm_base, &wm_base_listener, c);
}

static void
connection_finish(struct connection *c)
{
	/* Closing the socket is enough: the compositor frees the rest.
	 * wl_proxy_destroy frees our side of the globals and sends
	 * nothing. */
	wl_proxy_destroy((struct wl_proxy *)c->compositor);
	wl_proxy_destroy((struct wl_proxy *)c->shm);
	wl_proxy_destroy((struct wl_proxy *)c->wm_base);
	if (c->stillframe)
		wl_proxy_destroy((struct wl_proxy *)c->stillframe);
	if (c->content_type_manager)
		wl_proxy_destroy((struct wl_proxy *)c->content_type_manager);
	if (c->inhibit_manager)
		wl_proxy_destroy((struct wl_proxy *)c->inhibit_manager);
	wl_display_disconnect(c->display);
	c->display = NULL;
}

/* Our side of a window only, without a request: its connection is about
 * to close with the window still alive in the compositor. */
static void
window_forget(struct window *w)
{
	struct wl_proxy *proxies[] = {
		(struct wl_proxy *)w->hint,
		(struct wl_proxy *)w->content_type,
		(struct wl_proxy *)w->inhibitor,
		(struct wl_proxy *)w->toplevel,
		(struct wl_proxy *)w->xdg_surface,
		(struct wl_proxy *)w->surface,
		(struct wl_proxy *)w->buffers[0],
		(struct wl_proxy *)w->buffers[1],
	};

	for (size_t i = 0; i < sizeof(proxies) / sizeof(proxies[0]); i++)
		if (proxies[i])
			wl_proxy_destroy(proxies[i]);
	munmap(w->map, 2 * BUFFER_BYTES);
}

/* --- windows --- */

static void
xdg_surface_handle_configure(void *data, struct xdg_surface *xdg_surface,
			     uint32_t serial)
{
	struct window *w = data;

	xdg_surface_ack_configure(xdg_surface, serial);
	w->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
	xdg_surface_handle_configure,
};

static void
toplevel_handle_configure(void *data, struct xdg_toplevel *toplevel,
			  int32_t width, int32_t height,
			  struct wl_array *states)
{
	(void)data;
	(void)toplevel;
	(void)width;
	(void)height;
	(void)states;
}

static void
toplevel_handle_close(void *data, struct xdg_toplevel *toplevel)
{
	(void)data;
	(void)toplevel;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_handle_configure,
	.close = toplevel_handle_close,
};

static void
window_create_buffers(struct window *w)
{
	int fd = memfd_create("sf-load-client", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, 2 * BUFFER_BYTES) < 0)
		sf_load_die("shm: %s", strerror(errno));
	w->map = mmap(NULL, 2 * BUFFER_BYTES, PROT_READ | PROT_WRITE,
		      MAP_SHARED, fd, 0);
	if (w->map == MAP_FAILED)
		sf_load_die("shm: mmap: %s", strerror(errno));
	struct wl_shm_pool *pool = wl_shm_create_pool(w->conn->shm, fd,
						      2 * BUFFER_BYTES);
	for (int i = 0; i < 2; i++) {
		w->buffers[i] = wl_shm_pool_create_buffer(
			pool, i * BUFFER_BYTES, SIZE, SIZE, STRIDE,
			WL_SHM_FORMAT_XRGB8888);
		w->pixels[i] = (uint32_t *)(w->map + i * BUFFER_BYTES);
	}
	wl_shm_pool_destroy(pool);
	close(fd);
}

/* Asks for the toplevel; window_wait_configured finishes it. */
static void
window_init(struct window *w, struct connection *conn, const char *app_id)
{
	*w = (struct window){ .conn = conn };
	w->surface = wl_compositor_create_surface(conn->compositor);
	w->xdg_surface = xdg_wm_base_get_xdg_surface(conn->wm_base,
						     w->surface);
	xdg_surface_add_listener(w->xdg_surface, &xdg_surface_listener, w);
	w->toplevel = xdg_surface_get_toplevel(w->xdg_surface);
	xdg_toplevel_add_listener(w->toplevel, &toplevel_listener, w);
	xdg_toplevel_set_app_id(w->toplevel, app_id);
	wl_surface_commit(w->surface);
	window_create_buffers(w);
}

/* One column more of the picture, and only it damaged. */
static void
window_draw(struct window *w)
{
	int i = (int)(w->frame & 1);
	int x = (int)(w->frame % SIZE);
	uint32_t color = 0xff000000u | (w->frame * 2654435761u >> 8);

	for (int y = 0; y < SIZE; y++)
		w->pixels[i][y * SIZE + x] = color;
	wl_surface_attach(w->surface, w->buffers[i], 0, 0);
	wl_surface_damage_buffer(w->surface, x, 0, 1, SIZE);
	wl_surface_commit(w->surface);
	w->frame++;
}

/* Protocol order: the objects on the surface, then the surface. */
static void
window_finish(struct window *w, bool surface_first)
{
	if (surface_first) {
		/* Legal: the hint objects go inert, and are destroyed
		 * after. */
		xdg_toplevel_destroy(w->toplevel);
		xdg_surface_destroy(w->xdg_surface);
		wl_surface_destroy(w->surface);
	}
	if (w->hint)
		stillframe_surface_v1_destroy(w->hint);
	if (w->content_type)
		wp_content_type_v1_destroy(w->content_type);
	if (w->inhibitor)
		zwp_idle_inhibitor_v1_destroy(w->inhibitor);
	if (!surface_first) {
		xdg_toplevel_destroy(w->toplevel);
		xdg_surface_destroy(w->xdg_surface);
		wl_surface_destroy(w->surface);
	}
	wl_buffer_destroy(w->buffers[0]);
	wl_buffer_destroy(w->buffers[1]);
	munmap(w->map, 2 * BUFFER_BYTES);
}

static struct wp_content_type_v1 *
content_type_get(struct connection *c, struct wl_surface *surface)
{
	return wp_content_type_manager_v1_get_surface_content_type(
		c->content_type_manager, surface);
}

/* One hint change, before the commit that applies it; false when the
 * compositor has no hint protocols. */
static bool
window_churn(struct window *w)
{
	struct connection *c = w->conn;
	unsigned step = w->churn_step++;

	if (!c->hints)
		return false;

	if (!w->hint)
		w->hint = stillframe_manager_v1_get_surface(c->stillframe,
							    w->surface);
	switch (step % 8) {
	case 0:
		stillframe_surface_v1_set_content_rate(w->hint,
						       1 + step % 60, 1);
		break;
	case 1:
		stillframe_surface_v1_set_refresh_range(
			w->hint, 30000, 30000 + 1000 * (step % 31));
		break;
	case 2:
		stillframe_surface_v1_set_priority(
			w->hint, (step / 8) % 3);
		break;
	case 3:
		if (!w->content_type)
			w->content_type = content_type_get(c, w->surface);
		wp_content_type_v1_set_content_type(w->content_type,
						    (step / 8) % 4);
		break;
	case 4:
		if (w->inhibitor) {
			zwp_idle_inhibitor_v1_destroy(w->inhibitor);
			w->inhibitor = NULL;
		} else {
			w->inhibitor =
				zwp_idle_inhibit_manager_v1_create_inhibitor(
					c->inhibit_manager, w->surface);
		}
		break;
	case 5:
		if (w->content_type) {
			wp_content_type_v1_destroy(w->content_type);
			w->content_type = NULL;
		}
		break;
	case 6:
		stillframe_surface_v1_set_content_rate(w->hint, 0, 1);
		break;
	case 7:
		/* A new object for the same surface: the old one's
		 * hints go with it. */
		stillframe_surface_v1_destroy(w->hint);
		w->hint = stillframe_manager_v1_get_surface(c->stillframe,
							    w->surface);
		break;
	}
	return true;
}

/* Dispatches every connection until each window has been configured,
 * then gives each its first buffer. */
static void
windows_map(struct window *ws, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct connection *c = ws[i].conn;
		while (!ws[i].configured)
			if (wl_display_dispatch(c->display) < 0)
				connection_fail(c, "configure");
		window_draw(&ws[i]);
	}
}

static void
connection_sync(struct connection *c, const char *when)
{
	if (wl_display_roundtrip(c->display) < 0)
		connection_fail(c, when);
}

/* --- --clients --- */

/* Answers whatever the connections get, for `ms` milliseconds. */
static void
connections_serve(struct connection *conns, struct pollfd *pfds, unsigned n,
		  long long ms)
{
	long long end = sf_load_now_ns() + ms * 1000000LL;

	for (unsigned i = 0; i < n; i++)
		pfds[i] = (struct pollfd){
			wl_display_get_fd(conns[i].display), POLLIN, 0 };
	while (sf_load_now_ns() < end) {
		if (poll(pfds, n, 100) < 0 && errno != EINTR)
			sf_load_die("poll: %s", strerror(errno));
		for (unsigned i = 0; i < n; i++) {
			if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (wl_display_dispatch(conns[i].display) < 0)
				connection_fail(&conns[i], "linger");
			wl_display_flush(conns[i].display);
		}
	}
}

static int
run_clients(unsigned n, unsigned fps, unsigned seconds, bool churn,
	    unsigned linger)
{
	struct connection *conns = calloc(n, sizeof(*conns));
	struct window *ws = calloc(n, sizeof(*ws));
	struct pollfd *pfds = calloc(n + 1, sizeof(*pfds));
	unsigned long long commits = 0, changes = 0;

	if (!conns || !ws || !pfds)
		sf_load_die("out of memory");
	for (unsigned i = 0; i < n; i++) {
		char app_id[32];
		snprintf(app_id, sizeof(app_id), "sf-load-%u", i);
		connection_init(&conns[i]);
		window_init(&ws[i], &conns[i], app_id);
		wl_display_flush(conns[i].display);
	}
	windows_map(ws, n);
	for (unsigned i = 0; i < n; i++)
		connection_sync(&conns[i], "first buffer");
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
	pfds[n] = (struct pollfd){ timer, POLLIN, 0 };
	for (unsigned i = 0; i < n; i++)
		pfds[i] = (struct pollfd){
			wl_display_get_fd(conns[i].display), POLLIN, 0 };

	long long end = sf_load_now_ns() + (long long)seconds * 1000000000LL;
	unsigned long long frame = 0;
	while (sf_load_now_ns() < end) {
		if (poll(pfds, n + 1, 100) < 0 && errno != EINTR)
			sf_load_die("poll: %s", strerror(errno));
		for (unsigned i = 0; i < n; i++) {
			if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (wl_display_dispatch(conns[i].display) < 0)
				connection_fail(&conns[i], "load");
		}
		if (!(pfds[n].revents & POLLIN))
			continue;
		uint64_t expirations;
		if (read(timer, &expirations, sizeof(expirations)) < 0)
			continue;
		for (unsigned i = 0; i < n; i++) {
			if (churn && (i + frame) % 10 == 0 &&
			    window_churn(&ws[i]))
				changes++;
			window_draw(&ws[i]);
			commits++;
			/* A compositor that falls behind fills the socket:
			 * this frame's commit waits in libwayland's buffer
			 * and goes with the next flush. */
			if (wl_display_flush(conns[i].display) < 0 &&
			    errno != EAGAIN)
				connection_fail(&conns[i], "flush");
		}
		frame++;
	}
	for (unsigned i = 0; i < n; i++)
		connection_sync(&conns[i], "end");
	printf("done %llu %llu\n", commits, changes);
	fflush(stdout);
	connections_serve(conns, pfds, n, linger * 1000LL);
	for (unsigned i = 0; i < n; i++) {
		window_finish(&ws[i], false);
		connection_finish(&conns[i]);
	}
	close(timer);
	free(pfds);
	free(ws);
	free(conns);
	return 0;
}

/* --- --cycle --- */

static int
run_cycle(unsigned total, unsigned batch)
{
	struct window *ws = calloc(batch, sizeof(*ws));
	struct connection shared, own;
	unsigned done = 0;

	if (!ws)
		sf_load_die("out of memory");
	connection_init(&shared);
	for (unsigned round = 0; done < total; round++) {
		unsigned n = total - done < batch ? total - done : batch;
		bool disconnect = round % 5 == 4;
		struct connection *c = &shared;

		if (disconnect) {
			connection_init(&own);
			c = &own;
		}
		for (unsigned i = 0; i < n; i++) {
			window_init(&ws[i], c, "sf-load-cycle");
			if (!c->hints)
				continue;
			ws[i].hint = stillframe_manager_v1_get_surface(
				c->stillframe, ws[i].surface);
			stillframe_surface_v1_set_content_rate(ws[i].hint, 24,
							       1);
			ws[i].content_type = content_type_get(c,
							       ws[i].surface);
			wp_content_type_v1_set_content_type(
				ws[i].content_type,
				WP_CONTENT_TYPE_V1_TYPE_VIDEO);
		}
		windows_map(ws, n);
		connection_sync(c, "cycle: create");
		if (disconnect) {
			for (unsigned i = 0; i < n; i++)
				window_forget(&ws[i]);
			connection_finish(c);
		} else {
			for (unsigned i = 0; i < n; i++)
				window_finish(&ws[i], round % 2 == 1);
			connection_sync(c, "cycle: destroy");
		}
		done += n;
	}
	connection_finish(&shared);
	free(ws);
	printf("cycled %u\n", done);
	fflush(stdout);
	return 0;
}

int
main(int argc, char **argv)
{
	struct sf_load_options o;

	if (!sf_load_parse_options(argc, argv, "sf-load-client", &o))
		return 2;
	return o.clients ? run_clients(o.clients, o.fps, o.seconds, o.churn,
				       o.linger) :
			   run_cycle(o.cycle, o.batch);
}
