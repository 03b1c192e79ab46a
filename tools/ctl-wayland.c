/* SPDX-License-Identifier: MIT */
/*
 * stillframectl's Wayland backend (ctl-backend.h): the stillframe plugin
 * of a running Weston, through stillframe_control_v1.  Its status comes
 * as "key value" lines, kept as they came for `status` and read into
 * fields, surfaces and outputs for --json and `top`.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wayland-client.h>

#include "ctl-backend.h"
#include "ctl-wayland-log.h"
#include "stillframe-control-v1-client-protocol.h"
#include "stillframe-v1-client-protocol.h"	/* the priority enum */

_Static_assert((int)SF_PRIORITY_NORMAL ==
	       (int)STILLFRAME_SURFACE_V1_PRIORITY_NORMAL &&
	       (int)SF_PRIORITY_ESSENTIAL ==
	       (int)STILLFRAME_SURFACE_V1_PRIORITY_ESSENTIAL &&
	       (int)SF_PRIORITY_BACKGROUND ==
	       (int)STILLFRAME_SURFACE_V1_PRIORITY_BACKGROUND,
	       "hint's priority is numbered as stillframe_surface_v1 does");
_Static_assert((int)SF_CTL_POWER_AUTO ==
	       (int)STILLFRAME_CONTROL_V1_OUTPUT_POWER_AUTO &&
	       (int)SF_CTL_POWER_ON == (int)STILLFRAME_CONTROL_V1_OUTPUT_POWER_ON &&
	       (int)SF_CTL_POWER_OFF == (int)STILLFRAME_CONTROL_V1_OUTPUT_POWER_OFF,
	       "output power is numbered as stillframe_control_v1 does");

struct wl_trace;

static void
wl_trace_free(struct wl_trace *wt);

/* --- the connection --- */

struct ctl {
	struct sf_ctl_conn base;
	const char *socket;		/* for messages */
	struct wl_display *display;
	struct wl_registry *registry;
	struct stillframe_control_v1 *control;
	bool paused;
	bool have_paused;
	uint32_t hint_surface;		/* for an unknown_surface error */
	uint32_t control_version;	/* as bound */
	struct wl_trace *trace;
};

static void
control_handle_paused(void *data, struct stillframe_control_v1 *control,
		      uint32_t paused)
{
	struct ctl *ctl = data;

	ctl->paused = paused != 0;
	ctl->have_paused = true;
}

static const struct stillframe_control_v1_listener control_listener = {
	.paused = control_handle_paused,
};

static void
registry_handle_global(void *data, struct wl_registry *registry,
		       uint32_t name, const char *interface, uint32_t version)
{
	struct ctl *ctl = data;

	if (ctl->control ||
	    strcmp(interface, stillframe_control_v1_interface.name) != 0)
		return;
	/* 2 has set_output_power, 3 get_status_prometheus, 4
	 * record_trace; an older plugin offers less. */
	ctl->control_version = version < 4 ? version : 4;
	ctl->control = wl_registry_bind(registry, name,
					&stillframe_control_v1_interface,
					ctl->control_version);
	stillframe_control_v1_add_listener(ctl->control, &control_listener,
					   ctl);
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_handle_global,
	.global_remove = sf_ctl_wayland_handle_global_remove,
};

/* After a failed dispatch: says why, returns the exit status. */
static int
connection_error(struct ctl *ctl)
{
	int err = wl_display_get_error(ctl->display);

	if (err != EPROTO) {
		fprintf(stderr,
			"stillframectl: lost the connection to the compositor at %s: %s\n",
			ctl->socket, strerror(err));
		return 1;
	}

	const struct wl_interface *interface = NULL;
	uint32_t id = 0;
	uint32_t code = wl_display_get_protocol_error(ctl->display, &interface,
						      &id);

	if (interface == &stillframe_control_v1_interface &&
	    code == STILLFRAME_CONTROL_V1_ERROR_UNKNOWN_SURFACE) {
		fprintf(stderr,
			"stillframectl: no tracked surface has id %u (see 'stillframectl status')\n",
			ctl->hint_surface);
		return 1;
	}
	fprintf(stderr, "stillframectl: the compositor refused a request");
	if (sf_ctl_wayland_message()[0])
		fprintf(stderr, ": %s", sf_ctl_wayland_message());
	else
		fprintf(stderr, ": error %u on %s@%u", code,
			interface ? interface->name : "?", id);
	fputc('\n', stderr);
	return 1;
}

