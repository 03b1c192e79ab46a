/* SPDX-License-Identifier: MIT */
/*
 * stillframectl fbc --screen: every output of the Weston at
 * $WAYLAND_DISPLAY, captured through weston_capture_v1 where Weston
 * offers it (13 and later: protocol/weston-output-capture.xml), else
 * through Weston 10's weston_screenshooter
 * (protocol/weston-screenshooter.xml).  The one client speaks both, so
 * one stillframectl works with every Weston.
 *
 * Weston 10 advertises the screenshooter always but lets a client bind
 * it only when it runs with --debug, or when it launched that client
 * itself (its Super+S binding): anyone else gets a protocol error on
 * the bind.  Weston 13 and later let anyone bind weston_capture_v1 and
 * answer an unauthorised capture (again: not run with --debug) with
 * "failed".  Either way the shot comes with the output's next repaint,
 * in a wl_shm buffer of the output's size (and, for weston_capture_v1,
 * of the format the capture source names); a buffer Weston 10 dislikes
 * is never answered, so every wait is bounded.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client.h>

#include "ctl-screen.h"
#include "ctl-wayland-log.h"
#include "weston-output-capture-client-protocol.h"
#include "weston-screenshooter-client-protocol.h"

#define MAX_OUTPUTS 16
#define SHOT_TIMEOUT_MS 10000
/* weston_capture_v1's "retry": the output changed size or format
 * between the source's events and the capture; a few tries are plenty. */
#define CAPTURE_TRIES 3
/* The DRM fourcc codes wl_shm numbers differently (0 and 1); every
 * other wl_shm format is its fourcc. */
#define DRM_FORMAT_ARGB8888 0x34325241u
#define DRM_FORMAT_XRGB8888 0x34325258u

