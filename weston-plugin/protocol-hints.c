/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>

#include <wayland-server-core.h>
#include <libweston/libweston.h>

#include "sf-weston.h"
#include "protocols.h"
#include "stillframe-v1-server-protocol.h"
#include "content-type-v1-server-protocol.h"

/*
 * The hint protocols: stillframe_manager_v1/stillframe_surface_v1 and
 * wp_content_type_manager_v1/wp_content_type_v1.  Requests only write
 * the surface's pending hints; surface.c applies them at the next
 * commit, which is what makes them double-buffered.  This file also owns
 * the shared protocol state (protocols.h).
 *
 * The per-surface objects follow the wl_surface *resource*, not the
 * weston_surface: a shell may keep a weston_surface alive after the
 * client destroyed its wl_surface (a closing animation), and the
 * protocol says the object goes inert when the wl_surface goes.  The
 * resource's destroy listeners run before its weston_surface is
 * released, so the tracking is still there when we let go of it.
 */

struct surface_object {
	struct sf_weston *sfw;
	struct wl_resource *resource;
	/* NULL once the wl_surface is gone or the plugin finished: inert. */
	struct weston_surface *surface;
	bool is_hint;			/* else wp_content_type_v1 */
	struct wl_listener surface_destroy_listener;
	/* On sf_weston_protocols.surface_objects. */
	struct wl_list link;
};

/* --- shared helpers (protocols.h) --- */

