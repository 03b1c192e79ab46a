/* SPDX-License-Identifier: MIT */
#ifndef SF_WESTON_COMPAT_H
#define SF_WESTON_COMPAT_H

/*
 * Everything that differs between the libweston versions the plugin
 * builds against (10, 13, 14, 15, 16), and nothing else.  This header
 * and compat.c are the only places that look at WESTON_VERSION_MAJOR;
 * the rest of the plugin calls the functions below and reads the same
 * on every version.
 *
 * The big change is 13's: damage, planes and the presentation feedback
 * flags moved from the compositor, the planes and the views into
 * libweston's private paint nodes, and the output hooks lost their
 * damage and repaint_data arguments.  What the plugin needs of them
 * (is a view on a plane of its own, is there damage nobody committed,
 * paint the whole output) is asked here, and answered from what each
 * version exposes.
 */

#include <stdbool.h>
#include <stdint.h>
#include <pixman.h>
#include <libweston/libweston.h>
#include <libweston/version.h>

#if WESTON_VERSION_MAJOR >= 13
#include <libweston/desktop.h>
#else
#include <libweston-desktop/libweston-desktop.h>
#endif

/*
 * The parameters of the default grabs' handlers input.c wraps, and the
 * arguments that pass them on to the wrapped handler: up to 15 the
 * time and the event's fields one by one (13 made the touch position a
 * struct weston_coord_global), from 16 on one const event struct.
 */
#if WESTON_VERSION_MAJOR >= 16
#define SF_COMPAT_POINTER_BUTTON_PARAMS                                        \
	const struct weston_pointer_button_event *event
#define SF_COMPAT_POINTER_BUTTON_ARGS event
#define SF_COMPAT_POINTER_AXIS_PARAMS                                          \
	const struct weston_pointer_axis_event *event
#define SF_COMPAT_POINTER_AXIS_ARGS event
#define SF_COMPAT_KEY_PARAMS const struct weston_key_event *event
#define SF_COMPAT_KEY_ARGS event
#define SF_COMPAT_TOUCH_PARAMS const struct weston_touch_event *event
#define SF_COMPAT_TOUCH_ARGS event
#else
#define SF_COMPAT_POINTER_BUTTON_PARAMS                                        \
	const struct timespec *time, uint32_t button, uint32_t state
#define SF_COMPAT_POINTER_BUTTON_ARGS time, button, state
#define SF_COMPAT_POINTER_AXIS_PARAMS                                          \
	const struct timespec *time, struct weston_pointer_axis_event *event
#define SF_COMPAT_POINTER_AXIS_ARGS time, event
#define SF_COMPAT_KEY_PARAMS const struct timespec *time, uint32_t key,       \
	uint32_t state
#define SF_COMPAT_KEY_ARGS time, key, state
#if WESTON_VERSION_MAJOR >= 13
#define SF_COMPAT_TOUCH_PARAMS const struct timespec *time, int touch_id,     \
	struct weston_coord_global pos
#define SF_COMPAT_TOUCH_ARGS time, touch_id, pos
#else
#define SF_COMPAT_TOUCH_PARAMS const struct timespec *time, int touch_id,     \
	wl_fixed_t x, wl_fixed_t y
#define SF_COMPAT_TOUCH_ARGS time, touch_id, x, y
#endif
#endif

/* The label the shell gave the surface (a panel, a background), in
 * buf; whether it gave one.  Up to 15 the shell answers get_label(),
 * from 16 on it sets surface->label. */
bool
sf_compat_surface_shell_label(struct weston_surface *surface, char *buf,
			      size_t len);

/* --- the output's repaint hooks --- */

/* The arguments libweston passes the hooks of one repaint cycle: the
 * damage and the backend's repaint data up to 10, nothing from 13 on
 * (both NULL there). */
struct sf_compat_frame {
	pixman_region32_t *damage;
	void *repaint_data;
};

/* The backend's own hooks, kept while the plugin's are installed. */
struct sf_compat_output_hooks {
#if WESTON_VERSION_MAJOR >= 13
	int (*repaint)(struct weston_output *output);
	void (*assign_planes)(struct weston_output *output);
#else
	int (*repaint)(struct weston_output *output,
		       pixman_region32_t *damage, void *repaint_data);
	void (*assign_planes)(struct weston_output *output,
			      void *repaint_data);
#endif
	bool assign_planes_wrapped;
};

/* Puts the plugin's hooks on the output, which call
 * sf_weston_output_handle_assign_planes() and
 * sf_weston_output_handle_repaint() (output.c), and keeps the
 * backend's in *saved.  From 13 on, a backend without assign_planes
 * keeps none: libweston itself then puts every paint node on the
 * primary plane, which the plugin cannot do (the nodes are private),
 * and the plugin decides in the repaint hook. */
