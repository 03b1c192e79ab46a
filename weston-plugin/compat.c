/* SPDX-License-Identifier: MIT */
/*
 * The libweston version differences (compat.h says which and why).
 * Each function has one body per version range, chosen by
 * WESTON_VERSION_MAJOR; the ranges are the versions where libweston
 * changed what the function looks at.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "presentation-time-server-protocol.h"
#include "compat.h"

bool
sf_compat_surface_shell_label(struct weston_surface *surface, char *buf,
			      size_t len)
{
#if WESTON_VERSION_MAJOR >= 16
	if (!surface->label || !surface->label[0] || len == 0)
		return false;
	snprintf(buf, len, "%s", surface->label);
	return true;
#else
	return surface->get_label &&
	       surface->get_label(surface, buf, len) > 0;
#endif
}

/* --- the output's repaint hooks --- */

#if WESTON_VERSION_MAJOR >= 13

static void
assign_planes_trampoline(struct weston_output *output)
{
	struct sf_compat_frame frame = { NULL, NULL };

	sf_weston_output_handle_assign_planes(output, &frame);
}

static int
repaint_trampoline(struct weston_output *output)
{
	struct sf_compat_frame frame = { NULL, NULL };

	return sf_weston_output_handle_repaint(output, &frame);
}

#else

static void
assign_planes_trampoline(struct weston_output *output, void *repaint_data)
{
	struct sf_compat_frame frame = { NULL, repaint_data };

	sf_weston_output_handle_assign_planes(output, &frame);
}

static int
repaint_trampoline(struct weston_output *output, pixman_region32_t *damage,
		   void *repaint_data)
{
	struct sf_compat_frame frame = { damage, repaint_data };

	return sf_weston_output_handle_repaint(output, &frame);
}

#endif

void
sf_compat_output_wrap(struct weston_output *output,
		      struct sf_compat_output_hooks *saved)
{
	saved->repaint = output->repaint;
	output->repaint = repaint_trampoline;
	saved->assign_planes = output->assign_planes;
	/* From 13 on, only libweston can put paint nodes on the primary
	 * plane: a backend without assign_planes keeps having none. */
	saved->assign_planes_wrapped = WESTON_VERSION_MAJOR < 13 ||
				       output->assign_planes;
	if (saved->assign_planes_wrapped)
		output->assign_planes = assign_planes_trampoline;
}

void
sf_compat_output_unwrap(struct weston_output *output,
			const struct sf_compat_output_hooks *saved)
{
	if (output->repaint == repaint_trampoline)
		output->repaint = saved->repaint;
	if (saved->assign_planes_wrapped &&
	    output->assign_planes == assign_planes_trampoline)
		output->assign_planes = saved->assign_planes;
}

void
sf_compat_backend_assign_planes(const struct sf_compat_output_hooks *saved,
				struct weston_output *output,
				const struct sf_compat_frame *frame)
{
#if WESTON_VERSION_MAJOR >= 13
	(void)frame;
	if (saved->assign_planes)
		saved->assign_planes(output);
#else
	struct weston_view *view;

	if (saved->assign_planes) {
		saved->assign_planes(output, frame->repaint_data);
		return;
	}
	/* What libweston 10 does for a backend without planes: every view
	 * is on the primary plane already, and presented through the
	 * renderer. */
	wl_list_for_each(view, &output->compositor->view_list, link)
		if (view->output_mask & (1u << output->id))
			view->psf_flags = 0;
#endif
}

int
sf_compat_backend_repaint(const struct sf_compat_output_hooks *saved,
			  struct weston_output *output,
			  const struct sf_compat_frame *frame)
{
#if WESTON_VERSION_MAJOR >= 13
	(void)frame;
	return saved->repaint(output);
#else
	return saved->repaint(output, frame->damage, frame->repaint_data);
#endif
}

/* --- what a repaint would paint --- */

uintptr_t
sf_compat_view_plane_key(struct weston_view *view,
			 struct weston_output *output)
{
	(void)output;
#if WESTON_VERSION_MAJOR >= 13
	(void)view;
	return 0;
#else
	return (uintptr_t)view->plane;
#endif
}

bool
sf_compat_view_on_overlay_plane(struct weston_view *view,
				struct weston_output *output)
{
#if WESTON_VERSION_MAJOR >= 13
	(void)view;
	(void)output;
	return false;
#else
	return view->plane != &output->compositor->primary_plane;
#endif
}

