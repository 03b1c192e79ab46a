/* SPDX-License-Identifier: MIT */
/*
 * Outputs: each weston_output becomes an sf_output of the core.  Its
 * assign_planes and repaint hooks are wrapped so the core can hold a
 * repaint whose damage is only blinks, ticks and commits that changed
 * nothing; the core's mode, DPMS, backlight, clock and output power
 * requests are carried out here.
 *
 * An output stillframe powers off (unneeded-outputs, stillframectl
 * output NAME off) stays enabled, so the layout does not change: it is
 * put at DPMS off, kept there when Weston wakes the other outputs, and
 * every repaint of it is held.
 *
 * The decision is taken in assign_planes, the first backend hook of
 * Weston's output repaint, because a KMS backend builds the cycle's
 * plane state there and commits it with the frame: a held frame must
 * leave the planes untouched, or the backend would flip planes without
 * the frame (and finish that frame a second time).  A held frame is
 * finished here instead, exactly as a backend finishes a frame it
 * showed, so Weston's repaint loop stays consistent.
 *
 * A held frame answers the presentation feedback it carries with
 * "discarded": see finish_held_frame.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libweston/zalloc.h>

#include "compat.h"
#include "sf-modes.h"
#include "sf-output-policy.h"
#include "sf-weston.h"

struct sf_weston_output {
	struct sf_weston *sfw;
	struct weston_output *output;
	struct sf_output *core;
	struct wl_list link;		/* sf_weston.outputs */

	/* The backend's hooks, called when the core says paint. */
	struct sf_compat_output_hooks backend;
	struct weston_mode **modes;	/* index as the core's modes */
	size_t n_modes;
	bool manage_refresh;		/* may change the mode */
	bool dpms_missing_logged;
	bool dying;			/* disabled: touch nothing */
	bool powered_off;		/* by set_output_power */
	bool blanked;			/* by set_dpms: standby or off */

	uint32_t force;			/* enum sf_repaint_force, pending */
	uint64_t painted_views;		/* view signature at the last paint */
	/* This cycle's decision, taken in assign_planes (or in repaint
	 * when Weston skips assign_planes, as with disable_planes). */
	bool decided;
	bool hold;
	/* Where tracked surfaces committed since the last paint (global
	 * coordinates): damage anywhere else is not ours to hold. */
	pixman_region32_t expected;
	/* A held frame is finished a refresh after it, as a backend's
	 * vblank finishes one it showed (finish_held_frame). */
	struct wl_event_source *finish_timer;
	bool finish_pending;
	struct sf_compat_held_state held_state;
	/* A mode switch waits for the output's next repaint: see
	 * repaint_for_mode_switch. */
	struct wl_event_source *mode_repaint_timer;
	bool mode_repaint_due;
	/* A mode switch asked for inside the repaint hooks
	 * (sfw->in_repaint_hook), carried out right after the repaint. */
	struct wl_event_source *mode_idle;
	size_t deferred_mode;

	struct wl_listener destroy_listener;
};

struct sf_output *
sf_weston_output_core(struct sf_weston_output *swo)
{
	return swo->core;
}

struct sf_weston_output *
sf_weston_output_find(struct sf_weston *sfw, struct weston_output *output)
{
	struct sf_weston_output *swo;

	wl_list_for_each(swo, &sfw->outputs, link)
		if (swo->output == output)
			return swo;
	return NULL;
}

/* The output behind a backend hook we wrapped (compat.c calls us with
 * Weston's output only). */
static struct sf_weston_output *
wrapped_output(struct weston_output *output)
{
	struct sf_weston *sfw = sf_weston_from_compositor(output->compositor);

	return sfw ? sf_weston_output_find(sfw, output) : NULL;
}

void
sf_weston_output_force_all(struct sf_weston *sfw, uint32_t force)
{
	struct sf_weston_output *swo;

	wl_list_for_each(swo, &sfw->outputs, link)
		swo->force |= force;
}

