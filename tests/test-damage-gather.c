/* SPDX-License-Identifier: MIT */
/*
 * When piecemeal damage makes one frame, on the virtual clock: half a
 * frame at 60 Hz of quiet, never more than 100 ms in all, and the
 * server's wake-up for it later than that (the values the Xorg module
 * hard-coded before).
 */
#include "sf-damage-gather.h"
#include "sf-test.h"

SF_TEST(a_frame_is_ready_after_half_a_frame_of_quiet)
{
	sf_time_t first = SF_SEC(1);

	/* Drawn in three bursts 5 ms apart: still one frame. */
	sf_assert_int_eq(sf_damage_gather_ready_at(first, first + SF_MSEC(10)),
			 first + SF_MSEC(18));
	/* A 60 fps client's next frame, 16.7 ms later, is a frame of its
	 * own: the first one was ready before it came. */
	sf_assert_int_lt(sf_damage_gather_ready_at(first, first),
			 first + 16667 * SF_NSEC_PER_USEC);
}

SF_TEST(damage_that_never_settles_is_reported_after_100_ms)
{
	sf_time_t first = SF_SEC(1);

	sf_assert_int_eq(sf_damage_gather_ready_at(first, first + SF_MSEC(99)),
			 first + SF_MSEC(100));
	sf_assert_int_eq(sf_damage_gather_due_at(first, first + SF_MSEC(80)),
			 first + SF_MSEC(100));
}

SF_TEST(the_server_is_woken_for_settled_damage_later_than_it_is_ready)
{
	sf_time_t first = SF_SEC(1);

	sf_assert_int_eq(sf_damage_gather_due_at(first, first),
			 first + SF_MSEC(50));
	sf_assert_int_lt(sf_damage_gather_ready_at(first, first),
			 sf_damage_gather_due_at(first, first));
}

SF_TEST_MAIN()
