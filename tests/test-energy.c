/* SPDX-License-Identifier: MIT */
#include "sf-energy.h"
#include "sf-test.h"

/* GPU power of repainting at `hz` for 10 s with the default model. */
static double
repaint_power(double hz)
{
	struct sf_energy_params p;
	struct sf_energy_account acc;
	struct sf_energy_totals t;
	sf_time_t period = (sf_time_t)(SF_NSEC_PER_SEC / hz);

	sf_energy_params_init_default(&p);
	sf_energy_account_init(&acc, &p, 0);
	for (sf_time_t now = 0; now < SF_SEC(10); now += period)
		sf_energy_account_repaint(&acc, now, true);
	sf_energy_account_totals(&acc, 0, SF_SEC(10), &t);
	return t.actual_avg_w;
}

SF_TEST(defaults_reproduce_the_talk)
{
	/* A blinking cursor (about 2 repaints a second): 2 W. */
	sf_assert_double_near(repaint_power(2.0), 2.0, 0.05);
	/* Continuous redraw (the moving pointer): the full 15 W. */
	sf_assert_double_near(repaint_power(60.0), 15.0, 0.01);
	sf_assert_double_near(repaint_power(120.0), 15.0, 0.01);
}

SF_TEST(link_power_follows_refresh)
{
	struct sf_energy_params p;
	sf_energy_params_init_default(&p);
	struct sf_energy_output_state at60 = { 60000, SF_STATE_ACTIVE, 100, false };
	struct sf_energy_output_state at30 = { 30000, SF_STATE_LOW_REFRESH,
					       100, false };

	/* LVDS reclocking 60 -> 30 Hz saves 0.5 W. */
	sf_assert_double_near(sf_energy_output_power(&p, &at60) -
			      sf_energy_output_power(&p, &at30), 0.5, 0.002);
}

SF_TEST(states_order_power)
{
	struct sf_energy_params p;
	sf_energy_params_init_default(&p);
	double w[SF_STATE_COUNT];

	for (int s = 0; s < SF_STATE_COUNT; s++) {
		struct sf_energy_output_state st = { 60000, s, 30, false };
		w[s] = sf_energy_output_power(&p, &st);
	}
	sf_assert(w[SF_STATE_DIM] < w[SF_STATE_ACTIVE]);
	sf_assert(w[SF_STATE_DPMS_STANDBY] < w[SF_STATE_DIM]);
	sf_assert(w[SF_STATE_DPMS_OFF] < w[SF_STATE_DPMS_STANDBY]);
	/* A port that is powered still costs 0.5 W with the panel off. */
	sf_assert_double_near(w[SF_STATE_DPMS_OFF], 0.5, 1e-9);
	/* Dimming to 30 % saves 70 % of the backlight. */
	sf_assert_double_near(w[SF_STATE_ACTIVE] - w[SF_STATE_DIM],
			      0.7 * p.backlight_w, 1e-9);
}

SF_TEST(powered_off_output_costs_nothing)
{
	struct sf_energy_params p;
	sf_energy_params_init_default(&p);
	struct sf_energy_output_state blank = { 60000, SF_STATE_DPMS_OFF, 100,
						false };
	struct sf_energy_output_state off = { 60000, SF_STATE_ACTIVE, 100,
					      true };

	/* The seed's 0.5 W per port: what powering it off saves over
	 * DPMS off, which keeps the port ready. */
	sf_assert_double_near(sf_energy_output_power(&p, &blank) -
			      sf_energy_output_power(&p, &off), 0.5, 1e-9);
	sf_assert_double_near(sf_energy_output_power(&p, &off), 0.0, 1e-9);
}

SF_TEST(wake_span_counts_overlap_once)
{
	struct sf_wake_span s = { 0 };

	sf_wake_span_add(&s, 0, SF_MSEC(100));
	sf_wake_span_add(&s, SF_MSEC(50), SF_MSEC(100));	/* overlaps */
	sf_wake_span_add(&s, SF_MSEC(60), SF_MSEC(10));	/* inside */
	sf_assert_int_eq(sf_wake_span_total(&s, SF_SEC(1)), SF_MSEC(150));
	/* A hold still running counts up to now only. */
	sf_assert_int_eq(sf_wake_span_total(&s, SF_MSEC(100)), SF_MSEC(100));
	sf_wake_span_add(&s, SF_SEC(2), SF_MSEC(100));
	sf_assert_int_eq(sf_wake_span_total(&s, SF_SEC(3)), SF_MSEC(250));
}

SF_TEST(account_integrates_steady_power_and_baseline)
{
	struct sf_energy_params p;
	struct sf_energy_account acc;
	struct sf_energy_totals t;

	sf_energy_params_init_default(&p);
	sf_energy_account_init(&acc, &p, SF_SEC(5));
	sf_energy_account_set_steady(&acc, SF_SEC(5), 4.0, 6.0);
	sf_energy_account_set_steady(&acc, SF_SEC(15), 1.0, 6.0);
	/* A held repaint costs the baseline only. */
	sf_energy_account_repaint(&acc, SF_SEC(16), false);
	sf_energy_account_totals(&acc, SF_SEC(5), SF_SEC(25), &t);
	double gpu = p.gpu_active_w * 0.067;
	sf_assert_double_near(t.actual_j, 4.0 * 10 + 1.0 * 10, 1e-6);
	sf_assert_double_near(t.baseline_j, 6.0 * 20 + gpu, 1e-6);
	sf_assert_double_near(t.actual_avg_w, 2.5, 1e-6);
	sf_assert_int_eq(acc.suppressed, 1);
	sf_assert_int_eq(acc.repaints, 0);
	sf_assert_int_eq(t.span, SF_SEC(20));
}

SF_TEST_MAIN()
