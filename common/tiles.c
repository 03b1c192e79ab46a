/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "sf-tiles.h"

void
sf_tile_map_init(struct sf_tile_map *map)
{
	*map = (struct sf_tile_map){ 0 };
}

void
sf_tile_map_finish(struct sf_tile_map *map)
{
	free(map->hashes);
	sf_tile_map_init(map);
}

/* Called for every commit whose pixels cannot be read (large damage, a
 * dmabuf): cheap when there is nothing to forget. */
void
sf_tile_map_reset(struct sf_tile_map *map)
{
	if (!map->any_seen)
		return;
	memset(map->hashes, 0,
	       (size_t)map->cols * map->rows * sizeof(*map->hashes));
	map->any_seen = false;
}

static bool
fit(struct sf_tile_map *map, int32_t width, int32_t height)
{
	if (map->hashes && map->width == width && map->height == height)
		return true;

	uint32_t cols = (uint32_t)(width + SF_TILE_SIZE - 1) / SF_TILE_SIZE;
	uint32_t rows = (uint32_t)(height + SF_TILE_SIZE - 1) / SF_TILE_SIZE;
	uint64_t *hashes = calloc((size_t)cols * rows, sizeof(*hashes));

	if (!hashes)
		return false;
	free(map->hashes);
	*map = (struct sf_tile_map){
		.width = width, .height = height,
		.cols = cols, .rows = rows,
		.hashes = hashes,
	};
	return true;
}

/* A word-at-a-time multiply-xorshift hash: content identity, not
 * security.  Never returns 0, which the map keeps for "never seen". */
static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 31);
}

/* Four lanes, so that the multiplies of neighbouring words do not wait on
 * each other: reading an animation's frame is the plugin's largest cost
 * per frame. */
static uint64_t
hash_tile(const struct sf_pixels *px, int32_t x1, int32_t y1, int32_t x2,
	  int32_t y2)
{
	size_t row_bytes = (size_t)(x2 - x1) * px->bytes_per_pixel;
	uint64_t h0 = 0x243f6a8885a308d3ull, h1 = 0xa4093822299f31d0ull;
	uint64_t h2 = 0x082efa98ec4e6c89ull, h3 = 0x452821e638d01377ull;

	for (int32_t y = y1; y < y2; y++) {
		const uint8_t *p = px->data + (size_t)y * (size_t)px->stride +
				   (size_t)x1 * px->bytes_per_pixel;
		size_t i = 0;

		for (; i + 32 <= row_bytes; i += 32) {
			uint64_t w[4];
			memcpy(w, p + i, sizeof(w));
			h0 = mix(h0, w[0]);
			h1 = mix(h1, w[1]);
			h2 = mix(h2, w[2]);
			h3 = mix(h3, w[3]);
		}
		for (; i + 8 <= row_bytes; i += 8) {
			uint64_t w;
			memcpy(&w, p + i, sizeof(w));
			h0 = mix(h0, w);
		}
		for (; i < row_bytes; i++)
			h0 = mix(h0, p[i]);
	}
	uint64_t h = mix(mix(mix(h0, h1), h2), h3);
	return h ? h : 1;
}

/* A pixel's colour: the fourth byte of a 32-bit pixel (alpha, or
 * padding a client may leave as it likes) is no part of it. */
static uint32_t
pixel_at(const struct sf_pixels *px, int32_t x, int32_t y)
{
	const uint8_t *p = px->data + (size_t)y * (size_t)px->stride +
			   (size_t)x * px->bytes_per_pixel;

	if (px->bytes_per_pixel == 2) {
		uint16_t v;
		memcpy(&v, p, sizeof(v));
		return v;
	}
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v & 0x00ffffffu;
}

/*
 * The tile's ink: its pixels that are not of its most common colour.
 * The two states of a blink differ in ink: a caret drawn over a field,
 * a block cursor over a cell, a blinking dot, each adds pixels unlike
 * their surroundings, and the state without it is mostly background.
 * The majority colour comes from one voting pass (Boyer and Moore's):
 * right whenever one colour covers more than half the tile, as the
 * background of a caret's tile does; when none does, both states of a
 * blink are counted against the same kind of guess.
 */
static uint32_t
tile_ink(const struct sf_pixels *px, int32_t x1, int32_t y1, int32_t x2,
	 int32_t y2)
{
	uint32_t candidate = 0, votes = 0, ink = 0;

	for (int32_t y = y1; y < y2; y++)
		for (int32_t x = x1; x < x2; x++) {
			uint32_t v = pixel_at(px, x, y);
			if (votes == 0) {
				candidate = v;
				votes = 1;
			} else if (v == candidate) {
				votes++;
			} else {
				votes--;
			}
		}
	for (int32_t y = y1; y < y2; y++)
		for (int32_t x = x1; x < x2; x++)
			if (pixel_at(px, x, y) != candidate)
				ink++;
	return ink;
}

static bool
box_touches(const struct sf_box *b, int32_t x1, int32_t y1, int32_t x2,
	    int32_t y2)
{
	return b->x1 < x2 && x1 < b->x2 && b->y1 < y2 && y1 < b->y2;
}

