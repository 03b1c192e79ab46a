/* SPDX-License-Identifier: MIT */
/*
 * The core's mode list of an output, from the modes its server reports:
 * the lists each adapter built itself before (Weston: every mode, seamless
 * when the size is the current one's; X: the current resolution's modes,
 * all seamless, and the synthesized low-refresh copy), now from one
 * builder; and when the copy is made.
 */
#include <string.h>

#include "sf-config.h"
#include "sf-core.h"
#include "sf-modes.h"
#include "sf-test.h"

static void
quiet_log(void *data, enum sf_log_level level, const char *message)
{
	(void)data;
	(void)level;
	(void)message;
}

static const struct sf_core_interface iface = { .log = quiet_log };

static bool
same_mode(const struct sf_mode *a, const struct sf_mode *b)
{
	return a->width == b->width && a->height == b->height &&
	       a->refresh_mhz == b->refresh_mhz &&
	       a->seamless == b->seamless && a->preferred == b->preferred;
}

/* A Weston output (fake-KMS's panel): every mode settable; the native
 * one preferred, the current one anywhere in the list. */
static const struct sf_mode_report weston_modes[] = {
	{ 1280, 720, 60000, false, true },
	{ 1920, 1080, 60000, true, true },
	{ 1920, 1080, 48000, false, true },
	{ 1920, 1080, 0, false, true },		/* refresh unknown */
};

SF_TEST(weston_managed_output_offers_every_mode)
{
	struct sf_mode out[4];
	size_t map[4], current = 99;
	size_t n = sf_modes_build(weston_modes, 4, 1, true, out, map,
				  &current);
	static const struct sf_mode want[] = {
		{ 1280, 720, 60000, false, false },
		{ 1920, 1080, 60000, true, true },
		{ 1920, 1080, 48000, true, false },
		{ 1920, 1080, 0, true, false },
	};

	sf_assert_int_eq(n, 4);
	sf_assert_int_eq(current, 1);
	for (size_t i = 0; i < n; i++) {
		sf_assert(same_mode(&out[i], &want[i]));
		sf_assert_int_eq(map[i], i);
	}
}

SF_TEST(unmanaged_output_offers_its_current_mode_only)
{
	struct sf_mode out[4];
	size_t map[4], current = 99;
	size_t n = sf_modes_build(weston_modes, 4, 2, false, out, map,
				  &current);

	sf_assert_int_eq(n, 1);
	sf_assert_int_eq(current, 0);
	sf_assert_int_eq(map[0], 2);
	sf_assert(same_mode(&out[0], &(struct sf_mode){ 1920, 1080, 48000,
							 true, false }));
}

/* An X output: the user's mode first (X reports it as the native one),
 * the modes of another size not settable (the screen keeps its size),
 * and the synthesized copy at the end. */
static const struct sf_mode_report x_modes[] = {
	{ 1920, 1080, 60000, true, true },
	{ 1920, 1080, 50000, false, true },
	{ 2560, 1440, 60000, false, false },
	{ 1024, 768, 75000, false, false },
	{ 1920, 1080, 30000, false, true },	/* 1920x1080_sf30 */
};

SF_TEST(x_output_offers_its_resolution_all_seamless)
{
	struct sf_mode out[5];
	size_t map[5], current = 99;
	size_t n = sf_modes_build(x_modes, 5, 0, true, out, map, &current);
	static const struct sf_mode want[] = {
		{ 1920, 1080, 60000, true, true },
		{ 1920, 1080, 50000, true, false },
		{ 1920, 1080, 30000, true, false },
	};
	static const size_t want_map[] = { 0, 1, 4 };

	sf_assert_int_eq(n, 3);
	sf_assert_int_eq(current, 0);
	for (size_t i = 0; i < n; i++) {
		sf_assert(same_mode(&out[i], &want[i]));
		sf_assert_int_eq(map[i], want_map[i]);
	}
	/* Unmanaged: the user's mode alone, seamless with itself. */
	n = sf_modes_build(x_modes, 5, 0, false, out, NULL, &current);
	sf_assert_int_eq(n, 1);
	sf_assert(same_mode(&out[0], &want[0]));
}

SF_TEST(a_current_mode_the_adapter_cannot_set_is_still_listed)
{
	struct sf_mode out[5];
	size_t current = 99;
	size_t n = sf_modes_build(x_modes, 5, 2, true, out, NULL, &current);

	/* 2560x1440 is the current size: nothing else is seamless. */
	sf_assert_int_eq(n, 4);
	sf_assert_int_eq(current, 2);
	sf_assert(out[current].seamless);
	sf_assert(!out[0].seamless && !out[1].seamless && !out[3].seamless);
	sf_assert_int_eq(sf_modes_build(x_modes, 5, 5, true, out, NULL,
					&current), 0);
}

static struct sf_core *
core_with(const char *synthesize, const char *min_hz)
{
	struct sf_config cfg;
	char err[256];

	sf_config_init_defaults(&cfg);
	if (synthesize)
		sf_config_set(&cfg, SF_CONFIG_NS_INI, "synthesize-low-refresh",
			      synthesize, err, sizeof(err));
	if (min_hz)
		sf_config_set(&cfg, SF_CONFIG_NS_INI, "idle-min-refresh",
			      min_hz, err, sizeof(err));
	return sf_core_create(&cfg, &iface, NULL, 0);
}

SF_TEST(low_refresh_copy_follows_the_options)
{
	uint32_t mhz = 1;
	struct sf_core *off = core_with(NULL, NULL);
	struct sf_core *on = core_with("true", NULL);
	struct sf_core *on40 = core_with("true", "40");

	sf_assert(off && on && on40);
	/* Off by default. */
	sf_assert(!sf_modes_low_copy(off, true, 60000, &mhz));
	sf_assert_int_eq(mhz, 0);
	/* idle-min-refresh's default, 30 Hz. */
	sf_assert(sf_modes_low_copy(on, true, 60000, &mhz));
	sf_assert_int_eq(mhz, 30000);
	sf_assert(sf_modes_low_copy(on40, true, 60000, &mhz));
	sf_assert_int_eq(mhz, 40000);
	/* Already at or below: none, but the option asked (X logs it). */
	sf_assert(!sf_modes_low_copy(on40, true, 40000, &mhz));
	sf_assert_int_eq(mhz, 40000);
	sf_assert(!sf_modes_low_copy(on, true, 0, &mhz));
	/* Unmanaged outputs get none and no word about it. */
	sf_assert(!sf_modes_low_copy(on, false, 60000, &mhz));
	sf_assert_int_eq(mhz, 0);
	sf_core_destroy(off);
	sf_core_destroy(on);
	sf_core_destroy(on40);
}

SF_TEST_MAIN()
