/* SPDX-License-Identifier: MIT */
/*
 * stillframectl's X11 backend, the wire: connecting to the X server at
 * $DISPLAY, sending the STILLFRAME extension's requests, and what its
 * errors mean (ctl-x11.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <xcb/xcbext.h>

#include "ctl-x11.h"

_Static_assert(sizeof(struct stillframe_x_query_version_req) ==
	       STILLFRAME_X_QUERY_VERSION_REQ_SIZE, "QueryVersion size");
_Static_assert(sizeof(struct stillframe_x_get_status_req) ==
	       STILLFRAME_X_GET_STATUS_REQ_SIZE, "GetStatus size");
_Static_assert(sizeof(struct stillframe_x_list_windows_req) ==
	       STILLFRAME_X_LIST_WINDOWS_REQ_SIZE, "ListWindows size");
_Static_assert(sizeof(struct stillframe_x_set_window_hint_req) ==
	       STILLFRAME_X_SET_WINDOW_HINT_REQ_SIZE, "SetWindowHint size");
_Static_assert(sizeof(struct stillframe_x_set_paused_req) ==
	       STILLFRAME_X_SET_PAUSED_REQ_SIZE, "SetPaused size");
_Static_assert(sizeof(struct stillframe_x_query_version_reply) ==
	       REPLY_HEADER_SIZE, "QueryVersion reply size");
_Static_assert(sizeof(struct stillframe_x_get_status_reply) ==
	       REPLY_HEADER_SIZE, "GetStatus reply size");
_Static_assert(sizeof(struct stillframe_x_list_windows_reply) ==
	       REPLY_HEADER_SIZE, "ListWindows reply size");
_Static_assert(sizeof(struct stillframe_x_start_trace_reply) ==
	       REPLY_HEADER_SIZE, "StartTrace reply size");
_Static_assert(sizeof(struct stillframe_x_read_trace_reply) ==
	       REPLY_HEADER_SIZE, "ReadTrace reply size");
_Static_assert(sizeof(struct stillframe_x_read_trace_req) ==
	       STILLFRAME_X_READ_TRACE_REQ_SIZE, "ReadTrace size");
_Static_assert(sizeof(struct stillframe_x_output_info) ==
	       STILLFRAME_X_OUTPUT_INFO_SIZE, "OutputInfo size");
_Static_assert(sizeof(struct stillframe_x_window_info) ==
	       STILLFRAME_X_WINDOW_INFO_SIZE, "WindowInfo size");

/* xcb keeps the extension's major opcode here once it has asked. */
static xcb_extension_t stillframe_extension = { STILLFRAME_X_NAME, 0 };

/* --- names --- */

/* The core protocol's errors; the extension defines none of its own. */
static const char *
error_name(uint8_t code)
{
	static const char *const names[] = {
		[XCB_REQUEST] = "BadRequest",
		[XCB_VALUE] = "BadValue",
		[XCB_WINDOW] = "BadWindow",
		[XCB_PIXMAP] = "BadPixmap",
		[XCB_ATOM] = "BadAtom",
		[XCB_CURSOR] = "BadCursor",
		[XCB_FONT] = "BadFont",
		[XCB_MATCH] = "BadMatch",
		[XCB_DRAWABLE] = "BadDrawable",
		[XCB_ACCESS] = "BadAccess",
		[XCB_ALLOC] = "BadAlloc",
		[XCB_COLORMAP] = "BadColor",
		[XCB_G_CONTEXT] = "BadGC",
		[XCB_ID_CHOICE] = "BadIDChoice",
		[XCB_NAME] = "BadName",
		[XCB_LENGTH] = "BadLength",
		[XCB_IMPLEMENTATION] = "BadImplementation",
	};

	return code < COUNT(names) ? names[code] : NULL;
}

