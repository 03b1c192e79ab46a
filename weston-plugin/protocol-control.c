/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <libweston/libweston.h>

#include "config.h"
#include "sf-weston.h"
#include "sf-recorder.h"
#include "protocols.h"
#include "stillframe-control-v1-server-protocol.h"

/*
 * stillframe_control_v1, the interface of stillframectl(1): status,
 * pause/resume, administrator hints.
 *
 * Only clients running as the compositor's uid may use it.  A global
 * filter hides the global from everyone else, so their registry never
 * lists it.  libwayland keeps a single filter per display; Weston 10 sets
 * none, so the plugin installs its own, which lets every other global
 * through, and removes it at finish.  Should another module replace it,
 * the check in bind still refuses strangers, with the error libwayland
 * itself gives for binding a filtered global.
 */


/* Room for one status line; the core's lines are shorter than 512. */
#define STATUS_LINE_MAX 1024

/* One text event: a Wayland message holds 4096 bytes with its header. */
#define TRACE_CHUNK 4000
/* What one read sends at most, so that the socket keeps up. */
#define TRACE_READ_MAX (64 * 1024)

static bool
client_allowed(struct wl_client *client)
{
	pid_t pid;
	uid_t uid;
	gid_t gid;

	wl_client_get_credentials(client, &pid, &uid, &gid);
	return uid == getuid();
}

/* For the log: who asked. */
static int
client_pid(struct wl_client *client)
{
	pid_t pid;
	uid_t uid;
	gid_t gid;

	wl_client_get_credentials(client, &pid, &uid, &gid);
	return (int)pid;
}

static bool
control_filter(const struct wl_client *client, const struct wl_global *global,
	       void *data)
{
	struct sf_weston_protocols *p = data;

	if (global != p->control_global)
		return true;
	/* wl_client_get_credentials() takes a non-const client only. */
	return client_allowed((struct wl_client *)client);
}

static void
broadcast_paused(struct sf_weston_protocols *p)
{
	struct wl_resource *resource;

	wl_resource_for_each(resource, &p->controls)
		stillframe_control_v1_send_paused(resource, p->sfw->paused);
}

/* --- status --- */

/* Cuts what the core writes into lines, one event each. */
struct line_writer {
	struct sf_writer writer;
	struct wl_resource *status;
	char line[STATUS_LINE_MAX];
	size_t len;
};

static void
line_writer_flush(struct line_writer *lw)
{
	lw->line[lw->len] = '\0';
	stillframe_status_v1_send_line(lw->status, lw->line);
	lw->len = 0;
}

static void
line_writer_write(void *data, const char *text, size_t len)
{
	struct line_writer *lw = data;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			line_writer_flush(lw);
		else if (lw->len < sizeof(lw->line) - 1)
			lw->line[lw->len++] = text[i];
	}
}

/* The plugin's own lines, after the core's: what the core cannot know. */
static void
write_plugin_status(struct sf_weston *sfw, struct sf_writer *w)
{
	struct sf_weston_surface *sws;

	sf_writer_printf(w, "plugin.version %s\n", SF_VERSION);
	sf_writer_printf(w, "policy.paused %s\n",
			 sfw->paused ? "true" : "false");
	sf_writer_printf(w, "policy.inhibitors %u\n", sfw->inhibitors);

	/* The configuration in effect, bad values already replaced. */
	size_t n_opts;
	const struct sf_option *opts = sf_config_options(&n_opts);
	for (size_t i = 0; i < n_opts; i++) {
		char value[SF_CONFIG_STRING_MAX + 8];

		sf_config_format_value(sf_core_get_config(sfw->core),
				       &opts[i], value, sizeof(value));
		sf_writer_printf(w, "config.%s %s\n", opts[i].key, value);
	}

	wl_list_for_each(sws, &sfw->surfaces, link) {
		const struct sf_weston_hints *h = &sws->current;

		if (!sws->core)
			continue;

		uint32_t id = sf_surface_get_id(sws->core);
		const char *output = "-";

		if (sws->output)
			output = sf_output_get_name(
				sf_weston_output_core(sws->output));
		sf_writer_printf(w, "surface.%u.output %s\n", id, output);
		if (h->rate_num)
			sf_writer_printf(w, "surface.%u.rate %u/%u\n", id,
					 h->rate_num, h->rate_den);
		else
			sf_writer_printf(w, "surface.%u.rate none\n", id);
		if (h->min_mhz || h->max_mhz)
			sf_writer_printf(w, "surface.%u.range_mhz %u-%u\n", id,
					 h->min_mhz, h->max_mhz);
		else
			sf_writer_printf(w, "surface.%u.range_mhz none\n", id);
		sf_writer_printf(w, "surface.%u.priority %s\n", id,
				 sf_priority_name(sws->applied_priority));
		sf_writer_printf(w, "surface.%u.priority_from %s\n", id,
				 sf_priority_origin_name(
					 sf_priority_origin(&sws->priority)));
		sf_writer_printf(w, "surface.%u.content %s\n", id,
				 sf_content_type_name(h->content));
		sf_writer_printf(w, "surface.%u.throttle_us %lld\n", id,
				 (long long)(sws->last_throttle_sent /
					     SF_NSEC_PER_USEC));
		sf_writer_printf(w, "surface.%u.hint_object %s\n", id,
				 sws->hint_resource ? "true" : "false");
	}
}

