/* SPDX-License-Identifier: MIT */
/*
 * Windows: every mapped child of the root becomes an sf_surface of the
 * core, attributed to the application window in it (itself, or the one
 * a window manager's frame holds).  Its damage (drawing into it and its
 * children) is gathered between two block handler runs and reported as
 * one commit, narrowed to the 16x16 tiles whose pixels changed.
 *
 * X has no repaint to veto: a client's drawing is on screen once its
 * request ran.  So when the core holds an output's damage (blinks and
 * ticks while the user is idle), the client that drew it is held instead
 * (IgnoreClient): its next blink waits, queued in its socket, until the
 * output paints again, input arrives, the class's staleness deadline
 * passes, the window turns essential, its window is covered, uncovered
 * or exposed (ClipNotify), or it sends anything but its blinks or ticks
 * (hold.c watches its socket): then it is let go (AttendClient) in the
 * same server cycle.  Nothing but a blink or a tick waits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xorg-server.h>
#include <X11/Xatom.h>
#include <propertyst.h>
#include <inputstr.h>
#include <X11/Xproto.h>

#include "sf-xorg.h"
#include "request.h"
#include "stillframe-x.h"

#define MAX_BOXES 16
/* A client's drawing of one frame may run over several dispatch cycles
 * when other clients are busy; damage is reported once the window has
 * been quiet for half a frame at 60 Hz, or has waited MAX_GATHER in all.
 * Not a whole frame: a 60 fps client's frames come 16.7 ms apart, less
 * the time its own requests take, so a 16 ms settle merged frames at
 * random; a 60 fps video then read as 25 to 53 Hz, and its output went
 * back and forth between two refresh rates, each mode set sending every
 * RandR client (a video player) to query all the outputs again. */
#define SETTLE SF_MSEC(8)
#define MAX_GATHER SF_MSEC(100)
/* The server is not woken just to report settled damage before this:
 * an animation's next frame wakes it first, and its block handler
 * reports the frame before (the damage that came in with the new one
 * is kept apart).  Waking at SETTLE instead cost a 60 fps video one
 * more sleep and wake-up of the server per frame. */
#define SETTLE_WAKE SF_MSEC(50)
/* The most a blink (a caret or a cursor cell) and a tick (a clock) draw,
 * in pixels, for their requests to be learnt as such (hold.c). */
#define MAX_BLINK_AREA (64 * 64)
#define MAX_TICK_AREA (256 * 256)
/* Windows larger than this keep no pixel copy (16 MB at 32 bpp). */
#define MAX_COPY_PIXELS (4096 * 1024)

struct screen_hooks {
	ClipNotifyProcPtr clip_notify;
	RealizeWindowProcPtr realize;
	UnrealizeWindowProcPtr unrealize;
	DestroyWindowProcPtr destroy;
	CloseScreenProcPtr close;
};

static DevPrivateKeyRec screen_key;
static DevPrivateKeyRec window_key;

void
sf_xorg_screen_closed(ScreenPtr screen);

static struct screen_hooks *
screen_hooks(ScreenPtr screen)
{
	return dixLookupPrivate(&screen->devPrivates, &screen_key);
}

struct sf_xorg_window *
sf_xorg_window_find(struct sf_xorg *sx, WindowPtr window)
{
	(void)sx;
	return dixLookupPrivate(&window->devPrivates, &window_key);
}

static bool
is_toplevel(WindowPtr win)
{
	return win->parent && !win->parent->parent &&
	       win->drawable.class == InputOutput;
}

bool
sf_xorg_window_is_client_toplevel(WindowPtr win)
{
	return win->parent && win->drawable.class == InputOutput &&
	       (!win->parent->parent ||
		CLIENT_ID(win->parent->drawable.id) !=
			CLIENT_ID(win->drawable.id));
}

static WindowPtr
root_child_of(WindowPtr win)
{
	while (win->parent && win->parent->parent)
		win = win->parent;
	return win->parent ? win : NULL;
}

static bool
has_property(WindowPtr win, Atom atom)
{
	PropertyPtr prop;

	return dixLookupProperty(&prop, win, atom, serverClient,
				 DixReadAccess) == Success;
}

/* The shallowest mapped window at most depth levels below win that has
 * WM_STATE, which a window manager puts on the windows it manages
 * (ICCCM 4.1.3.1), leaving out one that is going away; or NULL. */
static WindowPtr
find_managed_window(WindowPtr win, Atom wm_state, WindowPtr leaving,
		    int depth)
{
	WindowPtr child;

	for (child = win->firstChild; child; child = child->nextSib)
		if (child != leaving && child->realized &&
		    has_property(child, wm_state))
			return child;
	if (depth <= 1)
		return NULL;
	for (child = win->firstChild; child; child = child->nextSib) {
		WindowPtr found = child == leaving ? NULL :
			find_managed_window(child, wm_state, leaving,
					    depth - 1);
		if (found)
			return found;
	}
	return NULL;
}

/*
 * Finds the application's window and client for a child of the root.
 * Without a window manager, or with one that does not reparent, it is
 * the window itself.  A reparenting one (twm, openbox, xfwm4...) maps a
 * frame of its own there and the application's window, marked with
 * WM_STATE, inside it: the damage in the frame is the application's
 * drawing, so it is the application that is held, named and hinted,
 * never the window manager.
 */
static void
resolve_client_window(struct sf_xorg_window *xw, WindowPtr leaving,
		      sf_time_t now)
{
	WindowPtr found = xw->window;

	if (!has_property(xw->window, xw->sx->wm_state_atom)) {
		WindowPtr inner = find_managed_window(
			xw->window, xw->sx->wm_state_atom, leaving, 3);
		if (inner)
			found = inner;
	}
	ClientPtr owner = clients[CLIENT_ID(found->drawable.id)];
	if (!owner || owner == serverClient) {
		found = xw->window;
		owner = clients[CLIENT_ID(found->drawable.id)];
	}
	if (found == xw->client_window && owner == xw->owner)
		return;
	if (xw->client_window && found != xw->window)
		sf_xorg_log(SF_LOG_DEBUG, "window 0x%lx (a frame of client "
			    "%d): its application window is 0x%lx of client "
			    "%d", (unsigned long)xw->window->drawable.id,
			    (int)CLIENT_ID(xw->window->drawable.id),
			    (unsigned long)found->drawable.id, owner->index);
	/* A held client that no longer draws here keeps its hold until
	 * the next release, which comes with input or at its deadline. */
	xw->client_window = found;
	xw->owner = owner;
	sf_xorg_window_update_hints(xw, now);
}