static int
ctl_connect(struct sf_ctl_conn **conn)
{
	const char *name = getenv("WAYLAND_DISPLAY");
	struct ctl *ctl = calloc(1, sizeof(*ctl));

	if (!ctl)
		return sf_ctl_out_of_memory();
	*ctl = (struct ctl){ .base.backend = &sf_ctl_backend_wayland,
			     .socket = name ? name : "wayland-0" };
	/* Handed out at once: the caller disconnects even a failed
	 * connection. */
	*conn = &ctl->base;
	sf_ctl_wayland_log_capture();
	ctl->display = wl_display_connect(NULL);
	if (!ctl->display) {
		int err = errno;

		fprintf(stderr,
			"stillframectl: no Wayland compositor at %s%s: %s\n",
			ctl->socket,
			name ? "" : " (WAYLAND_DISPLAY is not set)",
			sf_ctl_wayland_message()[0] ? sf_ctl_wayland_message() : strerror(err));
		return 1;
	}
	ctl->registry = wl_display_get_registry(ctl->display);
	wl_registry_add_listener(ctl->registry, &registry_listener, ctl);
	/* The first round trip lists the globals, the second brings the
	 * paused event sent on bind. */
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	if (!ctl->control) {
		fprintf(stderr,
			"stillframectl: the compositor at %s does not offer stillframe_control_v1: "
			"is weston running with modules=stillframe.so? "
			"(It is offered only to the compositor's own user.)\n",
			ctl->socket);
		return 1;
	}
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	return 0;
}

static void
ctl_disconnect(struct sf_ctl_conn *conn)
{
	struct ctl *ctl = (struct ctl *)conn;

	if (!ctl)
		return;
	wl_trace_free(ctl->trace);
	if (ctl->control)
		stillframe_control_v1_destroy(ctl->control);
	if (ctl->registry)
		wl_registry_destroy(ctl->registry);
	if (ctl->display) {
		wl_display_flush(ctl->display);
		wl_display_disconnect(ctl->display);
	}
	free(ctl);
}

/* --- a status report --- */

struct lines {
	struct sf_ctl_snapshot *st;
	bool done;
	bool out_of_memory;
};

static void
status_handle_line(void *data, struct stillframe_status_v1 *status,
		   const char *text)
{
	struct lines *l = data;

	if (!sf_ctl_snapshot_add_line(l->st, text))
		l->out_of_memory = true;
}

static void
status_handle_done(void *data, struct stillframe_status_v1 *status)
{
	struct lines *l = data;

	l->done = true;
	stillframe_status_v1_destroy(status);
}

static const struct stillframe_status_v1_listener status_listener = {
	.line = status_handle_line,
	.done = status_handle_done,
};

/* The report's lines, as they came, into st->lines. */
static int
fetch_lines(struct ctl *ctl, struct stillframe_status_v1 *status,
	    struct sf_ctl_snapshot *st)
{
	struct lines l = { .st = st };

	*st = (struct sf_ctl_snapshot){ 0 };
	stillframe_status_v1_add_listener(status, &status_listener, &l);
	while (!l.done)
		if (wl_display_dispatch(ctl->display) < 0)
			return connection_error(ctl);
	return l.out_of_memory ? sf_ctl_out_of_memory() : 0;
}

/* Labels are always text; the rest goes into JSON as it looks. */
static enum sf_ctl_json
json_kind(const char *key, size_t len)
{
	return len == 5 && strncmp(key, "label", 5) == 0 ? SF_CTL_JSON_TEXT
							 : SF_CTL_JSON_GUESS;
}

/* "surface.N" gives 1, "surface.N.sub" gives 2 with *sub set, anything
 * else 0. */
static int
parse_surface_key(const char *key, uint32_t *id, const char **sub)
{
	static const char prefix[] = "surface.";
	const char *p = key + sizeof(prefix) - 1;
	uint64_t value = 0;

	if (strncmp(key, prefix, sizeof(prefix) - 1) != 0 ||
	    *p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		value = value * 10 + (uint64_t)(*p - '0');
		if (value > UINT32_MAX)
			return 0;
	}
	*id = (uint32_t)value;
	if (*p == '\0')
		return 1;
	if (*p == '.' && p[1] != '\0') {
		*sub = p + 1;
		return 2;
	}
	return 0;
}

