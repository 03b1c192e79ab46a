/* SPDX-License-Identifier: MIT */
/*
 * sf-x-raw: a tiny X11 client that speaks the protocol straight over the
 * socket, without Xlib or xcb, so that the tests can send the STILLFRAME
 * extension what no library would: wrong lengths, unknown minor opcodes,
 * the other byte order.
 *
 *   sf-x-raw [--swapped] [--display :N] [--no-auth] [--opcode O]
 *            COMMAND...
 *
 *   --swapped     talk MSB first ('B'); the default is LSB first ('l').
 *                 Every request field is encoded, and every reply, error
 *                 and event field decoded, in the chosen order.
 *   --display :N  the server (":N" or ":N.S"); the default is $DISPLAY.
 *                 Only the local socket /tmp/.X11-unix/XN is used.
 *   --no-auth     send no credentials.  Otherwise, if $XAUTHORITY names
 *                 a file, its first MIT-MAGIC-COOKIE-1 for display N is
 *                 sent; without one, none is.
 *   --opcode O    skip QueryExtension and send the requests with major
 *                 opcode O: what a client the extension is hidden from
 *                 (an untrusted one) could still try.
 *
 * After the connection setup and a QueryExtension for STILLFRAME, the
 * commands run in order, each printing exactly one line:
 *
 *   info                   opcode O first_event E first_error R
 *   version MAJ MIN        QueryVersion: version X.Y
 *   status                 GetStatus: status paused P outputs N windows W
 *                          held_clients H idle_ms I, then for each output
 *                          " | output 0xXID refresh R native R2 damage D
 *                          held H releases L state S dpms P screen C
 *                          name NAME"
 *   windows                ListWindows: windows N, then for each window
 *                          " | window 0xXID client 0xC rate R damage D
 *                          held H requests Q class C flags F name NAME"
 *   hint WINDOW NUM DEN MIN MAX FLAGS
 *                          SetWindowHint: ok
 *   select WINDOW MASK     SelectEvents: ok
 *   pause VALUE            SetPaused (0 or 1; other values are sent as
 *                          they are, for BadValue): ok
 *   power OUTPUT VALUE     SetOutputPower (1.1) of a RandR output XID to
 *                          VALUE (0 auto, 1 on, 2 off; others as they
 *                          are): ok
 *   outputs                ListOutputPower (1.1): outputs N, then for
 *                          each " | output 0xXID off_ms M kind K powered
 *                          P request R name NAME"
 *   trace-start            StartTrace (1.2): trace status S
 *   trace-read MAX         ReadTrace (1.2) of up to MAX bytes: trace bytes
 *                          N lines L events E dropped D pending P
 *                          finished F, having checked that the reply
 *                          holds exactly the N bytes, padded, and that
 *                          they are whole lines of text
 *   trace-stop             StopTrace (1.2): ok
 *   raw MINOR LENGTH [WORD...]
 *                          a request with this minor opcode and length
 *                          field (in 4-byte units), followed by exactly
 *                          the WORDs, whatever the length says: reply,
 *                          or ok when only the sync's reply came
 *   wait-event TIMEOUT_MS  the next StateNotify (also one that arrived
 *                          during an earlier command): event state S
 *                          window 0xW output 0xO refresh R; or timeout
 *   create-window          core CreateWindow of a 64x64 InputOutput
 *                          child of the root (depth and visual
 *                          CopyFromParent, background pixel 0), then
 *                          MapWindow: window 0xXID, the XID being the
 *                          next unused one of the client's range
 *   set-class INSTANCE CLASS
 *                          ChangeProperty (Replace) of WM_CLASS, type
 *                          STRING, to "INSTANCE\0CLASS\0" on self: ok
 *   focus WINDOW           core SetInputFocus to WINDOW (revert to the
 *                          parent, time CurrentTime): ok
 *   sleep MS               sleeps, still reading (and queueing) what the
 *                          server sends: slept
 *
 * Any request may print "error NAME major M minor m" instead, NAME being
 * the core error's name (BadLength) or else its number.  Numbers are
 * decimal or 0x hex; a WINDOW may also be "root" (the first screen's),
 * or "self" after a create-window: the last window it created (None,
 * for BadWindow, when no create-window has succeeded yet).
 * A NAME is printed with bytes other than printable ASCII as '?', and as
 * "-" when empty.  The WORDs of raw run up to the first argument that is
 * not a number.
 *
 * Requests without a reply are followed by a GetInputFocus, whose reply
 * says the server has handled them.  When raw's length field is shorter
 * than what is sent, the server reads the rest as further requests; only
 * the answer to raw's own request is printed.  When it is longer, the
 * server waits for the rest: it gets GetInputFocus requests as filler, so
 * that the sync after them still comes back.
 *
 * Exit status: 0 when every command ran, whatever the server answered;
 * 1 on an I/O or protocol failure, or no answer within 5 s; 2 on bad
 * usage; 3 when the server has no STILLFRAME extension.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "stillframe-x.h"

#define PROG "sf-x-raw"
#define EXIT_USAGE 2
#define EXIT_NO_EXTENSION 3

#define IO_TIMEOUT_MS 5000
#define MAX_PACKET_SIZE (64u << 20)
#define EVENT_QUEUE_LENGTH 64
#define MAX_ARGS 6
#define MAX_TEXT_LEN 65535		/* bytes in one text argument */

/* Core protocol numbers. */
#define X_ERROR 0
#define X_REPLY 1
#define X_GENERIC_EVENT 35
#define X_CREATE_WINDOW 1
#define X_MAP_WINDOW 8
#define X_CHANGE_PROPERTY 18
#define X_SET_INPUT_FOCUS 42
#define X_GET_INPUT_FOCUS 43
#define X_QUERY_EXTENSION 98
#define X_PACKET_SIZE 32

#define X_INPUT_OUTPUT 1		/* window class */
#define X_COPY_FROM_PARENT 0		/* depth, visual */
#define X_CW_BACK_PIXEL (1u << 1)
#define X_PROP_MODE_REPLACE 0
#define X_REVERT_TO_PARENT 2
#define X_ATOM_STRING 31
#define X_ATOM_WM_CLASS 67

