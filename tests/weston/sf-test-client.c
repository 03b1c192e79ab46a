/* SPDX-License-Identifier: MIT */
/*
 * A Wayland client for the plugin's integration tests: an xdg toplevel
 * with an shm buffer that redraws at a given rate, and optionally sends
 * stillframe_surface_v1 hints, holds an idle inhibitor, or misuses the
 * protocol on purpose to check the error it gets.
 *
 *   sf-test-client [--fps F] [--rate NUM/DEN] [--priority P]
 *                  [--inhibit] [--size WxH] [--seconds S]
 *                  [--app-id NAME] [--keyboard] [--bar-damage]
 *                  [--empty-frames]
 *   sf-test-client --misuse double-get|bad-rate|bad-range|bad-priority|
 *                           after-destroy|bad-power|unknown-output
 *
 * --app-id names the toplevel (default sf-test-client), which the
 * plugin's status shows as the surface's label: a test running several
 * clients tells their surfaces apart by it.
 *
 * With --keyboard it binds the seat's keyboard and prints "keyboard
 * enter" and "keyboard leave" as its surface gains and loses the focus
 * (desktop-shell takes the focus from every client when it locks).
 *
 * Each frame moves a one-pixel bar and damages the whole surface, which
 * the classifier calls a video; with --bar-damage it damages only the
 * two columns that changed, an animation (videos are never throttled).
 *
 * With --empty-frames it draws once and then, as a browser does around
 * its page's caret, asks for a frame callback and commits nothing new
 * (no attach, no damage) each time one comes, and prints "frame
 * callbacks N" at the end: how fast the compositor paces it.
 *
 * With --misuse it exits 0 when the compositor sent the documented
 * protocol error for that misuse (printed as "protocol error: IFACE
 * CODE"), 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "stillframe-control-v1-client-protocol.h"
#include "stillframe-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct client {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct stillframe_manager_v1 *stillframe;
	struct stillframe_control_v1 *control;	/* version 2, for misuse */
	struct zwp_idle_inhibit_manager_v1 *inhibit_manager;
	struct wl_seat *seat;
	struct wl_keyboard *keyboard;
	bool want_keyboard;
	bool bar_damage;		/* damage what changed, not everything */
	bool empty_frames;		/* an empty commit per frame callback */
	unsigned frame_callbacks;	/* received, with empty_frames */

	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_buffer *buffers[2];
	uint32_t *pixels[2];
	int width, height;
	bool configured;
	unsigned frame;
};

static void
registry_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version)
{
	struct client *c = data;

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
	else if (strcmp(interface, stillframe_control_v1_interface.name) == 0 &&
		 version >= 2)
		c->control = wl_registry_bind(
			registry, name, &stillframe_control_v1_interface, 2);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !c->seat &&
		 c->want_keyboard)
		c->seat = wl_registry_bind(registry, name, &wl_seat_interface,
					   version < 5 ? version : 5);
	else if (strcmp(interface,
			zwp_idle_inhibit_manager_v1_interface.name) == 0)
		c->inhibit_manager = wl_registry_bind(
			registry, name, &zwp_idle_inhibit_manager_v1_interface,
			1);
	(void)version;
}

/* --- the keyboard, for focus --- */

static void
keyboard_keymap(void *data, struct wl_keyboard *keyboard, uint32_t format,
		int32_t fd, uint32_t size)
{
	(void)data;
	(void)keyboard;
	(void)format;
	(void)size;
	close(fd);
}

static void
keyboard_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	       struct wl_surface *surface, struct wl_array *keys)
{
	struct client *c = data;
	(void)keyboard;
	(void)serial;
	(void)keys;
	if (surface == c->surface) {
		printf("keyboard enter\n");
		fflush(stdout);
	}
}

static void
keyboard_leave(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	       struct wl_surface *surface)
{
	struct client *c = data;
	(void)keyboard;
	(void)serial;
	if (surface == c->surface) {
		printf("keyboard leave\n");
		fflush(stdout);
	}
}

static void
keyboard_key(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	     uint32_t time, uint32_t key, uint32_t state)
{
	(void)data;
	(void)keyboard;
	(void)serial;
	(void)time;
	(void)key;
	(void)state;
}

static void
keyboard_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial,
		   uint32_t depressed, uint32_t latched, uint32_t locked,
		   uint32_t group)
{
	(void)data;
	(void)keyboard;
	(void)serial;
	(void)depressed;
	(void)latched;
	(void)locked;
	(void)group;
}

static void
keyboard_repeat_info(void *data, struct wl_keyboard *keyboard, int32_t rate,
		     int32_t delay)
{
	(void)data;
	(void)keyboard;
	(void)rate;
	(void)delay;
}

