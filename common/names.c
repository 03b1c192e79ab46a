/* SPDX-License-Identifier: MIT */
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
