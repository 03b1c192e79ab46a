/* SPDX-License-Identifier: MIT */
/*
 * stillframectl's X11 backend: status, top, pause, resume and hint
 * through the STILLFRAME extension of the X server at $DISPLAY.  libxcb
 * has no code for the extension, so the requests are the structs of
 * protocol/stillframe-x.h sent with xcb_send_request, which fills in the
 * opcodes and the length and matches replies and errors to requests.
 * We run on the client side of the byte order, so the server sends
 * everything in ours.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <xcb/xcb.h>
#include <xcb/xcbext.h>

#include "stillframe-x.h"
#include "stillframectl-trace.h"
#include "stillframectl-x.h"

/* Every reply starts with the 32 bytes of an X reply header. */
#define REPLY_HEADER_SIZE 32

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

struct xctl {
	xcb_connection_t *conn;
	const char *display;		/* for messages */
	uint16_t major_version, minor_version;
};

/* --- names --- */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *
state_name(uint8_t state)
{
	static const char *const names[] = {
		[STILLFRAME_X_STATE_ACTIVE] = "active",
		[STILLFRAME_X_STATE_LOW_REFRESH] = "low-refresh",
		[STILLFRAME_X_STATE_DIM] = "dim",
		[STILLFRAME_X_STATE_STANDBY] = "standby",
		[STILLFRAME_X_STATE_OFF] = "off",
	};

	return state < COUNT(names) ? names[state] : "unknown";
}

static const char *
class_name(uint8_t cls)
{
	static const char *const names[] = {
		[STILLFRAME_X_CLASS_STATIC] = "static",
		[STILLFRAME_X_CLASS_INTERACTIVE] = "interactive",
		[STILLFRAME_X_CLASS_ANIMATING] = "animating",
		[STILLFRAME_X_CLASS_VIDEO] = "video",
		[STILLFRAME_X_CLASS_BLINKING] = "blinking",
		[STILLFRAME_X_CLASS_TICKING] = "ticking",
	};

	return cls < COUNT(names) ? names[cls] : "unknown";
}

/* The DPMS levels of the DPMS extension. */
static const char *
dpms_name(uint8_t dpms)
{
	static const char *const names[] = {
		"on", "standby", "suspend", "off",
	};

	return dpms < COUNT(names) ? names[dpms] : "unknown";
}

static const struct {
	uint8_t bit;
	const char *name;
} window_flags[] = {
	{ STILLFRAME_X_WINDOW_HELD, "held" },
	{ STILLFRAME_X_WINDOW_ESSENTIAL, "essential" },
	{ STILLFRAME_X_WINDOW_BACKGROUND, "background" },
	{ STILLFRAME_X_WINDOW_HINTED, "hinted" },
	{ STILLFRAME_X_WINDOW_GAME, "game" },
};

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

static int
lost_connection(const struct xctl *x)
{
	fprintf(stderr,
		"stillframectl: lost the connection to the X server at %s: %s\n",
		x->display,
		connection_error_text(xcb_connection_has_error(x->conn)));
	return 1;
}

static int
malformed(const struct xctl *x, const char *what)
{
	fprintf(stderr,
		"stillframectl: the X server at %s sent a malformed %s reply\n",
		x->display, what);
	return 1;
}

static int
out_of_memory(void)
{
	fprintf(stderr, "stillframectl: out of memory\n");
	return 1;
}

/* "the server refused WHAT (BadName: WHY)"; returns the exit status. */
static int
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
static unsigned int
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
static void *
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
static int
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

