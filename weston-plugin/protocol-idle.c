/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>

#include <wayland-server-core.h>
#include <libweston/libweston.h>

#include "sf-weston.h"
#include "protocols.h"
#include "idle-inhibit-unstable-v1-server-protocol.h"
#include "ext-idle-notify-v1-server-protocol.h"

/*
 * Idle protocols Weston 10 lacks: zwp_idle_inhibit_manager_v1, whose
 * inhibitors plugin.c counts (sf_weston_inhibit), and
 * ext_idle_notifier_v1 for idle daemons such as swayidle.
 *
 * A notification does not re-arm its timer on every input event: that
 * would be a timerfd syscall per pointer motion per notification.  Input
 * only stores the time; when the timer fires it compares, and re-arms
 * for whatever is left of the timeout.
 *
 * Inhibition: while sfw->compositor->idle_inhibit is not 0 (an idle
 * inhibitor, or a key or button held down) a notification must not go
 * idle.  Nothing signals the counter dropping to 0, so a notification
 * that finds it raised polls it every second; once it is 0 again the
 * timeout starts afresh, as if the inhibition's end were user activity.
 * Counting from the last real input instead would make an idle daemon
 * lock the screen the very second a long video ends.
 */

#define INHIBIT_POLL_MS 1000

struct inhibitor {
	struct sf_weston *sfw;
	struct wl_resource *resource;
	/* NULL once the wl_surface is gone. */
	struct weston_surface *surface;
	struct wl_listener surface_destroy_listener;
	struct wl_list link;		/* sf_weston_protocols.inhibitors */
};

struct notification {
	struct sf_weston *sfw;
	struct wl_resource *resource;
	struct weston_seat *seat;	/* NULL: the seat is gone */
	struct wl_listener seat_destroy_listener;
	struct wl_event_source *timer;
	sf_time_t timeout;
	sf_time_t last_activity;
	bool idle;			/* idled sent, resumed not yet */
	bool inhibited;			/* polling the inhibit counter */
	struct wl_list link;	/* sf_weston_protocols.notifications */
};

/* --- zwp_idle_inhibitor_v1 --- */

static void
inhibitor_release(struct inhibitor *inhibitor)
{
	if (!inhibitor->surface)
		return;
	sf_weston_uninhibit(inhibitor->sfw, inhibitor->surface);
	wl_list_remove(&inhibitor->surface_destroy_listener.link);
	inhibitor->surface = NULL;
}

static void
inhibitor_handle_surface_destroy(struct wl_listener *listener, void *data)
{
	struct inhibitor *inhibitor =
		wl_container_of(listener, inhibitor, surface_destroy_listener);

	inhibitor_release(inhibitor);
}

static void
inhibitor_destroy(struct wl_resource *resource)
{
	struct inhibitor *inhibitor = wl_resource_get_user_data(resource);

	if (!inhibitor)
		return;
	inhibitor_release(inhibitor);
	wl_list_remove(&inhibitor->link);
	free(inhibitor);
}

static const struct zwp_idle_inhibitor_v1_interface inhibitor_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
};

static void
inhibit_manager_handle_create_inhibitor(struct wl_client *client,
					struct wl_resource *resource,
					uint32_t id,
					struct wl_resource *surface_resource)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);

	if (!p)
		return;		/* the plugin is gone */

	struct inhibitor *inhibitor = calloc(1, sizeof(*inhibitor));

	if (!inhibitor) {
		wl_client_post_no_memory(client);
		return;
	}
	inhibitor->resource =
		wl_resource_create(client, &zwp_idle_inhibitor_v1_interface,
				   wl_resource_get_version(resource), id);
	if (!inhibitor->resource) {
		free(inhibitor);
		wl_client_post_no_memory(client);
		return;
	}
	inhibitor->sfw = p->sfw;
	inhibitor->surface = wl_resource_get_user_data(surface_resource);
	wl_resource_set_implementation(inhibitor->resource, &inhibitor_impl,
				       inhibitor, inhibitor_destroy);
	/* The wl_surface resource, not the weston_surface: the inhibition
	 * ends when the client destroys the surface, even if a shell keeps
	 * it around for a closing animation. */
	inhibitor->surface_destroy_listener.notify =
		inhibitor_handle_surface_destroy;
	wl_resource_add_destroy_listener(surface_resource,
					 &inhibitor->surface_destroy_listener);
	wl_list_insert(&p->inhibitors, &inhibitor->link);
	sf_weston_inhibit(p->sfw, inhibitor->surface);
}

static const struct zwp_idle_inhibit_manager_v1_interface
inhibit_manager_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
	.create_inhibitor = inhibit_manager_handle_create_inhibitor,
};

/* --- ext_idle_notification_v1 --- */

static void
notification_arm(struct notification *n, sf_time_t delay)
{
	/* Rounded up, and never 0, which would disarm the timer; a 24-day
	 * timeout just checks again. */
	wl_event_source_timer_update(n->timer, sf_support_timer_ms(delay, 0));
}

