/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "sf-hold.h"
#include "sf-test.h"

/* Requests built in the host's byte order (swapped = false) unless a
 * test says otherwise. */
static size_t
request(uint8_t *buf, uint8_t major, uint8_t data, uint16_t words,
	uint8_t fill, bool swapped)
{
	memset(buf, fill, (size_t)words * 4);
	buf[0] = major;
	buf[1] = data;
	uint16_t w = swapped ? (uint16_t)(words << 8 | words >> 8) : words;
	memcpy(buf + 2, &w, 2);
	return (size_t)words * 4;
}

/* xterm's cursor: ImageText8 of one character, on and off. */
#define IMAGE_TEXT8 76
#define POLY_SEGMENT 66

SF_TEST(an_unlearned_client_is_let_go_by_any_request)
{
	struct sf_hold_vocab v;
	uint8_t buf[64];
	uint8_t op = 0;

	sf_hold_vocab_init(&v);
	size_t n = request(buf, IMAGE_TEXT8, 1, 5, 0xaa, false);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, buf, n, false,
				       4096, &op), SF_HOLD_NEW);
	sf_assert_int_eq(op, IMAGE_TEXT8);
	/* Nothing waiting: it stays held. */
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, buf, 0, false,
				       4096, NULL), SF_HOLD_KEEP);
}

SF_TEST(a_blink_repeated_stays_held_and_new_text_lets_go)
{
	struct sf_hold_vocab v;
	uint8_t on[20], off[20], text[64], queue[256];

	sf_hold_vocab_init(&v);
	size_t n_on = request(on, IMAGE_TEXT8, 1, 5, 0x11, false);
	size_t n_off = request(off, IMAGE_TEXT8, 1, 5, 0x22, false);
	sf_hold_vocab_learn(&v, on, n_on, false);
	sf_hold_vocab_learn(&v, off, n_off, false);

	/* Several blinks queued while held. */
	size_t q = 0;
	for (int i = 0; i < 6; i++) {
		memcpy(queue + q, i % 2 ? off : on, n_on);
		q += n_on;
	}
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, queue, q,
				       false, 4096, NULL), SF_HOLD_KEEP);

	/* A printed character drawn like the cursor, one cell further:
	 * the same shape, other bytes. */
	size_t n = request(text, IMAGE_TEXT8, 1, 5, 0x33, false);
	memcpy(queue + q, text, n);
	uint8_t op = 0;
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, queue, q + n,
				       false, 4096, &op), SF_HOLD_NEW);
	sf_assert_int_eq(op, IMAGE_TEXT8);
}

SF_TEST(a_request_waiting_for_a_reply_lets_go)
{
	struct sf_hold_vocab v;
	uint8_t on[20], queue[64];

	sf_hold_vocab_init(&v);
	size_t n = request(on, IMAGE_TEXT8, 1, 5, 0x11, false);
	sf_hold_vocab_learn(&v, on, n, false);
	memcpy(queue, on, n);
	/* GetInputFocus (43), one word: what XSync sends. */
	size_t m = request(queue + n, 43, 0, 1, 0, false);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, queue, n + m,
				       false, 4096, NULL), SF_HOLD_NEW);
}

SF_TEST(ticks_match_by_shape_not_bytes)
{
	struct sf_hold_vocab v;
	uint8_t tick[40], next[40], other[44];

	sf_hold_vocab_init(&v);
	size_t n = request(tick, POLY_SEGMENT, 0, 10, 0x10, false);
	sf_hold_vocab_learn(&v, tick, n, false);
	request(next, POLY_SEGMENT, 0, 10, 0x20, false);	/* next second */
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, next, n,
				       false, 4096, NULL), SF_HOLD_KEEP);
	/* ...but not for a blink. */
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, next, n,
				       false, 4096, NULL), SF_HOLD_NEW);
	/* Another length is another request. */
	size_t m = request(other, POLY_SEGMENT, 0, 11, 0x10, false);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, other, m,
				       false, 4096, NULL), SF_HOLD_NEW);
	/* Only its header has come: its shape is known already. */
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, other, 8,
				       false, 4096, NULL), SF_HOLD_NEW);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, next, 8,
				       false, 4096, NULL), SF_HOLD_KEEP);
}

