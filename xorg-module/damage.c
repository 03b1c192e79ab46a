/* SPDX-License-Identifier: MIT */
/*
 * A window's damage (drawing into it and its children) is gathered
 * between two block handler runs and reported to the core as one
 * commit, narrowed to the 16x16 tiles whose pixels changed.
 */
#include <stdlib.h>
#include <string.h>

#include <xorg-server.h>

#include "sf-damage-gather.h"
#include "sf-xorg.h"

#define MAX_BOXES 16
/* Windows larger than this keep no pixel copy (16 MB at 32 bpp). */
#define MAX_COPY_PIXELS (4096 * 1024)

/* Grows a one-box region by a box that extends it to a box again: a
 * frame drawn in bands (a video's PutImage in strips, a toolkit's rows)
 * then never reaches the general union, which cost more than the rest of
 * the module's work per frame. */
static bool
grow_box(RegionPtr dst, RegionPtr add)
{
	const BoxRec *a = &dst->extents, *b = &add->extents;

	if (RegionNumRects(dst) != 1 || RegionNumRects(add) != 1)
		return false;
	bool same_columns = a->x1 == b->x1 && a->x2 == b->x2 &&
			    b->y1 <= a->y2 && a->y1 <= b->y2;
	bool same_rows = a->y1 == b->y1 && a->y2 == b->y2 &&
			 b->x1 <= a->x2 && a->x1 <= b->x2;
	bool inside = a->x1 <= b->x1 && a->y1 <= b->y1 &&
		      b->x2 <= a->x2 && b->y2 <= a->y2;
	if (!same_columns && !same_rows && !inside)
		return false;
	dst->extents = (BoxRec){
		.x1 = min(a->x1, b->x1), .y1 = min(a->y1, b->y1),
		.x2 = max(a->x2, b->x2), .y2 = max(a->y2, b->y2),
	};
	return true;
}

/* When the pending damage may be committed (sf-damage-gather.h). */
static sf_time_t
commit_ready(const struct sf_xorg_window *xw)
{
	return sf_damage_gather_ready_at(xw->pending_since, xw->last_damage);
}

/* When the server is to wake up to commit it, at the latest. */
static sf_time_t
commit_due(const struct sf_xorg_window *xw)
{
	return sf_damage_gather_due_at(xw->pending_since, xw->last_damage);
}

/* Several times a frame under a video, in the middle of the server's
 * drawing: the damage is gathered apart from what is pending, and its
 * time noted by the next block handler (sf_xorg_damage_stamp),
 * which reads the clock anyway, within the same dispatch of requests. */
static void
window_damage_report(DamagePtr damage, RegionPtr region, void *closure)
{
	struct sf_xorg_window *xw = closure;
	struct sf_xorg *sx = xw->sx;
	(void)damage;

	/* Who draws, and with what, is only known now, inside the
	 * request.  Not learnt from what draws much: a blink or a tick
	 * is small. */
	sf_xorg_drawer_note_request(xw, sf_hold_class_learns(
		sf_surface_get_classification(xw->core)->cls));
	if (!grow_box(&xw->fresh, region))
		RegionUnion(&xw->fresh, &xw->fresh, region);
	if (xorg_list_is_empty(&xw->fresh_link))
		xorg_list_append(&xw->fresh_link, &sx->fresh_windows);
}

/* Moves the fresh damage to the pending, noting its time. */
static void
take_fresh_damage(struct sf_xorg_window *xw, sf_time_t now)
{
	xorg_list_del(&xw->fresh_link);
	xorg_list_init(&xw->fresh_link);
	if (!RegionNotEmpty(&xw->fresh))
		return;
	if (!RegionNotEmpty(&xw->pending)) {
		RegionRec empty = xw->pending;

		xw->pending = xw->fresh;
		xw->fresh = empty;
		xw->pending_since = now;
	} else if (!grow_box(&xw->pending, &xw->fresh)) {
		RegionUnion(&xw->pending, &xw->pending, &xw->fresh);
	}
	RegionEmpty(&xw->fresh);
	xw->last_damage = now;
}

/* Counts the window's pending damage in the earliest time one may be
 * committed, and the earliest the server must wake up for one. */
