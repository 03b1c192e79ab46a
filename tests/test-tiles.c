/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "sf-tiles.h"
#include "sf-test.h"

/* A 100x40 XRGB canvas, not a multiple of the tile size on purpose. */
#define W 100
#define H 40

struct canvas {
	uint32_t px[H][W];
};

static struct sf_pixels
pixels_of(struct canvas *c)
{
	return (struct sf_pixels){
		.data = (const uint8_t *)c->px, .width = W, .height = H,
		.stride = W * 4, .bytes_per_pixel = 4,
	};
}

static void
fill(struct canvas *c, struct sf_box b, uint32_t v)
{
	for (int32_t y = b.y1; y < b.y2; y++)
		for (int32_t x = b.x1; x < b.x2; x++)
			c->px[y][x] = v;
}

static const struct sf_box whole = { 0, 0, W, H };

static uint32_t
refine(struct sf_tile_map *map, struct canvas *c, const struct sf_box *damage,
       uint32_t n, struct sf_box *out, uint32_t max, uint64_t *hash)
{
	struct sf_pixels px = pixels_of(c);
	struct sf_tile_change change = { .boxes = out, .max_boxes = max };

	/* A failure is a count no test expects. */
	if (!sf_tile_map_refine(map, &px, damage, n, &change))
		return UINT32_MAX;
	if (hash)
		*hash = change.hash;
	return change.n_boxes;
}

SF_TEST(first_sight_is_all_changed_then_identical_is_nothing)
{
	static struct canvas c;
	struct sf_tile_map map;
	struct sf_box out[8];

	sf_tile_map_init(&map);
	fill(&c, whole, 0xff102030);
	sf_assert_int_eq(refine(&map, &c, &whole, 1, out, 8, NULL), 1);
	sf_assert_int_eq(out[0].x1, 0);
	sf_assert_int_eq(out[0].y1, 0);
	sf_assert_int_eq(out[0].x2, W);
	sf_assert_int_eq(out[0].y2, H);

	/* The same pixels damaged again: nothing changed. */
	uint64_t hash = 7;
	sf_assert_int_eq(refine(&map, &c, &whole, 1, out, 8, &hash), 0);
	sf_assert_int_eq(hash, 0);
	sf_tile_map_finish(&map);
	sf_tile_map_finish(&map);	/* finishing twice is harmless */
}

SF_TEST(whole_damage_is_narrowed_to_the_changed_tiles)
{
	static struct canvas c;
	struct sf_tile_map map;
	struct sf_box out[8];

	sf_tile_map_init(&map);
	fill(&c, whole, 0);
	refine(&map, &c, &whole, 1, out, 8, NULL);

	/* A clock digit at 70..78 x 20..36 spans tiles (4,1) and (4,2). */
	fill(&c, (struct sf_box){ 70, 20, 78, 36 }, 0xffffffff);
	sf_assert_int_eq(refine(&map, &c, &whole, 1, out, 8, NULL), 1);
	sf_assert_int_eq(out[0].x1, 64);
	sf_assert_int_eq(out[0].x2, 80);
	sf_assert_int_eq(out[0].y1, 16);
	sf_assert_int_eq(out[0].y2, 40);	/* the last row is cut at H */
	sf_tile_map_finish(&map);
}

SF_TEST(boxes_are_clipped_to_the_damage)
{
	static struct canvas c;
	struct sf_tile_map map;
	struct sf_box out[8];
	struct sf_box cursor = { 20, 3, 29, 13 };

	sf_tile_map_init(&map);
	fill(&c, whole, 0);
	refine(&map, &c, &whole, 1, out, 8, NULL);
	fill(&c, cursor, 0xffffffff);
	sf_assert_int_eq(refine(&map, &c, &cursor, 1, out, 8, NULL), 1);
	sf_assert_int_eq(out[0].x1, cursor.x1);
	sf_assert_int_eq(out[0].y1, cursor.y1);
	sf_assert_int_eq(out[0].x2, cursor.x2);
	sf_assert_int_eq(out[0].y2, cursor.y2);
	sf_tile_map_finish(&map);
}