struct sf_xorg_window *
sf_xorg_window_of_client_window(struct sf_xorg *sx, WindowPtr win)
{
	WindowPtr top = root_child_of(win);
	struct sf_xorg_window *xw = top ? sf_xorg_window_find(sx, top) : NULL;

	return xw && xw->client_window == win ? xw : NULL;
}

/* Grows a one-box region by a box that extends it to a box again: a
 * frame drawn in bands (a video's PutImage in strips, a toolkit's rows)
 * then never reaches the general union, which cost more than the rest of
 * the module's work per frame. */
static bool
grow_box(RegionPtr dst, RegionPtr add)
{
	const BoxRec *a = &dst->extents, *b = &add->extents;

	if (RegionNumRects(dst) != 1 || RegionNumRects(add) != 1)
		return false;
	bool same_columns = a->x1 == b->x1 && a->x2 == b->x2 &&
			    b->y1 <= a->y2 && a->y1 <= b->y2;
	bool same_rows = a->y1 == b->y1 && a->y2 == b->y2 &&
			 b->x1 <= a->x2 && a->x1 <= b->x2;
	bool inside = a->x1 <= b->x1 && a->y1 <= b->y1 &&
		      b->x2 <= a->x2 && b->y2 <= a->y2;
	if (!same_columns && !same_rows && !inside)
		return false;
	dst->extents = (BoxRec){
		.x1 = min(a->x1, b->x1), .y1 = min(a->y1, b->y1),
		.x2 = max(a->x2, b->x2), .y2 = max(a->y2, b->y2),
	};
	return true;
}

/* `quiet` after the last report of the window's pending damage, or
 * MAX_GATHER after the first, whichever comes first. */
static sf_time_t
settled_at(const struct sf_xorg_window *xw, sf_time_t quiet)
{
	sf_time_t at = xw->last_damage + quiet;

	if (xw->pending_since + MAX_GATHER < at)
		at = xw->pending_since + MAX_GATHER;
	return at;
}

/* When the pending damage may be committed. */
static sf_time_t
commit_ready(const struct sf_xorg_window *xw)
{
	return settled_at(xw, SETTLE);
}

/* When the server is to wake up to commit it, at the latest. */
static sf_time_t
commit_due(const struct sf_xorg_window *xw)
{
	return settled_at(xw, SETTLE_WAKE);
}

/* Several times a frame under a video, in the middle of the server's
 * drawing: the damage is gathered apart from what is pending, and its
 * time noted by the next block handler (sf_xorg_window_stamp_damage),
 * which reads the clock anyway, within the same dispatch of requests. */
static void
window_damage_report(DamagePtr damage, RegionPtr region, void *closure)
{
	struct sf_xorg_window *xw = closure;
	struct sf_xorg *sx = xw->sx;
	(void)damage;

	/* Who draws, and with what, is only known now, inside the
	 * request.  Not learnt from what draws much: a blink or a tick
	 * is small. */
	enum sf_class cls = sf_surface_get_classification(xw->core)->cls;
	sf_xorg_drawer_note_request(xw, cls != SF_CLASS_VIDEO &&
					    cls != SF_CLASS_ANIMATING);
	if (!grow_box(&xw->fresh, region))
		RegionUnion(&xw->fresh, &xw->fresh, region);
	if (xorg_list_is_empty(&xw->fresh_link))
		xorg_list_append(&xw->fresh_link, &sx->fresh_windows);
}

/* Moves the fresh damage to the pending, noting its time. */
static void
take_fresh_damage(struct sf_xorg_window *xw, sf_time_t now)
{
	xorg_list_del(&xw->fresh_link);
	xorg_list_init(&xw->fresh_link);
	if (!RegionNotEmpty(&xw->fresh))
		return;
	if (!RegionNotEmpty(&xw->pending)) {
		RegionRec empty = xw->pending;

		xw->pending = xw->fresh;
		xw->fresh = empty;
		xw->pending_since = now;
	} else if (!grow_box(&xw->pending, &xw->fresh)) {
		RegionUnion(&xw->pending, &xw->pending, &xw->fresh);
	}
	RegionEmpty(&xw->fresh);
	xw->last_damage = now;
}

/* Counts the window's pending damage in the earliest time one may be
 * committed, and the earliest the server must wake up for one. */
static void
note_damage_times(struct sf_xorg *sx, const struct sf_xorg_window *xw)
{
	sf_time_t ready = commit_ready(xw), due = commit_due(xw);

	if (!sx->damage_pending || ready < sx->damage_ready)
		sx->damage_ready = ready;
	if (!sx->damage_pending || due < sx->damage_due)
		sx->damage_due = due;
	sx->damage_pending = true;
}

/* The same times over all windows. */
static void
update_damage_times(struct sf_xorg *sx)
{
	struct sf_xorg_window *xw;

	sx->damage_pending = false;
	xorg_list_for_each_entry(xw, &sx->windows, link) {
		if (!RegionNotEmpty(&xw->pending))
			continue;
		note_damage_times(sx, xw);
	}
}

void
sf_xorg_window_stamp_damage(struct sf_xorg *sx, sf_time_t now)
{
	struct sf_xorg_window *xw, *next;
	bool moved_later = false;

	xorg_list_for_each_entry_safe(xw, next, &sx->fresh_windows,
				      fresh_link) {
		if (RegionNotEmpty(&xw->pending)) {
			if (commit_ready(xw) <= now) {
				/* A frame before this one has settled: the
				 * cycle, which runs next, reports it, then
				 * takes this one. */
				sf_xorg_want_cycle(sx);
				continue;
			}
			moved_later = true;
		}
		take_fresh_damage(xw, now);
		note_damage_times(sx, xw);
	}
	/* A window's times only move later with more damage: the minimum
	 * may have been its own, and waking up for it would be early. */
	if (moved_later)
		update_damage_times(sx);
}

