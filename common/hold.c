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

/* Whether a request's second byte says something.  An extension's is
 * its minor opcode; most core requests leave it unused, and Xlib does
 * not clear it: xclock's CopyArea came with 0, 224, 82 and 58 there.  The
 * core requests whose second byte is a field (X11 protocol, chapter 9):
 * CreateWindow, ChangeProperty, GetProperty, SendEvent, the grabs,
 * AllowEvents, SetInputFocus, CreatePixmap, SetClipRectangles,
 * ClearArea, PolyPoint, PolyLine, PutImage, GetImage, ImageText8/16,
 * ChangeKeyboardMapping, ChangeHosts, SetAccessControl,
 * SetCloseDownMode, ForceScreenSaver, SetPointerMapping and
 * SetModifierMapping. */
static bool
data_byte_counts(uint8_t major)
{
	static const uint8_t with_field[] = {
		1, 18, 20, 25, 26, 27, 28, 31, 33, 35, 42, 53, 59, 61, 64,
		65, 72, 73, 76, 77, 100, 105, 111, 112, 115, 116, 118,
	};

	if (major >= 128)
		return true;
	for (size_t i = 0; i < sizeof(with_field); i++)
		if (with_field[i] == major)
			return true;
	return false;
}

static uint64_t
exact_key(const uint8_t *request, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)len;
	size_t n = len < HASH_BYTES ? len : HASH_BYTES;
	bool data = data_byte_counts(request[0]);

	for (size_t i = 0; i < n; i++) {
		h ^= i == 1 && !data ? 0 : request[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The data byte as it counts in a shape: 0 where it is unused. */
static uint8_t
shape_data(const uint8_t *request)
{
	return data_byte_counts(request[0]) ? request[1] : 0;
}

static void
add_key(struct sf_hold_keys *keys, uint64_t key);

static void
add_shape(struct sf_hold_shapes *shapes, const struct sf_hold_shape *shape);

void
sf_hold_vocab_learn(struct sf_hold_vocab *vocab, const uint8_t *request,
		    size_t len, bool swapped)
{
	if (sf_hold_request_length(request, len, swapped) != len)
		return;
	/* Apart: a tick's many contents must not push its few shapes
	 * out. */
	add_key(&vocab->exact, exact_key(request, len));
	struct sf_hold_shape shape = {
		.major = request[0],
		.data = shape_data(request),
		.min_len = (uint32_t)len,
		.max_len = (uint32_t)len,
	};
	add_shape(&vocab->shape, &shape);
}

static void
add_tagged_key(struct sf_hold_keys *keys, uint64_t key, uint8_t tag)
{
	for (uint32_t i = 0; i < keys->n; i++)
		if (keys->key[i] == key) {
			keys->tag[i] |= tag;
			return;
		}
	uint32_t slot = keys->n < SF_HOLD_VOCAB_MAX ? keys->n++ : keys->next;
	if (keys->n == SF_HOLD_VOCAB_MAX)
		keys->next = (slot + 1) % SF_HOLD_VOCAB_MAX;
	keys->key[slot] = key;
	keys->tag[slot] = tag;
}

static void
add_key(struct sf_hold_keys *keys, uint64_t key)
{
	add_tagged_key(keys, key, 0);
}

/* Widens the lengths of the shape with the same opcode and data byte,
 * or adds it. */
static void
add_shape(struct sf_hold_shapes *shapes, const struct sf_hold_shape *shape)
{
	for (uint32_t i = 0; i < shapes->n; i++) {
		struct sf_hold_shape *s = &shapes->shape[i];
		if (s->major != shape->major || s->data != shape->data)
			continue;
		if (shape->min_len < s->min_len)
			s->min_len = shape->min_len;
		if (shape->max_len > s->max_len)
			s->max_len = shape->max_len;
		return;
	}
	uint32_t slot = shapes->n < SF_HOLD_VOCAB_MAX ? shapes->n++ :
							shapes->next;
	if (shapes->n == SF_HOLD_VOCAB_MAX)
		shapes->next = (slot + 1) % SF_HOLD_VOCAB_MAX;
	shapes->shape[slot] = *shape;
}

void
sf_hold_vocab_merge_phase(struct sf_hold_vocab *dst,
			  const struct sf_hold_vocab *src,
			  enum sf_blink_phase phase)
{
	uint8_t tag = phase == SF_BLINK_PHASE_SHOWN ? SF_HOLD_TAG_SHOWN :
		      phase == SF_BLINK_PHASE_HIDDEN ? SF_HOLD_TAG_HIDDEN : 0;

	for (uint32_t i = 0; i < src->exact.n; i++)
		add_tagged_key(&dst->exact, src->exact.key[i],
			       src->exact.tag[i] | tag);
	for (uint32_t i = 0; i < src->shape.n; i++)
		add_shape(&dst->shape, &src->shape.shape[i]);
}

void
sf_hold_vocab_merge(struct sf_hold_vocab *dst, const struct sf_hold_vocab *src)
{
	sf_hold_vocab_merge_phase(dst, src, SF_BLINK_PHASE_UNKNOWN);
}

enum sf_blink_phase
sf_hold_last_phase(const struct sf_hold_vocab *vocab, const uint8_t *data,
		   size_t len, bool swapped)
{
	enum sf_blink_phase last = SF_BLINK_PHASE_UNKNOWN;
	size_t at = 0;

	while (at < len) {
		size_t n = sf_hold_request_length(data + at, len - at, swapped);
		if (n == 0 || n > len - at)
			break;
		uint64_t key = exact_key(data + at, n);
		for (uint32_t i = 0; i < vocab->exact.n; i++) {
			if (vocab->exact.key[i] != key)
				continue;
			if (vocab->exact.tag[i] == SF_HOLD_TAG_SHOWN)
				last = SF_BLINK_PHASE_SHOWN;
			else if (vocab->exact.tag[i] == SF_HOLD_TAG_HIDDEN)
				last = SF_BLINK_PHASE_HIDDEN;
			break;
		}
		at += n;
	}
	return last;
}

bool
sf_hold_deadline_waits(enum sf_blink_phase waiting, sf_time_t due,
		       sf_time_t now)
{
	return waiting == SF_BLINK_PHASE_HIDDEN &&
	       now < due + SF_HOLD_DEADLINE_CARET_GRACE;
}

bool
sf_hold_class_learns(enum sf_class cls)
{
	return cls != SF_CLASS_VIDEO && cls != SF_CLASS_ANIMATING;
}

bool
sf_hold_frame_learnable(enum sf_class cls, int64_t area)
{
	return area <= (cls == SF_CLASS_TICKING ? SF_HOLD_LEARN_TICK_AREA :
						  SF_HOLD_LEARN_BLINK_AREA);
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
	if (match == SF_HOLD_MATCH_SHAPE) {
		const struct sf_hold_shapes *shapes = &vocab->shape;
		uint8_t data = shape_data(request);
		for (uint32_t i = 0; i < shapes->n; i++) {
			const struct sf_hold_shape *s = &shapes->shape[i];
			if (s->major == request[0] && s->data == data &&
			    len >= s->min_len && len <= s->max_len)
				return true;
		}
		return false;
	}
	uint64_t key = exact_key(request, len);
	for (uint32_t i = 0; i < vocab->exact.n; i++)
		if (vocab->exact.key[i] == key)
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
