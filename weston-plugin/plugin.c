/* SPDX-License-Identifier: MIT */
/*
 * stillframe.so: the Weston 10 front end of stillframe.  Loaded with
 * modules=stillframe.so in [core]; options come from [stillframe].
 * This file ties the plugin's state to the compositor, reads the
 * configuration through common/'s option table and runs the core's
 * timers; output.c, surface.c and input.c observe libweston.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libweston/config-parser.h>
#include <libweston/weston-log.h>
#include <libweston/zalloc.h>
#include <weston/weston.h>

#include "sf-weston.h"

sf_time_t
sf_weston_now(const struct sf_weston *sfw)
{
	/* Input timestamps (weston_compositor_get_time) use the same
	 * clock, so input, commits and deadlines share one time line. */
	(void)sfw;
	return sf_support_now();
}

void
sf_weston_log(struct sf_weston *sfw, const char *fmt, ...)
{
	char stamp[64];
	va_list ap;

	if (!sfw->scope || !weston_log_scope_is_enabled(sfw->scope))
		return;
	weston_log_scope_printf(sfw->scope, "%s ",
				weston_log_scope_timestamp(sfw->scope, stamp,
							   sizeof(stamp)));
	va_start(ap, fmt);
	weston_log_scope_vprintf(sfw->scope, fmt, ap);
	va_end(ap);
	weston_log_scope_printf(sfw->scope, "\n");
}

void
sf_weston_schedule_dispatch(struct sf_weston *sfw)
{
	sf_time_t deadline = sf_core_next_deadline(sfw->core);

	if (deadline == sfw->timer_deadline)
		return;
	sfw->timer_deadline = deadline;
	/* SF_TIME_NEVER gives 0: disarmed. */
	wl_event_source_timer_update(sfw->timer,
				     sf_support_timer_ms(deadline,
							 sf_weston_now(sfw)));
}

static void
sync_idle_inhibit(struct sf_weston *sfw);

static int
handle_timer(void *data)
{
	struct sf_weston *sfw = data;

	sfw->timer_deadline = 0;
	sync_idle_inhibit(sfw);
	sf_core_dispatch(sfw->core, sf_weston_now(sfw));
	sf_weston_schedule_dispatch(sfw);
	return 0;
}

void
sf_weston_set_paused(struct sf_weston *sfw, bool paused)
{
	if (sfw->paused == paused)
		return;
	sfw->paused = paused;
	weston_log("stillframe: policy %s (stillframectl)\n",
		   paused ? "paused" : "resumed");
	sf_core_set_paused(sfw->core, paused, sf_weston_now(sfw));
	sf_weston_schedule_dispatch(sfw);
}

/* --- idle inhibition --- */

/* The core holds every output above DIM while the compositor's own
 * idle_inhibit count is up for something else than our inhibitors: a
 * held key or button, anything else in Weston that inhibits idling.
 * Our inhibitors hold the output their surface is on (the core follows
 * the surface), so a monitor beside a playing video still blanks. */
static void
sync_idle_inhibit(struct sf_weston *sfw)
{
	static const char *const why[] = { "released", "inhibited" };
	bool want = sfw->compositor->idle_inhibit > sfw->inhibitors;

	if (want == (sfw->inhibitors_applied != 0))
		return;
	sf_weston_log(sfw, "idle %s (compositor idle_inhibit %u)", why[want],
		      sfw->compositor->idle_inhibit);
	sf_weston_output_set_inhibited(sfw, want);
	sfw->inhibitors_applied = want;
	sf_weston_schedule_dispatch(sfw);
}

void
sf_weston_sync_idle_inhibit(struct sf_weston *sfw)
{
	sync_idle_inhibit(sfw);
}

bool
sf_weston_client_inhibiting(struct sf_weston *sfw, struct wl_client *client)
{
	struct sf_weston_surface *sws;

	if (sfw->inhibitors == 0)
		return false;
	wl_list_for_each(sws, &sfw->surfaces, link)
		if (sws->inhibitors && sws->surface->resource &&
		    wl_resource_get_client(sws->surface->resource) == client)
			return true;
	return false;
}

void
sf_weston_sync_client_inhibiting(struct sf_weston *sfw,
				 struct weston_surface *surface)
{
	struct sf_weston_surface *sws;

	if (!surface || !surface->resource)
		return;
	struct wl_client *client = wl_resource_get_client(surface->resource);
	bool on = sf_weston_client_inhibiting(sfw, client);
	wl_list_for_each(sws, &sfw->surfaces, link)
		if (sws->surface->resource &&
		    wl_resource_get_client(sws->surface->resource) == client)
			sf_surface_set_client_inhibiting(sws->core, on);
}

