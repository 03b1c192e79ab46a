/* SPDX-License-Identifier: MIT */
#ifndef SF_WESTON_BACKEND_API_H
#define SF_WESTON_BACKEND_API_H

/*
 * What the tests' backend code (fake-kms.c, and fuzz-wayland.c, which
 * plays a backend too) needs of libweston beyond its installed headers,
 * for libweston 10, 13, 14, 15 and 16.  This is the tests' one place
 * for libweston version differences (the plugin's is
 * weston-plugin/compat.c).
 *
 * libweston exports a backend's functions (WL_EXPORT) but declares them
 * only in its internal headers (backend.h, libweston-internal.h), which
 * the -dev packages do not install.  They are declared here with each
 * version's own signature (a declaration that does not match compiles
 * and fails at run time, so each one was checked against that version's
 * backend.h), and wrapped by sf_test_* helpers whose signature is the
 * same on every version.
 */

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <libweston/libweston.h>
#include <libweston/version.h>

struct weston_backend;	/* windowed-output-api.h names it unannounced */
#include <libweston/windowed-output-api.h>

struct xkb_keymap;

void
weston_seat_init(struct weston_seat *seat, struct weston_compositor *ec,
		 const char *seat_name);
void
weston_seat_release(struct weston_seat *seat);
void
weston_head_set_connection_status(struct weston_head *head, bool connected);
void
weston_head_set_internal(struct weston_head *head);
int
weston_seat_init_pointer(struct weston_seat *seat);
int
weston_seat_init_keyboard(struct weston_seat *seat, struct xkb_keymap *keymap);
int
weston_seat_init_touch(struct weston_seat *seat);
void
weston_touch_device_destroy(struct weston_touch_device *device);
void
notify_pointer_frame(struct weston_seat *seat);
void
notify_touch_frame(struct weston_touch_device *device);

/* --- the output hooks a backend installs --- */

#if WESTON_VERSION_MAJOR >= 13
#define SF_TEST_REPAINT_PARAMS struct weston_output *output
#define SF_TEST_REPAINT_ARGS output
#define SF_TEST_ASSIGN_PLANES_PARAMS struct weston_output *output
typedef int (*sf_test_repaint_fn)(struct weston_output *output);
#else
#define SF_TEST_REPAINT_PARAMS                                                 \
	struct weston_output *output, pixman_region32_t *damage,               \
		void *repaint_data
#define SF_TEST_REPAINT_ARGS output, damage, repaint_data
#define SF_TEST_ASSIGN_PLANES_PARAMS                                           \
	struct weston_output *output, void *repaint_data
typedef int (*sf_test_repaint_fn)(struct weston_output *output,
				  pixman_region32_t *damage,
				  void *repaint_data);
#endif

/* What a backend without planes of its own does in assign_planes: every
 * view on the output is painted by the renderer.  libweston 10 leaves
 * the views on the primary plane; from 13 on the views' paint nodes
 * must be put there, as libweston does itself for a backend that has no
 * assign_planes (the double has one, to check the plugin's hold). */
#if WESTON_VERSION_MAJOR >= 13
struct weston_paint_node;
struct weston_paint_node *
weston_view_find_paint_node(struct weston_view *view,
			    struct weston_output *output);
void
weston_paint_node_move_to_plane(struct weston_paint_node *pnode,
				struct weston_plane *plane);

static inline void
sf_test_assign_primary_plane(struct weston_output *output)
{
	struct weston_view *view;

	wl_list_for_each(view, &output->compositor->view_list, link) {
		struct weston_paint_node *pnode;

		if (!(view->output_mask & (1u << output->id)))
			continue;
		pnode = weston_view_find_paint_node(view, output);
		if (pnode)
			weston_paint_node_move_to_plane(pnode,
							&output->primary_plane);
	}
}
#else
static inline void
sf_test_assign_primary_plane(struct weston_output *output)
{
	(void)output;
}
#endif

/* --- input, as a backend reports it --- */

#if WESTON_VERSION_MAJOR >= 16

