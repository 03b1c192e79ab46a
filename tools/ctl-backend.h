/* SPDX-License-Identifier: MIT */
/*
 * stillframectl's backends: one interface, implemented for Weston's
 * stillframe_control_v1 (ctl-wayland.c) and for the Xorg module's
 * STILLFRAME extension (ctl-x11.c).  The commands (ctl-status.c,
 * ctl-top.c, ...) see only this.  Every operation returns 0, or the exit
 * status after saying on stderr what went wrong; an operation a backend
 * lacks is NULL, and the command says so through sf_ctl_unsupported.
 */
#ifndef STILLFRAMECTL_BACKEND_H
#define STILLFRAMECTL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctl-util.h"
#include "sf-types.h"			/* enum sf_priority */

/* --- what the operations exchange --- */

/* A "key value" pair of a status, and how it goes into JSON. */
enum sf_ctl_json {
	SF_CTL_JSON_GUESS,		/* a number or boolean as it is */
	SF_CTL_JSON_TEXT,		/* always a string */
	SF_CTL_JSON_LITERAL,		/* as it is */
	SF_CTL_JSON_LIST,		/* "a,b" or "-": an array of strings */
};

struct sf_ctl_field {
	char *key;
	char *value;
	enum sf_ctl_json json;
};

struct sf_ctl_fields {
	struct sf_ctl_field *v;
	size_t n, cap;
};

/* What `top` counts: per item (surface or window) three counters, per
 * output two; the backend's sf_ctl_view names them. */
#define SF_CTL_ITEM_COUNTERS 3
#define SF_CTL_OUTPUT_COUNTERS 2

/* A surface or window. */
struct sf_ctl_item {
	uint32_t id;
	const char *cls, *label;	/* into fields, or static */
	const char *flags;		/* "a,b" or "-"; NULL if none */
	uint64_t counters[SF_CTL_ITEM_COUNTERS];
	struct sf_ctl_fields fields;	/* status's, in order */
};

struct sf_ctl_output {
	char *name;
	const char *state;		/* into the snapshot's fields */
	double refresh_hz;
	uint64_t counters[SF_CTL_OUTPUT_COUNTERS];
};

/* The status of stillframe at one moment, what `status` prints and
 * `top` compares. */
struct sf_ctl_snapshot {
	/* The lines the server sent, printed as they came; none when the
	 * backend builds them from fields and items. */
	char **lines;
	size_t n_lines, cap_lines;
	struct sf_ctl_fields fields;	/* every pair but the items' */
	struct sf_ctl_item *items;
	size_t n_items, cap_items;
	struct sf_ctl_output *outputs;
	size_t n_outputs, cap_outputs;
};

/* What `hint` sets; a max_mhz of 0 means no upper bound. */
struct sf_ctl_hints {
	uint32_t rate_num, rate_den;
	uint32_t min_mhz, max_mhz;
	enum sf_priority priority;	/* numbered as on the wire */
};

/* What an output's power follows, numbered as
 * stillframe_control_v1.output_power and SetOutputPower. */
enum sf_ctl_power {
	SF_CTL_POWER_AUTO = 0,
	SF_CTL_POWER_ON = 1,
	SF_CTL_POWER_OFF = 2,
};

/* One output as `output` shows it. */
struct sf_ctl_power_row {
	char name[256];
	uint32_t output;		/* the backend's id for it */
	bool powered;
	char line[512];			/* what `output` prints */
};

struct sf_ctl_trace_progress {
	uint64_t events, dropped;
	/* Stopped, and everything read: the recording is over. */
	bool finished;
};

/* --- how a backend's status looks in `top` and `hint` --- */

struct sf_ctl_view {
	const char *item;		/* "surface", "window" */
	const char *items_json;		/* "surfaces", "windows" */
	const char *id_column;		/* "surface", "window" */
	int id_width;			/* printf's width, < 0: left */
	bool id_hex;			/* 0x%x, with a JSON member too */
	const char *item_counters[SF_CTL_ITEM_COUNTERS];
	int item_widths[SF_CTL_ITEM_COUNTERS];
	/* Which counters say an item is not quiet. */
	bool item_quiet[SF_CTL_ITEM_COUNTERS];
	const char *output_counters[SF_CTL_OUTPUT_COUNTERS];
	int output_widths[SF_CTL_OUTPUT_COUNTERS];

	/* What hint takes. */
	const char *target;		/* "SURFACE-ID", "WINDOW" */
	bool (*parse_target)(const char *s, uint32_t *id);
	const char *target_error;	/* after "'...' " */
};

/* --- the interface --- */

/* A backend's connection; each backend's own begins with this. */
struct sf_ctl_conn {
	const struct sf_ctl_backend *backend;
};