static int
notification_handle_timer(void *data)
{
	struct notification *n = data;
	sf_time_t now = sf_weston_now(n->sfw);

	if (n->idle)
		return 0;
	if (n->sfw->compositor->idle_inhibit != 0) {
		n->inhibited = true;
		wl_event_source_timer_update(n->timer, INHIBIT_POLL_MS);
		return 0;
	}
	if (n->inhibited) {
		n->inhibited = false;
		n->last_activity = now;
	}

	sf_time_t quiet = now - n->last_activity;

	if (quiet < n->timeout) {
		notification_arm(n, n->timeout - quiet);
		return 0;
	}
	n->idle = true;
	ext_idle_notification_v1_send_idled(n->resource);
	return 0;
}

static void
notification_detach_seat(struct notification *n)
{
	if (!n->seat)
		return;
	wl_list_remove(&n->seat_destroy_listener.link);
	n->seat = NULL;
}

/* A notification of a seat that is gone sees no more activity and goes
 * idle in due course; its client should make a new one. */
static void
notification_handle_seat_destroy(struct wl_listener *listener, void *data)
{
	struct notification *n =
		wl_container_of(listener, n, seat_destroy_listener);

	notification_detach_seat(n);
}

static void
notification_free(struct notification *n)
{
	notification_detach_seat(n);
	if (n->timer)
		wl_event_source_remove(n->timer);
	wl_list_remove(&n->link);
	free(n);
}

static void
notification_destroy(struct wl_resource *resource)
{
	struct notification *n = wl_resource_get_user_data(resource);

	if (n)
		notification_free(n);
}

static const struct ext_idle_notification_v1_interface notification_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
};

/* Every input event, after the core saw it (data: struct
 * sf_weston_input_event *). */
static void
idle_handle_input(struct wl_listener *listener, void *data)
{
	struct sf_weston_protocols *p =
		wl_container_of(listener, p, input_listener);
	const struct sf_weston_input_event *event = data;

	if (wl_list_empty(&p->notifications))
		return;

	sf_time_t now = sf_weston_now(p->sfw);
	struct notification *n;

	wl_list_for_each(n, &p->notifications, link) {
		if (!n->seat || (event->seat && event->seat != n->seat))
			continue;
		n->last_activity = now;
		if (n->idle) {
			n->idle = false;
			ext_idle_notification_v1_send_resumed(n->resource);
			notification_arm(n, n->timeout);
		}
	}
}

static void
notifier_handle_get_idle_notification(struct wl_client *client,
				      struct wl_resource *resource,
				      uint32_t id, uint32_t timeout_ms,
				      struct wl_resource *seat_resource)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);

	if (!p)
		return;		/* the plugin is gone */

	struct wl_event_loop *loop =
		wl_display_get_event_loop(p->sfw->compositor->wl_display);
	struct notification *n = calloc(1, sizeof(*n));

	if (!n) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_list_init(&n->link);
	n->sfw = p->sfw;
	n->timer = wl_event_loop_add_timer(loop, notification_handle_timer, n);
	n->resource = wl_resource_create(client,
					 &ext_idle_notification_v1_interface,
					 wl_resource_get_version(resource), id);
	if (!n->timer || !n->resource) {
		if (n->resource)
			wl_resource_destroy(n->resource);
		notification_free(n);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(n->resource, &notification_impl, n,
				       notification_destroy);
	wl_list_insert(&p->notifications, &n->link);

	/* An inert wl_seat (user data NULL) is a seat already gone. */
	n->seat = wl_resource_get_user_data(seat_resource);
	if (n->seat) {
		sf_weston_listen(&n->seat->destroy_signal,
				 &n->seat_destroy_listener,
				 notification_handle_seat_destroy);
	}
	n->timeout = (sf_time_t)timeout_ms * SF_NSEC_PER_MSEC;
	n->last_activity = sf_weston_now(p->sfw);
	notification_arm(n, n->timeout);
}

static const struct ext_idle_notifier_v1_interface notifier_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
	.get_idle_notification = notifier_handle_get_idle_notification,
};

/* --- globals --- */

bool
sf_weston_idle_init(struct sf_weston_protocols *p)
{
	if (!sf_weston_protocols_add_global(p, &p->idle_inhibit,
				&zwp_idle_inhibit_manager_v1_interface,
				&inhibit_manager_impl) ||
	    !sf_weston_protocols_add_global(p, &p->idle_notifier,
					    &ext_idle_notifier_v1_interface,
					    &notifier_impl))
		return false;
	sf_weston_listen(&p->sfw->input_signal, &p->input_listener,
			 idle_handle_input);
	return true;
}

void
sf_weston_idle_finish(struct sf_weston_protocols *p)
{
	struct inhibitor *inhibitor, *itmp;
	struct notification *n, *ntmp;

	wl_list_remove(&p->input_listener.link);
	wl_list_init(&p->input_listener.link);

	/* What we counted into the plugin and the compositor goes back. */
	wl_list_for_each_safe(inhibitor, itmp, &p->inhibitors, link) {
		inhibitor_release(inhibitor);
		wl_resource_set_user_data(inhibitor->resource, NULL);
		wl_list_remove(&inhibitor->link);
		free(inhibitor);
	}
	wl_list_for_each_safe(n, ntmp, &p->notifications, link) {
		wl_resource_set_user_data(n->resource, NULL);
		notification_free(n);
	}

	sf_weston_protocols_remove_global(&p->idle_inhibit);
	sf_weston_protocols_remove_global(&p->idle_notifier);
}
