/* SPDX-License-Identifier: MIT */
#ifndef SF_TYPES_H
#define SF_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Time in the core is always a monotonic timestamp in nanoseconds that the
 * caller passes in.  The core never reads a clock itself, which is what
 * makes every decision replayable with a virtual clock.
 */
typedef int64_t sf_time_t;

#define SF_NSEC_PER_USEC 1000LL
#define SF_NSEC_PER_MSEC 1000000LL
#define SF_NSEC_PER_SEC 1000000000LL
#define SF_MSEC(ms) ((sf_time_t)(ms) * SF_NSEC_PER_MSEC)
#define SF_SEC(s) ((sf_time_t)(s) * SF_NSEC_PER_SEC)
/* "No deadline": later than any real timestamp. */
#define SF_TIME_NEVER INT64_MAX

#define SF_ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

/* A damage rectangle, pixman style: x2/y2 are exclusive. */
struct sf_box {
	int32_t x1, y1, x2, y2;
};

static inline int64_t
sf_box_area(const struct sf_box *b)
{
	if (b->x2 <= b->x1 || b->y2 <= b->y1)
		return 0;
	return (int64_t)(b->x2 - b->x1) * (b->y2 - b->y1);
}

/* Kinds of user input the core distinguishes. */
enum sf_input_kind {
	SF_INPUT_POINTER = 0,	/* pointer motion and axis */
	SF_INPUT_KEY,
	SF_INPUT_BUTTON,
	SF_INPUT_TOUCH,
	SF_INPUT_KIND_COUNT,
};

/* Staged idle states of one output, from awake to blanked. */
enum sf_idle_state {
	SF_STATE_ACTIVE = 0,
	SF_STATE_LOW_REFRESH,
	SF_STATE_DIM,
	SF_STATE_DPMS_STANDBY,
	SF_STATE_DPMS_OFF,
	SF_STATE_COUNT,
};

enum sf_reclock_level {
	SF_RECLOCK_NORMAL = 0,
	SF_RECLOCK_LOW,
};

/* Where an output's connector is, for the per-kind policy
 * (unneeded-outputs, external-*-timeout).  Part of the status format. */
enum sf_output_kind {
	SF_OUTPUT_KIND_INTERNAL = 0,	/* built-in panel: eDP, LVDS, DSI */
	SF_OUTPUT_KIND_EXTERNAL,	/* a connector for a monitor */
	SF_OUTPUT_KIND_VIRTUAL,		/* headless, dummy, virtual, other */
};

/* What the user asked for an output's power (stillframectl output). */
enum sf_output_power {
	SF_OUTPUT_POWER_AUTO = 0,	/* as unneeded-outputs says */
	SF_OUTPUT_POWER_ON,
	SF_OUTPUT_POWER_OFF,
};

/* What a surface shows, as far as the classifier can tell. */
enum sf_class {
	SF_CLASS_STATIC = 0,	/* no regular updates (includes sporadic ones) */
	SF_CLASS_INTERACTIVE,	/* updates that follow user input */
	SF_CLASS_ANIMATING,	/* frequent updates at `rate` */
	SF_CLASS_VIDEO,		/* large regular updates at a video cadence */
	SF_CLASS_BLINKING,	/* small, same place, two alternating states */
	SF_CLASS_TICKING,	/* small, regular 1 s or 0.5 s, changing content */
	SF_CLASS_COUNT,
};

/* Which of a blink's two states a commit shows: the caret (SHOWN), the
 * field without it (HIDDEN), or no telling (sf-classifier.h). */
enum sf_blink_phase {
	SF_BLINK_PHASE_UNKNOWN = 0,
	SF_BLINK_PHASE_SHOWN,
	SF_BLINK_PHASE_HIDDEN,
};

/* A client's own say about its surface (stillframe_surface_v1). */
enum sf_priority {
	SF_PRIORITY_NORMAL = 0,
	SF_PRIORITY_ESSENTIAL,		/* never held, never throttled */
	SF_PRIORITY_BACKGROUND,		/* may be throttled at any time */
};

