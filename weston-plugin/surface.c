/* SPDX-License-Identifier: MIT */
/*
 * Surfaces: every weston_surface gets an sf_surface in the core.  Each
 * commit is reported with its damage (and, for small damage in shm
 * buffers, a hash of the damaged pixels, so identical commits and
 * two-state blinks can be told apart); hints are applied; frame
 * callbacks of throttled surfaces are held and released at the
 * throttled rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libweston/zalloc.h>

#include "compat.h"
#include "sf-release.h"
#include "sf-weston.h"

#define MAX_BOXES 16

static void
surface_handle_commit(struct wl_listener *listener, void *data);
static void
surface_handle_destroy(struct wl_listener *listener, void *data);

struct sf_weston_surface *
sf_weston_surface_find(struct sf_weston *sfw, struct weston_surface *surface)
{
	struct wl_listener *l = wl_signal_get(&surface->destroy_signal,
					      surface_handle_destroy);
	struct sf_weston_surface *sws;
	(void)sfw;

	if (!l)
		return NULL;
	return wl_container_of(l, sws, destroy_listener);
}

struct sf_weston_surface *
sf_weston_surface_find_by_id(struct sf_weston *sfw, uint32_t id)
{
	struct sf_weston_surface *sws;

	wl_list_for_each(sws, &sfw->surfaces, link)
		if (sf_surface_get_id(sws->core) == id)
			return sws;
	return NULL;
}

struct sf_weston_surface *
sf_weston_surface_get(struct sf_weston *sfw, struct weston_surface *surface)
{
	struct sf_weston_surface *sws = sf_weston_surface_find(sfw, surface);

	if (sws)
		return sws;
	sws = zalloc(sizeof(*sws));
	if (!sws)
		return NULL;
	sws->core = sf_surface_create(sfw->core, surface->width,
				      surface->height, sf_weston_now(sfw));
	if (!sws->core) {
		free(sws);
		return NULL;
	}
	sws->sfw = sfw;
	sws->surface = surface;
	wl_list_init(&sws->held_callbacks);
	sf_tile_map_init(&sws->tiles);
	sws->current.rate_den = 1;
	sws->pending.hints = sws->current;
	sf_weston_listen(&surface->commit_signal, &sws->commit_listener,
			 surface_handle_commit);
	sf_weston_listen(&surface->destroy_signal, &sws->destroy_listener,
			 surface_handle_destroy);
	wl_list_insert(&sfw->surfaces, &sws->link);
	/* A player's new subsurface plays with its inhibitor. */
	if (surface->resource)
		sf_surface_set_client_inhibiting(
			sws->core, sf_weston_client_inhibiting(
				sfw, wl_resource_get_client(surface->resource)));
	return sws;
}

const char *
sf_weston_surface_label(const struct sf_weston_surface *sws)
{
	static char fallback[32];

	if (!sws)
		return "(untracked)";
	if (sws->label[0])
		return sws->label;
	snprintf(fallback, sizeof(fallback), "surface %u",
		 sf_surface_get_id(sws->core));
	return fallback;
}

/* The core hears only about changes of the resolved priority. */
static void
apply_priority(struct sf_weston_surface *sws, sf_time_t now)
{
	enum sf_priority priority = sf_priority_resolve(&sws->priority);

	if (priority == sws->applied_priority)
		return;
	sws->applied_priority = priority;
	sf_surface_set_priority(sws->core, priority, now);
}

/* essential-apps and background-apps, once the surface has an app_id
 * (a toplevel gets it before or with its first commit; it may change). */
static void
update_app_rule(struct sf_weston_surface *sws, const char *app_id,
		sf_time_t now)
{
	if (!app_id)
		app_id = "";
	if (strcmp(app_id, sws->app_id) == 0)
		return;
	snprintf(sws->app_id, sizeof(sws->app_id), "%s", app_id);
	enum sf_priority rule =
		sf_priority_for_app(sws->sfw->core, sws->app_id, NULL);
	if (rule != sws->priority.rule && rule != SF_PRIORITY_NORMAL)
		sf_weston_log(sws->sfw, "surface %u (%s): %s by %s",
			      sf_surface_get_id(sws->core), sws->app_id,
			      sf_priority_name(rule),
			      sf_priority_rule_option(rule, false));
	sws->priority.rule = rule;
	apply_priority(sws, now);
}