void
sf_weston_output_set_inhibited(struct sf_weston *sfw, bool inhibited)
{
	struct sf_weston_output *swo;
	sf_time_t now = sf_weston_now(sfw);

	wl_list_for_each(swo, &sfw->outputs, link) {
		if (inhibited)
			sf_output_inhibit(swo->core, now);
		else
			sf_output_uninhibit(swo->core, now);
	}
}

void
sf_weston_output_expect_damage(struct sf_weston *sfw,
			       pixman_region32_t *global)
{
	struct sf_weston_output *swo;

	wl_list_for_each(swo, &sfw->outputs, link)
		pixman_region32_union(&swo->expected, &swo->expected, global);
}

static bool
output_is_internal(struct weston_output *output)
{
	struct weston_head *head = NULL;

	while ((head = weston_output_iterate_heads(output, head)))
		if (head->connection_internal)
			return true;
	return false;
}

/* --- repaint --- */

/* A cheap fingerprint of what is stacked on the output, where, and on
 * which plane: when it changes, a view moved, was mapped, unmapped or
 * restacked, or the pointer moved, and the repaint must run.  Taken
 * after Weston rebuilt the view list for this repaint. */
static uint64_t
view_signature(struct weston_output *output)
{
	struct weston_compositor *c = output->compositor;
	struct weston_view *view;
	uint64_t h = 0xcbf29ce484222325ull;

#define MIX(v)                                                                 \
	do {                                                                   \
		h ^= (uint64_t)(v);                                            \
		h *= 0x100000001b3ull;                                         \
	} while (0)
	wl_list_for_each(view, &c->view_list, link) {
		if (!(view->output_mask & (1u << output->id)))
			continue;
		pixman_box32_t *e = pixman_region32_extents(
			&view->transform.boundingbox);
		MIX((uintptr_t)view);
		MIX((uintptr_t)view->surface);
		MIX(sf_compat_view_plane_key(view, output));
		MIX((uint32_t)e->x1);
		MIX((uint32_t)e->y1);
		MIX((uint32_t)e->x2);
		MIX((uint32_t)e->y2);
		MIX((uint32_t)(view->alpha * 65535.0f));
	}
#undef MIX
	return h;
}

/*
 * What the adapter sees that always paints, before Weston gathers the
 * cycle's damage: damage on the primary plane that no tracked commit
 * explains (a view moved away, a shell redrew the output), damage on a
 * surface that was not committed (a shell's weston_surface_damage), a
 * damaged surface on another plane (the plane's buffer would change),
 * running compositor animations (fades, zoom), which need frames, and
 * a screen capture waiting for the next frame.
 */
static uint32_t
pending_damage_force(struct sf_weston_output *swo)
{
	struct weston_output *output = swo->output;
	struct weston_compositor *c = output->compositor;
	struct weston_view *view;
	pixman_region32_t unseen;
	uint32_t force = 0;

	if (!wl_list_empty(&output->animation_list) ||
	    sf_compat_output_capture_pending(output))
		force |= SF_FORCE_OTHER;
	pixman_region32_init(&unseen);
	sf_compat_output_add_unexplained_damage(output, &unseen);
	wl_list_for_each(view, &c->view_list, link) {
		if (!(view->output_mask & (1u << output->id)) ||
		    !pixman_region32_not_empty(&view->surface->damage))
			continue;
		if (sf_compat_view_on_overlay_plane(view, output))
			force |= SF_FORCE_PLANE;
		pixman_region32_union(&unseen, &unseen,
				      &view->transform.boundingbox);
	}
	pixman_region32_subtract(&unseen, &unseen, &swo->expected);
	if (pixman_region32_not_empty(&unseen))
		force |= SF_FORCE_OTHER;	/* damage we did not see */
	pixman_region32_fini(&unseen);
	return force;
}

