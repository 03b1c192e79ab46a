/* SPDX-License-Identifier: MIT */
#include "sf-energy.h"

/*
 * Defaults, from the FOSDEM 2009 figures (doc/energy-model.md):
 * - moving the pointer: +15 W instantaneous, i.e. GPU and memory fully
 *   awake under continuous redraw: gpu_active_w = 15 W;
 * - a blinking cursor: 2 W.  A cursor blinks about twice a second, so
 *   one isolated repaint keeps the GPU awake 2 W / 15 W / 2 Hz = 67 ms;
 * - dynamic GPU+memory reclocking: 10 to 15 W; we take the low end;
 * - LVDS reclocking (60 -> 30 Hz): 0.5 W, so 0.5 W / 30 Hz per Hz;
 * - an unused output port: 0.5 W.
 * Backlight and panel electronics are not in the talk: 2.5 W and 1 W
 * are typical laptop figures and are labelled as assumptions.
 */
void
sf_energy_params_init_default(struct sf_energy_params *params)
{
	params->gpu_active_w = 15.0;
	params->wake_hold = SF_MSEC(67);
	/* 0.5 W saved from 60 to 30 Hz, rounded as the man page shows it. */
	params->link_w_per_hz = 0.0167;
	params->reclock_w = 10.0;
	params->backlight_w = 2.5;
	params->panel_w = 1.0;
	params->output_w = 0.5;
}

double
sf_energy_output_power(const struct sf_energy_params *params,
		       const struct sf_energy_output_state *state)
{
	double link = params->link_w_per_hz * state->refresh_mhz / 1000.0;
	double watts = params->output_w;

	/* Unlike DPMS off, which keeps the port ready to wake in a frame,
	 * a powered-off output costs nothing. */
	if (state->powered_off)
		return 0.0;
	switch (state->state) {
	case SF_STATE_ACTIVE:
	case SF_STATE_LOW_REFRESH:
		watts += link + params->panel_w + params->backlight_w;
		break;
	case SF_STATE_DIM: {
		int32_t pct = state->dim_percent;
		if (pct < 1)
			pct = 1;
		if (pct > 100)
			pct = 100;
		watts += link + params->panel_w +
			 params->backlight_w * pct / 100.0;
		break;
	}
	case SF_STATE_DPMS_STANDBY:
		/* Backlight off; the link and the panel still run. */
		watts += link + params->panel_w;
		break;
	case SF_STATE_DPMS_OFF:
	case SF_STATE_COUNT:
		break;
	}
	return watts;
}

void
sf_wake_span_add(struct sf_wake_span *span, sf_time_t now, sf_time_t hold)
{
	sf_time_t end = now + hold;

	if (end <= span->awake_until)
		return;
	if (now >= span->awake_until)
		span->awake_total += hold;
	else
		span->awake_total += end - span->awake_until;
	span->awake_until = end;
}

sf_time_t
sf_wake_span_total(const struct sf_wake_span *span, sf_time_t now)
{
	if (span->awake_until > now)
		return span->awake_total - (span->awake_until - now);
	return span->awake_total;
}

void
sf_energy_account_init(struct sf_energy_account *acc,
		       const struct sf_energy_params *params, sf_time_t now)
{
	*acc = (struct sf_energy_account){
		.params = *params,
		.last = now,
	};
}

static void
integrate(struct sf_energy_account *acc, sf_time_t now)
{
	if (now <= acc->last)
		return;
	double seconds = (double)(now - acc->last) / SF_NSEC_PER_SEC;
	acc->steady_actual_j += acc->steady_actual_w * seconds;
	acc->steady_baseline_j += acc->steady_baseline_w * seconds;
	acc->last = now;
}

void
sf_energy_account_set_steady(struct sf_energy_account *acc, sf_time_t now,
			     double actual_w, double baseline_w)
{
	integrate(acc, now);
	acc->steady_actual_w = actual_w;
	acc->steady_baseline_w = baseline_w;
}

void
sf_energy_account_repaint(struct sf_energy_account *acc, sf_time_t now,
			  bool painted)
{
	if (painted) {
		acc->repaints++;
		sf_wake_span_add(&acc->wake_actual, now, acc->params.wake_hold);
	} else {
		acc->suppressed++;
	}
	sf_wake_span_add(&acc->wake_baseline, now, acc->params.wake_hold);
}

void
sf_energy_account_baseline_repaint(struct sf_energy_account *acc,
				   sf_time_t now)
{
	sf_wake_span_add(&acc->wake_baseline, now, acc->params.wake_hold);
}

void
sf_energy_account_totals(const struct sf_energy_account *acc,
			 sf_time_t start, sf_time_t now,
			 struct sf_energy_totals *out)
{
	double seconds_since = now > acc->last ?
		(double)(now - acc->last) / SF_NSEC_PER_SEC : 0.0;
	double gpu = acc->params.gpu_active_w / SF_NSEC_PER_SEC;

	out->actual_j = acc->steady_actual_j +
			acc->steady_actual_w * seconds_since +
			gpu * (double)sf_wake_span_total(&acc->wake_actual, now);
	out->baseline_j = acc->steady_baseline_j +
			  acc->steady_baseline_w * seconds_since +
			  gpu * (double)sf_wake_span_total(&acc->wake_baseline,
							   now);
	out->span = now - start;
	double span_s = (double)out->span / SF_NSEC_PER_SEC;
	out->actual_avg_w = span_s > 0 ? out->actual_j / span_s : 0.0;
	out->baseline_avg_w = span_s > 0 ? out->baseline_j / span_s : 0.0;
}