SF_TEST(a_tick_is_held_within_the_lengths_its_ticks_sent)
{
	struct sf_hold_vocab v;
	uint8_t req[128];
	size_t n;

	/* xclock's hands: RENDER Trapezoids (minor 10), as many
	 * trapezoids as the hand's angle needs. */
	sf_hold_vocab_init(&v);
	n = request(req, 139, 10, 26, 0x10, false);
	sf_hold_vocab_learn(&v, req, n, false);
	n = request(req, 139, 10, 16, 0x20, false);
	sf_hold_vocab_learn(&v, req, n, false);
	sf_assert_int_eq(v.shape.n, 1);
	for (uint16_t words = 16; words <= 26; words++) {
		n = request(req, 139, 10, words, 0x30, false);
		sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, req, n,
					       false, 4096, NULL),
				 SF_HOLD_KEEP);
	}
	/* Longer or shorter than any tick, or another minor: new. */
	n = request(req, 139, 10, 27, 0x30, false);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, req, n, false,
				       4096, NULL), SF_HOLD_NEW);
	n = request(req, 139, 10, 15, 0x30, false);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, req, n, false,
				       4096, NULL), SF_HOLD_NEW);
	n = request(req, 139, 11, 20, 0x30, false);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, req, n, false,
				       4096, NULL), SF_HOLD_NEW);
}

SF_TEST(an_unused_data_byte_is_not_read)
{
	struct sf_hold_vocab v;
	uint8_t req[28];
	size_t n;

	/* CopyArea (62) leaves its second byte unused; Xlib sends
	 * whatever its buffer held there. */
	sf_hold_vocab_init(&v);
	n = request(req, 62, 0, 7, 0x10, false);
	sf_hold_vocab_learn(&v, req, n, false);
	req[1] = 224;
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, req, n, false,
				       4096, NULL), SF_HOLD_KEEP);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, req, n, false,
				       4096, NULL), SF_HOLD_KEEP);
	/* ImageText8's is the text's length: it counts. */
	n = request(req, IMAGE_TEXT8, 1, 5, 0x10, false);
	sf_hold_vocab_learn(&v, req, n, false);
	req[1] = 2;
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_SHAPE, req, n, false,
				       4096, NULL), SF_HOLD_NEW);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, req, n, false,
				       4096, NULL), SF_HOLD_NEW);
}

SF_TEST(the_last_phase_waiting_is_told_by_its_tagged_requests)
{
	struct sf_hold_vocab frame_on, frame_off, v;
	uint8_t gc[12], on[20], off[20], queue[256];
	size_t n_gc = request(gc, 56, 0, 3, 0x44, false);	/* ChangeGC */
	size_t n_on = request(on, IMAGE_TEXT8, 1, 5, 0x11, false);
	size_t n_off = request(off, IMAGE_TEXT8, 1, 5, 0x22, false);

	/* xterm's two phases: the same GC change, then the cell drawn
	 * with the cursor or without. */
	sf_hold_vocab_init(&frame_on);
	sf_hold_vocab_init(&frame_off);
	sf_hold_vocab_init(&v);
	sf_hold_vocab_learn(&frame_on, gc, n_gc, false);
	sf_hold_vocab_learn(&frame_on, on, n_on, false);
	sf_hold_vocab_learn(&frame_off, gc, n_gc, false);
	sf_hold_vocab_learn(&frame_off, off, n_off, false);
	sf_hold_vocab_merge_phase(&v, &frame_on, SF_BLINK_PHASE_SHOWN);
	sf_hold_vocab_merge_phase(&v, &frame_off, SF_BLINK_PHASE_HIDDEN);

	size_t q = 0;
	memcpy(queue + q, gc, n_gc), q += n_gc;
	memcpy(queue + q, on, n_on), q += n_on;
	memcpy(queue + q, gc, n_gc), q += n_gc;
	sf_assert_int_eq(sf_hold_last_phase(&v, queue, q, false),
			 SF_BLINK_PHASE_SHOWN);
	memcpy(queue + q, off, n_off), q += n_off;
	sf_assert_int_eq(sf_hold_last_phase(&v, queue, q, false),
			 SF_BLINK_PHASE_HIDDEN);
	/* Half of the next one: not drawn yet. */
	memcpy(queue + q, on, n_on);
	sf_assert_int_eq(sf_hold_last_phase(&v, queue, q + 10, false),
			 SF_BLINK_PHASE_HIDDEN);
	sf_assert_int_eq(sf_hold_last_phase(&v, queue, q + n_on, false),
			 SF_BLINK_PHASE_SHOWN);
	/* Only the GC change: nothing said. */
	sf_assert_int_eq(sf_hold_last_phase(&v, gc, n_gc, false),
			 SF_BLINK_PHASE_UNKNOWN);
}

