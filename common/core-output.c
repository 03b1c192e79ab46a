/* SPDX-License-Identifier: MIT */
/* Outputs: their modes, the governor's and selector's actions, power
 * and the repaint gate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core-private.h"
#include "sf-hold.h"

void
sf_output_set_backlight(struct sf_output *o, int32_t percent)
{
	struct sf_core *core = o->core;

	if (o->backlight == percent)
		return;
	if (core->iface.set_backlight &&
	    !core->iface.set_backlight(core->data, o, percent)) {
		sf_core_log(core, SF_LOG_DEBUG,
			    "output %s: backlight to %d%% not carried out",
			    o->name, percent);
		return;
	}
	o->backlight = percent;
	o->stats.backlight_changes++;
}

void
sf_output_set_dpms(struct sf_output *o, enum sf_dpms_level level)
{
	static const char *const names[] = { "on", "standby", "off" };
	struct sf_core *core = o->core;

	if (o->dpms == level)
		return;
	if (core->iface.set_dpms &&
	    !core->iface.set_dpms(core->data, o, level)) {
		sf_core_log(core, SF_LOG_ERROR, "output %s: DPMS %s failed",
			    o->name, names[level]);
		return;
	}
	o->dpms = level;
	o->stats.dpms_changes++;
}

static void
note_switch_failed(struct sf_output *o, size_t mode)
{
	sf_core_log(o->core, SF_LOG_ERROR,
		    "output %s: switching to %.3f Hz failed; stillframe "
		    "stops changing this output's mode until its modes "
		    "change", o->name, o->modes[mode].refresh_mhz / 1000.0);
	o->switch_failed = true;
}

bool
sf_output_switch_mode(struct sf_output *o, size_t mode, const char *reason,
		      sf_time_t now)
{
	struct sf_core *core = o->core;
	uint32_t from = o->modes[o->current].refresh_mhz;

	if (mode == o->current)
		return true;
	if (core->iface.set_mode &&
	    !core->iface.set_mode(core->data, o, mode)) {
		note_switch_failed(o, mode);
		return false;
	}
	o->current = mode;
	o->stats.mode_switches++;
	sf_core_trace_output_event(o, SF_TRACE_MODE, now,
				   sf_core_trace_mode_index(o, mode));
	o->stats.refresh_mhz = o->modes[mode].refresh_mhz;
	sf_selector_notify_switched(&o->sel, now);
	sf_governor_notify_refresh_changed(&o->gov, now);
	sf_core_log(core, SF_LOG_DEBUG,
		    "output %s: refresh %.3f -> %.3f Hz (%s)", o->name,
		    from / 1000.0, o->modes[mode].refresh_mhz / 1000.0, reason);
	return true;
}

void
sf_output_mode_switch_failed(struct sf_output *o, size_t running,
			     sf_time_t now)
{
	if (!o || running >= o->n_modes)
		return;
	note_switch_failed(o, o->current);
	if (running == o->current)
		return;
	o->current = running;
	o->stats.refresh_mhz = o->modes[running].refresh_mhz;
	sf_core_trace_output_event(o, SF_TRACE_MODE, now,
				   sf_core_trace_mode_index(o, running));
	sf_governor_notify_refresh_changed(&o->gov, now);
}

void
sf_output_reselect(struct sf_output *o, sf_time_t now)
{
	struct sf_core *core = o->core;
	size_t n = 0;
	bool busy = false;
	sf_time_t retry = SF_TIME_NEVER;

	o->votes_dirty = false;
	sf_list_for_each(s, &o->surfaces, struct sf_surface, output_link) {
		if (s->visible_fraction <= 0 || n >= o->n_votes_cap)
			continue;
		sf_surface_vote(s, o, &o->votes[n], now);
		/* Choose again when a rate settles or a window is no
		 * longer new.  A rate whose time to settle has passed
		 * waits for a reading (a surface busy again has none
		 * yet): the time asks nothing more of a dispatch, which
		 * would come back at that same instant, over and over. */
		sf_time_t t = sf_rate_settle_due(&s->rate,
						 core->selector.min_dwell);
		if (t > now && t < retry)
			retry = t;
		t = sf_surface_new_until(s);
		if (t > now && t < retry)
			retry = t;
		if (o->votes[n].type == SF_VOTE_HEURISTIC ||
		    o->votes[n].type == SF_VOTE_EXACT_OR_MULTIPLE ||
		    sf_core_is_busy_class(s->cls.cls))
			busy = true;
		n++;
	}

	struct sf_governor_transition tr;
	if (sf_governor_set_content_busy(&o->gov, busy, now, &tr))
		sf_output_apply_transition(o, &tr, now);

	struct sf_selector_input in = {
		.modes = o->modes,
		.n_modes = o->n_modes,
		.current = o->current,
		.votes = o->votes,
		.n_votes = n,
		.state = o->gov.state,
		.pointer_moving = o->pointer_moving,
		.has_user_mode = true,
		.user_mode = o->original,
	};
	struct sf_selection sel;
	sf_selector_choose(&o->sel, &in, now, &sel);
	o->selector_retry = sel.retry_at < retry ? sel.retry_at : retry;
	/* Powered off, it shows nothing at any rate. */
	if (!core->config.enable || o->switch_failed || !o->powered)
		return;
	if (sel.mode != o->current &&
	    sf_output_switch_mode(o, sel.mode, sel.reason, now))
		sf_core_update_energy(core, now);
}

