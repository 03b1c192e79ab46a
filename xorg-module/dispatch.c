/* SPDX-License-Identifier: MIT */
/*
 * The STILLFRAME requests of protocol/stillframe-x.h, for a client of
 * the server's byte order (sdispatch.c swaps the others' first).  One
 * prologue runs before every handler, in the order of the server's own
 * handlers: the request's size (before any field is read), then, for a
 * request that changes state, whether the client may manage the server,
 * then the rules of its values where no lookup comes first.
 */
#include <stdlib.h>
#include <string.h>

#include <xorg-server.h>
#include <X11/Xatom.h>
#include <X11/Xproto.h>
#include <dixstruct.h>
#include <inputstr.h>
#include <xace.h>
#include <misc.h>

#include "request.h"
#include "sf-priority.h"
#include "sf-xorg.h"
#include "sf-recorder.h"
#include "stillframe-x.h"


/* request.c's rules for the request's values: BadValue, and the field at
 * fault as the error's value, or Success. */
static int
check_request_values(ClientPtr client)
{
	uint32_t value;

	if (sf_x_request_check_values(client->requestBuffer, &value) ==
	    SF_X_REQUEST_OK)
		return Success;
	client->errorValue = value;
	return BadValue;
}

static int
proc_query_version(ClientPtr client)
{
	struct stillframe_x_query_version_reply rep = {
		.type = X_Reply,
		.sequence = (uint16_t)client->sequence,
		.length = 0,
		.major_version = STILLFRAME_X_MAJOR_VERSION,
		.minor_version = STILLFRAME_X_MINOR_VERSION,
	};

	if (client->swapped) {
		swaps(&rep.sequence);
		swapl(&rep.length);
		swaps(&rep.major_version);
		swaps(&rep.minor_version);
	}
	WriteToClient(client, sizeof(rep), &rep);
	return Success;
}

static size_t
padded(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static enum stillframe_x_state
x_state(enum sf_idle_state s)
{
	switch (s) {
	case SF_STATE_ACTIVE:
		return STILLFRAME_X_STATE_ACTIVE;
	case SF_STATE_LOW_REFRESH:
		return STILLFRAME_X_STATE_LOW_REFRESH;
	case SF_STATE_DIM:
		return STILLFRAME_X_STATE_DIM;
	case SF_STATE_DPMS_STANDBY:
		return STILLFRAME_X_STATE_STANDBY;
	case SF_STATE_DPMS_OFF:
	case SF_STATE_COUNT:
		break;
	}
	return STILLFRAME_X_STATE_OFF;
}

static uint32_t
clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static int
proc_get_status(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct sf_xorg_output *xo;
	struct sf_xorg_window *xw;
	struct sf_xorg_hold *hold;
	size_t size = 0, n_outputs = 0, n_windows = 0, n_held = 0;

	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		size += STILLFRAME_X_OUTPUT_INFO_SIZE +
			padded(strnlen(xo->rr_output->name, 255));
		n_outputs++;
	}
	xorg_list_for_each_entry(xw, &sx->windows, link)
		n_windows++;
	xorg_list_for_each_entry(hold, &sx->holds, link)
		n_held++;
	uint8_t *body = calloc(1, size ? size : 1);
	if (!body)
		return BadAlloc;
	uint8_t *p = body;
	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		const struct sf_output_stats *st = sf_output_get_stats(xo->core);
		size_t len = strnlen(xo->rr_output->name, 255);
		struct stillframe_x_output_info info = {
			.output = xo->rr_output->id,
			.refresh_mhz = st->refresh_mhz,
			.native_mhz = sf_xorg_mode_refresh_mhz(
				&xo->modes[xo->user_mode]),
			.damage_events = xo->damage_events,
			.held = xo->held,
			.releases = sx->releases,
			.state = (uint8_t)x_state(st->state),
			.dpms = (uint8_t)xo->dpms,
			.screen = (uint8_t)xo->screen->myNum,
			.name_len = (uint8_t)len,
		};
		if (client->swapped) {
			swapl(&info.output);
			swapl(&info.refresh_mhz);
			swapl(&info.native_mhz);
			swapl(&info.damage_events);
			swapl(&info.held);
			swapl(&info.releases);
		}
		memcpy(p, &info, STILLFRAME_X_OUTPUT_INFO_SIZE);
		memcpy(p + STILLFRAME_X_OUTPUT_INFO_SIZE, xo->rr_output->name,
		       len);
		p += STILLFRAME_X_OUTPUT_INFO_SIZE + padded(len);
	}
	TimeStamp last = LastEventTime(XIAllDevices);
	struct stillframe_x_get_status_reply rep = {
		.type = X_Reply,
		.paused = sf_core_is_paused(sx->core),
		.sequence = (uint16_t)client->sequence,
		.length = (uint32_t)(size / 4),
		.n_outputs = (uint32_t)n_outputs,
		.n_windows = (uint32_t)n_windows,
		.held_clients = (uint32_t)n_held,
		.idle_ms = GetTimeInMillis() - last.milliseconds,
	};
	if (client->swapped) {
		swaps(&rep.sequence);
		swapl(&rep.length);
		swapl(&rep.n_outputs);
		swapl(&rep.n_windows);
		swapl(&rep.held_clients);
		swapl(&rep.idle_ms);
	}
	WriteToClient(client, sizeof(rep), &rep);
	if (size)
		WriteToClient(client, (int)size, body);
	free(body);
	return Success;
}

