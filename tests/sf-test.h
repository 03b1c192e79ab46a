/* SPDX-License-Identifier: MIT */
#ifndef SF_TEST_H
#define SF_TEST_H

/*
 * A minimal TAP test harness.  Each test is a function registered with
 * SF_TEST(); a failed assertion reports file:line and the values, marks
 * the test "not ok" and returns from it.  main() is provided by
 * SF_TEST_MAIN().
 */

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sf_test_case {
	const char *name;
	void (*func)(bool *failed);
};

#define SF_TEST_MAX_CASES 256
extern struct sf_test_case sf_test_cases[SF_TEST_MAX_CASES];
extern int sf_test_n_cases;

#define SF_TEST(name_)							\
	static void name_(bool *sf_test_failed_);			\
	__attribute__((constructor)) static void			\
	sf_test_register_##name_(void)					\
	{								\
		if (sf_test_n_cases < SF_TEST_MAX_CASES)		\
			sf_test_cases[sf_test_n_cases++] =		\
				(struct sf_test_case){ #name_, name_ };	\
	}								\
	static void name_(bool *sf_test_failed_)

#define sf_test_fail_(...)						\
	do {								\
		printf("# %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		*sf_test_failed_ = true;				\
		return;							\
	} while (0)

#define sf_assert(cond_)						\
	do {								\
		if (!(cond_))						\
			sf_test_fail_("assertion failed: %s", #cond_);	\
	} while (0)

#define sf_assert_int_op_(a_, op_, b_)					\
	do {								\
		long long sf_a_ = (long long)(a_);			\
		long long sf_b_ = (long long)(b_);			\
		if (!(sf_a_ op_ sf_b_))					\
			sf_test_fail_("%s %s %s: %lld vs %lld", #a_,	\
				      #op_, #b_, sf_a_, sf_b_);		\
	} while (0)

#define sf_assert_int_eq(a_, b_) sf_assert_int_op_(a_, ==, b_)
#define sf_assert_int_ne(a_, b_) sf_assert_int_op_(a_, !=, b_)
#define sf_assert_int_lt(a_, b_) sf_assert_int_op_(a_, <, b_)
#define sf_assert_int_le(a_, b_) sf_assert_int_op_(a_, <=, b_)
#define sf_assert_int_gt(a_, b_) sf_assert_int_op_(a_, >, b_)
#define sf_assert_int_ge(a_, b_) sf_assert_int_op_(a_, >=, b_)

#define sf_assert_double_near(a_, b_, eps_)				\
	do {								\
		double sf_a_ = (a_), sf_b_ = (b_);			\
		if (!(fabs(sf_a_ - sf_b_) <= (eps_)))			\
			sf_test_fail_("%s ~ %s: %g vs %g (eps %g)", #a_,	\
				      #b_, sf_a_, sf_b_, (double)(eps_)); \
	} while (0)

#define sf_assert_str_eq(a_, b_)					\
	do {								\
		const char *sf_a_ = (a_), *sf_b_ = (b_);		\
		if (!sf_a_ || !sf_b_ || strcmp(sf_a_, sf_b_) != 0)	\
			sf_test_fail_("%s == %s: \"%s\" vs \"%s\"", #a_,	\
				      #b_, sf_a_ ? sf_a_ : "(null)",	\
				      sf_b_ ? sf_b_ : "(null)");	\
	} while (0)

#define sf_assert_str_contains(hay_, needle_)				\
	do {								\
		const char *sf_h_ = (hay_), *sf_n_ = (needle_);		\
		if (!sf_h_ || !strstr(sf_h_, sf_n_))			\
			sf_test_fail_("\"%s\" does not contain \"%s\"",	\
				      sf_h_ ? sf_h_ : "(null)", sf_n_);	\
	} while (0)

#define SF_TEST_MAIN()							\
	struct sf_test_case sf_test_cases[SF_TEST_MAX_CASES];		\
	int sf_test_n_cases;						\
	int								\
	main(int argc, char **argv)					\
	{								\
		int failures = 0;					\
		const char *only = argc > 1 ? argv[1] : NULL;		\
		int n = 0;						\
		for (int i = 0; i < sf_test_n_cases; i++)		\
			if (!only || strcmp(only, sf_test_cases[i].name) == 0) \
				n++;					\
		printf("1..%d\n", n);					\
		int k = 0;						\
		for (int i = 0; i < sf_test_n_cases; i++) {		\
			if (only && strcmp(only, sf_test_cases[i].name) != 0) \
				continue;				\
			bool failed = false;				\
			sf_test_cases[i].func(&failed);			\
			printf("%s %d - %s\n", failed ? "not ok" : "ok",	\
			       ++k, sf_test_cases[i].name);		\
			fflush(stdout);					\
			failures += failed;				\
		}							\
		return failures ? 1 : (n ? 0 : 1);			\
	}

#endif /* SF_TEST_H */
