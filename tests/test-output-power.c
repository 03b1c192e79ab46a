/* SPDX-License-Identifier: MIT */
/*
 * The output power policy of the core: unneeded outputs kept off,
 * requests, hotplug, per-kind idle stages, the wake-latency cap after a
 * wake request, and the energy of an unpowered port.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-config.h"
#include "sf-core.h"
#include "sf-governor.h"
#include "sf-stats.h"
#include "sf-test.h"
#include "sf-test-core.h"

/* What the core asks for, per output, is written down by sf-test-core.h's
 * recorder; add_output() tracks each output. */

static const struct sf_mode modes[] = {
	{ 1920, 1080, 60000, false, true },
};

/* Helpers cannot assert; a value the table refuses shows up as the
 * default in the checks that follow. */
static void
config_set(struct sf_config *cfg, const char *key, const char *value)
{
	char err[256] = "";

	if (sf_config_set(cfg, SF_CONFIG_NS_INI, key, value, err,
			  sizeof(err)) != SF_CONFIG_OK)
		printf("# config: %s\n", err);
}

/* An adapter's order: create, tie the data, say the kind. */
static struct sf_output *
add_output(struct sf_core *core, struct sf_test_core *r, int i,
	   const char *name, enum sf_output_kind kind, sf_time_t now)
{
	struct sf_output *o = sf_output_create(core, name, modes, 1, 0, now);

	if (!o)
		abort();	/* out of memory in a test */
	sf_test_core_track(r, i, o);
	sf_output_set_kind(o, kind, now);
	return o;
}

static struct sf_core *
make_core(struct sf_test_core *r, struct sf_config *cfg)
{
	sf_test_core_init(r);
	return sf_core_create(cfg, &sf_test_core_interface, r, 0);
}

SF_TEST(output_kinds_from_names)
{
	sf_assert_int_eq(sf_output_kind_from_name("eDP-1"),
			 SF_OUTPUT_KIND_INTERNAL);
	sf_assert_int_eq(sf_output_kind_from_name("LVDS1"),
			 SF_OUTPUT_KIND_INTERNAL);
	sf_assert_int_eq(sf_output_kind_from_name("DSI-1"),
			 SF_OUTPUT_KIND_INTERNAL);
	sf_assert_int_eq(sf_output_kind_from_name("DPI-1"),
			 SF_OUTPUT_KIND_INTERNAL);
	sf_assert_int_eq(sf_output_kind_from_name("HDMI-A-1"),
			 SF_OUTPUT_KIND_EXTERNAL);
	sf_assert_int_eq(sf_output_kind_from_name("DP-2"),
			 SF_OUTPUT_KIND_EXTERNAL);
	sf_assert_int_eq(sf_output_kind_from_name("VGA-1"),
			 SF_OUTPUT_KIND_EXTERNAL);
	sf_assert_int_eq(sf_output_kind_from_name("DVI-D-1"),
			 SF_OUTPUT_KIND_EXTERNAL);
	sf_assert_int_eq(sf_output_kind_from_name("headless"),
			 SF_OUTPUT_KIND_VIRTUAL);
	sf_assert_int_eq(sf_output_kind_from_name("DUMMY1"),
			 SF_OUTPUT_KIND_VIRTUAL);
	sf_assert_int_eq(sf_output_kind_from_name("Virtual-1"),
			 SF_OUTPUT_KIND_VIRTUAL);
	sf_assert_int_eq(sf_output_kind_from_name(NULL),
			 SF_OUTPUT_KIND_VIRTUAL);
}