/* Whether `output` is one of the compositor's outputs now.  A surface's
 * output pointer outlives an unplugged output until the surface is
 * placed again, and desktop-shell's label functions read its name. */
static bool
output_is_live(struct weston_compositor *c, struct weston_output *output)
{
	struct weston_output *o;

	wl_list_for_each(o, &c->output_list, link)
		if (o == output)
			return true;
	return false;
}

/* What a user would call the surface: the app_id or title of a window,
 * else the label the shell gave it ("panel for output ...", "cursor"),
 * else its role.  Kept in sws->label and passed to the core when it
 * changes (a toplevel gets its app_id after its first commit). */
static void
update_label(struct sf_weston_surface *sws, sf_time_t now)
{
	struct weston_surface *surface = sws->surface;
	struct weston_desktop_surface *ds =
		weston_surface_get_desktop_surface(surface);
	char label[sizeof(sws->label)] = "";
	const char *s = ds ? weston_desktop_surface_get_app_id(ds) : NULL;

	update_app_rule(sws, s, now);

	if (!s || !*s)
		s = ds ? weston_desktop_surface_get_title(ds) : NULL;
	bool shell_label = false;

	if (s && *s)
		snprintf(label, sizeof(label), "%s", s);
	else if (!surface->output ||
		 output_is_live(surface->compositor, surface->output))
		shell_label = sf_compat_surface_shell_label(surface, label,
							    sizeof(label));
	if (!label[0] && !shell_label && surface->role_name)
		snprintf(label, sizeof(label), "%s", surface->role_name);
	if (label[0] && strcmp(label, sws->label) != 0) {
		memcpy(sws->label, label, sizeof(label));
		sf_surface_set_label(sws->core, sws->label);
	}
}

/* --- frame-callback throttling --- */

static void
release_callbacks(struct sf_weston_surface *sws, sf_time_t now)
{
	struct wl_resource *cb, *next;
	uint32_t msec = (uint32_t)(now / SF_NSEC_PER_MSEC);

	wl_resource_for_each_safe(cb, next, &sws->held_callbacks) {
		wl_callback_send_done(cb, msec);
		wl_resource_destroy(cb);	/* unlinks it */
	}
	sws->next_release = now;
	sws->input_release = 0;
}

static int
handle_release_timer(void *data)
{
	struct sf_weston_surface *sws = data;

	release_callbacks(sws, sf_weston_now(sws->sfw));
	return 0;
}

static void
announce_throttle(struct sf_weston_surface *sws, sf_time_t interval)
{
	if (interval == sws->last_throttle_sent)
		return;
	sws->last_throttle_sent = interval;
	sf_weston_log(sws->sfw, "surface %u (%s): frame callbacks %s %.0f ms",
		      sf_surface_get_id(sws->core),
		      sf_weston_surface_label(sws),
		      interval ? "throttled to" : "no longer throttled,",
		      (double)interval / SF_NSEC_PER_MSEC);
	sf_weston_protocols_send_throttled(sws, interval);
}

/* After input, held frame callbacks go back to their clients when
 * common says (sf-release.h): the focused window's at once, the others
 * a frame later. */
void
sf_weston_surface_release_unthrottled(struct sf_weston *sfw)
{
	struct sf_weston_surface *sws;
	sf_time_t now = sf_weston_now(sfw);

	wl_list_for_each(sws, &sfw->surfaces, link) {
		if (wl_list_empty(&sws->held_callbacks))
			continue;
		sf_time_t interval = sf_surface_get_frame_interval(sws->core,
								   now);
		if (interval > 0)
			continue;	/* background: still throttled */
		announce_throttle(sws, interval);
		sf_time_t due = now + sf_release_delay_after_input(
				sf_surface_in_focused_window(sws->core));
		/* More input (a moving pointer) must not push it back. */
		if (sws->input_release && sws->input_release <= due)
			continue;
		if (!sws->release_timer)
			sws->release_timer = wl_event_loop_add_timer(
				wl_display_get_event_loop(
					sws->surface->compositor->wl_display),
				handle_release_timer, sws);
		if (!sws->release_timer) {
			release_callbacks(sws, now);
			continue;
		}
		sws->input_release = due;
		wl_event_source_timer_update(sws->release_timer,
					     sf_support_timer_ms(due, now));
	}
}

/* Called after the commit reached the core: the new frame callbacks are
 * already on surface->frame_callback_list, where the next repaint would
 * answer them; a throttled surface gets them answered no sooner than one
 * interval after the last release. */
