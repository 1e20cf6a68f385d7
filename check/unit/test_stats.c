/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stats.c - the statistics of compare against known values: exact
 * Mann-Whitney p for small samples, the t distribution against closed
 * forms and table values, Welch's t against a hand computation and a
 * numerical integral, Benjamini-Hochberg on the example of the 1995
 * paper, and the coverage of the bootstrap interval on normal data.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "results/stats/stats.h"

static void close_to(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.10g, want %.10g (+-%g)", got, want, tol);
}

static void test_describe(void **state)
{
	const double v[] = { 4, 1, 3, 2, 10 };
	struct st_desc d;

	(void)state;
	assert_int_equal(st_describe(v, 5, &d), 0);
	assert_int_equal(d.n, 5);
	close_to(d.mean, 4, 1e-12);
	close_to(d.median, 3, 0);
	close_to(d.min, 1, 0);
	close_to(d.max, 10, 0);
	/* deviations 0,-3,-1,-2,6: squares 50, / 4 */
	close_to(d.sd, sqrt(12.5), 1e-12);
	close_to(d.cov_pct, 100 * sqrt(12.5) / 4, 1e-9);
	assert_int_equal(st_describe(v, 2, &d), 0);
	close_to(d.median, 2.5, 0);
	assert_int_equal(st_describe(v, 1, &d), 0);
	assert_true(isnan(d.sd) && isnan(d.cov_pct));
}

/* Fully separated samples: p = 2 / C(2n, n). */
static void test_mwu_exact_separated(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct st_test t;

	(void)state;
	assert_int_equal(st_mann_whitney(a, 3, b, 3, &t), 0);
	assert_true(t.exact);
	close_to(t.p, 0.1, 1e-12);
	close_to(t.stat, 9, 0);
	assert_int_equal(st_mann_whitney(a, 4, b, 4, &t), 0);
	close_to(t.p, 2.0 / 70, 1e-12);          /* 0.0286 */
	assert_int_equal(st_mann_whitney(a, 5, b, 5, &t), 0);
	close_to(t.p, 2.0 / 252, 1e-12);         /* 0.00794 */
	/* the other direction gives the same two-sided p, U = 0 */
	assert_int_equal(st_mann_whitney(b, 5, a, 5, &t), 0);
	close_to(t.p, 2.0 / 252, 1e-12);
	close_to(t.stat, 0, 0);
	close_to(st_mwu_min_p(3, 3), 0.1, 1e-12);
	close_to(st_mwu_min_p(4, 4), 2.0 / 70, 1e-12);
	close_to(st_mwu_min_p(5, 5), 2.0 / 252, 1e-12);
	close_to(st_mwu_min_p(1, 1), 1, 0);
}

/*
 * Partial overlap, counted by hand: a = {1,2,4}, b = {3,5,6}. Rank sum of
 * a is 1+2+4 = 7; of the 20 subsets of size 3 of 1..6, sums <= 7 are
 * {1,2,3}=6, {1,2,4}=7: P(W <= 7) = 2/20, so p = 0.2.
 */
static void test_mwu_exact_overlap(void **state)
{
	const double a[] = { 1, 2, 4 }, b[] = { 3, 5, 6 };
	const double c[] = { 1, 2, 2 }, d[] = { 2, 3, 4 };
	struct st_test t;

	(void)state;
	assert_int_equal(st_mann_whitney(a, 3, b, 3, &t), 0);
	close_to(t.p, 0.2, 1e-12);
	close_to(t.stat, 8, 0);
	/*
	 * Ties: the values 1,2,2,2,3,4 have midranks 1,3,3,3,5,6. c holds
	 * {1,3,3} (sum 7). Subsets of 3 of {1,3,3,3,5,6} with sum <= 7:
	 * {1,3,3} three ways (choose 2 of the three 3s): P = 3/20, p = 0.3.
	 */
	assert_int_equal(st_mann_whitney(c, 3, d, 3, &t), 0);
	close_to(t.p, 0.3, 1e-12);
	/* identical samples: p = 1 */
	assert_int_equal(st_mann_whitney(a, 3, a, 3, &t), 0);
	close_to(t.p, 1, 1e-12);
	assert_int_equal(st_mann_whitney(a, 0, b, 3, &t), -EINVAL);
}

/* From 50 values a side, the normal approximation: the z formula on
 * overlapping samples; below, without ties, exact, and the normal
 * approximation is close to it. */
