/* SPDX-License-Identifier: MIT */
/*
 * Windows: every mapped child of the root becomes an sf_surface of the
 * core, attributed to the application window in it (itself, or the one
 * a window manager's frame holds), and placed on the output showing
 * most of it.  The screen's window hooks are wrapped to follow windows
 * as they are mapped, unmapped, destroyed, covered or exposed.  What a
 * window's hints say is read in hint.c, its damage gathered in
 * damage.c, and the client drawing it held in hold.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xorg-server.h>
#include <propertyst.h>

#include "sf-xorg.h"


struct screen_hooks {
	ClipNotifyProcPtr clip_notify;
	RealizeWindowProcPtr realize;
	UnrealizeWindowProcPtr unrealize;
	DestroyWindowProcPtr destroy;
	CloseScreenProcPtr close;
};

static DevPrivateKeyRec screen_key;
static DevPrivateKeyRec window_key;


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
void
sf_xorg_window_resolve_client(struct sf_xorg_window *xw, WindowPtr leaving,
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
sf_xorg_window_toplevel_of(struct sf_xorg *sx, WindowPtr win)
{
	WindowPtr top = root_child_of(win);

	return top ? sf_xorg_window_find(sx, top) : NULL;
}

struct sf_xorg_window *
sf_xorg_window_of_client_window(struct sf_xorg *sx, WindowPtr win)
{
	WindowPtr top = root_child_of(win);
	struct sf_xorg_window *xw = top ? sf_xorg_window_find(sx, top) : NULL;

	return xw && xw->client_window == win ? xw : NULL;
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

void
sf_xorg_window_check_placement(struct sf_xorg_window *xw, sf_time_t now)
{
	if (!placement_current(xw))
		update_placement(xw, now);
}

static void
window_track(struct sf_xorg *sx, WindowPtr win)
{
	ClientPtr owner = clients[CLIENT_ID(win->drawable.id)];
	sf_time_t now = sf_support_now();

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
	if (!sf_xorg_damage_watch(xw))
		goto oom;
	dixSetPrivate(&win->devPrivates, &window_key, xw);
	xorg_list_append(&xw->link, &sx->windows);
	sf_xorg_window_resolve_client(xw, NULL, now);
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
	sf_xorg_damage_unwatch(xw);
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
	sf_time_t now = sf_support_now();

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
		sf_surface_set_output(xw->core, NULL, 0, sf_support_now());
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
			sf_xorg_window_resolve_client(xw, NULL, sf_support_now());
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
		sf_xorg_window_resolve_client(xw, win, sf_support_now());
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