static void
throttle_frame_callbacks(struct sf_weston_surface *sws, sf_time_t now)
{
	struct weston_surface *surface = sws->surface;
	sf_time_t interval = sf_surface_get_frame_interval(sws->core, now);

	announce_throttle(sws, interval);
	if (interval == 0) {
		if (!wl_list_empty(&sws->held_callbacks))
			release_callbacks(sws, now);
		return;
	}
	if (wl_list_empty(&surface->frame_callback_list))
		return;
	sf_time_t due = sws->next_release + interval;
	if (due <= now && wl_list_empty(&sws->held_callbacks)) {
		sws->next_release = now;	/* answered by this repaint */
		return;
	}
	wl_list_insert_list(sws->held_callbacks.prev,
			    &surface->frame_callback_list);
	wl_list_init(&surface->frame_callback_list);
	sf_surface_count_throttled_frame(sws->core);
	if (!sws->release_timer)
		sws->release_timer = wl_event_loop_add_timer(
			wl_display_get_event_loop(
				surface->compositor->wl_display),
			handle_release_timer, sws);
	if (!sws->release_timer) {
		release_callbacks(sws, now);	/* never hold without one */
		return;
	}
	sf_time_t wait = due > now ? due - now : 0;
	wl_event_source_timer_update(sws->release_timer,
				     (int)(wait / SF_NSEC_PER_MSEC) + 1);
}

/* --- commits --- */

/* Maps the shm buffer when it is one to one with the surface and the
 * damage is small enough to be worth reading (the core's limit); the
 * caller ends access. */
static struct wl_shm_buffer *
map_damaged_pixels(struct sf_weston_surface *sws, int64_t area,
		   struct sf_pixels *px, sf_time_t now)
{
	struct weston_surface *surface = sws->surface;
	struct weston_buffer *buffer = surface->buffer_ref.buffer;
	const struct weston_buffer_viewport *vp = &surface->buffer_viewport;

	if (area <= 0 || area > sf_surface_pixel_read_limit(sws->core, now) ||
	    !buffer ||
	    !buffer->resource)
		return NULL;
	if (vp->buffer.transform != WL_OUTPUT_TRANSFORM_NORMAL ||
	    vp->buffer.scale != 1 ||
	    vp->buffer.src_width != wl_fixed_from_int(-1) ||
	    vp->surface.width != -1)
		return NULL;

	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer->resource);
	if (!shm)
		return NULL;
	switch (wl_shm_buffer_get_format(shm)) {
	case WL_SHM_FORMAT_ARGB8888:
	case WL_SHM_FORMAT_XRGB8888:
	case WL_SHM_FORMAT_ABGR8888:
	case WL_SHM_FORMAT_XBGR8888:
		px->bytes_per_pixel = 4;
		break;
	case WL_SHM_FORMAT_RGB565:
		px->bytes_per_pixel = 2;
		break;
	default:
		return NULL;
	}
	px->width = wl_shm_buffer_get_width(shm);
	px->height = wl_shm_buffer_get_height(shm);
	px->stride = wl_shm_buffer_get_stride(shm);
	wl_shm_buffer_begin_access(shm);
	px->data = wl_shm_buffer_get_data(shm);
	return shm;
}

/* Narrows the commit's damage to the tiles whose pixels changed, and
 * hashes them, so that whole-surface redraws of a clock or a cursor show
 * as the small ticks and blinks they are, and a redraw of the same
 * pixels as identical.  Leaves the commit as it is when the pixels
 * cannot be read. */
static void
refine_damage(struct sf_weston_surface *sws, int64_t area,
	      struct sf_commit_desc *commit, struct sf_box *changed,
	      uint32_t max_changed)
{
	struct sf_pixels px;
	struct wl_shm_buffer *shm = NULL;

	if (sf_surface_should_read_pixels(sws->core))
		shm = map_damaged_pixels(sws, area, &px, commit->time);

	if (!shm) {
		/* Unknown content: what the map remembers may be stale. */
		sf_tile_map_reset(&sws->tiles);
		return;
	}

	struct sf_tile_change change = {
		.boxes = changed,
		.max_boxes = max_changed,
	};
	bool ok = sf_tile_map_refine(&sws->tiles, &px, commit->boxes,
				     commit->n_boxes, &change);

	wl_shm_buffer_end_access(shm);
	if (!ok)
		return;
	if (change.n_boxes == 0) {
		commit->unchanged = true;
		return;
	}
	commit->boxes = changed;
	commit->n_boxes = change.n_boxes;
	commit->has_hash = true;
	commit->hash = change.hash;
	commit->ink = change.ink;
}

