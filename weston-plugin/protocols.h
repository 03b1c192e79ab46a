/* SPDX-License-Identifier: MIT */
#ifndef SF_WESTON_PROTOCOLS_H
#define SF_WESTON_PROTOCOLS_H

/*
 * State shared by the protocol-*.c files, kept in sf_weston.protocols.
 * protocol-hints.c owns it (sf_weston_protocols_init/finish) and calls
 * the init/finish pairs below.
 *
 * Every resource the plugin creates is on one of the lists, so that
 * finish can make them all inert: Weston destroys the clients, and with
 * them these resources, only after the plugin is gone, so a destructor
 * must never find a pointer into freed plugin state.
 */

#include <stdbool.h>
#include <wayland-server-core.h>

#include "sf-weston.h"

struct sf_weston_protocols;

/* A global whose bound objects keep no state of their own: binding it
 * only puts the resource on sf_weston_protocols.managers. */
struct sf_weston_manager_global {
	struct sf_weston_protocols *p;
	const struct wl_interface *interface;
	const void *impl;
	struct wl_global *global;
};

struct sf_weston_protocols {
	struct sf_weston *sfw;

	/* stillframe_manager_v1, wp_content_type_manager_v1,
	 * zwp_idle_inhibit_manager_v1, ext_idle_notifier_v1 and
	 * stillframe_control_v1. */
	struct sf_weston_manager_global manager;
	struct sf_weston_manager_global content_type;
	struct sf_weston_manager_global idle_inhibit;
	struct sf_weston_manager_global idle_notifier;
	struct wl_global *control_global;
	bool global_filter_set;

	/* Bound globals without per-object state (wl_resource links). */
	struct wl_list managers;
	/* stillframe_control_v1 resources (wl_resource links). */
	struct wl_list controls;
	/* The stillframe_trace_v1 that owns the core's recording, or
	 * NULL. */
	struct wl_resource *trace;
	/* stillframe_surface_v1 and wp_content_type_v1 (protocol-hints.c). */
	struct wl_list surface_objects;
	/* zwp_idle_inhibitor_v1 (protocol-idle.c). */
	struct wl_list inhibitors;
	/* ext_idle_notification_v1 (protocol-idle.c). */
	struct wl_list notifications;

	struct wl_listener input_listener;	/* sf_weston.input_signal */
};

/* Creates a resource for a request or bind with `impl` and `data`, puts
 * it on `list` and gives it a destructor that takes it off again; for
 * objects that need nothing else on destruction.  Posts no_memory and
 * returns NULL on failure. */
struct wl_resource *
sf_weston_protocols_add_resource(struct wl_client *client,
				 struct wl_list *list,
				 const struct wl_interface *interface,
				 const void *impl, void *data,
				 uint32_t version, uint32_t id);

/* Takes every resource off `list` and sets its user data to NULL. */
void
sf_weston_protocols_untrack_all(struct wl_list *list);

/* Creates `g` as a version 1 global of `interface` served by `impl`.
 * Returns false if the global could not be created. */
bool
sf_weston_protocols_add_global(struct sf_weston_protocols *p,
			       struct sf_weston_manager_global *g,
			       const struct wl_interface *interface,
			       const void *impl);

/* Destroys `g`'s global if it has one; NULL-safe, may run twice. */
void
sf_weston_protocols_remove_global(struct sf_weston_manager_global *g);

/* The destroy request of every interface whose objects need nothing
 * more than their resource's destructor. */
void
sf_weston_protocols_destroy_resource(struct wl_client *client,
				     struct wl_resource *resource);

/* protocol-idle.c */
bool
sf_weston_idle_init(struct sf_weston_protocols *p);

void
sf_weston_idle_finish(struct sf_weston_protocols *p);

/* protocol-control.c */
bool
sf_weston_control_init(struct sf_weston_protocols *p);

void
sf_weston_control_finish(struct sf_weston_protocols *p);

#endif /* SF_WESTON_PROTOCOLS_H */