static void test_mwu_normal(void **state)
{
	double a[60], b[60], c[25], z;
	struct st_test t;

	(void)state;
	for (int i = 0; i < 60; i++) {
		a[i] = i;
		b[i] = i + 50.5;  /* overlap of 10, no ties */
	}
	for (int i = 0; i < 25; i++)
		c[i] = i + 3.5;
	assert_int_equal(st_mann_whitney(a, 60, b, 60, &t), 0);
	assert_false(t.exact);
	/* U_b = pairs b > a: 3600 minus the 1+2+..+9 = 45 pairs a > b */
	close_to(t.stat, 3600 - 45, 0);
	z = (fabs(3555 - 1800.0) - 0.5) / sqrt(60 * 60 * 121 / 12.0);
	close_to(t.p, erfc(z / sqrt(2)), 1e-15);
	assert_int_equal(st_mann_whitney(a, 40, b, 40, &t), 0);
	assert_true(t.exact);
	/* at 25 vs 25 (exact) the normal approximation is close */
	assert_int_equal(st_mann_whitney(a, 25, c, 25, &t), 0);
	assert_true(t.exact);
	assert_true(t.p > 0.01 && t.p < 0.5);
	z = (fabs(t.stat - 312.5) - 0.5) / sqrt(25 * 25 * 51 / 12.0);
	close_to(t.p, erfc(z / sqrt(2)), 0.2 * t.p);
}

static void test_t_distribution(void **state)
{
	(void)state;
	/* df = 1 is Cauchy, df = 2 has a closed form */
	for (double t = -20; t <= 20; t += 0.37) {
		close_to(st_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		close_to(st_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	/* table values of Student's t */
	close_to(st_t_quantile(0.975, 1), 12.7062047, 1e-6);
	close_to(st_t_quantile(0.975, 5), 2.5705818, 1e-6);
	close_to(st_t_quantile(0.975, 10), 2.2281389, 1e-6);
	close_to(st_t_quantile(0.995, 3), 5.8409093, 1e-6);
	close_to(st_t_quantile(0.025, 30), -2.0422725, 1e-6);
	close_to(st_norm_quantile(0.975), 1.959963985, 1e-9);
	close_to(st_norm_quantile(0.001), -3.090232306, 1e-9);
	close_to(st_norm_cdf(1.959963985), 0.975, 1e-9);
}

/* Student t density, for an independent numerical integral. */
static double t_pdf(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2)) /
	       sqrt(df * M_PI) * pow(1 + t * t / df, -(df + 1) / 2);
}

static void test_welch(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 6, 8, 10 };
	double df, tt, integral = 0, h = 1e-3;
	struct st_test t;

	(void)state;
	assert_int_equal(st_welch(a, 5, b, 5, &t), 0);
	/* means 3 and 6, variances 2.5 and 10: se = sqrt(0.5 + 2) */
	tt = 3 / sqrt(2.5);
	df = 2.5 * 2.5 / (0.5 * 0.5 / 4 + 2.0 * 2.0 / 4);
	close_to(t.stat, tt, 1e-12);
	close_to(t.df, df, 1e-12);
	/* p = 2 * integral of the density beyond |t|: Simpson to 2000 */
	for (double x = tt; x < 2000; x += 2 * h)
		integral += h / 3 * (t_pdf(x, df) + 4 * t_pdf(x + h, df) +
				     t_pdf(x + 2 * h, df));
	close_to(t.p, 2 * integral, 1e-5);
	close_to(t.p, 0.1075, 5e-4);  /* R: t.test(1:5, c(2,4,6,8,10)) */
	assert_int_equal(st_welch(a, 1, b, 5, &t), -EINVAL);
	assert_int_equal(st_welch(a, 5, a, 5, &t), 0);
	close_to(t.p, 1, 1e-12);
}

/* Benjamini & Hochberg (1995), section 4: 15 p-values, 4 rejected at
 * q = 0.05. Adjusted values computed by hand from min_{j>=i} m p_j / j. */
static void test_bh(void **state)
{
	const double p[] = { 0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278,
			     0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719,
			     0.6528, 0.7590, 1.000 };
	double q[15], shuffled[15], qs[15];
	int rejected = 0;

	(void)state;
	assert_int_equal(st_bh(p, 15, q), 0);
	for (int i = 0; i < 15; i++)
		rejected += q[i] < 0.05;
	assert_int_equal(rejected, 4);
	close_to(q[0], 15 * 0.0001 / 1, 1e-12);
	close_to(q[3], 15 * 0.0095 / 4, 1e-12);
	close_to(q[4], 15 * 0.0201 / 5, 1e-12);
	close_to(q[8], 15 * 0.0459 / 9, 1e-12);
	close_to(q[14], 1, 1e-12);
	/* order does not matter; NAN stays NAN and is not counted */
	for (int i = 0; i < 15; i++)
		shuffled[i] = p[(i * 7) % 15];
	assert_int_equal(st_bh(shuffled, 15, qs), 0);
	for (int i = 0; i < 15; i++)
		close_to(qs[i], q[(i * 7) % 15], 1e-15);
	shuffled[0] = NAN;
	assert_int_equal(st_bh(shuffled, 3, qs), 0);
	assert_true(isnan(qs[0]));
	/* two left: the smaller of p[7], p[14] (0.0344 and 1): 2 * 0.0344 */
	close_to(qs[1], 2 * 0.0344, 1e-12);
}

/* Fisher's exact test against R's fisher.test(matrix(c(a, c, b, d), 2))
 * (the same sums done by hand with binomial coefficients). */