static void
decide(struct sf_weston_output *swo)
{
	struct weston_output *output = swo->output;
	struct sf_weston *sfw = swo->sfw;
	uint32_t force = swo->force | pending_damage_force(swo);
	uint64_t views = view_signature(output);

	/* Called from the repaint hooks only: a mode switch the core asks
	 * for here may have to wait (core_set_mode).  Placing the surfaces
	 * is part of it: a window that holds an idle inhibitor, placed on
	 * an output in standby, lifts the output to low-refresh at once,
	 * and the new window's vote for the native rate switches its mode
	 * right there. */
	sfw->in_repaint_hook = true;
	if (views != swo->painted_views) {
		force |= SF_FORCE_GEOMETRY;
		sf_weston_surface_place_all(sfw);
	}

	sf_time_t now = sf_weston_now(sfw), deadline;
	enum sf_repaint_decision d =
		sf_output_repaint(swo->core, force, now, &deadline);
	sfw->in_repaint_hook = false;
	sf_weston_schedule_dispatch(sfw);

	swo->decided = true;
	swo->hold = d == SF_REPAINT_DEFER;
	if (swo->hold)
		sf_weston_log(sfw, "output %s: repaint held until %.3f s",
			      output->name, (double)(deadline - now) /
						    SF_NSEC_PER_SEC);
}

void
sf_weston_output_handle_assign_planes(struct weston_output *output,
				      const struct sf_compat_frame *frame)
{
	struct sf_weston_output *swo = wrapped_output(output);

	if (!swo)	/* cannot happen: unwrapped before we go */
		return;
	decide(swo);
	if (swo->hold)
		return;		/* the planes stay as they are on screen */
	sf_compat_backend_assign_planes(&swo->backend, output, frame);
	/* Planes are part of what was painted. */
	swo->painted_views = view_signature(output);
}

/*
 * A held frame is finished here, a refresh after libweston's repaint
 * returned, exactly as a backend finishes a frame it showed.
 *
 * By then libweston has moved the presentation feedback of every
 * surface "repainted" this cycle onto output->feedback_list, and
 * answers the list when a frame is finished with a timestamp:
 * "presented", which a held frame was not (and a frame finished without
 * one leaves the list for the next finish that carries no presentation,
 * the INVALID flag of a backend's start_repaint_loop, which aborts
 * libweston on a non-empty list).  The list is answered here first
 * instead, "discarded", which is what
 * the protocol says of a content update that was not shown, and what
 * libweston itself answers for content replaced before it was shown.
 * The other choice, keeping the feedback until the next painted frame
 * and presenting it then, was rejected: a held frame may wait up to the
 * hold's deadline (30 s), a client at 60 fps would pile up hundreds of
 * pending feedbacks (and whatever it keeps for each frame until its
 * feedback comes) and then get them all "presented" at one vblank,
 * which breaks the frame timing it derives from them.  "Discarded"
 * within the frame is prompt, keeps the client's last real vblank as
 * its timebase, and costs it nothing.  The content of the held commits
 * is painted with the next real frame, and the commit that causes that
 * frame gets its own feedback presented.
 */
static int
finish_held_frame(void *data)
{
	struct sf_weston_output *swo = data;

	swo->finish_pending = false;
	sf_compat_discard_held_feedback(swo->output);
	sf_compat_held_frame_restore(swo->output, &swo->held_state);
	/* Finished a refresh after the repaint, with a timestamp, as a
	 * backend's vblank finishes a frame it showed, so that the next
	 * repaint comes when it would have on stock.  libweston answers
	 * the frame callbacks of every surface it "repainted" in a held
	 * frame too: finished at once and without a timestamp, it
	 * repainted again at once for the next commit, and a client that
	 * draws on frame callbacks (Firefox, GTK) was answered as fast as
	 * it committed, a thousand empty commits a second where stock
	 * paces it at the refresh.  On a dark output too: Weston still runs
	 * its animations there (the shell's fade on wake), and an animation
	 * only moves on with the frame time a timestamp sets.  The feedback
	 * was answered above, so the stamp presents nothing; the held
	 * damage stays where libweston keeps it, since no backend took
	 * it. */
	struct timespec now;

	clock_gettime(swo->output->compositor->presentation_clock, &now);
	weston_output_finish_frame(swo->output, &now, 0);
	return 0;
}

/* One refresh at refresh_mhz, in whole milliseconds (rounded up, so a
 * timer of that length never fires before the refresh is over); a mode
 * without a rate counts as 60 Hz. */