static int
xctl_connect(struct xctl *x)
{
	const char *name = getenv("DISPLAY");
	bool have_name = name && name[0];

	*x = (struct xctl){ .display = have_name ? name : "(none)" };
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

static void
xctl_disconnect(struct xctl *x)
{
	/* xcb_connect returns a connection object even when it fails. */
	if (x->conn)
		xcb_disconnect(x->conn);
	x->conn = NULL;
}

/* --- a status report: GetStatus and ListWindows --- */

struct x_output {
	struct stillframe_x_output_info info;
	char name[256];			/* name_len is 8 bits */
};

struct x_window {
	struct stillframe_x_window_info info;
	char label[256];		/* the module keeps 63 bytes */
};

struct x_status {
	bool paused;
	uint32_t tracked;		/* windows the module tracks */
	uint32_t held_clients;
	uint32_t idle_ms;
	struct x_output *outputs;
	size_t n_outputs;
	struct x_window *windows;
	size_t n_windows;
};

static void
status_free(struct x_status *st)
{
	free(st->outputs);
	free(st->windows);
	*st = (struct x_status){ 0 };
}

static size_t
padded(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* A name from the wire, made fit for a "key value" line: control
 * characters become '?', and so do spaces in what goes into a key. */
static void
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

/* Room for the `n` records a reply announces, each `record_size` bytes
 * and a padded name: a count from the wire is believed only once the
 * reply has room for that many. */
static int
records_alloc(struct xctl *x, const char *what, void **array, size_t n,
	      size_t elem_size, size_t reply_size, size_t record_size)
{
	if (n > (reply_size - REPLY_HEADER_SIZE) / record_size)
		return malformed(x, what);
	*array = calloc(n ? n : 1, elem_size);
	return *array ? 0 : out_of_memory();
}

static int
parse_status(struct xctl *x, struct x_status *st, const uint8_t *reply,
	     size_t size)
{
	struct stillframe_x_get_status_reply head;

	if (size < sizeof(head))
		return malformed(x, "GetStatus");
	memcpy(&head, reply, sizeof(head));
	st->paused = head.paused != 0;
	st->tracked = head.n_windows;
	st->held_clients = head.held_clients;
	st->idle_ms = head.idle_ms;

	int ret = records_alloc(x, "GetStatus", (void **)&st->outputs,
				head.n_outputs, sizeof(*st->outputs), size,
				STILLFRAME_X_OUTPUT_INFO_SIZE);

	if (ret != 0)
		return ret;

	const uint8_t *p = reply + sizeof(head), *end = reply + size;

	for (uint32_t i = 0; i < head.n_outputs; i++) {
		struct x_output *o = &st->outputs[i];

		if ((size_t)(end - p) < STILLFRAME_X_OUTPUT_INFO_SIZE)
			return malformed(x, "GetStatus");
		memcpy(&o->info, p, STILLFRAME_X_OUTPUT_INFO_SIZE);
		p += STILLFRAME_X_OUTPUT_INFO_SIZE;

		size_t len = o->info.name_len;

		if ((size_t)(end - p) < padded(len))
			return malformed(x, "GetStatus");
		copy_name(o->name, sizeof(o->name), p, len, true);
		if (!o->name[0])
			snprintf(o->name, sizeof(o->name), "0x%x",
				 o->info.output);
		p += padded(len);
		st->n_outputs++;
	}
	return 0;
}

static int
parse_windows(struct xctl *x, struct x_status *st, const uint8_t *reply,
	      size_t size)
{
	struct stillframe_x_list_windows_reply head;

	if (size < sizeof(head))
		return malformed(x, "ListWindows");
	memcpy(&head, reply, sizeof(head));

	int ret = records_alloc(x, "ListWindows", (void **)&st->windows,
				head.n_windows, sizeof(*st->windows), size,
				STILLFRAME_X_WINDOW_INFO_SIZE);

	if (ret != 0)
		return ret;

	const uint8_t *p = reply + sizeof(head), *end = reply + size;

	for (uint32_t i = 0; i < head.n_windows; i++) {
		struct x_window *w = &st->windows[i];

		if ((size_t)(end - p) < STILLFRAME_X_WINDOW_INFO_SIZE)
			return malformed(x, "ListWindows");
		memcpy(&w->info, p, STILLFRAME_X_WINDOW_INFO_SIZE);
		p += STILLFRAME_X_WINDOW_INFO_SIZE;

		size_t len = w->info.name_len;

		if ((size_t)(end - p) < padded(len))
			return malformed(x, "ListWindows");
		copy_name(w->label, sizeof(w->label), p, len, false);
		/* The module's own name for a window without WM_CLASS. */
		if (!w->label[0])
			snprintf(w->label, sizeof(w->label), "window 0x%x",
				 w->info.window);
		p += padded(len);
		st->n_windows++;
	}
	return 0;
}

static int
fetch_status(struct xctl *x, struct x_status *st)
{
	struct stillframe_x_get_status_req status_req = { 0 };
	struct stillframe_x_list_windows_req windows_req = { 0 };
	size_t size;

	*st = (struct x_status){ 0 };
	/* Both before waiting: one round trip. */
	unsigned int status_seq = send_request(x, STILLFRAME_X_GET_STATUS,
					       &status_req,
					       sizeof(status_req), true);
	unsigned int windows_seq = send_request(x, STILLFRAME_X_LIST_WINDOWS,
						&windows_req,
						sizeof(windows_req), true);
	uint8_t *reply = wait_reply(x, status_seq, "GetStatus", &size);
	int ret = reply ? parse_status(x, st, reply, size) : 1;

	free(reply);
	if (ret != 0) {
		if (windows_seq)
			xcb_discard_reply(x->conn, windows_seq);
		return ret;
	}
	reply = wait_reply(x, windows_seq, "ListWindows", &size);
	ret = reply ? parse_windows(x, st, reply, size) : 1;
	free(reply);
	return ret;
}

/* --- output, as "key value" lines or JSON members --- */

struct emitter {
	bool json;
	bool first;			/* no JSON member yet */
};

/* `value` goes out as it is (a number, true, false) unless `text`. */
static void
emit(struct emitter *e, const char *key, const char *value, bool text)
{
	if (!e->json) {
		printf("%s %s\n", key, value);
		return;
	}
	if (!e->first)
		fputs(", ", stdout);
	e->first = false;
	sf_ctl_json_string(key);
	fputs(": ", stdout);
	if (text)
		sf_ctl_json_string(value);
	else
		fputs(value, stdout);
}

static void
emit_u32(struct emitter *e, const char *key, uint32_t value)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", value);
	emit(e, key, text, false);
}

static const char *
output_key(char *key, size_t cap, const struct x_output *o, const char *what)
{
	snprintf(key, cap, "output.%s.%s", o->name, what);
	return key;
}

static void
emit_output(struct emitter *e, const struct x_output *o)
{
	const struct stillframe_x_output_info *info = &o->info;
	char key[sizeof(o->name) + 32];
	size_t cap = sizeof(key);

	emit(e, output_key(key, cap, o, "state"), state_name(info->state),
	     true);
	emit_u32(e, output_key(key, cap, o, "refresh_mhz"),
		 info->refresh_mhz);
	emit_u32(e, output_key(key, cap, o, "native_mhz"), info->native_mhz);
	emit(e, output_key(key, cap, o, "dpms"), dpms_name(info->dpms), true);
	emit_u32(e, output_key(key, cap, o, "screen"), info->screen);
	emit_u32(e, output_key(key, cap, o, "damage_events"),
		 info->damage_events);
	emit_u32(e, output_key(key, cap, o, "held"), info->held);
}

/* "held,hinted", or "-" for none. */
static void
flags_text(uint8_t flags, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < COUNT(window_flags); i++)
		if (flags & window_flags[i].bit)
			len += (size_t)snprintf(buf + len, cap - len, "%s%s",
						len ? "," : "",
						window_flags[i].name);
	if (!len)
		snprintf(buf, cap, "-");
}

