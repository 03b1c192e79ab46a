/* SPDX-License-Identifier: MIT */
/*
 * The hash of a screen tile in the witnesses' frame logs, defined once
 * for the fake-KMS double (tests/weston/fake-kms-frame-log.c) and
 * sf-bench-x (bench/sf-bench-x-frames.c), so that the same pixels hash
 * alike on Weston and on X: 64-bit FNV-1a over the tile's pixels row by
 * row, each pixel its 24 colour bits as 4 little-endian bytes (the
 * fourth zero: what a server keeps in the top byte is not shown).
 *
 * With it, each changed tile's ink: how many of its pixels are not of
 * its most common colour.  A caret, a cursor block or a dot adds ink to
 * the field it blinks over, so the checker tells a blink's shown picture
 * from its hidden one by it, whatever the toolkit does on a key.
 */
#ifndef SF_TILE_HASH_H
#define SF_TILE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define SF_TILE_HASH_START UINT64_C(0xcbf29ce484222325)
#define SF_TILE_HASH_PRIME UINT64_C(0x100000001b3)

/* HASH with one more pixel of value RGB (0x00rrggbb) */
static inline uint64_t
sf_tile_hash_pixel(uint64_t hash, uint32_t rgb)
{
	for (unsigned int b = 0; b < 4; b++) {
		hash ^= (rgb >> (8 * b)) & 0xff;
		hash *= SF_TILE_HASH_PRIME;
	}
	return hash;
}

/* The most a tile holds: the witnesses' 32 x 32 tiles. */
#define SF_TILE_INK_PIXELS (32 * 32)

static inline int
sf_tile_ink_compare(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The ink of a tile whose N pixels (0x00rrggbb) are in RGB, which it
 * sorts: N less the longest run of one colour. */
static inline uint32_t
sf_tile_ink(uint32_t *rgb, size_t n)
{
	size_t longest = 0, run = 0;

	qsort(rgb, n, sizeof *rgb, sf_tile_ink_compare);
	for (size_t i = 0; i < n; i++) {
		run = i > 0 && rgb[i] == rgb[i - 1] ? run + 1 : 1;
		if (run > longest)
			longest = run;
	}
	return (uint32_t)(n - longest);
}

#endif