static int
frame_ms_of(int32_t refresh_mhz)
{
	return refresh_mhz > 0 ? (1000000 + refresh_mhz - 1) / refresh_mhz : 17;
}

static int
refresh_period_ms(const struct weston_output *output)
{
	return frame_ms_of(output->current_mode ?
			   output->current_mode->refresh : 0);
}

int
sf_weston_output_handle_repaint(struct weston_output *output,
				const struct sf_compat_frame *frame)
{
	struct sf_weston_output *swo = wrapped_output(output);

	if (!swo)	/* cannot happen: unwrapped before we go */
		return 0;
	/* Weston skipped assign_planes (disable_planes, or a backend
	 * without planes): no plane state was built, so holding the frame
	 * here is as safe. */
	bool planes_skipped = !swo->decided;
	if (planes_skipped)
		decide(swo);
	swo->decided = false;

	if (swo->hold && !sf_compat_held_feedback_readable(output)) {
		/* Never leave feedback on the list of a frame finished
		 * without a timestamp: paint it instead (the planes were
		 * not assigned; the backend copes with that as it does
		 * with disable_planes). */
		if (!swo->sfw->feedback_layout_logged)
			weston_log("stillframe: this libweston's presentation "
				   "feedback is not laid out as stillframe "
				   "expects; frames with feedback are never "
				   "held\n");
		swo->sfw->feedback_layout_logged = true;
		swo->hold = false;
	}
	if (swo->hold && !swo->finish_pending) {
		if (!swo->finish_timer)
			swo->finish_timer = wl_event_loop_add_timer(
				wl_display_get_event_loop(
					output->compositor->wl_display),
				finish_held_frame, swo);
		if (swo->finish_timer) {
			sf_compat_held_frame_keep(output, &swo->held_state);
			swo->finish_pending = true;
			wl_event_source_timer_update(swo->finish_timer,
						     refresh_period_ms(output));
			return 0;
		}
		/* Out of memory: paint rather than stall the loop.  The
		 * planes were not assigned; the backend copes with that
		 * as it does with disable_planes. */
	}
	swo->hold = false;
	swo->force = 0;
	swo->mode_repaint_due = false;	/* this commit carries the mode */
	if (planes_skipped)
		swo->painted_views = view_signature(output);
	pixman_region32_clear(&swo->expected);
	return sf_compat_backend_repaint(&swo->backend, output, frame);
}

/* --- the core's requests --- */

static struct sf_weston_output *
from_core(struct sf_output *o)
{
	return sf_output_get_user_data(o);
}

/* A KMS backend carries out a mode switch or a DPMS-on in the commit
 * of the output's next repaint (Weston's DRM backend only marks its
 * state invalid or its DPMS pending): that repaint must come, and must
 * not be held, or the panel keeps its old mode or stays dark until the
 * next change nobody holds. */
static void
repaint_for_backend(struct sf_weston_output *swo)
{
	swo->force |= SF_FORCE_OTHER;
	weston_output_schedule_repaint(swo->output);
}

static int
mode_repaint_timer_handler(void *data)
{
	struct sf_weston_output *swo = data;

	if (swo->mode_repaint_due)
		weston_output_schedule_repaint(swo->output);
	swo->mode_repaint_due = false;
	return 0;
}

/* A mode switch, too, takes effect with the next repaint, but that one
 * need not be asked for at once.  Most switches follow input (the native
 * refresh back at the user's first key), and the client's answer to that
 * input is a few milliseconds away: a repaint asked for now would take
 * the frame and put the answer one frame later than without stillframe.
 * The mode waits one frame of the new mode for another repaint to carry
 * it, and asks for one itself only if none came. */
static void
repaint_for_mode_switch(struct sf_weston_output *swo, int32_t refresh_mhz)
{
	struct wl_event_loop *loop =
		wl_display_get_event_loop(swo->output->compositor->wl_display);

	swo->force |= SF_FORCE_OTHER;
	if (!swo->mode_repaint_timer)
		swo->mode_repaint_timer = wl_event_loop_add_timer(
			loop, mode_repaint_timer_handler, swo);
	if (!swo->mode_repaint_timer) {
		weston_output_schedule_repaint(swo->output);
		return;
	}
	swo->mode_repaint_due = true;
	wl_event_source_timer_update(swo->mode_repaint_timer,
				     frame_ms_of(refresh_mhz));
}