static void
json_flags(uint8_t flags)
{
	bool first = true;

	putchar('[');
	for (size_t i = 0; i < COUNT(window_flags); i++) {
		if (!(flags & window_flags[i].bit))
			continue;
		fputs(first ? "" : ", ", stdout);
		sf_ctl_json_string(window_flags[i].name);
		first = false;
	}
	putchar(']');
}

static void
print_window(const struct x_window *w, bool json)
{
	const struct stillframe_x_window_info *info = &w->info;

	if (json) {
		printf("{\"id\": %u, \"window\": \"0x%x\", \"class\": ",
		       info->window, info->window);
		sf_ctl_json_string(class_name(info->cls));
		printf(", \"rate_mhz\": %u, \"damage\": %u, \"held\": %u, "
		       "\"requests\": %u, \"client\": \"0x%x\", \"flags\": ",
		       info->rate_mhz, info->damage_events, info->held,
		       info->requests, info->client);
		json_flags(info->flags);
		fputs(", \"label\": ", stdout);
		sf_ctl_json_string(w->label);
		putchar('}');
		return;
	}

	char flags[64];

	flags_text(info->flags, flags, sizeof(flags));
	printf("window.0x%x class=%s rate_mhz=%u damage=%u held=%u requests=%u client=0x%x flags=%s label=%s\n",
	       info->window, class_name(info->cls), info->rate_mhz,
	       info->damage_events, info->held, info->requests, info->client,
	       flags, w->label);
}

/* Output power (1.1), defined with the output command below. */
struct x_power;

static int
fetch_power(struct xctl *x, struct x_power **out, size_t *n_out);

static void
emit_output_power(struct emitter *e, const struct x_output *o,
		  const struct x_power *power, size_t n_power);