static const char *
connection_error_text(int err)
{
	switch (err) {
	case XCB_CONN_ERROR:
		return "no server there, it refused us, or the connection broke";
	case XCB_CONN_CLOSED_EXT_NOTSUPPORTED:
		return "it lacks an extension";
	case XCB_CONN_CLOSED_MEM_INSUFFICIENT:
		return "out of memory";
	case XCB_CONN_CLOSED_REQ_LEN_EXCEED:
		return "a request too long for the server";
	case XCB_CONN_CLOSED_PARSE_ERR:
		return "cannot parse the display name";
	case XCB_CONN_CLOSED_INVALID_SCREEN:
		return "the server has no such screen";
	}
	return "connection error";
}

/* --- the connection --- */

int
lost_connection(const struct xctl *x)
{
	fprintf(stderr,
		"stillframectl: lost the connection to the X server at %s: %s\n",
		x->display,
		connection_error_text(xcb_connection_has_error(x->conn)));
	return 1;
}

int
malformed(const struct xctl *x, const char *what)
{
	fprintf(stderr,
		"stillframectl: the X server at %s sent a malformed %s reply\n",
		x->display, what);
	return 1;
}

/* "the server refused WHAT (BadName: WHY)"; returns the exit status. */
int
refused(const char *what, const xcb_generic_error_t *error, const char *why)
{
	const char *name = error_name(error->error_code);

	fprintf(stderr, "stillframectl: the server refused %s (", what);
	if (name)
		fputs(name, stderr);
	else
		fprintf(stderr, "error %u", error->error_code);
	if (why)
		fprintf(stderr, ": %s", why);
	fputs(")\n", stderr);
	return 1;
}

/* Queues a request of the extension and returns its sequence number, 0
 * if the connection is gone.  xcb writes the opcodes and the length
 * into the first four bytes of `req` (every request here is a multiple
 * of 4 bytes long), and may use the two iovecs before ours. */
unsigned int
send_request(struct xctl *x, enum stillframe_x_request minor, void *req,
	     size_t size, bool has_reply)
{
	struct iovec parts[3] = { { 0 } };
	xcb_protocol_request_t request = {
		.count = 1,
		.ext = &stillframe_extension,
		.opcode = (uint8_t)minor,
		.isvoid = !has_reply,
	};

	parts[2].iov_base = req;
	parts[2].iov_len = size;
	return xcb_send_request(x->conn, XCB_REQUEST_CHECKED, &parts[2],
				&request);
}

/* The reply to request `seq`, its size in *size (header included), or
 * NULL after saying why (an X error, if there was one, goes to
 * `refused` with `what`). */
void *
wait_reply(struct xctl *x, unsigned int seq, const char *what, size_t *size)
{
	xcb_generic_error_t *error = NULL;
	void *reply = seq ? xcb_wait_for_reply(x->conn, seq, &error) : NULL;

	if (error) {
		refused(what, error, NULL);
		free(error);
		free(reply);
		return NULL;
	}
	if (!reply) {
		lost_connection(x);
		return NULL;
	}
	*size = REPLY_HEADER_SIZE +
		(size_t)((const xcb_generic_reply_t *)reply)->length * 4;
	return reply;
}

/* Sends a request without a reply and waits for the server to have
 * handled it.  Returns 0, or 1 with *error set (the caller explains
 * it and frees it) or, when the connection broke, after saying so. */
int
void_request(struct xctl *x, enum stillframe_x_request minor, void *req,
	     size_t size, xcb_generic_error_t **error)
{
	unsigned int seq = send_request(x, minor, req, size, false);

	*error = seq ? xcb_request_check(x->conn,
					 (xcb_void_cookie_t){ seq }) : NULL;
	if (*error)
		return 1;
	/* xcb_request_check also comes back empty-handed when the
	 * connection broke before the answer. */
	if (!seq || xcb_connection_has_error(x->conn))
		return lost_connection(x);
	return 0;
}

int
xctl_connect(const struct sf_ctl_backend *backend,
	     struct sf_ctl_conn **conn)
{
	const char *name = getenv("DISPLAY");
	bool have_name = name && name[0];
	struct xctl *x = calloc(1, sizeof(*x));