static void test_fisher(void **state)
{
	(void)state;
	close_to(st_fisher_2x2(4, 0, 0, 4), 2.0 / 70, 1e-12);    /* 0 -> all */
	close_to(st_fisher_2x2(0, 4, 4, 0), 2.0 / 70, 1e-12);    /* all -> 0 */
	close_to(st_fisher_2x2(4, 0, 0, 5), 1.0 / 126, 1e-12);   /* 4 vs 5 */
	close_to(st_fisher_2x2(3, 1, 1, 3), 34.0 / 70, 1e-12);
	close_to(st_fisher_2x2(2, 3, 7, 1), 0.21678321678321677, 1e-12);
	close_to(st_fisher_2x2(2, 2, 2, 2), 1, 1e-12);
	assert_true(isnan(st_fisher_2x2(0, 0, 3, 1)));
}

/* Box-Muller normal deviate. */
static double normal(struct st_rng *r)
{
	double u = (st_rng_next(r) >> 11) * 0x1.0p-53 + 0x1.0p-54;
	double v = (st_rng_next(r) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Share of intervals that contain the true % change, over @reps data
 * sets of @n normal values a side with CoV @cov % and shift @shift %. */
static double coverage(unsigned n, double cov, double shift, int reps)
{
	struct st_rng r;
	double a[32], b[32], lo, hi, truth = shift;
	int hit = 0;

	st_rng_seed(&r, 12345 + n);
	for (int k = 0; k < reps; k++) {
		for (unsigned i = 0; i < n; i++) {
			a[i] = 1000 * (1 + cov / 100 * normal(&r));
			b[i] = 1000 * (1 + shift / 100) * (1 + cov / 100 * normal(&r));
		}
		assert_int_equal(st_boot_ci_pct(a, n, b, n, 0.95, 2000, k, &lo, &hi), 0);
		hit += lo <= truth && truth <= hi;
	}
	return (double)hit / reps;
}

static void test_bootstrap_coverage(void **state)
{
	double c5, c10;

	(void)state;
	c5 = coverage(5, 2, -3, 600);
	c10 = coverage(10, 1, 0, 600);
	print_message("bootstrap 95%% CI coverage: n=5 %.3f, n=10 %.3f\n", c5, c10);
	/* 600 trials: binomial sd at 0.95 is 0.009; allow the method's own
	 * small-sample error too */
	assert_true(c5 > 0.92 && c5 < 0.985);
	assert_true(c10 > 0.92 && c10 < 0.98);
}

static void test_bootstrap_basics(void **state)
{
	const double a[] = { 100, 101, 99, 100.5, 99.5 };
	const double b[] = { 90, 91, 89, 90.5, 89.5 };
	double lo, hi, lo2, hi2;

	(void)state;
	assert_int_equal(st_boot_ci_pct(a, 5, b, 5, 0.95, 5000, 7, &lo, &hi), 0);
	assert_true(lo < -10 && hi > -10 && hi < -8);
	/* same bootstrap seed, same interval */
	assert_int_equal(st_boot_ci_pct(a, 5, b, 5, 0.95, 5000, 7, &lo2, &hi2), 0);
	close_to(lo2, lo, 0);
	close_to(hi2, hi, 0);
	/* no spread: a point */
	assert_int_equal(st_boot_ci_pct(a, 1, b, 1, 0.95, 100, 1, &lo, &hi), -EINVAL);
	{
		const double c[] = { 5, 5, 5 }, d[] = { 6, 6, 6 };

		assert_int_equal(st_boot_ci_pct(c, 3, d, 3, 0.95, 100, 1, &lo, &hi), 0);
		close_to(lo, 20, 1e-12);
		close_to(hi, 20, 1e-12);
	}
}

static void test_runs_needed(void **state)
{
	(void)state;
	/* no noise: the smallest n that can reach p < 0.05 is 4 */
	assert_int_equal(st_runs_needed(0, 2, 0.05, 0.8), 4);
	/* 2(1.96 + 0.8416)^2 (2/2)^2 / (3/pi) = 16.44 -> 17 */
	assert_int_equal(st_runs_needed(2, 2, 0.05, 0.8), 17);
	/* four times the noise, sixteen times the runs (about) */
	assert_in_range(st_runs_needed(8, 2, 0.05, 0.8), 262, 264);
	assert_int_equal(st_runs_needed(NAN, 2, 0.05, 0.8), 0);
}

static void test_rng(void **state)
{
	struct st_rng r;
	unsigned count[10] = { 0 };

	(void)state;
	st_rng_seed(&r, 1);
	for (int i = 0; i < 100000; i++)
		count[st_rng_below(&r, 10)]++;
	for (int i = 0; i < 10; i++)
		assert_in_range(count[i], 9500, 10500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_mwu_exact_separated),
		cmocka_unit_test(test_mwu_exact_overlap),
		cmocka_unit_test(test_mwu_normal),
		cmocka_unit_test(test_t_distribution),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_fisher),
		cmocka_unit_test(test_bootstrap_coverage),
		cmocka_unit_test(test_bootstrap_basics),
		cmocka_unit_test(test_runs_needed),
		cmocka_unit_test(test_rng),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
