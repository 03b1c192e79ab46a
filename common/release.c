/* SPDX-License-Identifier: MIT */
#include "sf-release.h"

sf_time_t
sf_release_delay_after_input(bool focused)
{
	return focused ? SF_RELEASE_ANSWER_GRACE : SF_RELEASE_CATCH_UP;
}