void
sf_weston_inhibit(struct sf_weston *sfw, struct weston_surface *surface)
{
	sfw->inhibitors++;
	/* libweston's own inhibit helpers are private; this is what they
	 * do. */
	sfw->compositor->idle_inhibit++;
	struct sf_weston_surface *sws =
		surface ? sf_weston_surface_get(sfw, surface) : NULL;
	sf_weston_log(sfw, "idle inhibitor on %s",
		      sws ? sf_weston_surface_label(sws) : "(no surface)");
	if (sws) {
		sf_surface_inhibit(sws->core, sf_weston_now(sfw));
		sws->inhibitors++;
		sf_weston_sync_client_inhibiting(sfw, surface);
	}
	sync_idle_inhibit(sfw);
	sf_weston_schedule_dispatch(sfw);
}

void
sf_weston_uninhibit(struct sf_weston *sfw, struct weston_surface *surface)
{
	/* Gone with its surface's tracking, if that went first. */
	struct sf_weston_surface *sws =
		surface ? sf_weston_surface_find(sfw, surface) : NULL;

	if (sws) {
		sf_surface_uninhibit(sws->core, sf_weston_now(sfw));
		if (sws->inhibitors)
			sws->inhibitors--;
		sf_weston_sync_client_inhibiting(sfw, surface);
	}
	if (sfw->inhibitors == 0) {
		weston_log("stillframe bug: idle inhibitor released twice\n");
		return;
	}
	sfw->inhibitors--;
	sfw->compositor->idle_inhibit--;
	/* Weston's idle timer gave up while inhibited: re-arm it from now,
	 * as libweston does when a key is released. */
	if (sfw->compositor->state == WESTON_COMPOSITOR_ACTIVE)
		weston_compositor_wake(sfw->compositor);
	sync_idle_inhibit(sfw);
	sf_weston_schedule_dispatch(sfw);
}

/* --- configuration --- */

static void
config_warn(const char *what)
{
	weston_log("stillframe: config: %s\n", what);
}

/* weston.ini's parser has no way to list a section's keys, so unknown
 * keys (typos) are found by reading the [stillframe] section of the file
 * ourselves; values still come from the parser. */
static void
warn_unknown_keys(struct weston_config *config)
{
	const char *path = weston_config_get_full_path(config);
	char line[512];
	bool in_section = false;
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '[') {
			in_section = strncmp(p, "[stillframe]", 12) == 0;
			continue;
		}
		if (!in_section || *p == '#' || *p == '\0')
			continue;
		char *eq = strchr(p, '=');
		if (!eq)
			continue;
		while (eq > p && isspace((unsigned char)eq[-1]))
			eq--;
		*eq = '\0';
		if (!sf_config_find(SF_CONFIG_NS_INI, p)) {
			char msg[600];
			snprintf(msg, sizeof(msg),
				 "%s: unknown key \"%s\" in [stillframe] "
				 "(see man 7 stillframe); ignored", path, p);
			config_warn(msg);
		}
	}
	fclose(f);
}

/* The options, read once into `cfg` for the platform layer and the
 * core; from then on the plugin reads them through the core. */
static void
read_config(struct sf_weston *sfw, struct sf_config *cfg)
{
	struct weston_config *config = wet_get_config(sfw->compositor);
	struct weston_config_section *section;
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);

	sf_config_init_defaults(cfg);
	if (!config)
		return;
	section = weston_config_get_section(config, "stillframe", NULL, NULL);
	if (!section)
		return;
	for (size_t i = 0; i < n; i++) {
		char *value = NULL;
		char err[512];
		weston_config_section_get_string(section, opts[i].key, &value,
						 NULL);
		if (!value)
			continue;
		if (sf_config_set(cfg, SF_CONFIG_NS_INI, opts[i].key,
				  value, err, sizeof(err)) != SF_CONFIG_OK)
			config_warn(err);
		free(value);
	}
	warn_unknown_keys(config);
}

/* --- the core's log --- */

void
sf_weston_core_log(void *data, enum sf_log_level level, const char *message)
{
	struct sf_weston *sfw = data;

	/* Errors also go to the main log, where a user looks first. */
	if (level == SF_LOG_ERROR)
		weston_log("stillframe: %s\n", message);
	sf_weston_log(sfw, "%s", message);
}

/* What the platform layer found, put back or may not write reaches the
 * main log; every write the stillframe scope too. */
static void
platform_handle_log(void *data, enum sf_platform_log_level level,
		    const char *message)
{
	struct sf_weston *sfw = data;

	if (level != SF_PLATFORM_LOG_DEBUG)
		weston_log("stillframe: platform: %s\n", message);
	sf_weston_log(sfw, "platform: %s", message);
}