SF_TEST(unneeded_classes_and_names)
{
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	sf_assert(!sf_config_output_unneeded(&cfg, "HDMI-A-1",
					     SF_OUTPUT_KIND_EXTERNAL));
	config_set(&cfg, "unneeded-outputs", "External");
	sf_assert_str_eq(cfg.unneeded_outputs, "external");
	sf_assert(sf_config_output_unneeded(&cfg, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL));
	sf_assert(!sf_config_output_unneeded(&cfg, "headless",
					     SF_OUTPUT_KIND_VIRTUAL));
	sf_assert(!sf_config_output_unneeded(&cfg, "eDP-1",
					     SF_OUTPUT_KIND_INTERNAL));
	config_set(&cfg, "unneeded-outputs", "all-but-internal");
	sf_assert(sf_config_output_unneeded(&cfg, "headless",
					    SF_OUTPUT_KIND_VIRTUAL));
	sf_assert(sf_config_output_unneeded(&cfg, "DP-1",
					    SF_OUTPUT_KIND_EXTERNAL));
	sf_assert(!sf_config_output_unneeded(&cfg, "eDP-1",
					     SF_OUTPUT_KIND_INTERNAL));
	/* A name: exactly that output, whatever its kind. */
	config_set(&cfg, "unneeded-outputs", "eDP-1, DUMMY1");
	sf_assert(sf_config_output_unneeded(&cfg, "eDP-1",
					    SF_OUTPUT_KIND_INTERNAL));
	sf_assert(sf_config_output_unneeded(&cfg, "DUMMY1",
					    SF_OUTPUT_KIND_VIRTUAL));
	sf_assert(!sf_config_output_unneeded(&cfg, "DUMMY0",
					     SF_OUTPUT_KIND_VIRTUAL));
	sf_assert(!sf_config_output_unneeded(&cfg, "",
					     SF_OUTPUT_KIND_VIRTUAL));
	config_set(&cfg, "unneeded-outputs", "");
	sf_assert_str_eq(cfg.unneeded_outputs, "");
}

SF_TEST(external_timeouts_apply_to_outputs_on_cables)
{
	struct sf_config cfg;
	struct sf_governor_params in, ex;

	sf_config_init_defaults(&cfg);
	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_INTERNAL, &in);
	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_EXTERNAL, &ex);
	/* -1 takes the internal value. */
	sf_assert_int_eq(ex.stage_timeout[SF_STATE_DPMS_STANDBY], SF_SEC(300));
	sf_assert_int_eq(ex.stage_timeout[SF_STATE_DPMS_OFF], SF_SEC(600));
	config_set(&cfg, "external-standby-timeout", "60");
	config_set(&cfg, "external-off-timeout", "0");
	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_INTERNAL, &in);
	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_EXTERNAL, &ex);
	sf_assert_int_eq(in.stage_timeout[SF_STATE_DPMS_STANDBY], SF_SEC(300));
	sf_assert_int_eq(in.stage_timeout[SF_STATE_DPMS_OFF], SF_SEC(600));
	sf_assert_int_eq(ex.stage_timeout[SF_STATE_DPMS_STANDBY], SF_SEC(60));
	sf_assert_int_eq(ex.stage_timeout[SF_STATE_DPMS_OFF], 0);
	/* Never dimmed: a monitor's backlight is its own. */
	sf_assert_int_eq(ex.stage_timeout[SF_STATE_DIM], 0);
	sf_assert_int_eq(in.stage_timeout[SF_STATE_DIM], SF_SEC(120));
	struct sf_governor_params vi;
	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_VIRTUAL, &vi);
	sf_assert_int_eq(vi.stage_timeout[SF_STATE_DPMS_STANDBY], SF_SEC(300));
	/* A monitor wakes slower than a panel, and deeper is slower. */
	sf_assert_int_gt(ex.wake_latency[SF_STATE_DPMS_OFF],
			 in.wake_latency[SF_STATE_DPMS_OFF]);
	for (int st = SF_STATE_LOW_REFRESH; st < SF_STATE_COUNT; st++) {
		sf_assert(in.wake_latency[st] >= in.wake_latency[st - 1]);
		sf_assert(ex.wake_latency[st] >= ex.wake_latency[st - 1]);
	}
}

