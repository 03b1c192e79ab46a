/* SPDX-License-Identifier: MIT */
/*
 * content-rate-client: the smallest Wayland client that tells stillframe
 * the frame rate of its content.  It opens an xdg-shell window, draws
 * into shared memory, and on its wl_surface attaches a
 * stillframe_surface_v1 saying "my content changes 24 times a second"
 * (stillframe_surface_v1.set_content_rate 24/1), as a film player would.
 * stillframe may then pick an output refresh rate that fits 24 fps.  It
 * prints the throttled events stillframe sends, and exits after a few
 * seconds.
 *
 * The hint is only a hint: without stillframe (the global is missing)
 * the window works all the same, as every client of stillframe-v1 must.
 *
 * Build: see README.md in this directory (make, with pkg-config finding
 * the installed stillframe-protocols).
 * Run:   ./content-rate-client [SECONDS]   (default 5)
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "stillframe-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define WIDTH 320
#define HEIGHT 240
#define STRIDE (WIDTH * 4)
#define CONTENT_RATE_NUM 24
#define CONTENT_RATE_DEN 1

struct client {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct stillframe_manager_v1 *stillframe;

	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct stillframe_surface_v1 *hints;
	struct wl_buffer *buffer;
	uint32_t *pixels;

	bool configured;
	bool closed;
	unsigned frame;
};

/* ---- drawing ---- */

/* A stripe that moves one step per frame: something that changes. */
static void
draw(struct client *c)
{
	unsigned stripe = (c->frame * 8) % WIDTH;

	for (unsigned y = 0; y < HEIGHT; y++)
		for (unsigned x = 0; x < WIDTH; x++)
			c->pixels[y * WIDTH + x] =
				x - stripe < 16 ? 0xffe0a030 : 0xff203040;
}

/* A buffer in an unlinked POSIX shared memory object. */
static bool
create_buffer(struct client *c)
{
	size_t size = (size_t)STRIDE * HEIGHT;
	char name[64];

	snprintf(name, sizeof(name), "/content-rate-client-%ld-%ld",
		 (long)getpid(), (long)time(NULL));
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		perror("shm_open");
		return false;
	}
	shm_unlink(name);
	if (ftruncate(fd, (off_t)size) < 0) {
		perror("ftruncate");
		close(fd);
		return false;
	}
	void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			  fd, 0);
	if (data == MAP_FAILED) {
		perror("mmap");
		close(fd);
		return false;
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(c->shm, fd, (int)size);
	c->buffer = wl_shm_pool_create_buffer(pool, 0, WIDTH, HEIGHT, STRIDE,
					      WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	c->pixels = data;
	return true;
}

/* ---- frames ---- */

static void redraw(struct client *c);

static void
frame_handle_done(void *data, struct wl_callback *callback, uint32_t time)
{
	wl_callback_destroy(callback);
	redraw(data);
}

static const struct wl_callback_listener frame_listener = {
	.done = frame_handle_done,
};

/*
 * One frame per frame callback, for simplicity; a real player would
 * show a new picture every 1/24 s whatever the callbacks do.  The
 * buffer is reused without waiting for its release: fine for a demo.
 */
static void
redraw(struct client *c)
{
	c->frame++;
	draw(c);
	wl_surface_attach(c->surface, c->buffer, 0, 0);
	wl_surface_damage(c->surface, 0, 0, WIDTH, HEIGHT);
	wl_callback_add_listener(wl_surface_frame(c->surface),
				 &frame_listener, c);
	wl_surface_commit(c->surface);
}

/* ---- stillframe ---- */

static void
hints_handle_throttled(void *data, struct stillframe_surface_v1 *hints,
		       uint32_t interval_us)
{
	if (interval_us)
		printf("stillframe: frame callbacks at most every %u us\n",
		       interval_us);
	else
		printf("stillframe: no longer throttled\n");
	fflush(stdout);
}

static const struct stillframe_surface_v1_listener hints_listener = {
	.throttled = hints_handle_throttled,
};

/* ---- xdg-shell ---- */

static void
wm_base_handle_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = wm_base_handle_ping,
};

static void
xdg_surface_handle_configure(void *data, struct xdg_surface *xdg_surface,
			     uint32_t serial)
{
	struct client *c = data;

	xdg_surface_ack_configure(xdg_surface, serial);
	if (!c->configured) {
		c->configured = true;
		redraw(c);	/* the first buffer; frame callbacks follow */
	}
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_handle_configure,
};

/* A fixed size: the sizes the compositor suggests are ignored. */
static void
toplevel_handle_configure(void *data, struct xdg_toplevel *toplevel,
			  int32_t width, int32_t height,
			  struct wl_array *states)
{
}

static void
toplevel_handle_close(void *data, struct xdg_toplevel *toplevel)
{
	struct client *c = data;

	c->closed = true;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_handle_configure,
	.close = toplevel_handle_close,
};

/* ---- globals ---- */

