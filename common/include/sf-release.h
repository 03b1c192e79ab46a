/* SPDX-License-Identifier: MIT */
#ifndef SF_RELEASE_H
#define SF_RELEASE_H

/*
 * When frame callbacks (Wayland) go back after input.  GTK's frame
 * clock, VTE, Firefox and Qt draw the answer to a key at the next frame
 * done event: a callback held past the key puts every answer that much
 * later.  Every surface of the focused window (its toplevel, the page
 * Firefox draws in a sub-surface, a popup) gets them at once
 * (SF_RELEASE_ANSWER_GRACE, none: in the event loop's next turn, after
 * the key itself went out); a client that gets its callback before the
 * answer is ready draws nothing new and draws the answer as soon as it
 * has it.  The other windows SF_RELEASE_CATCH_UP later, a frame at
 * 60 Hz, so that their catching up does not take the frame the answer
 * needs.
 */

#include <stdbool.h>

#include "sf-types.h"

#define SF_RELEASE_ANSWER_GRACE 0
#define SF_RELEASE_CATCH_UP SF_MSEC(17)

/* How long after input a surface's held frame callbacks go back:
 * `focused` for a surface of the focused window
 * (sf_surface_in_focused_window). */
sf_time_t
sf_release_delay_after_input(bool focused);

#endif /* SF_RELEASE_H */
