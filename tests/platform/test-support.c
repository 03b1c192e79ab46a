/* SPDX-License-Identifier: MIT */
/*
 * The adapters' support library over a fake sysfs tree: the core's
 * backlight hook writes the panel only for a managed output, a new
 * managed output lights it, the reclock hook reaches the GPU, and a
 * deadline becomes a timer's milliseconds.
 */
#include <stdlib.h>
#include <string.h>

#include "fake-kernel.h"
#include "sf-core.h"
#include "sf-support.h"
#include "sf-test.h"

#define BL "sys/class/backlight/intel_backlight/brightness"

struct fixture {
	struct sf_fake_kernel *fk;
	struct sf_platform *platform;
	struct sf_core *core;
	struct sf_output *output;
};

static void
quiet_log(void *data, enum sf_log_level level, const char *message)
{
	(void)data;
	(void)level;
	(void)message;
}

static void
quiet_platform_log(void *data, enum sf_platform_log_level level,
		   const char *message)
{
	(void)data;
	(void)level;
	(void)message;
}

static const struct sf_core_interface iface = { .log = quiet_log };

static const struct sf_mode mode = { 1920, 1080, 60000, true, true };

static void
fixture_init(struct fixture *f)
{
	struct sf_platform_options options;
	struct sf_config cfg;

	memset(f, 0, sizeof(*f));
	f->fk = sf_fake_kernel_create();
	sf_fake_add_i915(f->fk, 0, 300, 700, 1100);
	sf_fake_add_connector(f->fk, 0, "eDP-1", true);
	sf_fake_add_backlight(f->fk, "intel_backlight", "raw", 1000, 800);
	sf_platform_options_init(&options);
	options.root = sf_fake_kernel_root(f->fk);
	options.write = sf_fake_kernel_write;
	options.write_data = f->fk;
	options.log = quiet_platform_log;
	f->platform = sf_platform_create(&options);
	sf_config_init_defaults(&cfg);
	f->core = sf_core_create(&cfg, &iface, NULL, 0);
	if (f->core)
		f->output = sf_output_create(f->core, "eDP-1", &mode, 1, 0, 0);
}

static void
fixture_finish(struct fixture *f)
{
	sf_core_destroy(f->core);
	sf_platform_destroy(f->platform);
	sf_fake_kernel_destroy(f->fk);
}

static const char *
value(struct fixture *f, const char *rel)
{
	static char *last;

	free(last);
	last = sf_fake_read(f->fk, rel);
	return last;
}

SF_TEST(managed_output_dims_the_panel)
{
	struct fixture f;

	fixture_init(&f);
	sf_assert(f.platform && f.output);
	sf_assert(sf_support_set_backlight(f.platform, f.output, true, 30));
	sf_assert_str_eq(value(&f, BL), "300");
	/* Full brightness is the user's level. */
	sf_assert(sf_support_set_backlight(f.platform, f.output, true, 100));
	sf_assert_str_eq(value(&f, BL), "800");
	fixture_finish(&f);
}

SF_TEST(a_new_managed_output_lights_the_panel)
{
	struct fixture f;

	fixture_init(&f);
	sf_assert(f.platform && f.output);
	sf_assert(sf_support_set_backlight(f.platform, f.output, true, 30));
	sf_assert_str_eq(value(&f, BL), "300");
	/* Not managed now (the outputs option): its wish stands. */
	sf_support_output_added(f.platform, "eDP-1", false);
	sf_assert_str_eq(value(&f, BL), "300");
	sf_support_output_added(f.platform, "eDP-1", true);
	sf_assert_str_eq(value(&f, BL), "800");
	fixture_finish(&f);
}

SF_TEST(unmanaged_output_leaves_the_panel_alone)
{
	struct fixture f;

	fixture_init(&f);
	sf_assert(f.platform && f.output);
	sf_assert(!sf_support_set_backlight(f.platform, f.output, false, 30));
	sf_assert(sf_support_set_backlight(f.platform, f.output, false,
					   100));
	sf_assert_str_eq(value(&f, BL), "800");
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	fixture_finish(&f);
}

SF_TEST(reclock_hook_reaches_the_gpu)
{
	struct fixture f;

	fixture_init(&f);
	sf_assert(f.platform);
	sf_assert(sf_support_set_reclock(f.platform, SF_RECLOCK_LOW));
	sf_assert_str_eq(value(&f, "sys/class/drm/card0/gt_max_freq_mhz"),
			 "300");
	sf_assert(sf_support_set_reclock(f.platform, SF_RECLOCK_NORMAL));
	sf_assert_str_eq(value(&f, "sys/class/drm/card0/gt_max_freq_mhz"),
			 "1100");
	fixture_finish(&f);
}

SF_TEST(deadline_to_timer_milliseconds)
{
	sf_time_t now = SF_SEC(100);

	sf_assert_int_eq(sf_support_timer_ms(SF_TIME_NEVER, now), 0);
	/* Past or now: as soon as possible, never 0 (which disarms). */
	sf_assert_int_eq(sf_support_timer_ms(now - SF_SEC(1), now), 1);
	sf_assert_int_eq(sf_support_timer_ms(now, now), 1);
	/* Rounded up: never early. */
	sf_assert_int_eq(sf_support_timer_ms(now + 1, now), 1);
	sf_assert_int_eq(sf_support_timer_ms(now + SF_MSEC(5), now), 5);
	sf_assert_int_eq(sf_support_timer_ms(now + SF_MSEC(5) + 1, now), 6);
	sf_assert_int_eq(sf_support_timer_ms(now + SF_SEC(3000000), now),
			 INT32_MAX);
}

SF_TEST(clock_is_monotonic)
{
	sf_time_t a = sf_support_now();
	sf_time_t b = sf_support_now();

	sf_assert_int_gt(a, 0);
	sf_assert_int_ge(b, a);
}

SF_TEST_MAIN()
