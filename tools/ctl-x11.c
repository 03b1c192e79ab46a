/* SPDX-License-Identifier: MIT */
/*
 * stillframectl's X11 backend (ctl-backend.h): the Xorg module through
 * the STILLFRAME extension of the X server at $DISPLAY.  GetStatus,
 * ListWindows and ListOutputPower become a snapshot with the same keys
 * as the module's log and the Wayland status where they mean the same;
 * the wire is in ctl-x11-wire.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-x11.h"

/* --- names --- */

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

		if (!take_bytes(&p, end, &o->info,
				STILLFRAME_X_OUTPUT_INFO_SIZE) ||
		    !take_name(&p, end, o->info.name_len, o->name,
			       sizeof(o->name), true))
			return malformed(x, "GetStatus");
		if (!o->name[0])
			snprintf(o->name, sizeof(o->name), "0x%x",
				 o->info.output);
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

		if (!take_bytes(&p, end, &w->info,
				STILLFRAME_X_WINDOW_INFO_SIZE) ||
		    !take_name(&p, end, w->info.name_len, w->label,
			       sizeof(w->label), false))
			return malformed(x, "ListWindows");
		/* The module's own name for a window without WM_CLASS. */
		if (!w->label[0])
			snprintf(w->label, sizeof(w->label), "window 0x%x",
				 w->info.window);
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


/* --- output power as the server has it: ListOutputPower (1.1) --- */

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
	return sf_ctl_power_name((enum sf_ctl_power)power);
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

		if (!take_bytes(&p, end, &o->info,
				STILLFRAME_X_OUTPUT_POWER_INFO_SIZE) ||
		    !take_name(&p, end, o->info.name_len, o->name,
			       sizeof(o->name), true)) {
			ret = malformed(x, "ListOutputPower");
			break;
		}
		(*n_out)++;
	}
	free(reply);
	return ret;
}

/* --- the snapshot --- */

static bool
put(struct sf_ctl_fields *f, const char *key, const char *value,
    enum sf_ctl_json json)
{
	return sf_ctl_fields_put(f, key, value, json);
}

static bool
put_u32(struct sf_ctl_fields *f, const char *key, uint32_t value)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", value);
	return put(f, key, text, SF_CTL_JSON_LITERAL);
}

static const char *
output_key(char *key, size_t cap, const struct x_output *o, const char *what)
{
	snprintf(key, cap, "output.%s.%s", o->name, what);
	return key;
}

