/* SPDX-License-Identifier: MIT */
#ifndef SF_WESTON_H
#define SF_WESTON_H

/*
 * Internal interface of the Weston plugin.  plugin.c owns struct
 * sf_weston and ties it to the compositor; output.c, surface.c and
 * input.c observe libweston and feed common/'s core; the protocol-*.c
 * files implement the Wayland globals on top of the functions below.
 * Nothing here makes a decision: common/ does.
 */

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include <libweston/libweston.h>

#include "sf-core.h"
#include "sf-config.h"
#include "sf-platform.h"
#include "sf-priority.h"
#include "sf-support.h"
#include "sf-tiles.h"

struct sf_weston_output;
struct sf_weston_surface;

/* Hints a client sent, double-buffered: the protocol code writes
 * `pending`, the plugin applies it on the surface's next commit. */
struct sf_weston_hints {
	uint32_t rate_num, rate_den;	/* 0/x: none */
	uint32_t min_mhz, max_mhz;	/* 0,0: none */
	enum sf_priority priority;	/* stillframe_surface_v1.priority */
	enum sf_content_type content;
};

struct sf_weston_pending_hints {
	struct sf_weston_hints hints;
	/* Which of the fields were set since the last commit; the others
	 * keep their current value. */
	bool rate_set, range_set, priority_set, content_set;
	/* With priority_set: the client withdrew its priority (its
	 * hint object went), so the app rules apply again. */
	bool priority_withdrawn;
};

/* An input event seen on any seat, as emitted on sf_weston.input_signal
 * (data: struct sf_weston_input_event *). */
struct sf_weston_input_event {
	enum sf_input_kind kind;
	sf_time_t time;
	struct weston_seat *seat;
};

struct sf_weston {
	struct weston_compositor *compositor;
	struct sf_core *core;
	struct sf_platform *platform;	/* clocks and backlight (sysfs) */
	struct weston_log_scope *scope;
	struct wl_event_source *timer;	/* sf_core_dispatch deadline */
	sf_time_t timer_deadline;

	struct wl_list outputs;		/* sf_weston_output.link */
	struct wl_list surfaces;	/* sf_weston_surface.link */
	struct wl_list seats;		/* internal, input.c */

	bool paused;			/* stillframectl pause */
	uint32_t inhibitors;		/* our idle inhibitors (surfaces') */
	bool inhibitors_applied;	/* every output inhibited in the core,
					 * for the compositor's other reasons */
	bool feedback_layout_logged;	/* output.c: said once */
	/* Inside an output's repaint hooks (output.c, decide), where
	 * libweston 13 and later must not see a mode switch on any output
	 * (a switch that resizes one reflows the others' views): a switch
	 * the core asks for then waits for the output's mode_idle. */
	bool in_repaint_hook;

	/* Emitted for every input event after the core saw it. */
	struct wl_signal input_signal;
	/* Emitted when a surface's tracking goes away
	 * (data: struct sf_weston_surface *). */
	struct wl_signal surface_destroy_signal;

	struct wl_listener compositor_destroy_listener;
	struct wl_listener create_surface_listener;
	struct wl_listener output_created_listener;
	struct wl_listener output_destroyed_listener;
	struct wl_listener seat_created_listener;
	struct wl_listener wake_listener;

	/* Names of the heads connected when the plugin started (char[32]
	 * each); an output on any other head is a hotplug.  A name is
	 * dropped once its first output is seen. */
	struct wl_array startup_heads;

	void *protocols;		/* protocol-*.c state */
};

struct sf_weston_surface {
	struct sf_weston *sfw;
	struct weston_surface *surface;
	struct sf_surface *core;
	struct wl_list link;		/* sf_weston.surfaces */

	struct sf_weston_pending_hints pending;
	struct sf_weston_hints current;
	/* The stillframe_surface_v1 resource, if any, for the throttled
	 * event; set and cleared by protocol-hints.c. */
	struct wl_resource *hint_resource;
	/* The wp_content_type_v1 resource, if any, so that a surface gets
	 * at most one; set and cleared by protocol-hints.c. */
	struct wl_resource *content_type_resource;
	sf_time_t last_throttle_sent;	/* interval last announced */

	/* Frame callbacks held back by throttling, and when to release. */
	struct wl_list held_callbacks;	/* wl_resource links */
	struct wl_event_source *release_timer;
	sf_time_t next_release;
	sf_time_t input_release;	/* due after input; 0: none */

	struct sf_weston_output *output;
	double visible_fraction;
	char label[64];			/* see update_label() in surface.c */

	/* Priority: the client's own (stillframe hint, stillframectl
	 * hint) and essential-apps / background-apps by app_id, resolved
	 * in common (sf-priority.h); `applied` is what the core was last
	 * told. */
	char app_id[64];
	struct sf_priority_source priority;
	enum sf_priority applied_priority;

	/* Idle inhibitors on this surface (protocol-idle.c, through
	 * sf_weston_inhibit): its client's count is what makes all of its
	 * surfaces count as video. */
	unsigned inhibitors;

	/* What the pixels under each 16x16 tile were, for shm buffers:
	 * damage is narrowed to what really changed (sf-tiles.h). */
	struct sf_tile_map tiles;

	struct wl_listener commit_listener;
	struct wl_listener destroy_listener;
};

/* --- plugin.c --- */