static void
note_damage_times(struct sf_xorg *sx, const struct sf_xorg_window *xw)
{
	sf_time_t ready = commit_ready(xw), due = commit_due(xw);

	if (!sx->damage_pending || ready < sx->damage_ready)
		sx->damage_ready = ready;
	if (!sx->damage_pending || due < sx->damage_due)
		sx->damage_due = due;
	sx->damage_pending = true;
}

/* The same times over all windows. */
static void
update_damage_times(struct sf_xorg *sx)
{
	struct sf_xorg_window *xw;

	sx->damage_pending = false;
	xorg_list_for_each_entry(xw, &sx->windows, link) {
		if (!RegionNotEmpty(&xw->pending))
			continue;
		note_damage_times(sx, xw);
	}
}

void
sf_xorg_damage_stamp(struct sf_xorg *sx, sf_time_t now)
{
	struct sf_xorg_window *xw, *next;
	bool moved_later = false;

	xorg_list_for_each_entry_safe(xw, next, &sx->fresh_windows,
				      fresh_link) {
		if (RegionNotEmpty(&xw->pending)) {
			if (commit_ready(xw) <= now) {
				/* A frame before this one has settled: the
				 * cycle, which runs next, reports it, then
				 * takes this one. */
				sf_xorg_want_cycle(sx);
				continue;
			}
			moved_later = true;
		}
		take_fresh_damage(xw, now);
		note_damage_times(sx, xw);
	}
	/* A window's times only move later with more damage: the minimum
	 * may have been its own, and waking up for it would be early. */
	if (moved_later)
		update_damage_times(sx);
}

static void
window_damage_destroy(DamagePtr damage, void *closure)
{
	struct sf_xorg_window *xw = closure;
	(void)damage;

	xw->damage = NULL;
}

bool
sf_xorg_damage_watch(struct sf_xorg_window *xw)
{
	WindowPtr win = xw->window;

	xw->damage = DamageCreate(window_damage_report, window_damage_destroy,
				  DamageReportRawRegion, FALSE,
				  win->drawable.pScreen, xw);
	if (!xw->damage)
		return false;
	DamageRegister(&win->drawable, xw->damage);
	return true;
}

void
sf_xorg_damage_unwatch(struct sf_xorg_window *xw)
{
	if (xw->damage) {
		DamagePtr damage = xw->damage;
		DamageUnregister(damage);
		DamageDestroy(damage);
		xw->damage = NULL;
	}
}

/* --- commits --- */

/* Copies the pixels under the tiles the damage touches into the window's
 * copy, for the tile map; false when they cannot be read. */
static bool
read_pixels(struct sf_xorg_window *xw, const BoxRec *ext,
	    struct sf_pixels *px)
{
	WindowPtr win = xw->window;
	ScreenPtr screen = win->drawable.pScreen;
	int w = win->drawable.width, h = win->drawable.height;

	if (win->drawable.bitsPerPixel != 32 || (size_t)w * h > MAX_COPY_PIXELS)
		return false;
	size_t size = (size_t)w * h * 4;
	if (size != xw->pixels_size) {
		uint8_t *p = realloc(xw->pixels, size);
		if (!p)
			return false;
		xw->pixels = p;
		xw->pixels_size = size;
		sf_tile_map_reset(&xw->tiles);
	}
	int x0 = ext->x1 / SF_TILE_SIZE * SF_TILE_SIZE;
	int y0 = ext->y1 / SF_TILE_SIZE * SF_TILE_SIZE;
	int x1 = min(w, (ext->x2 + SF_TILE_SIZE - 1) / SF_TILE_SIZE *
				SF_TILE_SIZE);
	int y1 = min(h, (ext->y2 + SF_TILE_SIZE - 1) / SF_TILE_SIZE *
				SF_TILE_SIZE);
	/* Row by row: GetImage pads rows its own way, the map wants the
	 * window's stride. */
	for (int y = y0; y < y1; y++)
		screen->GetImage(&win->drawable, x0, y, x1 - x0, 1, ZPixmap,
				 ~0UL,
				 (char *)xw->pixels + ((size_t)y * w + x0) * 4);
	*px = (struct sf_pixels){
		.data = xw->pixels,
		.width = w,
		.height = h,
		.stride = w * 4,
		.bytes_per_pixel = 4,
	};
	return true;
}

