/* SPDX-License-Identifier: MIT */
/*
 * What a window says of itself: WM_CLASS (its name, and the rules of
 * EssentialApps and BackgroundApps), _STILLFRAME_HINT (content rate,
 * refresh range, priority) and _VARIABLE_REFRESH (a game), read when
 * the window appears and whenever a client changes one of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xorg-server.h>
#include <X11/Xatom.h>
#include <X11/Xproto.h>
#include <propertyst.h>

#include "sf-priority.h"
#include "sf-xorg.h"
#include "request.h"
#include "stillframe-x.h"


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
	xw->rule_priority = sf_priority_for_app(xw->sx->core, instance, cls);
	const char *rule = sf_priority_rule_option(xw->rule_priority, true);
	if (rule)
		sf_xorg_log(SF_LOG_DEBUG, "window 0x%lx (%s): %s by %s",
			    (unsigned long)xw->client_window->drawable.id, label,
			    sf_priority_name(xw->rule_priority), rule);
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
	struct sf_priority_source priority;
	sf_priority_from_x_flags(hint[STILLFRAME_X_HINT_FLAGS], &priority);
	priority.rule = xw->rule_priority;
	sf_surface_set_priority(xw->core, sf_priority_resolve(&priority), now);

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
	struct sf_xorg_window *xw = sf_xorg_window_toplevel_of(sx, win);
	if (!xw)
		return;
	if (property == sx->wm_state_atom)
		sf_xorg_window_resolve_client(xw, NULL, sf_support_now());
	else if (win == xw->client_window)
		sf_xorg_window_update_hints(xw, sf_support_now());
	sf_xorg_want_cycle(sx);
	sf_xorg_schedule_dispatch(sx);
}

/* The wrapper of both requests: ChangeProperty starts as DeleteProperty
 * does (the opcode, a byte, the length, the window, the property), so
 * either is read as an xDeletePropertyReq. */
static int
proc_property(ClientPtr client)
{
	xDeletePropertyReq *req = (xDeletePropertyReq *)client->requestBuffer;
	int rc = req->reqType == X_ChangeProperty ?
			 original_change_property(client) :
			 original_delete_property(client);

	if (rc == Success)
		property_changed(client, req->window, req->property);
	return rc;
}

void
sf_xorg_window_hook_properties(void)
{
	if (ProcVector[X_ChangeProperty] != proc_property) {
		original_change_property = ProcVector[X_ChangeProperty];
		ProcVector[X_ChangeProperty] = proc_property;
	}
	if (ProcVector[X_DeleteProperty] != proc_property) {
		original_delete_property = ProcVector[X_DeleteProperty];
		ProcVector[X_DeleteProperty] = proc_property;
	}
}

void
sf_xorg_window_unhook_properties(void)
{
	if (ProcVector[X_ChangeProperty] == proc_property)
		ProcVector[X_ChangeProperty] = original_change_property;
	if (ProcVector[X_DeleteProperty] == proc_property)
		ProcVector[X_DeleteProperty] = original_delete_property;
}