static bool
put_output(struct sf_ctl_fields *f, const struct x_output *o,
	   const struct x_power *power, size_t n_power)
{
	const struct stillframe_x_output_info *info = &o->info;
	char key[sizeof(o->name) + 32];
	size_t cap = sizeof(key);
	bool ok = put(f, output_key(key, cap, o, "state"),
		      state_name(info->state), SF_CTL_JSON_TEXT) &&
		  put_u32(f, output_key(key, cap, o, "refresh_mhz"),
			  info->refresh_mhz) &&
		  put_u32(f, output_key(key, cap, o, "native_mhz"),
			  info->native_mhz) &&
		  put(f, output_key(key, cap, o, "dpms"),
		      dpms_name(info->dpms), SF_CTL_JSON_TEXT) &&
		  put_u32(f, output_key(key, cap, o, "screen"), info->screen) &&
		  put_u32(f, output_key(key, cap, o, "damage_events"),
			  info->damage_events) &&
		  put_u32(f, output_key(key, cap, o, "held"), info->held);

	for (size_t i = 0; ok && i < n_power; i++) {
		const struct x_power *p = &power[i];

		if (p->info.output != info->output)
			continue;
		ok = put(f, output_key(key, cap, o, "kind"),
			 kind_name(p->info.kind), SF_CTL_JSON_TEXT) &&
		     put(f, output_key(key, cap, o, "power"),
			 p->info.powered ? "on" : "off", SF_CTL_JSON_TEXT) &&
		     put(f, output_key(key, cap, o, "power_request"),
			 power_name(p->info.request), SF_CTL_JSON_TEXT) &&
		     put_u32(f, output_key(key, cap, o, "powered_off_ms"),
			     p->info.powered_off_ms);
	}
	return ok;
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

static bool
put_window(struct sf_ctl_snapshot *snap, const struct x_window *w)
{
	const struct stillframe_x_window_info *info = &w->info;
	struct sf_ctl_item *item = sf_ctl_snapshot_item(snap, info->window);
	char flags[64], client[16];

	if (!item)
		return false;

	struct sf_ctl_fields *f = &item->fields;

	flags_text(info->flags, flags, sizeof(flags));
	snprintf(client, sizeof(client), "0x%x", info->client);
	if (!(put(f, "class", class_name(info->cls), SF_CTL_JSON_TEXT) &&
	      put_u32(f, "rate_mhz", info->rate_mhz) &&
	      put_u32(f, "damage", info->damage_events) &&
	      put_u32(f, "held", info->held) &&
	      put_u32(f, "requests", info->requests) &&
	      put(f, "client", client, SF_CTL_JSON_TEXT) &&
	      put(f, "flags", flags, SF_CTL_JSON_LIST) &&
	      put(f, "label", w->label, SF_CTL_JSON_TEXT)))
		return false;
	item->cls = class_name(info->cls);
	item->flags = sf_ctl_fields_get(f, "flags");
	item->label = sf_ctl_fields_get(f, "label");
	item->counters[0] = info->damage_events;
	item->counters[1] = info->held;
	item->counters[2] = info->requests;
	return true;
}

static bool
build_snapshot(const struct xctl *x, const struct x_status *st,
	       const struct x_power *power, size_t n_power,
	       struct sf_ctl_snapshot *snap)
{
	struct sf_ctl_fields *f = &snap->fields;
	char version[16];
	bool ok;

	snprintf(version, sizeof(version), "%u.%u", x->major_version,
		 x->minor_version);
	ok = put(f, "backend", "x11", SF_CTL_JSON_TEXT) &&
	     put(f, "display", x->display, SF_CTL_JSON_TEXT) &&
	     put(f, "extension.version", version, SF_CTL_JSON_TEXT) &&
	     put(f, "policy.paused", st->paused ? "true" : "false",
		 SF_CTL_JSON_LITERAL);
	for (size_t i = 0; ok && i < st->n_outputs; i++) {
		const struct x_output *o = &st->outputs[i];
		struct sf_ctl_output *out = sf_ctl_snapshot_add_output(snap,
								       o->name);

		ok = out && put_output(f, o, power, n_power);
		if (!ok)
			break;
		out->state = state_name(o->info.state);
		out->refresh_hz = o->info.refresh_mhz / 1000.0;
		out->counters[0] = o->info.damage_events;
		out->counters[1] = o->info.held;
	}
	ok = ok && put_u32(f, "clients.held", st->held_clients);
	/* The module counts releases once, for all outputs. */
	if (ok && st->n_outputs)
		ok = put_u32(f, "clients.releases",
			     st->outputs[0].info.releases);
	ok = ok && put_u32(f, "user.idle_ms", st->idle_ms) &&
	     put_u32(f, "windows.tracked", st->tracked);
	for (size_t i = 0; ok && i < st->n_windows; i++)
		ok = put_window(snap, &st->windows[i]);
	return ok;
}

static int
x_snapshot(struct sf_ctl_conn *conn, struct sf_ctl_snapshot *snap)
{
	struct xctl *x = (struct xctl *)conn;
	struct x_status st = { 0 };
	struct x_power *power = NULL;
	size_t n_power = 0;
	int ret = fetch_status(x, &st);

	*snap = (struct sf_ctl_snapshot){ 0 };
	/* A 1.0 server has no output power to show. */
	if (ret == 0 && x->minor_version >= 1)
		ret = fetch_power(x, &power, &n_power);
	if (ret == 0 && !build_snapshot(x, &st, power, n_power, snap))
		ret = sf_ctl_out_of_memory();
	free(power);
	status_free(&st);
	return ret;
}

/* --- pause, resume --- */

static int
x_get_paused(struct sf_ctl_conn *conn, bool *paused)
{
	struct xctl *x = (struct xctl *)conn;
	struct x_status st = { 0 };
	int ret = fetch_status(x, &st);

	if (ret == 0)
		*paused = st.paused;
	status_free(&st);
	return ret;
}

static int
x_set_paused(struct sf_ctl_conn *conn, bool paused)
{
	struct xctl *x = (struct xctl *)conn;
	struct stillframe_x_set_paused_req req = { .paused = paused };
	xcb_generic_error_t *error = NULL;
	int ret = void_request(x, STILLFRAME_X_SET_PAUSED, &req, sizeof(req),
			       &error);

	if (error) {
		refused(paused ? "to pause" : "to resume", error,
			error->error_code == XCB_ACCESS ?
				"untrusted clients may not steer stillframe" :
				NULL);
		free(error);
	}
	return ret;
}

/* --- hint --- */

static int
x_hint(struct sf_ctl_conn *conn, uint32_t window, const struct sf_ctl_hints *h)
{
	struct xctl *x = (struct xctl *)conn;
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
		.flags = h->priority == SF_PRIORITY_ESSENTIAL ?
				 STILLFRAME_X_FLAG_ESSENTIAL :
			 h->priority == SF_PRIORITY_BACKGROUND ?
				 STILLFRAME_X_FLAG_BACKGROUND : 0,
	};
	xcb_generic_error_t *error = NULL;
	int ret = void_request(x, STILLFRAME_X_SET_WINDOW_HINT, &req,
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
	return ret;
}


/* --- the output command: ListOutputPower and SetOutputPower (1.1) --- */

static int
x_list_power(struct sf_ctl_conn *conn, struct sf_ctl_power_row **rows,
	     size_t *n)
{
	struct xctl *x = (struct xctl *)conn;
	struct x_power *outputs = NULL;
	size_t n_outputs = 0;
	int ret = 0;

	*rows = NULL;
	*n = 0;
	if (x->minor_version < 1) {
		fprintf(stderr,
			"stillframectl: the X server at %s speaks STILLFRAME %u.%u; output needs 1.1\n",
			x->display, x->major_version, x->minor_version);
		return 1;
	}
	ret = fetch_power(x, &outputs, &n_outputs);
	if (ret == 0 && !(*rows = calloc(n_outputs + 1, sizeof(**rows))))
		ret = sf_ctl_out_of_memory();
	for (size_t i = 0; ret == 0 && i < n_outputs; i++) {
		const struct x_power *o = &outputs[i];
		struct sf_ctl_power_row *row = &(*rows)[(*n)++];

		snprintf(row->name, sizeof(row->name), "%s", o->name);
		row->output = o->info.output;
		row->powered = o->info.powered != 0;
		snprintf(row->line, sizeof(row->line),
			 "%s: %s, power %s (asked: %s), off for %.3f s",
			 o->name, kind_name(o->info.kind),
			 o->info.powered ? "on" : "off",
			 power_name(o->info.request),
			 o->info.powered_off_ms / 1000.0);
	}
	free(outputs);
	return ret;
}

static int
x_set_power(struct sf_ctl_conn *conn, const struct sf_ctl_power_row *row,
	    enum sf_ctl_power power)
{
	struct xctl *x = (struct xctl *)conn;
	struct stillframe_x_set_output_power_req req = {
		.output = row->output,
		.power = (uint32_t)power,
	};
	xcb_generic_error_t *error = NULL;
	int ret = void_request(x, STILLFRAME_X_SET_OUTPUT_POWER, &req,
			       sizeof(req), &error);

	if (error) {
		char what[300];

		snprintf(what, sizeof(what), "to power %s %s", row->name,
			 power_name((uint8_t)power));
		refused(what, error,
			error->error_code == XCB_ACCESS ?
				"untrusted clients may not steer stillframe" :
			error->error_code == XCB_MATCH ?
				"stillframe does not manage it any more" :
				NULL);
		free(error);
	}
	return ret;
}

/* --- trace --- */

static int
x_trace_start(struct sf_ctl_conn *conn)
{
	struct xctl *x = (struct xctl *)conn;
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
x_trace_read(struct sf_ctl_conn *conn, FILE *out,
	     struct sf_ctl_trace_progress *progress)
{
	struct xctl *x = (struct xctl *)conn;
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
x_trace_stop(struct sf_ctl_conn *conn)
{
	struct xctl *x = (struct xctl *)conn;
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


static int
x_connect(struct sf_ctl_conn **conn)
{
	return xctl_connect(&sf_ctl_backend_x11, conn);
}

const struct sf_ctl_backend sf_ctl_backend_x11 = {
	.name = "X11",
	.server = "server",
	.peer = "Weston",
	.protocol = "the X server's STILLFRAME extension",
	.output_note = " (an output is managed once it was lit)",
	.view = &sf_ctl_x11_view,
	.connect = x_connect,
	.disconnect = xctl_disconnect,
	.snapshot = x_snapshot,
	/* No Prometheus status on X. */
	.get_paused = x_get_paused,
	.set_paused = x_set_paused,
	.hint = x_hint,
	.list_power = x_list_power,
	.set_power = x_set_power,
	.trace_start = x_trace_start,
	.trace_read = x_trace_read,
	.trace_stop = x_trace_stop,
};