/* ListWindows and ListOutputPower: a 32-byte header with the record
 * count in its third word, then `size` bytes of records (already in the
 * client's byte order). */
static void
write_list_reply(ClientPtr client, size_t n, const uint8_t *body,
		 size_t size)
{
	xGenericReply rep = {
		.type = X_Reply,
		.sequenceNumber = (CARD16)client->sequence,
		.length = (CARD32)(size / 4),
		.data00 = (CARD32)n,
	};

	if (client->swapped) {
		swaps(&rep.sequenceNumber);
		swapl(&rep.length);
		swapl(&rep.data00);
	}
	WriteToClient(client, sizeof(rep), &rep);
	if (size)
		WriteToClient(client, (int)size, body);
}

static enum stillframe_x_class
x_class(enum sf_class cls)
{
	switch (cls) {
	case SF_CLASS_STATIC:
		return STILLFRAME_X_CLASS_STATIC;
	case SF_CLASS_INTERACTIVE:
		return STILLFRAME_X_CLASS_INTERACTIVE;
	case SF_CLASS_ANIMATING:
		return STILLFRAME_X_CLASS_ANIMATING;
	case SF_CLASS_VIDEO:
		return STILLFRAME_X_CLASS_VIDEO;
	case SF_CLASS_BLINKING:
		return STILLFRAME_X_CLASS_BLINKING;
	case SF_CLASS_TICKING:
	case SF_CLASS_COUNT:
		break;
	}
	return STILLFRAME_X_CLASS_TICKING;
}