static void
window_damage_destroy(DamagePtr damage, void *closure)
{
	struct sf_xorg_window *xw = closure;
	(void)damage;

	xw->damage = NULL;
}

/* WM_CLASS is "instance\0class\0"; the instance is what users type
 * (xterm, xclock), the class what rules often use (XTerm). */
static void
read_wm_class(struct sf_xorg_window *xw)
{
	PropertyPtr prop;
	char instance[64] = "", cls[64] = "";

	if (dixLookupProperty(&prop, xw->client_window, XA_WM_CLASS, serverClient,
			      DixReadAccess) == Success &&
	    prop->format == 8 && prop->type == XA_STRING) {
		const char *data = prop->data;
		size_t n = (size_t)prop->size;
		size_t a = strnlen(data, n);
		snprintf(instance, sizeof(instance), "%.*s", (int)a, data);
		if (a + 1 < n)
			snprintf(cls, sizeof(cls), "%.*s",
				 (int)strnlen(data + a + 1, n - a - 1),
				 data + a + 1);
	}
	if (strcmp(instance, xw->instance) == 0 &&
	    strcmp(cls, xw->wm_class) == 0)
		return;
	memcpy(xw->instance, instance, sizeof(instance));
	memcpy(xw->wm_class, cls, sizeof(cls));
	char label[64];
	if (instance[0])
		snprintf(label, sizeof(label), "%s", instance);
	else
		snprintf(label, sizeof(label), "window 0x%lx",
			 (unsigned long)xw->client_window->drawable.id);
	sf_surface_set_label(xw->core, label);
	xw->rule_priority = sf_config_app_priority(&xw->sx->config, instance,
						   cls);
	if (xw->rule_priority != SF_PRIORITY_NORMAL)
		sf_xorg_log(SF_LOG_DEBUG, "window 0x%lx (%s): %s by %s",
			    (unsigned long)xw->client_window->drawable.id, label,
			    xw->rule_priority == SF_PRIORITY_ESSENTIAL ?
				    "essential" : "background",
			    xw->rule_priority == SF_PRIORITY_ESSENTIAL ?
				    "EssentialApps" : "BackgroundApps");
}

static bool
read_cardinals(WindowPtr win, Atom atom, uint32_t *out, size_t n,
	       size_t *got)
{
	PropertyPtr prop;

	*got = 0;
	if (dixLookupProperty(&prop, win, atom, serverClient,
			      DixReadAccess) != Success)
		return false;
	if (prop->type != XA_CARDINAL || prop->format != 32)
		return true;	/* present, but not ours to read */
	const CARD32 *data = prop->data;
	for (size_t i = 0; i < n && i < (size_t)prop->size; i++)
		out[i] = data[i];
	*got = (size_t)prop->size < n ? (size_t)prop->size : n;
	return true;
}

void
sf_xorg_window_update_hints(struct sf_xorg_window *xw, sf_time_t now)
{
	struct sf_xorg *sx = xw->sx;
	uint32_t hint[STILLFRAME_X_HINT_ITEMS] = { 0 };
	size_t got;

	read_wm_class(xw);
	bool present = read_cardinals(xw->client_window, sx->hint_atom, hint,
				      STILLFRAME_X_HINT_ITEMS, &got);
	if (present && got < STILLFRAME_X_HINT_ITEMS) {
		sf_xorg_log(SF_LOG_INFO, "client bug: window 0x%lx (%s): "
			    "_STILLFRAME_HINT needs %d CARDINALs of format "
			    "32; ignored",
			    (unsigned long)xw->client_window->drawable.id,
			    xw->instance, STILLFRAME_X_HINT_ITEMS);
		memset(hint, 0, sizeof(hint));
		present = false;
	}
	int item;
	const char *problem = present ? sf_x_hint_problem(hint, &item) : NULL;
	if (problem) {
		sf_xorg_log(SF_LOG_INFO, "client bug: window 0x%lx (%s): "
			    "_STILLFRAME_HINT has %s; ignored",
			    (unsigned long)xw->client_window->drawable.id,
			    xw->instance, problem);
		memset(hint, 0, sizeof(hint));
		present = false;
	}

	if (memcmp(hint, xw->hint, sizeof(hint)) != 0 ||
	    present != xw->hinted) {
		sf_surface_set_content_rate(
			xw->core, hint[STILLFRAME_X_HINT_RATE_NUM],
			hint[STILLFRAME_X_HINT_RATE_DEN] ?
				hint[STILLFRAME_X_HINT_RATE_DEN] : 1, now);
		sf_surface_set_rate_range(xw->core,
					  hint[STILLFRAME_X_HINT_MIN_MHZ],
					  hint[STILLFRAME_X_HINT_MAX_MHZ], now);
		if (present)
			sf_xorg_log(SF_LOG_DEBUG, "window 0x%lx (%s): hint "
				    "rate %u/%u range %u-%u mHz flags 0x%x",
				    (unsigned long)xw->client_window->drawable.id,
				    xw->instance, hint[0], hint[1], hint[2],
				    hint[3], hint[4]);
		memcpy(xw->hint, hint, sizeof(hint));
		xw->hinted = present;
	}
	uint32_t flags = hint[STILLFRAME_X_HINT_FLAGS];
	enum sf_priority priority =
		flags & STILLFRAME_X_FLAG_ESSENTIAL ? SF_PRIORITY_ESSENTIAL :
		flags & STILLFRAME_X_FLAG_BACKGROUND ? SF_PRIORITY_BACKGROUND :
		xw->rule_priority;
	sf_surface_set_priority(xw->core, priority, now);

	uint32_t vrr = 0;
	read_cardinals(xw->client_window, sx->vrr_atom, &vrr, 1, &got);
	bool game = got == 1 && vrr != 0;
	if (game != xw->game) {
		xw->game = game;
		sf_surface_set_content_type(xw->core, game ? SF_CONTENT_GAME :
							     SF_CONTENT_NONE,
					    now);
	}
}