SF_TEST(unneeded_output_is_powered_off_and_not_painted)
{
	struct sf_test_core r;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	config_set(&cfg, "unneeded-outputs", "external");
	struct sf_core *core = make_core(&r, &cfg);
	struct sf_output *panel = add_output(core, &r, 0, "eDP-1",
					     SF_OUTPUT_KIND_INTERNAL, 0);
	struct sf_output *hdmi = add_output(core, &r, 1, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL, 0);

	sf_assert(sf_output_is_powered(panel));
	sf_assert(!sf_output_is_powered(hdmi));
	sf_assert(!r.powered[1]);
	sf_assert_int_eq(r.power_calls[0], 0);
	sf_assert_str_contains(r.last_info, "unneeded-outputs");

	/* Nothing is painted there, whatever forces a repaint. */
	sf_time_t deadline = 0;
	sf_assert_int_eq(sf_output_repaint(hdmi, SF_FORCE_GEOMETRY |
					   SF_FORCE_OTHER, SF_SEC(1),
					   &deadline), SF_REPAINT_DEFER);
	sf_assert_int_eq(deadline, SF_TIME_NEVER);
	sf_assert_int_eq(sf_output_repaint(panel, SF_FORCE_GEOMETRY,
					   SF_SEC(1), NULL), SF_REPAINT_NOW);

	/* Input wakes the panel only; the off output is not lit by it. */
	sf_test_core_run_until(core, SF_SEC(700));
	sf_assert_int_eq(r.output_dpms[0], SF_DPMS_OFF);
	unsigned hdmi_dpms = r.dpms_calls[1];
	sf_core_notify_input(core, SF_INPUT_KEY, SF_SEC(701));
	sf_assert_int_eq(r.output_dpms[0], SF_DPMS_ON);
	sf_assert_int_eq(r.dpms_calls[1], hdmi_dpms);
	sf_assert(!r.powered[1]);

	/* A surface shown only there gets frames at the background rate. */
	struct sf_surface *s = sf_surface_create(core, 800, 600, SF_SEC(701));
	sf_surface_set_output(s, hdmi, 0.5, SF_SEC(701));
	sf_surface_set_focused(s, true, SF_SEC(701));
	for (int i = 0; i < 30; i++) {
		struct sf_box b = { 0, 0, 800, 600 };
		struct sf_commit_desc c = { .time = SF_SEC(702) + SF_MSEC(16) * i,
					    .boxes = &b, .n_boxes = 1 };
		sf_surface_commit(s, &c);
	}
	sf_assert_int_gt(sf_surface_get_frame_interval(s, SF_SEC(703)), 0);

	/* Destroying puts the user's output back on. */
	sf_surface_destroy(s);
	sf_core_destroy(core);
	sf_assert(r.powered[1]);
}

SF_TEST(request_on_off_auto)
{
	struct sf_test_core r;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	config_set(&cfg, "unneeded-outputs", "HDMI-A-1");
	struct sf_core *core = make_core(&r, &cfg);
	add_output(core, &r, 0, "eDP-1", SF_OUTPUT_KIND_INTERNAL, 0);
	struct sf_output *hdmi = add_output(core, &r, 1, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL, 0);
	sf_assert(!r.powered[1]);
	sf_assert(sf_core_find_output(core, "HDMI-A-1") == hdmi);
	sf_assert(sf_core_find_output(core, "HDMI-A-2") == NULL);

	unsigned repaints = r.repaints[1];
	sf_output_request_power(hdmi, SF_OUTPUT_POWER_ON, SF_SEC(10));
	sf_assert(r.powered[1]);
	sf_assert_int_eq(sf_output_get_power_request(hdmi),
			 SF_OUTPUT_POWER_ON);
	/* Powered on, it is painted at once with what it missed. */
	sf_assert_int_gt(r.repaints[1], repaints);
	sf_assert_int_eq(sf_output_repaint(hdmi, 0, SF_SEC(10), NULL),
			 SF_REPAINT_NOW);

	sf_output_request_power(hdmi, SF_OUTPUT_POWER_AUTO, SF_SEC(20));
	sf_assert(!r.powered[1]);
	sf_output_request_power(hdmi, SF_OUTPUT_POWER_ON, SF_SEC(30));
	sf_output_request_power(hdmi, SF_OUTPUT_POWER_OFF, SF_SEC(40));
	sf_assert(!r.powered[1]);
	/* An explicit OFF holds for an output that is not unneeded too. */
	struct sf_output *panel = sf_core_find_output(core, "eDP-1");
	sf_output_request_power(panel, SF_OUTPUT_POWER_OFF, SF_SEC(50));
	sf_assert(!r.powered[0]);
	sf_output_request_power(panel, SF_OUTPUT_POWER_AUTO, SF_SEC(60));
	sf_assert(r.powered[0]);

	/* Pausing puts every output back; resuming applies the policy. */
	sf_core_set_paused(core, true, SF_SEC(70));
	sf_assert(r.powered[1]);
	sf_core_set_paused(core, false, SF_SEC(80));
	sf_assert(!r.powered[1]);
	sf_core_destroy(core);
}

