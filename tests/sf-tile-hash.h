/* SPDX-License-Identifier: MIT */
/*
 * The hash of a screen tile in the witnesses' frame logs, defined once
 * for the fake-KMS double (tests/weston/fake-kms-frame-log.c) and
 * sf-bench-x (bench/sf-bench-x-frames.c), so that the same pixels hash
 * alike on Weston and on X: 64-bit FNV-1a over the tile's pixels row by
 * row, each pixel its 24 colour bits as 4 little-endian bytes (the
 * fourth zero: what a server keeps in the top byte is not shown).
 */
#ifndef SF_TILE_HASH_H
#define SF_TILE_HASH_H

#include <stdint.h>

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

#endif
