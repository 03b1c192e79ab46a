/* SPDX-License-Identifier: MIT */
#ifndef SF_WESTON_BACKEND_API_H
#define SF_WESTON_BACKEND_API_H

#include <stdbool.h>
#include <libweston/libweston.h>

/*
 * libweston-10 exports these symbols (WL_EXPORT) but declares them only in
 * its internal headers (backend.h, libweston-internal.h), which
 * libweston-10-dev does not install.  The signatures are those of 10.0.1;
 * a backend calls them, and fake-kms.c and fuzz-wayland.c play one.
 */
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
struct weston_touch_device *
weston_touch_create_touch_device(struct weston_touch *touch,
				 const char *syspath, void *backend_data,
				 const struct weston_touch_device_ops *ops);
void
weston_touch_device_destroy(struct weston_touch_device *device);
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
void
notify_pointer_frame(struct weston_seat *seat);
void
notify_touch_normalized(struct weston_touch_device *device,
			const struct timespec *time, int touch_id,
			double x, double y,
			const struct weston_point2d_device_normalized *norm,
			int touch_type);
void
notify_touch_frame(struct weston_touch_device *device);

#endif
