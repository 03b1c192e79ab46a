/* SPDX-License-Identifier: MIT */
#include "sf-activity.h"
#include "sf-test.h"

static enum sf_commit_kind
commit_box(struct sf_surface_activity *a, sf_time_t t, struct sf_box box,
	   bool has_hash, uint64_t hash)
{
	struct sf_commit_desc c = {
		.time = t,
		.boxes = &box,
		.n_boxes = 1,
		.has_hash = has_hash,
		.hash = hash,
	};
	return sf_surface_activity_record(a, &c);
}

SF_TEST(records_area_extents_and_kind)
{
	struct sf_surface_activity a;
	sf_surface_activity_init(&a, 100, 100);
	struct sf_box boxes[] = {
		{ 0, 0, 10, 10 },
		{ 50, 50, 60, 70 },
		{ 5, 5, 5, 20 },	/* empty: ignored */
	};
	struct sf_commit_desc c = { .time = 7, .boxes = boxes, .n_boxes = 3 };

	sf_assert_int_eq(sf_surface_activity_record(&a, &c), SF_COMMIT_CHANGED);
	const struct sf_commit_record *r = sf_surface_activity_get(&a, 0);
	sf_assert(r != NULL);
	sf_assert_int_eq(r->area, 100 + 200);
	sf_assert_int_eq(r->extents.x1, 0);
	sf_assert_int_eq(r->extents.y1, 0);
	sf_assert_int_eq(r->extents.x2, 60);
	sf_assert_int_eq(r->extents.y2, 70);
	sf_assert_int_eq(r->time, 7);
	sf_assert_int_eq(sf_surface_activity_length(&a), 1);
	sf_assert(sf_surface_activity_get(&a, 1) == NULL);
}

SF_TEST(empty_commits)
{
	struct sf_surface_activity a;
	sf_surface_activity_init(&a, 100, 100);
	struct sf_commit_desc none = { .time = 1 };
	struct sf_box zero = { 3, 3, 3, 9 };
	struct sf_commit_desc degenerate = { .time = 2, .boxes = &zero,
					     .n_boxes = 1 };

	sf_assert_int_eq(sf_surface_activity_record(&a, &none), SF_COMMIT_EMPTY);
	sf_assert_int_eq(sf_surface_activity_record(&a, &degenerate),
			 SF_COMMIT_EMPTY);
	/* Counted, but not taking a slot from real updates. */
	sf_assert_int_eq(sf_surface_activity_length(&a), 0);
	sf_assert_int_eq(a.total_commits, 2);
	sf_assert_int_eq(a.empty_commits, 2);
	sf_assert_int_eq(a.last_empty, 2);
}

SF_TEST(identical_needs_same_hash_and_extents)
{
	struct sf_surface_activity a;
	sf_surface_activity_init(&a, 100, 100);
	struct sf_box b = { 10, 10, 20, 20 };
	struct sf_box moved = { 11, 10, 21, 20 };
	struct sf_commit_desc empty = { .time = 4 };

	sf_assert_int_eq(commit_box(&a, 1, b, true, 42), SF_COMMIT_CHANGED);
	sf_assert_int_eq(commit_box(&a, 2, b, true, 42), SF_COMMIT_IDENTICAL);
	sf_assert_int_eq(commit_box(&a, 3, b, true, 43), SF_COMMIT_CHANGED);
	/* An empty commit in between does not hide the previous content. */
	sf_assert_int_eq(sf_surface_activity_record(&a, &empty),
			 SF_COMMIT_EMPTY);
	sf_assert_int_eq(commit_box(&a, 5, b, true, 43), SF_COMMIT_IDENTICAL);
	sf_assert_int_eq(commit_box(&a, 6, moved, true, 43), SF_COMMIT_CHANGED);
	/* Unknown content in between: the next hash cannot be compared. */
	sf_assert_int_eq(commit_box(&a, 7, moved, false, 0), SF_COMMIT_CHANGED);
	sf_assert_int_eq(commit_box(&a, 8, moved, true, 43), SF_COMMIT_CHANGED);
	/* No hash is never identical. */
	sf_assert_int_eq(commit_box(&a, 9, moved, false, 43), SF_COMMIT_CHANGED);
}

