/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "sf-types.h"

/* Names used in logs, traces and stats; they are part of the trace and
 * status formats, so never rename one. */

const char *
sf_idle_state_name(enum sf_idle_state state)
{
	switch (state) {
	case SF_STATE_ACTIVE: return "active";
	case SF_STATE_LOW_REFRESH: return "low-refresh";
	case SF_STATE_DIM: return "dim";
	case SF_STATE_DPMS_STANDBY: return "standby";
	case SF_STATE_DPMS_OFF: return "off";
	case SF_STATE_COUNT: break;
	}
	return "invalid";
}

const char *
sf_class_name(enum sf_class cls)
{
	switch (cls) {
	case SF_CLASS_STATIC: return "static";
	case SF_CLASS_INTERACTIVE: return "interactive";
	case SF_CLASS_ANIMATING: return "animating";
	case SF_CLASS_VIDEO: return "video";
	case SF_CLASS_BLINKING: return "blinking";
	case SF_CLASS_TICKING: return "ticking";
	case SF_CLASS_COUNT: break;
	}
	return "invalid";
}

const char *
sf_blink_phase_name(enum sf_blink_phase phase)
{
	switch (phase) {
	case SF_BLINK_PHASE_UNKNOWN: return "unknown";
	case SF_BLINK_PHASE_SHOWN: return "shown";
	case SF_BLINK_PHASE_HIDDEN: return "hidden";
	}
	return "invalid";
}

const char *
sf_input_kind_name(enum sf_input_kind kind)
{
	switch (kind) {
	case SF_INPUT_POINTER: return "pointer";
	case SF_INPUT_KEY: return "key";
	case SF_INPUT_BUTTON: return "button";
	case SF_INPUT_TOUCH: return "touch";
	case SF_INPUT_KIND_COUNT: break;
	}
	return "invalid";
}

const char *
sf_content_type_name(enum sf_content_type type)
{
	switch (type) {
	case SF_CONTENT_NONE: return "none";
	case SF_CONTENT_PHOTO: return "photo";
	case SF_CONTENT_VIDEO: return "video";
	case SF_CONTENT_GAME: return "game";
	}
	return "invalid";
}

const char *
sf_output_kind_name(enum sf_output_kind kind)
{
	switch (kind) {
	case SF_OUTPUT_KIND_INTERNAL: return "internal";
	case SF_OUTPUT_KIND_EXTERNAL: return "external";
	case SF_OUTPUT_KIND_VIRTUAL: return "virtual";
	}
	return "invalid";
}

const char *
sf_output_power_name(enum sf_output_power power)
{
	switch (power) {
	case SF_OUTPUT_POWER_AUTO: return "auto";
	case SF_OUTPUT_POWER_ON: return "on";
	case SF_OUTPUT_POWER_OFF: return "off";
	}
	return "invalid";
}

static bool
has_prefix(const char *name, const char *prefix)
{
	return strncmp(name, prefix, strlen(prefix)) == 0;
}

enum sf_output_kind
sf_output_kind_from_name(const char *name)
{
	/* The kernel's connector type names (drm_connector_enum_list),
	 * which RandR drivers use too; "DisplayPort" and "HDMI" cover the
	 * older spellings of some X drivers. */
	static const char *const internal[] = { "eDP", "LVDS", "DSI", "DPI" };
	static const char *const external[] = {
		"HDMI", "DP", "DisplayPort", "DVI", "VGA", "TV", "Composite",
		"SVIDEO", "S-video", "Component", "DIN", "USB",
	};

	if (!name)
		return SF_OUTPUT_KIND_VIRTUAL;
	for (size_t i = 0; i < sizeof(internal) / sizeof(internal[0]); i++)
		if (has_prefix(name, internal[i]))
			return SF_OUTPUT_KIND_INTERNAL;
	for (size_t i = 0; i < sizeof(external) / sizeof(external[0]); i++)
		if (has_prefix(name, external[i]))
			return SF_OUTPUT_KIND_EXTERNAL;
	return SF_OUTPUT_KIND_VIRTUAL;
}