SF_TEST(a_blink_alternates_between_two_hashes)
{
	static struct canvas c;
	struct sf_tile_map map;
	struct sf_box out[8];
	struct sf_box cursor = { 40, 16, 48, 32 };
	uint64_t h[4];

	sf_tile_map_init(&map);
	fill(&c, whole, 0);
	refine(&map, &c, &whole, 1, out, 8, NULL);
	for (int i = 0; i < 4; i++) {
		fill(&c, cursor, i % 2 ? 0 : 0xffffffff);
		sf_assert_int_eq(refine(&map, &c, &whole, 1, out, 8, &h[i]), 1);
	}
	sf_assert_int_eq(h[0], h[2]);
	sf_assert_int_eq(h[1], h[3]);
	sf_assert_int_ne(h[0], h[1]);
	sf_tile_map_finish(&map);
}

static uint32_t
ink_of(struct sf_tile_map *map, struct canvas *c, const struct sf_box *damage)
{
	struct sf_box out[8];
	struct sf_pixels px = pixels_of(c);
	struct sf_tile_change change = { .boxes = out, .max_boxes = 8 };

	if (!sf_tile_map_refine(map, &px, damage, 1, &change))
		return UINT32_MAX;
	return change.ink;
}

/* The state of a blink that shows the caret has more ink, whatever the
 * colours: a dark 2x12 caret on a light field beside a glyph, a light
 * block cursor on a dark terminal over a glyph, and the padding byte of
 * a 32-bit pixel is no colour. */
SF_TEST(a_caret_s_shown_state_has_more_ink)
{
	static struct canvas c;
	struct sf_tile_map map;
	const struct sf_box glyph = { 34, 20, 38, 28 };
	const struct sf_box caret = { 40, 18, 42, 30 };
	const struct sf_box block = { 40, 18, 48, 34 };

	sf_tile_map_init(&map);
	fill(&c, whole, 0xf0f0f0);
	fill(&c, glyph, 0x202020);
	ink_of(&map, &c, &whole);
	fill(&c, caret, 0x000000);
	uint32_t shown = ink_of(&map, &c, &caret);
	fill(&c, caret, 0xf0f0f0);
	uint32_t hidden = ink_of(&map, &c, &caret);
	sf_assert_int_eq(shown, 4 * 8 + 2 * 12);	/* glyph and caret */
	sf_assert_int_eq(hidden, 4 * 8);
	/* Padding bytes that change say nothing. */
	c.px[24][44] = 0xfff0f0f0;
	fill(&c, caret, 0x000000);
	sf_assert_int_eq(ink_of(&map, &c, &caret), shown);

	fill(&c, whole, 0x101010);
	fill(&c, glyph, 0xc0c0c0);
	sf_tile_map_reset(&map);
	ink_of(&map, &c, &whole);
	fill(&c, block, 0xe0e0e0);
	shown = ink_of(&map, &c, &block);
	fill(&c, block, 0x101010);
	hidden = ink_of(&map, &c, &block);
	sf_assert_int_gt(shown, hidden);
	sf_tile_map_finish(&map);
}

SF_TEST(tiles_outside_the_damage_are_neither_read_nor_reported)
{
	static struct canvas c;
	struct sf_tile_map map;
	struct sf_box out[8];
	struct sf_box left = { 0, 0, 16, 16 };

	sf_tile_map_init(&map);
	fill(&c, whole, 0);
	refine(&map, &c, &whole, 1, out, 8, NULL);
	/* A change the client did not damage is not ours to see. */
	fill(&c, (struct sf_box){ 80, 0, 90, 10 }, 0xffffffff);
	sf_assert_int_eq(refine(&map, &c, &left, 1, out, 8, NULL), 0);
	/* ... until it is damaged. */
	sf_assert_int_eq(refine(&map, &c, &whole, 1, out, 8, NULL), 1);
	sf_assert_int_eq(out[0].x1, 80);
	sf_tile_map_finish(&map);
}

