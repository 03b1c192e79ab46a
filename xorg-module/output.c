/* SPDX-License-Identifier: MIT */
/*
 * Outputs: every RandR output driven by a CRTC becomes an sf_output of
 * the core, with the modes of the current resolution.  Mode changes go
 * through RandR's server API (RRCrtcSet), DPMS through the xf86 CRTC
 * layer (per output) or the screen's DPMS hook; the user's mode and DPMS
 * level are put back when the output goes, at reset and at exit.
 *
 * An output stillframe powers off (UnneededOutputs, stillframectl output
 * NAME off) has its CRTC disabled through RandR, as xrandr --off would,
 * but the screen keeps its size, so no window moves; powering on sets
 * the CRTC back as it was.  RandR is polled from the block handler for
 * connectors plugged in and for outputs clients lit or switched off.
 *
 * A mode set by anyone else (the user's xrandr, a desktop's display
 * settings, the driver) becomes the output's own: its modes are scanned
 * again at that resolution, and that mode is what pause, exit and an
 * active user get back.  RandR's CRTC-set hook is wrapped so that a
 * client's change is followed before the server handles the next
 * request or input event, which would otherwise act on the old modes;
 * the poll catches what the driver sets on its own (RRCrtcNotify).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xorg-server.h>
#include <xf86.h>
#include <xf86Crtc.h>
#include <X11/Xatom.h>
#include <X11/extensions/dpmsconst.h>

#include "sf-output-policy.h"
#include "sf-xorg.h"

/* Each screen's RandR CRTC-set hook as it was before ours; NULL while
 * not wrapped. */
static RRCrtcSetProcPtr crtc_set_wrapped[MAXSCREENS];
/* Inside one of stillframe's own RRCrtcSet calls: not someone else's. */
static bool setting_crtc;


static struct sf_xorg_connector *
connector_get(struct sf_xorg *sx, RROutputPtr o)
{
	struct sf_xorg_connector *c;

	xorg_list_for_each_entry(c, &sx->connectors, link)
		if (c->output == o)
			return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->output = o;
	c->connection = o->connection;
	xorg_list_append(&c->link, &sx->connectors);
	return c;
}

struct sf_xorg_output *
sf_xorg_output_find(struct sf_xorg *sx, RROutputPtr o)
{
	struct sf_xorg_output *xo;

	xorg_list_for_each_entry(xo, &sx->outputs, link)
		if (xo->rr_output == o)
			return xo;
	return NULL;
}

/* RandR 1.3's ConnectorType property, when the driver sets it, says
 * what the name may not ("DFP-0", "DUMMY1"): "Panel" is built in, any
 * other known type a connector for a monitor. */
static enum sf_output_kind
output_kind(RROutputPtr o)
{
	static const char property[] = "ConnectorType";
	Atom name = MakeAtom(property, sizeof(property) - 1, FALSE);
	RRPropertyValuePtr v = name != None ?
		RRGetOutputProperty(o, name, FALSE) : NULL;

	if (v && v->type == XA_ATOM && v->format == 32 && v->size == 1) {
		Atom type_atom;
		memcpy(&type_atom, v->data, sizeof(type_atom));
		const char *type = NameForAtom(type_atom);
		if (type && strcmp(type, "Panel") == 0)
			return SF_OUTPUT_KIND_INTERNAL;
		if (type && strcmp(type, "unknown") != 0)
			return SF_OUTPUT_KIND_EXTERNAL;
	}
	return sf_output_kind_from_name(o->name);
}