static enum sf_dpms_level
dpms_for_state(enum sf_idle_state state)
{
	if (state >= SF_STATE_DPMS_OFF)
		return SF_DPMS_OFF;
	if (state >= SF_STATE_DPMS_STANDBY)
		return SF_DPMS_STANDBY;
	return SF_DPMS_ON;
}

void
sf_output_apply_transition(struct sf_output *o,
			   const struct sf_governor_transition *tr,
			   sf_time_t now)
{
	struct sf_core *core = o->core;

	if (tr->from != tr->to) {
		sf_core_log(core, SF_LOG_DEBUG, "output %s: %s -> %s (%s)",
			    o->name, sf_idle_state_name(tr->from),
			    sf_idle_state_name(tr->to),
			    sf_governor_reason_name(tr->reason));
		sf_output_stats_enter_state(&o->stats, tr->to, now);
		if (core->config.enable && o->powered) {
			if (tr->to == SF_STATE_DIM)
				sf_output_set_backlight(o, (int32_t)
					core->config.dim_brightness_pct);
			else if (tr->to < SF_STATE_DIM)
				sf_output_set_backlight(o, 100);
			sf_output_set_dpms(o, dpms_for_state(tr->to));
		}
		sf_output_reselect(o, now);
	}
	if (tr->reclock_from != tr->reclock_to)
		sf_core_update_reclock(core, now);
	sf_core_update_energy(core, now);
}

void
sf_output_run_governor(struct sf_output *o, sf_time_t now)
{
	struct sf_governor_transition tr;

	/* One transition per call; bounded by the number of states. */
	for (int i = 0; i < 2 * SF_STATE_COUNT + 2; i++) {
		if (!sf_governor_update(&o->gov, now, &tr))
			break;
		sf_output_apply_transition(o, &tr, now);
	}
}

void
sf_output_request_flush(struct sf_output *o)
{
	struct sf_core *core = o->core;

	if (o->flush_requested || !o->gate.pending || !o->powered)
		return;
	o->flush_requested = true;
	if (core->iface.schedule_repaint)
		core->iface.schedule_repaint(core->data, o);
}

/* --- output power --- */

static bool
power_wanted(const struct sf_output *o)
{
	/* Watching only, or paused: the user's outputs stay as they are. */
	if (!o->core->config.enable)
		return true;
	switch (o->power_request) {
	case SF_OUTPUT_POWER_ON:
		return true;
	case SF_OUTPUT_POWER_OFF:
		return false;
	case SF_OUTPUT_POWER_AUTO:
		break;
	}
	return !o->unneeded;
}

static const char *
power_reason(const struct sf_output *o)
{
	if (!o->core->config.enable)
		return o->core->paused ? "paused" : "enable=false";
	switch (o->power_request) {
	case SF_OUTPUT_POWER_ON:
	case SF_OUTPUT_POWER_OFF:
		return "on request";
	case SF_OUTPUT_POWER_AUTO:
		break;
	}
	return o->unneeded ? "listed in unneeded-outputs" :
			     "not listed in unneeded-outputs";
}