static void
update_placement(struct sf_xorg_window *xw, sf_time_t now)
{
	WindowPtr win = xw->window;
	BoxRec box = {
		.x1 = win->drawable.x,
		.y1 = win->drawable.y,
		.x2 = win->drawable.x + (int)win->drawable.width,
		.y2 = win->drawable.y + (int)win->drawable.height,
	};
	double fraction = 0;
	struct sf_xorg_output *xo = sf_xorg_output_at(
		xw->sx, win->drawable.pScreen, &box, &fraction);

	/* The share of the output it covers, as the core expects. */
	double visible = 0;
	if (xo && xo->rr_crtc->mode) {
		double out_area = (double)xo->rr_crtc->mode->mode.width *
				  xo->rr_crtc->mode->mode.height;
		double win_area = (double)win->drawable.width *
				  win->drawable.height;
		visible = out_area > 0 ? fraction * win_area / out_area : 0;
		if (visible > 1)
			visible = 1;
	}
	if (xo != xw->output || visible != xw->visible_fraction) {
		xw->output = xo;
		xw->visible_fraction = visible;
		sf_surface_set_output(xw->core, xo ? xo->core : NULL, visible,
				      now);
	}
	sf_surface_set_size(xw->core, win->drawable.width,
			    win->drawable.height);
	xw->placed_box = box;
	xw->placed_serial = xw->sx->layout_serial;
}

/* Whether the window is where update_placement last found it, with no
 * layout change since: then every commit need not work it out again. */
static bool
placement_current(const struct sf_xorg_window *xw)
{
	const DrawableRec *d = &xw->window->drawable;
	const BoxRec *b = &xw->placed_box;

	return xw->placed_serial == xw->sx->layout_serial && b->x1 == d->x &&
	       b->y1 == d->y && b->x2 == d->x + (int)d->width &&
	       b->y2 == d->y + (int)d->height;
}

static void
window_track(struct sf_xorg *sx, WindowPtr win)
{
	ClientPtr owner = clients[CLIENT_ID(win->drawable.id)];
	sf_time_t now = sf_xorg_now();

	if (!owner || owner == serverClient || sf_xorg_window_find(sx, win))
		return;
	struct sf_xorg_window *xw = calloc(1, sizeof(*xw));
	if (!xw)
		goto oom;
	xw->sx = sx;
	xw->window = win;
	xorg_list_init(&xw->fresh_link);
	RegionNull(&xw->pending);
	RegionNull(&xw->fresh);
	sf_tile_map_init(&xw->tiles);
	xw->core = sf_surface_create(sx->core, win->drawable.width,
				     win->drawable.height, now);
	if (!xw->core)
		goto oom;
	xw->damage = DamageCreate(window_damage_report, window_damage_destroy,
				  DamageReportRawRegion, FALSE,
				  win->drawable.pScreen, xw);
	if (!xw->damage)
		goto oom;
	DamageRegister(&win->drawable, xw->damage);
	dixSetPrivate(&win->devPrivates, &window_key, xw);
	xorg_list_append(&xw->link, &sx->windows);
	resolve_client_window(xw, NULL, now);
	update_placement(xw, now);
	return;
oom:
	sf_xorg_log(SF_LOG_ERROR, "window 0x%lx: out of memory; not tracked",
		    (unsigned long)win->drawable.id);
	if (xw) {
		sf_surface_destroy(xw->core);
		sf_tile_map_finish(&xw->tiles);
		RegionUninit(&xw->pending);
		RegionUninit(&xw->fresh);
	}
	free(xw);
}

static void
window_untrack(struct sf_xorg_window *xw)
{
	if (xw->damage) {
		DamagePtr damage = xw->damage;
		DamageUnregister(damage);
		DamageDestroy(damage);
		xw->damage = NULL;
	}
	dixSetPrivate(&xw->window->devPrivates, &window_key, NULL);
	sf_surface_destroy(xw->core);
	sf_tile_map_finish(&xw->tiles);
	RegionUninit(&xw->pending);
	RegionUninit(&xw->fresh);
	xorg_list_del(&xw->fresh_link);
	xorg_list_del(&xw->link);
	free(xw->pixels);
	free(xw);
}

void
sf_xorg_window_place_all(struct sf_xorg *sx)
{
	struct sf_xorg_window *xw;
	sf_time_t now = sf_xorg_now();

	sx->layout_serial++;
	xorg_list_for_each_entry(xw, &sx->windows, link)
		update_placement(xw, now);
}

void
sf_xorg_window_forget_output(struct sf_xorg *sx, struct sf_xorg_output *xo)
{
	struct sf_xorg_window *xw;

	sx->layout_serial++;
	xorg_list_for_each_entry(xw, &sx->windows, link) {
		if (xw->output != xo)
			continue;
		xw->output = NULL;
		xw->visible_fraction = 0;
		sf_surface_set_output(xw->core, NULL, 0, sf_xorg_now());
	}
}

void
sf_xorg_window_destroy_all(struct sf_xorg *sx, ScreenPtr screen)
{
	struct sf_xorg_window *xw, *next;

	xorg_list_for_each_entry_safe(xw, next, &sx->windows, link)
		if (!screen || xw->window->drawable.pScreen == screen)
			window_untrack(xw);
}

/* --- property changes --- */

/* _STILLFRAME_HINT, _VARIABLE_REFRESH and WM_CLASS are read when a
 * window appears and whenever a client changes or deletes one of them:
 * the server has no exported property callback, so the two requests are
 * wrapped (their byte-swapped versions call through the same vector). */
static int (*original_change_property)(ClientPtr client);
static int (*original_delete_property)(ClientPtr client);

