/* SPDX-License-Identifier: MIT */
/*
 * The statistics of stillframectl measure --ab: the mean of a set of
 * readings, and the difference of two means with its 95% confidence
 * interval by Welch's t, which does not assume the two sets vary alike
 * (a panel at 60 Hz and one at 30 Hz need not).  The t quantiles come
 * from a table, so no maths library beyond sqrt is needed.
 */
#ifndef SF_MEASURE_STATS_H
#define SF_MEASURE_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* 0 for no values. */
double
sf_measure_mean(const double *values, size_t n);

/* The sample variance (n - 1 in the denominator); 0 below two values. */
double
sf_measure_variance(const double *values, size_t n);

/* The 97.5% quantile of Student's t with `df` degrees of freedom, from
 * a table; a df between two rows takes the smaller row, whose quantile
 * is larger, so the interval errs on the wide side. */
double
sf_measure_t975(double df);

/* The mean power, in W, by an energy counter that fell from
 * `first_wh` to `last_wh` in `seconds`; false when it did not fall
 * (batteries update it in coarse steps) or no time passed. */
bool
sf_measure_energy_watts(double first_wh, double last_wh, double seconds,
			double *watts);

struct sf_measure_welch {
	double mean_a, mean_b;
	double difference;		/* mean_a - mean_b */
	double low, high;		/* its 95% confidence interval */
	double df;			/* Welch-Satterthwaite */
};

/* mean(a) - mean(b) with its interval; false unless each set has at
 * least two values. */
bool
sf_measure_welch(const double *a, size_t n_a, const double *b, size_t n_b,
		 struct sf_measure_welch *out);

#endif /* SF_MEASURE_STATS_H */
