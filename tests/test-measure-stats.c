/* SPDX-License-Identifier: MIT */
/* The statistics of stillframectl measure --ab (tools/measure-stats.c),
 * against values worked out by hand. */
#include "sf-measure-stats.h"
#include "sf-test.h"

SF_TEST(mean_and_sample_variance)
{
	static const double v[] = { 10, 12, 14, 16 };

	sf_assert_double_near(sf_measure_mean(v, 4), 13.0, 1e-12);
	/* (9 + 1 + 1 + 9) / 3, not / 4 */
	sf_assert_double_near(sf_measure_variance(v, 4), 20.0 / 3, 1e-12);
	sf_assert_double_near(sf_measure_mean(v, 0), 0.0, 0);
	sf_assert_double_near(sf_measure_variance(v, 1), 0.0, 0);
}

SF_TEST(t_quantiles_from_the_table_err_wide)
{
	sf_assert_double_near(sf_measure_t975(1), 12.706, 1e-9);
	sf_assert_double_near(sf_measure_t975(4), 2.776, 1e-9);
	/* between rows: the smaller df's, larger quantile */
	sf_assert_double_near(sf_measure_t975(4.9), 2.776, 1e-9);
	sf_assert_double_near(sf_measure_t975(30), 2.042, 1e-9);
	sf_assert_double_near(sf_measure_t975(35), 2.042, 1e-9);
	sf_assert_double_near(sf_measure_t975(59), 2.021, 1e-9);
	sf_assert_double_near(sf_measure_t975(1e6), 1.980, 1e-9);
	sf_assert_double_near(sf_measure_t975(0.4), 12.706, 1e-9);
}

SF_TEST(welch_interval_with_unequal_variances)
{
	static const double a[] = { 10, 12, 14, 16 };
	static const double b[] = { 5, 6, 7 };
	struct sf_measure_welch w;

	sf_assert(sf_measure_welch(a, 4, b, 3, &w));
	sf_assert_double_near(w.mean_a, 13.0, 1e-12);
	sf_assert_double_near(w.mean_b, 6.0, 1e-12);
	sf_assert_double_near(w.difference, 7.0, 1e-12);
	/* se^2 = (20/3)/4 + 1/3 = 2; df = 4 / (25/27 + 1/18) = 4.0755 */
	sf_assert_double_near(w.df, 4.0754717, 1e-6);
	/* t(4) = 2.776, times sqrt(2) */
	sf_assert_double_near(w.low, 7.0 - 3.9258568, 1e-6);
	sf_assert_double_near(w.high, 7.0 + 3.9258568, 1e-6);
}

SF_TEST(welch_interval_can_include_zero)
{
	static const double a[] = { 5, 9, 4, 10 };
	static const double b[] = { 8, 6, 7, 5 };
	struct sf_measure_welch w;

	sf_assert(sf_measure_welch(a, 4, b, 4, &w));
	sf_assert_double_near(w.difference, 0.5, 1e-12);
	sf_assert(w.low < 0 && w.high > 0);
}

SF_TEST(welch_without_spread_is_the_difference_itself)
{
	static const double a[] = { 8, 8, 8 };
	static const double b[] = { 6.5, 6.5 };
	struct sf_measure_welch w;

	sf_assert(sf_measure_welch(a, 3, b, 2, &w));
	sf_assert_double_near(w.low, 1.5, 1e-12);
	sf_assert_double_near(w.high, 1.5, 1e-12);
	sf_assert_double_near(w.df, 3, 1e-12);
}

SF_TEST(welch_needs_two_windows_of_each)
{
	static const double a[] = { 8, 8 };
	struct sf_measure_welch w;

	sf_assert(!sf_measure_welch(a, 2, a, 1, &w));
	sf_assert(!sf_measure_welch(a, 1, a, 2, &w));
}

SF_TEST(energy_counter_mean)
{
	double w = -1;

	/* 0.01 Wh in 6 s is 36 Ws in 6 s */
	sf_assert(sf_measure_energy_watts(40.01, 40.0, 6, &w));
	sf_assert_double_near(w, 6.0, 1e-9);
	w = -1;
	sf_assert(!sf_measure_energy_watts(40.0, 40.0, 6, &w));
	sf_assert(!sf_measure_energy_watts(39.0, 40.0, 6, &w));
	sf_assert(!sf_measure_energy_watts(40.01, 40.0, 0, &w));
	sf_assert_double_near(w, -1, 0);
}

SF_TEST_MAIN()