struct sf_ctl_backend {
	const char *name;		/* "Wayland", "X11" */
	/* For messages: "compositor", "server"; the other backend's
	 * server; what this one speaks. */
	const char *server;
	const char *peer;
	const char *protocol;
	/* Appended to "stillframe manages no output called ...". */
	const char *output_note;
	const struct sf_ctl_view *view;
	/* Set when this stillframectl was built without it: why. */
	const char *unavailable;

	int (*connect)(struct sf_ctl_conn **conn);
	/* NULL-safe. */
	void (*disconnect)(struct sf_ctl_conn *conn);

	int (*snapshot)(struct sf_ctl_conn *conn, struct sf_ctl_snapshot *st);
	/* The status as Prometheus text, into st->lines. */
	int (*prometheus)(struct sf_ctl_conn *conn,
			  struct sf_ctl_snapshot *st);

	int (*get_paused)(struct sf_ctl_conn *conn, bool *paused);
	int (*set_paused)(struct sf_ctl_conn *conn, bool paused);

	int (*hint)(struct sf_ctl_conn *conn, uint32_t id,
		    const struct sf_ctl_hints *hints);

	int (*list_power)(struct sf_ctl_conn *conn,
			  struct sf_ctl_power_row **rows, size_t *n);
	int (*set_power)(struct sf_ctl_conn *conn,
			 const struct sf_ctl_power_row *row,
			 enum sf_ctl_power power);

	/* Starts the server's recording, reads what it recorded since the
	 * last read into `out`, stops it; the connection's end ends it
	 * too. */
	int (*trace_start)(struct sf_ctl_conn *conn);
	int (*trace_read)(struct sf_ctl_conn *conn, FILE *out,
			  struct sf_ctl_trace_progress *progress);
	int (*trace_stop)(struct sf_ctl_conn *conn);
};

/* ctl-views.c */
extern const struct sf_ctl_view sf_ctl_wayland_view;
extern const struct sf_ctl_view sf_ctl_x11_view;

extern const struct sf_ctl_backend sf_ctl_backend_wayland;
extern const struct sf_ctl_backend sf_ctl_backend_x11;

/* X when only $DISPLAY names a server, as in an X session; Wayland
 * otherwise, X programs under a Wayland compositor included. */
const struct sf_ctl_backend *
sf_ctl_backend_choose(enum sf_ctl_choice choice);

/* Connects to the backend sf_ctl_backend_choose(choice) names; 0, or
 * the exit status after saying why not. */
int
sf_ctl_connect(enum sf_ctl_choice choice, struct sf_ctl_conn **conn);

/* For a command without operands that talks to stillframe, once its
 * options are read: sf_ctl_options_end, then sf_ctl_connect to what
 * *o->choice names.  True when the command stops there, with its exit
 * status in *exit_status and nothing to disconnect. */
bool
sf_ctl_options_end_connect(const struct sf_ctl_options *o, int argc,
			   char **argv, struct sf_ctl_conn **conn,
			   int *exit_status);

void
sf_ctl_disconnect(struct sf_ctl_conn *conn);

/* Asks for `paused` and checks that it took ("stillframe did not
 * pause"); for pause, resume and measure --ab. */
int
sf_ctl_set_paused(struct sf_ctl_conn *conn, bool paused);

/* "`what` is for PEER: PROTOCOL has no `capability`"; returns 1. */
int
sf_ctl_unsupported(const struct sf_ctl_backend *b, const char *what,
		   const char *capability);

/* --- building and freeing snapshots (ctl-snapshot.c) --- */

const char *
sf_ctl_power_name(enum sf_ctl_power power);

/* Each returns false when out of memory. */
bool
sf_ctl_fields_add(struct sf_ctl_fields *fields, const char *key,
		  size_t key_len, const char *value, size_t value_len,
		  enum sf_ctl_json json);

/* With NUL-terminated strings. */
bool
sf_ctl_fields_put(struct sf_ctl_fields *fields, const char *key,
		  const char *value, enum sf_ctl_json json);

const char *
sf_ctl_fields_get(const struct sf_ctl_fields *fields, const char *key);

bool
sf_ctl_snapshot_add_line(struct sf_ctl_snapshot *st, const char *line);

/* The item with `id`, added if new; NULL when out of memory. */
struct sf_ctl_item *
sf_ctl_snapshot_item(struct sf_ctl_snapshot *st, uint32_t id);

struct sf_ctl_output *
sf_ctl_snapshot_add_output(struct sf_ctl_snapshot *st, const char *name);

void
sf_ctl_snapshot_free(struct sf_ctl_snapshot *st);

/* Grows *array of `size`-byte elements to hold n + 1. */
bool
sf_ctl_grow(void **array, size_t *cap, size_t n, size_t size);

#endif /* STILLFRAMECTL_BACKEND_H */