static void
tracked_resource_destroy(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

struct wl_resource *
sf_weston_protocols_add_resource(struct wl_client *client,
				 struct wl_list *list,
				 const struct wl_interface *interface,
				 const void *impl, void *data,
				 uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	wl_resource_set_implementation(resource, impl, data,
				       tracked_resource_destroy);
	wl_list_insert(list, wl_resource_get_link(resource));
	return resource;
}

static void
manager_global_handle_bind(struct wl_client *client, void *data,
			   uint32_t version, uint32_t id)
{
	struct sf_weston_manager_global *g = data;

	sf_weston_protocols_add_resource(client, &g->p->managers,
					 g->interface, g->impl, g->p,
					 version, id);
}

bool
sf_weston_protocols_add_global(struct sf_weston_protocols *p,
			       struct sf_weston_manager_global *g,
			       const struct wl_interface *interface,
			       const void *impl)
{
	g->p = p;
	g->interface = interface;
	g->impl = impl;
	g->global = wl_global_create(p->sfw->compositor->wl_display,
				     interface, 1, g,
				     manager_global_handle_bind);
	return g->global != NULL;
}

void
sf_weston_protocols_remove_global(struct sf_weston_manager_global *g)
{
	if (g && g->global)
		wl_global_destroy(g->global);
	if (g)
		g->global = NULL;
}

void
sf_weston_protocols_destroy_resource(struct wl_client *client,
				     struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

void
sf_weston_protocols_untrack_all(struct wl_list *list)
{
	struct wl_resource *resource, *tmp;

	wl_resource_for_each_safe(resource, tmp, list) {
		struct wl_list *link = wl_resource_get_link(resource);

		/* Self-linked, so the destructor's remove stays harmless. */
		wl_list_remove(link);
		wl_list_init(link);
		wl_resource_set_user_data(resource, NULL);
	}
}

/* A protocol error for the offending client only, and a log line that
 * says who it was: the client is disconnected, Weston carries on. */
static void __attribute__((format(printf, 3, 4)))
post_client_error(struct wl_resource *resource, uint32_t code,
		  const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	pid_t pid = 0;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	wl_client_get_credentials(wl_resource_get_client(resource), &pid,
				  NULL, NULL);
	weston_log("stillframe: client bug: pid %d: %s@%u: %s (protocol "
		   "error %u, client disconnected)\n", (int)pid,
		   wl_resource_get_class(resource),
		   wl_resource_get_id(resource), msg, code);
	wl_resource_post_error(resource, code, "%s", msg);
}

/* --- per-surface objects --- */

static struct wl_resource **
surface_object_slot(bool is_hint, struct sf_weston_surface *sws)
{
	return is_hint ? &sws->hint_resource : &sws->content_type_resource;
}

/* Lets go of the surface: the object is inert afterwards. */
static void
surface_object_detach(struct surface_object *obj)
{
	if (!obj->surface)
		return;

	struct sf_weston_surface *sws =
		sf_weston_surface_find(obj->sfw, obj->surface);

	if (sws) {
		struct wl_resource **slot = surface_object_slot(obj->is_hint, sws);

		if (*slot == obj->resource)
			*slot = NULL;
	}
	wl_list_remove(&obj->surface_destroy_listener.link);
	obj->surface = NULL;
}

static void
surface_object_handle_surface_destroy(struct wl_listener *listener,
				      void *data)
{
	struct surface_object *obj =
		wl_container_of(listener, obj, surface_destroy_listener);

	surface_object_detach(obj);
}

/* Withdrawing is itself double-buffered: the hints of a destroyed object
 * go at the surface's next commit, like any other change. */
static void
withdraw_pending(struct surface_object *obj, struct sf_weston_surface *sws)
{
	struct sf_weston_pending_hints *pending = &sws->pending;

	if (obj->is_hint) {
		pending->hints.rate_num = 0;
		pending->hints.rate_den = 0;
		pending->hints.min_mhz = 0;
		pending->hints.max_mhz = 0;
		pending->hints.priority = SF_PRIORITY_NORMAL;
		pending->rate_set = true;
		pending->range_set = true;
		pending->priority_set = true;
		pending->priority_withdrawn = true;
	} else {
		pending->hints.content = SF_CONTENT_NONE;
		pending->content_set = true;
	}
}

static void
surface_object_destroy(struct wl_resource *resource)
{
	struct surface_object *obj = wl_resource_get_user_data(resource);

	if (!obj)
		return;
	if (obj->surface) {
		struct sf_weston_surface *sws =
			sf_weston_surface_find(obj->sfw, obj->surface);

		if (sws)
			withdraw_pending(obj, sws);
		surface_object_detach(obj);
	}
	wl_list_remove(&obj->link);
	free(obj);
}

/* Makes the per-surface object for a manager's get request: the
 * protocol allows one of each kind per wl_surface, so a second is the
 * client's `already_constructed` error. */
static struct surface_object *
surface_object_create(struct wl_resource *manager, uint32_t id,
		      struct wl_resource *surface_resource,
		      const struct wl_interface *interface, const void *impl,
		      bool is_hint, uint32_t already_constructed)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(manager);
	struct wl_client *client = wl_resource_get_client(manager);
	struct weston_surface *surface =
		wl_resource_get_user_data(surface_resource);

	if (!p)
		return NULL;	/* the plugin is gone: the manager is inert */

	struct sf_weston_surface *sws = sf_weston_surface_get(p->sfw, surface);

	if (!sws) {
		wl_client_post_no_memory(client);
		return NULL;
	}

	struct wl_resource **slot = surface_object_slot(is_hint, sws);

	if (*slot) {
		post_client_error(manager, already_constructed,
				       "wl_surface@%u already has a %s",
				       wl_resource_get_id(surface_resource),
				       interface->name);
		return NULL;
	}

	struct surface_object *obj = calloc(1, sizeof(*obj));

	if (!obj) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	obj->resource = wl_resource_create(client, interface,
					   wl_resource_get_version(manager),
					   id);
	if (!obj->resource) {
		free(obj);
		wl_client_post_no_memory(client);
		return NULL;
	}
	obj->sfw = p->sfw;
	obj->surface = surface;
	obj->is_hint = is_hint;
	wl_resource_set_implementation(obj->resource, impl, obj,
				       surface_object_destroy);
	obj->surface_destroy_listener.notify =
		surface_object_handle_surface_destroy;
	wl_resource_add_destroy_listener(surface_resource,
					 &obj->surface_destroy_listener);
	wl_list_insert(&p->surface_objects, &obj->link);
	*slot = obj->resource;
	return obj;
}

/* The tracking behind a live object, or NULL when the object is inert
 * (the plugin finished or the wl_surface is gone) or out of memory, in
 * which case the client was told if `error_inert`. */
static struct sf_weston_surface *
surface_object_target(struct wl_resource *resource, bool error_inert)
{
	struct surface_object *obj = wl_resource_get_user_data(resource);

	if (!obj || !obj->surface) {
		if (error_inert)
			post_client_error(resource,
				STILLFRAME_SURFACE_V1_ERROR_SURFACE_DESTROYED,
				"the wl_surface of this object was destroyed");
		return NULL;
	}

	struct sf_weston_surface *sws =
		sf_weston_surface_get(obj->sfw, obj->surface);

	if (!sws) {
		wl_client_post_no_memory(wl_resource_get_client(resource));
		return NULL;
	}
	/* Should the tracking have been made anew, link it up again. */
	*surface_object_slot(obj->is_hint, sws) = resource;
	return sws;
}

/* --- stillframe_surface_v1 --- */

static void
hint_handle_set_content_rate(struct wl_client *client,
			     struct wl_resource *resource,
			     uint32_t num, uint32_t den)
{
	struct sf_weston_surface *sws = surface_object_target(resource, true);

	if (!sws)
		return;
	if (num != 0 && den == 0) {
		post_client_error(resource,
			STILLFRAME_SURFACE_V1_ERROR_INVALID_RATE,
			"content rate %u/0 has a zero denominator",
			num);
		return;
	}
	sws->pending.hints.rate_num = num;
	sws->pending.hints.rate_den = num ? den : 0;
	sws->pending.rate_set = true;
}

static void
hint_handle_set_refresh_range(struct wl_client *client,
			      struct wl_resource *resource,
			      uint32_t min_mhz, uint32_t max_mhz)
{
	struct sf_weston_surface *sws = surface_object_target(resource, true);

	if (!sws)
		return;
	if (max_mhz != 0 && min_mhz > max_mhz) {
		post_client_error(resource,
			STILLFRAME_SURFACE_V1_ERROR_INVALID_RANGE,
			"refresh range %u-%u mHz has its minimum above its maximum",
			min_mhz, max_mhz);
		return;
	}
	sws->pending.hints.min_mhz = min_mhz;
	sws->pending.hints.max_mhz = max_mhz;
	sws->pending.range_set = true;
}

/* sf_priority_from_wire() reads the protocol's values. */
_Static_assert(STILLFRAME_SURFACE_V1_PRIORITY_NORMAL == 0 &&
		       STILLFRAME_SURFACE_V1_PRIORITY_ESSENTIAL == 1 &&
		       STILLFRAME_SURFACE_V1_PRIORITY_BACKGROUND == 2,
	       "stillframe_surface_v1.priority as sf_priority_from_wire");

static void
hint_handle_set_priority(struct wl_client *client,
			 struct wl_resource *resource, uint32_t priority)
{
	struct sf_weston_surface *sws = surface_object_target(resource, true);
	enum sf_priority value;

	if (!sws)
		return;
	if (!sf_priority_from_wire(priority, &value)) {
		post_client_error(resource,
			STILLFRAME_SURFACE_V1_ERROR_INVALID_PRIORITY,
			"%u is not a stillframe_surface_v1.priority",
			priority);
		return;
	}
	sws->pending.hints.priority = value;
	sws->pending.priority_set = true;
	sws->pending.priority_withdrawn = false;
}

static const struct stillframe_surface_v1_interface hint_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
	.set_content_rate = hint_handle_set_content_rate,
	.set_refresh_range = hint_handle_set_refresh_range,
	.set_priority = hint_handle_set_priority,
};