static void
print_status(const struct xctl *x, const struct x_status *st,
	     const struct x_power *power, size_t n_power, bool json)
{
	struct emitter e = { .json = json, .first = true };
	char version[16];

	if (json)
		putchar('{');
	emit(&e, "backend", "x11", true);
	emit(&e, "display", x->display, true);
	snprintf(version, sizeof(version), "%u.%u", x->major_version,
		 x->minor_version);
	emit(&e, "extension.version", version, true);
	emit(&e, "policy.paused", st->paused ? "true" : "false", false);
	for (size_t i = 0; i < st->n_outputs; i++) {
		emit_output(&e, &st->outputs[i]);
		emit_output_power(&e, &st->outputs[i], power, n_power);
	}
	emit_u32(&e, "clients.held", st->held_clients);
	/* The module counts releases once, for all outputs. */
	if (st->n_outputs)
		emit_u32(&e, "clients.releases",
			 st->outputs[0].info.releases);
	emit_u32(&e, "user.idle_ms", st->idle_ms);
	emit_u32(&e, "windows.tracked", st->tracked);
	if (json)
		fputs(", \"windows\": [", stdout);
	for (size_t i = 0; i < st->n_windows; i++) {
		if (json && i)
			fputs(", ", stdout);
		print_window(&st->windows[i], json);
	}
	if (json)
		fputs("]}\n", stdout);
}

int
sf_ctl_x_status(bool json)
{
	struct xctl x;
	struct x_status st = { 0 };
	struct x_power *power = NULL;
	size_t n_power = 0;
	int ret = xctl_connect(&x);

	if (ret == 0)
		ret = fetch_status(&x, &st);
	/* A 1.0 server has no output power to show. */
	if (ret == 0 && x.minor_version >= 1)
		ret = fetch_power(&x, &power, &n_power);
	if (ret == 0)
		print_status(&x, &st, power, n_power, json);
	free(power);
	status_free(&st);
	xctl_disconnect(&x);
	return ret;
}

/* --- top --- */

struct top_row {
	const struct x_window *w;
	double damage, held, requests;	/* per second */
};

/* A counter's growth per second; a window that is new (or an XID that
 * was reused, so the counter went down) counts from 0. */
static double
rate(uint32_t now, const uint32_t *before, double seconds)
{
	uint32_t delta = before && now >= *before ? now - *before : now;

	return (double)delta / seconds;
}

static int
compare_rows(const void *a, const void *b)
{
	const struct top_row *ra = a, *rb = b;
	uint32_t ia = ra->w->info.window, ib = rb->w->info.window;

	if (ra->damage != rb->damage)
		return ra->damage < rb->damage ? 1 : -1;
	return ia < ib ? -1 : ia > ib;
}

static const struct x_window *
find_window(const struct x_status *st, uint32_t window)
{
	for (size_t i = 0; i < st->n_windows; i++)
		if (st->windows[i].info.window == window)
			return &st->windows[i];
	return NULL;
}

static const struct x_output *
find_output(const struct x_status *st, uint32_t output)
{
	for (size_t i = 0; i < st->n_outputs; i++)
		if (st->outputs[i].info.output == output)
			return &st->outputs[i];
	return NULL;
}

static bool
quiet(const struct top_row *row)
{
	return row->damage == 0 && row->held == 0 &&
	       row->w->info.cls == STILLFRAME_X_CLASS_STATIC;
}

static void
print_top_json(const struct x_status *now, const struct x_status *before,
	       const struct top_row *rows, double elapsed,
	       double since_start)
{
	printf("{\"time_s\": %.3f, \"interval_s\": %.3f, \"outputs\": [",
	       since_start, elapsed);
	for (size_t i = 0; i < now->n_outputs; i++) {
		const struct x_output *o = &now->outputs[i];
		const struct x_output *b = find_output(before, o->info.output);

		printf("%s{\"name\": ", i ? ", " : "");
		sf_ctl_json_string(o->name);
		fputs(", \"state\": ", stdout);
		sf_ctl_json_string(state_name(o->info.state));
		printf(", \"refresh_hz\": %.3f, \"damage_per_s\": %.2f, "
		       "\"held_per_s\": %.2f}",
		       o->info.refresh_mhz / 1000.0,
		       rate(o->info.damage_events,
			    b ? &b->info.damage_events : NULL, elapsed),
		       rate(o->info.held, b ? &b->info.held : NULL, elapsed));
	}
	fputs("], \"windows\": [", stdout);
	for (size_t i = 0; i < now->n_windows; i++) {
		const struct x_window *w = rows[i].w;

		printf("%s{\"id\": %u, \"window\": \"0x%x\", "
		       "\"damage_per_s\": %.2f, \"held_per_s\": %.2f, "
		       "\"requests_per_s\": %.2f, \"class\": ",
		       i ? ", " : "", w->info.window, w->info.window,
		       rows[i].damage, rows[i].held, rows[i].requests);
		sf_ctl_json_string(class_name(w->info.cls));
		fputs(", \"flags\": ", stdout);
		json_flags(w->info.flags);
		fputs(", \"label\": ", stdout);
		sf_ctl_json_string(w->label);
		putchar('}');
	}
	fputs("]}\n", stdout);
}