/* The deepest state the output may enter now: an inhibitor keeps the
 * screen visible (low refresh is invisible); a recent wake request
 * allows only stages that wake within wake-latency-limit. */
/* Inhibited for the whole output (X's screensaver suspension, a held
 * key, a recent keep-awake request), or by an inhibitor on a surface it
 * shows. */
static bool
output_inhibited(const struct sf_output *o)
{
	if (o->inhibit_count || o->core->keep_awake_until)
		return true;
	sf_list_for_each(s, &o->surfaces, struct sf_surface, output_link)
		if (s->inhibit_count && s->visible_fraction > 0)
			return true;
	return false;
}

void
sf_output_update_cap(struct sf_output *o, sf_time_t now)
{
	struct sf_governor_transition tr;
	enum sf_idle_state cap = output_inhibited(o) ? SF_STATE_LOW_REFRESH :
						       SF_STATE_DPMS_OFF;

	if (now < o->wake_hold_until) {
		enum sf_idle_state within = sf_governor_deepest_within(
			&o->gov, SF_MSEC(o->core->config.wake_latency_limit_ms));
		if (within < cap)
			cap = within;
	}
	if (sf_governor_set_cap(&o->gov, cap, now, &tr))
		sf_output_apply_transition(o, &tr, now);
}

static void
wake_one(struct sf_output *o, sf_time_t now)
{
	struct sf_governor_transition tr;

	if (sf_governor_notify_input(&o->gov, now, &tr))
		sf_output_apply_transition(o, &tr, now);
}

void
sf_output_apply_power(struct sf_output *o, sf_time_t now)
{
	struct sf_core *core = o->core;
	bool want = power_wanted(o);

	o->power_dirty = false;
	if (want == o->powered)
		return;
	if (!core->iface.set_output_power) {
		if (!o->power_unsupported_logged)
			sf_core_log(core, SF_LOG_INFO, "output %s: cannot be "
				    "powered off here (%s); it stays on",
				    o->name, power_reason(o));
		o->power_unsupported_logged = true;
		return;
	}
	if (!core->iface.set_output_power(core->data, o, want)) {
		sf_core_log(core, SF_LOG_ERROR,
			    "output %s: powering %s failed; it stays %s",
			    o->name, want ? "on" : "off", want ? "off" : "on");
		return;
	}
	sf_output_stats_set_powered(&o->stats, want, now);
	o->powered = want;
	sf_core_log(core, SF_LOG_INFO, "output %s (%s): powered %s (%s)",
		    o->name, sf_output_kind_name(o->kind), want ? "on" : "off",
		    power_reason(o));
	if (want) {
		/* Back as the user left it: lit, native, painted. */
		o->dpms = SF_DPMS_ON;
		o->backlight = 100;
		wake_one(o, now);
		sf_output_reselect(o, now);
		sf_repaint_gate_force(&o->gate, SF_FORCE_OTHER, now);
		o->flush_requested = false;
		if (core->iface.schedule_repaint)
			core->iface.schedule_repaint(core->data, o);
	}
	sf_core_update_reclock(core, now);
	sf_core_update_energy(core, now);
}

static void
wake_request(struct sf_output *o, sf_time_t now)
{
	const struct sf_config *cfg = &o->core->config;

	if (cfg->wake_request_hold_s > 0)
		o->wake_hold_until = now + SF_SEC(cfg->wake_request_hold_s);
	wake_one(o, now);
	sf_output_update_cap(o, now);
}

/* --- outputs --- */

bool
sf_output_grow_votes(struct sf_output *o)
{
	if (o->n_surfaces < o->n_votes_cap)
		return true;
	size_t cap = o->n_votes_cap ? o->n_votes_cap * 2 : 8;
	struct sf_vote *votes = realloc(o->votes, cap * sizeof(*votes));
	if (!votes)
		return false;
	o->votes = votes;
	o->n_votes_cap = cap;
	return true;
}

