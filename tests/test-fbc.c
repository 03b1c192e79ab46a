/* SPDX-License-Identifier: MIT */
/*
 * The framebuffer-compression estimate: flat, vertically and horizontally
 * graded and noisy frames, run-length limits and the advice each gets.
 */
#include <stdlib.h>

#include "sf-fbc.h"
#include "sf-test.h"

#define W 640
#define H 360

enum pattern { FLAT, VERTICAL, HORIZONTAL, NOISE };

static uint32_t
pixel(enum pattern p, uint32_t x, uint32_t y, uint32_t *seed)
{
	switch (p) {
	case FLAT:
		return 0x203040;
	case VERTICAL:		/* colour changes from top to bottom */
		return (y * 255 / (H - 1)) * 0x010101u;
	case HORIZONTAL:	/* colour changes from left to right */
		return (x * 255 / (W - 1)) * 0x010101u;
	case NOISE:
		*seed = *seed * 1103515245u + 12345u;
		return *seed >> 8;
	}
	return 0;
}

/* Estimates of the image's lines and of its columns. */
static void
estimate(enum pattern p, struct sf_fbc_estimate *lines,
	 struct sf_fbc_estimate *columns)
{
	static uint32_t image[H][W], column[H];
	uint32_t seed = 1;

	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++)
			image[y][x] = pixel(p, x, y, &seed);
	sf_fbc_estimate_init(lines);
	for (uint32_t y = 0; y < H; y++)
		sf_fbc_estimate_add_line(lines, image[y], W);
	sf_fbc_estimate_init(columns);
	for (uint32_t x = 0; x < W; x++) {
		for (uint32_t y = 0; y < H; y++)
			column[y] = image[y][x];
		sf_fbc_estimate_add_line(columns, column, H);
	}
}

SF_TEST(vertical_gradient_compresses_and_horizontal_does_not)
{
	struct sf_fbc_estimate flat, vertical, horizontal, noise, cols;

	estimate(FLAT, &flat, &cols);
	estimate(VERTICAL, &vertical, &cols);
	estimate(HORIZONTAL, &horizontal, &cols);
	estimate(NOISE, &noise, &cols);

	/* A line of one colour: ceil(640 / 256) = 3 runs of 5 bytes. */
	sf_assert_int_eq(vertical.runs, 3 * H);
	sf_assert_double_near(sf_fbc_estimate_ratio(&vertical),
			      (double)(W * 4) / (3 * 5), 1e-9);
	sf_assert_double_near(sf_fbc_estimate_ratio(&flat),
			      sf_fbc_estimate_ratio(&vertical), 1e-9);
	sf_assert_int_eq(vertical.lines_compressed, H);
	/* 256 grey levels over 640 pixels: runs of 2 or 3 pixels. */
	sf_assert_int_gt(horizontal.runs, 250 * H);
	sf_assert(sf_fbc_estimate_ratio(&horizontal) <
		  sf_fbc_estimate_ratio(&vertical) / 10);
	/* Nothing repeats: every line is stored raw. */
	sf_assert_int_eq(noise.lines_compressed, 0);
	sf_assert_double_near(sf_fbc_estimate_ratio(&noise), 1.0, 1e-9);
	sf_assert(sf_fbc_estimate_ratio(&noise) <
		  sf_fbc_estimate_ratio(&horizontal));
}

SF_TEST(advice_follows_the_image)
{
	struct sf_fbc_estimate lines, columns;

	estimate(VERTICAL, &lines, &columns);
	sf_assert_int_eq(sf_fbc_advise(&lines, &columns), SF_FBC_ADVICE_GOOD);
	estimate(HORIZONTAL, &lines, &columns);
	sf_assert_int_eq(sf_fbc_advise(&lines, &columns), SF_FBC_ADVICE_TURN);
	/* Without the columns nobody can tell it is turned wrong. */
	sf_assert_int_ne(sf_fbc_advise(&lines, NULL), SF_FBC_ADVICE_TURN);
	estimate(NOISE, &lines, &columns);
	sf_assert_int_eq(sf_fbc_advise(&lines, &columns), SF_FBC_ADVICE_BUSY);
	sf_assert_str_eq(sf_fbc_advice_name(SF_FBC_ADVICE_TURN), "turn");
}

SF_TEST(runs_are_bounded_and_lines_never_cost_more_than_raw)
{
	uint32_t line[SF_FBC_RUN_MAX * 2 + 1] = { 0 };
	struct sf_fbc_estimate e;

	sf_fbc_estimate_init(&e);
	sf_assert_double_near(sf_fbc_estimate_ratio(&e), 1.0, 1e-9);
	sf_fbc_estimate_add_line(&e, line, SF_FBC_RUN_MAX * 2 + 1);
	sf_assert_int_eq(e.runs, 3);
	sf_assert_int_eq(e.compressed_bytes, 3 * SF_FBC_RUN_BYTES);

	/* One pixel: its run (5 bytes) would cost more than the pixel. */
	sf_fbc_estimate_init(&e);
	sf_fbc_estimate_add_line(&e, line, 1);
	sf_assert_int_eq(e.compressed_bytes, SF_FBC_PIXEL_BYTES);
	sf_assert_int_eq(e.lines_compressed, 0);

	/* An empty line adds a line and no bytes. */
	sf_fbc_estimate_add_line(&e, line, 0);
	sf_assert_int_eq(e.lines, 2);
	sf_assert_int_eq(e.raw_bytes, SF_FBC_PIXEL_BYTES);
}

SF_TEST_MAIN()