#define NEW_WINDOW_SIZE 64

#define MIT_MAGIC_COOKIE "MIT-MAGIC-COOKIE-1"
#define MAX_COOKIE_SIZE 256

struct buf {
	uint8_t *data;
	size_t len, cap;
};

struct conn {
	int fd;
	bool msb;			/* 'B': most significant byte first */
	uint16_t seq;			/* the number of our last request */
	bool have_root;
	uint32_t root;
	uint32_t id_base, id_mask;	/* the client's resource ids */
	uint32_t ids_used;
	uint32_t self;			/* the last window created, or 0 */
	uint8_t major_opcode, first_event, first_error;
	struct buf out;			/* requests not yet written */
	struct buf in;			/* the last packet read */
	/* StateNotify events seen while waiting for something else. */
	uint8_t events[EVENT_QUEUE_LENGTH][X_PACKET_SIZE];
	size_t n_events;
};

struct cookie {
	size_t len;
	uint8_t data[MAX_COOKIE_SIZE];
};

static const char *const core_errors[] = {
	[1] = "BadRequest",
	[2] = "BadValue",
	[3] = "BadWindow",
	[4] = "BadPixmap",
	[5] = "BadAtom",
	[6] = "BadCursor",
	[7] = "BadFont",
	[8] = "BadMatch",
	[9] = "BadDrawable",
	[10] = "BadAccess",
	[11] = "BadAlloc",
	[12] = "BadColor",
	[13] = "BadGC",
	[14] = "BadIDChoice",
	[15] = "BadName",
	[16] = "BadLength",
	[17] = "BadImplementation",
};

static _Noreturn void
fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static _Noreturn void
fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [--swapped] [--display :N] [--no-auth] "
		"[--opcode O] COMMAND...\n"
		"commands:\n"
		"  info\n"
		"  version MAJ MIN\n"
		"  status\n"
		"  windows\n"
		"  hint WINDOW NUM DEN MIN MAX FLAGS\n"
		"  select WINDOW MASK\n"
		"  pause 0|1\n"
		"  raw MINOR LENGTH [WORD...]\n"
		"  wait-event TIMEOUT_MS\n"
		"  create-window\n"
		"  set-class INSTANCE CLASS\n"
		"  sleep MS\n");
}

static int
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROG " --help'.\n", stderr);
	return EXIT_USAGE;
}

static size_t
pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- byte order: everything on the wire goes through these --- */

static void
put16(const struct conn *c, uint8_t *p, uint16_t v)
{
	if (c->msb) {
		p[0] = (uint8_t)(v >> 8);
		p[1] = (uint8_t)v;
	} else {
		p[0] = (uint8_t)v;
		p[1] = (uint8_t)(v >> 8);
	}
}

static void
put32(const struct conn *c, uint8_t *p, uint32_t v)
{
	if (c->msb) {
		put16(c, p, (uint16_t)(v >> 16));
		put16(c, p + 2, (uint16_t)v);
	} else {
		put16(c, p, (uint16_t)v);
		put16(c, p + 2, (uint16_t)(v >> 16));
	}
}

