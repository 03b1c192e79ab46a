/* SPDX-License-Identifier: MIT */
/*
 * stillframectl fbc --screen: every output of the Weston at
 * $WAYLAND_DISPLAY, captured through Weston 10's weston_screenshooter
 * (protocol/weston-screenshooter.xml; weston_output_capture is Weston
 * 11's).  Weston 10 advertises the global always but lets a client bind
 * it only when it runs with --debug, or when it launched that client
 * itself (its Super+S binding): anyone else gets a protocol error on
 * the bind.  The shot comes with the output's next repaint, in a
 * wl_shm buffer at least the size of the output's current mode; a
 * buffer it dislikes is never answered, so every wait is bounded.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client.h>

#include "stillframectl-screen.h"
#include "stillframectl-x.h"	/* the Wayland log handler */
#include "weston-screenshooter-client-protocol.h"

#define MAX_OUTPUTS 16
#define SHOT_TIMEOUT_MS 10000

struct screen_output {
	struct wl_output *output;
	/* Its name with wl_output 4 (Weston 10 has 3), else its make and
	 * model, else output-N. */
	char name[64];
	bool have_name;
	int32_t width, height;		/* the current mode */
};

struct screen {
	const char *socket;		/* for messages */
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_shm *shm;
	struct weston_screenshooter *shooter;
	struct screen_output outputs[MAX_OUTPUTS];
	size_t n_outputs;
	bool shot_done;
};

static void
output_handle_geometry(void *data, struct wl_output *output, int32_t x,
		       int32_t y, int32_t physical_width,
		       int32_t physical_height, int32_t subpixel,
		       const char *make, const char *model, int32_t transform)
{
	struct screen_output *o = data;

	if (!o->have_name && (make[0] || model[0]))
		snprintf(o->name, sizeof(o->name), "%s%s%s", make,
			 make[0] && model[0] ? " " : "", model);
}

static void
output_handle_mode(void *data, struct wl_output *output, uint32_t flags,
		   int32_t width, int32_t height, int32_t refresh)
{
	struct screen_output *o = data;

	if (flags & WL_OUTPUT_MODE_CURRENT) {
		o->width = width;
		o->height = height;
	}
}

static void
output_handle_done(void *data, struct wl_output *output)
{
}

static void
output_handle_scale(void *data, struct wl_output *output, int32_t factor)
{
}

static void
output_handle_name(void *data, struct wl_output *output, const char *name)
{
	struct screen_output *o = data;

	snprintf(o->name, sizeof(o->name), "%s", name);
	o->have_name = true;
}

static void
output_handle_description(void *data, struct wl_output *output,
			  const char *description)
{
}

static const struct wl_output_listener output_listener = {
	.geometry = output_handle_geometry,
	.mode = output_handle_mode,
	.done = output_handle_done,
	.scale = output_handle_scale,
	.name = output_handle_name,
	.description = output_handle_description,
};

static void
registry_handle_global(void *data, struct wl_registry *registry,
		       uint32_t name, const char *interface, uint32_t version)
{
	struct screen *s = data;

	if (strcmp(interface, wl_shm_interface.name) == 0 && !s->shm) {
		s->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface,
			  weston_screenshooter_interface.name) == 0 &&
		   !s->shooter) {
		s->shooter = wl_registry_bind(registry, name,
					      &weston_screenshooter_interface,
					      1);
	} else if (strcmp(interface, wl_output_interface.name) == 0 &&
		   s->n_outputs < MAX_OUTPUTS) {
		struct screen_output *o = &s->outputs[s->n_outputs];

		o->output = wl_registry_bind(registry, name,
					     &wl_output_interface,
					     version < 4 ? version : 4);
		snprintf(o->name, sizeof(o->name), "output-%zu",
			 s->n_outputs);
		wl_output_add_listener(o->output, &output_listener, o);
		s->n_outputs++;
	}
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