static bool
apply_mode(struct sf_weston_output *swo, size_t index)
{
	struct weston_output *output = swo->output;
	struct weston_mode *mode = swo->modes[index];
	int ret;

	if (mode == output->current_mode)
		return true;
	if (mode == output->native_mode && output->original_mode)
		ret = weston_output_mode_switch_to_native(output);
	else
		ret = weston_output_mode_switch_to_temporary(
			output, mode, output->current_scale);
	if (ret != 0 || output->current_mode != mode)
		return false;
	repaint_for_mode_switch(swo, mode->refresh);
	return true;
}

/* The mode index of what the output runs, for the core. */
static size_t
running_mode(const struct sf_weston_output *swo)
{
	for (size_t i = 0; i < swo->n_modes; i++)
		if (swo->modes[i] == swo->output->current_mode)
			return i;
	return swo->n_modes;	/* not one of ours: the core ignores it */
}

static void
mode_idle_handler(void *data)
{
	struct sf_weston_output *swo = data;

	swo->mode_idle = NULL;
	if (swo->dying || apply_mode(swo, swo->deferred_mode))
		return;
	sf_output_mode_switch_failed(swo->core, running_mode(swo),
				     sf_weston_now(swo->sfw));
}

static bool
core_set_mode(void *data, struct sf_output *o, size_t index)
{
	struct sf_weston_output *swo = from_core(o);
	struct weston_output *output = swo->output;
	(void)data;

	if (swo->dying)
		return true;
	if (index >= swo->n_modes || !output->switch_mode)
		return false;
	if (!swo->sfw->in_repaint_hook ||
	    sf_compat_mode_switch_in_repaint_safe())
		return apply_mode(swo, index);
	/* libweston 13 and later rebuild the paint nodes a mode switch
	 * dirties only at the next repaint, and abort on them in this
	 * one: the switch is carried out as soon as this repaint is over,
	 * and if it fails then, the core is told. */
	swo->deferred_mode = index;
	if (!swo->mode_idle)
		swo->mode_idle = wl_event_loop_add_idle(
			wl_display_get_event_loop(output->compositor->wl_display),
			mode_idle_handler, swo);
	return swo->mode_idle != NULL;
}

static bool
all_other_outputs_off(struct sf_weston_output *self)
{
	struct sf_weston_output *swo;

	wl_list_for_each(swo, &self->sfw->outputs, link)
		if (swo != self && !swo->powered_off &&
		    sf_output_get_state(swo->core) < SF_STATE_DPMS_OFF)
			return false;
	return true;
}

static bool
dpms_available(struct sf_weston_output *swo)
{
	if (swo->output->set_dpms)
		return true;
	if (!swo->dpms_missing_logged)
		weston_log("stillframe: output %s: the backend has no DPMS "
			   "control; it is never blanked or powered off\n",
			   swo->output->name);
	swo->dpms_missing_logged = true;
	return false;
}

static bool
core_set_output_power(void *data, struct sf_output *o, bool on)
{
	struct sf_weston_output *swo = from_core(o);
	struct weston_output *output = swo->output;
	struct weston_compositor *c = output->compositor;
	(void)data;

	if (swo->dying)
		return true;
	if (!dpms_available(swo))
		return false;
	swo->powered_off = !on;
	if (!on) {
		output->set_dpms(output, WESTON_DPMS_OFF);
		return true;
	}
	if (c->state == WESTON_COMPOSITOR_SLEEPING)
		weston_compositor_wake(c);
	else
		output->set_dpms(output, WESTON_DPMS_ON);
	/* What changed while it was off is all in libweston's damage,
	 * but a full repaint is what a lit output needs. */
	sf_compat_output_damage_all(output);
	repaint_for_backend(swo);
	return true;
}

