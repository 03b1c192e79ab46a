/* SPDX-License-Identifier: MIT */
/* The core itself: creation, input, pause, dispatch, deadlines, status
 * and the energy estimate (core-private.h names the other files). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core-private.h"

/* Pointer motion within this window counts as "the pointer is moving". */
#define POINTER_MOVING_WINDOW SF_MSEC(200)

void
sf_core_log(struct sf_core *core, enum sf_log_level level, const char *fmt,
	    ...)
{
	char msg[256];
	va_list ap;

	if (!core->iface.log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	core->iface.log(core->data, level, msg);
}

/* --- energy --- */

void
sf_core_update_energy(struct sf_core *core, sf_time_t now)
{
	const struct sf_energy_params *p = &core->energy.params;
	double actual = 0, baseline = 0;

	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		struct sf_energy_output_state cur = {
			.refresh_mhz = o->modes[o->current].refresh_mhz,
			.state = o->gov.state,
			.dim_percent = (int32_t)core->config.dim_brightness_pct,
			.powered_off = !o->powered,
		};
		struct sf_energy_output_state base = {
			.refresh_mhz = o->modes[o->original].refresh_mhz,
			.state = SF_STATE_ACTIVE,
			.dim_percent = 100,
		};
		actual += sf_energy_output_power(p, &cur);
		baseline += sf_energy_output_power(p, &base);
	}
	/* Normal clocks cost reclock_w more than low ones, busy or not;
	 * doing nothing always pays it. */
	if (core->n_outputs > 0) {
		baseline += p->reclock_w;
		if (core->reclock != SF_RECLOCK_LOW)
			actual += p->reclock_w;
	}
	sf_energy_account_set_steady(&core->energy, now, actual, baseline);
}

/* --- actions --- */

void
sf_core_update_reclock(struct sf_core *core, sf_time_t now)
{
	enum sf_reclock_level want = core->n_outputs ? SF_RECLOCK_LOW :
						       SF_RECLOCK_NORMAL;

	/* The GPU is shared: low only when every lit output agrees. */
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		if (o->powered && o->gov.reclock != SF_RECLOCK_LOW)
			want = SF_RECLOCK_NORMAL;
	if (want == core->reclock || !core->config.enable)
		return;
	if (!core->iface.set_reclock) {
		core->reclock = want;	/* tracked for the energy estimate */
	} else if (core->iface.set_reclock(core->data, want)) {
		core->reclock = want;
	} else {
		/* The adapter's platform layer said why, once. */
		sf_core_log(core, SF_LOG_DEBUG,
			    "gpu: reclock to %s not carried out; keeping %s",
			    want == SF_RECLOCK_LOW ? "low" : "normal",
			    core->reclock == SF_RECLOCK_LOW ? "low" : "normal");
		return;
	}
	sf_core_log(core, SF_LOG_INFO, "gpu: clocks %s",
		    want == SF_RECLOCK_LOW ? "low (display settled)" :
					     "normal");
	sf_core_update_energy(core, now);
}

/* --- core --- */

struct sf_core *
sf_core_create(const struct sf_config *config,
	       const struct sf_core_interface *iface, void *data,
	       sf_time_t now)
{
	struct sf_core *core = calloc(1, sizeof(*core));
	struct sf_energy_params energy;

	if (!core)
		return NULL;
	core->config = *config;
	if (iface)
		core->iface = *iface;
	core->data = data;
	sf_classifier_params_init_default(&core->classifier);
	sf_config_governor_params(config, SF_OUTPUT_KIND_INTERNAL,
				  &core->governor);
	sf_config_selector_params(config, &core->selector);
	sf_config_suppress_params(config, &core->suppress);
	sf_config_energy_params(config, &energy);
	sf_seat_activity_init(&core->seat);
	sf_energy_account_init(&core->energy, &energy, now);
	core->start = now;
	core->reclock = SF_RECLOCK_NORMAL;
	core->surface_expiry = SF_TIME_NEVER;
	core->next_surface_id = 1;
	sf_list_init(&core->outputs);
	sf_list_init(&core->surfaces);
	return core;
}