static const struct wl_keyboard_listener keyboard_listener = {
	keyboard_keymap,
	keyboard_enter,
	keyboard_leave,
	keyboard_key,
	keyboard_modifiers,
	keyboard_repeat_info,
};

static void
seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps)
{
	struct client *c = data;

	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !c->keyboard) {
		c->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(c->keyboard, &keyboard_listener, c);
	}
}

static void
seat_name(void *data, struct wl_seat *seat, const char *name)
{
	(void)data;
	(void)seat;
	(void)name;
}

static const struct wl_seat_listener seat_listener = {
	seat_capabilities,
	seat_name,
};

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
wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = { wm_base_ping };

static void
xdg_surface_configure(void *data, struct xdg_surface *xdg_surface,
		      uint32_t serial)
{
	struct client *c = data;

	xdg_surface_ack_configure(xdg_surface, serial);
	c->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
	xdg_surface_configure,
};

static void
toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w,
		   int32_t h, struct wl_array *states)
{
	(void)data;
	(void)toplevel;
	(void)w;
	(void)h;
	(void)states;
}

static void
toplevel_close(void *data, struct xdg_toplevel *toplevel)
{
	(void)data;
	(void)toplevel;
	exit(0);
}

/* Only sent at xdg_wm_base version 4 and 5; we bind version 1, but the
 * listener has the slots. */
static void
toplevel_configure_bounds(void *data, struct xdg_toplevel *toplevel,
			  int32_t w, int32_t h)
{
}

static void
toplevel_wm_capabilities(void *data, struct xdg_toplevel *toplevel,
			 struct wl_array *caps)
{
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
	.configure_bounds = toplevel_configure_bounds,
	.wm_capabilities = toplevel_wm_capabilities,
};

static void
stillframe_throttled(void *data, struct stillframe_surface_v1 *s,
		     uint32_t interval_us)
{
	(void)data;
	(void)s;
	printf("throttled %u us\n", interval_us);
	fflush(stdout);
}

static const struct stillframe_surface_v1_listener stillframe_listener = {
	stillframe_throttled,
};

static bool
create_buffers(struct client *c)
{
	size_t stride = (size_t)c->width * 4;
	size_t size = stride * c->height;
	char name[] = "/sf-test-client-XXXXXX";
	int fd = -1;

	for (int tries = 0; tries < 100 && fd < 0; tries++) {
		snprintf(name, sizeof(name), "/sf-test-%d-%d", getpid(), tries);
		fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	}
	if (fd < 0)
		return false;
	shm_unlink(name);
	if (ftruncate(fd, (off_t)(2 * size)) < 0) {
		close(fd);
		return false;
	}
	uint8_t *map = mmap(NULL, 2 * size, PROT_READ | PROT_WRITE,
			    MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		close(fd);
		return false;
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(c->shm, fd,
						      (int32_t)(2 * size));
	for (int i = 0; i < 2; i++) {
		c->buffers[i] = wl_shm_pool_create_buffer(
			pool, (int32_t)(i * size), c->width, c->height,
			(int32_t)stride, WL_SHM_FORMAT_XRGB8888);
		c->pixels[i] = (uint32_t *)(map + i * size);
	}
	wl_shm_pool_destroy(pool);
	close(fd);
	return true;
}

static const struct wl_callback_listener frame_listener;

/* An empty commit that asks for the next frame callback. */
static void
commit_empty(struct client *c)
{
	struct wl_callback *cb = wl_surface_frame(c->surface);

	wl_callback_add_listener(cb, &frame_listener, c);
	wl_surface_commit(c->surface);
}

static void
frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	struct client *c = data;
	(void)time;

	wl_callback_destroy(cb);
	c->frame_callbacks++;
	commit_empty(c);
}

static const struct wl_callback_listener frame_listener = { frame_done };

/* A new picture each frame: a moving bar, so every frame differs. */
static void
draw(struct client *c)
{
	int i = (int)(c->frame & 1);
	uint32_t *p = c->pixels[i];
	int bar = (int)(c->frame % (unsigned)c->width);

	for (int y = 0; y < c->height; y++)
		for (int x = 0; x < c->width; x++)
			p[y * c->width + x] = x == bar ? 0xffffffff :
					      0xff000000 | (uint32_t)(y * 4);
	wl_surface_attach(c->surface, c->buffers[i], 0, 0);
	if (c->bar_damage && c->frame > 0) {
		/* Against what is shown: the old bar went, the new came. */
		int old = bar > 0 ? bar - 1 : c->width - 1;
		wl_surface_damage(c->surface, old, 0, 1, c->height);
		wl_surface_damage(c->surface, bar, 0, 1, c->height);
	} else {
		wl_surface_damage(c->surface, 0, 0, c->width, c->height);
	}
	wl_surface_commit(c->surface);
	c->frame++;
}