/* Weston lights every output when it wakes from its own sleep (idle-time,
 * or ours: the last output blanked); the ones we keep off go dark again
 * before their next frame. */
static void
compositor_handle_wake(struct wl_listener *listener, void *data)
{
	struct sf_weston *sfw = wl_container_of(listener, sfw, wake_listener);
	struct sf_weston_output *swo;
	(void)data;

	wl_list_for_each(swo, &sfw->outputs, link) {
		if (!swo->powered_off)
			repaint_for_backend(swo);	/* its DPMS-on commit */
		else if (swo->output->set_dpms)
			swo->output->set_dpms(swo->output, WESTON_DPMS_OFF);
	}
}

static bool
core_set_dpms(void *data, struct sf_output *o, enum sf_dpms_level level)
{
	struct sf_weston_output *swo = from_core(o);
	struct weston_output *output = swo->output;
	struct weston_compositor *c = output->compositor;
	(void)data;

	if (swo->dying)
		return true;
	if (!dpms_available(swo))
		return false;
	swo->blanked = level != SF_DPMS_ON;
	switch (level) {
	case SF_DPMS_ON:
		/* Coming back from weston_compositor_sleep(): Weston's own
		 * wake path turns every output on and tells the shell. */
		if (c->state == WESTON_COMPOSITOR_SLEEPING)
			weston_compositor_wake(c);	/* repaints: see wake */
		else
			output->set_dpms(output, WESTON_DPMS_ON);
		repaint_for_backend(swo);
		break;
	case SF_DPMS_STANDBY:
		/* Weston went idle on its own idle-time (the shell fades,
		 * locks and sleeps): the outputs are or soon will be off,
		 * and standby would light them again. */
		if (c->state != WESTON_COMPOSITOR_ACTIVE) {
			sf_weston_log(swo->sfw, "output %s: Weston is idle "
				      "(idle-time): DPMS left to it",
				      output->name);
			break;
		}
		output->set_dpms(output, WESTON_DPMS_STANDBY);
		break;
	case SF_DPMS_OFF:
		/* The last output to go off puts the compositor to sleep,
		 * so that any input wakes everything through Weston. */
		if (c->state == WESTON_COMPOSITOR_ACTIVE &&
		    all_other_outputs_off(swo))
			weston_compositor_sleep(c);
		else
			output->set_dpms(output, WESTON_DPMS_OFF);
		break;
	}
	return true;
}

/* The backlight is the internal panel's; it dims with the outputs
 * stillframe drives (outputs= in [stillframe]). */
static bool
core_set_backlight(void *data, struct sf_output *o, int32_t percent)
{
	struct sf_weston *sfw = data;
	struct sf_weston_output *swo = from_core(o);

	return sf_support_set_backlight(sfw->platform, o,
					swo && swo->manage_refresh, percent);
}

static bool
core_set_reclock(void *data, enum sf_reclock_level level)
{
	struct sf_weston *sfw = data;

	return sf_support_set_reclock(sfw->platform, level);
}

static void
core_schedule_repaint(void *data, struct sf_output *o)
{
	(void)data;
	if (!from_core(o)->dying)
		weston_output_schedule_repaint(from_core(o)->output);
}

const struct sf_core_interface sf_weston_core_interface = {
	.log = sf_weston_core_log,
	.set_mode = core_set_mode,
	.set_dpms = core_set_dpms,
	.set_backlight = core_set_backlight,
	.set_reclock = core_set_reclock,
	.schedule_repaint = core_schedule_repaint,
	.set_output_power = core_set_output_power,
};

/* --- lifecycle --- */

