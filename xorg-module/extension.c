/* SPDX-License-Identifier: MIT */
/*
 * The STILLFRAME extension for one server generation: the core and its
 * timer, input from the device event callback, the block handler that
 * runs each cycle (damage.c commits, hold.c holds), client bookkeeping,
 * and StateNotify.  The requests of protocol/stillframe-x.h are served
 * by dispatch.c, their byte-swapped twins by sdispatch.c, as the
 * server's randr/ keeps rrdispatch.c and rrsdispatch.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#include "sf-xorg.h"
#include "stillframe-x.h"

struct sf_xorg *sf_xorg_instance;

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
	sf_core_dispatch(sx->core, sf_support_now());
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
	int32_t ms = sf_support_timer_ms(deadline, sf_support_now());
	sx->timer = TimerSet(sx->timer, 0, (CARD32)ms, timer_handle_expiry, sx);
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
	sf_core_notify_keep_awake(sx->core, sf_support_now());
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
server_handle_block(void *data, void *timeout)
{
	struct sf_xorg *sx = data;
	struct sf_xorg_output *xo;

	if (sx->ending)
		return;
	sf_time_t now = sf_support_now();
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
		sf_xorg_damage_stamp(sx, now);
	if (!sx->cycle_wanted && wait_for_damage(sx, now, timeout))
		return;
	sx->cycle_wanted = false;
	/* Each window's settled damage to the core, then each output's
	 * repaint, which holds the clients whose damage it held. */
	sf_xorg_damage_commit_settled(sx, focused_toplevel(), now);
	sf_xorg_hold_cycle(sx, now, timeout);
	if (sx->damage_pending)
		sf_xorg_wake_up_in(timeout, sx->damage_due > now ?
						    sx->damage_due - now : 0);
	sf_xorg_schedule_dispatch(sx);
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
server_handle_wakeup(void *data, int result)
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
server_handle_device_event(CallbackListPtr *list, void *data, void *call_data)
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
	sf_core_notify_input(sx->core, kind, sf_support_now());
	sf_xorg_schedule_dispatch(sx);
}

static void
server_handle_client_state(CallbackListPtr *list, void *data, void *call_data)
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
	RemoveBlockAndWakeupHandlers(server_handle_block, server_handle_wakeup,
				     sx);
	DeleteCallback(&DeviceEventCallback, server_handle_device_event, sx);
	DeleteCallback(&ClientStateCallback, server_handle_client_state, sx);
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
	sf_platform_options_from_config(&platform_options,
					sf_xorg_module_config());
	platform_options.log = platform_handle_log;
	sx->platform = sf_platform_create(&platform_options);
	if (!sx->platform)
		goto fail;
	/* The core keeps its own copy: every option is read through it
	 * from here on. */
	sx->core = sf_core_create(sf_xorg_module_config(),
				  &sf_xorg_core_interface, sx, sf_support_now());
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
	    !RegisterBlockAndWakeupHandlers(server_handle_block,
					    server_handle_wakeup, sx) ||
	    !AddCallback(&DeviceEventCallback, server_handle_device_event, sx) ||
	    !AddCallback(&ClientStateCallback, server_handle_client_state, sx) ||
	    !XaceRegisterCallback(XACE_DEVICE_ACCESS, device_access_handle,
				  sx))
		goto fail;
	ExtensionEntry *ext = AddExtension(STILLFRAME_X_NAME,
					   STILLFRAME_X_EVENT_COUNT, 0,
					   sf_xorg_proc_dispatch,
					   sf_xorg_sproc_dispatch,
					   extension_close_down,
					   StandardMinorOpcode);
	if (!ext)
		goto fail;
	sx->event_base = ext->eventBase;
	EventSwapVector[ext->eventBase + STILLFRAME_X_STATE_NOTIFY] =
		sf_xorg_swap_state_notify;
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
		RemoveBlockAndWakeupHandlers(server_handle_block, server_handle_wakeup,
				     sx);
		DeleteCallback(&DeviceEventCallback, server_handle_device_event, sx);
		DeleteCallback(&ClientStateCallback, server_handle_client_state, sx);
		XaceDeleteCallback(XACE_DEVICE_ACCESS, device_access_handle,
				   sx);
		sf_xorg_hold_finish(sx);
		sf_core_destroy(sx->core);
		sf_platform_destroy(sx->platform);
		free(sx);
	}
}