static int32_t
clamp(int32_t v, int32_t lo, int32_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Adds the run [x1, x2) of tile row y1..y2 to the boxes: it extends the
 * box of the row above when that has the same columns. */
static void
add_run(struct sf_tile_change *change, bool *overflow,
	int32_t x1, int32_t y1, int32_t x2, int32_t y2)
{
	for (uint32_t i = 0; i < change->n_boxes; i++) {
		struct sf_box *b = &change->boxes[i];
		if (b->x1 == x1 && b->x2 == x2 && b->y2 == y1) {
			b->y2 = y2;
			return;
		}
	}
	if (change->n_boxes == change->max_boxes) {
		*overflow = true;
		return;
	}
	change->boxes[change->n_boxes++] = (struct sf_box){ x1, y1, x2, y2 };
}

bool
sf_tile_map_refine(struct sf_tile_map *map, const struct sf_pixels *px,
		   const struct sf_box *damage, uint32_t n_damage,
		   struct sf_tile_change *change)
{
	change->n_boxes = 0;
	change->hash = 0;
	change->ink = 0;
	if (px->width <= 0 || px->height <= 0 || !fit(map, px->width, px->height))
		return false;

	/* The damage's extents, clipped to the pixels. */
	struct sf_box ext = { px->width, px->height, 0, 0 };
	for (uint32_t i = 0; i < n_damage; i++) {
		const struct sf_box *b = &damage[i];
		if (sf_box_area(b) == 0)
			continue;
		ext.x1 = b->x1 < ext.x1 ? b->x1 : ext.x1;
		ext.y1 = b->y1 < ext.y1 ? b->y1 : ext.y1;
		ext.x2 = b->x2 > ext.x2 ? b->x2 : ext.x2;
		ext.y2 = b->y2 > ext.y2 ? b->y2 : ext.y2;
	}
	ext.x1 = clamp(ext.x1, 0, px->width);
	ext.y1 = clamp(ext.y1, 0, px->height);
	ext.x2 = clamp(ext.x2, 0, px->width);
	ext.y2 = clamp(ext.y2, 0, px->height);
	if (sf_box_area(&ext) == 0)
		return true;

	uint32_t c1 = (uint32_t)ext.x1 / SF_TILE_SIZE;
	uint32_t c2 = (uint32_t)(ext.x2 - 1) / SF_TILE_SIZE;
	uint32_t r1 = (uint32_t)ext.y1 / SF_TILE_SIZE;
	uint32_t r2 = (uint32_t)(ext.y2 - 1) / SF_TILE_SIZE;
	bool overflow = false;
	struct sf_box bound = { INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN };
	uint64_t hash = 0x13198a2e03707344ull;
	uint32_t n_changed = 0;
	uint64_t ink = 0;

	for (uint32_t r = r1; r <= r2; r++) {
		int32_t ty1 = (int32_t)(r * SF_TILE_SIZE);
		int32_t ty2 = clamp(ty1 + SF_TILE_SIZE, 0, px->height);
		int32_t run_x1 = -1, run_x2 = -1;

		for (uint32_t c = c1; c <= c2; c++) {
			int32_t tx1 = (int32_t)(c * SF_TILE_SIZE);
			int32_t tx2 = clamp(tx1 + SF_TILE_SIZE, 0, px->width);
			bool touched = false;

			for (uint32_t i = 0; i < n_damage && !touched; i++)
				touched = box_touches(&damage[i], tx1, ty1,
						      tx2, ty2);
			bool changed = false;
			if (touched) {
				uint64_t *slot = &map->hashes[r * map->cols + c];
				uint64_t h = hash_tile(px, tx1, ty1, tx2, ty2);
				changed = h != *slot;
				*slot = h;
				map->any_seen = true;
				if (changed) {
					hash = mix(mix(hash, r * map->cols + c), h);
					n_changed++;
				}
				if (changed &&
				    n_changed <= SF_TILE_INK_MAX_TILES)
					ink += tile_ink(px, tx1, ty1, tx2, ty2);
			}
			if (changed) {
				bound.x1 = tx1 < bound.x1 ? tx1 : bound.x1;
				bound.y1 = ty1 < bound.y1 ? ty1 : bound.y1;
				bound.x2 = tx2 > bound.x2 ? tx2 : bound.x2;
				bound.y2 = ty2 > bound.y2 ? ty2 : bound.y2;
				if (run_x1 < 0)
					run_x1 = tx1;
				run_x2 = tx2;
				continue;
			}
			if (run_x1 >= 0)
				add_run(change, &overflow, run_x1, ty1, run_x2,
					ty2);
			run_x1 = -1;
		}
		if (run_x1 >= 0)
			add_run(change, &overflow, run_x1, ty1, run_x2, ty2);
	}

	if (overflow) {
		change->boxes[0] = bound;
		change->n_boxes = 1;
	}
	/* Clip to the damage: tiles stick out of a cursor-sized box. */
	for (uint32_t i = 0; i < change->n_boxes; i++) {
		struct sf_box *b = &change->boxes[i];
		b->x1 = clamp(b->x1, ext.x1, ext.x2);
		b->y1 = clamp(b->y1, ext.y1, ext.y2);
		b->x2 = clamp(b->x2, ext.x1, ext.x2);
		b->y2 = clamp(b->y2, ext.y1, ext.y2);
	}
	change->hash = change->n_boxes ? hash : 0;
	change->ink = n_changed <= SF_TILE_INK_MAX_TILES ? (uint32_t)ink : 0;
	return true;
}