static void
output_add(struct sf_xorg *sx, ScreenPtr screen, RROutputPtr o)
{
	struct sf_mode *modes = NULL;
	struct sf_xorg_output *xo = calloc(1, sizeof(*xo));

	/* The next poll looks at every output again, and tries again if
	 * this one fails. */
	sx->randr_seen_valid = false;
	if (!xo)
		goto oom;
	xo->sx = sx;
	xo->screen = screen;
	xo->rr_output = o;
	xo->rr_crtc = o->crtc;
	enum sf_output_kind kind = output_kind(o);
	bool internal = kind == SF_OUTPUT_KIND_INTERNAL;
	/* RandR sets any mode of the screen's size. */
	xo->manage_refresh = sf_output_policy_managed(sx->core, o->name,
						      internal, true, NULL);
	if (!sf_xorg_output_build_modes(xo, &modes))
		goto oom;
	xo->core = sf_output_create(sx->core, o->name, modes, xo->n_modes,
				    xo->user_mode,
				    sf_support_now());
	free(modes);
	modes = NULL;
	if (!xo->core)
		goto oom;
	sf_output_set_user_data(xo->core, xo);
	xo->last_refresh_mhz = sf_xorg_mode_refresh_mhz(&xo->modes[0]);
	xorg_list_append(&xo->link, &sx->outputs);
	sf_support_output_added(sx->platform, o->name, xo->manage_refresh);
	sf_xorg_log(SF_LOG_INFO, "output %s (screen %d, %s): %zu mode%s at "
		    "%ux%u%s", o->name, screen->myNum,
		    sf_output_kind_name(kind), xo->n_modes,
		    xo->n_modes == 1 ? "" : "s", xo->modes[0].width,
		    xo->modes[0].height,
		    xo->manage_refresh ? ", refresh managed" :
		    internal ? "" : " (not internal: refresh left alone; "
				    "see Option \"Outputs\")");
	/* Tied up: the power policy may act on it now. */
	sf_output_set_kind(xo->core, kind, sf_support_now());
	struct sf_xorg_connector *c = connector_get(sx, o);
	if (c && c->plugged) {
		c->plugged = false;
		sf_output_notify_hotplug(xo->core, sf_support_now());
	}
	return;
oom:
	sf_xorg_log(SF_LOG_ERROR, "output %s: out of memory; not managed",
		    o->name);
	if (xo) {
		free(xo->modes);
		free(xo->mode_names);
	}
	free(modes);
	free(xo);
}

static void output_destroy(struct sf_xorg_output *xo);

/*
 * The CRTC shows a mode the core did not set: someone else's.  It
 * becomes the output's own (restored on pause and exit, given back on
 * input), with the modes at its resolution, and the core goes on from
 * there.  Returns false when the output had to go instead (no memory
 * for the new modes): the next poll adds it again from scratch.
 */
static bool
output_follow_mode(struct sf_xorg_output *xo)
{
	struct sf_xorg *sx = xo->sx;
	RRCrtcPtr crtc = xo->rr_crtc;
	size_t current = sf_output_get_mode(xo->core);

	/* Switched off or moved by a client: the poll lets it go. */
	if (xo->dying || xo->powered_off || !crtc->mode ||
	    xo->rr_output->crtc != crtc)
		return true;
	if (current < xo->n_modes &&
	    sf_xorg_mode_same_timings(&crtc->mode->mode, &xo->modes[current]))
		return true;
	xRRModeInfo *old_modes = xo->modes;
	char (*old_names)[32] = xo->mode_names;
	size_t old_n = xo->n_modes;
	struct sf_mode *modes = NULL;

	sf_xorg_log(SF_LOG_INFO, "output %s: %.*s set by someone else; "
		    "stillframe follows it", xo->rr_output->name,
		    (int)crtc->mode->mode.nameLength, crtc->mode->name);
	sf_xorg_output_drop_synthesized(xo);
	bool ok = sf_xorg_output_build_modes(xo, &modes) &&
		  sf_output_set_modes(xo->core, modes, xo->n_modes,
				      xo->user_mode, sf_support_now());
	free(modes);
	if (!ok) {
		sf_xorg_log(SF_LOG_ERROR, "output %s: out of memory for its "
			    "new modes; managed again from scratch",
			    xo->rr_output->name);
		free(xo->modes);
		free(xo->mode_names);
		xo->modes = old_modes;
		xo->mode_names = old_names;
		xo->n_modes = old_n;
		sf_xorg_output_drop_synthesized(xo);
		xo->dying = true;	/* nothing of the old to put back */
		output_destroy(xo);
		return false;
	}
	free(old_modes);
	free(old_names);
	sx->randr_seen_valid = false;
	/* Its size may have changed, and the core wants to choose again
	 * (at once: sf_core_next_deadline says so). */
	sf_xorg_window_place_all(sx);
	sf_xorg_want_cycle(sx);
	sf_xorg_schedule_dispatch(sx);
	return true;
}