SF_TEST(unchanged_pixels_are_identical_without_a_hash)
{
	struct sf_surface_activity a;
	sf_surface_activity_init(&a, 100, 100);
	struct sf_box b = { 0, 0, 100, 100 };
	struct sf_commit_desc same = {
		.time = 2, .boxes = &b, .n_boxes = 1, .unchanged = true,
	};

	sf_assert_int_eq(commit_box(&a, 1, b, false, 0), SF_COMMIT_CHANGED);
	sf_assert_int_eq(sf_surface_activity_record(&a, &same),
			 SF_COMMIT_IDENTICAL);
	const struct sf_commit_record *r = sf_surface_activity_get(&a, 0);
	sf_assert(r != NULL);
	sf_assert_int_eq(r->kind, SF_COMMIT_IDENTICAL);
	sf_assert_int_eq(r->area, 100 * 100);
}

SF_TEST(area_is_clamped_to_the_surface)
{
	struct sf_surface_activity a;
	sf_surface_activity_init(&a, 10, 10);
	struct sf_box boxes[] = { { 0, 0, 10, 10 }, { 0, 0, 10, 10 } };
	struct sf_commit_desc c = { .time = 1, .boxes = boxes, .n_boxes = 2 };

	sf_surface_activity_record(&a, &c);
	sf_assert_int_eq(sf_surface_activity_get(&a, 0)->area, 100);
	sf_assert_double_near(sf_surface_activity_area_fraction(&a), 1.0, 1e-12);
}

SF_TEST(ring_is_bounded_and_ordered)
{
	struct sf_surface_activity a;
	sf_surface_activity_init(&a, 100, 100);
	struct sf_box b = { 0, 0, 1, 1 };

	for (int i = 0; i < 3 * SF_ACTIVITY_RING_SIZE + 5; i++)
		commit_box(&a, SF_MSEC(i), b, false, 0);
	sf_assert_int_eq(sf_surface_activity_length(&a), SF_ACTIVITY_RING_SIZE);
	sf_assert_int_eq(a.total_commits, 3 * SF_ACTIVITY_RING_SIZE + 5);
	for (uint32_t age = 0; age < SF_ACTIVITY_RING_SIZE; age++)
		sf_assert_int_eq(sf_surface_activity_get(&a, age)->time,
				 SF_MSEC(3 * SF_ACTIVITY_RING_SIZE + 4 - age));
	sf_assert(sf_surface_activity_get(&a, SF_ACTIVITY_RING_SIZE) == NULL);
}

SF_TEST(rate_regularity_and_fraction)
{
	struct sf_surface_activity a;
	sf_surface_activity_init(&a, 100, 100);
	struct sf_box quarter = { 0, 0, 50, 50 };

	sf_assert_double_near(sf_surface_activity_rate_hz(&a, 0, SF_SEC(1)), 0,
			      0);
	sf_assert_double_near(sf_surface_activity_regularity(&a), 0, 0);
	for (int i = 0; i < 10; i++)
		commit_box(&a, SF_MSEC(40 * i), quarter, false, 0);
	sf_time_t now = SF_MSEC(360);
	sf_assert_double_near(sf_surface_activity_rate_hz(&a, now, SF_SEC(1)),
			      25.0, 1e-9);
	sf_assert_double_near(sf_surface_activity_regularity(&a), 1.0, 1e-9);
	sf_assert_double_near(sf_surface_activity_area_fraction(&a), 0.25,
			      1e-12);
	/* Stale: no current rate. */
	sf_assert_double_near(sf_surface_activity_rate_hz(&a, now + SF_SEC(2),
							  SF_SEC(1)),
			      0, 0);

	/* Irregular intervals lower the regularity. */
	struct sf_surface_activity b;
	sf_surface_activity_init(&b, 100, 100);
	static const int ms[] = { 0, 10, 200, 210, 900, 905, 2000 };
	for (size_t i = 0; i < SF_ARRAY_LENGTH(ms); i++)
		commit_box(&b, SF_MSEC(ms[i]), quarter, false, 0);
	sf_assert(sf_surface_activity_regularity(&b) < 0.5);
}