struct sf_output *
sf_output_create(struct sf_core *core, const char *name,
		 const struct sf_mode *modes, size_t n_modes,
		 size_t current, sf_time_t now)
{
	if (n_modes == 0 || current >= n_modes) {
		sf_core_log(core, SF_LOG_ERROR,
			    "stillframe bug: output %s has no valid current mode",
			    name);
		return NULL;
	}
	struct sf_output *o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->modes = calloc(n_modes, sizeof(*o->modes));
	if (!o->modes || !sf_output_grow_votes(o)) {
		free(o->modes);
		free(o);
		return NULL;
	}
	memcpy(o->modes, modes, n_modes * sizeof(*modes));
	o->core = core;
	o->id = ++core->next_output_id;
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->n_modes = n_modes;
	o->current = o->original = current;
	o->backlight = 100;
	o->dpms = SF_DPMS_ON;
	o->selector_retry = SF_TIME_NEVER;
	o->powered = true;
	o->kind = sf_output_kind_from_name(name);
	o->unneeded = sf_config_output_unneeded(&core->config, o->name,
						o->kind);
	/* Applied at the first dispatch, or when the adapter sets the
	 * kind: the adapter has not tied its data to `o` yet. */
	o->power_dirty = o->unneeded;
	/* A keep-awake request made before it appeared covers it too. */
	o->cap_dirty = core->keep_awake_until != 0;
	/* The selector has its say at the first dispatch, as after a wake:
	 * an output that starts below the rate an active user gets (left
	 * low by a run that died, or set low before stillframe loaded)
	 * would otherwise stay there, input or not, until its first idle
	 * stage had come and gone. */
	o->votes_dirty = true;
	struct sf_governor_params gp;
	sf_config_governor_params(&core->config, o->kind, &gp);
	sf_governor_init(&o->gov, &gp, now);
	sf_selector_init(&o->sel, &core->selector);
	sf_repaint_gate_init(&o->gate);
	sf_output_stats_init(&o->stats, o->gov.state, now);
	o->stats.refresh_mhz = modes[current].refresh_mhz;
	sf_list_init(&o->surfaces);
	sf_list_insert_tail(&core->outputs, &o->link);
	core->n_outputs++;
	sf_core_trace_output(o, now);
	sf_core_log(core, SF_LOG_INFO,
		    "output %s: %zu modes, running %dx%d@%.3f", o->name,
		    n_modes, modes[current].width, modes[current].height,
		    modes[current].refresh_mhz / 1000.0);
	sf_core_update_energy(core, now);
	return o;
}

bool
sf_output_set_modes(struct sf_output *o, const struct sf_mode *modes,
		    size_t n_modes, size_t current, sf_time_t now)
{
	struct sf_core *core = o->core;

	if (n_modes == 0 || current >= n_modes) {
		sf_core_log(core, SF_LOG_ERROR, "stillframe bug: output %s's "
			    "new modes have no valid current mode", o->name);
		return false;
	}
	struct sf_mode *copy = calloc(n_modes, sizeof(*copy));
	if (!copy)
		return false;
	memcpy(copy, modes, n_modes * sizeof(*modes));
	const struct sf_mode *was = &o->modes[o->current];
	sf_core_log(core, SF_LOG_INFO, "output %s: set to %dx%d@%.3f by "
		    "someone else (stillframe had it at %dx%d@%.3f): the "
		    "user's mode from now on, %zu mode%s", o->name, modes[current].width,
		    modes[current].height, modes[current].refresh_mhz / 1000.0,
		    was->width, was->height, was->refresh_mhz / 1000.0, n_modes,
		    n_modes == 1 ? "" : "s");
	free(o->modes);
	o->modes = copy;
	o->n_modes = n_modes;
	o->current = o->original = current;
	/* What failed may work in the new configuration (a mode that no
	 * longer fitted the screen, say). */
	o->switch_failed = false;
	o->stats.refresh_mhz = copy[current].refresh_mhz;
	/* Not one of ours: mode_switches counts stillframe's.  The user's
	 * choice is kept at least the dwell, like any new mode. */
	sf_selector_notify_switched(&o->sel, now);
	sf_governor_notify_refresh_changed(&o->gov, now);
	o->votes_dirty = true;
	sf_core_trace_output(o, now);
	sf_core_update_energy(core, now);
	return true;
}