struct screen_output {
	struct wl_output *output;
	struct weston_capture_source_v1 *source;	/* while capturing */
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
	struct weston_capture_v1 *capture;	/* preferred where offered */
	uint32_t shooter_name;			/* its global, if any */
	struct screen_output outputs[MAX_OUTPUTS];
	size_t n_outputs;
	bool shot_done;
	/* weston_capture_v1's source, for the output being captured. */
	uint32_t source_format;
	int32_t source_width, source_height;
	bool source_retry;
	char source_failed[128];
	bool source_has_failed;
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
	} else if (strcmp(interface, weston_capture_v1_interface.name) == 0 &&
		   !s->capture) {
		s->capture = wl_registry_bind(registry, name,
					      &weston_capture_v1_interface, 1);
	} else if (strcmp(interface,
			  weston_screenshooter_interface.name) == 0) {
		/* Bound only if there is no weston_capture_v1: binding it
		 * is an error where Weston refuses it. */
		s->shooter_name = name;
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

static const struct wl_registry_listener registry_listener = {
	.global = registry_handle_global,
	.global_remove = sf_ctl_wayland_handle_global_remove,
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

static void
source_handle_format(void *data, struct weston_capture_source_v1 *source,
		     uint32_t drm_format)
{
	struct screen *s = data;

	s->source_format = drm_format;
}

static void
source_handle_size(void *data, struct weston_capture_source_v1 *source,
		   int32_t width, int32_t height)
{
	struct screen *s = data;

	s->source_width = width;
	s->source_height = height;
}

static void
source_handle_complete(void *data, struct weston_capture_source_v1 *source)
{
	struct screen *s = data;

	s->shot_done = true;
}

static void
source_handle_retry(void *data, struct weston_capture_source_v1 *source)
{
	struct screen *s = data;

	s->source_retry = true;
	s->shot_done = true;
}

static void
source_handle_failed(void *data, struct weston_capture_source_v1 *source,
		     const char *msg)
{
	struct screen *s = data;

	snprintf(s->source_failed, sizeof(s->source_failed), "%s",
		 msg ? msg : "no reason given");
	s->source_has_failed = true;
	s->shot_done = true;
}

static const struct weston_capture_source_v1_listener source_listener = {
	.format = source_handle_format,
	.size = source_handle_size,
	.complete = source_handle_complete,
	.retry = source_handle_retry,
	.failed = source_handle_failed,
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

/* A wl_shm buffer of the output's size in `shm_format` (32 bits a
 * pixel), mapped at *pixels. */
static struct wl_buffer *
create_buffer(struct screen *s, int32_t width, int32_t height,
	      uint32_t shm_format, uint32_t **pixels, size_t *size)
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
		pool, 0, width, height, width * 4, shm_format);

	wl_shm_pool_destroy(pool);
	close(fd);
	*pixels = map;
	return buffer;
}

static bool
size_usable(const char *name, int32_t width, int32_t height)
{
	if (width > 0 && height > 0 && width <= 16384 && height <= 16384)
		return true;
	fprintf(stderr, "stillframectl: fbc --screen: output %s has no usable current mode (%dx%d)\n",
		name, width, height);
	return false;
}

/* Hands the shot in `map` to `shot` as 0xRRGGBB pixels. */
static int
deliver(const struct screen_output *o, int32_t width, int32_t height,
	const uint32_t *map, sf_ctl_screen_shot_fn shot, void *data)
{
	size_t n = (size_t)width * (size_t)height;
	uint32_t *pixels = malloc(n * sizeof(*pixels));

	if (!pixels) {
		fprintf(stderr, "stillframectl: out of memory\n");
		return 1;
	}
	/* XRGB8888 or ARGB8888: the top byte is padding or alpha. */
	for (size_t i = 0; i < n; i++)
		pixels[i] = map[i] & 0xffffff;
	int ret = shot(data, o->name, (uint32_t)width, (uint32_t)height,
		       pixels);
	free(pixels);
	return ret;
}

static int
no_memory_for(int32_t width, int32_t height)
{
	fprintf(stderr, "stillframectl: fbc --screen: no shared memory for a %dx%d shot: %s\n",
		width, height, strerror(errno));
	return 1;
}

static int
shot_timed_out(const struct screen_output *o)
{
	fprintf(stderr, "stillframectl: fbc --screen: no shot of output %s within %d s: Weston takes it with the output's next repaint, which a blanked output, or Weston's noop renderer (the headless backend without --use-pixman), never does\n",
		o->name, SHOT_TIMEOUT_MS / 1000);
	return 1;
}

/* One output's shot through Weston 10's screenshooter. */
static int
screenshooter_capture_output(struct screen *s, const struct screen_output *o,
			     sf_ctl_screen_shot_fn shot, void *data)
{
	uint32_t *map;
	size_t size;

	if (!size_usable(o->name, o->width, o->height))
		return 1;

	struct wl_buffer *buffer = create_buffer(s, o->width, o->height,
						 WL_SHM_FORMAT_XRGB8888, &map,
						 &size);

	if (!buffer)
		return no_memory_for(o->width, o->height);
	s->shot_done = false;
	weston_screenshooter_take_shot(s->shooter, o->output, buffer);

	int ret = dispatch_until(s->display, &s->shot_done, SHOT_TIMEOUT_MS);

	if (ret < 0)
		ret = connection_error(s);
	else if (ret > 0)
		ret = shot_timed_out(o);
	else
		ret = deliver(o, o->width, o->height, map, shot, data);
	wl_buffer_destroy(buffer);
	munmap(map, size);
	return ret;
}

/* One try of weston_capture_v1 with the source's current size and
 * format: 0 done, 1 failed (said), 2 retry. */
static int
capture_once(struct screen *s, const struct screen_output *o,
	     sf_ctl_screen_shot_fn shot, void *data)
{
	int32_t width = s->source_width, height = s->source_height;
	uint32_t shm_format = s->source_format;
	uint32_t *map;
	size_t size;

	if (!size_usable(o->name, width, height))
		return 1;
	if (shm_format == DRM_FORMAT_ARGB8888)
		shm_format = WL_SHM_FORMAT_ARGB8888;
	else if (shm_format == DRM_FORMAT_XRGB8888)
		shm_format = WL_SHM_FORMAT_XRGB8888;
	else {
		fprintf(stderr, "stillframectl: fbc --screen: output %s is captured in DRM format 0x%08x; stillframectl reads only XRGB8888 and ARGB8888\n",
			o->name, s->source_format);
		return 1;
	}

	struct wl_buffer *buffer = create_buffer(s, width, height, shm_format,
						 &map, &size);

	if (!buffer)
		return no_memory_for(width, height);
	s->shot_done = false;
	s->source_retry = false;
	s->source_has_failed = false;
	weston_capture_source_v1_capture(o->source, buffer);

	int ret = dispatch_until(s->display, &s->shot_done, SHOT_TIMEOUT_MS);

	if (ret < 0) {
		ret = connection_error(s);
	} else if (ret > 0) {
		ret = shot_timed_out(o);
	} else if (s->source_has_failed) {
		fprintf(stderr, "stillframectl: fbc --screen: Weston did not capture output %s: %s%s\n",
			o->name, s->source_failed,
			strstr(s->source_failed, "unauthorized") ?
				" (Weston lets only its own clients capture the screen unless it runs with --debug: run weston with --debug)" :
				"");
		ret = 1;
	} else if (s->source_retry) {
		ret = 2;
	} else {
		ret = deliver(o, width, height, map, shot, data);
	}
	wl_buffer_destroy(buffer);
	munmap(map, size);
	return ret;
}

/* One output's shot through weston_capture_v1, from its framebuffer:
 * what the output shows. */
static int
capture_v1_output(struct screen *s, struct screen_output *o,
		  sf_ctl_screen_shot_fn shot, void *data)
{
	int ret = 2;

	s->source_format = 0;
	s->source_width = s->source_height = 0;
	o->source = weston_capture_v1_create(
		s->capture, o->output, WESTON_CAPTURE_V1_SOURCE_FRAMEBUFFER);
	weston_capture_source_v1_add_listener(o->source, &source_listener, s);
	for (int tries = 0; ret == 2 && tries < CAPTURE_TRIES; tries++) {
		/* The source's size and format (again, after a retry). */
		if (wl_display_roundtrip(s->display) < 0) {
			ret = connection_error(s);
			break;
		}
		ret = capture_once(s, o, shot, data);
	}
	if (ret == 2) {
		fprintf(stderr, "stillframectl: fbc --screen: output %s kept changing its size or format; no shot\n",
			o->name);
		ret = 1;
	}
	weston_capture_source_v1_destroy(o->source);
	o->source = NULL;
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
	if (ret == 0 && !s.capture && s.shooter_name)
		s.shooter = wl_registry_bind(s.registry, s.shooter_name,
					     &weston_screenshooter_interface,
					     1);
	if (ret == 0 && !s.capture && !s.shooter) {
		fprintf(stderr, "stillframectl: fbc --screen: the compositor at %s offers neither weston_capture_v1 nor weston_screenshooter: it takes Weston (10, or 13 and later), run with --debug\n",
			s.socket);
		ret = 1;
	}
	if (ret == 0 && (!s.shm || s.n_outputs == 0)) {
		fprintf(stderr, "stillframectl: fbc --screen: the compositor at %s offers %s\n",
			s.socket, !s.shm ? "no wl_shm" : "no output");
		ret = 1;
	}
	if (ret == 0 && !s.capture) {
		weston_screenshooter_add_listener(s.shooter,
						  &shooter_listener, &s);
		if (wl_display_roundtrip(s.display) < 0)
			ret = connection_error(&s);
	}
	for (size_t i = 0; ret == 0 && i < s.n_outputs; i++)
		ret = s.capture ? capture_v1_output(&s, &s.outputs[i], shot,
						    data) :
				  screenshooter_capture_output(&s,
							       &s.outputs[i],
							       shot, data);

	for (size_t i = 0; i < s.n_outputs; i++)
		wl_output_destroy(s.outputs[i].output);
	if (s.shooter)
		weston_screenshooter_destroy(s.shooter);
	if (s.capture)
		weston_capture_v1_destroy(s.capture);
	if (s.shm)
		wl_shm_destroy(s.shm);
	wl_registry_destroy(s.registry);
	wl_display_disconnect(s.display);
	return ret;
}