void
sf_core_destroy(struct sf_core *core)
{
	if (!core)
		return;
	sf_list_for_each_safe(s, &core->surfaces, struct sf_surface, link)
		sf_surface_destroy(s);
	sf_list_for_each_safe(o, &core->outputs, struct sf_output, link)
		sf_output_destroy(o);
	/* With no outputs left the GPU goes back to normal clocks. */
	sf_trace_recorder_destroy(core->trace);
	free(core);
}

const struct sf_config *
sf_core_get_config(const struct sf_core *core)
{
	return &core->config;
}

enum sf_reclock_level
sf_core_get_reclock(const struct sf_core *core)
{
	return core->reclock;
}

void
sf_core_notify_input(struct sf_core *core, enum sf_input_kind kind,
		     sf_time_t now)
{
	sf_seat_activity_record(&core->seat, kind, now);
	if (tracing(core)) {
		struct sf_trace_event ev = {
			.type = SF_TRACE_INPUT,
			.time = now,
			.u.input.kind = kind,
		};
		sf_trace_recorder_add(core->trace, &ev);
	}

	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		struct sf_governor_transition tr;

		if (sf_governor_notify_input(&o->gov, now, &tr)) {
			if (tr.from != SF_STATE_ACTIVE)
				sf_core_log(core, SF_LOG_INFO,
					    "output %s: wake on %s input",
					    o->name, sf_input_kind_name(kind));
			sf_output_apply_transition(o, &tr, now);
		}
		if (kind == SF_INPUT_POINTER && !o->pointer_moving) {
			o->pointer_moving = true;
			sf_output_reselect(o, now);
		}
		/* Held damage is shown as soon as the user is back, even if
		 * an earlier flush request went unanswered while blank: with
		 * the repaint of the client's answer, or one frame later.
		 * Not at once, nor with a repaint that was waiting on the
		 * gate: that repaint would take the frame the answer to this
		 * input is about to need, and show it a frame late (Firefox's
		 * keys in a textarea, 29 ms against 15 on stock, each with
		 * a repaint of nothing 0.3 ms after the key). */
		if (o->gate.deferred) {
			o->flush_requested = false;
			sf_time_t frame = SF_SEC(1) * 1000 /
				(o->modes[o->current].refresh_mhz ?
				 o->modes[o->current].refresh_mhz : 60000);
			if (o->gate.deadline > now + frame)
				o->gate.deadline = now + frame;
		}
	}
}

void
sf_core_set_paused(struct sf_core *core, bool paused, sf_time_t now)
{
	if (paused == core->paused)
		return;
	if (!paused) {
		core->paused = false;
		core->config.enable = core->enable_before_pause;
		sf_core_log(core, SF_LOG_INFO, "policy resumed");
		sf_core_notify_input(core, SF_INPUT_KEY, now);
		/* An output that kept ACTIVE while paused changed no state
		 * on that input: its rate, put back to the user's, is
		 * chosen again at the next dispatch. */
		sf_list_for_each(o, &core->outputs, struct sf_output, link) {
			o->votes_dirty = true;
			sf_output_apply_power(o, now);
		}
		return;
	}
	if (core->config.enable) {
		sf_list_for_each(o, &core->outputs, struct sf_output, link) {
			/* Powered back on below, as the user had it. */
			if (!o->powered)
				continue;
			if (o->current != o->original && !o->switch_failed)
				sf_output_switch_mode(o, o->original,
						      "paused", now);
			sf_output_set_backlight(o, 100);
			sf_output_set_dpms(o, SF_DPMS_ON);
			if (o->gate.deferred) {
				sf_repaint_gate_force(&o->gate, SF_FORCE_OTHER,
						      now);
				o->flush_requested = false;
				sf_output_request_flush(o);
			}
		}
		if (core->reclock == SF_RECLOCK_LOW &&
		    (!core->iface.set_reclock ||
		     core->iface.set_reclock(core->data, SF_RECLOCK_NORMAL)))
			core->reclock = SF_RECLOCK_NORMAL;
	}
	core->enable_before_pause = core->config.enable;
	core->config.enable = false;
	core->paused = true;
	/* Disabled, every output is wanted on. */
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		sf_output_apply_power(o, now);
	sf_core_update_energy(core, now);
	sf_core_log(core, SF_LOG_INFO, "policy paused: the user's settings are "
		    "back and nothing is held");
}