/* "class=static commits=3 ... label=some text": label takes the rest of
 * the line, as it may hold spaces. */
static bool
parse_surface_fields(struct sf_ctl_fields *fields, const char *value)
{
	const char *p = value;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (strncmp(p, "label=", 6) == 0)
			return sf_ctl_fields_add(fields, "label", 5, p + 6,
						 strlen(p + 6),
						 SF_CTL_JSON_TEXT);

		const char *end = strchr(p, ' ');
		const char *eq = memchr(p, '=', end ? (size_t)(end - p)
						    : strlen(p));

		if (!end)
			end = p + strlen(p);
		if (eq && !sf_ctl_fields_add(fields, p, (size_t)(eq - p),
					     eq + 1, (size_t)(end - eq - 1),
					     json_kind(p, (size_t)(eq - p))))
			return false;
		p = end;
	}
	return true;
}

static bool
status_parse_line(struct sf_ctl_snapshot *st, const char *line)
{
	const char *space = strchr(line, ' ');
	size_t key_len = space ? (size_t)(space - line) : strlen(line);
	const char *value = space ? space + 1 : "";
	char *key = strndup(line, key_len);
	const char *sub = NULL;
	uint32_t id;
	bool ok = true;

	if (!key)
		return false;
	switch (parse_surface_key(key, &id, &sub)) {
	case 1: {
		struct sf_ctl_item *item = sf_ctl_snapshot_item(st, id);

		ok = item && parse_surface_fields(&item->fields, value);
		break;
	}
	case 2: {
		struct sf_ctl_item *item = sf_ctl_snapshot_item(st, id);

		ok = item && sf_ctl_fields_add(&item->fields, sub, strlen(sub),
					       value, strlen(value),
					       json_kind(sub, strlen(sub)));
		break;
	}
	default:
		ok = sf_ctl_fields_add(&st->fields, key, key_len, value,
				       strlen(value), json_kind(key, key_len));
		break;
	}
	free(key);
	return ok;
}

static uint64_t
field_u64(const struct sf_ctl_fields *fields, const char *key)
{
	const char *value = sf_ctl_fields_get(fields, key);

	return value ? strtoull(value, NULL, 10) : 0;
}

/* "output.NAME.state": the name of an output in a status. */
static bool
status_output_name(const char *key, char *name, size_t size)
{
	static const char prefix[] = "output.", suffix[] = ".state";
	size_t len = strlen(key);

	if (strncmp(key, prefix, sizeof(prefix) - 1) != 0 ||
	    len <= sizeof(prefix) - 1 + sizeof(suffix) - 1 ||
	    strcmp(key + len - (sizeof(suffix) - 1), suffix) != 0)
		return false;
	snprintf(name, size, "%.*s",
		 (int)(len - (sizeof(prefix) - 1) - (sizeof(suffix) - 1)),
		 key + sizeof(prefix) - 1);
	return true;
}

static const char *
output_field(const struct sf_ctl_snapshot *st, const char *name,
	     const char *what)
{
	char key[300];
	const char *v;

	snprintf(key, sizeof(key), "output.%s.%s", name, what);
	v = sf_ctl_fields_get(&st->fields, key);
	return v ? v : "?";
}

/* What top counts, from the lines: a surface's commits, held and
 * throttled frames, an output's repaints and suppressed ones. */
static bool
collect_counters(struct sf_ctl_snapshot *st)
{
	char name[256];

	for (size_t i = 0; i < st->n_items; i++) {
		struct sf_ctl_item *item = &st->items[i];
		const char *cls = sf_ctl_fields_get(&item->fields, "class");
		const char *label = sf_ctl_fields_get(&item->fields, "label");

		item->cls = cls ? cls : "-";
		item->label = label ? label : "-";
		item->counters[0] = field_u64(&item->fields, "commits");
		item->counters[1] = field_u64(&item->fields, "held");
		item->counters[2] = field_u64(&item->fields, "throttled");
	}
	for (size_t i = 0; i < st->fields.n; i++) {
		if (!status_output_name(st->fields.v[i].key, name,
					sizeof(name)))
			continue;

		struct sf_ctl_output *o = sf_ctl_snapshot_add_output(st, name);

		if (!o)
			return false;
		o->state = st->fields.v[i].value;
		o->refresh_hz = strtod(output_field(st, name, "refresh_mhz"),
				       NULL) / 1000.0;
		o->counters[0] = strtoull(output_field(st, name, "repaints"),
					  NULL, 10);
		o->counters[1] = strtoull(output_field(st, name, "suppressed"),
					  NULL, 10);
	}
	return true;
}

