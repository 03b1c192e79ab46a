/* SPDX-License-Identifier: MIT */
/*
 * The bytes a libFuzzer target decodes, read from the front.  Past the
 * end every read is 0, so that any input decodes to something.
 */
#ifndef SF_FUZZ_INPUT_H
#define SF_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct fz_input {
	const uint8_t *data;
	size_t size;
};

static inline uint8_t
fz_byte(struct fz_input *in)
{
	if (in->size == 0)
		return 0;
	in->size--;
	return *in->data++;
}

/* Little-endian. */
static inline uint32_t
fz_u16(struct fz_input *in)
{
	uint32_t v = fz_byte(in);

	return v | (uint32_t)fz_byte(in) << 8;
}

static inline uint32_t
fz_u32(struct fz_input *in)
{
	uint32_t v = fz_u16(in);

	return v | fz_u16(in) << 16;
}

#endif