SF_TEST(seat_last_input_per_kind)
{
	struct sf_seat_activity s;
	sf_seat_activity_init(&s);

	sf_assert_int_eq(sf_seat_activity_last_input(&s), 0);
	sf_seat_activity_record(&s, SF_INPUT_KEY, SF_MSEC(5));
	sf_seat_activity_record(&s, SF_INPUT_BUTTON, SF_MSEC(9));
	sf_seat_activity_record(&s, SF_INPUT_TOUCH, SF_MSEC(7));
	sf_assert_int_eq(sf_seat_activity_last(&s, SF_INPUT_KEY), SF_MSEC(5));
	sf_assert_int_eq(sf_seat_activity_last(&s, SF_INPUT_BUTTON), SF_MSEC(9));
	sf_assert_int_eq(sf_seat_activity_last(&s, SF_INPUT_TOUCH), SF_MSEC(7));
	sf_assert_int_eq(sf_seat_activity_last(&s, SF_INPUT_POINTER), 0);
	sf_assert_int_eq(sf_seat_activity_last_input(&s), SF_MSEC(9));
	/* Input at time zero still counts as input. */
	sf_seat_activity_record(&s, SF_INPUT_POINTER, 0);
	sf_assert_int_ne(sf_seat_activity_last(&s, SF_INPUT_POINTER), 0);
	/* Out-of-range kinds are ignored, not written out of bounds. */
	sf_seat_activity_record(&s, SF_INPUT_KIND_COUNT, SF_SEC(100));
	sf_assert_int_eq(sf_seat_activity_last_input(&s), SF_MSEC(9));
	sf_assert_int_eq(sf_seat_activity_last(&s, SF_INPUT_KIND_COUNT), 0);
}

SF_TEST(pointer_motion_rate)
{
	struct sf_seat_activity s;
	sf_seat_activity_init(&s);

	/* 10 events 100 ms apart: 10 in the last second. */
	for (int i = 1; i <= 10; i++)
		sf_seat_activity_record(&s, SF_INPUT_POINTER, SF_MSEC(100 * i));
	sf_assert_double_near(sf_seat_activity_motion_rate_hz(&s, SF_MSEC(1050),
							      SF_SEC(1)),
			      10.0, 1e-9);
	/* Half of them within the last half second. */
	sf_assert_double_near(sf_seat_activity_motion_rate_hz(&s, SF_MSEC(1000),
							      SF_MSEC(450)),
			      5 / 0.45, 1e-6);
	/* Long after: nothing. */
	sf_assert_double_near(sf_seat_activity_motion_rate_hz(&s, SF_SEC(10),
							      SF_SEC(1)),
			      0, 0);
	/* Key presses are not motion. */
	sf_seat_activity_record(&s, SF_INPUT_KEY, SF_SEC(10));
	sf_assert_double_near(sf_seat_activity_motion_rate_hz(&s, SF_SEC(10),
							      SF_SEC(1)),
			      0, 0);

	/* A 1 kHz mouse overflows the ring; the rate is still right. */
	struct sf_seat_activity fast;
	sf_seat_activity_init(&fast);
	for (int i = 1; i <= 1000; i++)
		sf_seat_activity_record(&fast, SF_INPUT_POINTER, SF_MSEC(i));
	sf_assert_double_near(sf_seat_activity_motion_rate_hz(&fast,
							      SF_MSEC(1000),
							      SF_SEC(1)),
			      1000.0, 1e-6);
}

SF_TEST_MAIN()
