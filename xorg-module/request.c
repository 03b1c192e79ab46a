/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "request.h"
#include "stillframe-x.h"

/* Sizes by minor opcode; each request is its header and 32-bit words,
 * but QueryVersion, whose two 16-bit fields follow the header. */
static const size_t request_sizes[] = {
	[STILLFRAME_X_QUERY_VERSION] = STILLFRAME_X_QUERY_VERSION_REQ_SIZE,
	[STILLFRAME_X_GET_STATUS] = STILLFRAME_X_GET_STATUS_REQ_SIZE,
	[STILLFRAME_X_LIST_WINDOWS] = STILLFRAME_X_LIST_WINDOWS_REQ_SIZE,
	[STILLFRAME_X_SET_WINDOW_HINT] = STILLFRAME_X_SET_WINDOW_HINT_REQ_SIZE,
	[STILLFRAME_X_SELECT_EVENTS] = STILLFRAME_X_SELECT_EVENTS_REQ_SIZE,
	[STILLFRAME_X_SET_PAUSED] = STILLFRAME_X_SET_PAUSED_REQ_SIZE,
	[STILLFRAME_X_SET_OUTPUT_POWER] =
		STILLFRAME_X_SET_OUTPUT_POWER_REQ_SIZE,
	[STILLFRAME_X_LIST_OUTPUT_POWER] =
		STILLFRAME_X_LIST_OUTPUT_POWER_REQ_SIZE,
	[STILLFRAME_X_START_TRACE] = STILLFRAME_X_START_TRACE_REQ_SIZE,
	[STILLFRAME_X_READ_TRACE] = STILLFRAME_X_READ_TRACE_REQ_SIZE,
	[STILLFRAME_X_STOP_TRACE] = STILLFRAME_X_STOP_TRACE_REQ_SIZE,
};

#define REQUEST_HEADER_SIZE 4

size_t
sf_x_request_size(uint8_t minor)
{
	return minor < sizeof(request_sizes) / sizeof(request_sizes[0]) ?
		       request_sizes[minor] : 0;
}

static uint8_t
minor_of(const void *request)
{
	return ((const uint8_t *)request)[1];
}

enum sf_x_request_check
sf_x_request_check_size(const void *request, size_t n_bytes)
{
	size_t size = sf_x_request_size(minor_of(request));

	if (size == 0)
		return SF_X_REQUEST_BAD_REQUEST;
	return n_bytes == size ? SF_X_REQUEST_OK : SF_X_REQUEST_BAD_LENGTH;
}

/* Fields are read and written with memcpy: the fuzzer's buffers need
 * not be aligned as the server's are. */
static void
swap16_at(uint8_t *p)
{
	uint8_t t = p[0];

	p[0] = p[1];
	p[1] = t;
}

static void
swap32_at(uint8_t *p)
{
	uint8_t t0 = p[0], t1 = p[1];

	p[0] = p[3];
	p[1] = p[2];
	p[2] = t1;
	p[3] = t0;
}

static uint32_t
word_at(const void *request, size_t offset)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)request + offset, sizeof(v));
	return v;
}

void
sf_x_request_swap(void *request)
{
	uint8_t *bytes = request;
	uint8_t minor = minor_of(request);
	size_t size = sf_x_request_size(minor);

	swap16_at(bytes + 2);
	if (minor == STILLFRAME_X_QUERY_VERSION) {
		swap16_at(bytes + 4);
		swap16_at(bytes + 6);
		return;
	}
	for (size_t at = REQUEST_HEADER_SIZE; at + 4 <= size; at += 4)
		swap32_at(bytes + at);
}

const char *
sf_x_hint_problem(const uint32_t *hint, int *item)
{
	uint32_t flags = hint[STILLFRAME_X_HINT_FLAGS];

	if (hint[STILLFRAME_X_HINT_RATE_NUM] &&
	    !hint[STILLFRAME_X_HINT_RATE_DEN]) {
		*item = STILLFRAME_X_HINT_RATE_DEN;
		return "a content rate with a zero denominator";
	}
	if (hint[STILLFRAME_X_HINT_MIN_MHZ] > hint[STILLFRAME_X_HINT_MAX_MHZ]) {
		*item = STILLFRAME_X_HINT_MIN_MHZ;
		return "a refresh range whose minimum is above its maximum";
	}
	*item = STILLFRAME_X_HINT_FLAGS;
	if (flags & ~STILLFRAME_X_FLAG_ALL)
		return "unknown flags";
	if ((flags & STILLFRAME_X_FLAG_ALL) == STILLFRAME_X_FLAG_ALL)
		return "both priorities";
	return NULL;
}

static enum sf_x_request_check
bad_value(uint32_t value, uint32_t *error_value)
{
	*error_value = value;
	return SF_X_REQUEST_BAD_VALUE;
}

enum sf_x_request_check
sf_x_request_check_values(const void *request, uint32_t *error_value)
{
	uint32_t v;

	switch (minor_of(request)) {
	case STILLFRAME_X_SET_WINDOW_HINT: {
		uint32_t hint[STILLFRAME_X_HINT_ITEMS];
		int item;

		/* The items follow the window, in the property's order. */
		for (int i = 0; i < STILLFRAME_X_HINT_ITEMS; i++)
			hint[i] = word_at(request, 8 + 4 * (size_t)i);
		if (sf_x_hint_problem(hint, &item))
			return bad_value(hint[item], error_value);
		break;
	}
	case STILLFRAME_X_SELECT_EVENTS:
		v = word_at(request, 8);
		if (v & ~(uint32_t)STILLFRAME_X_STATE_NOTIFY_MASK)
			return bad_value(v, error_value);
		break;
	case STILLFRAME_X_SET_PAUSED:
		v = word_at(request, 4);
		if (v > 1)
			return bad_value(v, error_value);
		break;
	case STILLFRAME_X_SET_OUTPUT_POWER:
		v = word_at(request, 8);
		if (v > STILLFRAME_X_POWER_OFF)
			return bad_value(v, error_value);
		break;
	case STILLFRAME_X_READ_TRACE:
		v = word_at(request, 4);
		if (v < STILLFRAME_X_TRACE_READ_MIN ||
		    v > STILLFRAME_X_TRACE_READ_MAX)
			return bad_value(v, error_value);
		break;
	default:
		break;
	}
	return SF_X_REQUEST_OK;
}
