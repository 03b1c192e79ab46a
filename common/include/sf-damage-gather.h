/* SPDX-License-Identifier: MIT */
#ifndef SF_DAMAGE_GATHER_H
#define SF_DAMAGE_GATHER_H

/*
 * When damage that a display server reports piecemeal makes one frame.
 * An X client's drawing of one frame may run over several dispatch
 * cycles when other clients are busy; its damage is reported to the core
 * once the window has been quiet for half a frame at 60 Hz
 * (SF_DAMAGE_GATHER_SETTLE), or has waited SF_DAMAGE_GATHER_MAX in all.
 * Not a whole frame: a 60 fps client's frames come 16.7 ms apart, less
 * the time its own requests take, so a 16 ms settle merged frames at
 * random; a 60 fps video then read as 25 to 53 Hz, and its output went
 * back and forth between two refresh rates, each mode set sending every
 * RandR client (a video player) to query all the outputs again.
 *
 * The server is not woken just to report settled damage before
 * SF_DAMAGE_GATHER_WAKE: an animation's next frame wakes it first, and
 * the frame before is reported then (the damage that came in with the
 * new one is kept apart).  Waking at the settle time instead cost a
 * 60 fps video one more sleep and wake-up of the server per frame.
 */

#include "sf-types.h"

#define SF_DAMAGE_GATHER_SETTLE SF_MSEC(8)
#define SF_DAMAGE_GATHER_MAX SF_MSEC(100)
#define SF_DAMAGE_GATHER_WAKE SF_MSEC(50)

/* When damage gathered since `first`, the last of it at `last`, may be
 * reported as a frame. */
sf_time_t
sf_damage_gather_ready_at(sf_time_t first, sf_time_t last);

/* When the server is to wake up to report it, at the latest. */
sf_time_t
sf_damage_gather_due_at(sf_time_t first, sf_time_t last);

#endif /* SF_DAMAGE_GATHER_H */
