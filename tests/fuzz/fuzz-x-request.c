/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the STILLFRAME extension's request parsing
 * (xorg-module/request.c), what the X module runs on every request
 * before it looks anything up.  The first byte says the client's byte
 * order (bit 0: the other one, as sproc_dispatch); the rest, cut to a
 * multiple of 4 as the server reads requests, is the request in a
 * buffer of exactly its size, so that a read past it is a finding.
 * Checked: the size verdict follows the size table; swapping is its own
 * inverse and leaves the opcodes; a request that passes has values in
 * its rules, and one refused names one of its own words.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request.h"
#include "stillframe-x.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz-x-request: %s\n", what);
		abort();
	}
}

static uint32_t
word(const uint8_t *request, size_t offset)
{
	uint32_t v;

	memcpy(&v, request + offset, sizeof(v));
	return v;
}

/* The rules again, from the protocol header's words. */
static bool
values_follow_rules(const uint8_t *r)
{
	switch (r[1]) {
	case STILLFRAME_X_SET_WINDOW_HINT: {
		uint32_t num = word(r, 8), den = word(r, 12);
		uint32_t min = word(r, 16), max = word(r, 20);
		uint32_t flags = word(r, 24);
		return (num == 0 || den != 0) && min <= max &&
		       !(flags & ~STILLFRAME_X_FLAG_ALL) &&
		       flags != STILLFRAME_X_FLAG_ALL;
	}
	case STILLFRAME_X_SELECT_EVENTS:
		return !(word(r, 8) & ~STILLFRAME_X_STATE_NOTIFY_MASK);
	case STILLFRAME_X_SET_PAUSED:
		return word(r, 4) <= 1;
	case STILLFRAME_X_SET_OUTPUT_POWER:
		return word(r, 8) <= STILLFRAME_X_POWER_OFF;
	case STILLFRAME_X_READ_TRACE:
		return word(r, 4) >= STILLFRAME_X_TRACE_READ_MIN &&
		       word(r, 4) <= STILLFRAME_X_TRACE_READ_MAX;
	default:
		return true;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 5)
		return 0;
	bool swapped = data[0] & 1;
	size_t n = (size - 1) & ~(size_t)3;
	uint8_t *request = malloc(n), *twice = malloc(n);

	check(request && twice, "out of memory");
	memcpy(request, data + 1, n);

	size_t expected = sf_x_request_size(request[1]);
	enum sf_x_request_check verdict = sf_x_request_check_size(request, n);
	check(expected % 4 == 0, "a request size that is not whole words");
	check((verdict == SF_X_REQUEST_BAD_REQUEST) == (expected == 0),
	      "BadRequest other than for an unknown minor opcode");
	check((verdict == SF_X_REQUEST_OK) == (expected == n),
	      "the size verdict does not follow the size table");
	if (verdict != SF_X_REQUEST_OK)
		goto out;

	memcpy(twice, request, n);
	sf_x_request_swap(twice);
	check(twice[0] == request[0] && twice[1] == request[1],
	      "swapping changed the opcodes");
	sf_x_request_swap(twice);
	check(memcmp(twice, request, n) == 0, "swapping twice is not a no-op");

	if (swapped)
		sf_x_request_swap(request);
	uint32_t bad = 0;
	enum sf_x_request_check values =
		sf_x_request_check_values(request, &bad);
	check(values == SF_X_REQUEST_OK || values == SF_X_REQUEST_BAD_VALUE,
	      "a value verdict that is neither OK nor BadValue");
	check((values == SF_X_REQUEST_OK) == values_follow_rules(request),
	      "the value verdict does not follow the protocol's rules");
	if (values == SF_X_REQUEST_BAD_VALUE) {
		bool own = false;
		for (size_t at = 4; at + 4 <= n; at += 4)
			own = own || word(request, at) == bad;
		check(own, "BadValue names a value not in the request");
	}
out:
	free(request);
	free(twice);
	return 0;
}
