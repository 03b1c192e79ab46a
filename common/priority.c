/* SPDX-License-Identifier: MIT */
#include <stddef.h>

#include "sf-config.h"
#include "sf-core.h"
#include "sf-priority.h"
#include "stillframe-x.h"

enum sf_priority
sf_priority_resolve(const struct sf_priority_source *src)
{
	return src->client_set ? src->client : src->rule;
}

enum sf_priority_origin
sf_priority_origin(const struct sf_priority_source *src)
{
	if (src->client_set)
		return SF_PRIORITY_FROM_CLIENT;
	return src->rule != SF_PRIORITY_NORMAL ? SF_PRIORITY_FROM_APPS :
						 SF_PRIORITY_FROM_DEFAULT;
}

const char *
sf_priority_name(enum sf_priority priority)
{
	switch (priority) {
	case SF_PRIORITY_NORMAL:
		return "normal";
	case SF_PRIORITY_ESSENTIAL:
		return "essential";
	case SF_PRIORITY_BACKGROUND:
		return "background";
	}
	return "?";
}

const char *
sf_priority_origin_name(enum sf_priority_origin origin)
{
	switch (origin) {
	case SF_PRIORITY_FROM_DEFAULT:
		return "default";
	case SF_PRIORITY_FROM_APPS:
		return "apps";
	case SF_PRIORITY_FROM_CLIENT:
		return "client";
	}
	return "?";
}

bool
sf_priority_from_wire(uint32_t wire, enum sf_priority *out)
{
	/* The protocol's values are the enum's; the switch keeps it so if
	 * either changes. */
	switch (wire) {
	case 0:
		*out = SF_PRIORITY_NORMAL;
		return true;
	case 1:
		*out = SF_PRIORITY_ESSENTIAL;
		return true;
	case 2:
		*out = SF_PRIORITY_BACKGROUND;
		return true;
	}
	return false;
}

void
sf_priority_from_x_flags(uint32_t flags, struct sf_priority_source *src)
{
	src->client_set = (flags & STILLFRAME_X_FLAG_ALL) != 0;
	src->client = flags & STILLFRAME_X_FLAG_ESSENTIAL ?
		SF_PRIORITY_ESSENTIAL :
		flags & STILLFRAME_X_FLAG_BACKGROUND ? SF_PRIORITY_BACKGROUND :
						       SF_PRIORITY_NORMAL;
}

void
sf_priority_x_status(uint32_t flags, enum sf_priority rule, bool *essential,
		     bool *background)
{
	/* Both bits, which only a property written by hand carries, are
	 * shown as set: the status says what the client asked. */
	if (flags & STILLFRAME_X_FLAG_ALL) {
		*essential = flags & STILLFRAME_X_FLAG_ESSENTIAL;
		*background = flags & STILLFRAME_X_FLAG_BACKGROUND;
		return;
	}
	*essential = rule == SF_PRIORITY_ESSENTIAL;
	*background = rule == SF_PRIORITY_BACKGROUND;
}

enum sf_priority
sf_priority_for_app(const struct sf_core *core, const char *app,
		    const char *app_class)
{
	return sf_config_app_priority(sf_core_get_config(core), app,
				      app_class);
}

const char *
sf_priority_rule_option(enum sf_priority rule, bool xorg_names)
{
	switch (rule) {
	case SF_PRIORITY_NORMAL:
		return NULL;
	case SF_PRIORITY_ESSENTIAL:
		return xorg_names ? "EssentialApps" : "essential-apps";
	case SF_PRIORITY_BACKGROUND:
		return xorg_names ? "BackgroundApps" : "background-apps";
	}
	return NULL;
}