static int
proc_list_windows(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct sf_xorg_window *xw;
	size_t size = 0, n = 0;

	xorg_list_for_each_entry(xw, &sx->windows, link) {
		size += STILLFRAME_X_WINDOW_INFO_SIZE +
			padded(strlen(xw->instance));
		n++;
	}
	uint8_t *body = calloc(1, size ? size : 1);
	if (!body)
		return BadAlloc;
	uint8_t *p = body;
	xorg_list_for_each_entry(xw, &sx->windows, link) {
		const struct sf_classification *c =
			sf_surface_get_classification(xw->core);
		size_t len = strlen(xw->instance);
		uint8_t flags = 0;
		bool essential, background;
		/* Held is said of the window whose drawing client is held
		 * (not always its owner). */
		if (xw->drawer && sf_xorg_client_is_held(sx, xw->drawer))
			flags |= STILLFRAME_X_WINDOW_HELD;
		sf_priority_x_status(xw->hint[STILLFRAME_X_HINT_FLAGS],
				     xw->rule_priority, &essential,
				     &background);
		if (essential)
			flags |= STILLFRAME_X_WINDOW_ESSENTIAL;
		if (background)
			flags |= STILLFRAME_X_WINDOW_BACKGROUND;
		if (xw->hinted)
			flags |= STILLFRAME_X_WINDOW_HINTED;
		if (xw->game)
			flags |= STILLFRAME_X_WINDOW_GAME;
		struct stillframe_x_window_info info = {
			.window = xw->client_window->drawable.id,
			.client = xw->owner->clientAsMask,
			.rate_mhz = c->rate_mhz ? c->rate_mhz :
				    c->period ? clamp32((uint64_t)
					SF_NSEC_PER_SEC * 1000 / c->period) : 0,
			.damage_events = xw->damage_events,
			.held = xw->held_frames,
			.requests = clamp32((uint64_t)xw->owner->sequence),
			.cls = (uint8_t)x_class(c->cls),
			.flags = flags,
			.name_len = (uint16_t)len,
		};
		if (client->swapped) {
			swapl(&info.window);
			swapl(&info.client);
			swapl(&info.rate_mhz);
			swapl(&info.damage_events);
			swapl(&info.held);
			swapl(&info.requests);
			swaps(&info.name_len);
		}
		memcpy(p, &info, STILLFRAME_X_WINDOW_INFO_SIZE);
		memcpy(p + STILLFRAME_X_WINDOW_INFO_SIZE, xw->instance, len);
		p += STILLFRAME_X_WINDOW_INFO_SIZE + padded(len);
	}
	write_list_reply(client, n, body, size);
	free(body);
	return Success;
}

/* State-changing requests: refused to clients XACE does not let manage
 * the server (untrusted clients of the SECURITY extension). */
static int
check_manage_access(ClientPtr client)
{
	int rc = XaceHook(XACE_SERVER_ACCESS, client, DixManageAccess);

	return rc == Success ? Success : BadAccess;
}

static int
proc_set_window_hint(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct stillframe_x_set_window_hint_req *req =
		(void *)client->requestBuffer;
	WindowPtr win;
	int rc;

	rc = dixLookupWindow(&win, req->window, client, DixSetPropAccess);
	if (rc != Success)
		return rc;
	if (!sf_xorg_window_is_client_toplevel(win)) {
		client->errorValue = req->window;
		return BadMatch;
	}
	if (CLIENT_ID(win->drawable.id) != client->index) {
		client->errorValue = req->window;
		sf_xorg_log(SF_LOG_INFO, "client bug: client %d: SetWindowHint "
			    "on window 0x%lx of client %d refused (BadAccess)",
			    client->index, (unsigned long)req->window,
			    (int)CLIENT_ID(win->drawable.id));
		return BadAccess;
	}
	if ((rc = check_request_values(client)) != Success)
		return rc;
	CARD32 data[STILLFRAME_X_HINT_ITEMS] = {
		req->rate_num, req->rate_den, req->min_mhz, req->max_mhz,
		req->flags,
	};
	rc = dixChangeWindowProperty(client, win, sx->hint_atom, XA_CARDINAL,
				     32, PropModeReplace,
				     STILLFRAME_X_HINT_ITEMS, data, TRUE);
	if (rc != Success)
		return rc;
	struct sf_xorg_window *xw = sf_xorg_window_of_client_window(sx, win);
	if (xw) {
		sf_xorg_window_update_hints(xw, sf_support_now());
		sf_xorg_schedule_dispatch(sx);
	}
	return Success;
}

