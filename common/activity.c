/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "sf-activity.h"

#define RING_MASK (SF_ACTIVITY_RING_SIZE - 1)
#define MOTION_MASK (SF_MOTION_RING_SIZE - 1)

_Static_assert((SF_ACTIVITY_RING_SIZE & RING_MASK) == 0,
	       "SF_ACTIVITY_RING_SIZE must be a power of two");
_Static_assert((SF_MOTION_RING_SIZE & MOTION_MASK) == 0,
	       "SF_MOTION_RING_SIZE must be a power of two");

void
sf_surface_activity_init(struct sf_surface_activity *activity,
			 int32_t width, int32_t height)
{
	memset(activity, 0, sizeof(*activity));
	sf_surface_activity_set_size(activity, width, height);
}

void
sf_surface_activity_set_size(struct sf_surface_activity *activity,
			     int32_t width, int32_t height)
{
	activity->width = width > 0 ? width : 0;
	activity->height = height > 0 ? height : 0;
}

static void
box_union(struct sf_box *dst, const struct sf_box *src)
{
	if (src->x1 < dst->x1)
		dst->x1 = src->x1;
	if (src->y1 < dst->y1)
		dst->y1 = src->y1;
	if (src->x2 > dst->x2)
		dst->x2 = src->x2;
	if (src->y2 > dst->y2)
		dst->y2 = src->y2;
}

static bool
box_equal(const struct sf_box *a, const struct sf_box *b)
{
	return a->x1 == b->x1 && a->y1 == b->y1 && a->x2 == b->x2 &&
	       a->y2 == b->y2;
}

/* The record a new commit must match to be "identical": the newest one,
 * if its content is known. */
static const struct sf_commit_record *
newest_hashed(const struct sf_surface_activity *activity)
{
	const struct sf_commit_record *r = sf_surface_activity_get(activity, 0);
	return r && r->has_hash ? r : NULL;
}

enum sf_commit_kind
sf_surface_activity_record(struct sf_surface_activity *activity,
			   const struct sf_commit_desc *commit)
{
	struct sf_commit_record rec = {
		.time = commit->time,
		.has_hash = commit->has_hash,
		.hash = commit->hash,
		.ink = commit->has_hash ? commit->ink : 0,
	};
	int64_t area = 0;
	bool any = false;

	for (uint32_t i = 0; commit->boxes && i < commit->n_boxes; i++) {
		const struct sf_box *b = &commit->boxes[i];
		int64_t a = sf_box_area(b);
		if (a == 0)
			continue;
		if (!any)
			rec.extents = *b;
		else
			box_union(&rec.extents, b);
		any = true;
		area += a;
	}
	/* Overlapping boxes can sum past the surface: clamp, the fraction
	 * only needs to be meaningful. */
	int64_t surface_area = (int64_t)activity->width * activity->height;
	if (surface_area > 0 && area > surface_area)
		area = surface_area;
	rec.area = area > UINT32_MAX ? UINT32_MAX : (uint32_t)area;

	activity->total_commits++;
	if (!any) {
		activity->empty_commits++;
		activity->last_empty = commit->time;
		return SF_COMMIT_EMPTY;
	}
	const struct sf_commit_record *prev = newest_hashed(activity);
	rec.kind = SF_COMMIT_CHANGED;
	if (commit->unchanged ||
	    (rec.has_hash && prev && prev->hash == rec.hash &&
	     box_equal(&prev->extents, &rec.extents)))
		rec.kind = SF_COMMIT_IDENTICAL;

	activity->ring[activity->head] = rec;
	activity->head = (activity->head + 1) & RING_MASK;
	if (activity->len < SF_ACTIVITY_RING_SIZE)
		activity->len++;
	return (enum sf_commit_kind)rec.kind;
}

uint32_t
sf_surface_activity_length(const struct sf_surface_activity *activity)
{
	return activity->len;
}

const struct sf_commit_record *
sf_surface_activity_get(const struct sf_surface_activity *activity,
			uint32_t age)
{
	if (age >= activity->len)
		return NULL;
	return &activity->ring[(activity->head - 1 - age) & RING_MASK];
}

