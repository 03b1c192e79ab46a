/* SPDX-License-Identifier: MIT */
#ifndef STILLFRAMECTL_WAYLAND_LOG_H
#define STILLFRAMECTL_WAYLAND_LOG_H

/* libwayland-client's errors go to a buffer instead of stderr, so that
 * each command says what went wrong in one line of its own; the last
 * message, "" if none.  Used by the Wayland backend and by fbc's
 * screenshots. */
void
sf_ctl_wayland_log_capture(void);

const char *
sf_ctl_wayland_message(void);

#endif /* STILLFRAMECTL_WAYLAND_LOG_H */