static uint32_t
interval_to_us(sf_time_t interval)
{
	if (interval <= 0)
		return 0;

	/* Rounded up: a client must not wake before the next release. */
	sf_time_t us = (interval + SF_NSEC_PER_USEC - 1) / SF_NSEC_PER_USEC;

	return us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

/* surface.c sends only changes, and keeps the last in
 * sws->last_throttle_sent for objects created later. */
void
sf_weston_protocols_send_throttled(struct sf_weston_surface *sws,
				   sf_time_t interval)
{
	if (sws->hint_resource)
		stillframe_surface_v1_send_throttled(sws->hint_resource,
						     interval_to_us(interval));
}

/* --- stillframe_manager_v1 --- */

static void
manager_handle_get_surface(struct wl_client *client,
			   struct wl_resource *resource, uint32_t id,
			   struct wl_resource *surface_resource)
{
	struct surface_object *obj =
		surface_object_create(resource, id, surface_resource,
				      &stillframe_surface_v1_interface,
				      &hint_impl, true,
				      STILLFRAME_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED);

	if (!obj)
		return;

	struct sf_weston_surface *sws =
		sf_weston_surface_find(obj->sfw, obj->surface);

	if (sws && sws->last_throttle_sent > 0)
		stillframe_surface_v1_send_throttled(obj->resource,
			interval_to_us(sws->last_throttle_sent));
}
static const struct stillframe_manager_v1_interface manager_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
	.get_surface = manager_handle_get_surface,
};