static uint16_t
get16(const struct conn *c, const uint8_t *p)
{
	if (c->msb)
		return (uint16_t)(p[0] << 8 | p[1]);
	return (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t
get32(const struct conn *c, const uint8_t *p)
{
	if (c->msb)
		return (uint32_t)get16(c, p) << 16 | get16(c, p + 2);
	return (uint32_t)get16(c, p + 2) << 16 | get16(c, p);
}

/* --- buffers --- */

static void
buf_reserve(struct buf *b, size_t n)
{
	if (n <= b->cap - b->len)
		return;

	size_t cap = b->cap ? b->cap : 256;

	while (cap - b->len < n)
		cap *= 2;
	uint8_t *data = realloc(b->data, cap);

	if (!data)
		fail("out of memory");
	b->data = data;
	b->cap = cap;
}

static void
out_u8(struct conn *c, uint8_t v)
{
	buf_reserve(&c->out, 1);
	c->out.data[c->out.len++] = v;
}

static void
out_u16(struct conn *c, uint16_t v)
{
	buf_reserve(&c->out, 2);
	put16(c, c->out.data + c->out.len, v);
	c->out.len += 2;
}

static void
out_u32(struct conn *c, uint32_t v)
{
	buf_reserve(&c->out, 4);
	put32(c, c->out.data + c->out.len, v);
	c->out.len += 4;
}

/* n bytes, then zeros up to a multiple of 4. */
static void
out_padded(struct conn *c, const void *p, size_t n)
{
	buf_reserve(&c->out, pad4(n));
	if (n)
		memcpy(c->out.data + c->out.len, p, n);
	memset(c->out.data + c->out.len + n, 0, pad4(n) - n);
	c->out.len += pad4(n);
}

/* Starts a request; returns the number the server will give it. */
static uint16_t
begin_request(struct conn *c, uint8_t major, uint8_t minor, uint16_t length)
{
	out_u8(c, major);
	out_u8(c, minor);
	out_u16(c, length);
	return ++c->seq;
}

/* --- the socket --- */

/* Waits until fd is ready for events or the deadline passes. */
static bool
wait_fd(int fd, short events, int64_t deadline)
{
	for (;;) {
		int64_t left = deadline - now_ms();
		struct pollfd pfd = { .fd = fd, .events = events };

		if (left < 0)
			left = 0;
		if (left > INT_MAX)
			left = INT_MAX;
		int r = poll(&pfd, 1, (int)left);

		if (r > 0)
			return true;
		if (r == 0)
			return false;
		if (errno != EINTR)
			fail("poll: %s", strerror(errno));
	}
}

static void
flush_out(struct conn *c)
{
	size_t done = 0;
	int64_t deadline = now_ms() + IO_TIMEOUT_MS;

	while (done < c->out.len) {
		ssize_t r = send(c->fd, c->out.data + done, c->out.len - done,
				 MSG_NOSIGNAL);

		if (r > 0) {
			done += (size_t)r;
			deadline = now_ms() + IO_TIMEOUT_MS;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			fail("write to the server: %s", strerror(errno));
		if (!wait_fd(c->fd, POLLOUT, deadline))
			fail("the server took nothing for %d ms",
			     IO_TIMEOUT_MS);
	}
	c->out.len = 0;
}

/* Reads exactly n bytes.  Nothing by the deadline returns false if
 * may_time_out, else fails; so does any later stall of IO_TIMEOUT_MS. */
static bool
read_exact(struct conn *c, uint8_t *p, size_t n, int64_t deadline,
	   bool may_time_out)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(c->fd, p + got, n - got);

		if (r > 0) {
			got += (size_t)r;
			deadline = now_ms() + IO_TIMEOUT_MS;
			may_time_out = false;
			continue;
		}
		if (r == 0)
			fail("the server closed the connection");
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			fail("read from the server: %s", strerror(errno));
		if (!wait_fd(c->fd, POLLIN, deadline)) {
			if (may_time_out)
				return false;
			fail("no answer from the server within %d ms",
			     IO_TIMEOUT_MS);
		}
	}
	return true;
}

static bool
is_state_notify(const struct conn *c, const uint8_t *p)
{
	return c->first_event && p[0] != X_ERROR && p[0] != X_REPLY &&
	       (p[0] & 0x7f) == c->first_event + STILLFRAME_X_STATE_NOTIFY;
}

/* Reads one error, reply or event into c->in, and queues StateNotify
 * events for wait-event.  False: nothing came by the deadline. */
static bool
read_packet(struct conn *c, int64_t deadline, bool may_time_out)
{
	c->in.len = 0;
	buf_reserve(&c->in, X_PACKET_SIZE);
	if (!read_exact(c, c->in.data, X_PACKET_SIZE, deadline, may_time_out))
		return false;

	uint8_t type = c->in.data[0];
	uint64_t extra = 0;

	if (type == X_REPLY || (type & 0x7f) == X_GENERIC_EVENT)
		extra = (uint64_t)get32(c, c->in.data + 4) * 4;
	if (extra > MAX_PACKET_SIZE)
		fail("the server sent a packet (type %u) of %llu bytes",
		     type, (unsigned long long)extra + X_PACKET_SIZE);
	c->in.len = X_PACKET_SIZE;
	buf_reserve(&c->in, (size_t)extra);
	read_exact(c, c->in.data + X_PACKET_SIZE, (size_t)extra,
		   now_ms() + IO_TIMEOUT_MS, false);
	c->in.len += (size_t)extra;

	if (is_state_notify(c, c->in.data)) {
		if (c->n_events == EVENT_QUEUE_LENGTH)
			fprintf(stderr, PROG ": too many StateNotify events "
				"queued, dropping one\n");
		else
			memcpy(c->events[c->n_events++], c->in.data,
			       X_PACKET_SIZE);
	}
	return true;
}

static uint16_t
packet_seq(const struct conn *c, const uint8_t *p)
{
	return get16(c, p + 2);
}

/* Reads until the answer to request seq: true for a reply, false for an
 * error, either left in c->in.  Events and strays are passed over. */
static bool
await_answer(struct conn *c, uint16_t seq)
{
	for (;;) {
		read_packet(c, now_ms() + IO_TIMEOUT_MS, false);

		const uint8_t *p = c->in.data;

		if (p[0] != X_REPLY && p[0] != X_ERROR)
			continue;
		if (packet_seq(c, p) == seq)
			return p[0] == X_REPLY;
		fprintf(stderr, PROG ": passing over a stray %s to "
			"request %u\n", p[0] == X_REPLY ? "reply" : "error",
			packet_seq(c, p));
	}
}

enum answer {
	ANSWER_NONE,
	ANSWER_REPLY,
	ANSWER_ERROR,
};

/* Reads until the reply to the sync request; the first reply or error
 * to the requests first to last, if any, is copied (its first 32 bytes)
 * to packet. */
static enum answer
await_sync_range(struct conn *c, uint16_t first, uint16_t last,
		 uint16_t sync, uint8_t packet[X_PACKET_SIZE])
{
	enum answer answer = ANSWER_NONE;

	for (;;) {
		read_packet(c, now_ms() + IO_TIMEOUT_MS, false);

		const uint8_t *p = c->in.data;

		if (p[0] != X_REPLY && p[0] != X_ERROR)
			continue;

		uint16_t seq = packet_seq(c, p);

		/* Only a reply: an error of the same number comes from one
		 * of the requests that raw's extra bytes made, 65536 on. */
		if (seq == sync && p[0] == X_REPLY)
			return answer;
		if ((uint16_t)(seq - first) <= (uint16_t)(last - first) &&
		    answer == ANSWER_NONE) {
			memcpy(packet, p, X_PACKET_SIZE);
			answer = p[0] == X_REPLY ? ANSWER_REPLY : ANSWER_ERROR;
		}
	}
}

static enum answer
await_sync(struct conn *c, uint16_t first, uint16_t sync,
	   uint8_t packet[X_PACKET_SIZE])
{
	return await_sync_range(c, first, first, sync, packet);
}

/* Sends the pending output and a GetInputFocus after it. */
static uint16_t
send_sync(struct conn *c)
{
	uint16_t seq = begin_request(c, X_GET_INPUT_FOCUS, 0, 1);

	flush_out(c);
	return seq;
}

static void
print_error(const struct conn *c, const uint8_t *p)
{
	uint8_t code = p[1];

	if (code < sizeof(core_errors) / sizeof(core_errors[0]) &&
	    core_errors[code])
		printf("error %s", core_errors[code]);
	else
		printf("error %u", code);
	printf(" major %u minor %u\n", p[10], get16(c, p + 8));
}

static void
print_name(const uint8_t *p, size_t n)
{
	if (n == 0) {
		fputs("-", stdout);
		return;
	}
	for (size_t i = 0; i < n; i++)
		putchar(p[i] > ' ' && p[i] < 0x7f ? p[i] : '?');
}

/* --- connecting --- */

static bool
parse_display(const char *s, unsigned *number)
{
	if (strncmp(s, "unix:", 5) == 0)
		s += 4;
	if (s[0] != ':' || s[1] < '0' || s[1] > '9')
		return false;

	char *end;
	unsigned long n = strtoul(s + 1, &end, 10);

	if (n > 65535)
		return false;
	if (*end == '.') {
		if (end[1] < '0' || end[1] > '9')
			return false;
		strtoul(end + 1, &end, 10);
	}
	if (*end)
		return false;
	*number = (unsigned)n;
	return true;
}

static bool
auth_field(const uint8_t *data, size_t size, size_t *pos,
	   const uint8_t **field, size_t *len)
{
	if (size - *pos < 2)
		return false;
	*len = (size_t)data[*pos] << 8 | data[*pos + 1];
	*pos += 2;
	if (size - *pos < *len)
		return false;
	*field = data + *pos;
	*pos += *len;
	return true;
}

/* The first MIT-MAGIC-COOKIE-1 for display number in $XAUTHORITY. */
static bool
find_cookie(unsigned number, struct cookie *cookie)
{
	const char *path = getenv("XAUTHORITY");

	if (!path || !*path)
		return false;

	FILE *f = fopen(path, "rb");

	if (!f) {
		if (errno != ENOENT)
			fprintf(stderr, PROG ": %s: %s\n", path,
				strerror(errno));
		return false;
	}

	struct buf file = { 0 };
	size_t r;

	do {
		buf_reserve(&file, 4096);
		r = fread(file.data + file.len, 1, 4096, f);
		file.len += r;
	} while (r > 0);
	if (ferror(f))
		fprintf(stderr, PROG ": %s: read error\n", path);
	fclose(f);

	char want[8];
	size_t pos = 0;
	bool found = false;

	snprintf(want, sizeof(want), "%u", number);
	while (!found && file.len - pos >= 2) {
		const uint8_t *address, *num, *name, *data;
		size_t address_len, num_len, name_len, data_len;

		pos += 2;	/* the family: any will do */
		if (!auth_field(file.data, file.len, &pos, &address,
				&address_len) ||
		    !auth_field(file.data, file.len, &pos, &num, &num_len) ||
		    !auth_field(file.data, file.len, &pos, &name, &name_len) ||
		    !auth_field(file.data, file.len, &pos, &data, &data_len)) {
			fprintf(stderr, PROG ": %s: cut short\n", path);
			break;
		}
		if (num_len != strlen(want) || memcmp(num, want, num_len) ||
		    name_len != strlen(MIT_MAGIC_COOKIE) ||
		    memcmp(name, MIT_MAGIC_COOKIE, name_len) ||
		    data_len > MAX_COOKIE_SIZE)
			continue;
		memcpy(cookie->data, data, data_len);
		cookie->len = data_len;
		found = true;
	}
	free(file.data);
	return found;
}

static void
connect_display(struct conn *c, unsigned number)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	snprintf(addr.sun_path, sizeof(addr.sun_path), "/tmp/.X11-unix/X%u",
		 number);
	c->fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c->fd < 0)
		fail("socket: %s", strerror(errno));
	if (connect(c->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		fail("%s: %s", addr.sun_path, strerror(errno));

	int flags = fcntl(c->fd, F_GETFL);

	/* Non-blocking, so that poll() bounds every wait. */
	if (flags < 0 || fcntl(c->fd, F_SETFL, flags | O_NONBLOCK) < 0)
		fail("fcntl: %s", strerror(errno));
}

/* The client's resource-id-base and -mask, from the setup reply's body. */
static void
find_ids(struct conn *c, const uint8_t *body, size_t len)
{
	if (len < 12)
		return;
	c->id_base = get32(c, body + 4);
	c->id_mask = get32(c, body + 8);
}

/* The root window of the first screen, from the setup reply's body. */
static void
find_root(struct conn *c, const uint8_t *body, size_t len)
{
	if (len < 32)
		return;

	size_t vendor_len = get16(c, body + 16);
	size_t n_screens = body[20];
	size_t n_formats = body[21];
	size_t at = 32 + pad4(vendor_len) + 8 * n_formats;

	if (n_screens == 0 || at + 4 > len)
		return;
	c->root = get32(c, body + at);
	c->have_root = true;
}

static void
setup(struct conn *c, const struct cookie *cookie)
{
	size_t name_len = cookie ? strlen(MIT_MAGIC_COOKIE) : 0;

	out_u8(c, c->msb ? 'B' : 'l');
	out_u8(c, 0);
	out_u16(c, 11);		/* protocol 11.0 */
	out_u16(c, 0);
	out_u16(c, (uint16_t)name_len);
	out_u16(c, (uint16_t)(cookie ? cookie->len : 0));
	out_u16(c, 0);
	if (cookie) {
		out_padded(c, MIT_MAGIC_COOKIE, name_len);
		out_padded(c, cookie->data, cookie->len);
	}
	flush_out(c);

	uint8_t head[8];

	read_exact(c, head, sizeof(head), now_ms() + IO_TIMEOUT_MS, false);

	size_t len = (size_t)get16(c, head + 6) * 4;
	uint8_t *body = malloc(len ? len : 1);

	if (!body)
		fail("out of memory");
	read_exact(c, body, len, now_ms() + IO_TIMEOUT_MS, false);

	size_t reason_len = len;

	switch (head[0]) {
	case 1:
		find_ids(c, body, len);
		find_root(c, body, len);
		free(body);
		return;
	case 0:
		if (head[1] < reason_len)
			reason_len = head[1];
		fail("the server refused the connection (protocol %u.%u): "
		     "%.*s", get16(c, head + 2), get16(c, head + 4),
		     (int)reason_len, (const char *)body);
	case 2:
		while (reason_len && body[reason_len - 1] == '\0')
			reason_len--;
		fail("the server asks for more authentication: %.*s",
		     (int)reason_len, (const char *)body);
	default:
		fail("the server answered the setup with status %u", head[0]);
	}
}

/* False: the server has no STILLFRAME extension. */
static bool
query_extension(struct conn *c)
{
	size_t n = strlen(STILLFRAME_X_NAME);
	uint16_t seq = begin_request(c, X_QUERY_EXTENSION, 0,
				     (uint16_t)(2 + pad4(n) / 4));

	out_u16(c, (uint16_t)n);
	out_u16(c, 0);
	out_padded(c, STILLFRAME_X_NAME, n);
	flush_out(c);
	if (!await_answer(c, seq))
		fail("QueryExtension got error %u", c->in.data[1]);

	const uint8_t *p = c->in.data;

	if (!p[8])
		return false;
	c->major_opcode = p[9];
	c->first_event = p[10];
	c->first_error = p[11];
	return true;
}

/* --- commands --- */

static void
cmd_info(struct conn *c, const uint32_t *arg, const char *const *text,
	 const uint32_t *words, size_t n_words)
{
	(void)arg;
	(void)text;
	(void)words;
	(void)n_words;
	printf("opcode %u first_event %u first_error %u\n", c->major_opcode,
	       c->first_event, c->first_error);
}

static void
cmd_version(struct conn *c, const uint32_t *arg, const char *const *text,
	    const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;

	uint16_t seq = begin_request(c, c->major_opcode,
				     STILLFRAME_X_QUERY_VERSION,
				     STILLFRAME_X_QUERY_VERSION_REQ_SIZE / 4);

	out_u16(c, (uint16_t)arg[0]);
	out_u16(c, (uint16_t)arg[1]);
	flush_out(c);
	if (!await_answer(c, seq)) {
		print_error(c, c->in.data);
		return;
	}
	printf("version %u.%u\n", get16(c, c->in.data + 8),
	       get16(c, c->in.data + 10));
}

/* Checks that n records of fixed bytes, each with a name whose length is
 * read by name_len, exactly fill the reply after its first 32 bytes. */
static void
check_records(struct conn *c, const char *what, uint32_t n, size_t fixed,
	      size_t (*name_len)(const struct conn *c, const uint8_t *rec))
{
	size_t at = X_PACKET_SIZE;

	for (uint32_t i = 0; i < n; i++) {
		if (c->in.len - at < fixed ||
		    c->in.len - at - fixed <
			    pad4(name_len(c, c->in.data + at)))
			fail("%s reply: record %u of %u is cut short "
			     "(reply of %zu bytes)", what, i + 1, n,
			     c->in.len);
		at += fixed + pad4(name_len(c, c->in.data + at));
	}
	if (at != c->in.len)
		fail("%s reply: %zu bytes after the last of %u records",
		     what, c->in.len - at, n);
}

/* A request of the extension with no fields whose reply has the record
 * count in its third word (GetStatus, ListWindows, ListOutputPower):
 * false, the error printed, if an error came instead. */
static bool
list_request(struct conn *c, uint8_t minor, size_t req_size, uint32_t *n)
{
	uint16_t seq = begin_request(c, c->major_opcode, minor,
				     (uint16_t)(req_size / 4));

	flush_out(c);
	if (!await_answer(c, seq)) {
		print_error(c, c->in.data);
		return false;
	}
	*n = get32(c, c->in.data + 8);
	return true;
}

static size_t
output_name_len(const struct conn *c, const uint8_t *rec)
{
	(void)c;
	return rec[27];
}

static void
cmd_status(struct conn *c, const uint32_t *arg, const char *const *text,
	   const uint32_t *words, size_t n_words)
{
	(void)arg;
	(void)text;
	(void)words;
	(void)n_words;

	uint32_t n;

	if (!list_request(c, STILLFRAME_X_GET_STATUS,
			  STILLFRAME_X_GET_STATUS_REQ_SIZE, &n))
		return;

	const uint8_t *p = c->in.data;

	check_records(c, "GetStatus", n, STILLFRAME_X_OUTPUT_INFO_SIZE,
		      output_name_len);
	printf("status paused %u outputs %u windows %u held_clients %u "
	       "idle_ms %u", p[1], n, get32(c, p + 12), get32(c, p + 16),
	       get32(c, p + 20));

	const uint8_t *rec = p + X_PACKET_SIZE;

	for (uint32_t i = 0; i < n; i++) {
		printf(" | output 0x%x refresh %u native %u damage %u held %u "
		       "releases %u state %u dpms %u screen %u name ",
		       get32(c, rec), get32(c, rec + 4), get32(c, rec + 8),
		       get32(c, rec + 12), get32(c, rec + 16),
		       get32(c, rec + 20), rec[24], rec[25], rec[26]);
		print_name(rec + STILLFRAME_X_OUTPUT_INFO_SIZE, rec[27]);
		rec += STILLFRAME_X_OUTPUT_INFO_SIZE + pad4(rec[27]);
	}
	putchar('\n');
}

static size_t
window_name_len(const struct conn *c, const uint8_t *rec)
{
	return get16(c, rec + 26);
}

static void
cmd_windows(struct conn *c, const uint32_t *arg, const char *const *text,
	    const uint32_t *words, size_t n_words)
{
	(void)arg;
	(void)text;
	(void)words;
	(void)n_words;

	uint32_t n;

	if (!list_request(c, STILLFRAME_X_LIST_WINDOWS,
			  STILLFRAME_X_LIST_WINDOWS_REQ_SIZE, &n))
		return;

	const uint8_t *p = c->in.data;

	check_records(c, "ListWindows", n, STILLFRAME_X_WINDOW_INFO_SIZE,
		      window_name_len);
	printf("windows %u", n);

	const uint8_t *rec = p + X_PACKET_SIZE;

	for (uint32_t i = 0; i < n; i++) {
		size_t name_len = window_name_len(c, rec);

		printf(" | window 0x%x client 0x%x rate %u damage %u held %u "
		       "requests %u class %u flags %u name ",
		       get32(c, rec), get32(c, rec + 4), get32(c, rec + 8),
		       get32(c, rec + 12), get32(c, rec + 16),
		       get32(c, rec + 20), rec[24], rec[25]);
		print_name(rec + STILLFRAME_X_WINDOW_INFO_SIZE, name_len);
		rec += STILLFRAME_X_WINDOW_INFO_SIZE + pad4(name_len);
	}
	putchar('\n');
}

/* Syncs after a request without a reply and prints its outcome. */
static void
finish_void_request(struct conn *c, uint16_t seq)
{
	uint8_t packet[X_PACKET_SIZE];
	uint16_t sync = send_sync(c);

	switch (await_sync(c, seq, sync, packet)) {
	case ANSWER_NONE:
		puts("ok");
		break;
	case ANSWER_ERROR:
		print_error(c, packet);
		break;
	case ANSWER_REPLY:
		fail("request %u, which has no reply, got one", seq);
	}
}

/* A request without a reply: the header, then `n` words. */
static void
send_words(struct conn *c, uint8_t minor, uint16_t size, const uint32_t *arg,
	   int n)
{
	uint16_t seq = begin_request(c, c->major_opcode, minor, size / 4);

	for (int i = 0; i < n; i++)
		out_u32(c, arg[i]);
	finish_void_request(c, seq);
}

static void
cmd_hint(struct conn *c, const uint32_t *arg, const char *const *text,
	 const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;
	send_words(c, STILLFRAME_X_SET_WINDOW_HINT,
		   STILLFRAME_X_SET_WINDOW_HINT_REQ_SIZE, arg, 6);
}

static void
cmd_select(struct conn *c, const uint32_t *arg, const char *const *text,
	   const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;
	send_words(c, STILLFRAME_X_SELECT_EVENTS,
		   STILLFRAME_X_SELECT_EVENTS_REQ_SIZE, arg, 2);
}

static void
cmd_pause(struct conn *c, const uint32_t *arg, const char *const *text,
	  const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;
	send_words(c, STILLFRAME_X_SET_PAUSED,
		   STILLFRAME_X_SET_PAUSED_REQ_SIZE, arg, 1);
}

static void
cmd_power(struct conn *c, const uint32_t *arg, const char *const *text,
	  const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;
	send_words(c, STILLFRAME_X_SET_OUTPUT_POWER,
		   STILLFRAME_X_SET_OUTPUT_POWER_REQ_SIZE, arg, 2);
}

static size_t
power_name_len(const struct conn *c, const uint8_t *rec)
{
	(void)c;
	return rec[11];
}

static void
cmd_outputs(struct conn *c, const uint32_t *arg, const char *const *text,
	    const uint32_t *words, size_t n_words)
{
	(void)arg;
	(void)text;
	(void)words;
	(void)n_words;

	uint32_t n;

	if (!list_request(c, STILLFRAME_X_LIST_OUTPUT_POWER,
			  STILLFRAME_X_LIST_OUTPUT_POWER_REQ_SIZE, &n))
		return;

	const uint8_t *p = c->in.data;

	check_records(c, "ListOutputPower", n,
		      STILLFRAME_X_OUTPUT_POWER_INFO_SIZE, power_name_len);
	printf("outputs %u", n);

	const uint8_t *rec = p + X_PACKET_SIZE;

	for (uint32_t i = 0; i < n; i++) {
		printf(" | output 0x%x off_ms %u kind %u powered %u "
		       "request %u name ", get32(c, rec), get32(c, rec + 4),
		       rec[8], rec[9], rec[10]);
		print_name(rec + STILLFRAME_X_OUTPUT_POWER_INFO_SIZE, rec[11]);
		rec += STILLFRAME_X_OUTPUT_POWER_INFO_SIZE + pad4(rec[11]);
	}
	putchar('\n');
}

static void
cmd_trace_start(struct conn *c, const uint32_t *arg, const char *const *text,
		const uint32_t *words, size_t n_words)
{
	(void)arg;
	(void)text;
	(void)words;
	(void)n_words;

	uint16_t seq = begin_request(c, c->major_opcode,
				     STILLFRAME_X_START_TRACE,
				     STILLFRAME_X_START_TRACE_REQ_SIZE / 4);

	flush_out(c);
	if (!await_answer(c, seq)) {
		print_error(c, c->in.data);
		return;
	}
	if (c->in.len != X_PACKET_SIZE)
		fail("StartTrace reply of %zu bytes", c->in.len);
	printf("trace status %u\n", c->in.data[1]);
}

static void
cmd_trace_read(struct conn *c, const uint32_t *arg, const char *const *text,
	       const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;

	uint16_t seq = begin_request(c, c->major_opcode,
				     STILLFRAME_X_READ_TRACE,
				     STILLFRAME_X_READ_TRACE_REQ_SIZE / 4);

	out_u32(c, arg[0]);
	flush_out(c);
	if (!await_answer(c, seq)) {
		print_error(c, c->in.data);
		return;
	}

	const uint8_t *p = c->in.data;
	uint32_t n = get32(c, p + 8);
	unsigned lines = 0;

	if (c->in.len != X_PACKET_SIZE + pad4(n))
		fail("ReadTrace reply of %zu bytes for %u bytes of text",
		     c->in.len, n);
	if (n > arg[0])
		fail("ReadTrace: %u bytes for a read of at most %u", n,
		     arg[0]);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t ch = p[X_PACKET_SIZE + i];

		if (ch == '\n')
			lines++;
		else if (ch < 0x20 || ch > 0x7e)
			fail("ReadTrace: byte 0x%02x in the text", ch);
	}
	if (n && p[X_PACKET_SIZE + n - 1] != '\n')
		fail("ReadTrace: the text does not end with a whole line");
	printf("trace bytes %u lines %u events %u dropped %u pending %u "
	       "finished %u\n", n, lines, get32(c, p + 12), get32(c, p + 16),
	       get32(c, p + 20), p[1]);
}

