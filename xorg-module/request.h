/* SPDX-License-Identifier: MIT */
/*
 * The STILLFRAME extension's requests as bytes, apart from the server:
 * their sizes, the byte swapping of a client of the other byte order,
 * and the rules their values follow.  No server headers, so that a unit
 * test and a libFuzzer target (tests/fuzz/fuzz-x-request.c) run it
 * without Xorg.  A request is the bytes the server read for it.
 */
#ifndef SF_X_REQUEST_H
#define SF_X_REQUEST_H

#include <stddef.h>
#include <stdint.h>

enum sf_x_request_check {
	SF_X_REQUEST_OK,
	SF_X_REQUEST_BAD_REQUEST,	/* no such minor opcode */
	SF_X_REQUEST_BAD_LENGTH,	/* not the request's size */
	SF_X_REQUEST_BAD_VALUE,
};

/* The size in bytes of the request with this minor opcode; 0 when there
 * is no such request. */
size_t
sf_x_request_size(uint8_t minor);

/* Whether the `n_bytes` read for the request (at least its 4-byte
 * header) are its size. */
enum sf_x_request_check
sf_x_request_check_size(const void *request, size_t n_bytes);

/* Swaps every field after the opcodes, the length included, in place:
 * for a request that passed sf_x_request_check_size. */
void
sf_x_request_swap(void *request);

/* The rules of the request's values, in the server's byte order; on
 * SF_X_REQUEST_BAD_VALUE, *error_value is the field at fault. */
enum sf_x_request_check
sf_x_request_check_values(const void *request, uint32_t *error_value);

/* Why the STILLFRAME_X_HINT_ITEMS items of a hint (the property's or
 * SetWindowHint's) are not one, or NULL; *item is the one at fault. */
const char *
sf_x_hint_problem(const uint32_t *hint, int *item);

#endif
