/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <wayland-client.h>

#include "ctl-wayland-log.h"

/* libwayland-client reports errors through its log handler; keep the
 * last message for our own, single, error line instead. */
static char wayland_message[512];

static void
wayland_log(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

static void
wayland_log(const char *fmt, va_list ap)
{
	vsnprintf(wayland_message, sizeof(wayland_message), fmt, ap);
	size_t len = strlen(wayland_message);

	while (len && wayland_message[len - 1] == '\n')
		wayland_message[--len] = '\0';
}

void
sf_ctl_wayland_log_capture(void)
{
	wl_log_set_handler_client(wayland_log);
}

const char *
sf_ctl_wayland_message(void)
{
	return wayland_message;
}

void
sf_ctl_wayland_handle_global_remove(void *data, struct wl_registry *registry,
				    uint32_t name)
{
}