SF_TEST(a_deadline_waits_for_the_caret_within_its_grace)
{
	const sf_time_t due = SF_SEC(30);

	sf_assert(sf_hold_deadline_waits(SF_BLINK_PHASE_HIDDEN, due, due));
	sf_assert(sf_hold_deadline_waits(SF_BLINK_PHASE_HIDDEN, due,
					 due + SF_HOLD_DEADLINE_CARET_GRACE -
						 1));
	/* Waited long enough: the blinker may have stopped. */
	sf_assert(!sf_hold_deadline_waits(SF_BLINK_PHASE_HIDDEN, due,
					  due + SF_HOLD_DEADLINE_CARET_GRACE));
	/* The caret drawn, or nothing known: let go at once. */
	sf_assert(!sf_hold_deadline_waits(SF_BLINK_PHASE_SHOWN, due, due));
	sf_assert(!sf_hold_deadline_waits(SF_BLINK_PHASE_UNKNOWN, due, due));
}

SF_TEST(more_than_the_budget_lets_go_whatever_it_is)
{
	struct sf_hold_vocab v;
	uint8_t on[20], queue[400];

	sf_hold_vocab_init(&v);
	size_t n = request(on, IMAGE_TEXT8, 1, 5, 0x11, false);
	sf_hold_vocab_learn(&v, on, n, false);
	for (size_t i = 0; i < 20; i++)
		memcpy(queue + i * n, on, n);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, queue, 400,
				       false, 4096, NULL), SF_HOLD_KEEP);
	/* The client must never block on a full socket. */
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, queue, 400,
				       false, 399, NULL), SF_HOLD_TOO_MUCH);
	/* One request larger than the budget, only its header here. */
	uint8_t big[8];
	request(big, 72, 2, 0, 0, false);	/* PutImage, BIG-REQUESTS */
	uint32_t words = 100000;
	memcpy(big + 4, &words, 4);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, big, 8,
				       false, 4096, NULL), SF_HOLD_TOO_MUCH);
}

SF_TEST(a_partial_request_waits_for_its_rest)
{
	struct sf_hold_vocab v;
	uint8_t on[20], queue[40];

	sf_hold_vocab_init(&v);
	size_t n = request(on, IMAGE_TEXT8, 1, 5, 0x11, false);
	sf_hold_vocab_learn(&v, on, n, false);
	memcpy(queue, on, n);
	memcpy(queue + n, on, n);
	for (size_t cut = n + 1; cut < 2 * n; cut++)
		sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, queue,
					       cut, false, 4096, NULL),
				 SF_HOLD_KEEP);
}

SF_TEST(a_zero_length_is_malformed)
{
	struct sf_hold_vocab v;
	uint8_t bad[12] = { 76, 1, 0, 0, 1, 0, 0, 0 };	/* big length 1 */

	sf_hold_vocab_init(&v);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, bad, 12,
				       false, 4096, NULL), SF_HOLD_MALFORMED);
	sf_assert_int_eq(sf_hold_request_length(bad, 12, false), 0);
}

SF_TEST(byte_swapped_clients_are_read_in_their_order)
{
	struct sf_hold_vocab v;
	uint8_t on[20], off[20];

	sf_hold_vocab_init(&v);
	size_t n = request(on, IMAGE_TEXT8, 1, 5, 0x11, true);
	sf_assert_int_eq(sf_hold_request_length(on, n, true), 20);
	sf_hold_vocab_learn(&v, on, n, true);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, on, n, true,
				       4096, NULL), SF_HOLD_KEEP);
	request(off, IMAGE_TEXT8, 1, 5, 0x22, true);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, off, n, true,
				       4096, NULL), SF_HOLD_NEW);
}

SF_TEST(a_full_vocabulary_forgets_its_oldest)
{
	struct sf_hold_vocab v;
	uint8_t req[20];

	sf_hold_vocab_init(&v);
	for (int i = 0; i <= SF_HOLD_VOCAB_MAX; i++) {
		size_t n = request(req, IMAGE_TEXT8, 1, 5, (uint8_t)i, false);
		sf_hold_vocab_learn(&v, req, n, false);
		sf_hold_vocab_learn(&v, req, n, false);	/* once only */
	}
	sf_assert_int_eq(v.exact.n, SF_HOLD_VOCAB_MAX);
	sf_assert_int_eq(v.shape.n, 1);
	request(req, IMAGE_TEXT8, 1, 5, 0, false);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, req, 20,
				       false, 4096, NULL), SF_HOLD_NEW);
	request(req, IMAGE_TEXT8, 1, 5, SF_HOLD_VOCAB_MAX, false);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, req, 20,
				       false, 4096, NULL), SF_HOLD_KEEP);
}