static void
property_changed(ClientPtr client, XID window, Atom property)
{
	struct sf_xorg *sx = sf_xorg_instance;
	WindowPtr win;

	if (!sx || (property != sx->hint_atom && property != sx->vrr_atom &&
		    property != XA_WM_CLASS && property != sx->wm_state_atom))
		return;
	if (dixLookupWindow(&win, window, client, DixGetAttrAccess) != Success)
		return;
	WindowPtr top = root_child_of(win);
	struct sf_xorg_window *xw = top ? sf_xorg_window_find(sx, top) : NULL;
	if (!xw)
		return;
	if (property == sx->wm_state_atom)
		resolve_client_window(xw, NULL, sf_xorg_now());
	else if (win == xw->client_window)
		sf_xorg_window_update_hints(xw, sf_xorg_now());
	sf_xorg_want_cycle(sx);
	sf_xorg_schedule_dispatch(sx);
}

static int
proc_change_property(ClientPtr client)
{
	xChangePropertyReq *req = (xChangePropertyReq *)client->requestBuffer;
	int rc = original_change_property(client);

	if (rc == Success)
		property_changed(client, req->window, req->property);
	return rc;
}

static int
proc_delete_property(ClientPtr client)
{
	xDeletePropertyReq *req = (xDeletePropertyReq *)client->requestBuffer;
	int rc = original_delete_property(client);

	if (rc == Success)
		property_changed(client, req->window, req->property);
	return rc;
}

void
sf_xorg_window_hook_properties(void)
{
	if (ProcVector[X_ChangeProperty] != proc_change_property) {
		original_change_property = ProcVector[X_ChangeProperty];
		ProcVector[X_ChangeProperty] = proc_change_property;
	}
	if (ProcVector[X_DeleteProperty] != proc_delete_property) {
		original_delete_property = ProcVector[X_DeleteProperty];
		ProcVector[X_DeleteProperty] = proc_delete_property;
	}
}

void
sf_xorg_window_unhook_properties(void)
{
	if (ProcVector[X_ChangeProperty] == proc_change_property)
		ProcVector[X_ChangeProperty] = original_change_property;
	if (ProcVector[X_DeleteProperty] == proc_delete_property)
		ProcVector[X_DeleteProperty] = original_delete_property;
}

/* --- screen hooks --- */

/* A window covered, uncovered, moved or exposed: whoever draws it must
 * be free to draw what the change asks for (an exposed area is redrawn
 * at once, not at the hold's deadline). */
static void
screen_handle_clip_notify(WindowPtr win, int dx, int dy)
{
	ScreenPtr screen = win->drawable.pScreen;
	struct screen_hooks *h = screen_hooks(screen);
	struct sf_xorg *sx = sf_xorg_instance;

	if (h->clip_notify) {
		screen->ClipNotify = h->clip_notify;
		screen->ClipNotify(win, dx, dy);
		h->clip_notify = screen->ClipNotify;
		screen->ClipNotify = screen_handle_clip_notify;
	}
	if (!sx || xorg_list_is_empty(&sx->holds))
		return;
	WindowPtr top = root_child_of(win);
	struct sf_xorg_window *xw = top ? sf_xorg_window_find(sx, top) : NULL;
	if (!xw)
		return;
	sf_xorg_release_client(sx, xw->drawer, "its window was covered, "
			       "uncovered or exposed");
	sf_xorg_release_client(sx, xw->owner, "its window was covered, "
			       "uncovered or exposed");
}

static Bool
screen_handle_realize(WindowPtr win)
{
	ScreenPtr screen = win->drawable.pScreen;
	struct screen_hooks *h = screen_hooks(screen);

	screen->RealizeWindow = h->realize;
	Bool ret = screen->RealizeWindow(win);
	h->realize = screen->RealizeWindow;
	screen->RealizeWindow = screen_handle_realize;
	if (!ret || !sf_xorg_instance)
		return ret;
	sf_xorg_want_cycle(sf_xorg_instance);
	if (is_toplevel(win)) {
		window_track(sf_xorg_instance, win);
	} else {
		/* Maybe an application's window appearing in a frame. */
		WindowPtr top = root_child_of(win);
		struct sf_xorg_window *xw =
			top ? sf_xorg_window_find(sf_xorg_instance, top) : NULL;
		if (xw)
			resolve_client_window(xw, NULL, sf_xorg_now());
	}
	return ret;
}

static void
forget_window(WindowPtr win)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct sf_xorg_window *xw = sx ? sf_xorg_window_find(sx, win) : NULL;

	if (sx)
		sf_xorg_want_cycle(sx);
	if (xw) {
		window_untrack(xw);
		return;
	}
	/* An application's window leaving its frame: the frame falls back
	 * to its own client until another one is managed in it. */
	xw = sx ? sf_xorg_window_of_client_window(sx, win) : NULL;
	if (xw)
		resolve_client_window(xw, win, sf_xorg_now());
}

static Bool
screen_handle_unrealize(WindowPtr win)
{
	ScreenPtr screen = win->drawable.pScreen;
	struct screen_hooks *h = screen_hooks(screen);

	forget_window(win);
	screen->UnrealizeWindow = h->unrealize;
	Bool ret = screen->UnrealizeWindow(win);
	h->unrealize = screen->UnrealizeWindow;
	screen->UnrealizeWindow = screen_handle_unrealize;
	return ret;
}

static Bool
screen_handle_destroy_window(WindowPtr win)
{
	ScreenPtr screen = win->drawable.pScreen;
	struct screen_hooks *h = screen_hooks(screen);
	struct sf_xorg *sx = sf_xorg_instance;

	forget_window(win);
	if (sx) {
		struct sf_xorg_selection *sel, *next;
		xorg_list_for_each_entry_safe(sel, next, &sx->selections, link)
			if (sel->window == win->drawable.id)
				FreeResource(sel->resource, RT_NONE);
	}
	screen->DestroyWindow = h->destroy;
	Bool ret = screen->DestroyWindow ? screen->DestroyWindow(win) : TRUE;
	h->destroy = screen->DestroyWindow;
	screen->DestroyWindow = screen_handle_destroy_window;
	return ret;
}