static void
print_top_table(const struct x_status *now, const struct x_status *before,
		const struct top_row *rows, double elapsed,
		double since_start, bool all)
{
	printf("%-12s %-12s %9s %9s %8s   at %.0f s\n", "output", "state",
	       "refresh", "damage/s", "held/s", since_start);
	for (size_t i = 0; i < now->n_outputs; i++) {
		const struct x_output *o = &now->outputs[i];
		const struct x_output *b = find_output(before, o->info.output);

		printf("%-12s %-12s %6.2f Hz %9.1f %8.1f\n", o->name,
		       state_name(o->info.state), o->info.refresh_mhz / 1000.0,
		       rate(o->info.damage_events,
			    b ? &b->info.damage_events : NULL, elapsed),
		       rate(o->info.held, b ? &b->info.held : NULL, elapsed));
	}
	printf("%8s %8s %10s  %-12s %-10s  %s\n", "damage/s", "held/s",
	       "requests/s", "class", "window", "label");

	size_t n_quiet = 0;

	for (size_t i = 0; i < now->n_windows; i++) {
		const struct x_window *w = rows[i].w;
		char id[16];

		/* Most windows are static ones nobody touches. */
		if (!all && quiet(&rows[i])) {
			n_quiet++;
			continue;
		}
		snprintf(id, sizeof(id), "0x%x", w->info.window);
		printf("%8.1f %8.1f %10.1f  %-12s %-10s  %s\n", rows[i].damage,
		       rows[i].held, rows[i].requests,
		       class_name(w->info.cls), id, w->label);
	}
	if (n_quiet)
		printf("(%zu quiet static window%s not shown; --all shows them)\n",
		       n_quiet, n_quiet == 1 ? "" : "s");
	putchar('\n');
}

int
sf_ctl_x_top(double interval, long count, bool json, bool all)
{
	struct xctl x;
	struct x_status before = { 0 }, now = { 0 };
	int ret = xctl_connect(&x);
	double start = sf_ctl_monotonic_seconds(), t_before = start;

	if (ret == 0)
		ret = fetch_status(&x, &before);
	for (long sample = 0; ret == 0 && (count == 0 || sample < count);
	     sample++) {
		sf_ctl_sleep_seconds(interval);
		ret = fetch_status(&x, &now);
		if (ret != 0)
			break;

		double t_now = sf_ctl_monotonic_seconds();
		double elapsed = t_now - t_before;
		struct top_row *rows = calloc(now.n_windows + 1,
					      sizeof(*rows));

		if (!rows) {
			ret = out_of_memory();
			break;
		}
		for (size_t i = 0; i < now.n_windows; i++) {
			const struct x_window *w = &now.windows[i];
			const struct x_window *b = find_window(&before,
							       w->info.window);

			rows[i] = (struct top_row){
				.w = w,
				.damage = rate(w->info.damage_events,
					       b ? &b->info.damage_events
						 : NULL, elapsed),
				.held = rate(w->info.held,
					     b ? &b->info.held : NULL,
					     elapsed),
				.requests = rate(w->info.requests,
						 b ? &b->info.requests : NULL,
						 elapsed),
			};
		}
		qsort(rows, now.n_windows, sizeof(*rows), compare_rows);
		if (json)
			print_top_json(&now, &before, rows, elapsed,
				       t_now - start);
		else
			print_top_table(&now, &before, rows, elapsed,
					t_now - start, all);
		fflush(stdout);
		free(rows);
		status_free(&before);
		before = now;
		now = (struct x_status){ 0 };
		t_before = t_now;
	}
	status_free(&now);
	status_free(&before);
	xctl_disconnect(&x);
	return ret;
}

/* --- pause, resume, hint --- */

