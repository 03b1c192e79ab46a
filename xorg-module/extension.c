/* SPDX-License-Identifier: MIT */
/*
 * The STILLFRAME extension for one server generation: the core and its
 * timer, input from the device event callback, the block handler that
 * runs each cycle (window.c), client bookkeeping, and the requests of
 * protocol/stillframe-x.h with their byte-swapped twins.  Every request
 * checks its size before it reads a field.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xorg-server.h>
#include <X11/Xatom.h>
#include <X11/Xproto.h>
#include <extnsionst.h>
#include <dixstruct.h>
#include <inputstr.h>
#include <xace.h>
#include <xacestr.h>
#include <misc.h>
#include <opaque.h>

#include "request.h"
#include "sf-xorg.h"
#include "sf-recorder.h"
#include "stillframe-x.h"

struct sf_xorg *sf_xorg_instance;

/* A recording's buffer: a few seconds of a busy desktop, read a few
 * times a second. */
#define TRACE_CAPACITY (1024 * 1024)

void
sf_xorg_extension_init(void);
void
sf_xorg_screen_closed(ScreenPtr screen);

sf_time_t
sf_xorg_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (sf_time_t)ts.tv_sec * SF_NSEC_PER_SEC + ts.tv_nsec;
}

/* Decisions at verbosity 4 (Xorg -logverbose 4), the rest always. */
void
sf_xorg_log(enum sf_log_level level, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	MessageType type = level == SF_LOG_ERROR ? X_WARNING : X_INFO;
	int verb = level == SF_LOG_DEBUG ? 4 : 0;
	LogMessageVerb(type, verb, "stillframe: %s\n", buf);
}

static void
platform_handle_log(void *data, enum sf_platform_log_level level,
		    const char *message)
{
	(void)data;
	sf_xorg_log(level == SF_PLATFORM_LOG_ERROR ? SF_LOG_ERROR :
		    level == SF_PLATFORM_LOG_INFO ? SF_LOG_INFO : SF_LOG_DEBUG,
		    "platform: %s", message);
}

/* --- the core's clock --- */

static CARD32
timer_handle_expiry(OsTimerPtr timer, CARD32 time, void *data)
{
	struct sf_xorg *sx = data;
	(void)timer;
	(void)time;

	sx->timer_deadline = SF_TIME_NEVER;
	sf_xorg_want_cycle(sx);
	sx->dispatching = true;
	sf_core_dispatch(sx->core, sf_xorg_now());
	sx->dispatching = false;
	sf_xorg_schedule_dispatch(sx);
	return 0;
}

void
sf_xorg_schedule_dispatch(struct sf_xorg *sx)
{
	sf_time_t deadline = sf_core_next_deadline(sx->core);

	if (deadline == sx->timer_deadline || sx->dispatching)
		return;
	sx->timer_deadline = deadline;
	if (deadline == SF_TIME_NEVER) {
		TimerCancel(sx->timer);
		return;
	}
	sf_time_t wait = deadline - sf_xorg_now();
	/* Round up: firing early would find nothing due and spin. */
	int64_t ms = wait <= 0 ? 1 : (wait + SF_NSEC_PER_MSEC - 1) /
					     SF_NSEC_PER_MSEC;
	if (ms > 0x7fffffff)
		ms = 0x7fffffff;
	sx->timer = TimerSet(sx->timer, 0, (CARD32)ms, timer_handle_expiry, sx);
}

/* --- StateNotify --- */

static void
swap_state_notify(xEvent *from, xEvent *to)
{
	struct stillframe_x_state_notify_event *f = (void *)from;
	struct stillframe_x_state_notify_event *t = (void *)to;

	*t = *f;
	swaps(&t->sequence);
	swapl(&t->window);
	swapl(&t->output);
	swapl(&t->refresh_mhz);
	swapl(&t->timestamp);
}

