/* SPDX-License-Identifier: MIT */
#ifndef SF_ENERGY_H
#define SF_ENERGY_H

#include "sf-types.h"

/*
 * The energy model.  Always an estimate: it turns what stillframe did
 * into joules with a handful of parameters whose defaults come from the
 * figures of the FOSDEM 2009 talk (see doc/energy-model.md), and compares
 * with doing nothing (native refresh, every repaint, normal clocks, no
 * dimming or blanking).
 *
 * GPU and memory wake: every repaint keeps them awake for `wake_hold`
 * at `gpu_active_w` above idle; overlapping holds count once.  With the
 * defaults a cursor blinking twice a second costs about 2 W and continuous
 * redraw the full 15 W, as in the talk.
 */

struct sf_energy_params {
	double gpu_active_w;		/* GPU+memory awake vs idle */
	sf_time_t wake_hold;		/* awake time per isolated repaint */
	double link_w_per_hz;		/* panel link, per Hz of refresh */
	double reclock_w;		/* saved while reclocked low */
	double backlight_w;		/* backlight at full brightness */
	double panel_w;			/* panel electronics while on */
	double output_w;		/* an output port that is powered */
};

/* What one output is doing, for its steady power. */
struct sf_energy_output_state {
	uint32_t refresh_mhz;
	enum sf_idle_state state;
	int32_t dim_percent;		/* backlight while DIM, 1..100 */
	bool powered_off;		/* port off: nothing is drawn */
};

void
sf_energy_params_init_default(struct sf_energy_params *params);

/* Steady power of one output in the given state (link, panel, backlight,
 * port), in watts.  DPMS standby turns off the backlight, DPMS off the
 * link and the panel too. */
double
sf_energy_output_power(const struct sf_energy_params *params,
		       const struct sf_energy_output_state *state);

/* Union of wake intervals: O(1) per repaint. */
struct sf_wake_span {
	sf_time_t awake_until;
	sf_time_t awake_total;
};

void
sf_wake_span_add(struct sf_wake_span *span, sf_time_t now, sf_time_t hold);

/* Awake time up to `now` (a hold still running counts up to now). */
sf_time_t
sf_wake_span_total(const struct sf_wake_span *span, sf_time_t now);

/* The account of one core: actual against baseline. */
struct sf_energy_account {
	struct sf_energy_params params;
	sf_time_t last;
	double steady_actual_w, steady_baseline_w;
	double steady_actual_j, steady_baseline_j;
	struct sf_wake_span wake_actual, wake_baseline;
	uint64_t repaints, suppressed;
};

void
sf_energy_account_init(struct sf_energy_account *acc,
		       const struct sf_energy_params *params, sf_time_t now);

/* Integrates the steady power up to now, then switches to new values. */
void
sf_energy_account_set_steady(struct sf_energy_account *acc, sf_time_t now,
			     double actual_w, double baseline_w);

/* A repaint request: `painted` is false when stillframe held it.  The
 * baseline always pays for it. */
void
sf_energy_account_repaint(struct sf_energy_account *acc, sf_time_t now,
			  bool painted);

/* A repaint that only the baseline would have done (e.g. a native-rate
 * frame that the lower refresh rate coalesced away). */
void
sf_energy_account_baseline_repaint(struct sf_energy_account *acc,
				   sf_time_t now);

struct sf_energy_totals {
	double actual_j, baseline_j;
	double actual_avg_w, baseline_avg_w;
	sf_time_t span;
};

void
sf_energy_account_totals(const struct sf_energy_account *acc,
			 sf_time_t start, sf_time_t now,
			 struct sf_energy_totals *out);

#endif /* SF_ENERGY_H */
