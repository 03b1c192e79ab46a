/* SPDX-License-Identifier: MIT */
#ifndef SF_TILES_H
#define SF_TILES_H

#include <stddef.h>

#include "sf-types.h"

/*
 * What really changed under a commit's damage.  Toolkits often damage a
 * whole surface to redraw a few pixels (a panel redrawing its clock, a
 * terminal its cursor), which hides a tick or a blink behind "large
 * damage".  A tile map remembers a hash of every 16x16 tile of a
 * surface's content; refining a commit hashes the tiles its damage
 * touches and keeps only those whose hash changed.
 *
 * The adapter owns the pixels (shm buffer, X drawable) and passes them
 * in; nothing here knows where they come from.  The map allocates once
 * per surface size (create on first use, resize when the surface does).
 */

#define SF_TILE_SIZE 16

/* Pixels as the adapter mapped them: bytes_per_pixel is 2 or 4. */
struct sf_pixels {
	const uint8_t *data;
	int32_t width, height;
	int32_t stride;
	uint32_t bytes_per_pixel;
};

struct sf_tile_map {
	int32_t width, height;	/* the surface size the tiles cover */
	uint32_t cols, rows;
	uint64_t *hashes;	/* cols * rows; 0 means never seen */
	bool any_seen;		/* some hash is not 0: reset has work */
};

void
sf_tile_map_init(struct sf_tile_map *map);

void
sf_tile_map_finish(struct sf_tile_map *map);

/* Forget every tile: the next refinement reports all damage as changed. */
void
sf_tile_map_reset(struct sf_tile_map *map);

/* The part of the damage whose pixels changed. */
struct sf_tile_change {
	/* Tile-aligned boxes, clipped to the damage's extents; when more
	 * would be needed than fit, one box bounding them all. */
	struct sf_box *boxes;
	uint32_t max_boxes;	/* capacity of boxes, at least 1 */
	uint32_t n_boxes;	/* out: 0 when nothing changed */
	uint64_t hash;		/* out: of the changed tiles' content */
	/* out: the changed tiles' pixels unlike their tile's most common
	 * colour, which tells a caret's shown state from its hidden one
	 * (sf-classifier.h); 0 when more than SF_TILE_INK_MAX_TILES tiles
	 * changed, far more than a blink draws. */
	uint32_t ink;
};

#define SF_TILE_INK_MAX_TILES 32

/*
 * Hashes the tiles the damage touches, compares them with what the map
 * remembers and updates it.  Returns false, changing nothing, when the
 * map cannot be sized for the pixels (out of memory); the caller then
 * treats the whole damage as changed.
 */
bool
sf_tile_map_refine(struct sf_tile_map *map, const struct sf_pixels *pixels,
		   const struct sf_box *damage, uint32_t n_damage,
		   struct sf_tile_change *change);

#endif /* SF_TILES_H */
