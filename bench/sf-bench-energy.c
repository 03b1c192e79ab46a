/* SPDX-License-Identifier: MIT */
/*
 * sf-bench-energy: the energy model of common/ applied to what a
 * benchmark run measured from outside, so that stock Weston or Xorg
 * (where stillframe is not loaded to keep its own account) and
 * stillframe are costed by the same model.
 *
 * Reads one output's events, in time order, from stdin:
 *
 *	window T0 T1		the measured span (required, first)
 *	refresh T MHZ		the mode in force from T (0: CRTC off)
 *	dpms T on|standby|suspend|off
 *	repaint T		a frame the hardware was asked to show
 *
 * Times are milliseconds on any one clock; events before T0 set the
 * state at T0, events after T1 are ignored.  Prints
 *
 *	joules J
 *	avg_w W
 *	awake_s S		GPU+memory awake time from the repaints
 *
 * The GPU reclock saving is not counted: a run cannot see it from
 * outside (this machine has no GPU), so the figure errs against
 * stillframe.  It is an estimate, like every figure of the model.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-energy.h"

static sf_time_t
ms_to_time(double ms)
{
	return (sf_time_t)(ms * 1e6);
}

struct bench_output {
	struct sf_energy_params params;
	struct sf_energy_account account;
	struct sf_energy_output_state state;
	bool started;
};

static void
bench_output_set_steady(struct bench_output *out, sf_time_t now)
{
	double watts = sf_energy_output_power(&out->params, &out->state);

	sf_energy_account_set_steady(&out->account, now, watts, watts);
}

static bool
parse_dpms(const char *word, enum sf_idle_state *state)
{
	if (strcmp(word, "on") == 0)
		*state = SF_STATE_ACTIVE;
	else if (strcmp(word, "standby") == 0 || strcmp(word, "suspend") == 0)
		*state = SF_STATE_DPMS_STANDBY;
	else if (strcmp(word, "off") == 0)
		*state = SF_STATE_DPMS_OFF;
	else
		return false;
	return true;
}

int
main(void)
{
	struct bench_output out = { 0 };
	char line[256], word[32], arg[32];
	double t0 = 0, t1 = 0, t;
	int lineno = 0;

	sf_energy_params_init_default(&out.params);
	out.state.refresh_mhz = 60000;
	out.state.state = SF_STATE_ACTIVE;
	out.state.dim_percent = 100;

	while (fgets(line, sizeof(line), stdin)) {
		lineno++;
		if (lineno == 1) {
			if (sscanf(line, "window %lf %lf", &t0, &t1) != 2 ||
			    t1 < t0) {
				fprintf(stderr, "sf-bench-energy: line 1: want "
					"\"window T0 T1\" with T1 >= T0\n");
				return 2;
			}
			continue;
		}
		if (sscanf(line, "%31s %lf %31s", word, &t, arg) < 2) {
			fprintf(stderr, "sf-bench-energy: line %d: want "
				"\"EVENT T [ARG]\"\n", lineno);
			return 2;
		}
		if (t > t1)
			break;
		if (t >= t0 && !out.started) {
			sf_energy_account_init(&out.account, &out.params,
					       ms_to_time(t0));
			bench_output_set_steady(&out, ms_to_time(t0));
			out.started = true;
		}
		if (strcmp(word, "refresh") == 0) {
			out.state.refresh_mhz = (uint32_t)strtoul(arg, NULL, 10);
		} else if (strcmp(word, "dpms") == 0) {
			if (!parse_dpms(arg, &out.state.state)) {
				fprintf(stderr, "sf-bench-energy: line %d: "
					"dpms wants on, standby, suspend or "
					"off, not \"%s\"\n", lineno, arg);
				return 2;
			}
		} else if (strcmp(word, "repaint") == 0) {
			if (out.started)
				sf_energy_account_repaint(&out.account,
							  ms_to_time(t), true);
			continue;
		} else {
			fprintf(stderr, "sf-bench-energy: line %d: unknown "
				"event \"%s\"\n", lineno, word);
			return 2;
		}
		/* A CRTC without a mode shows nothing: the port is off. */
		out.state.powered_off = out.state.refresh_mhz == 0;
		if (out.started)
			bench_output_set_steady(&out, ms_to_time(t));
	}
	if (lineno == 0) {
		fprintf(stderr, "sf-bench-energy: no input\n");
		return 2;
	}
	if (!out.started) {
		sf_energy_account_init(&out.account, &out.params,
				       ms_to_time(t0));
		bench_output_set_steady(&out, ms_to_time(t0));
	}

	struct sf_energy_totals totals;
	sf_energy_account_totals(&out.account, ms_to_time(t0), ms_to_time(t1),
				 &totals);
	printf("joules %.3f\n", totals.actual_j);
	printf("avg_w %.3f\n", totals.actual_avg_w);
	printf("awake_s %.3f\n",
	       (double)sf_wake_span_total(&out.account.wake_actual,
					  ms_to_time(t1)) / 1e9);
	return 0;
}