static void
cmd_trace_stop(struct conn *c, const uint32_t *arg, const char *const *text,
	       const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;
	send_words(c, STILLFRAME_X_STOP_TRACE,
		   STILLFRAME_X_STOP_TRACE_REQ_SIZE, arg, 0);
}

static void
cmd_raw(struct conn *c, const uint32_t *arg, const char *const *text,
	const uint32_t *words, size_t n_words)
{
	(void)text;

	uint16_t seq = begin_request(c, c->major_opcode, (uint8_t)arg[0],
				     (uint16_t)arg[1]);

	for (size_t i = 0; i < n_words; i++)
		out_u32(c, words[i]);

	/* Split the bytes the way the server will: each request takes its
	 * length field's worth, a zero length (no BIG-REQUESTS here) its
	 * header.  That tells how many requests the server numbers and how
	 * many bytes it still waits for after ours. */
	size_t sent = c->out.len;
	size_t at = 0;
	unsigned n_requests = 0;

	while (at < sent) {
		size_t len = (size_t)get16(c, c->out.data + at + 2) * 4;

		at += len ? len : 4;
		n_requests++;
	}
	c->seq = (uint16_t)(c->seq + n_requests - 1);
	/* Filler for a length beyond what was sent: 4-byte GetInputFocus
	 * requests that the server reads as the rest of the last one. */
	for (; sent < at; sent += 4) {
		out_u8(c, X_GET_INPUT_FOCUS);
		out_u8(c, 0);
		out_u16(c, 1);
	}

	uint8_t packet[X_PACKET_SIZE];
	uint16_t sync = send_sync(c);

	switch (await_sync(c, seq, sync, packet)) {
	case ANSWER_NONE:
		puts("ok");
		break;
	case ANSWER_ERROR:
		print_error(c, packet);
		break;
	case ANSWER_REPLY:
		puts("reply");
		break;
	}
}

