/* SPDX-License-Identifier: MIT */
/*
 * When held frame callbacks go back after input, on the virtual clock:
 * the focused surface's answer grace and the others' catching up a
 * frame later (the values the Weston plugin hard-coded before).
 */
#include "sf-release.h"
#include "sf-test.h"

SF_TEST(focused_surface_gets_its_callbacks_after_the_answer_grace)
{
	sf_time_t input = SF_SEC(5);

	sf_assert_int_eq(SF_RELEASE_ANSWER_GRACE, SF_MSEC(3));
	sf_assert_int_eq(input + sf_release_delay_after_input(true),
			 SF_SEC(5) + SF_MSEC(3));
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
