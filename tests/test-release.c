/* SPDX-License-Identifier: MIT */
/*
 * When held frame callbacks go back after input, on the virtual clock:
 * the focused window's at once, the others' catching up a frame later.
 */
#include "sf-release.h"
#include "sf-test.h"

/* A held callback is a frame of the answer's delay: 3 ms of grace put
 * Firefox's keys after idle a frame later than on stock. */
SF_TEST(the_focused_window_gets_its_callbacks_at_once)
{
	sf_time_t input = SF_SEC(5);

	sf_assert_int_eq(SF_RELEASE_ANSWER_GRACE, 0);
	sf_assert_int_eq(input + sf_release_delay_after_input(true), input);
}

SF_TEST(others_catch_up_a_frame_later)
{
	sf_time_t input = SF_SEC(5);

	sf_assert_int_eq(SF_RELEASE_CATCH_UP, SF_MSEC(17));
	sf_assert_int_eq(input + sf_release_delay_after_input(false),
			 SF_SEC(5) + SF_MSEC(17));
	/* The answer's frame comes first. */
	sf_assert_int_lt(sf_release_delay_after_input(true),
			 sf_release_delay_after_input(false));
}

SF_TEST_MAIN()
