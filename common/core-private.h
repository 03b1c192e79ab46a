/* SPDX-License-Identifier: MIT */
#ifndef SF_CORE_PRIVATE_H
#define SF_CORE_PRIVATE_H

/*
 * The core's objects, shared by the files that implement them: core.c
 * (the core: input, pause, dispatch, status, energy), core-output.c
 * (outputs: modes, the governor's actions, power, repaints),
 * core-surface.c (surfaces: commits, hints, votes, holds) and
 * core-trace.c (what a trace recording is fed).  Private to common/:
 * adapters and tools see only the opaque types of sf-core.h.
 */

#include "sf-core.h"
#include "sf-activity.h"
#include "sf-classifier.h"
#include "sf-config.h"
#include "sf-energy.h"
#include "sf-governor.h"
#include "sf-list.h"
#include "sf-recorder.h"
#include "sf-selector.h"
#include "sf-stats.h"
#include "sf-suppress.h"

struct sf_core {
	struct sf_config config;
	struct sf_core_interface iface;
	void *data;

	struct sf_classifier_params classifier;
	struct sf_governor_params governor;
	struct sf_selector_params selector;
	struct sf_suppress_params suppress;

	struct sf_seat_activity seat;
	struct sf_energy_account energy;
	sf_time_t start;
	enum sf_reclock_level reclock;

	struct sf_list outputs;		/* sf_output.link */
	struct sf_list surfaces;	/* sf_surface.link */
	size_t n_outputs, n_surfaces;
	uint32_t next_surface_id;
	/* Earliest time a surface's classification goes stale. */
	sf_time_t surface_expiry;
	/* Until then a client's keep-awake request holds every output lit
	 * (sf_core_notify_keep_awake); 0 when none does. */
	sf_time_t keep_awake_until;
	bool paused;
	bool enable_before_pause;
	uint32_t next_output_id;
	struct sf_trace_recorder *trace;	/* NULL unless recording */
};

struct sf_output {
	struct sf_core *core;
	struct sf_list link;
	char name[32];
	uint32_t id;			/* in traces */
	void *user_data;

	struct sf_mode *modes;
	size_t n_modes;
	size_t current;
	size_t original;		/* restored on pause and exit */
	/* set_mode failed: no more tries until the modes change
	 * (sf_output_set_modes). */
	bool switch_failed;

	struct sf_governor gov;
	struct sf_selector sel;
	sf_time_t selector_retry;
	struct sf_repaint_gate gate;
	bool flush_requested;		/* schedule_repaint sent for `gate` */
	struct sf_output_stats stats;

	unsigned inhibit_count;
	bool pointer_moving;
	/* A surface's vote changed: reselect at the next repaint or
	 * dispatch, once, however many surfaces changed in between. */
	bool votes_dirty;
	enum sf_dpms_level dpms;
	int32_t backlight;		/* percent we asked for */

	/* Output power: what the kind and unneeded-outputs say, what the
	 * user asked, and what was carried out. */
	enum sf_output_kind kind;
	bool unneeded;
	enum sf_output_power power_request;
	bool powered;
	bool power_dirty;		/* policy not applied yet */
	bool cap_dirty;			/* an inhibiting surface went */
	bool power_unsupported_logged;
	/* A wake request (power-on on request, hotplug) limits how deep
	 * the output may go until then. */
	sf_time_t wake_hold_until;

	struct sf_list surfaces;	/* sf_surface.output_link */
	struct sf_vote *votes;		/* scratch, n_votes_cap long */
	size_t n_votes_cap;
	size_t n_surfaces;
};

struct sf_surface {
	struct sf_core *core;
	struct sf_list link;
	struct sf_output *output;
	struct sf_list output_link;
	uint32_t id;
	char label[64];
	double visible_fraction;
	bool focused;

	enum sf_content_type content;
	enum sf_priority priority;
	/* The adapter holds what the surface's client sends (X: the
	 * client is ignored).  After a release the first commit is the
	 * backlog and the next ones are too few to show the cadence
	 * again: for RELEASE_COMMITS commits the class holds. */
	bool held_by_adapter;
	/* The adapter holds this surface's client (X) rather than its
	 * frame callbacks: set at its first hold. */
	bool client_holds;
	uint8_t release_commits;
	/* Commits of a steady busy surface since it was last classified. */
	uint8_t unclassified_commits;
	unsigned inhibit_count;		/* idle inhibitors on it, nested */
	bool client_inhibiting;		/* its client has one, anywhere */
	uint32_t hint_rate_mhz;
	uint32_t hint_min_mhz, hint_max_mhz;

	struct sf_surface_activity activity;
	struct sf_classification cls;
	/* Its measured rate as the refresh choice takes it. */
	struct sf_rate_settle rate;
	/* When it was first shown on an output; 0: not yet. */
	sf_time_t shown_at;
	struct sf_surface_stats stats;
	/* The pixels last read showed the same content as before. */
	bool pixels_last_unchanged;
	/* What may still be read (sf_surface_pixel_read_limit): the
	 * pixels left at pixel_budget_time, hash-max-area more per 60 Hz
	 * frame since. */
	int64_t pixel_budget;
	sf_time_t pixel_budget_time;
	/* Blinking: the state of its newest commit with damage, and the
	 * one its output last painted (sf_suppress_blink_may_hold). */
	enum sf_blink_phase newest_phase;
	enum sf_blink_phase shown_phase;
	/* The window it is drawn as part of (sf_surface_set_parent). */
	struct sf_surface *parent;
	/* Of a window: how many of its parts have the keyboard focus (a
	 * popup with a grab, a sub-surface an adapter named). */
	unsigned focused_parts;
	/* The recording knows it: its events may go into the trace. */
	bool traced;
	/* The output whose trace holds this surface's inhibitor as an
	 * output's (the format has no surface inhibitor); 0 for none. */
	uint32_t inhibit_traced_output;
};

