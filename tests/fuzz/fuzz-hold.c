/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the X request streams the Xorg module reads from a
 * held client's socket (common/hold.c).  Those bytes are whatever a
 * client wrote, peeked before the server parsed them, so every length
 * and opcode in them is untrusted.
 *
 * Input: a flags byte (bit 0: the client's byte order is not the host's;
 * bit 1: ticks, matched by shape, else blinks, matched exactly; bits 2-3:
 * the blink phase the learned requests are tagged with), a byte cutting
 * the rest in two, and a byte for the budget.  The first part is learned
 * as a blink's or tick's requests, as a held frame teaches them; the
 * second is judged as what waits in the socket.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "sf-hold.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz-hold: %s\n", what);
		abort();
	}
}

/* The whole requests at the start of `data`: how many, and their bytes. */
static size_t
whole_requests(const uint8_t *data, size_t len, bool swapped, size_t *count)
{
	size_t at = 0;

	*count = 0;
	while (at < len) {
		size_t n = sf_hold_request_length(data + at, len - at, swapped);
		check(n == 0 || (n >= 4 && n % 4 == 0),
		      "a request length that is not whole words");
		if (n == 0 || n > len - at)
			break;
		at += n;
		(*count)++;
	}
	return at;
}

static void
judge(const struct sf_hold_vocab *vocab, enum sf_hold_match match,
      const uint8_t *data, size_t len, bool swapped, size_t budget)
{
	uint8_t opcode = 0;
	enum sf_hold_verdict v = sf_hold_check(vocab, match, data, len,
					       swapped, budget, &opcode);

	check(v >= SF_HOLD_KEEP && v <= SF_HOLD_MALFORMED,
	      "a verdict out of range");
	check(sf_hold_verdict_name(v)[0] != '?', "a verdict without a name");
	if (len > budget)
		check(v == SF_HOLD_TOO_MUCH, "more than the budget kept");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	bool swapped = data[0] & 1;
	enum sf_hold_match match = data[0] & 2 ? SF_HOLD_MATCH_SHAPE :
						 SF_HOLD_MATCH_EXACT;
	static const enum sf_blink_phase phases[] = {
		SF_BLINK_PHASE_UNKNOWN, SF_BLINK_PHASE_SHOWN,
		SF_BLINK_PHASE_HIDDEN, SF_BLINK_PHASE_UNKNOWN,
	};
	enum sf_blink_phase phase = phases[(data[0] >> 2) & 3];
	const uint8_t *rest = data + 3;
	size_t len = size - 3;
	size_t cut = len * data[1] / 255;
	size_t budget = (size_t)data[2] * 64;

	struct sf_hold_vocab frame, vocab;
	sf_hold_vocab_init(&frame);
	sf_hold_vocab_init(&vocab);
	sf_hold_vocab_learn_stream(&frame, rest, cut, swapped);
	sf_hold_vocab_merge_phase(&vocab, &frame, phase);

	/* What it learned waits again: kept, while the vocabulary held
	 * every request (when full, its oldest go). */
	size_t count;
	size_t learned = whole_requests(rest, cut, swapped, &count);
	judge(&vocab, match, rest, learned, swapped, budget);
	if (count <= SF_HOLD_VOCAB_MAX && learned <= budget)
		check(sf_hold_check(&vocab, match, rest, learned, swapped,
				    budget, NULL) == SF_HOLD_KEEP,
		      "the requests it learned are new");

	/* What waits: any bytes. */
	judge(&vocab, match, rest + cut, len - cut, swapped, budget);
	enum sf_blink_phase last = sf_hold_last_phase(&vocab, rest + cut,
						      len - cut, swapped);
	check(last == SF_BLINK_PHASE_UNKNOWN || last == phase,
	      "a phase no request was tagged with");
	return 0;
}