SF_TEST(a_frame_learned_apart_is_merged)
{
	struct sf_hold_vocab frame, client;
	uint8_t on[20];

	sf_hold_vocab_init(&frame);
	sf_hold_vocab_init(&client);
	size_t n = request(on, IMAGE_TEXT8, 1, 5, 0x11, false);
	sf_hold_vocab_learn(&frame, on, n, false);
	sf_assert_int_eq(sf_hold_check(&client, SF_HOLD_MATCH_EXACT, on, n,
				       false, 4096, NULL), SF_HOLD_NEW);
	sf_hold_vocab_merge(&client, &frame);
	sf_hold_vocab_merge(&client, &frame);
	sf_assert_int_eq(client.exact.n, 1);
	sf_assert_int_eq(sf_hold_check(&client, SF_HOLD_MATCH_EXACT, on, n,
				       false, 4096, NULL), SF_HOLD_KEEP);
}

SF_TEST(a_stream_is_learned_request_by_request)
{
	struct sf_hold_vocab v;
	uint8_t queue[128];

	sf_hold_vocab_init(&v);
	size_t a = request(queue, 70, 0, 5, 0x11, false);	/* fill */
	size_t b = request(queue + a, 62, 0, 7, 0x22, false);	/* copy */
	/* And the start of a third, not whole yet. */
	request(queue + a + b, IMAGE_TEXT8, 1, 5, 0x33, false);
	sf_hold_vocab_learn_stream(&v, queue, a + b + 8, false);
	sf_assert_int_eq(v.exact.n, 2);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, queue, a + b,
				       false, 4096, NULL), SF_HOLD_KEEP);
	sf_assert_int_eq(sf_hold_check(&v, SF_HOLD_MATCH_EXACT, queue,
				       a + b + 20, false, 4096, NULL),
			 SF_HOLD_NEW);
}

/* Whatever a client writes is read within what was peeked: buffers of
 * the exact size, so that the sanitizer build sees any overread. */
SF_TEST(random_bytes_are_judged_within_their_length)
{
	struct sf_hold_vocab v;
	uint32_t seed = 12345;
	uint8_t on[20];

	sf_hold_vocab_init(&v);
	size_t n = request(on, IMAGE_TEXT8, 1, 5, 0x11, false);
	sf_hold_vocab_learn(&v, on, n, false);
	for (int round = 0; round < 20000; round++) {
		seed = seed * 1103515245u + 12345u;
		size_t len = (seed >> 16) % 96;
		uint8_t *buf = malloc(len ? len : 1);
		sf_assert(buf);
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = (uint8_t)(seed >> 24);
			/* Short lengths now and then, so that whole
			 * requests follow each other. */
			if (i % 4 == 2 && (seed & 0x300) == 0)
				buf[i] = (uint8_t)(seed >> 12 & 7);
			if (i % 4 == 3 && (seed & 0x300) == 0)
				buf[i] = 0;
		}
		enum sf_hold_verdict verdict = sf_hold_check(
			&v, (round & 1) ? SF_HOLD_MATCH_SHAPE :
					  SF_HOLD_MATCH_EXACT,
			buf, len, round & 2, 64, NULL);
		sf_hold_vocab_learn_stream(&v, buf, len, round & 2);
		free(buf);
		sf_assert(verdict <= SF_HOLD_MALFORMED);
	}
}

/* What the Xorg module learns from: small frames of a blinker or ticker,
 * never a video's or an animation's, nor a scroll held while blinking. */
SF_TEST(only_small_frames_of_small_drawers_are_learnt)
{
	sf_assert(sf_hold_class_learns(SF_CLASS_BLINKING));
	sf_assert(sf_hold_class_learns(SF_CLASS_TICKING));
	sf_assert(sf_hold_class_learns(SF_CLASS_STATIC));
	sf_assert(sf_hold_class_learns(SF_CLASS_INTERACTIVE));
	sf_assert(!sf_hold_class_learns(SF_CLASS_VIDEO));
	sf_assert(!sf_hold_class_learns(SF_CLASS_ANIMATING));

	/* A caret cell and a clock's face. */
	sf_assert(sf_hold_frame_learnable(SF_CLASS_BLINKING, 10 * 20));
	sf_assert(sf_hold_frame_learnable(SF_CLASS_BLINKING, 64 * 64));
	sf_assert(sf_hold_frame_learnable(SF_CLASS_TICKING, 164 * 164));
	sf_assert(sf_hold_frame_learnable(SF_CLASS_TICKING, 256 * 256));
	sf_assert(sf_hold_frame_learnable(SF_CLASS_BLINKING, 0));
	/* A terminal's scroll while it blinks; a clock window resized. */
	sf_assert(!sf_hold_frame_learnable(SF_CLASS_BLINKING, 64 * 64 + 1));
	sf_assert(!sf_hold_frame_learnable(SF_CLASS_BLINKING, 164 * 164));
	sf_assert(!sf_hold_frame_learnable(SF_CLASS_TICKING, 256 * 256 + 1));
}

SF_TEST_MAIN()