SF_TEST(hotplug_powers_on_unless_configured)
{
	struct sf_test_core r;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	config_set(&cfg, "unneeded-outputs", "external");
	struct sf_core *core = make_core(&r, &cfg);
	struct sf_output *hdmi = add_output(core, &r, 0, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL, 0);
	sf_assert(!r.powered[0]);
	sf_output_notify_hotplug(hdmi, SF_SEC(5));
	sf_assert(r.powered[0]);
	sf_assert_int_eq(sf_output_get_power_request(hdmi),
			 SF_OUTPUT_POWER_ON);
	sf_core_destroy(core);

	config_set(&cfg, "hotplug-power-on", "false");
	core = make_core(&r, &cfg);
	hdmi = add_output(core, &r, 0, "HDMI-A-1", SF_OUTPUT_KIND_EXTERNAL, 0);
	sf_output_notify_hotplug(hdmi, SF_SEC(5));
	sf_assert(!r.powered[0]);
	sf_assert_str_contains(r.last_info, "hotplug-power-on=false");
	sf_core_destroy(core);
}

SF_TEST(external_blanks_on_its_own_timeouts)
{
	struct sf_test_core r;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	config_set(&cfg, "external-standby-timeout", "30");
	config_set(&cfg, "external-off-timeout", "60");
	struct sf_core *core = make_core(&r, &cfg);
	struct sf_output *panel = add_output(core, &r, 0, "eDP-1",
					     SF_OUTPUT_KIND_INTERNAL, 0);
	struct sf_output *hdmi = add_output(core, &r, 1, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL, 0);

	sf_test_core_run_until(core, SF_SEC(31));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_DPMS_STANDBY);
	sf_assert_int_eq(sf_output_get_state(panel), SF_STATE_LOW_REFRESH);
	sf_test_core_run_until(core, SF_SEC(61));
	sf_assert_int_eq(r.output_dpms[1], SF_DPMS_OFF);
	sf_assert_int_eq(sf_output_get_state(panel), SF_STATE_LOW_REFRESH);
	sf_test_core_run_until(core, SF_SEC(301));
	sf_assert_int_eq(r.output_dpms[0], SF_DPMS_STANDBY);
	sf_core_destroy(core);
}

SF_TEST(wake_request_limits_the_depth_for_a_while)
{
	struct sf_test_core r;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	config_set(&cfg, "external-standby-timeout", "30");
	config_set(&cfg, "external-off-timeout", "60");
	config_set(&cfg, "wake-request-hold", "300");
	struct sf_core *core = make_core(&r, &cfg);
	struct sf_output *hdmi = add_output(core, &r, 0, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL, 0);

	sf_output_request_power(hdmi, SF_OUTPUT_POWER_ON, SF_SEC(1));
	/* Standby wakes within the 1000 ms limit, off (2.5 s) does not. */
	sf_test_core_run_until(core, SF_SEC(200));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_DPMS_STANDBY);
	sf_assert_int_eq(r.output_dpms[0], SF_DPMS_STANDBY);
	/* The hold ends 300 s after the request; off follows its full
	 * timeout from then. */
	sf_test_core_run_until(core, SF_SEC(302));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_DPMS_STANDBY);
	sf_test_core_run_until(core, SF_SEC(362));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_DPMS_OFF);
	sf_core_destroy(core);

	/* A tighter limit keeps it visible. */
	config_set(&cfg, "wake-latency-limit", "40");
	core = make_core(&r, &cfg);
	hdmi = add_output(core, &r, 0, "HDMI-A-1", SF_OUTPUT_KIND_EXTERNAL, 0);
	sf_output_notify_hotplug(hdmi, SF_SEC(1));
	sf_test_core_run_until(core, SF_SEC(200));
	sf_assert(sf_output_get_state(hdmi) <= SF_STATE_DIM);
	sf_assert_int_eq(r.dpms_calls[0], 0);
	sf_core_destroy(core);
}