	if (!x)
		return sf_ctl_out_of_memory();
	*x = (struct xctl){ .base.backend = backend,
			    .display = have_name ? name : "(none)" };
	/* Handed out at once: the caller disconnects even a failed
	 * connection. */
	*conn = &x->base;
	if (!have_name) {
		fprintf(stderr,
			"stillframectl: no X server to talk to: DISPLAY is not set\n");
		return 1;
	}
	x->conn = xcb_connect(NULL, NULL);

	int err = xcb_connection_has_error(x->conn);

	if (err) {
		fprintf(stderr,
			"stillframectl: cannot connect to the X server at %s: %s\n",
			name, connection_error_text(err));
		return 1;
	}

	const xcb_query_extension_reply_t *ext =
		xcb_get_extension_data(x->conn, &stillframe_extension);

	if (!ext)
		return lost_connection(x);
	if (!ext->present) {
		fprintf(stderr,
			"stillframectl: the X server at %s has no STILLFRAME extension (is Load \"stillframe\" in xorg.conf?)\n",
			name);
		return 1;
	}

	struct stillframe_x_query_version_req req = {
		.major_version = STILLFRAME_X_MAJOR_VERSION,
		.minor_version = STILLFRAME_X_MINOR_VERSION,
	};
	size_t size;
	struct stillframe_x_query_version_reply *rep = wait_reply(
		x, send_request(x, STILLFRAME_X_QUERY_VERSION, &req,
				sizeof(req), true),
		"QueryVersion", &size);

	if (!rep)
		return 1;
	x->major_version = rep->major_version;
	x->minor_version = rep->minor_version;
	free(rep);
	if (x->major_version != STILLFRAME_X_MAJOR_VERSION) {
		fprintf(stderr,
			"stillframectl: the X server at %s speaks STILLFRAME %u.%u; this stillframectl knows only %d.x\n",
			name, x->major_version, x->minor_version,
			STILLFRAME_X_MAJOR_VERSION);
		return 1;
	}
	return 0;
}

void
xctl_disconnect(struct sf_ctl_conn *conn)
{
	struct xctl *x = (struct xctl *)conn;

	if (!x)
		return;
	/* xcb_connect returns a connection object even when it fails;
	 * disconnecting ends a trace recording that is still running. */
	if (x->conn)
		xcb_disconnect(x->conn);
	free(x);
}

size_t
padded(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* A name from the wire, made fit for a "key value" line: control
 * characters become '?', and so do spaces in what goes into a key. */
void
copy_name(char *dst, size_t cap, const uint8_t *src, size_t len, bool key)
{
	if (len >= cap)
		len = cap - 1;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = src[i];

		dst[i] = c < 0x20 || c == 0x7f || (key && c == ' ') ? '?'
								    : (char)c;
	}
	dst[len] = '\0';
}

bool
take_bytes(const uint8_t **p, const uint8_t *end, void *dst, size_t n)
{
	if ((size_t)(end - *p) < n)
		return false;
	memcpy(dst, *p, n);
	*p += n;
	return true;
}

bool
take_name(const uint8_t **p, const uint8_t *end, size_t len, char *dst,
	  size_t cap, bool key)
{
	if ((size_t)(end - *p) < padded(len))
		return false;
	copy_name(dst, cap, *p, len, key);
	*p += padded(len);
	return true;
}

/* Room for the `n` records a reply announces, each `record_size` bytes
 * and a padded name: a count from the wire is believed only once the
 * reply has room for that many. */
int
records_alloc(struct xctl *x, const char *what, void **array, size_t n,
	      size_t elem_size, size_t reply_size, size_t record_size)
{
	if (n > (reply_size - REPLY_HEADER_SIZE) / record_size)
		return malformed(x, what);
	*array = calloc(n ? n : 1, elem_size);
	return *array ? 0 : sf_ctl_out_of_memory();
}

