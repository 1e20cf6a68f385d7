/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_robust.c - the robust statistics of compare on synthetic data with
 * known answers: the exact Mann-Whitney quantiles against the published
 * critical values, the Hodges-Lehmann shift and interval against a hand
 * computation, the coverage of the rank interval on log-normal data, the
 * CoV without one outlier, and the runs a side needs for a half-width.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "results/stats/robust.h"
#include "results/stats/stats.h"

static void close_to(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.10g, want %.10g (+-%g)", got, want, tol);
}

static void test_mwu_quantiles(void **state)
{
	(void)state;
	/* two-sided 0.05 critical values of U (tables, e.g. Siegel 1956):
	 * none for 3 vs 3, 0 for 4 vs 4, 2 for 5 vs 5, 5 for 6 vs 6,
	 * 13 for 8 vs 8, 23 for 10 vs 10, 6 for 5 vs 8 */
	assert_int_equal(st_mwu_lower_quantile(3, 3, 0.025), -1);
	assert_int_equal(st_mwu_lower_quantile(4, 4, 0.025), 0);
	assert_int_equal(st_mwu_lower_quantile(5, 5, 0.025), 2);
	assert_int_equal(st_mwu_lower_quantile(6, 6, 0.025), 5);
	assert_int_equal(st_mwu_lower_quantile(8, 8, 0.025), 13);
	assert_int_equal(st_mwu_lower_quantile(10, 10, 0.025), 23);
	assert_int_equal(st_mwu_lower_quantile(5, 8, 0.025), 6);
	assert_int_equal(st_mwu_lower_quantile(8, 5, 0.025), 6);
	/* the whole distribution sums to 1 */
	assert_int_equal(st_mwu_lower_quantile(4, 6, 1.0), 24);
}

static void test_hl_hand(void **state)
{
	const double base[] = { 1, M_E, M_E * M_E };
	const double new[] = { exp(0.5), exp(1.5), exp(2.5), exp(3.5) };
	const double five[] = { 100, 100, 100, 100, 100 };
	const double six[] = { 110, 110, 110, 110, 110 };
	double est, lo, hi;

	(void)state;
	/* log differences: -1.5, -.5, -.5, .5 x3, 1.5 x3, 2.5 x2, 3.5;
	 * median 1.0; at 80%, P(U <= 1) = 2/35 <= 0.1 < P(U <= 2) = 4/35,
	 * so k = 2: [-0.5, 2.5] */
	assert_int_equal(st_hl_shift_pct(base, 3, new, 4, 0.8, &est, &lo, &hi), 0);
	close_to(est, 100 * (M_E - 1), 1e-9);
	close_to(lo, 100 * expm1(-0.5), 1e-9);
	close_to(hi, 100 * expm1(2.5), 1e-9);
	/* a pure 10% shift */
	assert_int_equal(st_hl_shift_pct(five, 5, six, 5, 0.95, &est, &lo, &hi), 0);
	close_to(est, 10, 1e-9);
	close_to(lo, 10, 1e-9);
	close_to(hi, 10, 1e-9);
	/* 3 vs 3 cannot give a 95% interval */
	assert_int_equal(st_hl_shift_pct(base, 3, new, 3, 0.95, &est, &lo, &hi), 0);
	assert_true(isnan(lo) && isnan(hi) && isfinite(est));
	/* a value of 0 has no log */
	{
		const double z[] = { 0, 1, 2 };

		assert_int_equal(st_hl_shift_pct(z, 3, new, 4, 0.95, &est, &lo, &hi), -EINVAL);
	}
	assert_int_equal(st_hl_shift_pct(base, 0, new, 4, 0.95, &est, &lo, &hi), -EINVAL);
}

static double normal(struct st_rng *r)
{
	double u = (st_rng_next(r) >> 11) * 0x1.0p-53 + 0x1.0p-54;
	double v = (st_rng_next(r) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Share of trials whose rank interval covers the true log-shift. */
static double hl_coverage(size_t n, double shift_pct, unsigned trials)
{
	struct st_rng r;
	unsigned hit = 0;
	double a[64], b[64], est, lo, hi;

	st_rng_seed(&r, 42 + n);
	for (unsigned t = 0; t < trials; t++) {
		for (size_t i = 0; i < n; i++) {
			a[i] = 1000 * exp(0.02 * normal(&r));
			b[i] = 1000 * (1 + shift_pct / 100) * exp(0.02 * normal(&r));
		}
		if (st_hl_shift_pct(a, n, b, n, 0.95, &est, &lo, &hi))
			fail_msg("hl failed");
		hit += lo <= shift_pct && shift_pct <= hi;
	}
	return (double)hit / trials;
}

static void test_hl_coverage(void **state)
{
	double c5, c10, c30;

	(void)state;
	c5 = hl_coverage(5, -3, 800);
	c10 = hl_coverage(10, 0, 800);
	c30 = hl_coverage(30, 5, 400);   /* normal approximation of k */
	print_message("Hodges-Lehmann 95%% CI coverage: n=5 %.3f, n=10 %.3f, n=30 %.3f\n",
		      c5, c10, c30);
	/* exact level for 5 vs 5 is 1 - 2 * 4/252 = 0.968; 800 trials have a
	 * binomial sd of 0.007 */
	assert_true(c5 > 0.94 && c5 < 0.99);
	assert_true(c10 > 0.93 && c10 < 0.98);
	assert_true(c30 > 0.92 && c30 < 0.98);
}

static void test_cov_without_extreme(void **state)
{
	const double v[] = { 100, 101, 99, 150, 100 };
	const double two[] = { 1, 2 };

	(void)state;
	/* {100, 101, 99, 100}: sd sqrt(2/3), mean 100 */
	close_to(st_cov_without_extreme(v, 5), 100 * sqrt(2.0 / 3) / 100, 1e-9);
	assert_true(isnan(st_cov_without_extreme(two, 2)));
}

static void test_half_width(void **state)
{
	struct st_rng r;
	double v[40], hw, cov;
	struct st_desc d;

	(void)state;
	/* t(16) sqrt(2/9) = 0.9993 <= 1 < t(14) sqrt(2/8) = 1.072 */
	assert_int_equal(st_runs_for_half_width(1, 1, 0.95), 9);
	assert_int_equal(st_runs_for_half_width(0, 1, 0.95), 3);
	assert_int_equal(st_runs_for_half_width(1, 0, 0.95), 0);
	/* the rank interval's half-width is close to t sqrt(2/n) CoV */
	st_rng_seed(&r, 5);
	for (int i = 0; i < 40; i++)
		v[i] = 1000 * (1 + 0.02 * normal(&r));
	assert_int_equal(st_describe(v, 40, &d), 0);
	cov = d.cov_pct;
	assert_int_equal(st_predicted_half_width(v, 40, 0.95, &hw), 0);
	close_to(hw, st_t_quantile(0.975, 78) * sqrt(2.0 / 40) * cov, 0.15 * hw);
	assert_int_equal(st_predicted_half_width(v, 1, 0.95, &hw), -EINVAL);
	/* 3 vs 3 has no rank interval at 95%: not reached, never a width */
	assert_int_equal(st_predicted_half_width(v, 3, 0.95, &hw), 0);
	assert_true(isnan(hw));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_quantiles),
		cmocka_unit_test(test_hl_hand),
		cmocka_unit_test(test_hl_coverage),
		cmocka_unit_test(test_cov_without_extreme),
		cmocka_unit_test(test_half_width),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
