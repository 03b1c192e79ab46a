/* SPDX-License-Identifier: MIT */
/*
 * An estimate of how well a frame compresses under framebuffer
 * compression done line by line with run lengths, the scheme the seed
 * article describes for Intel chipsets: a line of one colour is stored
 * in a few bytes, a line whose every pixel differs from the last is
 * stored whole.  So a vertical gradient (each line one colour)
 * compresses and a horizontal one does not, and the display engine reads
 * that much less memory at every refresh.
 *
 * The hardware's own format is not what is modelled: each run of equal
 * pixels costs SF_FBC_RUN_BYTES (the pixel and its length) and holds at
 * most SF_FBC_RUN_MAX pixels; a line whose runs cost more than the line
 * itself is stored raw, as compressors do.  Ratios between images mean
 * more than the absolute figure.
 */
#ifndef SF_FBC_H
#define SF_FBC_H

#include <stdbool.h>
#include <stdint.h>

/* A 32 bpp pixel and a one-byte run length. */
#define SF_FBC_PIXEL_BYTES 4
#define SF_FBC_RUN_BYTES (SF_FBC_PIXEL_BYTES + 1)
#define SF_FBC_RUN_MAX 256

struct sf_fbc_estimate {
	uint64_t raw_bytes;
	uint64_t compressed_bytes;
	uint64_t runs;
	uint32_t lines;
	/* Lines stored in fewer bytes than raw. */
	uint32_t lines_compressed;
};

void
sf_fbc_estimate_init(struct sf_fbc_estimate *estimate);

/* Adds one line of width pixels; only the pixels' equality counts, so
 * any 32-bit packing of the colour will do (the caller drops alpha). */
void
sf_fbc_estimate_add_line(struct sf_fbc_estimate *estimate,
			 const uint32_t *pixels, uint32_t width);

/* raw / compressed bytes, 1 for an empty estimate. */
double
sf_fbc_estimate_ratio(const struct sf_fbc_estimate *estimate);

/* What a user can do about it. */
enum sf_fbc_advice {
	/* Compresses well already. */
	SF_FBC_ADVICE_GOOD,
	/* Changes along its lines (a horizontal gradient, vertical
	 * stripes): the same picture turned a quarter compresses at least
	 * four times better. */
	SF_FBC_ADVICE_TURN,
	/* Busy (a photo, noise, dithering): a flat colour or a vertical
	 * gradient would save memory bandwidth at every refresh. */
	SF_FBC_ADVICE_BUSY,
	/* In between. */
	SF_FBC_ADVICE_FAIR,
};

/* Advice from the estimate of the image's lines and of its columns
 * (the image turned a quarter). */
enum sf_fbc_advice
sf_fbc_advise(const struct sf_fbc_estimate *lines,
	      const struct sf_fbc_estimate *columns);

const char *
sf_fbc_advice_name(enum sf_fbc_advice advice);

#endif /* SF_FBC_H */
