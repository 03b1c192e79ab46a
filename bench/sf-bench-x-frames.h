/* SPDX-License-Identifier: MIT */
/*
 * sf-bench-x --frames: what reaches the screen, tile by tile.  Damage
 * objects on the root and on each top-level say where the screen's
 * pixels may have changed; those tiles are read back with GetImage and
 * hashed, and the caller prints the ones whose hash changed.  sf-bench-x.c's header comment
 * describes the lines and why the root's Damage sees only the screen.
 */
#ifndef SF_BENCH_X_FRAMES_H
#define SF_BENCH_X_FRAMES_H

#include <stdbool.h>
#include <stdint.h>

#include <xcb/xcb.h>
#include <xcb/damage.h>

/* The tiles' edge in pixels; the screen's right and bottom tiles may be
 * smaller. */
#define SF_BENCH_FRAMES_TILE 32

/* Creates the root's Damage object and prints the screen line; every
 * tile is to be read. */
struct sf_bench_frames *
sf_bench_frames_create(xcb_connection_t *conn, xcb_window_t root);

/* The root's ConfigureNotify: a new size prints the screen line again,
 * and every tile is to be read again, under the new grid. */
void
sf_bench_frames_resize(struct sf_bench_frames *frames, uint16_t width,
		       uint16_t height);

/* Marks the tiles a notify's rectangle touches; false when the event is
 * not the root's Damage. */
bool
sf_bench_frames_handle_damage(struct sf_bench_frames *frames,
			      const xcb_damage_notify_event_t *ev);

/* A notify of a top-level's raw Damage object: the tiles under its
 * rectangle are read at the next flush too, and make a frame only if
 * one of them changed. */
void
sf_bench_frames_handle_toplevel_damage(struct sf_bench_frames *frames,
				       const xcb_damage_notify_event_t *ev);

/* The end of a batch of events: if a notify (or a resize) came since
 * the last read, reads the marked tiles back and prints the frame line.
 * True when it awaited replies (xcb may have queued events meanwhile).
 * Exits on a lost connection or an image format it does not hash. */
bool
sf_bench_frames_flush(struct sf_bench_frames *frames);

#endif