static Bool
screen_handle_close(ScreenPtr screen)
{
	struct screen_hooks *h = screen_hooks(screen);

	/* While RandR and the windows still exist: put the user's modes
	 * back and let every held client go. */
	sf_xorg_screen_closed(screen);
	screen->ClipNotify = h->clip_notify;
	screen->RealizeWindow = h->realize;
	screen->UnrealizeWindow = h->unrealize;
	screen->DestroyWindow = h->destroy;
	screen->CloseScreen = h->close;
	free(h);
	dixSetPrivate(&screen->devPrivates, &screen_key, NULL);
	return screen->CloseScreen(screen);
}

bool
sf_xorg_window_init_screen(struct sf_xorg *sx, ScreenPtr screen)
{
	(void)sx;
	if (!dixRegisterPrivateKey(&screen_key, PRIVATE_SCREEN, 0) ||
	    !dixRegisterPrivateKey(&window_key, PRIVATE_WINDOW, 0))
		return false;
	struct screen_hooks *h = calloc(1, sizeof(*h));
	if (!h)
		return false;
	dixSetPrivate(&screen->devPrivates, &screen_key, h);
	h->clip_notify = screen->ClipNotify;
	screen->ClipNotify = screen_handle_clip_notify;
	h->realize = screen->RealizeWindow;
	screen->RealizeWindow = screen_handle_realize;
	h->unrealize = screen->UnrealizeWindow;
	screen->UnrealizeWindow = screen_handle_unrealize;
	h->destroy = screen->DestroyWindow;
	screen->DestroyWindow = screen_handle_destroy_window;
	h->close = screen->CloseScreen;
	screen->CloseScreen = screen_handle_close;
	return true;
}

/* --- the cycle --- */

/* Copies the pixels under the tiles the damage touches into the window's
 * copy, for the tile map; false when they cannot be read. */
static bool
read_pixels(struct sf_xorg_window *xw, const BoxRec *ext,
	    struct sf_pixels *px)
{
	WindowPtr win = xw->window;
	ScreenPtr screen = win->drawable.pScreen;
	int w = win->drawable.width, h = win->drawable.height;

	if (win->drawable.bitsPerPixel != 32 || (size_t)w * h > MAX_COPY_PIXELS)
		return false;
	size_t size = (size_t)w * h * 4;
	if (size != xw->pixels_size) {
		uint8_t *p = realloc(xw->pixels, size);
		if (!p)
			return false;
		xw->pixels = p;
		xw->pixels_size = size;
		sf_tile_map_reset(&xw->tiles);
	}
	int x0 = ext->x1 / SF_TILE_SIZE * SF_TILE_SIZE;
	int y0 = ext->y1 / SF_TILE_SIZE * SF_TILE_SIZE;
	int x1 = min(w, (ext->x2 + SF_TILE_SIZE - 1) / SF_TILE_SIZE *
				SF_TILE_SIZE);
	int y1 = min(h, (ext->y2 + SF_TILE_SIZE - 1) / SF_TILE_SIZE *
				SF_TILE_SIZE);
	/* Row by row: GetImage pads rows its own way, the map wants the
	 * window's stride. */
	for (int y = y0; y < y1; y++)
		screen->GetImage(&win->drawable, x0, y, x1 - x0, 1, ZPixmap,
				 ~0UL,
				 (char *)xw->pixels + ((size_t)y * w + x0) * 4);
	*px = (struct sf_pixels){
		.data = xw->pixels,
		.width = w,
		.height = h,
		.stride = w * 4,
		.bytes_per_pixel = 4,
	};
	return true;
}

static void
commit_window(struct sf_xorg_window *xw, sf_time_t now)
{
	WindowPtr win = xw->window;
	int n = RegionNumRects(&xw->pending);
	BoxPtr rects = RegionRects(&xw->pending);
	struct sf_box boxes[MAX_BOXES], changed[MAX_BOXES];
	uint32_t n_boxes = 0;
	/* The damage layer reports in the window's coordinates (its
	 * border negative). */
	int w = win->drawable.width, h = win->drawable.height;
	BoxRec ext = { w, h, 0, 0 };

	for (int i = 0; i < n; i++) {
		BoxRec b = {
			.x1 = max(rects[i].x1, 0),
			.y1 = max(rects[i].y1, 0),
			.x2 = min(rects[i].x2, w),
			.y2 = min(rects[i].y2, h),
		};
		if (b.x2 <= b.x1 || b.y2 <= b.y1)
			continue;
		ext.x1 = min(ext.x1, b.x1);
		ext.y1 = min(ext.y1, b.y1);
		ext.x2 = max(ext.x2, b.x2);
		ext.y2 = max(ext.y2, b.y2);
		if (n_boxes < MAX_BOXES)
			boxes[n_boxes] = (struct sf_box){ b.x1, b.y1, b.x2,
							  b.y2 };
		n_boxes++;
	}
	RegionEmpty(&xw->pending);
	if (n_boxes > MAX_BOXES) {
		boxes[0] = (struct sf_box){ ext.x1, ext.y1, ext.x2, ext.y2 };
		n_boxes = 1;
	}

	/* Hints are read when they change (property_changed); the window
	 * may have moved, which X reports to nobody but its client. */
	if (!placement_current(xw))
		update_placement(xw, now);

	struct sf_commit_desc commit = {
		.time = now,
		.boxes = boxes,
		.n_boxes = n_boxes,
	};
	struct sf_pixels px;
	int64_t aligned = (int64_t)(ext.x2 - ext.x1 + 2 * SF_TILE_SIZE) *
			  (ext.y2 - ext.y1 + 2 * SF_TILE_SIZE);
	if (n_boxes && aligned <= sf_surface_pixel_read_limit(xw->core, now) &&
	    sf_surface_should_read_pixels(xw->core) &&
	    read_pixels(xw, &ext, &px)) {
		struct sf_tile_change change = {
			.boxes = changed,
			.max_boxes = MAX_BOXES,
		};
		if (sf_tile_map_refine(&xw->tiles, &px, boxes, n_boxes,
				       &change)) {
			if (change.n_boxes == 0) {
				commit.unchanged = true;
			} else {
				commit.boxes = changed;
				commit.n_boxes = change.n_boxes;
				commit.has_hash = true;
				commit.hash = change.hash;
				commit.ink = change.ink;
			}
		}
	} else if (n_boxes) {
		/* Unknown content: what the map remembers may be stale. */
		sf_tile_map_reset(&xw->tiles);
	}

	uint64_t held_before = sf_surface_get_stats(xw->core)->held;
	sf_surface_commit(xw->core, &commit);
	xw->held = sf_surface_get_stats(xw->core)->held > held_before;
	/* What drew a held frame is learnt as the client's blinks or ticks
	 * only if it drew little: a frame that scrolled a terminal, held
	 * too while the class is blinking, must never be taken for a blink,
	 * or the same line printed again would wait. */
	enum sf_class cls = sf_surface_get_classification(xw->core)->cls;
	int64_t area = n_boxes ? (int64_t)(ext.x2 - ext.x1) * (ext.y2 - ext.y1) :
				 0;
	sf_xorg_drawer_end_frame(xw, xw->held &&
				 area <= (cls == SF_CLASS_TICKING ?
					  MAX_TICK_AREA : MAX_BLINK_AREA));
	xw->damage_events++;
	if (xw->held)
		xw->held_frames++;
	if (xw->output) {
		xw->output->damage_events++;
		if (xw->held)
			xw->output->held++;
	}
}