static void
shooter_handle_done(void *data, struct weston_screenshooter *shooter)
{
	struct screen *s = data;

	s->shot_done = true;
}

static const struct weston_screenshooter_listener shooter_listener = {
	.done = shooter_handle_done,
};

/* After a failed round trip or dispatch: says why. */
static int
connection_error(struct screen *s)
{
	int err = wl_display_get_error(s->display);
	const struct wl_interface *interface = NULL;
	const char *message = sf_ctl_wayland_message();

	if (err != EPROTO) {
		fprintf(stderr, "stillframectl: fbc --screen: lost the connection to the compositor at %s: %s\n",
			s->socket, strerror(err));
		return 1;
	}
	wl_display_get_protocol_error(s->display, &interface, NULL);
	if (interface == &weston_screenshooter_interface) {
		fprintf(stderr, "stillframectl: fbc --screen: the compositor at %s refused its screenshooter (%s): Weston 10 lets only its own clients take screenshots unless it runs with --debug; run weston with --debug\n",
			s->socket, message[0] ? message : "?");
		return 1;
	}
	fprintf(stderr, "stillframectl: fbc --screen: the compositor refused a request: %s\n",
		message[0] ? message : "?");
	return 1;
}

/* Dispatches until `*flag` or `timeout_ms` pass: 0, -1 on a broken
 * connection, 1 on timeout. */
static int
dispatch_until(struct wl_display *display, const bool *flag, int timeout_ms)
{
	struct pollfd pfd = { .fd = wl_display_get_fd(display),
			      .events = POLLIN };
	int waited = 0;

	while (!*flag) {
		if (wl_display_dispatch_pending(display) < 0)
			return -1;
		if (*flag)
			break;
		while (wl_display_prepare_read(display) != 0)
			if (wl_display_dispatch_pending(display) < 0)
				return -1;
		if (wl_display_flush(display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(display);
			return -1;
		}
		if (waited >= timeout_ms) {
			wl_display_cancel_read(display);
			return 1;
		}
		/* In steps, so that a signal does not make the wait
		 * endless. */
		int ret = poll(&pfd, 1, 100);

		if (ret <= 0) {
			wl_display_cancel_read(display);
			if (ret < 0 && errno != EINTR)
				return -1;
			waited += 100;
			continue;
		}
		if (wl_display_read_events(display) < 0)
			return -1;
	}
	return 0;
}

/* A wl_shm buffer of the output's size, mapped at *pixels. */
static struct wl_buffer *
create_buffer(struct screen *s, int32_t width, int32_t height,
	      uint32_t **pixels, size_t *size)
{
	char name[64];
	int fd = -1;

	*size = (size_t)width * (size_t)height * 4;
	for (int tries = 0; tries < 100 && fd < 0; tries++) {
		snprintf(name, sizeof(name), "/stillframectl-%d-%d",
			 (int)getpid(), tries);
		fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	}
	if (fd < 0)
		return NULL;
	shm_unlink(name);
	if (ftruncate(fd, (off_t)*size) < 0) {
		close(fd);
		return NULL;
	}

	void *map = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 0);

	if (map == MAP_FAILED) {
		close(fd);
		return NULL;
	}

	struct wl_shm_pool *pool = wl_shm_create_pool(s->shm, fd,
						      (int32_t)*size);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(
		pool, 0, width, height, width * 4, WL_SHM_FORMAT_XRGB8888);

	wl_shm_pool_destroy(pool);
	close(fd);
	*pixels = map;
	return buffer;
}