/* The plugin's state of a compositor, or NULL if not loaded. */
struct sf_weston *
sf_weston_from_compositor(struct weston_compositor *compositor);

/* Sets `listener` to call `notify` and adds it to `signal`. */
void
sf_weston_listen(struct wl_signal *signal, struct wl_listener *listener,
		 wl_notify_func_t notify);

/* The core's log hook: the "stillframe" log scope, errors also to the
 * main log. */
void
sf_weston_core_log(void *data, enum sf_log_level level, const char *message);

/* Follows the compositor's idle_inhibit count into the core. */
void
sf_weston_sync_idle_inhibit(struct sf_weston *sfw);

/* The compositor's presentation clock, as the core's time. */
sf_time_t
sf_weston_now(const struct sf_weston *sfw);

/* Re-arms the dispatch timer at the core's next deadline. */
void
sf_weston_schedule_dispatch(struct sf_weston *sfw);

/* stillframectl pause/resume: paused, the core restores the user's
 * settings and stops acting; resumed, it starts from ACTIVE. */
void
sf_weston_set_paused(struct sf_weston *sfw, bool paused);

/* Log scope printf, with a timestamp; cheap when nobody listens. */
void
sf_weston_log(struct sf_weston *sfw, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* --- surface.c --- */

/* The tracking of a weston_surface, created on demand; NULL only on
 * allocation failure. */
struct sf_weston_surface *
sf_weston_surface_get(struct sf_weston *sfw, struct weston_surface *surface);

/* Existing tracking or NULL. */
struct sf_weston_surface *
sf_weston_surface_find(struct sf_weston *sfw, struct weston_surface *surface);

struct sf_weston_surface *
sf_weston_surface_find_by_id(struct sf_weston *sfw, uint32_t id);

void
sf_weston_surface_init_all(struct sf_weston *sfw);

void
sf_weston_surface_finish_all(struct sf_weston *sfw);

/* Views were mapped, moved or restacked: Weston has assigned their
 * outputs by the time it repaints, which a surface's first commit comes
 * too early to see. */
void
sf_weston_surface_place_all(struct sf_weston *sfw);

/* After input: answers the frame callbacks held for surfaces that are no
 * longer throttled, so that a held clock or cursor redraws at once. */
void
sf_weston_surface_release_unthrottled(struct sf_weston *sfw);

/* A label for logs and status: app_id, else title, else "surface N". */
const char *
sf_weston_surface_label(const struct sf_weston_surface *sws);

/* --- output.c --- */

void
sf_weston_output_init_all(struct sf_weston *sfw);

void
sf_weston_output_finish_all(struct sf_weston *sfw);

struct sf_weston_output *
sf_weston_output_find(struct sf_weston *sfw, struct weston_output *output);

struct sf_output *
sf_weston_output_core(struct sf_weston_output *swo);

/* Pointer motion, a view change: the next repaint of every output must
 * paint.  `force` holds enum sf_repaint_force bits. */
void
sf_weston_output_force_all(struct sf_weston *sfw, uint32_t force);

/* Holds every output above DIM (or releases them). */
void
sf_weston_output_set_inhibited(struct sf_weston *sfw, bool inhibited);

/* A tracked surface committed inside `global` (compositor coordinates):
 * damage there may be held; damage anywhere else always paints. */
void
sf_weston_output_expect_damage(struct sf_weston *sfw,
			       pixman_region32_t *global);

extern const struct sf_core_interface sf_weston_core_interface;

/* --- input.c --- */

void
sf_weston_input_init(struct sf_weston *sfw);

void
sf_weston_input_finish(struct sf_weston *sfw);

/* --- protocol-*.c --- */

/* Creates the globals (stillframe_manager_v1, stillframe_control_v1,
 * wp_content_type_manager_v1, zwp_idle_inhibit_manager_v1,
 * ext_idle_notifier_v1).  Returns false and logs on failure. */
bool
sf_weston_protocols_init(struct sf_weston *sfw);

void
sf_weston_protocols_finish(struct sf_weston *sfw);

/* Tells the client of `sws` (if it bound stillframe_surface_v1) that
 * its frame callbacks are throttled to `interval` (0: not any more).
 * The caller sends only changes and keeps sws->last_throttle_sent; a
 * stillframe_surface_v1 created later is told that value. */
void
sf_weston_protocols_send_throttled(struct sf_weston_surface *sws,
				   sf_time_t interval);

/* --- idle inhibition (plugin.c) --- */

/* An idle inhibitor on `surface` became active or went away.  Counted
 * into the compositor's own idle_inhibit too, so that Weston's
 * idle-time (one for all outputs) is held back; stillframe's stages are
 * held back on the output that shows the surface. */
void
sf_weston_inhibit(struct sf_weston *sfw, struct weston_surface *surface);

void
sf_weston_uninhibit(struct sf_weston *sfw, struct weston_surface *surface);

/* Tells the core, for every surface of `surface`'s client, whether that
 * client holds an idle inhibitor (a player's video may be in another
 * surface than its inhibitor). */
void
sf_weston_sync_client_inhibiting(struct sf_weston *sfw,
				 struct weston_surface *surface);

/* Whether `client` holds an idle inhibitor on any tracked surface. */
bool
sf_weston_client_inhibiting(struct sf_weston *sfw, struct wl_client *client);

#endif /* SF_WESTON_H */