static void
output_destroy(struct sf_weston_output *swo)
{
	struct weston_output *output = swo->output;

	if (swo->finish_timer)
		wl_event_source_remove(swo->finish_timer);
	if (swo->mode_idle)
		wl_event_source_remove(swo->mode_idle);
	char name[32];

	snprintf(name, sizeof(name), "%s", sf_output_get_name(swo->core));
	/* Surfaces on it are placed again at their next commit; a new
	 * output at the same address must not look like this one. */
	struct sf_weston_surface *sws;
	wl_list_for_each(sws, &swo->sfw->surfaces, link) {
		if (sws->output == swo) {
			sws->output = NULL;
			sws->visible_fraction = 0;
		}
	}
	/* Restores the user's mode and DPMS through the hooks above. */
	sf_output_destroy(swo->core);
	/* The restored mode must not wait for a timer that is going. */
	if (swo->mode_repaint_due && !swo->dying)
		weston_output_schedule_repaint(output);
	if (swo->mode_repaint_timer)
		wl_event_source_remove(swo->mode_repaint_timer);
	sf_platform_forget_output(swo->sfw->platform, name);
	sf_compat_output_unwrap(output, &swo->backend);
	pixman_region32_fini(&swo->expected);
	wl_list_remove(&swo->destroy_listener.link);
	wl_list_remove(&swo->link);
	free(swo->modes);
	free(swo);
}

static void
output_handle_destroy(struct wl_listener *listener, void *data)
{
	struct sf_weston_output *swo = wl_container_of(listener, swo,
						       destroy_listener);
	(void)data;
	/* The output is going away: nothing to restore on it. */
	swo->dying = true;
	output_destroy(swo);
}

/* The core's modes from the output's (sf-modes.h decides which, and
 * which are seamless); swo->modes keeps the weston_mode of each. */
static bool
build_modes(struct sf_weston_output *swo, struct sf_mode **out,
	    size_t *current)
{
	struct weston_output *output = swo->output;
	struct weston_mode *mode;
	size_t n = 0, at = 0, cur = SIZE_MAX;

	wl_list_for_each(mode, &output->mode_list, link)
		n++;
	/* The current mode is one of the list; should a backend keep it
	 * apart, it goes at the end. */
	n++;
	struct weston_mode **all = calloc(n, sizeof(*all));
	struct sf_mode_report *reports = calloc(n, sizeof(*reports));
	size_t *map = calloc(n, sizeof(*map));
	swo->modes = calloc(n, sizeof(*swo->modes));
	*out = calloc(n, sizeof(**out));
	bool ok = all && reports && map && swo->modes && *out;
	if (ok) {
		wl_list_for_each(mode, &output->mode_list, link) {
			if (mode == output->current_mode)
				cur = at;
			all[at++] = mode;
		}
		if (cur == SIZE_MAX) {
			cur = at;
			all[at++] = output->current_mode;
		}
		for (size_t i = 0; i < at; i++)
			/* weston_mode carries no timings: what a switch
			 * does is known from the sizes alone.  Any mode
			 * is settable through the backend's switch_mode
			 * (an output without one is not managed). */
			reports[i] = (struct sf_mode_report){
				.width = all[i]->width,
				.height = all[i]->height,
				.refresh_mhz = (uint32_t)all[i]->refresh,
				.preferred = all[i] == output->native_mode,
				.settable = true,
			};
		swo->n_modes = sf_modes_build(reports, at, cur,
					      swo->manage_refresh, *out, map,
					      current);
		for (size_t i = 0; i < swo->n_modes; i++)
			swo->modes[i] = all[map[i]];
	}
	free(all);
	free(reports);
	free(map);
	return ok;
}

/* Whether the output's heads were all connected when the plugin
 * started; each such head counts once. */
static bool
output_is_hotplugged(struct sf_weston *sfw, struct weston_output *output)
{
	struct weston_head *head = NULL;
	bool hotplugged = false;

	while ((head = weston_output_iterate_heads(output, head))) {
		char (*name)[32];
		bool found = false;

		wl_array_for_each(name, &sfw->startup_heads) {
			if ((*name)[0] && strcmp(*name, head->name) == 0) {
				(*name)[0] = '\0';
				found = true;
			}
		}
		if (!found)
			hotplugged = true;
	}
	return hotplugged;
}