struct weston_touch_device *
weston_touch_create_touch_device(struct weston_touch *touch,
				 const char *syspath, void *backend_data,
				 const struct weston_touch_device_ops *ops,
				 weston_touch_device_set_output_func_t set_output);
void
notify_motion(const struct weston_pointer_motion_event *event);
void
notify_button(const struct weston_pointer_button_event *event);
void
notify_key(const struct weston_key_event *event);
void
notify_touch_normalized(const struct weston_touch_event *event,
			const struct weston_point2d_device_normalized *norm);

static inline struct weston_touch_device *
sf_test_create_touch_device(struct weston_touch *touch, const char *syspath)
{
	return weston_touch_create_touch_device(touch, syspath, NULL, NULL,
						NULL);
}

static inline void
sf_test_notify_motion(struct weston_seat *seat, const struct timespec *now,
		      double dx, double dy)
{
	struct weston_pointer_motion_event event = {
		.base = { .ts = *now, .seat = seat },
		.mask = WESTON_POINTER_MOTION_REL,
		.rel = weston_coord(dx, dy),
	};

	notify_motion(&event);
}

static inline void
sf_test_notify_button(struct weston_seat *seat, const struct timespec *now,
		      uint32_t button, enum wl_pointer_button_state state)
{
	struct weston_pointer_button_event event = {
		.base = { .ts = *now, .seat = seat },
		.button = button,
		.button_state = state,
	};

	notify_button(&event);
}

static inline void
sf_test_notify_key(struct weston_seat *seat, const struct timespec *now,
		   uint32_t key, enum wl_keyboard_key_state state)
{
	struct weston_key_event event = {
		.base = { .ts = *now, .seat = seat },
		.key = key,
		.key_state = state,
		.key_update_state = STATE_UPDATE_AUTOMATIC,
	};

	notify_key(&event);
}

static inline void
sf_test_notify_touch(struct weston_touch_device *device,
		     const struct timespec *now, int touch_id, double x,
		     double y, int touch_type)
{
	struct weston_touch_event event = {
		.base = { .ts = *now, .seat = device->aggregate->seat },
		.device = device,
		.touch_type = touch_type,
		.touch_id = touch_id,
		.pos = { .c = weston_coord(x, y) },
	};

	notify_touch_normalized(&event, NULL);
}

#else /* up to 15 */

struct weston_touch_device *
weston_touch_create_touch_device(struct weston_touch *touch,
				 const char *syspath, void *backend_data,
				 const struct weston_touch_device_ops *ops);
void
notify_motion(struct weston_seat *seat, const struct timespec *time,
	      struct weston_pointer_motion_event *event);
void
notify_button(struct weston_seat *seat, const struct timespec *time,
	      int32_t button, enum wl_pointer_button_state state);
void
notify_key(struct weston_seat *seat, const struct timespec *time, uint32_t key,
	   enum wl_keyboard_key_state state,
	   enum weston_key_state_update update_state);

static inline struct weston_touch_device *
sf_test_create_touch_device(struct weston_touch *touch, const char *syspath)
{
	return weston_touch_create_touch_device(touch, syspath, NULL, NULL);
}

static inline void
sf_test_notify_motion(struct weston_seat *seat, const struct timespec *now,
		      double dx, double dy)
{
#if WESTON_VERSION_MAJOR >= 13
	struct weston_pointer_motion_event event = {
		.mask = WESTON_POINTER_MOTION_REL,
		.time = *now,
		.rel = weston_coord(dx, dy),
	};
#else
	struct weston_pointer_motion_event event = {
		.mask = WESTON_POINTER_MOTION_REL,
		.time = *now,
		.dx = dx,
		.dy = dy,
	};
#endif

	notify_motion(seat, now, &event);
}

static inline void
sf_test_notify_button(struct weston_seat *seat, const struct timespec *now,
		      uint32_t button, enum wl_pointer_button_state state)
{
	notify_button(seat, now, (int32_t)button, state);
}

