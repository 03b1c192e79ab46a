/* SPDX-License-Identifier: MIT */
/*
 * The bytes a libFuzzer target decodes, read from the front.  Past the
 * end every read is 0, so that any input decodes to something.  A
 * target's state starts with its struct fz_input, and the readers take
 * that state.
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
byte(void *state)
{
	struct fz_input *in = state;

	if (in->size == 0)
		return 0;
	in->size--;
	return *in->data++;
}

/* Little-endian. */
static inline uint32_t
u16(void *state)
{
	uint32_t v = byte(state);

	return v | (uint32_t)byte(state) << 8;
}

static inline uint32_t
u32(void *state)
{
	uint32_t v = u16(state);

	return v | u16(state) << 16;
}

#endif