void
sf_output_destroy(struct sf_output *o)
{
	if (!o)
		return;
	struct sf_core *core = o->core;

	/* Put back what the user had. */
	if (core->config.enable) {
		if (!o->powered && core->iface.set_output_power &&
		    core->iface.set_output_power(core->data, o, true)) {
			o->powered = true;
			o->dpms = SF_DPMS_ON;
		}
		if (o->current != o->original && !o->switch_failed)
			sf_output_switch_mode(o, o->original, "restore", 0);
		sf_output_set_backlight(o, 100);
		sf_output_set_dpms(o, SF_DPMS_ON);
	}
	sf_list_for_each_safe(s, &o->surfaces, struct sf_surface,
			      output_link) {
		sf_list_remove(&s->output_link);
		s->output = NULL;
	}
	sf_list_remove(&o->link);
	core->n_outputs--;
	/* Without this output the others may agree to reclock, or no
	 * output is left and the clocks go back to normal. */
	if (core->n_outputs == 0 && core->reclock == SF_RECLOCK_LOW &&
	    core->config.enable) {
		if (!core->iface.set_reclock ||
		    core->iface.set_reclock(core->data, SF_RECLOCK_NORMAL))
			core->reclock = SF_RECLOCK_NORMAL;
	}
	free(o->modes);
	free(o->votes);
	free(o);
}

const char *
sf_output_get_name(const struct sf_output *o)
{
	return o->name;
}

void
sf_output_set_user_data(struct sf_output *o, void *data)
{
	o->user_data = data;
}

void *
sf_output_get_user_data(const struct sf_output *o)
{
	return o->user_data;
}

size_t
sf_output_get_mode(const struct sf_output *o)
{
	return o->current;
}

const struct sf_mode *
sf_output_get_modes(const struct sf_output *o, size_t *n_modes)
{
	*n_modes = o->n_modes;
	return o->modes;
}

enum sf_idle_state
sf_output_get_state(const struct sf_output *o)
{
	return o->gov.state;
}

const struct sf_output_stats *
sf_output_get_stats(const struct sf_output *o)
{
	return &o->stats;
}

void
sf_output_set_kind(struct sf_output *o, enum sf_output_kind kind,
		   sf_time_t now)
{
	struct sf_core *core = o->core;
	struct sf_governor_params gp;

	o->kind = kind;
	o->unneeded = sf_config_output_unneeded(&core->config, o->name, kind);
	sf_config_governor_params(&core->config, kind, &gp);
	sf_governor_set_params(&o->gov, &gp);
	sf_output_apply_power(o, now);
}

enum sf_output_kind
sf_output_get_kind(const struct sf_output *o)
{
	return o->kind;
}

void
sf_output_request_power(struct sf_output *o, enum sf_output_power request,
			sf_time_t now)
{
	if ((unsigned)request > SF_OUTPUT_POWER_OFF)
		request = SF_OUTPUT_POWER_AUTO;
	o->power_request = request;
	sf_core_log(o->core, SF_LOG_INFO, "output %s: power %s requested",
		    o->name, sf_output_power_name(request));
	sf_output_apply_power(o, now);
	if (request == SF_OUTPUT_POWER_ON && o->powered)
		wake_request(o, now);
}

void
sf_output_notify_hotplug(struct sf_output *o, sf_time_t now)
{
	if (!o->core->config.hotplug_power_on) {
		sf_core_log(o->core, SF_LOG_INFO, "output %s: plugged in; "
			    "hotplug-power-on=false, so it stays %s", o->name,
			    o->powered ? "on" : "off");
		return;
	}
	o->power_request = SF_OUTPUT_POWER_ON;
	sf_core_log(o->core, SF_LOG_INFO, "output %s: plugged in; powered on "
		    "(hotplug-power-on)", o->name);
	sf_output_apply_power(o, now);
	if (o->powered)
		wake_request(o, now);
}

bool
sf_output_is_powered(const struct sf_output *o)
{
	return o->powered;
}