static void
apply_hints(struct sf_weston_surface *sws, sf_time_t now)
{
	struct sf_weston_pending_hints *p = &sws->pending;
	struct sf_weston_hints *c = &sws->current;

	if (p->rate_set) {
		c->rate_num = p->hints.rate_num;
		c->rate_den = p->hints.rate_den;
		sf_surface_set_content_rate(sws->core, c->rate_num,
					    c->rate_den ? c->rate_den : 1, now);
	}
	if (p->range_set) {
		c->min_mhz = p->hints.min_mhz;
		c->max_mhz = p->hints.max_mhz;
		sf_surface_set_rate_range(sws->core, c->min_mhz, c->max_mhz,
					  now);
	}
	if (p->priority_set) {
		c->priority = p->hints.priority;
		sws->priority.client = c->priority;
		sws->priority.client_set = !p->priority_withdrawn;
		p->priority_withdrawn = false;
		apply_priority(sws, now);
	}
	if (p->content_set) {
		c->content = p->hints.content;
		sf_surface_set_content_type(sws->core, c->content, now);
	}
	if (p->rate_set || p->range_set || p->priority_set || p->content_set)
		sf_weston_log(sws->sfw, "surface %u (%s): hints rate %u/%u "
			      "range %u-%u mHz priority %d content %s",
			      sf_surface_get_id(sws->core),
			      sf_weston_surface_label(sws), c->rate_num,
			      c->rate_den, c->min_mhz, c->max_mhz,
			      (int)c->priority,
			      sf_content_type_name(c->content));
	p->rate_set = p->range_set = p->priority_set = p->content_set = false;
}

/* Which output the surface is mostly on, and how much of it it covers. */
static void
update_placement(struct sf_weston_surface *sws, sf_time_t now)
{
	struct weston_surface *surface = sws->surface;
	struct weston_output *output = surface->output;
	struct sf_weston_output *swo = NULL;
	double fraction = 0;

	if (output && weston_surface_is_mapped(surface) &&
	    output_is_live(surface->compositor, output))
		swo = sf_weston_output_find(sws->sfw, output);
	if (swo) {
		double area = (double)output->width * output->height;
		double covered = 0;
		struct weston_view *view;
		wl_list_for_each(view, &surface->views, surface_link) {
			if (!weston_view_is_mapped(view))
				continue;
			pixman_region32_t r;
			pixman_region32_init(&r);
			pixman_region32_intersect(&r,
						  &view->transform.boundingbox,
						  &output->region);
			pixman_box32_t *e = pixman_region32_extents(&r);
			covered += (double)(e->x2 - e->x1) * (e->y2 - e->y1) *
				   view->alpha;
			pixman_region32_fini(&r);
		}
		fraction = area > 0 ? covered / area : 0;
		if (fraction > 1)
			fraction = 1;
	}
	if (swo == sws->output && fraction == sws->visible_fraction)
		return;
	sws->output = swo;
	sws->visible_fraction = fraction;
	sf_surface_set_output(sws->core, swo ? sf_weston_output_core(swo) :
					       NULL,
			      fraction, now);
}

void
sf_weston_surface_place_all(struct sf_weston *sfw)
{
	struct sf_weston_surface *sws;
	sf_time_t now = sf_weston_now(sfw);

	wl_list_for_each(sws, &sfw->surfaces, link)
		update_placement(sws, now);
}

static void
expect_damage(struct sf_weston_surface *sws)
{
	struct weston_view *view;

	wl_list_for_each(view, &sws->surface->views, surface_link)
		sf_weston_output_expect_damage(sws->sfw,
					       &view->transform.boundingbox);
}

/* The surface a part of a window is drawn relative to, up to the
 * window's toplevel: a subsurface's main surface, or, for a popup (its
 * view placed relative to its parent's view), its parent's; NULL for a
 * window's own surface. */
