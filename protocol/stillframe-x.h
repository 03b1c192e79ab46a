/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAME_X_H
#define STILLFRAME_X_H

/*
 * The STILLFRAME X extension: wire format, shared by the Xorg module and
 * its clients (stillframectl, the tests).  stillframe-x.xml describes the
 * same requests in xcb-proto's language; the two must agree, and
 * tests/xorg checks the sizes below against the module.
 *
 * Every request starts with the usual four bytes: the extension's major
 * opcode, the minor opcode below, and the length in 4-byte units.
 * Integers are in the client's byte order (the module swaps for clients
 * of the other one).  A request of the wrong length gets BadLength.
 *
 * Version 1.2.
 */

#include <stdint.h>

#define STILLFRAME_X_NAME "STILLFRAME"
#define STILLFRAME_X_MAJOR_VERSION 1
#define STILLFRAME_X_MINOR_VERSION 2	/* 1.1: output power, 1.2: trace */

/* The window property any client (or xprop) may set on its top-level
 * window: CARDINAL, format 32, 5 items (see STILLFRAME_HINT_*). */
#define STILLFRAME_X_HINT_PROPERTY "_STILLFRAME_HINT"
/* Mesa sets it on windows that want variable refresh: a game. */
#define STILLFRAME_X_VRR_PROPERTY "_VARIABLE_REFRESH"

/* _STILLFRAME_HINT items, in order.  rate_num/rate_den: the content's
 * frame rate (0/anything: none; den 0 with num != 0 is invalid);
 * min/max: the acceptable refresh range in mHz (0,0: none; min > max
 * invalid); flags: STILLFRAME_X_FLAG_*. */
enum stillframe_x_hint_item {
	STILLFRAME_X_HINT_RATE_NUM = 0,
	STILLFRAME_X_HINT_RATE_DEN,
	STILLFRAME_X_HINT_MIN_MHZ,
	STILLFRAME_X_HINT_MAX_MHZ,
	STILLFRAME_X_HINT_FLAGS,
	STILLFRAME_X_HINT_ITEMS,
};

/* Hint flags: at most one priority. */
#define STILLFRAME_X_FLAG_ESSENTIAL (1u << 0)	/* never held */
#define STILLFRAME_X_FLAG_BACKGROUND (1u << 1)	/* held freely */
#define STILLFRAME_X_FLAG_ALL                                                  \
	(STILLFRAME_X_FLAG_ESSENTIAL | STILLFRAME_X_FLAG_BACKGROUND)

/* Minor opcodes. */
enum stillframe_x_request {
	STILLFRAME_X_QUERY_VERSION = 0,
	STILLFRAME_X_GET_STATUS = 1,
	STILLFRAME_X_LIST_WINDOWS = 2,
	STILLFRAME_X_SET_WINDOW_HINT = 3,
	STILLFRAME_X_SELECT_EVENTS = 4,
	STILLFRAME_X_SET_PAUSED = 5,
	STILLFRAME_X_SET_OUTPUT_POWER = 6,	/* since 1.1 */
	STILLFRAME_X_LIST_OUTPUT_POWER = 7,	/* since 1.1 */
	STILLFRAME_X_START_TRACE = 8,		/* since 1.2 */
	STILLFRAME_X_READ_TRACE = 9,		/* since 1.2 */
	STILLFRAME_X_STOP_TRACE = 10,		/* since 1.2 */
	STILLFRAME_X_REQUEST_COUNT,
};

/* Events, from the extension's first event code. */
#define STILLFRAME_X_STATE_NOTIFY 0
#define STILLFRAME_X_EVENT_COUNT 1

/* SelectEvents mask. */
#define STILLFRAME_X_STATE_NOTIFY_MASK (1u << 0)

/* Output states, as the policy names them (GetStatus, StateNotify). */
enum stillframe_x_state {
	STILLFRAME_X_STATE_ACTIVE = 0,
	STILLFRAME_X_STATE_LOW_REFRESH,
	STILLFRAME_X_STATE_DIM,
	STILLFRAME_X_STATE_STANDBY,
	STILLFRAME_X_STATE_OFF,
};

/* Window classes (ListWindows). */
enum stillframe_x_class {
	STILLFRAME_X_CLASS_STATIC = 0,
	STILLFRAME_X_CLASS_INTERACTIVE,
	STILLFRAME_X_CLASS_ANIMATING,
	STILLFRAME_X_CLASS_VIDEO,
	STILLFRAME_X_CLASS_BLINKING,
	STILLFRAME_X_CLASS_TICKING,
};

/* ListWindows flags. */
#define STILLFRAME_X_WINDOW_HELD (1u << 0)	/* its client is held now */
#define STILLFRAME_X_WINDOW_ESSENTIAL (1u << 1)
#define STILLFRAME_X_WINDOW_BACKGROUND (1u << 2)
#define STILLFRAME_X_WINDOW_HINTED (1u << 3)	/* _STILLFRAME_HINT set */
#define STILLFRAME_X_WINDOW_GAME (1u << 4)	/* _VARIABLE_REFRESH set */