/* The core keeps the windows a held client draws in their class: their
 * next commits come at our release, not on their own cadence. */
static void
mark_client_windows(struct sf_xorg *sx, ClientPtr client, bool held)
{
	struct sf_xorg_window *xw;

	xorg_list_for_each_entry(xw, &sx->windows, link)
		if (xw->drawer == client)
			sf_surface_set_held(xw->core, held);
}

bool
sf_xorg_client_is_held(struct sf_xorg *sx, ClientPtr client)
{
	struct sf_xorg_hold *hold;

	xorg_list_for_each_entry(hold, &sx->holds, link)
		if (hold->client == client)
			return true;
	return false;
}

static void
hold_client(struct sf_xorg *sx, struct sf_xorg_window *xw,
	    struct sf_xorg_output *xo, sf_time_t now)
{
	ClientPtr client = xw->drawer;

	/* Not with requests read and not yet run: they are no blink the
	 * module has seen, and it could not see them wait. */
	if (!client || client->clientGone ||
	    sf_xorg_client_is_held(sx, client) ||
	    !xorg_list_is_empty(&client->ready))
		return;
	struct sf_xorg_drawer *drawer = sf_xorg_drawer_find(sx, client, false);
	if (!drawer)
		return;		/* none of its blinks or ticks known */
	struct sf_xorg_hold *hold = calloc(1, sizeof(*hold));
	if (!hold)
		return;		/* not holding is always safe */
	hold->client = client;
	hold->output = xo;
	hold->since = now;
	hold->fd = -1;
	hold->drawer = drawer;
	hold->match = sf_surface_get_classification(xw->core)->cls ==
				      SF_CLASS_TICKING ?
			      SF_HOLD_MATCH_SHAPE : SF_HOLD_MATCH_EXACT;
	if (!sf_xorg_hold_watch(sx, hold) ||
	    !sf_xorg_hold_still_only_blinks(sx, hold)) {
		sf_xorg_hold_unwatch(sx, hold);
		free(hold);
		return;
	}
	IgnoreClient(client);
	xorg_list_append(&hold->link, &sx->holds);
	mark_client_windows(sx, client, true);
	sf_xorg_log(SF_LOG_DEBUG, "client %d held: it drew only blinks or "
		    "ticks while the user is idle", client->index);
}

/* Why a release_where: a deadline's lets the windows be held again once
 * painted; a paint leaves an output whose deadline waits for a caret. */
enum release_kind {
	RELEASE_NOW = 0,
	RELEASE_DEADLINE,
	RELEASE_PAINTED,
};

static void
release_where(struct sf_xorg *sx, struct sf_xorg_output *xo,
	      ClientPtr client, const char *why, enum release_kind kind)
{
	struct sf_xorg_hold *hold, *next;
	struct sf_xorg_window *xw;
	bool deadline = kind == RELEASE_DEADLINE;

	xorg_list_for_each_entry_safe(hold, next, &sx->holds, link) {
		if ((xo && hold->output != xo) ||
		    (client && hold->client != client))
			continue;
		if (kind == RELEASE_PAINTED && hold->output &&
		    hold->output->deadline_waits)
			continue;
		xorg_list_del(&hold->link);
		sf_xorg_hold_unwatch(sx, hold);
		mark_client_windows(sx, hold->client, false);
		hold->drawer->backlog = true;
		if (deadline)
			xorg_list_for_each_entry(xw, &sx->windows, link)
				if (xw->drawer == hold->client)
					xw->hold_after_paint = true;
		if (!hold->client->clientGone)
			AttendClient(hold->client);
		sx->releases++;
		sf_xorg_log(SF_LOG_DEBUG, "client %d released after %.3f s (%s)",
			    hold->client->index,
			    (double)(sf_xorg_now() - hold->since) /
				    SF_NSEC_PER_SEC, why);
		free(hold);
	}
}

void
sf_xorg_release(struct sf_xorg *sx, struct sf_xorg_output *xo,
		const char *why)
{
	struct sf_xorg_output *o;

	xorg_list_for_each_entry(o, &sx->outputs, link)
		if (!xo || o == xo)
			o->deadline_waits = false;
	release_where(sx, xo, NULL, why, RELEASE_NOW);
}

/* The phase a blinker held on `xo` leaves on screen if let go now:
 * HIDDEN if any would hide its caret (X shows it until its next blink). */
static enum sf_blink_phase
held_caret_phase(struct sf_xorg *sx, struct sf_xorg_output *xo)
{
	struct sf_xorg_hold *hold;

	xorg_list_for_each_entry(hold, &sx->holds, link)
		if (hold->output == xo && hold->match == SF_HOLD_MATCH_EXACT &&
		    sf_xorg_hold_waiting_phase(hold) == SF_BLINK_PHASE_HIDDEN)
			return SF_BLINK_PHASE_HIDDEN;
	return SF_BLINK_PHASE_UNKNOWN;
}