/*
 * RandR's CRTC-set hook (RRCrtcSet: xrandr, a desktop's settings, a
 * RandR 1.0 SetScreenConfig) of every screen, around the driver's.  A
 * mode someone else set is followed here, not at the next poll: the
 * server may handle input or the core's timer first, and would switch
 * the output back to what the core remembered.
 */
static Bool
crtc_handle_set(ScreenPtr screen, RRCrtcPtr crtc, RRModePtr mode, int x,
		int y, Rotation rotation, int n_outputs, RROutputPtr *outputs)
{
	struct sf_xorg *sx = sf_xorg_instance;
	struct sf_xorg_output *xo, *next;
	Bool ok = crtc_set_wrapped[screen->myNum](screen, crtc, mode, x, y,
						  rotation, n_outputs,
						  outputs);

	if (!ok || setting_crtc || !sx || sx->ending)
		return ok;
	xorg_list_for_each_entry_safe(xo, next, &sx->outputs, link)
		if (xo->rr_crtc == crtc)
			output_follow_mode(xo);
	return ok;
}

static void
crtc_set_wrap(ScreenPtr screen, rrScrPrivPtr rr)
{
	if (!rr->rrCrtcSet || rr->rrCrtcSet == crtc_handle_set ||
	    screen->myNum < 0 || screen->myNum >= MAXSCREENS)
		return;
	crtc_set_wrapped[screen->myNum] = rr->rrCrtcSet;
	rr->rrCrtcSet = crtc_handle_set;
}

/* Put back only if still ours; otherwise ours stays in the chain, and
 * passes calls on. */
static void
crtc_set_unwrap(ScreenPtr screen)
{
	if (screen->myNum < 0 || screen->myNum >= MAXSCREENS ||
	    !crtc_set_wrapped[screen->myNum])
		return;
	rrScrPrivPtr rr = rrGetScrPriv(screen);
	if (!rr || rr->rrCrtcSet != crtc_handle_set)
		return;
	rr->rrCrtcSet = crtc_set_wrapped[screen->myNum];
	crtc_set_wrapped[screen->myNum] = NULL;
}

void
sf_xorg_output_scan(struct sf_xorg *sx)
{
	for (int s = 0; s < screenInfo.numScreens; s++) {
		ScreenPtr screen = screenInfo.screens[s];
		rrScrPrivPtr rr = rrGetScrPriv(screen);

		if (!rr) {
			sf_xorg_log(SF_LOG_INFO, "screen %d has no RandR: "
				    "nothing to manage on it", s);
			continue;
		}
		crtc_set_wrap(screen, rr);
		/* Connection states as of now, not as of the driver's
		 * first probe: outputs lit by the initial configuration may
		 * only have become connected since. */
		if (!RRGetInfo(screen, TRUE))
			sf_xorg_log(SF_LOG_INFO, "screen %d: RandR could not "
				    "probe its outputs; their connection "
				    "states may be stale", s);
		for (int i = 0; i < rr->numOutputs; i++) {
			RROutputPtr o = rr->outputs[i];
			connector_get(sx, o);
			if (o->crtc && o->crtc->mode)
				output_add(sx, screen, o);
		}
	}
	sx->outputs_scanned = true;
}

