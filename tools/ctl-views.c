/* SPDX-License-Identifier: MIT */
#include "ctl-backend.h"

/* How each backend's snapshot looks in top and what its hint takes
 * (struct sf_ctl_view); data only, so that a stillframectl built
 * without libxcb still parses an X window. */

const struct sf_ctl_view sf_ctl_wayland_view = {
	.item = "surface",
	.items_json = "surfaces",
	.id_column = "surface",
	.id_width = 7,
	.item_counters = { "commits", "held", "throttled" },
	.item_widths = { 9, 8, 11 },
	.item_quiet = { true, true, true },
	.output_counters = { "repaints", "suppressed" },
	.output_widths = { 10, 12 },
	.target = "SURFACE-ID",
	.parse_target = sf_ctl_parse_u32,
	.target_error = "is not a surface id (the N of surface.N in 'stillframectl status')",
};

const struct sf_ctl_view sf_ctl_x11_view = {
	.item = "window",
	.items_json = "windows",
	.id_column = "window",
	.id_width = -10,
	.id_hex = true,
	.item_counters = { "damage", "held", "requests" },
	.item_widths = { 8, 8, 10 },
	/* Requests alone leave a static window quiet. */
	.item_quiet = { true, true, false },
	.output_counters = { "damage", "held" },
	.output_widths = { 9, 8 },
	.target = "WINDOW",
	.parse_target = sf_ctl_parse_window,
	.target_error = "is not an X window (0x40000c or decimal, as in the window.0x... lines of 'stillframectl status')",
};