int
sf_ctl_x_pause(bool paused)
{
	struct xctl x;
	struct x_status st = { 0 };
	struct stillframe_x_set_paused_req req = { .paused = paused };
	xcb_generic_error_t *error = NULL;
	int ret = xctl_connect(&x);

	if (ret == 0)
		ret = void_request(&x, STILLFRAME_X_SET_PAUSED, &req,
				   sizeof(req), &error);
	if (error) {
		refused(paused ? "to pause" : "to resume", error,
			error->error_code == XCB_ACCESS ?
				"untrusted clients may not steer stillframe" :
				NULL);
		free(error);
	}
	/* Say so if it did not take. */
	if (ret == 0)
		ret = fetch_status(&x, &st);
	if (ret == 0 && st.paused != paused) {
		fprintf(stderr, "stillframectl: stillframe did not %s\n",
			paused ? "pause" : "resume");
		ret = 1;
	}
	status_free(&st);
	xctl_disconnect(&x);
	return ret;
}

int
sf_ctl_x_get_paused(bool *paused)
{
	struct xctl x;
	struct x_status st = { 0 };
	int ret = xctl_connect(&x);

	if (ret == 0)
		ret = fetch_status(&x, &st);
	if (ret == 0)
		*paused = st.paused;
	status_free(&st);
	xctl_disconnect(&x);
	return ret;
}

int
sf_ctl_x_hint(uint32_t window, const struct sf_ctl_hints *h)
{
	struct xctl x;
	struct stillframe_x_set_window_hint_req req = {
		.window = window,
		.rate_num = h->rate_num,
		.rate_den = h->rate_den,
		.min_mhz = h->min_mhz,
		/* On X, a range has no "0 is no upper bound" (the module
		 * refuses min > max); the largest maximum means the same
		 * to the selector. */
		.max_mhz = h->max_mhz == 0 && h->min_mhz != 0 ? UINT32_MAX
							       : h->max_mhz,
		.flags = h->priority == SF_CTL_PRIORITY_ESSENTIAL ?
				 STILLFRAME_X_FLAG_ESSENTIAL :
			 h->priority == SF_CTL_PRIORITY_BACKGROUND ?
				 STILLFRAME_X_FLAG_BACKGROUND : 0,
	};
	xcb_generic_error_t *error = NULL;
	int ret = xctl_connect(&x);

	if (ret == 0)
		ret = void_request(&x, STILLFRAME_X_SET_WINDOW_HINT, &req,
				   sizeof(req), &error);
	if (error) {
		char what[64], why[512];

		snprintf(what, sizeof(what), "the hint for window 0x%x",
			 window);
		switch (error->error_code) {
		case XCB_ACCESS:
			/* Anyone may change the property. */
			if (!req.rate_num && !req.min_mhz && !req.max_mhz &&
			    !req.flags)
				snprintf(why, sizeof(why),
					 "SetWindowHint only works on the caller's own windows; "
					 "remove the %s property with xprop instead: "
					 "xprop -id 0x%x -remove %s",
					 STILLFRAME_X_HINT_PROPERTY, window,
					 STILLFRAME_X_HINT_PROPERTY);
			else
				snprintf(why, sizeof(why),
					 "SetWindowHint only works on the caller's own windows; "
					 "set the %s property with xprop instead: "
					 "xprop -id 0x%x -f %s 32c -set %s %u,%u,%u,%u,%u",
					 STILLFRAME_X_HINT_PROPERTY, window,
					 STILLFRAME_X_HINT_PROPERTY,
					 STILLFRAME_X_HINT_PROPERTY,
					 req.rate_num, req.rate_den,
					 req.min_mhz, req.max_mhz, req.flags);
			break;
		case XCB_WINDOW:
			snprintf(why, sizeof(why), "no such window");
			break;
		case XCB_MATCH:
			snprintf(why, sizeof(why),
				 "not a top-level window; 'stillframectl status' lists those stillframe tracks");
			break;
		case XCB_VALUE:
			snprintf(why, sizeof(why),
				 "it does not accept these values");
			break;
		default:
			why[0] = '\0';
			break;
		}
		refused(what, error, why[0] ? why : NULL);
		free(error);
	}
	xctl_disconnect(&x);
	return ret;
}

/* --- output power: ListOutputPower and SetOutputPower (1.1) --- */

struct x_power {
	struct stillframe_x_output_power_info info;
	char name[256];
};

