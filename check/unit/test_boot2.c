/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_boot2.c - runs grouped by invocation, on synthetic data with known
 * between- and within-invocation variance: the ANOVA estimates against a
 * hand computation and against the truth over many data sets, and the
 * coverage of the two-level bootstrap interval against the one-level one
 * (which ignores the invocations) when invocations differ and when they
 * do not.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "results/stats/boot2.h"
#include "results/stats/stats.h"

static void close_to(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.10g, want %.10g (+-%g)", got, want, tol);
}

static double gauss(struct st_rng *r)
{
	double u = (st_rng_next(r) >> 11) * 0x1.0p-53 + 0x1.0p-54;
	double v = (st_rng_next(r) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void test_anova_hand(void **state)
{
	/* invocations {1,2,3} and {5,6,7}: means 2 and 6, grand mean 4;
	 * SSB = 3*4 + 3*4 = 24, MSB = 24; SSW = 2 + 2, MSW = 1;
	 * n0 = 3: sb2 = 23/3; Var(mean) = MSB/N = 4 with 1 df */
	const double v[] = { 1, 2, 3, 5, 6, 7 };
	const unsigned inv[] = { 7, 7, 7, 9, 9, 9 };
	const unsigned one[] = { 0, 0, 0, 0, 0, 0 };
	struct st_vc o;

	(void)state;
	assert_int_equal(st_vc_estimate(v, inv, 6, &o), 0);
	assert_int_equal(o.k, 2);
	assert_int_equal(o.model, ST_VC_TWO_LEVEL);
	close_to(o.mean, 4, 1e-12);
	close_to(o.msb, 24, 1e-12);
	close_to(o.msw, 1, 1e-12);
	close_to(o.var_between, 23.0 / 3, 1e-12);
	close_to(o.var_mean, 4, 1e-12);
	close_to(o.df, 1, 1e-9);
	/* one invocation: the between part is unknown, s^2/N with N-1 df */
	assert_int_equal(st_vc_estimate(v, one, 6, &o), 0);
	assert_int_equal(o.model, ST_VC_ONE);
	assert_true(isnan(o.var_between));
	close_to(o.var_mean, 5.6 / 6, 1e-12);
	close_to(o.df, 5, 1e-12);
	/* {1,3}, {2,4}: MSB = 1 < MSW = 2: pooled, between 0 */
	const double w[] = { 1, 3, 2, 4 };
	const unsigned iw[] = { 0, 0, 1, 1 };

	assert_int_equal(st_vc_estimate(w, iw, 4, &o), 0);
	assert_int_equal(o.model, ST_VC_POOLED);
	close_to(o.var_between, 0, 0);
	assert_int_equal(st_vc_estimate(w, iw, 1, &o), -EINVAL);
}

/* A side of @k invocations of @n runs: mu + b_j + e_ji. */
static void side(struct st_rng *r, double sb, double sw, size_t k, size_t n,
		 double *v, unsigned *inv)
{
	for (size_t j = 0; j < k; j++) {
		double b = sb * gauss(r);

		for (size_t i = 0; i < n; i++) {
			v[j * n + i] = 100 + b + sw * gauss(r);
			inv[j * n + i] = (unsigned)j;
		}
	}
}

struct cover {
	double two, one;          /* coverage of the true change, 0 */
	double width_two, width_one;
	double sb2, sw2;          /* mean estimates */
};

/* @sets A/A pairs of @k invocations x @n runs a side. */
static void coverage(double sb, double sw, size_t k, size_t n, unsigned sets,
		     struct cover *c)
{
	double a[64], b[64];
	unsigned ia[64], ib[64], hit2 = 0, hit1 = 0;
	struct st_rng r;

	st_rng_seed(&r, 12345);
	*c = (struct cover){ 0 };
	for (unsigned s = 0; s < sets; s++) {
		struct st_vc va, vb;
		double lo, hi, lo1, hi1;

		side(&r, sb, sw, k, n, a, ia);
		side(&r, sb, sw, k, n, b, ib);
		assert_int_equal(st_boot2_ci_pct(a, ia, k * n, b, ib, k * n, 0.95,
						 2000, s + 1, &lo, &hi, &va, &vb), 0);
		assert_int_equal(st_boot_ci_pct(a, k * n, b, k * n, 0.95, 2000,
						s + 1, &lo1, &hi1), 0);
		hit2 += lo <= 0 && hi >= 0;
		hit1 += lo1 <= 0 && hi1 >= 0;
		c->width_two += (hi - lo) / sets;
		c->width_one += (hi1 - lo1) / sets;
		c->sb2 += (isnan(va.var_between) ? 0 : va.var_between) / sets;
		c->sw2 += (isnan(va.var_within) ? 0 : va.var_within) / sets;
	}
	c->two = (double)hit2 / sets;
	c->one = (double)hit1 / sets;
	print_message("sb %g sw %g, %zu x %zu: coverage two-level %.3f (width %.2f%%), one-level %.3f (width %.2f%%); mean sb2 %.2f sw2 %.2f\n",
		      sb, sw, k, n, c->two, c->width_two, c->one, c->width_one,
		      c->sb2, c->sw2);
}

static void test_coverage_between(void **state)
{
	struct cover c;

	(void)state;
	/* invocations differ 3x more than runs: the one-level interval
	 * covers far too rarely, the two-level one about at 95% */
	coverage(3, 1, 4, 5, 400, &c);
	assert_true(c.one < 0.80);
	assert_true(c.two >= 0.90 && c.two <= 0.995);
	assert_true(c.width_two > 1.5 * c.width_one);
	/* the estimates are unbiased: E[sb2] = 9 (ANOVA truncated at 0 only
	 * rarely here), E[sw2] = 1 */
	close_to(c.sb2, 9, 1.5);
	close_to(c.sw2, 1, 0.1);
}

static void test_coverage_none(void **state)
{
	struct cover c;

	(void)state;
	/* no between part: both cover about 95%, and the two-level interval
	 * is not needlessly wider (it pools when MSB <= MSW, and uses few
	 * df only when the data show a between part) */
	coverage(0, 1, 4, 5, 400, &c);
	assert_true(c.one >= 0.90);
	assert_true(c.two >= 0.90 && c.two <= 0.995);
	assert_true(c.width_two < 1.35 * c.width_one);
}

static void test_one_invocation(void **state)
{
	/* one invocation a side: the same variance and df as the one-level
	 * expanded bootstrap, so the same interval up to resampling noise */
	double a[20], b[20], lo, hi, lo1, hi1;
	unsigned ia[20], ib[20];
	struct st_vc va, vb;
	struct st_rng r;

	(void)state;
	st_rng_seed(&r, 9);
	side(&r, 0, 1, 1, 20, a, ia);
	side(&r, 0, 1, 1, 20, b, ib);
	assert_int_equal(st_boot2_ci_pct(a, ia, 20, b, ib, 20, 0.95, 20000, 3,
					 &lo, &hi, &va, &vb), 0);
	assert_int_equal(st_boot_ci_pct(a, 20, b, 20, 0.95, 20000, 3, &lo1, &hi1), 0);
	assert_int_equal(va.model, ST_VC_ONE);
	close_to(lo, lo1, 0.03 * (hi1 - lo1));
	close_to(hi, hi1, 0.03 * (hi1 - lo1));
	/* bad input */
	assert_int_equal(st_boot2_ci_pct(a, ia, 1, b, ib, 20, 0.95, 100, 1, &lo,
					 &hi, NULL, NULL), -EINVAL);
	assert_true(isnan(lo) && isnan(hi));
}

static void test_one_run_per_invocation(void **state)
{
	/* 6 invocations of 1 run: the invocation means are the data */
	const double v[] = { 10, 12, 11, 13, 9, 11 };
	const unsigned inv[] = { 0, 1, 2, 3, 4, 5 };
	struct st_vc o;

	(void)state;
	assert_int_equal(st_vc_estimate(v, inv, 6, &o), 0);
	assert_int_equal(o.model, ST_VC_MEANS);
	close_to(o.var_mean, 2.0 / 6, 1e-12);
	close_to(o.df, 5, 1e-12);
	assert_true(isnan(o.var_within));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_anova_hand),
		cmocka_unit_test(test_coverage_between),
		cmocka_unit_test(test_coverage_none),
		cmocka_unit_test(test_one_invocation),
		cmocka_unit_test(test_one_run_per_invocation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