/*
 * Requests.  Sizes in bytes; `length` is size / 4.
 */

/* QueryVersion: the client's version; the reply has the server's. */
struct stillframe_x_query_version_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_QUERY_VERSION */
	uint16_t length;		/* 2 */
	uint16_t major_version;
	uint16_t minor_version;
};
#define STILLFRAME_X_QUERY_VERSION_REQ_SIZE 8

struct stillframe_x_query_version_reply {
	uint8_t type;			/* X_Reply */
	uint8_t pad0;
	uint16_t sequence;
	uint32_t length;		/* 0 */
	uint16_t major_version;
	uint16_t minor_version;
	uint32_t pad1[5];
};

/* GetStatus: a fixed part, then n_outputs output records, each followed
 * by its name (name_len bytes, padded to 4). */
struct stillframe_x_get_status_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_GET_STATUS */
	uint16_t length;		/* 1 */
};
#define STILLFRAME_X_GET_STATUS_REQ_SIZE 4

struct stillframe_x_get_status_reply {
	uint8_t type;
	uint8_t paused;			/* stillframectl pause */
	uint16_t sequence;
	uint32_t length;		/* of what follows, in 4-byte units */
	uint32_t n_outputs;
	uint32_t n_windows;		/* tracked top-level windows */
	uint32_t held_clients;		/* clients held right now */
	uint32_t idle_ms;		/* since the last input */
	uint32_t pad[2];
};

struct stillframe_x_output_info {
	uint32_t output;		/* RandR output XID */
	uint32_t refresh_mhz;		/* current mode's refresh */
	uint32_t native_mhz;		/* the user's mode's refresh */
	uint32_t damage_events;		/* frames of damage seen */
	uint32_t held;			/* damage frames held back */
	uint32_t releases;		/* held clients let go */
	uint8_t state;			/* enum stillframe_x_state */
	uint8_t dpms;			/* 0 on, 1 standby, 3 off (DPMS) */
	uint8_t screen;
	uint8_t name_len;
};
#define STILLFRAME_X_OUTPUT_INFO_SIZE 28

/* ListWindows: n_windows window records, each followed by its
 * WM_CLASS instance (name_len bytes, padded to 4). */
struct stillframe_x_list_windows_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_LIST_WINDOWS */
	uint16_t length;		/* 1 */
};
#define STILLFRAME_X_LIST_WINDOWS_REQ_SIZE 4

struct stillframe_x_list_windows_reply {
	uint8_t type;
	uint8_t pad0;
	uint16_t sequence;
	uint32_t length;
	uint32_t n_windows;
	uint32_t pad1[5];
};

struct stillframe_x_window_info {
	uint32_t window;
	uint32_t client;		/* the owner's resource base */
	uint32_t rate_mhz;		/* measured damage rate */
	uint32_t damage_events;
	uint32_t held;
	uint32_t requests;		/* the owner's requests so far */
	uint8_t cls;			/* enum stillframe_x_class */
	uint8_t flags;			/* STILLFRAME_X_WINDOW_* */
	uint16_t name_len;
};
#define STILLFRAME_X_WINDOW_INFO_SIZE 28

/* SetWindowHint: sets _STILLFRAME_HINT on one of the client's own
 * top-level windows.  BadWindow: no such window; BadMatch: not a
 * top-level window; BadAccess: another client's window; BadValue:
 * rate_den 0 with rate_num set, min above max, unknown flags or both
 * priorities. */
struct stillframe_x_set_window_hint_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_SET_WINDOW_HINT */
	uint16_t length;		/* 7 */
	uint32_t window;
	uint32_t rate_num;
	uint32_t rate_den;
	uint32_t min_mhz;
	uint32_t max_mhz;
	uint32_t flags;
};
#define STILLFRAME_X_SET_WINDOW_HINT_REQ_SIZE 28

/* SelectEvents: StateNotify events to this client, for as long as the
 * window lives (any window of the client's; the root is fine).
 * BadWindow, BadValue (unknown mask bits). */
struct stillframe_x_select_events_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_SELECT_EVENTS */
	uint16_t length;		/* 3 */
	uint32_t window;
	uint32_t mask;			/* STILLFRAME_X_*_MASK */
};
#define STILLFRAME_X_SELECT_EVENTS_REQ_SIZE 12

/* SetPaused: stillframectl pause (1) and resume (0).  BadValue for
 * anything else; BadAccess for untrusted clients. */
struct stillframe_x_set_paused_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_SET_PAUSED */
	uint16_t length;		/* 2 */
	uint32_t paused;
};
#define STILLFRAME_X_SET_PAUSED_REQ_SIZE 8

/* What an output's power follows (SetOutputPower, ListOutputPower). */
enum stillframe_x_power {
	STILLFRAME_X_POWER_AUTO = 0,	/* the UnneededOutputs option */
	STILLFRAME_X_POWER_ON = 1,
	STILLFRAME_X_POWER_OFF = 2,	/* CRTC disabled, layout kept */
};