static void
output_destroy(struct sf_xorg_output *xo)
{
	char name[32];

	snprintf(name, sizeof(name), "%s", sf_output_get_name(xo->core));
	xo->sx->randr_seen_valid = false;
	sf_xorg_release(xo->sx, xo, "output gone");
	sf_xorg_window_forget_output(xo->sx, xo);
	/* Puts the user's mode and DPMS back through the hooks below. */
	sf_output_destroy(xo->core);
	sf_platform_forget_output(xo->sx->platform, name);
	if (!xo->dying)
		sf_xorg_output_drop_synthesized(xo);
	xorg_list_del(&xo->link);
	free(xo->modes);
	free(xo->mode_names);
	free(xo->off_outputs);
	free(xo);
}

void
sf_xorg_output_destroy_all(struct sf_xorg *sx, ScreenPtr screen)
{
	struct sf_xorg_output *xo, *next;
	struct sf_xorg_connector *c, *cnext;

	xorg_list_for_each_entry_safe(xo, next, &sx->outputs, link)
		if (!screen || xo->screen == screen)
			output_destroy(xo);
	/* Before RandR's CloseScreen frees its screen private: the
	 * generation's end, or this screen's CloseScreen, which wraps
	 * RandR's. */
	for (int s = 0; s < screenInfo.numScreens; s++)
		if (!screen || screenInfo.screens[s] == screen)
			crtc_set_unwrap(screenInfo.screens[s]);
	/* RandR's outputs go with their screen. */
	xorg_list_for_each_entry_safe(c, cnext, &sx->connectors, link) {
		if (screen && c->output->pScreen != screen)
			continue;
		xorg_list_del(&c->link);
		free(c);
	}
	if (!screen) {
		free(sx->randr_seen);
		sx->randr_seen = NULL;
		sx->n_randr_seen = sx->randr_seen_cap = 0;
	}
}

static bool
connector_changed(struct sf_xorg_connector *c)
{
	CARD8 now = c->output->connection;

	if (now == c->connection)
		return false;
	if (c->connection == RR_Disconnected && now == RR_Connected) {
		c->plugged = true;
		sf_xorg_log(SF_LOG_INFO, "output %s: plugged in",
			    c->output->name);
	} else if (now == RR_Disconnected) {
		c->plugged = false;
		sf_xorg_log(SF_LOG_INFO, "output %s: unplugged",
			    c->output->name);
	}
	c->connection = now;
	return true;
}

/*
 * The block handler runs after every batch of requests, hundreds of
 * times a second under a video, and RandR's outputs almost never change.
 * Going through them one by one, each looked up in two lists, was two
 * thirds of the instructions the module added to the server's under a
 * video (the dummy driver has 16 outputs).
 * So a poll first compares each with what the last full poll saw, and
 * goes through them only when one differs.
 */
static bool
randr_unchanged(const struct sf_xorg *sx)
{
	size_t k = 0;

	if (!sx->randr_seen_valid)
		return false;
	for (int s = 0; s < screenInfo.numScreens; s++) {
		rrScrPrivPtr rr = rrGetScrPriv(screenInfo.screens[s]);

		for (int i = 0; rr && i < rr->numOutputs; i++, k++) {
			RROutputPtr o = rr->outputs[i];

			if (k >= sx->n_randr_seen)
				return false;
			const struct sf_xorg_randr_seen *seen =
				&sx->randr_seen[k];
			if (seen->output != o ||
			    seen->connection != o->connection ||
			    seen->crtc != o->crtc ||
			    seen->mode != (o->crtc ? o->crtc->mode : NULL) ||
			    seen->lit != (o->crtc && o->crtc->mode))
				return false;
		}
	}
	return k == sx->n_randr_seen;
}