void
sf_xorg_notify_state(struct sf_xorg *sx, struct sf_xorg_output *xo)
{
	struct sf_xorg_selection *sel;
	const struct sf_output_stats *st = sf_output_get_stats(xo->core);

	xorg_list_for_each_entry(sel, &sx->selections, link) {
		if (!(sel->mask & STILLFRAME_X_STATE_NOTIFY_MASK) ||
		    sel->client->clientGone)
			continue;
		struct stillframe_x_state_notify_event ev = {
			.type = (uint8_t)(sx->event_base +
					  STILLFRAME_X_STATE_NOTIFY),
			.state = (uint8_t)st->state,
			.sequence = (uint16_t)sel->client->sequence,
			.window = sel->window,
			.output = xo->rr_output->id,
			.refresh_mhz = st->refresh_mhz,
			.timestamp = currentTime.milliseconds,
		};
		WriteEventsToClient(sel->client, 1, (xEvent *)&ev);
	}
}

static int
selection_handle_free(void *value, XID id)
{
	struct sf_xorg_selection *sel = value;
	(void)id;

	xorg_list_del(&sel->link);
	free(sel);
	return Success;
}

/* --- the cycle --- */

/*
 * The server's last event time moves on device events, which the device
 * event callback reports with their kind (and then notes the time), and
 * also without one: "xset s reset" and XResetScreenSaver, which video
 * players call every few seconds to keep the display on.  That is no
 * user at the machine: it keeps the outputs lit, and lights a blanked
 * one before the next frame, but leaves the refresh rate and the held
 * clients alone (mpv's reset every 10 s raised the rate to native and
 * back each time).
 */
static void
event_time_check(struct sf_xorg *sx)
{
	CARD32 last = LastEventTime(XIAllDevices).milliseconds;

	if (last == sx->seen_event_ms)
		return;
	sx->seen_event_ms = last;
	sf_xorg_want_cycle(sx);
	sf_core_notify_keep_awake(sx->core, sf_xorg_now());
	sf_xorg_schedule_dispatch(sx);
}

/* The top-level window holding the keyboard focus, or NULL. */
static WindowPtr
focused_toplevel(void)
{
	WindowPtr focus;

	if (!inputInfo.keyboard || !inputInfo.keyboard->focus)
		return NULL;
	focus = inputInfo.keyboard->focus->win;
	if (focus == PointerRootWin || focus == NoneWin)
		return NULL;
	while (focus && focus->parent && focus->parent->parent)
		focus = focus->parent;
	return focus;
}

/* Between full cycles, where only windows' damage came in: while none
 * may be committed yet, asks the server to wake up when the first is due
 * and returns true; false when a cycle is due. */
static bool
wait_for_damage(struct sf_xorg *sx, sf_time_t now, void *timeout)
{
	if (!sx->damage_pending)
		return true;
	if (sx->damage_ready <= now)
		return false;
	sf_xorg_wake_up_in(timeout, sx->damage_due - now);
	return true;
}

/*
 * The server calls this before every wait for clients, several times a
 * frame under a video, after drawing that evicted the module from the
 * caches: what it reads when nothing is due is kept to a few fields of
 * sx, the server's last event time and the clock.  The whole cycle runs
 * only when something that could change its outcome happened since the
 * last one (what calls sf_xorg_want_cycle: input, requests, a window
 * mapped or gone, the focus set), a window's damage is due, or RandR
 * was polled, which bounds the wait of anything else to
 * RANDR_POLL_INTERVAL.  Otherwise it only asks to be woken when the
 * first damage is due.
 */
static void
block_handler(void *data, void *timeout)
{
	struct sf_xorg *sx = data;
	struct sf_xorg_output *xo;

	if (sx->ending)
		return;
	sf_time_t now = sf_xorg_now();
	if (!sx->outputs_scanned) {
		/* The server's start moved the event time (its devices came
		 * up): no client asked for anything. */
		sx->seen_event_ms = LastEventTime(XIAllDevices).milliseconds;
		sf_xorg_output_scan(sx);
		sx->cycle_wanted = true;
	} else {
		event_time_check(sx);
		if (sf_xorg_output_poll_due(sx, now)) {
			sf_xorg_output_poll(sx, now);
			sx->cycle_wanted = true;
		}
	}
	if (!xorg_list_is_empty(&sx->fresh_windows))
		sf_xorg_window_stamp_damage(sx, now);
	if (!sx->cycle_wanted && wait_for_damage(sx, now, timeout))
		return;
	sx->cycle_wanted = false;
	sf_xorg_window_cycle(sx, focused_toplevel(), now, timeout);
	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		const struct sf_output_stats *st = sf_output_get_stats(xo->core);
		if (st->state == xo->last_state &&
		    st->refresh_mhz == xo->last_refresh_mhz)
			continue;
		xo->last_state = st->state;
		xo->last_refresh_mhz = st->refresh_mhz;
		sf_xorg_notify_state(sx, xo);
	}
}