static void
output_add(struct sf_weston *sfw, struct weston_output *output)
{
	struct sf_weston_output *swo;
	struct sf_mode *modes = NULL;
	size_t current;

	if (!output->enabled || !output->current_mode ||
	    sf_weston_output_find(sfw, output))
		return;
	swo = zalloc(sizeof(*swo));
	if (!swo)
		goto oom;
	swo->sfw = sfw;
	swo->output = output;
	bool internal = output_is_internal(output);
	bool selected;
	swo->manage_refresh = sf_output_policy_managed(
		sfw->core, output->name, internal, output->switch_mode != NULL,
		&selected);
	if (selected && !output->switch_mode)
		weston_log("stillframe: output %s: the backend cannot switch "
			   "modes; its refresh rate stays as it is\n",
			   output->name);
	if (!build_modes(swo, &modes, &current))
		goto oom;
	swo->core = sf_output_create(sfw->core, output->name, modes,
				     swo->n_modes, current,
				     sf_weston_now(sfw));
	free(modes);
	modes = NULL;
	if (!swo->core)
		goto oom;
	sf_output_set_user_data(swo->core, swo);
	enum sf_output_kind kind = internal ? SF_OUTPUT_KIND_INTERNAL :
			sf_output_kind_from_name(output->name);
	bool hotplugged = output_is_hotplugged(sfw, output);
	pixman_region32_init(&swo->expected);
	sf_compat_output_wrap(output, &swo->backend);
	sf_weston_listen(&output->destroy_signal, &swo->destroy_listener,
			 output_handle_destroy);
	wl_list_insert(sfw->outputs.prev, &swo->link);
	sf_support_output_added(sfw->platform, output->name,
				swo->manage_refresh);
	if (sfw->inhibitors_applied)
		sf_output_inhibit(swo->core, sf_weston_now(sfw));
	weston_log("stillframe: output %s (%s%s): %zu mode%s%s\n",
		   output->name, sf_output_kind_name(kind),
		   hotplugged ? ", plugged in" : "",
		   swo->n_modes, swo->n_modes == 1 ? "" : "s",
		   swo->manage_refresh ? ", refresh managed" :
		   internal ? "" : " (not internal: refresh left alone; "
				   "see outputs= in [stillframe])");
	/* Everything is tied: the power policy may act on it now. */
	sf_output_set_kind(swo->core, kind, sf_weston_now(sfw));
	if (hotplugged)
		sf_output_notify_hotplug(swo->core, sf_weston_now(sfw));
	return;
oom:
	weston_log("stillframe: output %s: out of memory; not managed\n",
		   output->name);
	if (swo)
		free(swo->modes);
	free(modes);
	free(swo);
}

static void
compositor_handle_output_created(struct wl_listener *listener, void *data)
{
	struct sf_weston *sfw = wl_container_of(listener, sfw,
						output_created_listener);
	output_add(sfw, data);
	sf_weston_schedule_dispatch(sfw);
}

void
sf_weston_output_init_all(struct sf_weston *sfw)
{
	struct weston_output *output;
	struct weston_head *head = NULL;

	/* The frontend creates the outputs of these after the modules are
	 * loaded; they are no hotplug. */
	wl_array_init(&sfw->startup_heads);
	while ((head = weston_compositor_iterate_heads(sfw->compositor,
						       head))) {
		char (*name)[32];

		if (!weston_head_is_connected(head))
			continue;
		name = wl_array_add(&sfw->startup_heads, sizeof(*name));
		if (name)
			snprintf(*name, sizeof(*name), "%s", head->name);
	}
	sf_weston_listen(&sfw->compositor->wake_signal, &sfw->wake_listener,
			 compositor_handle_wake);

	wl_list_for_each(output, &sfw->compositor->output_list, link)
		output_add(sfw, output);
	sf_weston_listen(&sfw->compositor->output_created_signal,
			 &sfw->output_created_listener,
			 compositor_handle_output_created);
}

void
sf_weston_output_finish_all(struct sf_weston *sfw)
{
	struct sf_weston_output *swo, *next;

	wl_list_remove(&sfw->output_created_listener.link);
	wl_list_remove(&sfw->wake_listener.link);
	wl_list_for_each_safe(swo, next, &sfw->outputs, link)
		output_destroy(swo);
	wl_array_release(&sfw->startup_heads);
	wl_array_init(&sfw->startup_heads);
}