static void
commit_window(struct sf_xorg_window *xw, sf_time_t now)
{
	WindowPtr win = xw->window;
	int n = RegionNumRects(&xw->pending);
	BoxPtr rects = RegionRects(&xw->pending);
	struct sf_box boxes[MAX_BOXES], changed[MAX_BOXES];
	uint32_t n_boxes = 0;
	/* The damage layer reports in the window's coordinates (its
	 * border negative). */
	int w = win->drawable.width, h = win->drawable.height;
	BoxRec ext = { w, h, 0, 0 };

	for (int i = 0; i < n; i++) {
		BoxRec b = {
			.x1 = max(rects[i].x1, 0),
			.y1 = max(rects[i].y1, 0),
			.x2 = min(rects[i].x2, w),
			.y2 = min(rects[i].y2, h),
		};
		if (b.x2 <= b.x1 || b.y2 <= b.y1)
			continue;
		ext.x1 = min(ext.x1, b.x1);
		ext.y1 = min(ext.y1, b.y1);
		ext.x2 = max(ext.x2, b.x2);
		ext.y2 = max(ext.y2, b.y2);
		if (n_boxes < MAX_BOXES)
			boxes[n_boxes] = (struct sf_box){ b.x1, b.y1, b.x2,
							  b.y2 };
		n_boxes++;
	}
	RegionEmpty(&xw->pending);
	if (n_boxes > MAX_BOXES) {
		boxes[0] = (struct sf_box){ ext.x1, ext.y1, ext.x2, ext.y2 };
		n_boxes = 1;
	}

	/* Hints are read when they change (property_changed); the window
	 * may have moved, which X reports to nobody but its client. */
	sf_xorg_window_check_placement(xw, now);

	struct sf_commit_desc commit = {
		.time = now,
		.boxes = boxes,
		.n_boxes = n_boxes,
	};
	struct sf_pixels px;
	int64_t aligned = (int64_t)(ext.x2 - ext.x1 + 2 * SF_TILE_SIZE) *
			  (ext.y2 - ext.y1 + 2 * SF_TILE_SIZE);
	if (n_boxes && aligned <= sf_surface_pixel_read_limit(xw->core, now) &&
	    sf_surface_should_read_pixels(xw->core) &&
	    read_pixels(xw, &ext, &px)) {
		struct sf_tile_change change = {
			.boxes = changed,
			.max_boxes = MAX_BOXES,
		};
		if (sf_tile_map_refine(&xw->tiles, &px, boxes, n_boxes,
				       &change)) {
			if (change.n_boxes == 0) {
				commit.unchanged = true;
			} else {
				commit.boxes = changed;
				commit.n_boxes = change.n_boxes;
				commit.has_hash = true;
				commit.hash = change.hash;
				commit.ink = change.ink;
			}
		}
	} else if (n_boxes) {
		/* Unknown content: what the map remembers may be stale. */
		sf_tile_map_reset(&xw->tiles);
	}

	uint64_t held_before = sf_surface_get_stats(xw->core)->held;
	sf_surface_commit(xw->core, &commit);
	xw->held = sf_surface_get_stats(xw->core)->held > held_before;
	/* What drew a held frame is learnt as the client's blinks or ticks
	 * only if it drew little (sf_hold_frame_learnable). */
	enum sf_class cls = sf_surface_get_classification(xw->core)->cls;
	int64_t area = n_boxes ? (int64_t)(ext.x2 - ext.x1) * (ext.y2 - ext.y1) :
				 0;
	sf_xorg_drawer_end_frame(xw, xw->held &&
				 sf_hold_frame_learnable(cls, area));
	xw->damage_events++;
	if (xw->held)
		xw->held_frames++;
	if (xw->output) {
		xw->output->damage_events++;
		if (xw->held)
			xw->output->held++;
	}
}

void
sf_xorg_damage_commit_settled(struct sf_xorg *sx, WindowPtr focus,
			      sf_time_t now)
{
	struct sf_xorg_window *xw;

	xorg_list_for_each_entry(xw, &sx->windows, link) {
		xw->committed_now = false;
		xw->held = false;
		sf_surface_set_focused(xw->core, xw->window == focus, now);
		if (RegionNotEmpty(&xw->pending) && commit_ready(xw) <= now) {
			commit_window(xw, now);
			xw->committed_now = true;
			if (xw->output)
				xw->output->committed_now = true;
		}
		/* What came in with this dispatch, kept apart from the
		 * frame just reported. */
		take_fresh_damage(xw, now);
	}
	update_damage_times(sx);
}