static void
randr_remember(struct sf_xorg *sx)
{
	size_t n = 0;

	for (int s = 0; s < screenInfo.numScreens; s++) {
		rrScrPrivPtr rr = rrGetScrPriv(screenInfo.screens[s]);
		if (rr)
			n += (size_t)rr->numOutputs;
	}
	if (n > sx->randr_seen_cap) {
		struct sf_xorg_randr_seen *seen =
			realloc(sx->randr_seen, n * sizeof(*seen));
		if (!seen) {
			/* Every poll goes through every output, as is safe. */
			sx->randr_seen_valid = false;
			return;
		}
		sx->randr_seen = seen;
		sx->randr_seen_cap = n;
	}
	size_t k = 0;
	for (int s = 0; s < screenInfo.numScreens; s++) {
		rrScrPrivPtr rr = rrGetScrPriv(screenInfo.screens[s]);

		for (int i = 0; rr && i < rr->numOutputs; i++) {
			RROutputPtr o = rr->outputs[i];
			sx->randr_seen[k++] = (struct sf_xorg_randr_seen){
				.output = o,
				.crtc = o->crtc,
				.mode = o->crtc ? o->crtc->mode : NULL,
				.connection = o->connection,
				.lit = o->crtc && o->crtc->mode,
			};
		}
	}
	sx->n_randr_seen = n;
}

void
sf_xorg_output_poll(struct sf_xorg *sx, sf_time_t now)
{
	bool layout_changed = false;

	sx->randr_polled = now;
	/* A client may have moved a CRTC (not followed here). */
	sx->layout_serial++;
	if (randr_unchanged(sx))
		return;
	/* Cleared again by whatever below adds, drops or powers one of
	 * ours: then the next poll goes through every output once more. */
	sx->randr_seen_valid = true;
	for (int s = 0; s < screenInfo.numScreens; s++) {
		ScreenPtr screen = screenInfo.screens[s];
		rrScrPrivPtr rr = rrGetScrPriv(screen);

		for (int i = 0; rr && i < rr->numOutputs; i++) {
			RROutputPtr o = rr->outputs[i];
			struct sf_xorg_connector *c = connector_get(sx, o);
			struct sf_xorg_output *xo = sf_xorg_output_find(sx, o);
			bool lit = o->crtc && o->crtc->mode;

			if (c)
				connector_changed(c);
			else
				sx->randr_seen_valid = false;
			if (xo && xo->powered_off && lit) {
				/* A client (xrandr --auto, the desktop) lit
				 * it again: the user wants it. */
				sf_xorg_log(SF_LOG_INFO, "output %s: lit by a "
					    "client while powered off; "
					    "stillframe keeps it on", o->name);
				xo->powered_off = false;
				xo->rr_crtc = o->crtc;
				sx->randr_seen_valid = false;
				sf_output_request_power(xo->core,
							SF_OUTPUT_POWER_ON,
							sf_support_now());
				layout_changed = true;
			} else if (xo && !xo->powered_off &&
				   (!lit || o->crtc != xo->rr_crtc)) {
				sf_xorg_log(SF_LOG_INFO, "output %s: %s by a "
					    "client", o->name, lit ?
					    "moved to another CRTC" :
					    "switched off");
				/* Nothing to put back: the client set it. */
				xo->dying = true;
				output_destroy(xo);
				xo = NULL;
				layout_changed = true;
			}
			/* The driver's own mode (a client's was followed
			 * as it was set, or just above, lit again). */
			if (xo && lit && !output_follow_mode(xo)) {
				xo = NULL;
				layout_changed = true;
			}
			if (!xo && lit) {
				output_add(sx, screen, o);
				layout_changed = true;
			} else if (xo && c && c->plugged) {
				c->plugged = false;
				sf_output_notify_hotplug(xo->core,
							 sf_support_now());
			}
		}
	}
	if (layout_changed)
		sf_xorg_window_place_all(sx);
	if (sx->randr_seen_valid)
		randr_remember(sx);
}

struct sf_xorg_output *
sf_xorg_output_at(struct sf_xorg *sx, ScreenPtr screen, const BoxRec *box,
		  double *fraction)
{
	struct sf_xorg_output *xo, *best = NULL;
	int64_t best_area = 0;
	int64_t area = (int64_t)(box->x2 - box->x1) * (box->y2 - box->y1);

	xorg_list_for_each_entry(xo, &sx->outputs, link) {
		RRCrtcPtr c = xo->rr_crtc;
		if (xo->screen != screen || !c->mode)
			continue;
		int x1 = max(box->x1, c->x), y1 = max(box->y1, c->y);
		int x2 = min(box->x2, c->x + (int)c->mode->mode.width);
		int y2 = min(box->y2, c->y + (int)c->mode->mode.height);
		int64_t a = x2 > x1 && y2 > y1 ?
				    (int64_t)(x2 - x1) * (y2 - y1) : 0;
		if (a > best_area) {
			best_area = a;
			best = xo;
		}
	}
	*fraction = area > 0 ? (double)best_area / (double)area : 0.0;
	return best;
}