static const char *
kind_name(uint8_t kind)
{
	static const char *const names[] = { "internal", "external",
					     "virtual" };

	return kind < COUNT(names) ? names[kind] : "?";
}

static const char *
power_name(uint8_t power)
{
	static const char *const names[] = { "auto", "on", "off" };

	return power < COUNT(names) ? names[power] : "?";
}

static int
fetch_power(struct xctl *x, struct x_power **out, size_t *n_out)
{
	struct stillframe_x_list_output_power_req req = { 0 };
	struct stillframe_x_list_output_power_reply head;
	size_t size;
	uint8_t *reply = wait_reply(
		x, send_request(x, STILLFRAME_X_LIST_OUTPUT_POWER, &req,
				sizeof(req), true),
		"ListOutputPower", &size);
	int ret;

	*out = NULL;
	*n_out = 0;
	if (!reply)
		return 1;
	if (size < sizeof(head)) {
		free(reply);
		return malformed(x, "ListOutputPower");
	}
	memcpy(&head, reply, sizeof(head));
	ret = records_alloc(x, "ListOutputPower", (void **)out, head.n_outputs,
			    sizeof(**out), size,
			    STILLFRAME_X_OUTPUT_POWER_INFO_SIZE);

	const uint8_t *p = reply + sizeof(head), *end = reply + size;

	for (uint32_t i = 0; ret == 0 && i < head.n_outputs; i++) {
		struct x_power *o = &(*out)[i];

		if ((size_t)(end - p) < STILLFRAME_X_OUTPUT_POWER_INFO_SIZE) {
			ret = malformed(x, "ListOutputPower");
			break;
		}
		memcpy(&o->info, p, STILLFRAME_X_OUTPUT_POWER_INFO_SIZE);
		p += STILLFRAME_X_OUTPUT_POWER_INFO_SIZE;

		size_t len = o->info.name_len;

		if ((size_t)(end - p) < padded(len)) {
			ret = malformed(x, "ListOutputPower");
			break;
		}
		copy_name(o->name, sizeof(o->name), p, len, true);
		p += padded(len);
		(*n_out)++;
	}
	free(reply);
	return ret;
}

static void
emit_output_power(struct emitter *e, const struct x_output *o,
		  const struct x_power *power, size_t n_power)
{
	char key[sizeof(o->name) + 32];
	size_t cap = sizeof(key);

	for (size_t i = 0; i < n_power; i++) {
		const struct x_power *p = &power[i];

		if (p->info.output != o->info.output)
			continue;
		emit(e, output_key(key, cap, o, "kind"),
		     kind_name(p->info.kind), true);
		emit(e, output_key(key, cap, o, "power"),
		     p->info.powered ? "on" : "off", true);
		emit(e, output_key(key, cap, o, "power_request"),
		     power_name(p->info.request), true);
		emit_u32(e, output_key(key, cap, o, "powered_off_ms"),
			 p->info.powered_off_ms);
	}
}

static void
print_power(const struct x_power *o)
{
	printf("%s: %s, power %s (asked: %s), off for %.3f s\n", o->name,
	       kind_name(o->info.kind), o->info.powered ? "on" : "off",
	       power_name(o->info.request), o->info.powered_off_ms / 1000.0);
}

static const struct x_power *
power_find(const struct x_power *outputs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(outputs[i].name, name) == 0)
			return &outputs[i];
	return NULL;
}

