/* SPDX-License-Identifier: MIT */
#ifndef SF_PRIORITY_H
#define SF_PRIORITY_H

/*
 * Which priority a surface or window runs at.  A client's own say (the
 * stillframe_surface_v1 hint, the _STILLFRAME_HINT flags, stillframectl
 * hint) wins over the app rules (essential-apps, background-apps); with
 * neither it is normal.  The adapters report what they saw and tell the
 * core what comes out of here; they decide nothing themselves.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sf-types.h"

struct sf_core;

/* Where the resolved priority came from. */
enum sf_priority_origin {
	SF_PRIORITY_FROM_DEFAULT = 0,	/* nobody said: normal */
	SF_PRIORITY_FROM_APPS,		/* essential-apps / background-apps */
	SF_PRIORITY_FROM_CLIENT,	/* the client's (or administrator's) */
};

/* What is known of one surface's priority. */
struct sf_priority_source {
	bool client_set;		/* the client said, and still does */
	enum sf_priority client;	/* with client_set */
	enum sf_priority rule;		/* the app rules' verdict */
};

/* The priority the core is told: the client's if it set one, else the
 * rule's. */
enum sf_priority
sf_priority_resolve(const struct sf_priority_source *src);

/* Which of the sources sf_priority_resolve() took (a rule of normal
 * counts as none). */
enum sf_priority_origin
sf_priority_origin(const struct sf_priority_source *src);

/* "normal", "essential", "background". */
const char *
sf_priority_name(enum sf_priority priority);

/* "client", "apps", "default" (the status key priority_from). */
const char *
sf_priority_origin_name(enum sf_priority_origin origin);

/* stillframe_surface_v1.priority's wire values (normal 0, essential 1,
 * background 2) as a priority; false for a value the protocol does not
 * define (a protocol error for the adapter to raise). */
bool
sf_priority_from_wire(uint32_t wire, enum sf_priority *out);

/* The _STILLFRAME_HINT flags word (STILLFRAME_X_FLAG_*, bit 0 essential,
 * bit 1 background) as a priority source: set if either bit is; with
 * both, essential wins (holding an essential window is the worse
 * mistake). */
void
sf_priority_from_x_flags(uint32_t flags, struct sf_priority_source *src);

/* What a window's status reports (STILLFRAME_X_WINDOW_ESSENTIAL and
 * _BACKGROUND): the client's own flag bits as it set them, else the
 * rule's. */
void
sf_priority_x_status(uint32_t flags, enum sf_priority rule, bool *essential,
		     bool *background);

/* essential-apps / background-apps for an app_id or WM_CLASS instance
 * and class (either may be NULL or ""), from the core's options. */
enum sf_priority
sf_priority_for_app(const struct sf_core *core, const char *app,
		    const char *app_class);

/* The option that set `rule` ("essential-apps"/"background-apps",
 * or "EssentialApps"/"BackgroundApps" with `xorg_names`); NULL for
 * normal. */
const char *
sf_priority_rule_option(enum sf_priority rule, bool xorg_names);

#endif /* SF_PRIORITY_H */