static void
cmd_wait_event(struct conn *c, const uint32_t *arg, const char *const *text,
	       const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;

	int64_t deadline = now_ms() + arg[0];

	while (c->n_events == 0) {
		if (!read_packet(c, deadline, true)) {
			puts("timeout");
			return;
		}
	}

	const uint8_t *p = c->events[0];

	printf("event state %u window 0x%x output 0x%x refresh %u\n", p[1],
	       get32(c, p + 4), get32(c, p + 8), get32(c, p + 12));
	c->n_events--;
	memmove(c->events[0], c->events[1], c->n_events * X_PACKET_SIZE);
}

/* The next unused XID of the client's range. */
static uint32_t
new_id(struct conn *c)
{
	uint32_t step = c->id_mask & (~c->id_mask + 1);	/* its lowest bit */

	if (!step || c->ids_used >= c->id_mask / step)
		fail("no resource ids left (base 0x%x mask 0x%x)",
		     c->id_base, c->id_mask);
	c->ids_used++;
	return c->id_base | c->ids_used * step;
}

static void
cmd_create_window(struct conn *c, const uint32_t *arg,
		  const char *const *text, const uint32_t *words,
		  size_t n_words)
{
	(void)arg;
	(void)text;
	(void)words;
	(void)n_words;

	if (!c->have_root)
		fail("the setup reply has no root");

	uint32_t wid = new_id(c);
	uint16_t create = begin_request(c, X_CREATE_WINDOW,
					X_COPY_FROM_PARENT, 9);

	out_u32(c, wid);
	out_u32(c, c->root);
	out_u16(c, 0);				/* x */
	out_u16(c, 0);				/* y */
	out_u16(c, NEW_WINDOW_SIZE);		/* width */
	out_u16(c, NEW_WINDOW_SIZE);		/* height */
	out_u16(c, 0);				/* border width */
	out_u16(c, X_INPUT_OUTPUT);
	out_u32(c, X_COPY_FROM_PARENT);		/* visual */
	out_u32(c, X_CW_BACK_PIXEL);
	out_u32(c, 0);				/* background pixel */

	uint16_t map = begin_request(c, X_MAP_WINDOW, 0, 2);

	out_u32(c, wid);

	uint8_t packet[X_PACKET_SIZE];
	uint16_t sync = send_sync(c);

	switch (await_sync_range(c, create, map, sync, packet)) {
	case ANSWER_NONE:
		c->self = wid;
		printf("window 0x%x\n", wid);
		break;
	case ANSWER_ERROR:
		if (packet_seq(c, packet) != create)
			c->self = wid;
		print_error(c, packet);
		break;
	case ANSWER_REPLY:
		fail("request %u or %u, which have no reply, got one", create,
		     map);
	}
}

