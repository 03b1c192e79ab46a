/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "sf-hold.h"

/* Requests are hashed up to this many bytes (and their length): a large
 * image does not cost a hash of all its bytes at every peek. */
#define HASH_BYTES 512

void
sf_hold_vocab_init(struct sf_hold_vocab *vocab)
{
	memset(vocab, 0, sizeof(*vocab));
}

static uint16_t
read16(const uint8_t *p, bool swapped)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? (uint16_t)(v << 8 | v >> 8) : v;
}

static uint32_t
read32(const uint8_t *p, bool swapped)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	if (swapped)
		v = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) |
		    (v << 24);
	return v;
}

size_t
sf_hold_request_length(const uint8_t *data, size_t len, bool swapped)
{
	if (len < 4)
		return 0;
	uint16_t words = read16(data + 2, swapped);
	if (words)
		return (size_t)words * 4;
	/* BIG-REQUESTS: the length follows, counting itself. */
	if (len < 8)
		return 0;
	uint32_t big = read32(data + 4, swapped);
	if (big < 2)
		return 0;
	return (size_t)big * 4;
}

static uint64_t
exact_key(const uint8_t *request, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)len;
	size_t n = len < HASH_BYTES ? len : HASH_BYTES;

	for (size_t i = 0; i < n; i++) {
		h ^= request[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t
shape_key(const uint8_t *request, size_t len)
{
	return (uint64_t)request[0] | (uint64_t)request[1] << 8 |
	       (uint64_t)len << 16;
}

static void
add_keys(struct sf_hold_vocab *vocab, uint64_t exact, uint64_t shape);

void
sf_hold_vocab_learn(struct sf_hold_vocab *vocab, const uint8_t *request,
		    size_t len, bool swapped)
{
	if (sf_hold_request_length(request, len, swapped) != len)
		return;
	add_keys(vocab, exact_key(request, len), shape_key(request, len));
}

static void
add_key(struct sf_hold_keys *keys, uint64_t key)
{
	for (uint32_t i = 0; i < keys->n; i++)
		if (keys->key[i] == key)
			return;
	uint32_t slot = keys->n < SF_HOLD_VOCAB_MAX ? keys->n++ : keys->next;
	if (keys->n == SF_HOLD_VOCAB_MAX)
		keys->next = (slot + 1) % SF_HOLD_VOCAB_MAX;
	keys->key[slot] = key;
}

static void
add_keys(struct sf_hold_vocab *vocab, uint64_t exact, uint64_t shape)
{
	/* Apart: a tick's many contents must not push its few shapes
	 * out. */
	add_key(&vocab->exact, exact);
	add_key(&vocab->shape, shape);
}

void
sf_hold_vocab_merge(struct sf_hold_vocab *dst, const struct sf_hold_vocab *src)
{
	for (uint32_t i = 0; i < src->exact.n; i++)
		add_key(&dst->exact, src->exact.key[i]);
	for (uint32_t i = 0; i < src->shape.n; i++)
		add_key(&dst->shape, src->shape.key[i]);
}

void
sf_hold_vocab_learn_stream(struct sf_hold_vocab *vocab, const uint8_t *data,
			   size_t len, bool swapped)
{
	size_t at = 0;

	while (at < len) {
		size_t n = sf_hold_request_length(data + at, len - at, swapped);
		if (n == 0 || n > len - at)
			return;
		sf_hold_vocab_learn(vocab, data + at, n, swapped);
		at += n;
	}
}

static bool
knows(const struct sf_hold_vocab *vocab, enum sf_hold_match match,
      const uint8_t *request, size_t len)
{
	uint64_t key = match == SF_HOLD_MATCH_EXACT ? exact_key(request, len) :
						      shape_key(request, len);
	const struct sf_hold_keys *keys = match == SF_HOLD_MATCH_EXACT ?
		&vocab->exact : &vocab->shape;

	for (uint32_t i = 0; i < keys->n; i++)
		if (keys->key[i] == key)
			return true;
	return false;
}

enum sf_hold_verdict
sf_hold_check(const struct sf_hold_vocab *vocab, enum sf_hold_match match,
	      const uint8_t *data, size_t len, bool swapped, size_t budget,
	      uint8_t *opcode)
{
	if (len > budget)
		return SF_HOLD_TOO_MUCH;
	size_t at = 0;
	while (at < len) {
		const uint8_t *req = data + at;
		size_t avail = len - at;
		size_t n = sf_hold_request_length(req, avail, swapped);
		if (avail < 8 && n == 0 && (avail < 4 || read16(req + 2,
							       swapped) == 0))
			return SF_HOLD_KEEP;	/* its header is coming */
		if (n == 0)
			return SF_HOLD_MALFORMED;
		if (n > budget)
			return SF_HOLD_TOO_MUCH;
		if (n > avail) {
			/* The rest is coming: a tick's shape can be told
			 * from its header already, a blink's bytes not. */
			if (match == SF_HOLD_MATCH_SHAPE &&
			    !knows(vocab, match, req, n)) {
				if (opcode)
					*opcode = req[0];
				return SF_HOLD_NEW;
			}
			return SF_HOLD_KEEP;
		}
		if (!knows(vocab, match, req, n)) {
			if (opcode)
				*opcode = req[0];
			return SF_HOLD_NEW;
		}
		at += n;
	}
	return SF_HOLD_KEEP;
}

const char *
sf_hold_verdict_name(enum sf_hold_verdict verdict)
{
	switch (verdict) {
	case SF_HOLD_KEEP:
		return "only its blinks or ticks wait";
	case SF_HOLD_NEW:
		return "it sent more than its blinks or ticks";
	case SF_HOLD_TOO_MUCH:
		return "too much waits in its socket";
	case SF_HOLD_MALFORMED:
		return "its socket holds no whole request";
	}
	return "?";
}