static void
registry_handle_global(void *data, struct wl_registry *registry,
		       uint32_t name, const char *interface, uint32_t version)
{
	struct client *c = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		c->compositor = wl_registry_bind(registry, name,
						 &wl_compositor_interface, 1);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		c->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		c->wm_base = wl_registry_bind(registry, name,
					      &xdg_wm_base_interface, 1);
	else if (strcmp(interface, stillframe_manager_v1_interface.name) == 0)
		c->stillframe = wl_registry_bind(registry, name,
				&stillframe_manager_v1_interface, 1);
}

static void
registry_handle_global_remove(void *data, struct wl_registry *registry,
			      uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_handle_global,
	.global_remove = registry_handle_global_remove,
};

/* ---- main ---- */

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Dispatches events until the deadline, waking at least every 100 ms
 * to look at the clock (prepare_read, poll, read: the way to wait on a
 * Wayland display with a timeout).
 */
static int
run_until(struct client *c, double deadline)
{
	struct pollfd pfd = {
		.fd = wl_display_get_fd(c->display),
		.events = POLLIN,
	};

	while (!c->closed && now_s() < deadline) {
		while (wl_display_prepare_read(c->display) != 0)
			if (wl_display_dispatch_pending(c->display) < 0)
				return -1;
		if (wl_display_flush(c->display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(c->display);
			return -1;
		}
		if (poll(&pfd, 1, 100) > 0) {
			if (wl_display_read_events(c->display) < 0)
				return -1;
		} else {
			wl_display_cancel_read(c->display);
		}
		if (wl_display_dispatch_pending(c->display) < 0)
			return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 5.0;
	struct client c = { 0 };
	int ret = EXIT_FAILURE;

	c.display = wl_display_connect(NULL);
	if (!c.display) {
		fprintf(stderr, "cannot connect to a Wayland display\n");
		return EXIT_FAILURE;
	}
	struct wl_registry *registry = wl_display_get_registry(c.display);
	wl_registry_add_listener(registry, &registry_listener, &c);
	wl_display_roundtrip(c.display);
	if (!c.compositor || !c.shm || !c.wm_base) {
		fprintf(stderr, "the compositor lacks wl_compositor, wl_shm "
			"or xdg_wm_base\n");
		goto out;
	}
	xdg_wm_base_add_listener(c.wm_base, &wm_base_listener, &c);
	if (!create_buffer(&c))
		goto out;

	c.surface = wl_compositor_create_surface(c.compositor);
	c.xdg_surface = xdg_wm_base_get_xdg_surface(c.wm_base, c.surface);
	xdg_surface_add_listener(c.xdg_surface, &xdg_surface_listener, &c);
	c.toplevel = xdg_surface_get_toplevel(c.xdg_surface);
	xdg_toplevel_add_listener(c.toplevel, &toplevel_listener, &c);
	xdg_toplevel_set_title(c.toplevel, "stillframe content-rate example");
	xdg_toplevel_set_app_id(c.toplevel, "content-rate-client");

	/*
	 * The hint is double-buffered state of the wl_surface: it takes
	 * effect with the commit below, together with the rest.
	 */
	if (c.stillframe) {
		c.hints = stillframe_manager_v1_get_surface(c.stillframe,
							    c.surface);
		stillframe_surface_v1_add_listener(c.hints, &hints_listener,
						   &c);
		stillframe_surface_v1_set_content_rate(c.hints,
						       CONTENT_RATE_NUM,
						       CONTENT_RATE_DEN);
		printf("asked stillframe for %u/%u fps content\n",
		       CONTENT_RATE_NUM, CONTENT_RATE_DEN);
	} else {
		printf("no stillframe here: the window works without it\n");
	}
	fflush(stdout);
	wl_surface_commit(c.surface);	/* no buffer yet: asks for configure */

	if (run_until(&c, now_s() + seconds) < 0)
		fprintf(stderr, "lost the Wayland display\n");
	else
		ret = EXIT_SUCCESS;
	printf("showed %u frames\n", c.frame);

out:
	if (c.hints)
		stillframe_surface_v1_destroy(c.hints);
	if (c.toplevel)
		xdg_toplevel_destroy(c.toplevel);
	if (c.xdg_surface)
		xdg_surface_destroy(c.xdg_surface);
	if (c.surface)
		wl_surface_destroy(c.surface);
	if (c.buffer)
		wl_buffer_destroy(c.buffer);
	if (c.pixels)
		munmap(c.pixels, (size_t)STRIDE * HEIGHT);
	if (c.stillframe)
		stillframe_manager_v1_destroy(c.stillframe);
	if (c.wm_base)
		xdg_wm_base_destroy(c.wm_base);
	if (c.shm)
		wl_shm_destroy(c.shm);
	if (c.compositor)
		wl_compositor_destroy(c.compositor);
	wl_registry_destroy(registry);
	wl_display_disconnect(c.display);
	return ret;
}