static void
cmd_set_class(struct conn *c, const uint32_t *arg, const char *const *text,
	      const uint32_t *words, size_t n_words)
{
	(void)arg;
	(void)words;
	(void)n_words;

	size_t instance_len = strlen(text[0]) + 1;
	size_t n = instance_len + strlen(text[1]) + 1;
	uint16_t seq = begin_request(c, X_CHANGE_PROPERTY, X_PROP_MODE_REPLACE,
				     (uint16_t)(6 + pad4(n) / 4));

	out_u32(c, c->self);
	out_u32(c, X_ATOM_WM_CLASS);
	out_u32(c, X_ATOM_STRING);
	out_u8(c, 8);				/* format */
	out_u8(c, 0);
	out_u16(c, 0);
	out_u32(c, (uint32_t)n);		/* in format units */

	/* Both strings with their NULs, and the padding after them. */
	buf_reserve(&c->out, pad4(n));
	memcpy(c->out.data + c->out.len, text[0], instance_len);
	memcpy(c->out.data + c->out.len + instance_len, text[1],
	       n - instance_len);
	memset(c->out.data + c->out.len + n, 0, pad4(n) - n);
	c->out.len += pad4(n);
	finish_void_request(c, seq);
}

static void
cmd_focus(struct conn *c, const uint32_t *arg, const char *const *text,
	  const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;

	uint16_t seq = begin_request(c, X_SET_INPUT_FOCUS,
				     X_REVERT_TO_PARENT, 3);

	out_u32(c, arg[0]);
	out_u32(c, 0);				/* CurrentTime */
	finish_void_request(c, seq);
}

