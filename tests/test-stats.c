/* SPDX-License-Identifier: MIT */
#include "sf-stats.h"
#include "sf-test.h"

SF_TEST(time_in_state_includes_running_period)
{
	struct sf_output_stats s;

	sf_output_stats_init(&s, SF_STATE_ACTIVE, SF_SEC(1));
	sf_output_stats_enter_state(&s, SF_STATE_LOW_REFRESH, SF_SEC(3));
	sf_output_stats_enter_state(&s, SF_STATE_ACTIVE, SF_SEC(10));
	sf_assert_int_eq(sf_output_stats_time_in_state(&s, SF_STATE_ACTIVE,
						       SF_SEC(12)),
			 SF_SEC(4));
	sf_assert_int_eq(sf_output_stats_time_in_state(
				 &s, SF_STATE_LOW_REFRESH, SF_SEC(12)),
			 SF_SEC(7));
	sf_assert_int_eq(sf_output_stats_time_in_state(&s, SF_STATE_DIM,
						       SF_SEC(12)), 0);
}

static void
make_view(struct sf_stats_view *view, struct sf_output_stats *os,
	  struct sf_stats_output_view *ov, struct sf_surface_stats *ss,
	  struct sf_stats_surface_view *sv)
{
	sf_output_stats_init(os, SF_STATE_ACTIVE, 0);
	os->repaints = 42;
	os->suppressed = 7;
	os->refresh_mhz = 48000;
	sf_output_stats_enter_state(os, SF_STATE_LOW_REFRESH, SF_SEC(2));
	*ov = (struct sf_stats_output_view){ "eDP-1\"x", os,
		SF_OUTPUT_KIND_INTERNAL, SF_OUTPUT_POWER_AUTO };
	*ss = (struct sf_surface_stats){ .commits = 9, .held = 3 };
	*sv = (struct sf_stats_surface_view){ 5, "foot", SF_CLASS_BLINKING,
					      ss };
	*view = (struct sf_stats_view){
		.now = SF_SEC(10),
		.energy = { .actual_j = 10.5, .baseline_j = 20.25 },
		.reclock = SF_RECLOCK_LOW,
		.outputs = ov,
		.n_outputs = 1,
		.surfaces = sv,
		.n_surfaces = 1,
	};
}

SF_TEST(text_form)
{
	struct sf_stats_view view;
	struct sf_output_stats os;
	struct sf_stats_output_view ov;
	struct sf_surface_stats ss;
	struct sf_stats_surface_view sv;
	char buf[8192];
	struct sf_buffer_writer bw;

	make_view(&view, &os, &ov, &ss, &sv);
	sf_buffer_writer_init(&bw, buf, sizeof(buf));
	sf_stats_write_text(&view, &bw.writer);
	sf_assert_str_contains(buf, "energy.estimate true\n");
	sf_assert_str_contains(buf, "energy.saved_j 9.750\n");
	sf_assert_str_contains(buf, "gpu.reclock low\n");
	sf_assert_str_contains(buf, ".repaints 42\n");
	sf_assert_str_contains(buf, ".suppressed 7\n");
	sf_assert_str_contains(buf, ".refresh_mhz 48000\n");
	sf_assert_str_contains(buf, ".time.low-refresh_s 8.000\n");
	sf_assert_str_contains(buf, ".time.active_s 2.000\n");
	sf_assert_str_contains(buf, "surface.5 class=blinking commits=9");
	sf_assert_str_contains(buf, "held=3");
	sf_assert_int_eq(bw.needed, bw.len);
}

SF_TEST(prometheus_form_is_parseable)
{
	struct sf_stats_view view;
	struct sf_output_stats os;
	struct sf_stats_output_view ov;
	struct sf_surface_stats ss;
	struct sf_stats_surface_view sv;
	char buf[16384];
	struct sf_buffer_writer bw;

	make_view(&view, &os, &ov, &ss, &sv);
	sf_buffer_writer_init(&bw, buf, sizeof(buf));
	sf_stats_write_prometheus(&view, &bw.writer);
	/* Label values are escaped. */
	sf_assert_str_contains(
		buf, "stillframe_repaints_total{output=\"eDP-1\\\"x\"} 42\n");
	sf_assert_str_contains(
		buf, "stillframe_energy_estimated_joules{policy=\"none\"} 20.250\n");
	sf_assert_str_contains(buf, "# TYPE stillframe_repaints_total counter\n");
	sf_assert_str_contains(buf, "state=\"low-refresh\"} 8.000\n");

	/* Every line is a comment or "name{labels} value". */
	int samples = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		char *space = strrchr(line, ' ');
		sf_assert(space != NULL);
		char *end;
		strtod(space + 1, &end);
		sf_assert(*end == '\0');
		sf_assert(strncmp(line, "stillframe_", 11) == 0);
		samples++;
	}
	sf_assert_int_ge(samples, 10);
}

SF_TEST(buffer_writer_truncates_but_counts)
{
	char buf[8];
	struct sf_buffer_writer bw;

	sf_buffer_writer_init(&bw, buf, sizeof(buf));
	sf_writer_printf(&bw.writer, "%s", "0123456789");
	sf_assert_str_eq(buf, "0123456");
	sf_assert_int_eq(bw.needed, 10);
}

SF_TEST_MAIN()