enum stillframe_x_output_kind {
	STILLFRAME_X_KIND_INTERNAL = 0,
	STILLFRAME_X_KIND_EXTERNAL = 1,
	STILLFRAME_X_KIND_VIRTUAL = 2,
};

/* SetOutputPower (1.1): stillframectl output NAME on|off|auto.
 * RRErrorBase + BadRROutput: not a RandR output; BadMatch: an output
 * stillframe does not manage (it never had a CRTC); BadValue: power not
 * a stillframe_x_power; BadAccess for untrusted clients. */
struct stillframe_x_set_output_power_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_SET_OUTPUT_POWER */
	uint16_t length;		/* 3 */
	uint32_t output;		/* RandR output XID */
	uint32_t power;			/* enum stillframe_x_power */
};
#define STILLFRAME_X_SET_OUTPUT_POWER_REQ_SIZE 12

/* ListOutputPower (1.1): n_outputs records, each followed by the
 * output's name (name_len bytes, padded to 4). */
struct stillframe_x_list_output_power_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_LIST_OUTPUT_POWER */
	uint16_t length;		/* 1 */
};
#define STILLFRAME_X_LIST_OUTPUT_POWER_REQ_SIZE 4

struct stillframe_x_list_output_power_reply {
	uint8_t type;
	uint8_t pad0;
	uint16_t sequence;
	uint32_t length;
	uint32_t n_outputs;
	uint32_t pad1[5];
};

struct stillframe_x_output_power_info {
	uint32_t output;		/* RandR output XID */
	uint32_t powered_off_ms;	/* time kept off so far */
	uint8_t kind;			/* enum stillframe_x_output_kind */
	uint8_t powered;		/* 1 on, 0 kept off */
	uint8_t request;		/* enum stillframe_x_power */
	uint8_t name_len;
};
#define STILLFRAME_X_OUTPUT_POWER_INFO_SIZE 12

/*
 * Trace recording (1.2): StartTrace, then ReadTrace a few times a second
 * until StopTrace and a ReadTrace whose reply says finished.  The text is
 * the stillframe trace format (doc/trace-format.md), starting with the
 * world as it was at the start, times in ms since then.  One recording
 * runs at a time; it belongs to the client that started it and ends
 * when that client goes.  Events that find the module's buffer full are
 * dropped and counted.
 */
enum stillframe_x_trace_status {
	STILLFRAME_X_TRACE_STARTED = 0,
	STILLFRAME_X_TRACE_BUSY = 1,		/* another client records */
	STILLFRAME_X_TRACE_NO_MEMORY = 2,
};

/* StartTrace: BadAccess for untrusted clients. */
struct stillframe_x_start_trace_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_START_TRACE */
	uint16_t length;		/* 1 */
};
#define STILLFRAME_X_START_TRACE_REQ_SIZE 4

struct stillframe_x_start_trace_reply {
	uint8_t type;
	uint8_t status;			/* stillframe_x_trace_status */
	uint16_t sequence;
	uint32_t length;		/* 0 */
	uint32_t pad[6];
};

/* ReadTrace: up to max_bytes of whole lines recorded since the last
 * read.  BadValue: max_bytes outside READ_MIN..READ_MAX; BadMatch: no
 * recording; BadAccess: another client's recording. */
#define STILLFRAME_X_TRACE_READ_MIN 512	/* the longest line */
#define STILLFRAME_X_TRACE_READ_MAX 65536
struct stillframe_x_read_trace_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_READ_TRACE */
	uint16_t length;		/* 2 */
	uint32_t max_bytes;
};
#define STILLFRAME_X_READ_TRACE_REQ_SIZE 8

/* Followed by n_bytes of text, padded to 4.  finished: the recording
 * was stopped and this read emptied it; it is gone afterwards. */
struct stillframe_x_read_trace_reply {
	uint8_t type;
	uint8_t finished;
	uint16_t sequence;
	uint32_t length;		/* padded n_bytes / 4 */
	uint32_t n_bytes;
	uint32_t events;		/* recorded so far, header excluded */
	uint32_t dropped;		/* found the buffer full */
	uint32_t pending;		/* bytes left for the next read */
	uint32_t pad[2];
};

/* StopTrace: ends the recording with the trace's end event now; what is
 * buffered stays readable.  BadMatch, BadAccess as ReadTrace. */
struct stillframe_x_stop_trace_req {
	uint8_t major_opcode;
	uint8_t minor_opcode;		/* STILLFRAME_X_STOP_TRACE */
	uint16_t length;		/* 1 */
};
#define STILLFRAME_X_STOP_TRACE_REQ_SIZE 4

/* StateNotify: an output changed state or refresh rate. */
struct stillframe_x_state_notify_event {
	uint8_t type;			/* first event + STATE_NOTIFY */
	uint8_t state;			/* enum stillframe_x_state */
	uint16_t sequence;
	uint32_t window;		/* as selected */
	uint32_t output;		/* RandR output XID */
	uint32_t refresh_mhz;
	uint32_t timestamp;		/* server time, ms */
	uint32_t pad[3];
};

#endif /* STILLFRAME_X_H */