enum sf_output_power
sf_output_get_power_request(const struct sf_output *o)
{
	return o->power_request;
}

struct sf_output *
sf_core_find_output(struct sf_core *core, const char *name)
{
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		if (name && strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

void
sf_core_notify_keep_awake(struct sf_core *core, sf_time_t now)
{
	if (core->keep_awake_until == 0)
		sf_core_log(core, SF_LOG_DEBUG, "keep-awake request: outputs "
			    "stay lit for %d s",
			    (int)(SF_KEEP_AWAKE_HOLD / SF_NSEC_PER_SEC));
	core->keep_awake_until = now + SF_KEEP_AWAKE_HOLD;
	sf_list_for_each(o, &core->outputs, struct sf_output, link)
		sf_output_update_cap(o, now);
}

void
sf_output_inhibit(struct sf_output *o, sf_time_t now)
{
	o->inhibit_count++;
	sf_core_trace_output_event(o, SF_TRACE_INHIBIT, now, 1);
	sf_output_update_cap(o, now);
}

void
sf_output_uninhibit(struct sf_output *o, sf_time_t now)
{
	if (o->inhibit_count == 0) {
		sf_core_log(o->core, SF_LOG_ERROR,
			    "stillframe bug: output %s uninhibited more often "
			    "than inhibited", o->name);
		return;
	}
	o->inhibit_count--;
	sf_core_trace_output_event(o, SF_TRACE_INHIBIT, now, 0);
	sf_output_update_cap(o, now);
}

sf_time_t
sf_output_flush_due(const struct sf_output *o)
{
	sf_time_t due = o->gate.deadline;

	if (due == SF_TIME_NEVER)
		return due;
	sf_list_for_each(s, &o->surfaces, struct sf_surface, output_link)
		if (s->cls.cls == SF_CLASS_BLINKING &&
		    s->newest_phase == SF_BLINK_PHASE_HIDDEN)
			return due + SF_HOLD_DEADLINE_CARET_GRACE;
	return due;
}

enum sf_repaint_decision
sf_output_repaint(struct sf_output *o, uint32_t force, sf_time_t now,
		  sf_time_t *deadline)
{
	struct sf_core *core = o->core;
	enum sf_repaint_reason reason;
	sf_time_t until = SF_TIME_NEVER;

	sf_core_trace_output_event(o, SF_TRACE_REPAINT, now, force);
	/* Powered off: nothing is shown, whatever changed.  The damage
	 * waits for the power-on, which paints. */
	if (!o->powered) {
		o->stats.suppressed++;
		if (deadline)
			*deadline = SF_TIME_NEVER;
		return SF_REPAINT_DEFER;
	}
	/* Content that changed its rate is served from this frame on. */
	if (o->votes_dirty)
		sf_output_reselect(o, now);
	if (force)
		sf_repaint_gate_force(&o->gate, force, now);
	enum sf_repaint_decision d =
		sf_repaint_gate_decide(&o->gate, &core->suppress, now, &until,
				       &reason);
	if (d == SF_REPAINT_NOW && reason == SF_REPAINT_REASON_STALE &&
	    sf_output_flush_due(o) > now) {
		d = SF_REPAINT_DEFER;
		until = sf_output_flush_due(o);
	}
	if (d == SF_REPAINT_DEFER && core->config.enable) {
		o->stats.suppressed++;
		sf_energy_account_repaint(&core->energy, now, false);
		if (deadline)
			*deadline = until;
		return SF_REPAINT_DEFER;
	}
	/* Paint when in doubt: damage the core was not told about (a
	 * surface it does not track) still reaches the screen. */
	if (reason == SF_REPAINT_REASON_STALE)
		o->stats.stale_flushes++;
	o->stats.repaints++;
	sf_energy_account_repaint(&core->energy, now, true);
	sf_repaint_gate_painted(&o->gate);
	/* Everything its surfaces committed is on screen now. */
	sf_list_for_each(s, &o->surfaces, struct sf_surface, output_link)
		s->shown_phase = s->newest_phase;
	o->flush_requested = false;
	if (deadline)
		*deadline = SF_TIME_NEVER;
	return SF_REPAINT_NOW;
}