/* The block handler's twin, which the server requires: the module has
 * nothing to do on wake-up (input comes through the device event
 * callback, a terminate signal ends in extension_close_down). */
static void
wakeup_handler(void *data, int result)
{
	(void)data;
	(void)result;
}

/*
 * The focus changes by request (SetInputFocus and the input
 * extension's twins, all checked for DixSetFocusAccess first) or when
 * its window is unmapped or destroyed, which the screen hooks report:
 * the block handler looks at the focus only after one of these, not on
 * each of its calls.
 */
static void
device_access_handle(CallbackListPtr *list, void *data, void *call_data)
{
	XaceDeviceAccessRec *rec = call_data;
	(void)list;

	if (rec->access_mode & DixSetFocusAccess)
		sf_xorg_want_cycle(data);
}

/*
 * The generation ends (the last client went and the server resets, or
 * it was told to terminate): the user's modes go back now, while RandR's
 * objects still exist; by CloseScreen the server has freed them.
 */
static void
generation_ending(struct sf_xorg *sx, const char *why)
{
	if (sx->ending)
		return;
	sx->ending = true;
	sf_xorg_release(sx, NULL, "server reset or exit");
	sf_xorg_window_destroy_all(sx, NULL);
	sf_xorg_output_destroy_all(sx, NULL);
	sf_xorg_log(SF_LOG_INFO, "server %s: modes and DPMS put back", why);
}

/* Extensions close down after the dispatch loop ends and before the
 * server frees its resources (RandR's outputs and modes among them). */
static void
extension_close_down(ExtensionEntry *ext)
{
	(void)ext;

	if (sf_xorg_instance)
		generation_ending(sf_xorg_instance,
				  dispatchException & DE_TERMINATE ?
					  "exiting" : "resetting");
}

/* The first bytes of the server's internal input event, whose types
 * from KeyPress to MotionNotify equal the core event codes, touch begin
 * following (include/eventstr.h of the server, not installed). */
struct internal_event_head {
	unsigned char header;
	int type;
};
#define INTERNAL_TOUCH_BEGIN (MotionNotify + 1)

static void
device_event_handle(CallbackListPtr *list, void *data, void *call_data)
{
	struct sf_xorg *sx = data;
	DeviceEventInfoRec *info = call_data;
	const struct internal_event_head *ev = (const void *)info->event;
	enum sf_input_kind kind;
	(void)list;

	/* The server noticed this event's time before calling us: the
	 * cycle's check need not report it again. */
	sx->seen_event_ms = LastEventTime(XIAllDevices).milliseconds;
	sf_xorg_want_cycle(sx);
	switch (ev->type) {
	case KeyPress:
		kind = SF_INPUT_KEY;
		break;
	case ButtonPress:
		kind = SF_INPUT_BUTTON;
		break;
	case MotionNotify:
		kind = SF_INPUT_POINTER;
		sx->motion_events++;
		break;
	case INTERNAL_TOUCH_BEGIN:
		kind = SF_INPUT_TOUCH;
		break;
	default:
		return;
	}
	/* Held clients go now, in this dispatch, whatever the core's gate
	 * holds: the screen is current before the next frame. */
	sf_xorg_release(sx, NULL, "input");
	sf_core_notify_input(sx->core, kind, sf_xorg_now());
	sf_xorg_schedule_dispatch(sx);
}

