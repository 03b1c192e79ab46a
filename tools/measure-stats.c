/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "sf-measure-stats.h"

double
sf_measure_mean(const double *values, size_t n)
{
	double sum = 0;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		sum += values[i];
	return sum / (double)n;
}

double
sf_measure_variance(const double *values, size_t n)
{
	double mean = sf_measure_mean(values, n), sum = 0;

	if (n < 2)
		return 0;
	/* Two passes: the readings are a few watts apart at most, and
	 * sum-of-squares formulas lose them to cancellation. */
	for (size_t i = 0; i < n; i++)
		sum += (values[i] - mean) * (values[i] - mean);
	return sum / (double)(n - 1);
}

double
sf_measure_t975(double df)
{
	/* Student's t, two-sided 95%: df 1 to 30, then 40, 60, 120. */
	static const double small[] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
		2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
		2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
		2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	static const struct {
		double df, t;
	} large[] = {
		{ 120, 1.980 }, { 60, 2.000 }, { 40, 2.021 },
	};

	if (!(df >= 1))
		return small[0];
	if (df < 31)
		return small[(int)df - 1];
	for (size_t i = 0; i < sizeof(large) / sizeof(large[0]); i++)
		if (df >= large[i].df)
			return large[i].t;
	return small[29];
}

bool
sf_measure_energy_watts(double first_wh, double last_wh, double seconds,
			double *watts)
{
	if (!(seconds > 0) || !(first_wh > last_wh))
		return false;
	*watts = (first_wh - last_wh) * 3600 / seconds;
	return true;
}

bool
sf_measure_welch(const double *a, size_t n_a, const double *b, size_t n_b,
		 struct sf_measure_welch *out)
{
	if (n_a < 2 || n_b < 2)
		return false;

	double va = sf_measure_variance(a, n_a) / (double)n_a;
	double vb = sf_measure_variance(b, n_b) / (double)n_b;
	double se2 = va + vb;

	out->mean_a = sf_measure_mean(a, n_a);
	out->mean_b = sf_measure_mean(b, n_b);
	out->difference = out->mean_a - out->mean_b;
	if (se2 > 0) {
		out->df = se2 * se2 / (va * va / (double)(n_a - 1) +
				       vb * vb / (double)(n_b - 1));
	} else {
		/* Every window read the same: no spread to estimate, the
		 * interval is the difference itself. */
		out->df = (double)(n_a + n_b - 2);
	}

	double half = sf_measure_t975(out->df) * sqrt(se2);

	out->low = out->difference - half;
	out->high = out->difference + half;
	return true;
}