/* One report: a status object that gets the lines and its done. */
static void
send_status(struct wl_client *client, struct wl_resource *resource,
	    uint32_t id, enum sf_status_format format)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);
	struct line_writer lw = {
		.writer = { line_writer_write, &lw },
	};

	lw.status = wl_resource_create(client, &stillframe_status_v1_interface,
				       wl_resource_get_version(resource), id);
	if (!lw.status) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(lw.status, NULL, NULL, NULL);

	/* After finish there is nothing to report, but the client still
	 * gets its done. */
	if (p) {
		struct sf_weston *sfw = p->sfw;

		sf_core_write_status(sfw->core, sf_weston_now(sfw), format,
				     &lw.writer);
		/* The plugin's own lines are key-value text only. */
		if (format == SF_STATUS_TEXT)
			write_plugin_status(sfw, &lw.writer);
		if (lw.len)
			line_writer_flush(&lw);
	}
	stillframe_status_v1_send_done(lw.status);
	wl_resource_destroy(lw.status);
}

static void
control_handle_get_status(struct wl_client *client,
			  struct wl_resource *resource, uint32_t id)
{
	send_status(client, resource, id, SF_STATUS_TEXT);
}

static void
control_handle_get_status_prometheus(struct wl_client *client,
				     struct wl_resource *resource, uint32_t id)
{
	send_status(client, resource, id, SF_STATUS_PROMETHEUS);
}

/* --- pause, resume --- */

static void
set_paused(struct wl_resource *resource, bool paused)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);

	if (!p || p->sfw->paused == paused)
		return;
	sf_weston_log(p->sfw, "control: %s by stillframectl (pid %d)",
		      paused ? "paused" : "resumed",
		      client_pid(wl_resource_get_client(resource)));
	sf_weston_set_paused(p->sfw, paused);
	broadcast_paused(p);
}

static void
control_handle_pause(struct wl_client *client, struct wl_resource *resource)
{
	set_paused(resource, true);
}

static void
control_handle_resume(struct wl_client *client, struct wl_resource *resource)
{
	set_paused(resource, false);
}

/* --- administrator hints --- */