void
sf_compat_output_wrap(struct weston_output *output,
		      struct sf_compat_output_hooks *saved);

/* Gives the output its backend's hooks back, if ours are still on. */
void
sf_compat_output_unwrap(struct weston_output *output,
			const struct sf_compat_output_hooks *saved);

/* The backend's assign_planes, or what libweston 10 does for a backend
 * without one (every view presented through the renderer). */
void
sf_compat_backend_assign_planes(const struct sf_compat_output_hooks *saved,
				struct weston_output *output,
				const struct sf_compat_frame *frame);

int
sf_compat_backend_repaint(const struct sf_compat_output_hooks *saved,
			  struct weston_output *output,
			  const struct sf_compat_frame *frame);

/* --- what a repaint would paint --- */

/* A key of the plane the view was on at the output's last repaint, for
 * the view signature: the plane's address up to 10; from 13 on the
 * plane is in a private paint node and the key is 0 (a view moving to
 * another plane is then seen by its geometry only). */
uintptr_t
sf_compat_view_plane_key(struct weston_view *view,
			 struct weston_output *output);

/* Whether the view is known to be on a plane other than the primary
 * one (its surface's damage then changes that plane's buffer); false
 * where libweston does not say. */
bool
sf_compat_view_on_overlay_plane(struct weston_view *view,
				struct weston_output *output);

/* Adds to *region (global coordinates) the damage the output will
 * paint that surface commits do not explain: up to 10 the primary
 * plane's damage outside its clip (a view moved away, a shell redrew
 * the output); from 13 on, the whole output when libweston asked for a
 * full repaint (the rest is in private paint nodes, and a view that
 * moved changes the view signature instead). */
void
sf_compat_output_add_unexplained_damage(struct weston_output *output,
					pixman_region32_t *region);

/* Whether a client waits for the output's next frame to capture it
 * (weston_capture_v1 from 13 on, the screenshooter or a recorder up to
 * 10): that frame must be painted, or the capture waits for the hold's
 * deadline. */
bool
sf_compat_output_capture_pending(struct weston_output *output);

/* Whether a mode switch may be carried out inside the output hooks of a
 * repaint (where the core decides): up to 10, yes; from 13 on a switch
 * dirties the paint nodes libweston has already brought up to date for
 * this repaint, and libweston aborts on them (paint_node_update_late,
 * 14; paint_node_validate_ready, 16). */
bool
sf_compat_mode_switch_in_repaint_safe(void);

/* Makes the output's next repaint paint all of it. */
void
sf_compat_output_damage_all(struct weston_output *output);

/* --- a held frame --- */

/* Whether the presentation feedback a held frame will carry is laid
 * out as compat.c expects (see sf_compat_discard_held_feedback): up to
 * 10 the output's feedback list at the repaint hook, from 13 on the
 * lists of the surfaces on the output (libweston moves them to the
 * output after the repaint hook). */
bool
sf_compat_held_feedback_readable(struct weston_output *output);

/* Answers "discarded" to the feedback of the held frame, now on the
 * output's feedback list, and frees it (libweston's destructor unlinks
 * each entry).  Call after libweston's repaint returned and before the
 * held frame is finished. */
void
sf_compat_discard_held_feedback(struct weston_output *output);

/* State of libweston's that a held frame must not consume: from 15 on,
 * a successful repaint clears the output's record of paint-node
 * changes, which the DRM backend reads to reuse its last plane state;
 * a held frame showed none of them, so the record is put back when the
 * frame is finished. */
struct sf_compat_held_state {
	uint32_t paint_node_changes;
};

void
sf_compat_held_frame_keep(struct weston_output *output,
			  struct sf_compat_held_state *state);

void
sf_compat_held_frame_restore(struct weston_output *output,
			     const struct sf_compat_held_state *state);

/* Exported by libweston for its backends but declared only in its
 * uninstalled backend.h: the plugin finishes a frame it held itself,
 * as a backend finishes a frame it showed. */
void
weston_output_finish_frame(struct weston_output *output,
			   const struct timespec *stamp,
			   uint32_t presented_flags);

/* The plugin's hooks, in output.c, called by compat.c's trampolines. */
void
sf_weston_output_handle_assign_planes(struct weston_output *output,
				      const struct sf_compat_frame *frame);

int
sf_weston_output_handle_repaint(struct weston_output *output,
				const struct sf_compat_frame *frame);

#endif