bool
sf_core_is_paused(const struct sf_core *core)
{
	return core->paused;
}

sf_time_t
sf_core_dispatch(struct sf_core *core, sf_time_t now)
{
	sf_core_reclassify_expired(core, now);
	if (core->keep_awake_until && core->keep_awake_until <= now) {
		core->keep_awake_until = 0;
		sf_list_for_each(o, &core->outputs, struct sf_output, link)
			o->cap_dirty = true;
	}
	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		if (o->power_dirty)
			sf_output_apply_power(o, now);
		if (o->cap_dirty) {
			o->cap_dirty = false;
			sf_output_update_cap(o, now);
		}
		if (o->wake_hold_until && o->wake_hold_until <= now) {
			o->wake_hold_until = 0;
			sf_output_update_cap(o, now);
		}
		sf_output_run_governor(o, now);
		if (o->pointer_moving &&
		    now - sf_seat_activity_last(&core->seat, SF_INPUT_POINTER) >=
			    POINTER_MOVING_WINDOW) {
			o->pointer_moving = false;
			sf_output_reselect(o, now);
		} else if (o->selector_retry <= now || o->votes_dirty) {
			sf_output_reselect(o, now);
		}
		if (o->gate.deferred && sf_output_flush_due(o) <= now)
			sf_output_request_flush(o);
	}
	return sf_core_next_deadline(core);
}

sf_time_t
sf_core_next_deadline(const struct sf_core *core)
{
	sf_time_t next = core->surface_expiry;

	if (core->keep_awake_until && core->keep_awake_until < next)
		next = core->keep_awake_until;
	sf_list_for_each(o, &core->outputs, struct sf_output, link) {
		if (o->votes_dirty || o->power_dirty || o->cap_dirty)
			return 0;	/* a vote changed: dispatch at once */
		if (o->wake_hold_until && o->wake_hold_until < next)
			next = o->wake_hold_until;
		sf_time_t t = sf_governor_next_deadline(&o->gov);
		if (t < next)
			next = t;
		if (o->selector_retry < next)
			next = o->selector_retry;
		if (o->pointer_moving) {
			t = sf_seat_activity_last(&core->seat,
						  SF_INPUT_POINTER) +
			    POINTER_MOVING_WINDOW;
			if (t < next)
				next = t;
		}
		/* Only a flush sf_output_request_flush() would make: a
		 * dark output's damage waits for the power-on, which
		 * paints, and a deadline that asks nothing of the adapter
		 * would have it call back at once, over and over. */
		sf_time_t due = sf_output_flush_due(o);
		if (o->gate.deferred && !o->flush_requested &&
		    o->gate.pending && o->powered && due < next)
			next = due;
	}
	return next;
}

void
sf_core_energy_totals(const struct sf_core *core, sf_time_t now,
		      struct sf_energy_totals *out)
{
	sf_energy_account_totals(&core->energy, core->start, now, out);
}

void
sf_core_write_status(struct sf_core *core, sf_time_t now,
		     enum sf_status_format format, struct sf_writer *writer)
{
	struct sf_stats_output_view *outs =
		calloc(core->n_outputs + 1, sizeof(*outs));
	struct sf_stats_surface_view *surfs =
		calloc(core->n_surfaces + 1, sizeof(*surfs));
	struct sf_stats_view view = {
		.now = now,
		.reclock = core->reclock,
		.outputs = outs,
		.surfaces = surfs,
	};

	if (!outs || !surfs) {
		sf_writer_printf(writer, "error out of memory\n");
		goto out;
	}
	sf_core_energy_totals(core, now, &view.energy);
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		outs[view.n_outputs++] = (struct sf_stats_output_view){
			o->name, &o->stats, o->kind, o->power_request
		};
	sf_list_for_each(s, &core->surfaces, struct sf_surface, link)
		surfs[view.n_surfaces++] = (struct sf_stats_surface_view){
			s->id, s->label, s->cls.cls, &s->stats
		};
	if (format == SF_STATUS_PROMETHEUS)
		sf_stats_write_prometheus(&view, writer);
	else
		sf_stats_write_text(&view, writer);
out:
	free(outs);
	free(surfs);
}