/* One output's shot, handed to `shot` as 0xRRGGBB pixels. */
static int
capture_output(struct screen *s, const struct screen_output *o,
	       sf_ctl_screen_shot_fn shot, void *data)
{
	uint32_t *map;
	size_t size;

	if (o->width <= 0 || o->height <= 0 || o->width > 16384 ||
	    o->height > 16384) {
		fprintf(stderr, "stillframectl: fbc --screen: output %s has no usable current mode (%dx%d)\n",
			o->name, o->width, o->height);
		return 1;
	}

	struct wl_buffer *buffer = create_buffer(s, o->width, o->height, &map,
						 &size);

	if (!buffer) {
		fprintf(stderr, "stillframectl: fbc --screen: no shared memory for a %dx%d shot: %s\n",
			o->width, o->height, strerror(errno));
		return 1;
	}
	s->shot_done = false;
	weston_screenshooter_take_shot(s->shooter, o->output, buffer);

	int ret = dispatch_until(s->display, &s->shot_done, SHOT_TIMEOUT_MS);

	if (ret < 0) {
		ret = connection_error(s);
	} else if (ret > 0) {
		fprintf(stderr, "stillframectl: fbc --screen: no shot of output %s within %d s: Weston takes it with the output's next repaint, which a blanked output, or Weston's noop renderer (the headless backend without --use-pixman), never does\n",
			o->name, SHOT_TIMEOUT_MS / 1000);
	} else {
		size_t n = (size_t)o->width * (size_t)o->height;
		uint32_t *pixels = malloc(n * sizeof(*pixels));

		if (!pixels) {
			fprintf(stderr, "stillframectl: out of memory\n");
			ret = 1;
		} else {
			/* XRGB8888: the padding byte is whatever the
			 * renderer left. */
			for (size_t i = 0; i < n; i++)
				pixels[i] = map[i] & 0xffffff;
			ret = shot(data, o->name, (uint32_t)o->width,
				   (uint32_t)o->height, pixels);
			free(pixels);
		}
	}
	wl_buffer_destroy(buffer);
	munmap(map, size);
	return ret;
}

int
sf_ctl_screen_capture(sf_ctl_screen_shot_fn shot, void *data)
{
	const char *name = getenv("WAYLAND_DISPLAY");
	struct screen s = { .socket = name ? name : "wayland-0" };
	int ret = 0;

	sf_ctl_wayland_log_capture();
	s.display = wl_display_connect(NULL);
	if (!s.display) {
		int err = errno;
		const char *message = sf_ctl_wayland_message();

		fprintf(stderr, "stillframectl: fbc --screen: no Wayland compositor at %s%s: %s\n",
			s.socket, name ? "" : " (WAYLAND_DISPLAY is not set)",
			message[0] ? message : strerror(err));
		return 1;
	}
	s.registry = wl_display_get_registry(s.display);
	wl_registry_add_listener(s.registry, &registry_listener, &s);
	/* The globals, then the outputs' modes and names and Weston's
	 * answer to the screenshooter's bind. */
	if (wl_display_roundtrip(s.display) < 0)
		ret = connection_error(&s);
	if (ret == 0 && !s.shooter) {
		fprintf(stderr, "stillframectl: fbc --screen: the compositor at %s does not offer weston_screenshooter: it takes Weston 10 (and Weston offers it only when run with --debug: run weston with --debug)\n",
			s.socket);
		ret = 1;
	}
	if (ret == 0 && (!s.shm || s.n_outputs == 0)) {
		fprintf(stderr, "stillframectl: fbc --screen: the compositor at %s offers %s\n",
			s.socket, !s.shm ? "no wl_shm" : "no output");
		ret = 1;
	}
	if (ret == 0) {
		weston_screenshooter_add_listener(s.shooter,
						  &shooter_listener, &s);
		if (wl_display_roundtrip(s.display) < 0)
			ret = connection_error(&s);
	}
	for (size_t i = 0; ret == 0 && i < s.n_outputs; i++)
		ret = capture_output(&s, &s.outputs[i], shot, data);

	for (size_t i = 0; i < s.n_outputs; i++)
		wl_output_destroy(s.outputs[i].output);
	if (s.shooter)
		weston_screenshooter_destroy(s.shooter);
	if (s.shm)
		wl_shm_destroy(s.shm);
	wl_registry_destroy(s.registry);
	wl_display_disconnect(s.display);
	return ret;
}