/* --- wp_content_type_v1 --- */

static void
content_type_handle_set_content_type(struct wl_client *client,
				     struct wl_resource *resource,
				     uint32_t content_type)
{
	/* The protocol has no error for an inert object: ignore. */
	struct sf_weston_surface *sws = surface_object_target(resource, false);

	if (!sws)
		return;
	switch (content_type) {
	case WP_CONTENT_TYPE_V1_TYPE_NONE:
	case WP_CONTENT_TYPE_V1_TYPE_PHOTO:
	case WP_CONTENT_TYPE_V1_TYPE_VIDEO:
	case WP_CONTENT_TYPE_V1_TYPE_GAME:
		/* enum sf_content_type has the protocol's values. */
		sws->pending.hints.content =
			(enum sf_content_type)content_type;
		sws->pending.content_set = true;
		break;
	default:
		/* v1 defines no error for this; a hint is not worth a
		 * disconnect, so the request is dropped. */
		sf_weston_log(sws->sfw,
			      "client bug: wp_content_type_v1@%u: unknown content type %u ignored",
			      wl_resource_get_id(resource), content_type);
		break;
	}
}

static const struct wp_content_type_v1_interface content_type_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
	.set_content_type = content_type_handle_set_content_type,
};

/* --- wp_content_type_manager_v1 --- */

static void
content_type_manager_handle_get(struct wl_client *client,
				struct wl_resource *resource, uint32_t id,
				struct wl_resource *surface_resource)
{
	surface_object_create(resource, id, surface_resource,
			      &wp_content_type_v1_interface,
			      &content_type_impl, false,
			      WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED);
}

static const struct wp_content_type_manager_v1_interface
content_type_manager_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
	.get_surface_content_type = content_type_manager_handle_get,
};

/* --- all protocols --- */

bool
sf_weston_protocols_init(struct sf_weston *sfw)
{
	struct sf_weston_protocols *p = calloc(1, sizeof(*p));

	if (!p) {
		weston_log("stillframe: out of memory setting up the protocols\n");
		return false;
	}
	p->sfw = sfw;
	wl_list_init(&p->managers);
	wl_list_init(&p->controls);
	wl_list_init(&p->surface_objects);
	wl_list_init(&p->inhibitors);
	wl_list_init(&p->notifications);
	wl_list_init(&p->input_listener.link);
	sfw->protocols = p;

	if (!sf_weston_protocols_add_global(p, &p->manager,
					    &stillframe_manager_v1_interface,
					    &manager_impl) ||
	    !sf_weston_protocols_add_global(p, &p->content_type,
				&wp_content_type_manager_v1_interface,
				&content_type_manager_impl) ||
	    !sf_weston_idle_init(p) || !sf_weston_control_init(p)) {
		weston_log("stillframe: cannot create its Wayland globals\n");
		sf_weston_protocols_finish(sfw);
		return false;
	}
	return true;
}

void
sf_weston_protocols_finish(struct sf_weston *sfw)
{
	struct sf_weston_protocols *p = sfw->protocols;

	if (!p)
		return;

	sf_weston_control_finish(p);
	sf_weston_idle_finish(p);

	struct surface_object *obj, *tmp;

	wl_list_for_each_safe(obj, tmp, &p->surface_objects, link) {
		surface_object_detach(obj);
		wl_resource_set_user_data(obj->resource, NULL);
		wl_list_remove(&obj->link);
		free(obj);
	}
	sf_weston_protocols_untrack_all(&p->managers);

	sf_weston_protocols_remove_global(&p->manager);
	sf_weston_protocols_remove_global(&p->content_type);
	free(p);
	sfw->protocols = NULL;
}