double
sf_surface_activity_rate_hz(const struct sf_surface_activity *activity,
			    sf_time_t now, sf_time_t stale)
{
	if (activity->len < 2)
		return 0;
	const struct sf_commit_record *newest =
		sf_surface_activity_get(activity, 0);
	const struct sf_commit_record *oldest =
		sf_surface_activity_get(activity, activity->len - 1);
	if (now - newest->time > stale)
		return 0;
	sf_time_t span = newest->time - oldest->time;
	if (span <= 0)
		return 0;
	return (double)(activity->len - 1) * SF_NSEC_PER_SEC / (double)span;
}

double
sf_surface_activity_regularity(const struct sf_surface_activity *activity)
{
	if (activity->len < 3)
		return 0;
	uint32_t n = activity->len - 1;
	double sum = 0, sum_sq = 0;
	for (uint32_t age = 0; age < n; age++) {
		double d = (double)(sf_surface_activity_get(activity, age)->time -
				    sf_surface_activity_get(activity,
							    age + 1)->time);
		sum += d;
		sum_sq += d * d;
	}
	double mean = sum / n;
	if (mean <= 0)
		return 0;
	double var = sum_sq / n - mean * mean;
	double cv = var > 0 ? sqrt(var) / mean : 0;
	double r = 1.0 - cv;
	return r < 0 ? 0 : r > 1 ? 1 : r;
}

double
sf_surface_activity_area_fraction(const struct sf_surface_activity *activity)
{
	int64_t surface_area = (int64_t)activity->width * activity->height;
	if (activity->len == 0 || surface_area <= 0)
		return 0;
	double sum = 0;
	for (uint32_t age = 0; age < activity->len; age++)
		sum += sf_surface_activity_get(activity, age)->area;
	double f = sum / activity->len / (double)surface_area;
	return f > 1 ? 1 : f;
}

void
sf_seat_activity_init(struct sf_seat_activity *seat)
{
	memset(seat, 0, sizeof(*seat));
}

void
sf_seat_activity_record(struct sf_seat_activity *seat,
			enum sf_input_kind kind, sf_time_t time)
{
	if ((unsigned)kind >= SF_INPUT_KIND_COUNT)
		return;
	/* 0 means "never": a real event at t=0 still counts as input. */
	seat->last[kind] = time > 0 ? time : 1;
	if (kind != SF_INPUT_POINTER)
		return;
	seat->motion[seat->motion_head] = time;
	seat->motion_head = (seat->motion_head + 1) & MOTION_MASK;
	if (seat->motion_len < SF_MOTION_RING_SIZE)
		seat->motion_len++;
}

sf_time_t
sf_seat_activity_last_input(const struct sf_seat_activity *seat)
{
	sf_time_t last = 0;
	for (int k = 0; k < SF_INPUT_KIND_COUNT; k++)
		if (seat->last[k] > last)
			last = seat->last[k];
	return last;
}

sf_time_t
sf_seat_activity_last(const struct sf_seat_activity *seat,
		      enum sf_input_kind kind)
{
	if ((unsigned)kind >= SF_INPUT_KIND_COUNT)
		return 0;
	return seat->last[kind];
}

double
sf_seat_activity_motion_rate_hz(const struct sf_seat_activity *seat,
				sf_time_t now, sf_time_t window)
{
	if (window <= 0)
		return 0;
	uint32_t count = 0;
	for (uint32_t i = 0; i < seat->motion_len; i++) {
		sf_time_t t = seat->motion[(seat->motion_head - 1 - i) &
					   MOTION_MASK];
		if (now - t > window)
			break;
		count++;
	}
	/* With a full ring inside the window the true rate is higher: use
	 * the span of the remembered events instead of the window. */
	if (count == SF_MOTION_RING_SIZE) {
		sf_time_t newest = seat->motion[(seat->motion_head - 1) &
						MOTION_MASK];
		sf_time_t oldest = seat->motion[seat->motion_head &
						MOTION_MASK];
		if (newest > oldest)
			return (double)(count - 1) * SF_NSEC_PER_SEC /
			       (double)(newest - oldest);
	}
	return (double)count * SF_NSEC_PER_SEC / (double)window;
}
