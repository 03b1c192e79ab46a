/* SPDX-License-Identifier: MIT */
/* The STILLFRAME extension's requests as bytes (xorg-module/request.c). */
#include <string.h>

#include "request.h"
#include "sf-test.h"
#include "stillframe-x.h"

/* A request in little-endian order: header, then 32-bit words. */
static size_t
build(uint8_t *buf, uint8_t minor, const uint32_t *words, size_t n_words)
{
	size_t size = 4 + 4 * n_words;

	buf[0] = 140;		/* whatever major opcode the server gave */
	buf[1] = minor;
	buf[2] = (uint8_t)(size / 4);
	buf[3] = 0;
	for (size_t i = 0; i < n_words; i++)
		for (int b = 0; b < 4; b++)
			buf[4 + 4 * i + b] = (uint8_t)(words[i] >> (8 * b));
	return size;
}

SF_TEST(every_request_has_its_size_and_nothing_else_is_one)
{
	sf_assert_int_eq(sf_x_request_size(STILLFRAME_X_QUERY_VERSION), 8);
	sf_assert_int_eq(sf_x_request_size(STILLFRAME_X_SET_WINDOW_HINT), 28);
	sf_assert_int_eq(sf_x_request_size(STILLFRAME_X_STOP_TRACE), 4);
	sf_assert_int_eq(sf_x_request_size(STILLFRAME_X_STOP_TRACE + 1), 0);
	sf_assert_int_eq(sf_x_request_size(255), 0);

	uint8_t buf[64];
	uint32_t words[6] = { 0x400001, 30, 1, 0, 0, 0 };
	size_t n = build(buf, STILLFRAME_X_SET_WINDOW_HINT, words, 6);

	sf_assert_int_eq(sf_x_request_check_size(buf, n), SF_X_REQUEST_OK);
	sf_assert_int_eq(sf_x_request_check_size(buf, n - 4),
			 SF_X_REQUEST_BAD_LENGTH);
	sf_assert_int_eq(sf_x_request_check_size(buf, n + 4),
			 SF_X_REQUEST_BAD_LENGTH);
	buf[1] = 200;
	sf_assert_int_eq(sf_x_request_check_size(buf, n),
			 SF_X_REQUEST_BAD_REQUEST);
}

SF_TEST(swapping_turns_each_field_round_and_back)
{
	uint8_t buf[64], copy[64];
	uint32_t words[6] = { 0x11223344, 0x55667788, 1, 2, 3, 0xa0b0c0d0 };
	size_t n = build(buf, STILLFRAME_X_SET_WINDOW_HINT, words, 6);

	memcpy(copy, buf, n);
	sf_x_request_swap(copy);
	sf_assert_int_eq(copy[1], STILLFRAME_X_SET_WINDOW_HINT);
	sf_assert_int_eq(copy[2], 0);
	sf_assert_int_eq(copy[3], 7);		/* the length, 16 bits */
	sf_assert_int_eq(copy[4], 0x11);	/* the window, 32 bits */
	sf_assert_int_eq(copy[7], 0x44);
	sf_assert_int_eq(copy[24], 0xa0);	/* the flags, first byte now */
	sf_x_request_swap(copy);
	sf_assert(memcmp(copy, buf, n) == 0);

	/* QueryVersion's fields are two 16-bit ones. */
	uint8_t qv[8] = { 140, STILLFRAME_X_QUERY_VERSION, 2, 0, 1, 0, 2, 0 };
	sf_x_request_swap(qv);
	sf_assert_int_eq(qv[4], 0);
	sf_assert_int_eq(qv[5], 1);
	sf_assert_int_eq(qv[7], 2);
}

static enum sf_x_request_check
values(uint8_t minor, const uint32_t *words, size_t n_words, uint32_t *bad)
{
	uint8_t buf[64];

	build(buf, minor, words, n_words);
	*bad = 0xdeadbeef;
	return sf_x_request_check_values(buf, bad);
}

SF_TEST(values_out_of_their_rules_are_named)
{
	uint32_t bad;
	const uint32_t hint_ok[6] = { 1, 24, 1, 30000, 60000, 0 };
	const uint32_t zero_den[6] = { 1, 24, 0, 0, 0, 0 };
	const uint32_t min_above[6] = { 1, 0, 0, 60000, 30000, 0 };
	const uint32_t both[6] = { 1, 0, 0, 0, 0, STILLFRAME_X_FLAG_ALL };
	const uint32_t unknown_flag[6] = { 1, 0, 0, 0, 0, 1u << 7 };

	sf_assert_int_eq(values(STILLFRAME_X_SET_WINDOW_HINT, hint_ok, 6, &bad),
			 SF_X_REQUEST_OK);
	sf_assert_int_eq(values(STILLFRAME_X_SET_WINDOW_HINT, zero_den, 6,
				&bad), SF_X_REQUEST_BAD_VALUE);
	sf_assert_int_eq(bad, 0);		/* the denominator */
	sf_assert_int_eq(values(STILLFRAME_X_SET_WINDOW_HINT, min_above, 6,
				&bad), SF_X_REQUEST_BAD_VALUE);
	sf_assert_int_eq(bad, 60000);		/* the minimum */
	sf_assert_int_eq(values(STILLFRAME_X_SET_WINDOW_HINT, both, 6, &bad),
			 SF_X_REQUEST_BAD_VALUE);
	sf_assert_int_eq(bad, STILLFRAME_X_FLAG_ALL);
	sf_assert_int_eq(values(STILLFRAME_X_SET_WINDOW_HINT, unknown_flag, 6,
				&bad), SF_X_REQUEST_BAD_VALUE);

	const uint32_t paused[1] = { 2 }, power[2] = { 77, 3 };
	const uint32_t mask[2] = { 1, 2 }, read_small[1] = { 511 };
	const uint32_t read_ok[1] = { 4096 };
	sf_assert_int_eq(values(STILLFRAME_X_SET_PAUSED, paused, 1, &bad),
			 SF_X_REQUEST_BAD_VALUE);
	sf_assert_int_eq(bad, 2);
	sf_assert_int_eq(values(STILLFRAME_X_SET_OUTPUT_POWER, power, 2, &bad),
			 SF_X_REQUEST_BAD_VALUE);
	sf_assert_int_eq(bad, 3);
	sf_assert_int_eq(values(STILLFRAME_X_SELECT_EVENTS, mask, 2, &bad),
			 SF_X_REQUEST_BAD_VALUE);
	sf_assert_int_eq(values(STILLFRAME_X_READ_TRACE, read_small, 1, &bad),
			 SF_X_REQUEST_BAD_VALUE);
	sf_assert_int_eq(bad, 511);
	sf_assert_int_eq(values(STILLFRAME_X_READ_TRACE, read_ok, 1, &bad),
			 SF_X_REQUEST_OK);
	/* Requests without rules have nothing to refuse. */
	sf_assert_int_eq(values(STILLFRAME_X_GET_STATUS, NULL, 0, &bad),
			 SF_X_REQUEST_OK);
}

SF_TEST_MAIN()
