/* SPDX-License-Identifier: MIT */
/*
 * The framebuffer-compression estimate (sf-fbc.h): run lengths per line,
 * and advice from the lines and the columns of the same image.
 */
#include "sf-fbc.h"

/* Ratios past these read as "compresses well" and "barely compresses". */
#define GOOD_RATIO 4.0
#define BUSY_RATIO 1.5
/* Columns this much better than lines: the picture is turned wrong.
 * Large, so that a screenshot with a few tall panels is not told to
 * turn; a horizontal gradient gains a hundredfold. */
#define TURN_GAIN 4.0

void
sf_fbc_estimate_init(struct sf_fbc_estimate *estimate)
{
	*estimate = (struct sf_fbc_estimate){ 0 };
}

void
sf_fbc_estimate_add_line(struct sf_fbc_estimate *estimate,
			 const uint32_t *pixels, uint32_t width)
{
	uint64_t raw = (uint64_t)width * SF_FBC_PIXEL_BYTES;
	uint64_t runs = 0;
	uint32_t run = 0;

	for (uint32_t x = 0; x < width; x++) {
		if (run > 0 && run < SF_FBC_RUN_MAX &&
		    pixels[x] == pixels[x - 1]) {
			run++;
			continue;
		}
		runs++;
		run = 1;
	}

	uint64_t encoded = runs * SF_FBC_RUN_BYTES;

	estimate->lines++;
	estimate->runs += runs;
	estimate->raw_bytes += raw;
	if (encoded < raw) {
		estimate->compressed_bytes += encoded;
		estimate->lines_compressed++;
	} else {
		estimate->compressed_bytes += raw;
	}
}

double
sf_fbc_estimate_ratio(const struct sf_fbc_estimate *estimate)
{
	if (estimate->compressed_bytes == 0)
		return 1.0;
	return (double)estimate->raw_bytes /
	       (double)estimate->compressed_bytes;
}

enum sf_fbc_advice
sf_fbc_advise(const struct sf_fbc_estimate *lines,
	      const struct sf_fbc_estimate *columns)
{
	double ratio = sf_fbc_estimate_ratio(lines);

	/* Before "good": a horizontal gradient on a wide screen has runs
	 * of several pixels and compresses a few times, while turned it
	 * would compress hundreds of times. */
	if (columns && sf_fbc_estimate_ratio(columns) >= TURN_GAIN * ratio)
		return SF_FBC_ADVICE_TURN;
	if (ratio >= GOOD_RATIO)
		return SF_FBC_ADVICE_GOOD;
	if (ratio < BUSY_RATIO)
		return SF_FBC_ADVICE_BUSY;
	return SF_FBC_ADVICE_FAIR;
}

const char *
sf_fbc_advice_name(enum sf_fbc_advice advice)
{
	switch (advice) {
	case SF_FBC_ADVICE_GOOD: return "good";
	case SF_FBC_ADVICE_TURN: return "turn";
	case SF_FBC_ADVICE_BUSY: return "busy";
	case SF_FBC_ADVICE_FAIR: return "fair";
	}
	return "invalid";
}
