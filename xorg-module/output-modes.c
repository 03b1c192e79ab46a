/* SPDX-License-Identifier: MIT */
/*
 * An output's modes: what RandR offers at the current resolution,
 * reported to the core's mode-list builder (sf-modes.h), and the
 * low-refresh copy of the user's mode (the LVDS-downclock technique)
 * when the core's options ask for one.  The modes are kept by value:
 * RandR may replace its mode objects when it probes again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xorg-server.h>
#include <randrstr.h>

#include "sf-modes.h"
#include "sf-xorg.h"

uint32_t
sf_xorg_mode_refresh_mhz(const xRRModeInfo *mode)
{
	uint64_t dots = (uint64_t)mode->hTotal * mode->vTotal;

	if (!dots)
		return 0;
	if (mode->modeFlags & RR_DoubleScan)
		dots *= 2;
	if (mode->modeFlags & RR_Interlace)
		dots /= 2;
	return (uint32_t)(((uint64_t)mode->dotClock * 1000 + dots / 2) / dots);
}

bool
sf_xorg_mode_same_timings(const xRRModeInfo *a, const xRRModeInfo *b)
{
	return a->width == b->width && a->height == b->height &&
	       a->dotClock == b->dotClock && a->hSyncStart == b->hSyncStart &&
	       a->hSyncEnd == b->hSyncEnd && a->hTotal == b->hTotal &&
	       a->hSkew == b->hSkew && a->vSyncStart == b->vSyncStart &&
	       a->vSyncEnd == b->vSyncEnd && a->vTotal == b->vTotal &&
	       a->modeFlags == b->modeFlags;
}

/* The LVDS-downclock technique: the same timings at a lower dot clock,
 * so the panel refreshes less often without a new resolution. */
static RRModePtr
synthesize_low_mode(struct sf_xorg_output *xo, const xRRModeInfo *native,
		    uint32_t refresh_mhz)
{
	uint32_t native_mhz = sf_xorg_mode_refresh_mhz(native);
	char name[32];

	/* Below the native rate: sf_modes_low_copy said so. */
	if (!native_mhz)
		return NULL;
	xRRModeInfo info = *native;
	info.dotClock = (CARD32)((uint64_t)native->dotClock * refresh_mhz /
				 native_mhz);
	info.id = 0;
	snprintf(name, sizeof(name), "%ux%u_sf%u", native->width,
		 native->height, refresh_mhz / 1000);
	info.nameLength = (CARD16)strlen(name);
	RRModePtr mode = RRModeGet(&info, name);
	if (!mode)
		return NULL;
	if (RROutputAddUserMode(xo->rr_output, mode) != Success) {
		RRModeDestroy(mode);
		return NULL;
	}
	return mode;
}

/* Copies a RandR mode by value: RandR may replace its mode objects when
 * it probes again. */
static void
keep_mode(struct sf_xorg_output *xo, size_t i, RRModePtr mode)
{
	xo->modes[i] = mode->mode;
	snprintf(xo->mode_names[i], sizeof(xo->mode_names[i]), "%.*s",
		 (int)mode->mode.nameLength, mode->name);
}

/*
 * The output's modes, as RandR reports them, the user's first (the one
 * put back, and the native one), RandR's duplicates once, and the
 * low-refresh copy when the core's options ask for one; the core's mode
 * list is built from them (sf-modes.h decides which go in, and which
 * are seamless).  Only a mode of the screen's size can be set: the
 * module never resizes the screen, so no window moves.
 */
bool
sf_xorg_output_build_modes(struct sf_xorg_output *xo, struct sf_mode **out)
{
	RROutputPtr o = xo->rr_output;
	RRModePtr current = xo->rr_crtc->mode;
	size_t max = (size_t)o->numModes + (size_t)o->numUserModes + 2;
	RRModePtr *found = calloc(max, sizeof(*found));
	struct sf_mode_report *reports = calloc(max, sizeof(*reports));
	size_t *map = calloc(max, sizeof(*map));
	size_t n = 0, user_mode = 0;
	bool ok = false;

	xo->modes = calloc(max, sizeof(*xo->modes));
	xo->mode_names = calloc(max, sizeof(*xo->mode_names));
	*out = calloc(max, sizeof(**out));
	if (!found || !reports || !map || !xo->modes || !xo->mode_names ||
	    !*out)
		goto done;
	found[n++] = current;
	for (int i = 0; i < o->numModes + o->numUserModes; i++) {
		RRModePtr m = i < o->numModes ? o->modes[i]
					      : o->userModes[i - o->numModes];
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= sf_xorg_mode_same_timings(&found[k]->mode, &m->mode);
		if (!dup)
			found[n++] = m;
	}
	/* Made once the output's own modes are listed: RandR adds it to
	 * them. */
	uint32_t low_mhz;
	RRModePtr made = NULL;
	if (sf_modes_low_copy(xo->sx->core, xo->manage_refresh,
			      sf_xorg_mode_refresh_mhz(&current->mode),
			      &low_mhz))
		made = synthesize_low_mode(xo, &current->mode, low_mhz);
	if (made) {
		/* Any earlier one was dropped, or is the user's mode now
		 * (then none is made below it). */
		xo->synthesized = made;
		found[n++] = made;
	} else if (low_mhz) {
		sf_xorg_log(SF_LOG_INFO, "output %s: no low-refresh copy of "
			    "%.*s made (already at or below %u Hz, or RandR "
			    "refused it)", o->name,
			    (int)min(current->mode.nameLength, 31),
			    current->name,
			    low_mhz / 1000);
	}
	for (size_t i = 0; i < n; i++) {
		const xRRModeInfo *m = &found[i]->mode;
		reports[i] = (struct sf_mode_report){
			.width = m->width,
			.height = m->height,
			.refresh_mhz = sf_xorg_mode_refresh_mhz(m),
			.preferred = i == 0,
			.settable = m->width == current->mode.width &&
				    m->height == current->mode.height,
		};
	}
	xo->n_modes = sf_modes_build(reports, n, 0, xo->manage_refresh, *out,
				     map, &user_mode);
	for (size_t i = 0; i < xo->n_modes; i++)
		keep_mode(xo, i, found[map[i]]);
	xo->user_mode = user_mode;
	ok = true;
done:
	free(found);
	free(reports);
	free(map);
	return ok;
}

/* Our low-refresh copy goes from the output's modes, unless a CRTC
 * shows it (the user chose it): then RandR keeps it and so do we. */
void
sf_xorg_output_drop_synthesized(struct sf_xorg_output *xo)
{
	if (!xo->synthesized ||
	    RROutputDeleteUserMode(xo->rr_output, xo->synthesized) != Success)
		return;
	RRModeDestroy(xo->synthesized);
	xo->synthesized = NULL;
}