static void
control_handle_set_surface_hints(struct wl_client *client,
				 struct wl_resource *resource,
				 uint32_t surface_id, uint32_t rate_num,
				 uint32_t rate_den, uint32_t min_mhz,
				 uint32_t max_mhz, uint32_t priority)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);

	if (!p)
		return;
	/* The rules of stillframe_surface_v1, with its enum values. */
	if (rate_num != 0 && rate_den == 0) {
		wl_resource_post_error(resource,
			STILLFRAME_CONTROL_V1_ERROR_INVALID_HINT,
			"content rate %u/0 has a zero denominator",
			rate_num);
		return;
	}
	if (max_mhz != 0 && min_mhz > max_mhz) {
		wl_resource_post_error(resource,
			STILLFRAME_CONTROL_V1_ERROR_INVALID_HINT,
			"refresh range %u-%u mHz has its minimum above its maximum",
			min_mhz, max_mhz);
		return;
	}
	enum sf_priority value;
	if (!sf_priority_from_wire(priority, &value)) {
		wl_resource_post_error(resource,
			STILLFRAME_CONTROL_V1_ERROR_INVALID_HINT,
			"%u is not a stillframe_surface_v1.priority",
			priority);
		return;
	}

	struct sf_weston_surface *sws =
		sf_weston_surface_find_by_id(p->sfw, surface_id);

	if (!sws) {
		wl_resource_post_error(resource,
			STILLFRAME_CONTROL_V1_ERROR_UNKNOWN_SURFACE,
			"no tracked surface has id %u", surface_id);
		return;
	}

	/* Pending, like the client's own hints: the surface's next commit
	 * applies them, so both kinds take the same path through
	 * surface.c and the core. */
	struct sf_weston_pending_hints *pending = &sws->pending;

	pending->hints.rate_num = rate_num;
	pending->hints.rate_den = rate_num ? rate_den : 0;
	pending->hints.min_mhz = min_mhz;
	pending->hints.max_mhz = max_mhz;
	pending->hints.priority = value;
	pending->rate_set = true;
	pending->range_set = true;
	pending->priority_set = true;
	pending->priority_withdrawn = false;
	sf_weston_log(p->sfw,
		      "control: surface %u (%s): hints rate %u/%u, range %u-%u mHz, priority %s set by the administrator, applied at its next commit",
		      surface_id, sf_weston_surface_label(sws), rate_num,
		      pending->hints.rate_den, min_mhz, max_mhz,
		      sf_priority_name(pending->hints.priority));
}

/* --- output power --- */

static void
control_handle_set_output_power(struct wl_client *client,
				struct wl_resource *resource,
				const char *name, uint32_t power)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);

	if (!p)
		return;
	if (power > STILLFRAME_CONTROL_V1_OUTPUT_POWER_OFF) {
		wl_resource_post_error(resource,
			STILLFRAME_CONTROL_V1_ERROR_INVALID_POWER,
			"%u is not a stillframe_control_v1.output_power", power);
		return;
	}

	struct sf_output *o = sf_core_find_output(p->sfw->core, name);

	if (!o) {
		wl_resource_post_error(resource,
			STILLFRAME_CONTROL_V1_ERROR_UNKNOWN_OUTPUT,
			"stillframe manages no output called \"%s\"", name);
		return;
	}
	sf_weston_log(p->sfw, "control: output %s: power %s asked by "
		      "stillframectl (pid %d)", name,
		      sf_output_power_name((enum sf_output_power)power),
		      client_pid(client));
	sf_output_request_power(o, (enum sf_output_power)power,
				sf_weston_now(p->sfw));
	sf_weston_schedule_dispatch(p->sfw);
}

/* --- trace recording --- */

/* The recording of this object, or NULL when it has none (refused, or
 * the plugin is gone). */
static struct sf_trace_recorder *
trace_of(struct wl_resource *resource)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);

	if (!p || p->trace != resource)
		return NULL;
	return sf_core_get_trace(p->sfw->core);
}

static void
trace_handle_read(struct wl_client *client, struct wl_resource *resource)
{
	struct sf_trace_recorder *rec = trace_of(resource);
	char chunk[TRACE_CHUNK + 1];
	size_t sent = 0, n;

	if (!rec) {
		stillframe_trace_v1_send_read_done(resource, 0, 0, 0, 1);
		return;
	}
	while (sent < TRACE_READ_MAX &&
	       (n = sf_trace_recorder_read(rec, chunk, TRACE_CHUNK)) > 0) {
		chunk[n] = '\0';
		stillframe_trace_v1_send_text(resource, chunk);
		sent += n;
	}
	size_t pending = sf_trace_recorder_pending(rec);
	uint64_t events = sf_trace_recorder_get_events(rec);
	uint64_t dropped = sf_trace_recorder_get_dropped(rec);

	stillframe_trace_v1_send_read_done(resource,
		events > UINT32_MAX ? UINT32_MAX : (uint32_t)events,
		dropped > UINT32_MAX ? UINT32_MAX : (uint32_t)dropped,
		(uint32_t)pending,
		sf_trace_recorder_has_ended(rec) && pending == 0);
}

static void
trace_handle_stop(struct wl_client *client, struct wl_resource *resource)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);
	struct sf_trace_recorder *rec = trace_of(resource);

	if (!rec || sf_trace_recorder_has_ended(rec))
		return;
	sf_trace_recorder_end(rec, sf_weston_now(p->sfw));
	sf_weston_log(p->sfw, "control: trace stopped after %llu events "
		      "(%llu dropped)",
		      (unsigned long long)sf_trace_recorder_get_events(rec),
		      (unsigned long long)sf_trace_recorder_get_dropped(rec));
}

