/* SPDX-License-Identifier: MIT */
#ifndef SF_HOLD_H
#define SF_HOLD_H

/*
 * What a held X client may send and still stay held.
 *
 * X has no repaint to veto, so a client that only blinks or ticks while
 * the user is idle is held instead: the server stops reading its socket.
 * Everything else the client sends must still be drawn at once: text a
 * program prints into a held terminal, a redraw after an exposure, a
 * request it waits on for a reply.  So while it is held, what waits in
 * its socket is read without being taken (a peek) and judged here: the
 * client stays held only while every waiting request is one it sent in
 * the blinks or ticks already seen (its vocabulary), and while what waits
 * is small enough never to fill the socket, which would block the client
 * and, behind it, whatever writes to it (a build writing into a held
 * terminal).
 *
 * A blink draws the same requests again and again (the cursor cell in
 * its two phases), so blinks are compared byte for byte.  A tick draws
 * new content each time (the next second's digits or hands), so ticks
 * are compared by shape only: the same request with the same data byte
 * (an extension's minor opcode, a text's length; not an unused one,
 * which Xlib leaves as it finds it) and a length within the lengths its
 * ticks sent (xclock's hands are trapezoids whose count changes with
 * their angle: 26 to 96 words a request).
 *
 * The wire format is read here without X headers: a request is a major
 * opcode byte, a data byte and a 16-bit length in 4-byte units (in the
 * client's byte order), or 0 and a 32-bit length after it (BIG-REQUESTS).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sf-types.h"

#define SF_HOLD_VOCAB_MAX 32

/* A set of keys; when full, the oldest goes.  Each key may say which
 * phase of a blink its request drew (SF_HOLD_TAG_*). */
struct sf_hold_keys {
	uint64_t key[SF_HOLD_VOCAB_MAX];
	uint8_t tag[SF_HOLD_VOCAB_MAX];
	uint32_t n;
	uint32_t next;				/* replaced next when full */
};

/* Tags: a request seen drawing the caret shown, hidden, or both (a GC
 * change both phases make says nothing). */
#define SF_HOLD_TAG_SHOWN	(1u << 0)
#define SF_HOLD_TAG_HIDDEN	(1u << 1)

/* A request's shape: its major opcode and data byte, and the shortest
 * and longest lengths (bytes) it was seen with. */
struct sf_hold_shape {
	uint8_t major;
	uint8_t data;
	uint32_t min_len;
	uint32_t max_len;
};

/* A set of shapes, one per opcode and data byte; when full, the oldest
 * goes. */
struct sf_hold_shapes {
	struct sf_hold_shape shape[SF_HOLD_VOCAB_MAX];
	uint32_t n;
	uint32_t next;				/* replaced next when full */
};

struct sf_hold_vocab {
	struct sf_hold_keys exact;	/* hash of the whole request */
	struct sf_hold_shapes shape;	/* opcode, data byte, lengths */
};

enum sf_hold_match {
	SF_HOLD_MATCH_EXACT = 0,	/* blinks: byte for byte */
	SF_HOLD_MATCH_SHAPE,		/* ticks: by shape */
};

enum sf_hold_verdict {
	SF_HOLD_KEEP = 0,	/* only learned requests wait (or none) */
	SF_HOLD_NEW,		/* a request not seen in a blink or tick */
	SF_HOLD_TOO_MUCH,	/* more than the budget waits */
	SF_HOLD_MALFORMED,	/* not a request stream from its start */
};

void
sf_hold_vocab_init(struct sf_hold_vocab *vocab);

/* The request (len bytes, a whole one) was part of a blink or tick. */
void
sf_hold_vocab_learn(struct sf_hold_vocab *vocab, const uint8_t *request,
		    size_t len, bool swapped);

/* Learns every whole request of a stream (what waited in a held
 * client's socket, from a request's start); stops at the first that is
 * incomplete or malformed. */
void
sf_hold_vocab_learn_stream(struct sf_hold_vocab *vocab, const uint8_t *data,
			   size_t len, bool swapped);

/* Adds what `src` learned to `dst` (a frame's requests, once the frame
 * proved a blink or a tick). */
void
sf_hold_vocab_merge(struct sf_hold_vocab *dst, const struct sf_hold_vocab *src);

/* As sf_hold_vocab_merge, the requests of `src` tagged as drawing the
 * blink's `phase` (SF_BLINK_PHASE_UNKNOWN: no tag). */
void
sf_hold_vocab_merge_phase(struct sf_hold_vocab *dst,
			  const struct sf_hold_vocab *src,
			  enum sf_blink_phase phase);

/* The blink phase the waiting requests leave on screen once drawn: that
 * of the last whole request tagged with one phase only, or
 * SF_BLINK_PHASE_UNKNOWN.  A held blinker's deadline waits until this
 * is not HIDDEN, so the caret stays on screen after it. */
enum sf_blink_phase
sf_hold_last_phase(const struct sf_hold_vocab *vocab, const uint8_t *data,
		   size_t len, bool swapped);

/* How long past its deadline a release may wait for a held blinker to
 * draw its caret again: longer than a blink's phase (GTK's caret is on
 * for 800 ms, xterm's off for 300 ms), short next to the staleness. */
#define SF_HOLD_DEADLINE_CARET_GRACE SF_MSEC(1500)

/* Whether the release due at `due` waits at `now`: while what waits
 * ends with a caret hidden (`waiting`), within the grace.  Let go then,
 * the blinker would leave the caret off until its next blink, one more
 * frame; waiting for the one that draws it makes the deadline's frame
 * the last. */
bool
sf_hold_deadline_waits(enum sf_blink_phase waiting, sf_time_t due,
		       sf_time_t now);

/* Whether the requests drawing a surface of class `cls` are noted as
 * maybe its blinks or ticks: not from what draws much (a video, an
 * animation); a blink or a tick is small. */
bool
sf_hold_class_learns(enum sf_class cls);

/* The most a blink (a caret or a cursor cell) and a tick (a clock) draw,
 * in pixels, for their requests to be learnt as such. */
#define SF_HOLD_LEARN_BLINK_AREA (64 * 64)
#define SF_HOLD_LEARN_TICK_AREA (256 * 256)

/* Whether the requests that drew a frame the core held, `area` pixels
 * (the damage's extents) on a surface of class `cls`, are learnt as the
 * client's blinks or ticks.  A frame that scrolled a terminal, held too
 * while the class is blinking, must never be taken for a blink, or the
 * same line printed again would wait. */
bool
sf_hold_frame_learnable(enum sf_class cls, int64_t area);

/* Judges the bytes waiting in a held client's socket (data, len: what a
 * peek returned, from a request's start).  `swapped`: the client's byte
 * order is not the host's.  More than `budget` bytes waiting lets it go
 * whatever they are.  *opcode, if not NULL, gets the major opcode of the
 * first request that was not learned. */
enum sf_hold_verdict
sf_hold_check(const struct sf_hold_vocab *vocab, enum sf_hold_match match,
	      const uint8_t *data, size_t len, bool swapped, size_t budget,
	      uint8_t *opcode);

/* The request's length in bytes from its header (len bytes available),
 * or 0 when the header is incomplete or invalid. */
size_t
sf_hold_request_length(const uint8_t *data, size_t len, bool swapped);

const char *
sf_hold_verdict_name(enum sf_hold_verdict verdict);

#endif /* SF_HOLD_H */
