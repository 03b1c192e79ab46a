/* SPDX-License-Identifier: MIT */
/*
 * Input: the core needs the time of every user input to wake at once.
 * Pointer motion comes from each pointer's motion signal.  libweston has
 * no signal for keys, buttons or touches, so the default grab of each
 * keyboard, pointer and touch device is wrapped: our handler notes the
 * event and calls the original one.  Events taken by another grab (a
 * popup menu, an interactive move) are missed; the pointer motion they
 * cause is not.
 */
#include <stdlib.h>

#include <libweston/zalloc.h>

#include "compat.h"
#include "sf-weston.h"

struct sf_weston_seat {
	struct sf_weston *sfw;
	struct weston_seat *seat;
	struct wl_list link;		/* sf_weston.seats */

	struct weston_pointer *pointer;
	const struct weston_pointer_grab_interface *pointer_orig;
	struct weston_pointer_grab_interface pointer_iface;
	struct wl_listener motion_listener;

	struct weston_keyboard *keyboard;
	const struct weston_keyboard_grab_interface *keyboard_orig;
	struct weston_keyboard_grab_interface keyboard_iface;
	struct wl_listener focus_listener;
	struct weston_surface *focus;
	struct wl_listener focus_destroy_listener;

	struct weston_touch *touch;
	const struct weston_touch_grab_interface *touch_orig;
	struct weston_touch_grab_interface touch_iface;

	struct wl_listener caps_listener;
	struct wl_listener destroy_listener;
};

static struct sf_weston_seat *
seat_find(struct weston_seat *seat)
{
	struct sf_weston *sfw = sf_weston_from_compositor(seat->compositor);
	struct sf_weston_seat *s;

	if (!sfw)
		return NULL;
	wl_list_for_each(s, &sfw->seats, link)
		if (s->seat == seat)
			return s;
	return NULL;
}

static void
note_input(struct sf_weston_seat *s, enum sf_input_kind kind)
{
	struct sf_weston *sfw = s->sfw;
	struct sf_weston_input_event ev = {
		.kind = kind,
		.time = sf_weston_now(sfw),
		.seat = s->seat,
	};

	sf_core_notify_input(sfw->core, kind, ev.time);
	sf_weston_surface_release_unthrottled(sfw);
	sf_weston_sync_idle_inhibit(sfw);
	sf_weston_schedule_dispatch(sfw);
	wl_signal_emit(&sfw->input_signal, &ev);
}

/* --- pointer --- */

static void
pointer_handle_button(struct weston_pointer_grab *grab,
		      SF_COMPAT_POINTER_BUTTON_PARAMS)
{
	struct sf_weston_seat *s = seat_find(grab->pointer->seat);

	if (!s)
		return;
	note_input(s, SF_INPUT_BUTTON);
	s->pointer_orig->button(grab, SF_COMPAT_POINTER_BUTTON_ARGS);
}

static void
pointer_handle_axis(struct weston_pointer_grab *grab,
		    SF_COMPAT_POINTER_AXIS_PARAMS)
{
	struct sf_weston_seat *s = seat_find(grab->pointer->seat);

	if (!s)
		return;
	/* Scrolling is pointer activity for the policy. */
	note_input(s, SF_INPUT_POINTER);
	s->pointer_orig->axis(grab, SF_COMPAT_POINTER_AXIS_ARGS);
}

static void
pointer_handle_motion_signal(struct wl_listener *listener, void *data)
{
	struct sf_weston_seat *s = wl_container_of(listener, s,
						   motion_listener);
	(void)data;
	sf_weston_output_force_all(s->sfw, SF_FORCE_POINTER_MOVED);
	note_input(s, SF_INPUT_POINTER);
}