static struct weston_surface *
window_surface_of(struct weston_surface *surface)
{
	struct weston_surface *main_surface =
		weston_surface_get_main_surface(surface);
	struct weston_view *view;

	wl_list_for_each(view, &main_surface->views, surface_link) {
		struct weston_view *top = view;

		while (top->geometry.parent)
			top = top->geometry.parent;
		if (top != view) {
			main_surface =
				weston_surface_get_main_surface(top->surface);
			break;
		}
	}
	return main_surface != surface ? main_surface : NULL;
}

/* A subsurface or a popup is a part of its window (foot's decorations,
 * the page Firefox draws, a player's video, a menu): the core decides
 * for it as for the window (sf_surface_set_parent). */
static void
update_parent(struct sf_weston_surface *sws)
{
	struct weston_surface *window = window_surface_of(sws->surface);
	struct sf_weston_surface *main_sws =
		window ? sf_weston_surface_find(sws->sfw, window) : NULL;

	sf_surface_set_parent(sws->core, main_sws ? main_sws->core : NULL);
}

static void
surface_handle_commit(struct wl_listener *listener, void *data)
{
	struct sf_weston_surface *sws = wl_container_of(listener, sws,
							commit_listener);
	struct weston_surface *surface = sws->surface;
	sf_time_t now = sf_weston_now(sws->sfw);
	(void)data;

	update_label(sws, now);
	apply_hints(sws, now);
	sf_surface_set_size(sws->core, surface->width, surface->height);
	update_placement(sws, now);
	update_parent(sws);

	int n = 0;
	pixman_box32_t *rects = pixman_region32_rectangles(&surface->damage,
							   &n);
	struct sf_box boxes[MAX_BOXES];
	int64_t area = 0;
	uint32_t n_boxes;
	for (int i = 0; i < n; i++)
		area += (int64_t)(rects[i].x2 - rects[i].x1) *
			(rects[i].y2 - rects[i].y1);
	if (n <= MAX_BOXES) {
		for (int i = 0; i < n; i++)
			boxes[i] = (struct sf_box){ rects[i].x1, rects[i].y1,
						    rects[i].x2, rects[i].y2 };
		n_boxes = (uint32_t)n;
	} else {
		pixman_box32_t *e = pixman_region32_extents(&surface->damage);
		boxes[0] = (struct sf_box){ e->x1, e->y1, e->x2, e->y2 };
		n_boxes = 1;
	}
	struct sf_commit_desc commit = {
		.time = now,
		.boxes = boxes,
		.n_boxes = n_boxes,
	};
	struct sf_box changed[MAX_BOXES];
	if (n > 0)
		refine_damage(sws, area, &commit, changed, MAX_BOXES);
	if (n > 0)
		expect_damage(sws);
	sf_surface_commit(sws->core, &commit);
	throttle_frame_callbacks(sws, now);
	sf_weston_schedule_dispatch(sws->sfw);
}

static void
surface_destroy(struct sf_weston_surface *sws)
{
	struct wl_resource *cb, *next;

	wl_signal_emit(&sws->sfw->surface_destroy_signal, sws);
	/* Held callbacks die with their surface, as Weston's own do. */
	wl_resource_for_each_safe(cb, next, &sws->held_callbacks)
		wl_resource_destroy(cb);
	if (sws->release_timer)
		wl_event_source_remove(sws->release_timer);
	sf_surface_destroy(sws->core);
	sf_tile_map_finish(&sws->tiles);
	wl_list_remove(&sws->commit_listener.link);
	wl_list_remove(&sws->destroy_listener.link);
	wl_list_remove(&sws->link);
	free(sws);
}

static void
surface_handle_destroy(struct wl_listener *listener, void *data)
{
	struct sf_weston_surface *sws = wl_container_of(listener, sws,
							destroy_listener);
	(void)data;
	surface_destroy(sws);
}

void
sf_weston_surface_init_all(struct sf_weston *sfw)
{
	struct weston_view *view;

	/* Surfaces made before we were loaded (rare: modules load before
	 * clients connect) are tracked from their views. */
	wl_list_for_each(view, &sfw->compositor->view_list, link)
		sf_weston_surface_get(sfw, view->surface);
}

void
sf_weston_surface_finish_all(struct sf_weston *sfw)
{
	struct sf_weston_surface *sws, *next;

	wl_list_for_each_safe(sws, next, &sfw->surfaces, link) {
		/* Answer held callbacks so clients are not left waiting. */
		release_callbacks(sws, sf_weston_now(sfw));
		surface_destroy(sws);
	}
}