/*
 * At the core's deadline every client held on the output is let go, and
 * draws what waited, in one frame.  When a blinker's waiting requests end
 * with its caret hidden, the release waits until it draws the caret again
 * (hold.c watches it write) or its grace ends (sf_hold_deadline_waits);
 * the output's other clients wait with it, to draw in the same frame.
 */
void
sf_xorg_release_at_deadline(struct sf_xorg *sx, struct sf_xorg_output *xo)
{
	sf_time_t now = sf_xorg_now();
	bool waited = xo->deadline_waits;

	if (!waited)
		xo->deadline_since = now;
	if (sf_hold_deadline_waits(held_caret_phase(sx, xo),
				   xo->deadline_since, now)) {
		xo->deadline_waits = true;
		return;
	}
	xo->deadline_waits = false;
	release_where(sx, xo, NULL,
		      !waited ? "deadline or input" :
		      now >= xo->deadline_since + SF_HOLD_DEADLINE_CARET_GRACE ?
			      "deadline, no caret drawn since" :
			      "deadline, its caret drawn",
		      RELEASE_DEADLINE);
}

void
sf_xorg_deadline_check(struct sf_xorg *sx, struct sf_xorg_output *xo)
{
	if (xo->deadline_waits)
		sf_xorg_release_at_deadline(sx, xo);
}

void
sf_xorg_release_client(struct sf_xorg *sx, ClientPtr client, const char *why)
{
	if (client)
		release_where(sx, NULL, client, why, RELEASE_NOW);
}

void
sf_xorg_forget_client(struct sf_xorg *sx, ClientPtr client)
{
	struct sf_xorg_hold *hold, *next;

	sf_xorg_drawer_forget(sx, client);
	xorg_list_for_each_entry_safe(hold, next, &sx->holds, link) {
		if (hold->client != client)
			continue;
		xorg_list_del(&hold->link);
		sf_xorg_hold_unwatch(sx, hold);
		sf_xorg_log(SF_LOG_INFO, "client %d gone while held: its hold "
			    "is dropped", client->index);
		free(hold);
	}
}

/* Whether the client drew anything this cycle that was not held. */
static bool
client_drew_unheld(struct sf_xorg *sx, ClientPtr client)
{
	struct sf_xorg_window *xw;

	xorg_list_for_each_entry(xw, &sx->windows, link)
		if (xw->drawer == client && xw->committed_now && !xw->held)
			return true;
	return false;
}

/*
 * A client let go at its deadline draws what waited, then its next blink
 * on its own cadence: held again only after that one, it would show one
 * more frame per deadline (two when that blink hid the caret).  So a
 * window whose drawer a deadline let go, once what waited is drawn and
 * painted, has its drawer held again at once if the core would hold it
 * now: the user still idle, and for a blink, the caret shown.
 */
static void
hold_again_after_paint(struct sf_xorg *sx, struct sf_xorg_output *xo,
		       sf_time_t now)
{
	struct sf_xorg_window *xw;

	xorg_list_for_each_entry(xw, &sx->windows, link) {
		if (xw->output != xo || !xw->committed_now ||
		    !xw->hold_after_paint)
			continue;
		/* Its requests not all run yet: the next frame says. */
		if (xw->drawer && !xw->drawer->clientGone &&
		    !xorg_list_is_empty(&xw->drawer->ready))
			continue;
		xw->hold_after_paint = false;
		if (xw->drawer && sf_surface_may_hold_client(xw->core, now))
			hold_client(sx, xw, xo, now);
	}
}

void
sf_xorg_window_cycle(struct sf_xorg *sx, WindowPtr focus, sf_time_t now,
		     void *timeout)
{
	struct sf_xorg_window *xw;
	struct sf_xorg_output *xo;
	sf_time_t deadline;

	xorg_list_for_each_entry(xw, &sx->windows, link) {
		xw->committed_now = false;
		xw->held = false;
		sf_surface_set_focused(xw->core, xw->window == focus, now);
		if (RegionNotEmpty(&xw->pending) && commit_ready(xw) <= now) {
			commit_window(xw, now);
			xw->committed_now = true;
			if (xw->output)
				xw->output->committed_now = true;
		}
		/* What came in with this dispatch, kept apart from the
		 * frame just reported. */
		take_fresh_damage(xw, now);
	}
	update_damage_times(sx);

	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		if (!xo->committed_now && !xo->repaint_due)
			continue;
		/* Powered off, it will not paint to let a held client go:
		 * nobody is held on it. */
		if (!sf_output_is_powered(xo->core)) {
			xo->committed_now = false;
			xo->repaint_due = false;
			sf_output_repaint(xo->core, 0, now, &deadline);
			sf_xorg_release(sx, xo, "output powered off");
			continue;
		}
		xo->committed_now = false;
		xo->repaint_due = false;
		enum sf_repaint_decision d =
			sf_output_repaint(xo->core, 0, now, &deadline);
		if (d != SF_REPAINT_DEFER) {
			/* The output shows everything again. */
			release_where(sx, xo, NULL, "painted",
				      RELEASE_PAINTED);
			hold_again_after_paint(sx, xo, now);
			continue;
		}
		xorg_list_for_each_entry(xw, &sx->windows, link) {
			if (xw->output != xo || !xw->committed_now ||
			    !xw->held || !xw->drawer ||
			    client_drew_unheld(sx, xw->drawer) ||
			    !sf_surface_may_hold_client(xw->core, now))
				continue;
			hold_client(sx, xw, xo, now);
		}
	}
	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		if (!xo->deadline_waits)
			continue;
		sf_xorg_deadline_check(sx, xo);
		if (xo->deadline_waits)
			sf_xorg_wake_up_in(timeout, xo->deadline_since +
					   SF_HOLD_DEADLINE_CARET_GRACE - now);
	}
	if (sx->damage_pending)
		sf_xorg_wake_up_in(timeout, sx->damage_due > now ?
						    sx->damage_due - now : 0);
	sf_xorg_schedule_dispatch(sx);
}