static void
hook_pointer(struct sf_weston_seat *s, struct weston_pointer *pointer)
{
	if (s->pointer || !pointer)
		return;
	s->pointer = pointer;
	s->pointer_orig = pointer->default_grab.interface;
	s->pointer_iface = *s->pointer_orig;
	s->pointer_iface.button = pointer_handle_button;
	s->pointer_iface.axis = pointer_handle_axis;
	pointer->default_grab.interface = &s->pointer_iface;
	sf_weston_listen(&pointer->motion_signal, &s->motion_listener,
			 pointer_handle_motion_signal);
}

/* --- keyboard --- */

static void
keyboard_handle_key(struct weston_keyboard_grab *grab, SF_COMPAT_KEY_PARAMS)
{
	struct sf_weston_seat *s = seat_find(grab->keyboard->seat);

	if (!s)
		return;
	note_input(s, SF_INPUT_KEY);
	s->keyboard_orig->key(grab, SF_COMPAT_KEY_ARGS);
}

static void
set_focus(struct sf_weston_seat *s, struct weston_surface *surface)
{
	struct sf_weston_surface *sws;

	if (s->focus == surface)
		return;
	if (s->focus) {
		if ((sws = sf_weston_surface_find(s->sfw, s->focus)))
			sf_surface_set_focused(sws->core, false,
					       sf_weston_now(s->sfw));
		wl_list_remove(&s->focus_destroy_listener.link);
	}
	s->focus = surface;
	if (surface) {
		wl_signal_add(&surface->destroy_signal,
			      &s->focus_destroy_listener);
		if ((sws = sf_weston_surface_get(s->sfw, surface)))
			sf_surface_set_focused(sws->core, true,
					       sf_weston_now(s->sfw));
	}
}

static void
keyboard_handle_focus(struct wl_listener *listener, void *data)
{
	struct sf_weston_seat *s = wl_container_of(listener, s,
						   focus_listener);
	struct weston_keyboard *keyboard = data;

	set_focus(s, keyboard->focus);
}

static void
focus_handle_destroy(struct wl_listener *listener, void *data)
{
	struct sf_weston_seat *s = wl_container_of(listener, s,
						   focus_destroy_listener);
	(void)data;
	wl_list_remove(&s->focus_destroy_listener.link);
	s->focus = NULL;
}

static void
hook_keyboard(struct sf_weston_seat *s, struct weston_keyboard *keyboard)
{
	if (s->keyboard || !keyboard)
		return;
	s->keyboard = keyboard;
	s->keyboard_orig = keyboard->default_grab.interface;
	s->keyboard_iface = *s->keyboard_orig;
	s->keyboard_iface.key = keyboard_handle_key;
	keyboard->default_grab.interface = &s->keyboard_iface;
	sf_weston_listen(&keyboard->focus_signal, &s->focus_listener,
			 keyboard_handle_focus);
}

/* --- touch --- */

static void
touch_handle_down(struct weston_touch_grab *grab, SF_COMPAT_TOUCH_PARAMS)
{
	struct sf_weston_seat *s = seat_find(grab->touch->seat);

	if (!s)
		return;
	note_input(s, SF_INPUT_TOUCH);
	s->touch_orig->down(grab, SF_COMPAT_TOUCH_ARGS);
}

static void
touch_handle_motion(struct weston_touch_grab *grab, SF_COMPAT_TOUCH_PARAMS)
{
	struct sf_weston_seat *s = seat_find(grab->touch->seat);

	if (!s)
		return;
	note_input(s, SF_INPUT_TOUCH);
	s->touch_orig->motion(grab, SF_COMPAT_TOUCH_ARGS);
}

static void
hook_touch(struct sf_weston_seat *s, struct weston_touch *touch)
{
	if (s->touch || !touch)
		return;
	s->touch = touch;
	s->touch_orig = touch->default_grab.interface;
	s->touch_iface = *s->touch_orig;
	s->touch_iface.down = touch_handle_down;
	s->touch_iface.motion = touch_handle_motion;
	touch->default_grab.interface = &s->touch_iface;
}