SF_TEST(runs_merge_vertically_and_overflow_gives_one_bound)
{
	static struct canvas c;
	struct sf_tile_map map;
	struct sf_box out[2];

	sf_tile_map_init(&map);
	fill(&c, whole, 0);
	refine(&map, &c, &whole, 1, out, 2, NULL);

	/* A 2x3-tile block is one box. */
	fill(&c, (struct sf_box){ 16, 0, 48, 40 }, 0xff00ff00);
	sf_assert_int_eq(refine(&map, &c, &whole, 1, out, 2, NULL), 1);
	sf_assert_int_eq(out[0].x1, 16);
	sf_assert_int_eq(out[0].x2, 48);
	sf_assert_int_eq(out[0].y1, 0);
	sf_assert_int_eq(out[0].y2, H);

	/* Three separate spots with room for two: one bounding box. */
	fill(&c, (struct sf_box){ 0, 0, 4, 4 }, 1);
	fill(&c, (struct sf_box){ 50, 18, 52, 20 }, 1);
	fill(&c, (struct sf_box){ 96, 36, 100, 40 }, 1);
	sf_assert_int_eq(refine(&map, &c, &whole, 1, out, 2, NULL), 1);
	sf_assert_int_eq(out[0].x1, 0);
	sf_assert_int_eq(out[0].y1, 0);
	sf_assert_int_eq(out[0].x2, W);
	sf_assert_int_eq(out[0].y2, H);
	sf_tile_map_finish(&map);
}

SF_TEST(a_resize_or_reset_forgets_everything)
{
	static struct canvas c;
	struct sf_tile_map map;
	struct sf_box out[4];

	sf_tile_map_init(&map);
	fill(&c, whole, 0);
	refine(&map, &c, &whole, 1, out, 4, NULL);
	sf_tile_map_reset(&map);
	sf_assert_int_eq(refine(&map, &c, &whole, 1, out, 4, NULL), 1);

	struct sf_pixels px = pixels_of(&c);
	px.width = 50;		/* the surface shrank */
	struct sf_tile_change change = { .boxes = out, .max_boxes = 4 };
	struct sf_box half = { 0, 0, 50, H };
	sf_assert(sf_tile_map_refine(&map, &px, &half, 1, &change));
	sf_assert_int_eq(change.n_boxes, 1);
	sf_assert_int_eq(map.cols, 4);
	sf_tile_map_finish(&map);
}

SF_TEST(empty_or_outside_damage_changes_nothing)
{
	static struct canvas c;
	struct sf_tile_map map;
	struct sf_box out[4];
	struct sf_box nothing = { 5, 5, 5, 9 };
	struct sf_box beyond = { W + 10, 0, W + 20, 10 };

	sf_tile_map_init(&map);
	sf_assert_int_eq(refine(&map, &c, &nothing, 1, out, 4, NULL), 0);
	sf_assert_int_eq(refine(&map, &c, &beyond, 1, out, 4, NULL), 0);
	sf_assert_int_eq(refine(&map, &c, NULL, 0, out, 4, NULL), 0);
	sf_tile_map_finish(&map);
}

SF_TEST(rgb565_pixels_hash_too)
{
	static uint16_t px16[H][W];
	struct sf_tile_map map;
	struct sf_box out[4];
	struct sf_pixels px = {
		.data = (const uint8_t *)px16, .width = W, .height = H,
		.stride = W * 2, .bytes_per_pixel = 2,
	};
	struct sf_tile_change change = { .boxes = out, .max_boxes = 4 };

	sf_tile_map_init(&map);
	sf_assert(sf_tile_map_refine(&map, &px, &whole, 1, &change));
	px16[39][99] = 0xf800;
	sf_assert(sf_tile_map_refine(&map, &px, &whole, 1, &change));
	sf_assert_int_eq(change.n_boxes, 1);
	sf_assert_int_eq(change.boxes[0].x1, 96);
	sf_assert_int_eq(change.boxes[0].y1, 32);
	sf_tile_map_finish(&map);
}

SF_TEST_MAIN()