static int
misuse(struct client *c, const char *what)
{
	struct stillframe_surface_v1 *s =
		stillframe_manager_v1_get_surface(c->stillframe, c->surface);
	const struct wl_interface *want_iface = &stillframe_surface_v1_interface;
	uint32_t want_code;

	if ((strcmp(what, "bad-power") == 0 ||
	     strcmp(what, "unknown-output") == 0) && !c->control) {
		fprintf(stderr, "sf-test-client: no stillframe_control_v1 "
			"version 2\n");
		return 2;
	}
	if (strcmp(what, "bad-power") == 0) {
		/* A real output, a value outside output_power. */
		stillframe_control_v1_set_output_power(c->control, "headless",
						       3);
		want_iface = &stillframe_control_v1_interface;
		want_code = STILLFRAME_CONTROL_V1_ERROR_INVALID_POWER;
	} else if (strcmp(what, "unknown-output") == 0) {
		stillframe_control_v1_set_output_power(
			c->control, "no-such-output",
			STILLFRAME_CONTROL_V1_OUTPUT_POWER_OFF);
		want_iface = &stillframe_control_v1_interface;
		want_code = STILLFRAME_CONTROL_V1_ERROR_UNKNOWN_OUTPUT;
	} else if (strcmp(what, "double-get") == 0) {
		stillframe_manager_v1_get_surface(c->stillframe, c->surface);
		want_iface = &stillframe_manager_v1_interface;
		want_code = STILLFRAME_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED;
	} else if (strcmp(what, "bad-rate") == 0) {
		stillframe_surface_v1_set_content_rate(s, 24, 0);
		want_code = STILLFRAME_SURFACE_V1_ERROR_INVALID_RATE;
	} else if (strcmp(what, "bad-range") == 0) {
		stillframe_surface_v1_set_refresh_range(s, 60000, 30000);
		want_code = STILLFRAME_SURFACE_V1_ERROR_INVALID_RANGE;
	} else if (strcmp(what, "bad-priority") == 0) {
		stillframe_surface_v1_set_priority(s, 77);
		want_code = STILLFRAME_SURFACE_V1_ERROR_INVALID_PRIORITY;
	} else if (strcmp(what, "after-destroy") == 0) {
		xdg_toplevel_destroy(c->toplevel);
		xdg_surface_destroy(c->xdg_surface);
		wl_surface_destroy(c->surface);
		stillframe_surface_v1_set_content_rate(s, 24, 1);
		want_code = STILLFRAME_SURFACE_V1_ERROR_SURFACE_DESTROYED;
	} else {
		fprintf(stderr, "sf-test-client: unknown misuse %s\n", what);
		return 2;
	}
	while (wl_display_roundtrip(c->display) >= 0)
		;
	const struct wl_interface *iface = NULL;
	uint32_t id;
	int err = wl_display_get_error(c->display);
	uint32_t code = err == EPROTO ?
		wl_display_get_protocol_error(c->display, &iface, &id) : 0;
	printf("protocol error: %s %u\n", iface ? iface->name : "none", code);
	return err == EPROTO && iface == want_iface && code == want_code ? 0 : 1;
}

static bool
parse_uint(const char *s, unsigned *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || end == s || v > 1000000)
		return false;
	*out = (unsigned)v;
	return *end == '\0' || *end == '/' || *end == 'x';
}

