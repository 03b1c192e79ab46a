/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAMECTL_WAYLAND_LOG_H
#define STILLFRAMECTL_WAYLAND_LOG_H

#include <stdint.h>

/* What the Wayland backend and fbc's screenshots share as clients of
 * libwayland-client.
 *
 * libwayland-client's errors go to a buffer instead of stderr, so that
 * each command says what went wrong in one line of its own; the last
 * message, "" if none. */
void
sf_ctl_wayland_log_capture(void);

const char *
sf_ctl_wayland_message(void);

struct wl_registry;

/* The global_remove of both registry listeners: a command binds its
 * globals once, at the start of a short life, and has nothing to do
 * when one goes away. */
void
sf_ctl_wayland_handle_global_remove(void *data, struct wl_registry *registry,
				    uint32_t name);

#endif /* STILLFRAMECTL_WAYLAND_LOG_H */