static int
ctl_snapshot(struct sf_ctl_conn *conn, struct sf_ctl_snapshot *st)
{
	struct ctl *ctl = (struct ctl *)conn;
	int ret = fetch_lines(ctl, stillframe_control_v1_get_status(ctl->control),
			      st);

	if (ret != 0)
		return ret;
	for (size_t i = 0; i < st->n_lines; i++)
		if (!status_parse_line(st, st->lines[i]))
			return sf_ctl_out_of_memory();
	return collect_counters(st) ? 0 : sf_ctl_out_of_memory();
}

static int
ctl_prometheus(struct sf_ctl_conn *conn, struct sf_ctl_snapshot *st)
{
	struct ctl *ctl = (struct ctl *)conn;

	*st = (struct sf_ctl_snapshot){ 0 };
	if (ctl->control_version < 3) {
		fprintf(stderr, "stillframectl: the compositor's stillframe is too old for --prom (stillframe_control_v1 version %u; --prom needs 3)\n",
			ctl->control_version);
		return 1;
	}
	return fetch_lines(ctl, stillframe_control_v1_get_status_prometheus(
					ctl->control), st);
}

/* --- pause, hint, output power --- */

static int
ctl_get_paused(struct sf_ctl_conn *conn, bool *paused)
{
	struct ctl *ctl = (struct ctl *)conn;

	if (!ctl->have_paused) {
		fprintf(stderr, "stillframectl: the compositor did not say whether stillframe is paused\n");
		return 1;
	}
	*paused = ctl->paused;
	return 0;
}

/* The paused event answers before the round trip's end. */
static int
ctl_set_paused(struct sf_ctl_conn *conn, bool paused)
{
	struct ctl *ctl = (struct ctl *)conn;

	if (paused)
		stillframe_control_v1_pause(ctl->control);
	else
		stillframe_control_v1_resume(ctl->control);
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	return 0;
}

static int
ctl_hint(struct sf_ctl_conn *conn, uint32_t surface_id,
	 const struct sf_ctl_hints *h)
{
	struct ctl *ctl = (struct ctl *)conn;

	ctl->hint_surface = surface_id;
	stillframe_control_v1_set_surface_hints(ctl->control, surface_id,
						h->rate_num, h->rate_den,
						h->min_mhz, h->max_mhz,
						(uint32_t)h->priority);
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	return 0;
}

/* The outputs of the status, with their kind, power and state. */
static int
ctl_list_power(struct sf_ctl_conn *conn, struct sf_ctl_power_row **rows,
	       size_t *n)
{
	struct sf_ctl_snapshot st;
	int ret = ctl_snapshot(conn, &st);

	*rows = NULL;
	*n = 0;
	if (ret == 0 && !(*rows = calloc(st.n_outputs + 1, sizeof(**rows))))
		ret = sf_ctl_out_of_memory();
	for (size_t i = 0; ret == 0 && i < st.n_outputs; i++) {
		struct sf_ctl_power_row *row = &(*rows)[(*n)++];
		const char *name = st.outputs[i].name;
		const char *power = output_field(&st, name, "power");

		snprintf(row->name, sizeof(row->name), "%s", name);
		row->powered = strcmp(power, "on") == 0;
		snprintf(row->line, sizeof(row->line),
			 "%s: %s, power %s (asked: %s), state %s", name,
			 output_field(&st, name, "kind"), power,
			 output_field(&st, name, "power_request"),
			 output_field(&st, name, "state"));
	}
	sf_ctl_snapshot_free(&st);
	return ret;
}

static int
ctl_set_power(struct sf_ctl_conn *conn, const struct sf_ctl_power_row *row,
	      enum sf_ctl_power power)
{
	struct ctl *ctl = (struct ctl *)conn;

