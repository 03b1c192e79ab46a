/* SPDX-License-Identifier: MIT */
/*
 * Inside stillframectl's X11 backend: the connection and the requests
 * of the STILLFRAME extension (ctl-x11-wire.c), used by the backend's
 * operations (ctl-x11.c).  libxcb has no code for the extension, so the
 * requests are the structs of protocol/stillframe-x.h sent with
 * xcb_send_request, which fills in the opcodes and the length and
 * matches replies and errors to requests.  We run on the client side of
 * the byte order, so the server sends everything in ours.
 */
#ifndef STILLFRAMECTL_X11_H
#define STILLFRAMECTL_X11_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xcb/xcb.h>

#include "ctl-backend.h"
#include "stillframe-x.h"

/* Every reply starts with the 32 bytes of an X reply header. */
#define REPLY_HEADER_SIZE 32

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct xctl {
	struct sf_ctl_conn base;
	xcb_connection_t *conn;
	const char *display;		/* for messages */
	uint16_t major_version, minor_version;
};

/* Connected, as a connection of `backend`. */
int
xctl_connect(const struct sf_ctl_backend *backend,
	     struct sf_ctl_conn **conn);

/* NULL-safe. */
void
xctl_disconnect(struct sf_ctl_conn *conn);

/* Each says why and returns the exit status, 1. */
int
lost_connection(const struct xctl *x);

int
malformed(const struct xctl *x, const char *what);

/* "the server refused WHAT (BadName: WHY)". */
int
refused(const char *what, const xcb_generic_error_t *error, const char *why);

/* Queues a request of the extension and returns its sequence number, 0
 * if the connection is gone. */
unsigned int
send_request(struct xctl *x, enum stillframe_x_request minor, void *req,
	     size_t size, bool has_reply);

/* The reply to request `seq`, its size in *size (header included), or
 * NULL after saying why (an X error, if there was one, goes to
 * `refused` with `what`). */
void *
wait_reply(struct xctl *x, unsigned int seq, const char *what, size_t *size);

/* Sends a request without a reply and waits for the server to have
 * handled it.  Returns 0, or 1 with *error set (the caller explains
 * it and frees it) or, when the connection broke, after saying so. */
int
void_request(struct xctl *x, enum stillframe_x_request minor, void *req,
	     size_t size, xcb_generic_error_t **error);

/* A length on the wire, padded to 4 bytes. */
size_t
padded(size_t n);

/* A name from the wire, made fit for a "key value" line: control
 * characters become '?', and so do spaces in what goes into a key. */
void
copy_name(char *dst, size_t cap, const uint8_t *src, size_t len, bool key);

/* A reply's records, read from *p on: `n` bytes into `dst`, or a name
 * of `len` bytes padded to 4 (copy_name); false, with nothing read,
 * where the reply ends first. */
bool
take_bytes(const uint8_t **p, const uint8_t *end, void *dst, size_t n);

bool
take_name(const uint8_t **p, const uint8_t *end, size_t len, char *dst,
	  size_t cap, bool key);

/* Room for the `n` records a reply announces, each `record_size` bytes
 * and a padded name: a count from the wire is believed only once the
 * reply has room for that many. */
int
records_alloc(struct xctl *x, const char *what, void **array, size_t n,
	      size_t elem_size, size_t reply_size, size_t record_size);

#endif /* STILLFRAMECTL_X11_H */