/* --- the core's requests --- */

static struct sf_xorg_output *
from_core(struct sf_output *o)
{
	return sf_output_get_user_data(o);
}

static bool
core_set_mode(void *data, struct sf_output *o, size_t index)
{
	struct sf_xorg_output *xo = from_core(o);
	RRCrtcPtr crtc = xo->rr_crtc;
	(void)data;

	if (xo->dying)
		return true;
	if (index >= xo->n_modes)
		return false;
	/* A client switched it off or moved it since the last poll, which
	 * will let the output go: a mode now would light it again. */
	if (!crtc->mode || xo->rr_output->crtc != crtc)
		return true;
	if (sf_xorg_mode_same_timings(&crtc->mode->mode, &xo->modes[index]))
		return true;
	/* The mode by value: RRModeGet finds RandR's own object for it
	 * (or makes one) and takes a reference we drop after the set. */
	xRRModeInfo info = xo->modes[index];
	info.nameLength = (CARD16)strlen(xo->mode_names[index]);
	RRModePtr mode = RRModeGet(&info, xo->mode_names[index]);
	if (!mode)
		return false;
	setting_crtc = true;
	Bool ok = RRCrtcSet(crtc, mode, crtc->x, crtc->y, crtc->rotation,
			    crtc->numOutputs, crtc->outputs);
	setting_crtc = false;
	RRModeDestroy(mode);
	if (ok)
		RRTellChanged(xo->screen);
	return ok;
}

static xf86OutputPtr
xf86_output_of(struct sf_xorg_output *xo)
{
	if (xf86CrtcConfigPrivateIndex == -1)
		return NULL;
	ScrnInfoPtr scrn = xf86ScreenToScrn(xo->screen);
	if (!scrn || !scrn->privates ||
	    !scrn->privates[xf86CrtcConfigPrivateIndex].ptr)
		return NULL;
	xf86CrtcConfigPtr config = XF86_CRTC_CONFIG_PTR(scrn);
	for (int i = 0; i < config->num_output; i++)
		if (config->output[i]->randr_output == xo->rr_output)
			return config->output[i];
	return NULL;
}

static bool
core_set_dpms(void *data, struct sf_output *o, enum sf_dpms_level level)
{
	struct sf_xorg_output *xo = from_core(o);
	(void)data;

	if (xo->dying)
		return true;
	int mode = level == SF_DPMS_ON ? DPMSModeOn :
		   level == SF_DPMS_STANDBY ? DPMSModeStandby : DPMSModeOff;
	xf86OutputPtr out = xf86_output_of(xo);
	if (out && out->funcs->dpms && out->crtc) {
		xf86CrtcPtr crtc = out->crtc;
		/* Output first when going down, CRTC first coming up, as the
		 * server's own DPMS path does. */
		if (mode != DPMSModeOn)
			out->funcs->dpms(out, mode);
		if (crtc->enabled && crtc->funcs->dpms)
			crtc->funcs->dpms(crtc, mode);
		if (mode == DPMSModeOn)
			out->funcs->dpms(out, mode);
		xo->dpms = mode;
		return true;
	}
	if (xo->screen->DPMS) {
		xo->screen->DPMS(xo->screen, mode);
		xo->dpms = mode;
		return true;
	}
	if (!xo->dpms_missing_logged)
		sf_xorg_log(SF_LOG_INFO, "output %s: the driver has no DPMS "
			    "control; it is never blanked",
			    xo->rr_output->name);
	xo->dpms_missing_logged = true;
	return false;
}