int
sf_ctl_x_output(const char *name, bool set, enum sf_ctl_power power)
{
	struct xctl x;
	struct x_power *outputs = NULL;
	size_t n = 0;
	int ret = xctl_connect(&x);

	if (ret == 0 && x.minor_version < 1) {
		fprintf(stderr,
			"stillframectl: the X server at %s speaks STILLFRAME %u.%u; output needs 1.1\n",
			x.display, x.major_version, x.minor_version);
		ret = 1;
	}
	if (ret == 0)
		ret = fetch_power(&x, &outputs, &n);
	if (ret != 0)
		goto out;

	const struct x_power *o = name ? power_find(outputs, n, name) : NULL;

	if (!name) {
		for (size_t i = 0; i < n; i++)
			print_power(&outputs[i]);
		goto out;
	}
	if (!o) {
		fprintf(stderr, "stillframectl: stillframe manages no output called '%s'; it has:",
			name);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " %s", outputs[i].name);
		fputs(" (an output is managed once it was lit)\n", stderr);
		ret = 1;
		goto out;
	}
	if (!set) {
		print_power(o);
		goto out;
	}

	struct stillframe_x_set_output_power_req req = {
		.output = o->info.output,
		.power = (uint32_t)power,
	};
	xcb_generic_error_t *error = NULL;

	ret = void_request(&x, STILLFRAME_X_SET_OUTPUT_POWER, &req,
			   sizeof(req), &error);
	if (error) {
		char what[300];

		snprintf(what, sizeof(what), "to power %s %s", name,
			 power_name((uint8_t)power));
		refused(what, error,
			error->error_code == XCB_ACCESS ?
				"untrusted clients may not steer stillframe" :
			error->error_code == XCB_MATCH ?
				"stillframe does not manage it any more" :
				NULL);
		free(error);
		goto out;
	}
	if (ret != 0)
		goto out;
	free(outputs);
	outputs = NULL;
	if ((ret = fetch_power(&x, &outputs, &n)) != 0)
		goto out;
	o = power_find(outputs, n, name);
	if (!o) {
		fprintf(stderr, "stillframectl: %s went away\n", name);
		ret = 1;
		goto out;
	}
	print_power(o);
	if (power != SF_CTL_POWER_AUTO &&
	    o->info.powered != (power == SF_CTL_POWER_ON)) {
		fprintf(stderr, "stillframectl: %s is still %s: the server could not power it %s (its log says why)\n",
			name, o->info.powered ? "on" : "off",
			power_name((uint8_t)power));
		ret = 1;
	}
out:
	free(outputs);
	xctl_disconnect(&x);
	return ret;
}

/* --- trace --- */

static int
x_trace_start(void *data)
{
	struct xctl *x = data;
	struct stillframe_x_start_trace_req req = { 0 };
	size_t size;

	if (x->minor_version < 2) {
		fprintf(stderr, "stillframectl: the X server at %s speaks STILLFRAME %u.%u; trace needs 1.2\n",
			x->display, x->major_version, x->minor_version);
		return 1;
	}

	struct stillframe_x_start_trace_reply *rep = wait_reply(
		x, send_request(x, STILLFRAME_X_START_TRACE, &req,
				sizeof(req), true),
		"to record a trace (StartTrace)", &size);

	if (!rep)
		return 1;

	uint8_t status = rep->status;

	free(rep);
	if (status == STILLFRAME_X_TRACE_STARTED)
		return 0;
	fprintf(stderr, "stillframectl: trace: the X server does not record: %s\n",
		status == STILLFRAME_X_TRACE_BUSY ?
			"another trace recording is running" :
			"out of memory for the trace buffer");
	return 1;
}

static int
x_trace_read(void *data, FILE *out, struct sf_ctl_trace_progress *progress)
{
	struct xctl *x = data;
	struct stillframe_x_read_trace_req req = {
		.max_bytes = STILLFRAME_X_TRACE_READ_MAX,
	};
	size_t size;
	struct stillframe_x_read_trace_reply *rep = wait_reply(
		x, send_request(x, STILLFRAME_X_READ_TRACE, &req, sizeof(req),
				true),
		"to read the trace (ReadTrace)", &size);

	if (!rep)
		return 1;
	if (rep->n_bytes > size - REPLY_HEADER_SIZE) {
		free(rep);
		return malformed(x, "ReadTrace");
	}
	fwrite((const uint8_t *)rep + REPLY_HEADER_SIZE, 1, rep->n_bytes, out);
	progress->events = rep->events;
	progress->dropped = rep->dropped;
	progress->finished = rep->finished != 0;
	free(rep);
	return 0;
}

static int
x_trace_stop(void *data)
{
	struct xctl *x = data;
	struct stillframe_x_stop_trace_req req = { 0 };
	xcb_generic_error_t *error = NULL;
	int ret = void_request(x, STILLFRAME_X_STOP_TRACE, &req, sizeof(req),
			       &error);

	if (error) {
		refused("to stop the trace (StopTrace)", error, NULL);
		free(error);
	}
	return ret;
}

static const struct sf_ctl_trace_backend x_trace_backend = {
	.start = x_trace_start,
	.read = x_trace_read,
	.stop = x_trace_stop,
};

int
sf_ctl_x_trace(double seconds, const char *path)
{
	struct xctl x;
	int ret = xctl_connect(&x);

	if (ret == 0)
		ret = sf_ctl_trace_run(&x_trace_backend, &x, seconds, path);
	/* Disconnecting ends a recording that is still running. */
	xctl_disconnect(&x);
	return ret;
}