static void
cmd_sleep(struct conn *c, const uint32_t *arg, const char *const *text,
	  const uint32_t *words, size_t n_words)
{
	(void)text;
	(void)words;
	(void)n_words;

	int64_t deadline = now_ms() + arg[0];

	/* read_packet() queues the StateNotify events among what comes. */
	while (read_packet(c, deadline, true))
		;
	puts("slept");
}

/* Argument kinds: 'w' a window (a number, "root" or "self"), 'u' 32 bits,
 * 's' 16 bits, 'b' 8 bits, 't' a text of up to MAX_TEXT_LEN bytes, '*' any
 * number of 32-bit words. */
static const struct command {
	const char *name;
	const char *args;
	void (*run)(struct conn *c, const uint32_t *arg,
		    const char *const *text, const uint32_t *words,
		    size_t n_words);
} commands[] = {
	{ "info", "", cmd_info },
	{ "version", "ss", cmd_version },
	{ "status", "", cmd_status },
	{ "windows", "", cmd_windows },
	{ "hint", "wuuuuu", cmd_hint },
	{ "select", "wu", cmd_select },
	{ "pause", "u", cmd_pause },
	{ "power", "uu", cmd_power },
	{ "outputs", "", cmd_outputs },
	{ "trace-start", "", cmd_trace_start },
	{ "trace-read", "u", cmd_trace_read },
	{ "trace-stop", "", cmd_trace_stop },
	{ "raw", "bs*", cmd_raw },
	{ "wait-event", "u", cmd_wait_event },
	{ "create-window", "", cmd_create_window },
	{ "set-class", "tt", cmd_set_class },
	{ "focus", "w", cmd_focus },
	{ "sleep", "u", cmd_sleep },
};