/* --- seats --- */

static void
seat_handle_caps(struct wl_listener *listener, void *data)
{
	struct sf_weston_seat *s = wl_container_of(listener, s,
						   caps_listener);
	(void)data;
	/* The device structs outlive their devices (a mouse unplugged and
	 * plugged again reuses them), so each is wrapped once. */
	hook_pointer(s, s->seat->pointer_state);
	hook_keyboard(s, s->seat->keyboard_state);
	hook_touch(s, s->seat->touch_state);
}

/* `devices_gone`: weston_seat_release() has freed the pointer, keyboard
 * and touch already (it does so before the seat's destroy signal), with
 * the signal lists our listeners are on; there is nothing to put back. */
static void
seat_unhook(struct sf_weston_seat *s, bool devices_gone)
{
	if (devices_gone) {
		s->pointer = NULL;
		s->keyboard = NULL;
		s->touch = NULL;
	}
	if (s->pointer) {
		if (s->pointer->default_grab.interface == &s->pointer_iface)
			s->pointer->default_grab.interface = s->pointer_orig;
		wl_list_remove(&s->motion_listener.link);
	}
	if (s->keyboard) {
		if (s->keyboard->default_grab.interface == &s->keyboard_iface)
			s->keyboard->default_grab.interface = s->keyboard_orig;
		wl_list_remove(&s->focus_listener.link);
	}
	if (s->touch &&
	    s->touch->default_grab.interface == &s->touch_iface)
		s->touch->default_grab.interface = s->touch_orig;
	if (s->focus)
		wl_list_remove(&s->focus_destroy_listener.link);
	wl_list_remove(&s->caps_listener.link);
	wl_list_remove(&s->destroy_listener.link);
	wl_list_remove(&s->link);
	free(s);
}

static void
seat_handle_destroy(struct wl_listener *listener, void *data)
{
	struct sf_weston_seat *s = wl_container_of(listener, s,
						   destroy_listener);
	(void)data;
	seat_unhook(s, true);
}

static void
seat_add(struct sf_weston *sfw, struct weston_seat *seat)
{
	struct sf_weston_seat *s = zalloc(sizeof(*s));

	if (!s) {
		weston_log("stillframe: seat %s: out of memory; its input "
			   "is not seen\n", seat->seat_name);
		return;
	}
	s->sfw = sfw;
	s->seat = seat;
	s->focus_destroy_listener.notify = focus_handle_destroy;
	sf_weston_listen(&seat->updated_caps_signal, &s->caps_listener,
			 seat_handle_caps);
	sf_weston_listen(&seat->destroy_signal, &s->destroy_listener,
			 seat_handle_destroy);
	wl_list_insert(&sfw->seats, &s->link);
	seat_handle_caps(&s->caps_listener, seat);
}

static void
compositor_handle_seat_created(struct wl_listener *listener, void *data)
{
	struct sf_weston *sfw = wl_container_of(listener, sfw,
						seat_created_listener);
	seat_add(sfw, data);
}

void
sf_weston_input_init(struct sf_weston *sfw)
{
	struct weston_seat *seat;

	wl_list_for_each(seat, &sfw->compositor->seat_list, link)
		seat_add(sfw, seat);
	sf_weston_listen(&sfw->compositor->seat_created_signal,
			 &sfw->seat_created_listener,
			 compositor_handle_seat_created);
}

void
sf_weston_input_finish(struct sf_weston *sfw)
{
	struct sf_weston_seat *s, *next;

	/* We finish as the compositor is destroyed, after desktop-shell
	 * (loaded before us) freed itself without leaving
	 * seat_created_signal (Weston 10.0.1): unlinking ours would write
	 * into its freed listener, found by valgrind.  The signal is never
	 * emitted again, so our link is left as it is. */
	wl_list_for_each_safe(s, next, &sfw->seats, link)
		seat_unhook(s, false);
}