static void
client_state_handle(CallbackListPtr *list, void *data, void *call_data)
{
	struct sf_xorg *sx = data;
	NewClientInfoRec *info = call_data;
	(void)list;

	if (info->client->clientState == ClientStateGone ||
	    info->client->clientState == ClientStateRetained) {
		sf_xorg_want_cycle(sx);
		sf_xorg_forget_client(sx, info->client);
		/* The recording ends with its reader. */
		if (sx->trace_owner == info->client) {
			sx->trace_owner = NULL;
			sf_core_trace_discard(sx->core);
		}
		/* The last client: the server is about to reset. */
		if (dispatchException & DE_RESET)
			generation_ending(sx, "resetting");
	}
}

/* --- requests --- */

static int
check_request_size(ClientPtr client, size_t size)
{
	return client->req_len == size / 4 ? Success : BadLength;
}

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
	int rc = check_request_size(client, STILLFRAME_X_QUERY_VERSION_REQ_SIZE);

	if (rc != Success)
		return rc;
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
	int rc = check_request_size(client, STILLFRAME_X_GET_STATUS_REQ_SIZE);

	if (rc != Success)
		return rc;
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
	int rc = check_request_size(client, STILLFRAME_X_LIST_WINDOWS_REQ_SIZE);

	if (rc != Success)
		return rc;
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
		uint32_t pf = xw->hint[STILLFRAME_X_HINT_FLAGS];
		/* Held is said of the window whose drawing client is held
		 * (not always its owner). */
		if (xw->drawer && sf_xorg_client_is_held(sx, xw->drawer))
			flags |= STILLFRAME_X_WINDOW_HELD;
		if (pf & STILLFRAME_X_FLAG_ESSENTIAL ||
		    (!(pf & STILLFRAME_X_FLAG_ALL) &&
		     xw->rule_priority == SF_PRIORITY_ESSENTIAL))
			flags |= STILLFRAME_X_WINDOW_ESSENTIAL;
		if (pf & STILLFRAME_X_FLAG_BACKGROUND ||
		    (!(pf & STILLFRAME_X_FLAG_ALL) &&
		     xw->rule_priority == SF_PRIORITY_BACKGROUND))
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
	int rc = check_request_size(client,
				  STILLFRAME_X_SET_WINDOW_HINT_REQ_SIZE);

	if (rc != Success)
		return rc;
	if ((rc = check_manage_access(client)) != Success)
		return rc;
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
		sf_xorg_window_update_hints(xw, sf_xorg_now());
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
	int rc = check_request_size(client, STILLFRAME_X_SELECT_EVENTS_REQ_SIZE);

	if (rc != Success)
		return rc;
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
	int rc = check_request_size(client, STILLFRAME_X_SET_PAUSED_REQ_SIZE);

	if (rc != Success)
		return rc;
	if ((rc = check_manage_access(client)) != Success)
		return rc;
	if ((rc = check_request_values(client)) != Success)
		return rc;
	if ((bool)req->paused != sf_core_is_paused(sx->core)) {
		sf_xorg_log(SF_LOG_INFO, "policy %s by client %d",
			    req->paused ? "paused" : "resumed",
			    client->index);
		sf_core_set_paused(sx->core, req->paused, sf_xorg_now());
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
	int rc = check_request_size(client,
				  STILLFRAME_X_SET_OUTPUT_POWER_REQ_SIZE);

	if (rc != Success)
		return rc;
	if ((rc = check_manage_access(client)) != Success)
		return rc;
	if ((rc = check_request_values(client)) != Success)
		return rc;
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
				sf_xorg_now());
	sf_xorg_schedule_dispatch(sx);
	return Success;
}