/* A video is never throttled or held, focused or not, idle user or
 * not: the classifier's video, a surface its client says is video
 * (wp_content_type, the stillframe hint), and a surface with an idle
 * inhibitor on it, which is how players say they play (mpv, Firefox and
 * Chromium hold one while a video plays), on it or on another surface of
 * its client (a player's toplevel, the video in a subsurface).  The
 * classifier alone is not enough: a player whose frame callbacks come
 * late commits some frames empty and looks like an animation. */
/* The window a surface is drawn as part of: what the user sees as one
 * thing, focused or not, essential or not.  A toplevel is its own. */
static inline const struct sf_surface *
surface_window(const struct sf_surface *s)
{
	return s->parent ? s->parent : s;
}

/* The window has the keyboard focus: its toplevel, or any of its parts
 * (Firefox draws its page into a sub-surface, the key goes to the
 * toplevel; a menu's popup takes the key while the window is the
 * user's). */
static inline bool
surface_window_focused(const struct sf_surface *s)
{
	const struct sf_surface *w = surface_window(s);

	return s->focused || w->focused || w->focused_parts > 0;
}

/* A surface's own priority when its client or a rule gave it one, else
 * its window's: a sub-surface has no app_id for essential-apps to
 * match, and a client marks its toplevel. */
static inline enum sf_priority
surface_priority(const struct sf_surface *s)
{
	return s->priority != SF_PRIORITY_NORMAL ? s->priority :
						  surface_window(s)->priority;
}

/* The surface's content type, or its window's. */
static inline enum sf_content_type
surface_content(const struct sf_surface *s)
{
	return s->content != SF_CONTENT_NONE ? s->content :
					       surface_window(s)->content;
}

static inline bool
surface_is_video(const struct sf_surface *s)
{
	return s->cls.cls == SF_CLASS_VIDEO ||
	       surface_content(s) == SF_CONTENT_VIDEO ||
	       s->inhibit_count > 0 || s->client_inhibiting;
}

static inline double
ms_of(sf_time_t t)
{
	return (double)t / SF_NSEC_PER_MSEC;
}

static inline bool
user_idle(const struct sf_core *core, sf_time_t now)
{
	sf_time_t last = sf_seat_activity_last_input(&core->seat);

	if (last == 0)
		last = core->start;
	return now - last >= core->suppress.idle_delay;
}

static inline bool
tracing(const struct sf_core *core)
{
	return core->trace && !sf_trace_recorder_has_ended(core->trace);
}

/* --- core.c --- */

void
sf_core_log(struct sf_core *core, enum sf_log_level level, const char *fmt,
	    ...)
	__attribute__((format(printf, 3, 4)));

void
sf_core_update_energy(struct sf_core *core, sf_time_t now);

void
sf_core_update_reclock(struct sf_core *core, sf_time_t now);

/* --- core-trace.c --- */

void
sf_core_trace_output(struct sf_output *o, sf_time_t now);

uint32_t
sf_core_trace_mode_index(const struct sf_output *o, size_t mode);

void
sf_core_trace_output_event(struct sf_output *o, enum sf_trace_type type,
			   sf_time_t now, uint32_t arg);

void
sf_core_trace_surface_on(struct sf_surface *s, const struct sf_output *output,
			 double visible, sf_time_t now);

void
sf_core_trace_surface_inhibit(struct sf_surface *s, bool on, sf_time_t now);

void
sf_core_trace_surface_event(struct sf_surface *s, struct sf_trace_event *ev);

void
sf_core_trace_hint(struct sf_surface *s, enum sf_trace_hint_kind kind,
		   uint32_t a, uint32_t b, sf_time_t now);

void
sf_core_trace_commit(struct sf_surface *s, const struct sf_commit_desc *c);

/* --- core-output.c --- */

void
sf_output_set_backlight(struct sf_output *o, int32_t percent);

void
sf_output_set_dpms(struct sf_output *o, enum sf_dpms_level level);

bool
sf_output_switch_mode(struct sf_output *o, size_t mode, const char *reason,
		      sf_time_t now);

void
sf_output_reselect(struct sf_output *o, sf_time_t now);

void
sf_output_apply_transition(struct sf_output *o,
			   const struct sf_governor_transition *tr,
			   sf_time_t now);

void
sf_output_run_governor(struct sf_output *o, sf_time_t now);

void
sf_output_request_flush(struct sf_output *o);

/* When the output's held damage is due: the gate's deadline, or, while
 * a blinking surface's newest commit (held) hides its caret, up to
 * SF_HOLD_DEADLINE_CARET_GRACE later: the blink that shows it again
 * comes first and flushes everything held (its commit asks for a
 * repaint, which is then due), the deadline's only repaint.  Flushed
 * with the caret hidden, that next blink would have to paint at once, a
 * second repaint per deadline. */
sf_time_t
sf_output_flush_due(const struct sf_output *o);

void
sf_output_update_cap(struct sf_output *o, sf_time_t now);

void
sf_output_apply_power(struct sf_output *o, sf_time_t now);

bool
sf_output_grow_votes(struct sf_output *o);

/* --- core-surface.c --- */

bool
sf_core_is_busy_class(enum sf_class cls);

sf_time_t
sf_surface_new_until(const struct sf_surface *s);

void
sf_surface_vote(struct sf_surface *s, const struct sf_output *o,
		struct sf_vote *v, sf_time_t now);

void
sf_core_reclassify_expired(struct sf_core *core, sf_time_t now);

#endif /* SF_CORE_PRIVATE_H */