SF_TEST(powered_off_time_is_counted_and_saves_the_port)
{
	struct sf_test_core r;
	struct sf_config cfg;
	struct sf_energy_totals before, after;

	sf_config_init_defaults(&cfg);
	struct sf_core *core = make_core(&r, &cfg);
	struct sf_output *hdmi = add_output(core, &r, 0, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL, 0);
	/* Stay ACTIVE so only the port differs. */
	for (sf_time_t t = 0; t <= SF_SEC(100); t += SF_MSEC(500))
		sf_core_notify_input(core, SF_INPUT_KEY, t);
	sf_core_energy_totals(core, SF_SEC(100), &before);
	sf_output_request_power(hdmi, SF_OUTPUT_POWER_OFF, SF_SEC(100));
	for (sf_time_t t = SF_SEC(100); t <= SF_SEC(200); t += SF_MSEC(500))
		sf_core_notify_input(core, SF_INPUT_KEY, t);
	sf_core_energy_totals(core, SF_SEC(200), &after);
	const struct sf_output_stats *st = sf_output_get_stats(hdmi);
	sf_assert_int_eq(sf_output_stats_powered_off_time(st, SF_SEC(200)),
			 SF_SEC(100));
	sf_assert_int_eq(st->power_changes, 1);
	/* Off, the output costs nothing; doing nothing paid port, link,
	 * panel and backlight: at least the seed's 0.5 W for 100 s. */
	double saved = (after.baseline_j - after.actual_j) -
		       (before.baseline_j - before.actual_j);
	sf_assert(saved >= 50.0);

	char buf[4096];
	struct sf_buffer_writer w;
	sf_buffer_writer_init(&w, buf, sizeof(buf));
	sf_core_write_status(core, SF_SEC(200), SF_STATUS_TEXT, &w.writer);
	sf_assert_str_contains(buf, "output.HDMI-A-1.power off\n");
	sf_assert_str_contains(buf, "output.HDMI-A-1.kind external\n");
	sf_assert_str_contains(buf, "output.HDMI-A-1.power_request off\n");
	sf_assert_str_contains(buf, "output.HDMI-A-1.time.powered_off_s "
				    "100.000\n");
	sf_core_destroy(core);
}

SF_TEST(failures_keep_the_output_as_it_is)
{
	struct sf_test_core r;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	config_set(&cfg, "unneeded-outputs", "external");
	struct sf_core *core = make_core(&r, &cfg);
	r.power_fails = true;
	struct sf_output *hdmi = add_output(core, &r, 0, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL, 0);
	sf_assert(sf_output_is_powered(hdmi));
	sf_assert_str_contains(r.last_error, "powering off failed");
	/* Still painted: the adapter did not power it off. */
	sf_assert_int_eq(sf_output_repaint(hdmi, SF_FORCE_GEOMETRY, SF_SEC(1),
					   NULL), SF_REPAINT_NOW);
	sf_core_destroy(core);

	/* An adapter without the hook: said once, never pretended. */
	struct sf_test_core r2;
	sf_test_core_init(&r2);
	core = sf_core_create(&cfg, &sf_test_core_interface_no_power, &r2, 0);
	hdmi = sf_output_create(core, "HDMI-A-1", modes, 1, 0, 0);
	sf_test_core_track(&r2, 0, hdmi);
	sf_output_set_kind(hdmi, SF_OUTPUT_KIND_EXTERNAL, 0);
	sf_assert(sf_output_is_powered(hdmi));
	sf_assert_str_contains(r2.last_info, "cannot be powered off here");
	sf_core_destroy(core);
}