/* Decimal or 0x hex, nothing else (no sign, no octal). */
static bool
parse_number(const char *s, uint32_t max, uint32_t *out)
{
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (base == 10 ? !isdigit((unsigned char)s[0]) :
			 !isxdigit((unsigned char)s[0]))
		return false;

	char *end;

	errno = 0;
	unsigned long long v = strtoull(s, &end, base);

	if (errno || *end || v > max)
		return false;
	*out = (uint32_t)v;
	return true;
}

static const struct command *
find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	}
	return NULL;
}

/* Parses the commands from argv[0] on, and runs them if c is set (else
 * only checks them).  Returns 0 or EXIT_USAGE. */
static int
run_commands(struct conn *c, int argc, char **argv)
{
	uint32_t *words = malloc(((size_t)argc + 1) * sizeof(*words));
	bool created = false;	/* a create-window came: "self" may */
	int i = 0;

	if (!words)
		fail("out of memory");
	while (i < argc) {
		const struct command *cmd = find_command(argv[i]);
		uint32_t arg[MAX_ARGS] = { 0 };
		const char *text[MAX_ARGS] = { 0 };
		size_t n_args = 0, n_words = 0;

		if (!cmd) {
			free(words);
			return usage_error("unknown command '%s'", argv[i]);
		}
		if (cmd->run == cmd_set_class && !created) {
			free(words);
			return usage_error("%s: no create-window before it",
					   cmd->name);
		}
		i++;
		for (const char *kind = cmd->args; *kind; kind++) {
			if (*kind == '*') {
				while (i < argc &&
				       parse_number(argv[i], UINT32_MAX,
						    &words[n_words])) {
					n_words++;
					i++;
				}
				continue;
			}

			uint32_t max = *kind == 's' ? UINT16_MAX :
				       *kind == 'b' ? UINT8_MAX : UINT32_MAX;
			bool ok = i < argc;

			if (ok && *kind == 'w' &&
			    strcmp(argv[i], "root") == 0) {
				if (c && !c->have_root)
					fail("the setup reply has no root");
				arg[n_args] = c ? c->root : 0;
			} else if (ok && *kind == 'w' &&
				   strcmp(argv[i], "self") == 0) {
				ok = created;
				arg[n_args] = c ? c->self : 0;
			} else if (ok && *kind == 't') {
				ok = strlen(argv[i]) <= MAX_TEXT_LEN;
				text[n_args] = argv[i];
			} else if (ok) {
				ok = parse_number(argv[i], max, &arg[n_args]);
			}
			if (!ok) {
				free(words);
				if (i >= argc)
					return usage_error("%s: too few "
							   "arguments",
							   cmd->name);
				return usage_error("%s: bad argument '%s'",
						   cmd->name, argv[i]);
			}
			n_args++;
			i++;
		}
		if (cmd->run == cmd_create_window)
			created = true;
		if (c) {
			cmd->run(c, arg, text, words, n_words);
			fflush(stdout);
		}
	}
	free(words);
	return 0;
}

int
main(int argc, char **argv)
{
	struct conn c = { .fd = -1 };
	const char *display = getenv("DISPLAY");
	bool use_auth = true;
	long opcode = -1;
	int status = 0;
	int i = 1;

	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--swapped") == 0) {
			c.msb = true;
		} else if (strcmp(argv[i], "--no-auth") == 0) {
			use_auth = false;
		} else if (strcmp(argv[i], "--opcode") == 0 && i + 1 < argc) {
			char *end;
			opcode = strtol(argv[++i], &end, 10);
			if (*end || opcode < 128 || opcode > 255)
				return usage_error("--opcode takes 128 to 255");
		} else if (strcmp(argv[i], "--display") == 0 && i + 1 < argc) {
			display = argv[++i];
		} else if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else {
			return usage_error("bad option '%s'", argv[i]);
		}
	}
	if (i == argc)
		return usage_error("no command");

	unsigned number;

	if (!display)
		return usage_error("no --display and no $DISPLAY");
	if (!parse_display(display, &number))
		return usage_error("'%s' is not a local display (:N or :N.S)",
				   display);
	if (run_commands(NULL, argc - i, argv + i))
		return EXIT_USAGE;

	struct cookie cookie;
	bool have_cookie = use_auth && find_cookie(number, &cookie);

	connect_display(&c, number);
	setup(&c, have_cookie ? &cookie : NULL);
	if (opcode >= 0) {
		c.major_opcode = (uint8_t)opcode;
		run_commands(&c, argc - i, argv + i);
	} else if (!query_extension(&c)) {
		printf("no %s extension\n", STILLFRAME_X_NAME);
		status = EXIT_NO_EXTENSION;
	} else {
		run_commands(&c, argc - i, argv + i);
	}
	close(c.fd);
	free(c.out.data);
	free(c.in.data);
	return status;
}