void
sf_compat_output_add_unexplained_damage(struct weston_output *output,
					pixman_region32_t *region)
{
#if WESTON_VERSION_MAJOR >= 13
	if (output->full_repaint_needed)
		pixman_region32_union(region, region, &output->region);
#else
	struct weston_plane *primary = &output->compositor->primary_plane;
	pixman_region32_t seen;

	pixman_region32_init(&seen);
	pixman_region32_intersect(&seen, &primary->damage, &output->region);
	pixman_region32_subtract(&seen, &seen, &primary->clip);
	pixman_region32_union(region, region, &seen);
	pixman_region32_fini(&seen);
#endif
}

#if WESTON_VERSION_MAJOR >= 13
/* Exported by libweston for its renderers, declared only in its
 * uninstalled output-capture.h. */
bool
weston_output_has_renderer_capture_tasks(struct weston_output *output);
#endif

bool
sf_compat_output_capture_pending(struct weston_output *output)
{
#if WESTON_VERSION_MAJOR >= 13
	return weston_output_has_renderer_capture_tasks(output);
#else
	/* The screenshooter (and a recorder) listens for the renderer's
	 * next frame; libweston 10's DRM backend reads a listener there
	 * as a capture pending, too. */
	return !wl_list_empty(&output->frame_signal.listener_list);
#endif
}

bool
sf_compat_mode_switch_in_repaint_safe(void)
{
	return WESTON_VERSION_MAJOR < 13;
}

void
sf_compat_output_damage_all(struct weston_output *output)
{
#if WESTON_VERSION_MAJOR >= 13
	/* What libweston's own weston_output_damage() does, which 13 and
	 * later no longer declare in their installed headers. */
	output->full_repaint_needed = true;
	weston_output_schedule_repaint(output);
#else
	struct weston_plane *primary = &output->compositor->primary_plane;

	pixman_region32_union(&primary->damage, &primary->damage,
			      &output->region);
#endif
}

/* --- a held frame --- */

/* The start of libweston's struct weston_presentation_feedback
 * (compositor.c, not installed): the client's feedback object and the
 * link by which libweston keeps it on a surface's and then an output's
 * feedback_list; 14 put the surface between them.  Only read after
 * feedback_entry_readable() checked the entry. */
struct sf_libweston_feedback {
	struct wl_resource *resource;
#if WESTON_VERSION_MAJOR >= 14
	struct weston_surface *surface;
#endif
	struct wl_list link;
};

/* Whether the entry is what sf_libweston_feedback takes it for: a
 * wp_presentation_feedback resource whose user data is the entry
 * itself, as libweston sets it.  A libweston laid out otherwise is
 * never written through. */
static bool
feedback_list_readable(struct wl_list *list)
{
	struct sf_libweston_feedback *f;

	wl_list_for_each(f, list, link) {
		if (!f->resource || wl_resource_get_user_data(f->resource) != f ||
		    strcmp(wl_resource_get_class(f->resource),
			   "wp_presentation_feedback") != 0)
			return false;
	}
	return true;
}

bool
sf_compat_held_feedback_readable(struct weston_output *output)
{
#if WESTON_VERSION_MAJOR >= 13
	struct weston_view *view;

	wl_list_for_each(view, &output->compositor->view_list, link) {
		if (!(view->output_mask & (1u << output->id)))
			continue;
		if (!feedback_list_readable(&view->surface->feedback_list))
			return false;
	}
	return feedback_list_readable(&output->feedback_list);
#else
	return feedback_list_readable(&output->feedback_list);
#endif
}

void
sf_compat_discard_held_feedback(struct weston_output *output)
{
	struct sf_libweston_feedback *f, *next;

	wl_list_for_each_safe(f, next, &output->feedback_list, link) {
		wp_presentation_feedback_send_discarded(f->resource);
		/* libweston's destructor unlinks and frees the entry. */
		wl_resource_destroy(f->resource);
	}
}

void
sf_compat_held_frame_keep(struct weston_output *output,
			  struct sf_compat_held_state *state)
{
#if WESTON_VERSION_MAJOR >= 15
	state->paint_node_changes = output->paint_node_changes;
#else
	(void)output;
	state->paint_node_changes = 0;
#endif
}

void
sf_compat_held_frame_restore(struct weston_output *output,
			     const struct sf_compat_held_state *state)
{
#if WESTON_VERSION_MAJOR >= 15
	output->paint_node_changes |= state->paint_node_changes;
#else
	(void)output;
	(void)state;
#endif
}
