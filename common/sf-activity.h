/* SPDX-License-Identifier: MIT */
#ifndef SF_ACTIVITY_H
#define SF_ACTIVITY_H

#include "sf-types.h"

/*
 * Activity tracking: what each surface committed recently, and when each
 * seat last saw input.  Everything here is caller-owned memory of a fixed
 * size (init/finish, no allocation) and every record is O(1).
 */

/* Commits with damage remembered per surface; a power of two. */
#define SF_ACTIVITY_RING_SIZE 16
/* Pointer-motion timestamps remembered per seat; a power of two. */
#define SF_MOTION_RING_SIZE 32

/* One remembered commit. */
struct sf_commit_record {
	sf_time_t time;
	struct sf_box extents;		/* bounding box of the damage */
	uint32_t area;			/* damaged pixels, boxes summed, clamped */
	uint8_t kind;			/* enum sf_commit_kind */
	bool has_hash;
	uint64_t hash;
	uint32_t ink;			/* with the hash: sf_commit_desc */
};

struct sf_surface_activity {
	int32_t width, height;
	struct sf_commit_record ring[SF_ACTIVITY_RING_SIZE];
	uint32_t head;			/* index of the next slot to write */
	uint32_t len;			/* valid records, <= ring size */
	uint64_t total_commits;
	/* Commits without damage are counted, not remembered: a client
	 * that commits empty frames at 60 Hz must not push its real
	 * updates out of the ring. */
	uint64_t empty_commits;
	sf_time_t last_empty;
};

void
sf_surface_activity_init(struct sf_surface_activity *activity,
			 int32_t width, int32_t height);

void
sf_surface_activity_set_size(struct sf_surface_activity *activity,
			     int32_t width, int32_t height);

/* Records a commit and says what kind it was.  Identical means: the
 * newest earlier commit with damage carried a hash, and this one has the
 * same extents and the same hash. */
enum sf_commit_kind
sf_surface_activity_record(struct sf_surface_activity *activity,
			   const struct sf_commit_desc *commit);

/* Number of commits remembered. */
uint32_t
sf_surface_activity_length(const struct sf_surface_activity *activity);

/* The commit `age` steps back (0 is the newest), or NULL. */
const struct sf_commit_record *
sf_surface_activity_get(const struct sf_surface_activity *activity,
			uint32_t age);

/* Commits per second over the remembered span, 0 when fewer than two
 * commits or when the newest is older than `stale` before now. */
double
sf_surface_activity_rate_hz(const struct sf_surface_activity *activity,
			    sf_time_t now, sf_time_t stale);

/* 1 - coefficient of variation of the intervals, clamped to [0, 1]:
 * 1 is perfectly regular.  0 with fewer than three commits. */
double
sf_surface_activity_regularity(const struct sf_surface_activity *activity);

/* Mean damaged area over the remembered commits, as a fraction of the
 * surface, in [0, 1]. */
double
sf_surface_activity_area_fraction(const struct sf_surface_activity *activity);

struct sf_seat_activity {
	sf_time_t last[SF_INPUT_KIND_COUNT];	/* 0: never */
	sf_time_t motion[SF_MOTION_RING_SIZE];
	uint32_t motion_head;
	uint32_t motion_len;
};

void
sf_seat_activity_init(struct sf_seat_activity *seat);

void
sf_seat_activity_record(struct sf_seat_activity *seat,
			enum sf_input_kind kind, sf_time_t time);

/* Last input of any kind, 0 if none. */
sf_time_t
sf_seat_activity_last_input(const struct sf_seat_activity *seat);

sf_time_t
sf_seat_activity_last(const struct sf_seat_activity *seat,
		      enum sf_input_kind kind);

/* Pointer-motion events per second within the last `window` before now. */
double
sf_seat_activity_motion_rate_hz(const struct sf_seat_activity *seat,
				sf_time_t now, sf_time_t window);

#endif /* SF_ACTIVITY_H */