	if (ctl->control_version < 2) {
		fprintf(stderr, "stillframectl: the compositor's stillframe is too old to power outputs (stillframe_control_v1 version %u; output needs 2)\n",
			ctl->control_version);
		return 1;
	}
	stillframe_control_v1_set_output_power(ctl->control, row->name,
					       (uint32_t)power);
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	return 0;
}

/* --- trace --- */

struct wl_trace {
	struct ctl *ctl;
	struct stillframe_trace_v1 *trace;
	FILE *out;
	struct sf_ctl_trace_progress *progress;
	bool refused;
	char refusal[256];
};

static void
trace_handle_text(void *data, struct stillframe_trace_v1 *trace,
		  const char *text)
{
	struct wl_trace *wt = data;

	if (wt->out)
		fputs(text, wt->out);
}

static void
trace_handle_read_done(void *data, struct stillframe_trace_v1 *trace,
		       uint32_t events, uint32_t dropped, uint32_t pending,
		       uint32_t finished)
{
	struct wl_trace *wt = data;

	if (!wt->progress)
		return;
	wt->progress->events = events;
	wt->progress->dropped = dropped;
	wt->progress->finished = finished != 0;
}

static void
trace_handle_refused(void *data, struct stillframe_trace_v1 *trace,
		     uint32_t reason, const char *message)
{
	struct wl_trace *wt = data;

	wt->refused = true;
	snprintf(wt->refusal, sizeof(wt->refusal), "%s", message);
}

static const struct stillframe_trace_v1_listener trace_listener = {
	.text = trace_handle_text,
	.read_done = trace_handle_read_done,
	.refused = trace_handle_refused,
};

static void
wl_trace_free(struct wl_trace *wt)
{
	if (!wt)
		return;
	if (wt->trace)
		stillframe_trace_v1_destroy(wt->trace);
	free(wt);
}

static int
wl_trace_start(struct sf_ctl_conn *conn)
{
	struct ctl *ctl = (struct ctl *)conn;
	struct wl_trace *wt = calloc(1, sizeof(*wt));

	if (!wt)
		return sf_ctl_out_of_memory();
	wt->ctl = ctl;
	ctl->trace = wt;

	if (ctl->control_version < 4) {
		fprintf(stderr, "stillframectl: the compositor's stillframe is too old for trace (stillframe_control_v1 version %u; trace needs 4)\n",
			ctl->control_version);
		return 1;
	}
	wt->trace = stillframe_control_v1_record_trace(ctl->control);
	stillframe_trace_v1_add_listener(wt->trace, &trace_listener, wt);
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	if (wt->refused) {
		fprintf(stderr, "stillframectl: trace: the compositor does not record: %s\n",
			wt->refusal);
		return 1;
	}
	return 0;
}

static int
wl_trace_read(struct sf_ctl_conn *conn, FILE *out,
	      struct sf_ctl_trace_progress *progress)
{
	struct wl_trace *wt = ((struct ctl *)conn)->trace;

	wt->out = out;
	wt->progress = progress;
	stillframe_trace_v1_read(wt->trace);
	/* The text and read_done come before the round trip's answer. */
	if (wl_display_roundtrip(wt->ctl->display) < 0)
		return connection_error(wt->ctl);
	return 0;
}

static int
wl_trace_stop(struct sf_ctl_conn *conn)
{
	struct wl_trace *wt = ((struct ctl *)conn)->trace;

	stillframe_trace_v1_stop(wt->trace);
	return 0;
}

const struct sf_ctl_backend sf_ctl_backend_wayland = {
	.name = "Wayland",
	.server = "compositor",
	.peer = "X11",
	.protocol = "the compositor's stillframe_control_v1",
	.output_note = "",
	.view = &sf_ctl_wayland_view,
	.connect = ctl_connect,
	.disconnect = ctl_disconnect,
	.snapshot = ctl_snapshot,
	.prometheus = ctl_prometheus,
	.get_paused = ctl_get_paused,
	.set_paused = ctl_set_paused,
	.hint = ctl_hint,
	.list_power = ctl_list_power,
	.set_power = ctl_set_power,
	.trace_start = wl_trace_start,
	.trace_read = wl_trace_read,
	.trace_stop = wl_trace_stop,
};