static int
proc_list_output_power(ClientPtr client)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct sf_xorg_output *xo;
	size_t size = 0, n = 0;
	sf_time_t now = sf_xorg_now();
	int rc = check_request_size(client,
				  STILLFRAME_X_LIST_OUTPUT_POWER_REQ_SIZE);

	if (rc != Success)
		return rc;
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
	int rc = check_request_size(client, STILLFRAME_X_START_TRACE_REQ_SIZE);

	if (rc != Success)
		return rc;
	if ((rc = check_manage_access(client)) != Success)
		return rc;
	if (sf_core_get_trace(sx->core)) {
		rep.status = STILLFRAME_X_TRACE_BUSY;
	} else if (!sf_core_trace_start(sx->core, TRACE_CAPACITY,
					sf_xorg_now())) {
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
	int rc = check_request_size(client, STILLFRAME_X_READ_TRACE_REQ_SIZE);

	if (rc != Success)
		return rc;
	if ((rc = check_request_values(client)) != Success)
		return rc;
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
	int rc = check_request_size(client, STILLFRAME_X_STOP_TRACE_REQ_SIZE);

	if (rc != Success)
		return rc;
	if ((rc = owned_trace(client, &rec)) != Success)
		return rc;
	if (!sf_trace_recorder_has_ended(rec)) {
		sf_trace_recorder_end(rec, sf_xorg_now());
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

static int
proc_dispatch(ClientPtr client)
{
	xReq *req = (xReq *)client->requestBuffer;

	if (sf_xorg_instance)
		sf_xorg_want_cycle(sf_xorg_instance);
	switch (req->data) {
	case STILLFRAME_X_QUERY_VERSION:
		return proc_query_version(client);
	case STILLFRAME_X_GET_STATUS:
		return proc_get_status(client);
	case STILLFRAME_X_LIST_WINDOWS:
		return proc_list_windows(client);
	case STILLFRAME_X_SET_WINDOW_HINT:
		return proc_set_window_hint(client);
	case STILLFRAME_X_SELECT_EVENTS:
		return proc_select_events(client);
	case STILLFRAME_X_SET_PAUSED:
		return proc_set_paused(client);
	case STILLFRAME_X_SET_OUTPUT_POWER:
		return proc_set_output_power(client);
	case STILLFRAME_X_LIST_OUTPUT_POWER:
		return proc_list_output_power(client);
	case STILLFRAME_X_START_TRACE:
		return proc_start_trace(client);
	case STILLFRAME_X_READ_TRACE:
		return proc_read_trace(client);
	case STILLFRAME_X_STOP_TRACE:
		return proc_stop_trace(client);
	}
	return BadRequest;
}

/* A client of the other byte order: the size checked and the fields
 * swapped in place (request.c), then the same code as for a client of
 * the server's byte order. */
static int
sproc_dispatch(ClientPtr client)
{
	switch (sf_x_request_check_size(client->requestBuffer,
					(size_t)client->req_len * 4)) {
	case SF_X_REQUEST_OK:
		break;
	case SF_X_REQUEST_BAD_REQUEST:
		return BadRequest;
	default:
		return BadLength;
	}
	sf_x_request_swap(client->requestBuffer);
	return proc_dispatch(client);
}

/* --- lifecycle --- */

static void
instance_destroy(struct sf_xorg *sx)
{
	struct sf_xorg_selection *sel, *next;

	sf_xorg_release(sx, NULL, "server reset or exit");
	sf_xorg_window_destroy_all(sx, NULL);
	sf_xorg_output_destroy_all(sx, NULL);
	xorg_list_for_each_entry_safe(sel, next, &sx->selections, link) {
		xorg_list_del(&sel->link);
		free(sel);
	}
	TimerFree(sx->timer);
	sf_xorg_hold_finish(sx);
	sf_xorg_window_unhook_properties();
	RemoveBlockAndWakeupHandlers(block_handler, wakeup_handler, sx);
	DeleteCallback(&DeviceEventCallback, device_event_handle, sx);
	DeleteCallback(&ClientStateCallback, client_state_handle, sx);
	XaceDeleteCallback(XACE_DEVICE_ACCESS, device_access_handle, sx);
	sf_core_destroy(sx->core);
	sf_platform_destroy(sx->platform);
	free(sx);
}

void
sf_xorg_screen_closed(ScreenPtr screen)
{
	struct sf_xorg *sx = sf_xorg_instance;

	if (!sx)
		return;
	sf_xorg_release(sx, NULL, "screen closing");
	sf_xorg_window_destroy_all(sx, screen);
	sf_xorg_output_destroy_all(sx, screen);
	if (--sx->screens_open > 0)
		return;
	sf_xorg_instance = NULL;
	instance_destroy(sx);
	sf_xorg_log(SF_LOG_INFO, "finished: modes and DPMS put back");
}

void
sf_xorg_extension_init(void)
{
	struct sf_xorg *sx = calloc(1, sizeof(*sx));

	if (!sx)
		goto fail;
	sx->config = *sf_xorg_module_config();
	xorg_list_init(&sx->outputs);
	xorg_list_init(&sx->windows);
	xorg_list_init(&sx->fresh_windows);
	xorg_list_init(&sx->holds);
	xorg_list_init(&sx->drawers);
	sx->hold_epoll_fd = -1;
	xorg_list_init(&sx->selections);
	xorg_list_init(&sx->connectors);
	sx->timer_deadline = SF_TIME_NEVER;
	sx->seen_event_ms = LastEventTime(XIAllDevices).milliseconds;
	struct sf_platform_options platform_options;
	sf_platform_options_from_config(&platform_options, &sx->config);
	platform_options.log = platform_handle_log;
	sx->platform = sf_platform_create(&platform_options);
	if (!sx->platform)
		goto fail;
	sx->core = sf_core_create(&sx->config, &sf_xorg_core_interface, sx,
				  sf_xorg_now());
	if (!sx->core)
		goto fail;
	sx->hint_atom = MakeAtom(STILLFRAME_X_HINT_PROPERTY,
				 strlen(STILLFRAME_X_HINT_PROPERTY), TRUE);
	sx->vrr_atom = MakeAtom(STILLFRAME_X_VRR_PROPERTY,
				strlen(STILLFRAME_X_VRR_PROPERTY), TRUE);
	sx->wm_state_atom = MakeAtom("WM_STATE", strlen("WM_STATE"), TRUE);
	sx->selection_type = CreateNewResourceType(selection_handle_free,
						   "StillframeSelection");
	if (!sx->hint_atom || !sx->vrr_atom || !sx->wm_state_atom ||
	    !sx->selection_type)
		goto fail;
	for (int i = 0; i < screenInfo.numScreens; i++) {
		if (!sf_xorg_window_init_screen(sx, screenInfo.screens[i]))
			goto fail;
		sx->screens_open++;
	}
	if (!sf_xorg_hold_init(sx) ||
	    !RegisterBlockAndWakeupHandlers(block_handler, wakeup_handler, sx) ||
	    !AddCallback(&DeviceEventCallback, device_event_handle, sx) ||
	    !AddCallback(&ClientStateCallback, client_state_handle, sx) ||
	    !XaceRegisterCallback(XACE_DEVICE_ACCESS, device_access_handle,
				  sx))
		goto fail;
	ExtensionEntry *ext = AddExtension(STILLFRAME_X_NAME,
					   STILLFRAME_X_EVENT_COUNT, 0,
					   proc_dispatch, sproc_dispatch,
					   extension_close_down,
					   StandardMinorOpcode);
	if (!ext)
		goto fail;
	sx->event_base = ext->eventBase;
	EventSwapVector[ext->eventBase + STILLFRAME_X_STATE_NOTIFY] =
		swap_state_notify;
	sf_xorg_window_hook_properties();
	sf_xorg_instance = sx;
	sf_xorg_log(SF_LOG_INFO, "STILLFRAME %d.%d ready (generation %lu)",
		    STILLFRAME_X_MAJOR_VERSION, STILLFRAME_X_MINOR_VERSION,
		    serverGeneration);
	return;
fail:
	/* One bail path: the server runs on without stillframe. */
	LogMessageVerb(X_ERROR, 0, "stillframe: cannot start (out of memory "
		       "or the server refused a hook); the server runs "
		       "without it\n");
	if (sx) {
		/* Screens already wrapped keep our hooks, which do nothing
		 * without an instance; the rest is undone (each of these
		 * is harmless for what was never added). */
		RemoveBlockAndWakeupHandlers(block_handler, wakeup_handler, sx);
		DeleteCallback(&DeviceEventCallback, device_event_handle, sx);
		DeleteCallback(&ClientStateCallback, client_state_handle, sx);
		XaceDeleteCallback(XACE_DEVICE_ACCESS, device_access_handle,
				   sx);
		sf_xorg_hold_finish(sx);
		sf_core_destroy(sx->core);
		sf_platform_destroy(sx->platform);
		free(sx);
	}
}