SF_TEST(kind_guessed_and_applied_at_first_dispatch)
{
	struct sf_test_core r;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	config_set(&cfg, "unneeded-outputs", "external");
	struct sf_core *core = make_core(&r, &cfg);
	/* An adapter that never calls set_kind: the name decides, at the
	 * first dispatch, once its data is tied. */
	struct sf_output *dp = sf_output_create(core, "DP-1", modes, 1, 0, 0);
	r.outputs[0] = dp;
	r.powered[0] = true;
	sf_assert(sf_output_is_powered(dp));
	sf_assert_int_eq(sf_core_next_deadline(core), 0);
	sf_core_dispatch(core, SF_MSEC(1));
	sf_assert(!r.powered[0]);
	sf_assert_int_eq(sf_output_get_kind(dp), SF_OUTPUT_KIND_EXTERNAL);
	sf_core_destroy(core);
}

SF_TEST(inhibitor_holds_only_the_output_showing_it)
{
	struct sf_test_core r;
	struct sf_config cfg;

	sf_config_init_defaults(&cfg);
	config_set(&cfg, "standby-timeout", "30");
	config_set(&cfg, "external-standby-timeout", "30");
	config_set(&cfg, "dim-timeout", "0");
	struct sf_core *core = make_core(&r, &cfg);
	struct sf_output *panel = add_output(core, &r, 0, "eDP-1",
					     SF_OUTPUT_KIND_INTERNAL, 0);
	struct sf_output *hdmi = add_output(core, &r, 1, "HDMI-A-1",
					    SF_OUTPUT_KIND_EXTERNAL, 0);
	struct sf_surface *video = sf_surface_create(core, 1920, 1080, 0);

	sf_surface_inhibit(video, 0);
	/* Not shown anywhere yet: holds nothing. */
	sf_surface_set_output(video, panel, 1.0, SF_SEC(1));
	sf_test_core_run_until(core, SF_SEC(31));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_DPMS_STANDBY);
	sf_assert_int_eq(sf_output_get_state(panel), SF_STATE_LOW_REFRESH);

	/* Moved to the monitor: the monitor wakes to low refresh at most;
	 * the panel is free, and its standby comes a full timeout later
	 * (the video just ended, as far as it knows). */
	sf_surface_set_output(video, hdmi, 1.0, SF_SEC(40));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_LOW_REFRESH);
	sf_test_core_run_until(core, SF_SEC(69));
	sf_assert_int_eq(sf_output_get_state(panel), SF_STATE_LOW_REFRESH);
	sf_test_core_run_until(core, SF_SEC(71));
	sf_assert_int_eq(sf_output_get_state(panel), SF_STATE_DPMS_STANDBY);

	/* Hidden, it holds nothing either. */
	sf_surface_set_output(video, hdmi, 0.0, SF_SEC(72));
	sf_test_core_run_until(core, SF_SEC(103));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_DPMS_STANDBY);

	/* Destroyed while shown: the hold goes at the next dispatch. */
	sf_surface_set_output(video, hdmi, 1.0, SF_SEC(110));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_LOW_REFRESH);
	sf_surface_destroy(video);
	sf_assert_int_eq(sf_core_next_deadline(core), 0);
	sf_core_dispatch(core, SF_SEC(110));	/* "now", as an adapter does */
	sf_test_core_run_until(core, SF_SEC(139));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_LOW_REFRESH);
	sf_test_core_run_until(core, SF_SEC(141));
	sf_assert_int_eq(sf_output_get_state(hdmi), SF_STATE_DPMS_STANDBY);

	/* Unbalanced: a bug report, not a crash. */
	struct sf_surface *other = sf_surface_create(core, 10, 10, SF_SEC(150));
	sf_surface_uninhibit(other, SF_SEC(150));
	sf_assert_str_contains(r.last_error, "uninhibited more often");
	sf_surface_destroy(other);
	sf_core_destroy(core);
}

SF_TEST_MAIN()