static bool
core_set_output_power(void *data, struct sf_output *o, bool on)
{
	struct sf_xorg *sx = data;
	struct sf_xorg_output *xo = from_core(o);
	RRCrtcPtr crtc = xo->rr_crtc;
	Bool ok;

	if (xo->dying)
		return true;
	if (!on) {
		if (!crtc->mode)
			return false;
		RROutputPtr *outputs = calloc((size_t)crtc->numOutputs + 1,
					      sizeof(*outputs));
		if (!outputs)
			return false;
		memcpy(outputs, crtc->outputs,
		       (size_t)crtc->numOutputs * sizeof(*outputs));
		xo->off_mode = crtc->mode->mode;
		snprintf(xo->off_mode_name, sizeof(xo->off_mode_name), "%.*s",
			 (int)crtc->mode->mode.nameLength, crtc->mode->name);
		xo->off_x = crtc->x;
		xo->off_y = crtc->y;
		xo->off_rotation = crtc->rotation;
		free(xo->off_outputs);
		xo->off_outputs = outputs;
		xo->off_n_outputs = crtc->numOutputs;
		/* As xrandr --off does, without a new screen size. */
		setting_crtc = true;
		ok = RRCrtcSet(crtc, NULL, crtc->x, crtc->y, crtc->rotation, 0,
			       NULL);
		setting_crtc = false;
		if (!ok)
			return false;
		xo->powered_off = true;
		sx->randr_seen_valid = false;
		sf_xorg_release(sx, xo, "output powered off");
	} else {
		if (!xo->powered_off || crtc->mode) {
			xo->powered_off = false;	/* lit by a client */
			sx->randr_seen_valid = false;
			return true;
		}
		xRRModeInfo info = xo->off_mode;
		info.nameLength = (CARD16)strlen(xo->off_mode_name);
		RRModePtr mode = RRModeGet(&info, xo->off_mode_name);
		if (!mode)
			return false;
		setting_crtc = true;
		ok = RRCrtcSet(crtc, mode, xo->off_x, xo->off_y,
			       xo->off_rotation, xo->off_n_outputs,
			       xo->off_outputs);
		setting_crtc = false;
		RRModeDestroy(mode);
		if (!ok)
			return false;
		xo->powered_off = false;
		sx->randr_seen_valid = false;
		xo->dpms = DPMSModeOn;
	}
	RRTellChanged(xo->screen);
	sf_xorg_window_place_all(sx);
	return true;
}

/* The backlight is the internal panel's; it dims with the outputs
 * stillframe drives (Option "Outputs"). */
static bool
core_set_backlight(void *data, struct sf_output *o, int32_t percent)
{
	struct sf_xorg *sx = data;

	return sf_support_set_backlight(sx->platform, o,
					from_core(o)->manage_refresh, percent);
}

static bool
core_set_reclock(void *data, enum sf_reclock_level level)
{
	struct sf_xorg *sx = data;

	return sf_support_set_reclock(sx->platform, level);
}

static void
core_schedule_repaint(void *data, struct sf_output *o)
{
	struct sf_xorg *sx = data;
	struct sf_xorg_output *xo = from_core(o);

	if (xo->dying)
		return;
	/* X drew the damage already; what the core holds back here is the
	 * clients that drew only blinks and ticks.  Let them go; the next
	 * cycle tells the core the output painted. */
	xo->repaint_due = true;
	sf_xorg_want_cycle(sx);
	sf_xorg_release_at_deadline(sx, xo);
}

static void
core_log(void *data, enum sf_log_level level, const char *message)
{
	(void)data;
	sf_xorg_log(level, "%s", message);
}

const struct sf_core_interface sf_xorg_core_interface = {
	.log = core_log,
	.set_mode = core_set_mode,
	.set_dpms = core_set_dpms,
	.set_backlight = core_set_backlight,
	.set_reclock = core_set_reclock,
	.schedule_repaint = core_schedule_repaint,
	.set_output_power = core_set_output_power,
};