static int
proc_select_events(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct stillframe_x_select_events_req *req =
		(void *)client->requestBuffer;
	struct sf_xorg_selection *sel;
	WindowPtr win;
	int rc;

	rc = dixLookupWindow(&win, req->window, client, DixReceiveAccess);
	if (rc != Success)
		return rc;
	if ((rc = check_request_values(client)) != Success)
		return rc;
	xorg_list_for_each_entry(sel, &sx->selections, link) {
		if (sel->client != client || sel->window != req->window)
			continue;
		if (!req->mask)
			FreeResource(sel->resource, RT_NONE);
		else
			sel->mask = req->mask;
		return Success;
	}
	if (!req->mask)
		return Success;
	sel = calloc(1, sizeof(*sel));
	if (!sel)
		return BadAlloc;
	sel->client = client;
	sel->window = req->window;
	sel->mask = req->mask;
	sel->resource = FakeClientID(client->index);
	xorg_list_append(&sel->link, &sx->selections);
	/* On failure AddResource frees it through the delete function. */
	if (!AddResource(sel->resource, sx->selection_type, sel))
		return BadAlloc;
	return Success;
}

static int
proc_set_paused(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct stillframe_x_set_paused_req *req = (void *)client->requestBuffer;

	if ((bool)req->paused != sf_core_is_paused(sx->core)) {
		sf_xorg_log(SF_LOG_INFO, "policy %s by client %d",
			    req->paused ? "paused" : "resumed",
			    client->index);
		sf_core_set_paused(sx->core, req->paused, sf_support_now());
		if (req->paused)
			sf_xorg_release(sx, NULL, "paused");
		sf_xorg_schedule_dispatch(sx);
	}
	return Success;
}

static enum stillframe_x_output_kind
x_kind(enum sf_output_kind kind)
{
	switch (kind) {
	case SF_OUTPUT_KIND_INTERNAL:
		return STILLFRAME_X_KIND_INTERNAL;
	case SF_OUTPUT_KIND_EXTERNAL:
		return STILLFRAME_X_KIND_EXTERNAL;
	case SF_OUTPUT_KIND_VIRTUAL:
		break;
	}
	return STILLFRAME_X_KIND_VIRTUAL;
}

static int
proc_set_output_power(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct stillframe_x_set_output_power_req *req =
		(void *)client->requestBuffer;
	RROutputPtr output;
	int rc;

	rc = dixLookupResourceByType((void **)&output, req->output,
				     RROutputType, client, DixReadAccess);
	if (rc != Success) {
		/* RandR's BadOutput: the error its resource type carries. */
		client->errorValue = req->output;
		return rc;
	}

	struct sf_xorg_output *xo = sf_xorg_output_find(sx, output);

	if (!xo) {
		/* Never lit while stillframe ran: nothing to power. */
		client->errorValue = req->output;
		return BadMatch;
	}
	sf_xorg_log(SF_LOG_INFO, "output %s: power %s asked by client %d",
		    output->name,
		    sf_output_power_name((enum sf_output_power)req->power),
		    client->index);
	sf_output_request_power(xo->core, (enum sf_output_power)req->power,
				sf_support_now());
	sf_xorg_schedule_dispatch(sx);
	return Success;
}

static int
proc_list_output_power(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct sf_xorg_output *xo;
	size_t size = 0, n = 0;
	sf_time_t now = sf_support_now();

	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		size += STILLFRAME_X_OUTPUT_POWER_INFO_SIZE +
			padded(strnlen(xo->rr_output->name, 255));
		n++;
	}
	uint8_t *body = calloc(1, size ? size : 1);
	if (!body)
		return BadAlloc;
	uint8_t *p = body;
	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		const struct sf_output_stats *st = sf_output_get_stats(xo->core);
		size_t len = strnlen(xo->rr_output->name, 255);
		struct stillframe_x_output_power_info info = {
			.output = xo->rr_output->id,
			.powered_off_ms = clamp32(
				(uint64_t)sf_output_stats_powered_off_time(
					st, now) / SF_NSEC_PER_MSEC),
			.kind = (uint8_t)x_kind(sf_output_get_kind(xo->core)),
			.powered = sf_output_is_powered(xo->core),
			.request = (uint8_t)sf_output_get_power_request(
				xo->core),
			.name_len = (uint8_t)len,
		};
		if (client->swapped) {
			swapl(&info.output);
			swapl(&info.powered_off_ms);
		}
		memcpy(p, &info, STILLFRAME_X_OUTPUT_POWER_INFO_SIZE);
		memcpy(p + STILLFRAME_X_OUTPUT_POWER_INFO_SIZE,
		       xo->rr_output->name, len);
		p += STILLFRAME_X_OUTPUT_POWER_INFO_SIZE + padded(len);
	}
	write_list_reply(client, n, body, size);
	free(body);
	return Success;
}