/* --- lifecycle --- */

static void
sf_weston_destroy(struct sf_weston *sfw)
{
	sf_weston_protocols_finish(sfw);
	sf_weston_input_finish(sfw);
	sf_weston_surface_finish_all(sfw);
	/* Outputs first, so their repaint hooks are unwrapped before the
	 * core restores modes and DPMS through them; then the core puts
	 * back clocks and anything left. */
	sf_weston_output_finish_all(sfw);
	sf_core_destroy(sfw->core);
	sf_platform_destroy(sfw->platform);
	if (sfw->timer)
		wl_event_source_remove(sfw->timer);
	wl_list_remove(&sfw->create_surface_listener.link);
	wl_list_remove(&sfw->compositor_destroy_listener.link);
	weston_log_scope_destroy(sfw->scope);
	free(sfw);
}

static void
compositor_handle_destroy(struct wl_listener *listener, void *data)
{
	struct sf_weston *sfw = wl_container_of(listener, sfw,
						compositor_destroy_listener);
	(void)data;
	sf_weston_destroy(sfw);
}

void
sf_weston_listen(struct wl_signal *signal, struct wl_listener *listener,
		 wl_notify_func_t notify)
{
	listener->notify = notify;
	wl_signal_add(signal, listener);
}

struct sf_weston *
sf_weston_from_compositor(struct weston_compositor *compositor)
{
	struct wl_listener *l = wl_signal_get(&compositor->destroy_signal,
					      compositor_handle_destroy);
	struct sf_weston *sfw;

	if (!l)
		return NULL;
	return wl_container_of(l, sfw, compositor_destroy_listener);
}

static void
compositor_handle_create_surface(struct wl_listener *listener, void *data)
{
	struct sf_weston *sfw = wl_container_of(listener, sfw,
						create_surface_listener);
	sf_weston_surface_get(sfw, data);
}

WL_EXPORT int
wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[])
{
	struct sf_weston *sfw = zalloc(sizeof(*sfw));
	(void)argc;
	(void)argv;

	if (!sfw)
		return -1;
	if (!weston_compositor_add_destroy_listener_once(
		    compositor, &sfw->compositor_destroy_listener,
		    compositor_handle_destroy)) {
		weston_log("stillframe: already loaded; ignoring the second "
			   "stillframe.so (check [core] modules= and "
			   "--modules)\n");
		free(sfw);
		return 0;
	}
	sfw->compositor = compositor;
	wl_list_init(&sfw->outputs);
	wl_list_init(&sfw->surfaces);
	wl_list_init(&sfw->seats);
	wl_signal_init(&sfw->input_signal);
	wl_signal_init(&sfw->surface_destroy_signal);
	sfw->timer_deadline = SF_TIME_NEVER;

	sfw->scope = weston_compositor_add_log_scope(
		compositor, "stillframe",
		"stillframe: every decision, with its reason\n", NULL, NULL,
		sfw);
	struct sf_config config;
	read_config(sfw, &config);
	struct sf_platform_options platform_options;
	sf_platform_options_from_config(&platform_options, &config);
	platform_options.log = platform_handle_log;
	platform_options.log_data = sfw;
	sfw->platform = sf_platform_create(&platform_options);
	sfw->core = sf_core_create(&config, &sf_weston_core_interface,
				   sfw, sf_weston_now(sfw));
	sfw->timer = wl_event_loop_add_timer(
		wl_display_get_event_loop(compositor->wl_display),
		handle_timer, sfw);
	if (!sfw->platform || !sfw->core || !sfw->timer) {
		weston_log("stillframe: out of memory at start; not loaded\n");
		goto fail;
	}
	weston_log("stillframe: loaded%s; log scope \"stillframe\" "
		   "(weston -l stillframe) shows its decisions\n",
		   sf_core_get_config(sfw->core)->enable ? "" :
					" with enable=false: watching only");

	sf_weston_output_init_all(sfw);
	sf_weston_listen(&compositor->create_surface_signal,
			 &sfw->create_surface_listener,
			 compositor_handle_create_surface);
	sf_weston_surface_init_all(sfw);
	sf_weston_input_init(sfw);
	if (!sf_weston_protocols_init(sfw))
		weston_log("stillframe: protocols unavailable; the policy "
			   "runs without client hints\n");
	sf_weston_schedule_dispatch(sfw);
	return 0;

fail:
	if (sfw->timer)
		wl_event_source_remove(sfw->timer);
	sf_core_destroy(sfw->core);
	sf_platform_destroy(sfw->platform);
	weston_log_scope_destroy(sfw->scope);
	wl_list_remove(&sfw->compositor_destroy_listener.link);
	free(sfw);
	return -1;
}