/* Same values as wp_content_type_v1.type. */
enum sf_content_type {
	SF_CONTENT_NONE = 0,
	SF_CONTENT_PHOTO = 1,
	SF_CONTENT_VIDEO = 2,
	SF_CONTENT_GAME = 3,
};

/* An output's mode as the adapter describes it (sf_output_create). */
struct sf_mode {
	int32_t width, height;
	uint32_t refresh_mhz;
	/* Switching to this mode from the current one is believed not to
	 * blank the panel (same timings with another clock, VRR, seamless
	 * M/N). */
	bool seamless;
	bool preferred;			/* the panel's native mode */
};

/* What the classifier made of a surface's commits
 * (sf_surface_get_classification). */
struct sf_classification {
	enum sf_class cls;
	/* ANIMATING, VIDEO: measured rate, snapped to a known video rate
	 * when close, in mHz; 0 until SF_CLASSIFIER_RATE_MIN_INTERVALS
	 * intervals have measured it.  0 otherwise. */
	uint32_t rate_mhz;
	/* BLINKING, TICKING: full period (on+off for blinks). 0 otherwise. */
	sf_time_t period;
	/* BLINKING with hashed content whose states could be told apart
	 * (see sf_classifier_blink_phase): the hash of the state that
	 * shows the caret, of the one that hides it, and where both are
	 * drawn.  phases_known is false otherwise. */
	bool phases_known;
	uint64_t shown_hash, hidden_hash;
	struct sf_box blink_extents;
};

/* A commit as the adapter reports it. */
struct sf_commit_desc {
	sf_time_t time;
	const struct sf_box *boxes;	/* may be NULL when n_boxes == 0 */
	uint32_t n_boxes;
	bool has_hash;			/* hash of the damaged pixels is known */
	uint64_t hash;
	/* With the hash: the changed pixels unlike their surroundings
	 * (struct sf_tile_change), which tells a blink's states apart. */
	uint32_t ink;
	/* The adapter compared the pixels (sf-tiles.h) and none changed:
	 * recorded as identical whatever the hashes say. */
	bool unchanged;
};

/* What one commit was, as seen by the tracker. */
enum sf_commit_kind {
	SF_COMMIT_CHANGED = 0,	/* damage with new (or unknown) content */
	SF_COMMIT_EMPTY,	/* no damage at all */
	SF_COMMIT_IDENTICAL,	/* damage whose pixels are as before */
};

/* Things that always force a paint. */
enum sf_repaint_force {
	SF_FORCE_POINTER_MOVED = 1 << 0,
	SF_FORCE_GEOMETRY = 1 << 1,	/* a view moved, mapped or restacked */
	SF_FORCE_PLANE = 1 << 2,	/* plane assignment would change */
	SF_FORCE_OTHER = 1 << 3,	/* the adapter cannot tell: paint */
	/* Input forces nothing: the core lets the frame that answers it
	 * through (and everything held with it) as its deadline. */
};

enum sf_repaint_decision {
	SF_REPAINT_NOW = 0,
	SF_REPAINT_DEFER,
	SF_REPAINT_NOTHING,		/* nothing pending */
};

const char *
sf_idle_state_name(enum sf_idle_state state);

const char *
sf_class_name(enum sf_class cls);

const char *
sf_blink_phase_name(enum sf_blink_phase phase);

const char *
sf_input_kind_name(enum sf_input_kind kind);

const char *
sf_content_type_name(enum sf_content_type type);

const char *
sf_output_kind_name(enum sf_output_kind kind);

const char *
sf_output_power_name(enum sf_output_power power);

/* The kind of a connector from its name as KMS and RandR spell it
 * ("eDP-1", "HDMI-A-1", "DP-2", "VGA-1", "Virtual-1"); unknown names
 * are virtual.  An adapter that knows better (Weston's
 * connection_internal) says so itself. */
enum sf_output_kind
sf_output_kind_from_name(const char *name);

#endif /* SF_TYPES_H */