static int
proc_start_trace(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct stillframe_x_start_trace_reply rep = {
		.type = X_Reply,
		.status = STILLFRAME_X_TRACE_STARTED,
		.sequence = (uint16_t)client->sequence,
	};

	if (sf_core_get_trace(sx->core)) {
		rep.status = STILLFRAME_X_TRACE_BUSY;
	} else if (!sf_core_trace_start(sx->core, SF_CORE_TRACE_CAPACITY,
					sf_support_now())) {
		rep.status = STILLFRAME_X_TRACE_NO_MEMORY;
	} else {
		sx->trace_owner = client;
		sf_xorg_log(SF_LOG_INFO, "trace recording started by client "
			    "%d", client->index);
	}
	if (client->swapped)
		swaps(&rep.sequence);
	WriteToClient(client, sizeof(rep), &rep);
	return Success;
}

/* The recording `client` may read or stop: BadMatch without one,
 * BadAccess when it is another client's. */
static int
owned_trace(ClientPtr client, struct sf_trace_recorder **rec)
{
	struct sf_xorg *sx = sf_xorg_instance;

	*rec = sf_core_get_trace(sx->core);
	if (!*rec)
		return BadMatch;
	if (sx->trace_owner != client) {
		sf_xorg_log(SF_LOG_INFO, "client bug: client %d: the trace "
			    "recording of client %d is not its own "
			    "(BadAccess)", client->index,
			    sx->trace_owner ? sx->trace_owner->index : -1);
		return BadAccess;
	}
	return Success;
}

static int
proc_read_trace(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct stillframe_x_read_trace_req *req = (void *)client->requestBuffer;
	struct sf_trace_recorder *rec;
	int rc;

	if ((rc = owned_trace(client, &rec)) != Success)
		return rc;
	/* Zeroed: the padding goes out too. */
	char *text = calloc(1, padded(req->max_bytes));
	if (!text)
		return BadAlloc;
	size_t n = sf_trace_recorder_read(rec, text, req->max_bytes);
	size_t pending = sf_trace_recorder_pending(rec);
	uint64_t events = sf_trace_recorder_get_events(rec);
	uint64_t dropped = sf_trace_recorder_get_dropped(rec);
	bool finished = sf_trace_recorder_has_ended(rec) && pending == 0;
	struct stillframe_x_read_trace_reply rep = {
		.type = X_Reply,
		.finished = finished,
		.sequence = (uint16_t)client->sequence,
		.length = (uint32_t)(padded(n) / 4),
		.n_bytes = (uint32_t)n,
		.events = clamp32(events),
		.dropped = clamp32(dropped),
		.pending = (uint32_t)pending,
	};
	if (client->swapped) {
		swaps(&rep.sequence);
		swapl(&rep.length);
		swapl(&rep.n_bytes);
		swapl(&rep.events);
		swapl(&rep.dropped);
		swapl(&rep.pending);
	}
	WriteToClient(client, sizeof(rep), &rep);
	if (n)
		WriteToClient(client, (int)padded(n), text);
	free(text);
	if (finished) {
		sx->trace_owner = NULL;
		sf_core_trace_discard(sx->core);
	}
	return Success;
}