static inline void
sf_test_notify_key(struct weston_seat *seat, const struct timespec *now,
		   uint32_t key, enum wl_keyboard_key_state state)
{
	notify_key(seat, now, key, state, STATE_UPDATE_AUTOMATIC);
}

#if WESTON_VERSION_MAJOR >= 13
void
notify_touch_normalized(struct weston_touch_device *device,
			const struct timespec *time, int touch_id,
			const struct weston_coord_global *pos,
			const struct weston_point2d_device_normalized *norm,
			int touch_type);

static inline void
sf_test_notify_touch(struct weston_touch_device *device,
		     const struct timespec *now, int touch_id, double x,
		     double y, int touch_type)
{
	struct weston_coord_global pos = { .c = weston_coord(x, y) };

	/* libweston wants no position with an up. */
	notify_touch_normalized(device, now, touch_id,
				touch_type == WL_TOUCH_UP ? NULL : &pos, NULL,
				touch_type);
}
#else
void
notify_touch_normalized(struct weston_touch_device *device,
			const struct timespec *time, int touch_id,
			double x, double y,
			const struct weston_point2d_device_normalized *norm,
			int touch_type);

static inline void
sf_test_notify_touch(struct weston_touch_device *device,
		     const struct timespec *now, int touch_id, double x,
		     double y, int touch_type)
{
	notify_touch_normalized(device, now, touch_id, x, y, NULL,
				touch_type);
}
#endif

#endif /* up to 15 */

/* --- the headless backend's heads --- */

static inline int
sf_test_create_headless_head(struct weston_compositor *compositor,
			     const char *name)
{
#if WESTON_VERSION_MAJOR >= 13
	const struct weston_windowed_output_api *api =
		weston_windowed_output_get_api(compositor,
					       WESTON_WINDOWED_OUTPUT_HEADLESS);

	if (!api || !compositor->primary_backend)
		return -1;
	return api->create_head(compositor->primary_backend, name);
#else
	const struct weston_windowed_output_api *api =
		weston_windowed_output_get_api(compositor);

	if (!api)
		return -1;
	return api->create_head(compositor, name);
#endif
}

/* --- reading back what an output shows --- */

#if WESTON_VERSION_MAJOR >= 16
/* 16 took read_pixels out of the renderer: no read-back. */
static inline bool
sf_test_read_pixels(struct weston_output *output, uint32_t *argb,
		    int32_t width, int32_t height)
{
	(void)output;
	(void)argb;
	(void)width;
	(void)height;
	return false;
}
#elif WESTON_VERSION_MAJOR >= 13
struct pixel_format_info;
const struct pixel_format_info *
pixel_format_get_info(uint32_t format);

/* The start of libweston's private struct weston_renderer in 13 to 15:
 * read_pixels is its first member, taking a pixel format description. */
struct sf_test_renderer {
	int (*read_pixels)(struct weston_output *output,
			   const struct pixel_format_info *format,
			   void *pixels, uint32_t x, uint32_t y,
			   uint32_t width, uint32_t height);
};

static inline bool
sf_test_read_pixels(struct weston_output *output, uint32_t *argb,
		    int32_t width, int32_t height)
{
	const struct sf_test_renderer *renderer =
		(const void *)output->compositor->renderer;
	/* DRM_FORMAT_ARGB8888, 'AR24': what pixman calls a8r8g8b8. */
	const struct pixel_format_info *format =
		pixel_format_get_info(0x34325241);

	return renderer && renderer->read_pixels && format &&
	       renderer->read_pixels(output, format, argb, 0, 0,
				     (uint32_t)width, (uint32_t)height) == 0;
}
#else
static inline bool
sf_test_read_pixels(struct weston_output *output, uint32_t *argb,
		    int32_t width, int32_t height)
{
	struct weston_renderer *renderer = output->compositor->renderer;

	return renderer && renderer->read_pixels &&
	       renderer->read_pixels(output, PIXMAN_a8r8g8b8, argb, 0, 0,
				     (uint32_t)width, (uint32_t)height) == 0;
}
#endif

#endif