int
main(int argc, char **argv)
{
	struct client c = { .width = 256, .height = 256 };
	unsigned fps = 0, num = 0, den = 1, seconds = 3600;
	const char *priority = NULL, *misuse_what = NULL;
	const char *app_id = "sf-test-client";
	bool inhibit = false;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : "";
		bool ok = true;
		if (strcmp(arg, "--fps") == 0) {
			ok = parse_uint(val, &fps);
			i++;
		} else if (strcmp(arg, "--rate") == 0) {
			const char *slash = strchr(val, '/');
			ok = parse_uint(val, &num) && slash &&
			     parse_uint(slash + 1, &den);
			i++;
		} else if (strcmp(arg, "--size") == 0) {
			const char *x = strchr(val, 'x');
			unsigned w = 0, h = 0;
			ok = parse_uint(val, &w) && x && parse_uint(x + 1, &h) &&
			     w > 0 && h > 0 && w <= 4096 && h <= 4096;
			c.width = (int)w;
			c.height = (int)h;
			i++;
		} else if (strcmp(arg, "--seconds") == 0) {
			ok = parse_uint(val, &seconds);
			i++;
		} else if (strcmp(arg, "--empty-frames") == 0) {
			c.empty_frames = true;
		} else if (strcmp(arg, "--priority") == 0) {
			priority = val;
			i++;
		} else if (strcmp(arg, "--misuse") == 0) {
			misuse_what = val;
			i++;
		} else if (strcmp(arg, "--app-id") == 0) {
			app_id = val;
			ok = *val != '\0';
			i++;
		} else if (strcmp(arg, "--inhibit") == 0) {
			inhibit = true;
		} else if (strcmp(arg, "--keyboard") == 0) {
			c.want_keyboard = true;
		} else if (strcmp(arg, "--bar-damage") == 0) {
			c.bar_damage = true;
		} else {
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "sf-test-client: bad argument %s\n", arg);
			return 2;
		}
	}

	c.display = wl_display_connect(NULL);
	if (!c.display) {
		fprintf(stderr, "sf-test-client: no Wayland display\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(c.display);
	wl_registry_add_listener(registry, &registry_listener, &c);
	wl_display_roundtrip(c.display);
	if (!c.compositor || !c.shm || !c.wm_base) {
		fprintf(stderr, "sf-test-client: compositor lacks "
			"wl_compositor, wl_shm or xdg_wm_base\n");
		return 1;
	}
	if ((misuse_what || num || priority) && !c.stillframe) {
		fprintf(stderr, "sf-test-client: no stillframe_manager_v1 "
			"(is stillframe.so loaded?)\n");
		return 1;
	}
	if (c.want_keyboard && !c.seat) {
		fprintf(stderr, "sf-test-client: no wl_seat\n");
		return 1;
	}
	if (c.seat)
		wl_seat_add_listener(c.seat, &seat_listener, &c);
	if (inhibit && !c.inhibit_manager) {
		fprintf(stderr, "sf-test-client: no "
			"zwp_idle_inhibit_manager_v1\n");
		return 1;
	}
	xdg_wm_base_add_listener(c.wm_base, &wm_base_listener, &c);
	c.surface = wl_compositor_create_surface(c.compositor);
	c.xdg_surface = xdg_wm_base_get_xdg_surface(c.wm_base, c.surface);
	xdg_surface_add_listener(c.xdg_surface, &xdg_surface_listener, &c);
	c.toplevel = xdg_surface_get_toplevel(c.xdg_surface);
	xdg_toplevel_add_listener(c.toplevel, &toplevel_listener, &c);
	xdg_toplevel_set_app_id(c.toplevel, app_id);
	wl_surface_commit(c.surface);
	while (!c.configured && wl_display_dispatch(c.display) >= 0)
		;
	if (!create_buffers(&c)) {
		fprintf(stderr, "sf-test-client: cannot create shm buffers\n");
		return 1;
	}
	if (misuse_what)
		return misuse(&c, misuse_what);

	if (num || priority) {
		struct stillframe_surface_v1 *s =
			stillframe_manager_v1_get_surface(c.stillframe,
							  c.surface);
		stillframe_surface_v1_add_listener(s, &stillframe_listener, &c);
		if (num)
			stillframe_surface_v1_set_content_rate(s, num, den);
		if (priority) {
			uint32_t p = strcmp(priority, "essential") == 0 ?
				STILLFRAME_SURFACE_V1_PRIORITY_ESSENTIAL :
				strcmp(priority, "background") == 0 ?
				STILLFRAME_SURFACE_V1_PRIORITY_BACKGROUND :
				STILLFRAME_SURFACE_V1_PRIORITY_NORMAL;
			stillframe_surface_v1_set_priority(s, p);
		}
	}
	if (inhibit)
		zwp_idle_inhibit_manager_v1_create_inhibitor(c.inhibit_manager,
							     c.surface);
	draw(&c);
	if (c.empty_frames)
		commit_empty(&c);
	printf("mapped\n");
	fflush(stdout);

	/* Redraw on a timer, as a video player does, not on frame
	 * callbacks: the rate is the content's, not the compositor's. */
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	long long period_ns = fps ? 1000000000LL / fps : 0;
	long long next = period_ns;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long t = (now.tv_sec - start.tv_sec) * 1000000000LL +
			      (now.tv_nsec - start.tv_nsec);
		if (t >= (long long)seconds * 1000000000LL) {
			if (c.empty_frames)
				printf("frame callbacks %u\n",
				       c.frame_callbacks);
			return 0;
		}
		int timeout = 1000;
		if (period_ns) {
			if (t >= next) {
				draw(&c);
				next += period_ns;
				if (next < t)
					next = t + period_ns;
			}
			timeout = (int)((next - t) / 1000000) + 1;
		}
		wl_display_flush(c.display);
		struct pollfd pfd = { wl_display_get_fd(c.display), POLLIN, 0 };
		if (poll(&pfd, 1, timeout) > 0 &&
		    wl_display_dispatch(c.display) < 0) {
			fprintf(stderr, "sf-test-client: connection lost\n");
			return 1;
		}
	}
}
