/* SPDX-License-Identifier: MIT */
#ifndef SF_RELEASE_H
#define SF_RELEASE_H

/*
 * When frame callbacks (Wayland) or held clients go back after input.
 * Not at once: a client that gets its callback before it has read the
 * input draws the frame it had pending, and its answer then waits for
 * the frame after: one frame later than without stillframe.  The
 * focused surface, the one a key goes to, gets them
 * SF_RELEASE_ANSWER_GRACE later, when its answer is ready to draw (a
 * terminal's echo takes about a millisecond); the others
 * SF_RELEASE_CATCH_UP later, a frame at 60 Hz, so that their catching up
 * does not take the frame the answer needs.
 */

#include <stdbool.h>

#include "sf-types.h"

#define SF_RELEASE_ANSWER_GRACE SF_MSEC(3)
#define SF_RELEASE_CATCH_UP SF_MSEC(17)

/* How long after input a surface's held frame callbacks go back. */
sf_time_t
sf_release_delay_after_input(bool focused);

#endif /* SF_RELEASE_H */