static int
proc_stop_trace(ClientPtr client)
{
	struct sf_trace_recorder *rec;
	int rc;

	if ((rc = owned_trace(client, &rec)) != Success)
		return rc;
	if (!sf_trace_recorder_has_ended(rec)) {
		sf_trace_recorder_end(rec, sf_support_now());
		sf_xorg_log(SF_LOG_INFO, "trace recording stopped by client "
			    "%d after %llu events (%llu dropped)",
			    client->index,
			    (unsigned long long)
				    sf_trace_recorder_get_events(rec),
			    (unsigned long long)
				    sf_trace_recorder_get_dropped(rec));
	}
	return Success;
}

/* What the prologue checks before a handler runs, beyond the size. */
enum request_checks {
	/* It changes state: refused to clients XACE does not let manage
	 * the server (check_manage_access). */
	CHECK_MANAGE = 1 << 0,
	/* request.c's rules for its values, which need no lookup first;
	 * SetWindowHint and SelectEvents check theirs after looking up
	 * their window. */
	CHECK_VALUES = 1 << 1,
};

struct request_handler {
	int (*proc)(ClientPtr client);
	unsigned checks;
};

static const struct request_handler request_handlers[] = {
	[STILLFRAME_X_QUERY_VERSION] = { proc_query_version, 0 },
	[STILLFRAME_X_GET_STATUS] = { proc_get_status, 0 },
	[STILLFRAME_X_LIST_WINDOWS] = { proc_list_windows, 0 },
	[STILLFRAME_X_SET_WINDOW_HINT] = { proc_set_window_hint,
					   CHECK_MANAGE },
	[STILLFRAME_X_SELECT_EVENTS] = { proc_select_events, 0 },
	[STILLFRAME_X_SET_PAUSED] = { proc_set_paused,
				      CHECK_MANAGE | CHECK_VALUES },
	[STILLFRAME_X_SET_OUTPUT_POWER] = { proc_set_output_power,
					    CHECK_MANAGE | CHECK_VALUES },
	[STILLFRAME_X_LIST_OUTPUT_POWER] = { proc_list_output_power, 0 },
	[STILLFRAME_X_START_TRACE] = { proc_start_trace, CHECK_MANAGE },
	[STILLFRAME_X_READ_TRACE] = { proc_read_trace, CHECK_VALUES },
	[STILLFRAME_X_STOP_TRACE] = { proc_stop_trace, 0 },
};

int
sf_xorg_request_check_size(ClientPtr client)
{
	switch (sf_x_request_check_size(client->requestBuffer,
					(size_t)client->req_len * 4)) {
	case SF_X_REQUEST_OK:
		return Success;
	case SF_X_REQUEST_BAD_REQUEST:
		return BadRequest;
	default:
		return BadLength;
	}
}

/* The one prologue of every request: Success and its handler, or the
 * error to send. */
static int
request_prologue(ClientPtr client, const struct request_handler **handler)
{
	uint8_t minor = ((xReq *)client->requestBuffer)->data;
	int rc = sf_xorg_request_check_size(client);

	if (rc != Success)
		return rc;
	if (minor >= sizeof(request_handlers) / sizeof(request_handlers[0]) ||
	    !request_handlers[minor].proc)
		return BadRequest;
	*handler = &request_handlers[minor];
	if ((*handler)->checks & CHECK_MANAGE &&
	    (rc = check_manage_access(client)) != Success)
		return rc;
	if ((*handler)->checks & CHECK_VALUES &&
	    (rc = check_request_values(client)) != Success)
		return rc;
	return Success;
}

int
sf_xorg_proc_dispatch(ClientPtr client)
{
	const struct request_handler *handler;
	int rc;

	if (sf_xorg_instance)
		sf_xorg_want_cycle(sf_xorg_instance);
	if ((rc = request_prologue(client, &handler)) != Success)
		return rc;
	return handler->proc(client);
}