/* Also reached when the client disconnects: the recording ends with
 * its reader. */
static void
trace_resource_destroy(struct wl_resource *resource)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);

	if (!p || p->trace != resource)
		return;
	p->trace = NULL;
	sf_core_trace_discard(p->sfw->core);
}

static const struct stillframe_trace_v1_interface trace_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
	.read = trace_handle_read,
	.stop = trace_handle_stop,
};

static void
control_handle_record_trace(struct wl_client *client,
			    struct wl_resource *resource, uint32_t id)
{
	struct sf_weston_protocols *p = wl_resource_get_user_data(resource);
	struct wl_resource *trace =
		wl_resource_create(client, &stillframe_trace_v1_interface,
				   wl_resource_get_version(resource), id);

	if (!trace) {
		wl_client_post_no_memory(client);
		return;
	}
	/* Inert until it owns the recording. */
	wl_resource_set_implementation(trace, &trace_impl, NULL,
				       trace_resource_destroy);
	if (!p) {
		stillframe_trace_v1_send_refused(trace,
			STILLFRAME_TRACE_V1_REFUSAL_NO_MEMORY,
			"stillframe is shutting down");
		return;
	}
	if (sf_core_get_trace(p->sfw->core)) {
		stillframe_trace_v1_send_refused(trace,
			STILLFRAME_TRACE_V1_REFUSAL_BUSY,
			"another trace recording is running");
		return;
	}
	if (!sf_core_trace_start(p->sfw->core, SF_CORE_TRACE_CAPACITY,
				 sf_weston_now(p->sfw))) {
		stillframe_trace_v1_send_refused(trace,
			STILLFRAME_TRACE_V1_REFUSAL_NO_MEMORY,
			"out of memory for the trace buffer");
		return;
	}
	sf_weston_log(p->sfw, "control: trace recording started by "
		      "stillframectl (pid %d)", client_pid(client));
	wl_resource_set_user_data(trace, p);
	p->trace = trace;
}

static const struct stillframe_control_v1_interface control_impl = {
	.destroy = sf_weston_protocols_destroy_resource,
	.get_status = control_handle_get_status,
	.pause = control_handle_pause,
	.resume = control_handle_resume,
	.set_surface_hints = control_handle_set_surface_hints,
	.set_output_power = control_handle_set_output_power,
	.get_status_prometheus = control_handle_get_status_prometheus,
	.record_trace = control_handle_record_trace,
};

static void
bind_control(struct wl_client *client, void *data, uint32_t version,
	     uint32_t id)
{
	struct sf_weston_protocols *p = data;

	if (!client_allowed(client)) {
		/* Only reached if our global filter was replaced.  Object 1
		 * of every client is its wl_display. */
		struct wl_resource *display = wl_client_get_object(client, 1);

		if (display)
			wl_resource_post_error(display,
				WL_DISPLAY_ERROR_INVALID_OBJECT,
				"stillframe_control_v1 is only for the compositor's user");
		return;
	}

	struct wl_resource *resource = sf_weston_protocols_add_resource(
		client, &p->controls, &stillframe_control_v1_interface,
		&control_impl, p, version, id);

	if (resource)
		stillframe_control_v1_send_paused(resource, p->sfw->paused);
}

bool
sf_weston_control_init(struct sf_weston_protocols *p)
{
	struct wl_display *display = p->sfw->compositor->wl_display;

	p->control_global = wl_global_create(display,
					     &stillframe_control_v1_interface,
					     4, p, bind_control);
	if (!p->control_global)
		return false;
	wl_display_set_global_filter(display, control_filter, p);
	p->global_filter_set = true;
	return true;
}

void
sf_weston_control_finish(struct sf_weston_protocols *p)
{
	struct wl_display *display = p->sfw->compositor->wl_display;

	if (p->global_filter_set)
		wl_display_set_global_filter(display, NULL, NULL);
	p->global_filter_set = false;
	sf_weston_protocols_untrack_all(&p->controls);
	/* The core and its recording go with the plugin. */
	if (p->trace)
		wl_resource_set_user_data(p->trace, NULL);
	p->trace = NULL;
	if (p->control_global)
		wl_global_destroy(p->control_global);
	p->control_global = NULL;
}
