/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_verdict_sim.c - the evidence that compare's verdict rules hold at
 * every sample size: A/A and A/B sets simulated from a noise model with a
 * between-invocation and a within-invocation part (normal, and heavy
 * tailed with outlier runs), at 2 to 20 units a side, judged by the code
 * compare runs for every point (cmp_delta_cells, then cmp_judge). Checks,
 * per cell: the false REGRESSION + IMPROVEMENT rate of A/A at T = 0 (the
 * worst threshold: a verdict at any T > 0 is one at 0 too) is at most
 * --alpha within its binomial error, and the interval covers the true
 * change (0 for A/A, the shift for A/B) at least 0.95 of the time within
 * its error; prints the NO_CHANGE rate of A/A and the power for a known
 * shift at the default T. Fixed random seed; results/COMPARE.md, "Small samples".
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "results/compare/model.h"

#define REPS 1000         /* data sets per cell and kind (A/A, A/B) */
#define Z 3.5             /* binomial errors allowed: with ~130 checks a
			   * correct rule still fails one 3% of the time */
#define MAXV 64           /* values a side, at most */
#define SHIFT (-0.06)     /* the A/B change, against T = 2% */
#define OUTLIER 0.05      /* heavy: the chance that a run is 25% slow */

struct model {
	const char *name;
	bool heavy;
	double sw, sb;        /* sd of the log value within, between */
	bool welch;           /* compare --welch */
};

struct shape {
	const char *name;
	unsigned per_inv;     /* runs per invocation; 0: one invocation */
	bool assert_it;       /* false: shown, not checked (see below) */
	bool between;         /* the model's between part is drawn */
};

struct tally {
	unsigned false_v, cover_aa, ci_aa, nochange, cover_ab, ci_ab, found;
	enum cmp_ci ci;
};

static double unif(struct st_rng *r)
{
	return ((st_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

static double gauss(struct st_rng *r)
{
	return sqrt(-2 * log(unif(r))) * cos(2 * M_PI * unif(r));
}

/* Student's t with 3 df, scaled to unit variance. */
static double t3(struct st_rng *r)
{
	double z = gauss(r), c = 0;

	for (int i = 0; i < 3; i++) {
		double g = gauss(r);

		c += g * g;
	}
	return z / sqrt(c / 3) / sqrt(3);
}

/* One side of @n units: n runs of one invocation, or n invocations of
 * per_inv runs; the value 1e6 (1 + shift) exp(between + within). */
static size_t side(struct st_rng *r, const struct model *md,
		   const struct shape *sh, unsigned n, double shift,
		   double *v, unsigned *inv)
{
	unsigned k = sh->per_inv ? n : 1, per = sh->per_inv ? sh->per_inv : n;
	size_t c = 0;

	for (unsigned j = 0; j < k; j++) {
		double b = sh->between ? md->sb * gauss(r) : 0;

		for (unsigned i = 0; i < per; i++, c++) {
			double w = md->sw * (md->heavy ? t3(r) : gauss(r));

			if (md->heavy && unif(r) < OUTLIER)
				w += log(0.75);
			v[c] = 1e6 * (1 + shift) * exp(b + w);
			inv[c] = j;
		}
	}
	return c;
}

static void fill(struct cmp_cell *c, double *v, unsigned *inv, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->v[0] = v;
	c->inv[0] = inv;
	c->n[0] = n;
	c->ok = (unsigned)n;
	assert_int_equal(st_describe(v, n, &c->d[0]), 0);
}

/* One data set, judged as compare judges a primary metric. */
static void one(struct st_rng *r, const struct model *md, const struct shape *sh,
		unsigned n, double shift, struct cmp_delta *d, enum cmp_verdict v[2])
{
	static const struct cmp_metric mt = { "sim", "ops/s", "", +1, CMP_PRIMARY,
					      NULL, NULL, NULL };
	double va[MAXV], vb[MAXV];
	unsigned ia[MAXV], ib[MAXV];
	struct cmp_cell a, b;
	struct cmp_opts o;
	size_t na = side(r, md, sh, n, 0, va, ia), nb = side(r, md, sh, n, shift, vb, ib);

	cmp_opts_default(&o);
	o.welch = md->welch;
	fill(&a, va, ia, na);
	fill(&b, vb, ib, nb);
	memset(d, 0, sizeof(*d));
	assert_int_equal(cmp_delta_cells(&a, &b, 0, &mt, &o, d), 0);
	d->threshold = 0;
	v[0] = cmp_judge(d, CMP_PRIMARY, a.d[0].cov_pct, b.d[0].cov_pct, na, nb, &o);
	d->threshold = o.threshold[CMP_PRIMARY];
	v[1] = cmp_judge(d, CMP_PRIMARY, a.d[0].cov_pct, b.d[0].cov_pct, na, nb, &o);
}

static bool covers(const struct cmp_delta *d, double shift)
{
	double t = 100 * shift;

	return d->lo <= t + 1e-9 && t - 1e-9 <= d->hi;
}

static void run_cell(struct st_rng *r, const struct model *md,
		     const struct shape *sh, unsigned n, struct tally *t)
{
	struct cmp_delta d;
	enum cmp_verdict v[2];

	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < REPS; i++) {
		one(r, md, sh, n, 0, &d, v);
		t->ci = d.ci;
		t->false_v += v[0] == CMP_REGRESSION || v[0] == CMP_IMPROVEMENT;
		t->nochange += v[1] == CMP_NO_CHANGE;
		if (isfinite(d.lo) && isfinite(d.hi) && !d.needs) {
			t->ci_aa++;
			t->cover_aa += covers(&d, 0);
		}
		one(r, md, sh, n, SHIFT, &d, v);
		t->found += v[1] == CMP_REGRESSION;
		if (isfinite(d.lo) && isfinite(d.hi) && !d.needs) {
			t->ci_ab++;
			t->cover_ab += covers(&d, SHIFT);
		}
	}
}

/* The Wilson score interval's upper end at 95% for k of n. */
static double wilson_hi(unsigned k, unsigned n)
{
	double p = (double)k / n, z = 1.96, z2 = z * z;

	return (p + z2 / (2 * n) + z * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n))) /
	       (1 + z2 / n);
}

static const char *ci_short(enum cmp_ci c)
{
	static const char *const name[] = { "none", "rank", "welch" };

	return name[c];
}

static void frac(char *buf, size_t len, unsigned k, unsigned n)
{
	if (n)
		snprintf(buf, len, "%.3f", (double)k / n);
	else
		snprintf(buf, len, "-");
}

static void report(const struct model *md, const struct shape *sh, unsigned n,
		   const struct tally *t)
{
	char caa[16], cab[16];

	frac(caa, sizeof(caa), t->cover_aa, t->ci_aa);
	frac(cab, sizeof(cab), t->cover_ab, t->ci_ab);
	printf("  %2u  %-14s %-6s %-5s  %.3f [<= %.3f]  %6s  %6s  %.3f   %.3f%s\n",
	       n, sh->name, md->name, ci_short(t->ci), (double)t->false_v / REPS,
	       wilson_hi(t->false_v, REPS), caa, cab, (double)t->nochange / REPS,
	       (double)t->found / REPS, sh->assert_it ? "" : "   (not checked)");
}

/* At most @want, or at least it, within Z binomial standard errors of
 * @want for this many data sets. */
static void check_rate(unsigned k, unsigned nn, double want, bool at_most,
		       const char *what, unsigned n, const char *cell)
{
	double se = sqrt(want * (1 - want) / nn), got = (double)k / nn;

	if (at_most ? got > want + Z * se : got < want - Z * se)
		fail_msg("n=%u %s: %s %.3f (%u of %u), want %s %.3f within %g se %.3f",
			 n, cell, what, got, k, nn, at_most ? "<=" : ">=", want, Z, se);
}

static void test_verdict_sim(void **state)
{
	static const unsigned ns[] = { 2, 3, 4, 5, 8, 10, 20 };
	static const struct model models[] = {
		{ "normal", false, 0.02, 0.02, false },
		{ "heavy", true, 0.02, 0.02, false },
		{ "norm/W", false, 0.02, 0.02, true },
	};
	/* With one invocation a side, the between part is one draw per side
	 * that its runs cannot show: no interval of them can cover it. The
	 * last shape shows what it does, unchecked (COMPARE.md, Invocations). */
	static const struct shape shapes[] = {
		{ "1 inv", 0, true, false },
		{ "n inv x 2", 2, true, true },
		{ "1 inv, sb>0", 0, false, true },
	};
	struct st_rng r;
	struct cmp_opts o;

	(void)state;
	cmp_opts_default(&o);
	st_rng_seed(&r, 24);
	printf("verdict simulation: %u A/A and %u A/B (%+.0f%%) data sets a cell; alpha %g, T = 0 for the false rate, %g%% for NO_CHANGE and power\n"
	       "   n  units          noise  CI     AA false [Wilson]  AA cov  AB cov  AA NO_CH AB found\n",
	       REPS, REPS, 100 * SHIFT, o.alpha, o.threshold[CMP_PRIMARY]);
	for (size_t s = 0; s < sizeof(shapes) / sizeof(*shapes); s++)
		for (size_t m = 0; m < sizeof(models) / sizeof(*models); m++)
			for (size_t i = 0; i < sizeof(ns) / sizeof(*ns); i++) {
				const struct shape *sh = &shapes[s];
				struct tally t;

				/* Welch on one shape: its t interval is the simple case */
				if ((!sh->assert_it && m) || (s && models[m].welch))
					continue;
				run_cell(&r, &models[m], sh, ns[i], &t);
				report(&models[m], sh, ns[i], &t);
				if (!sh->assert_it)
					continue;
				check_rate(t.false_v, REPS, o.alpha, true, "false REGRESSION+IMPROVEMENT",
					   ns[i], sh->name);
				if (t.ci_aa)
					check_rate(t.cover_aa, t.ci_aa, 0.95, false, "A/A coverage",
						   ns[i], sh->name);
				if (t.ci_ab)
					check_rate(t.cover_ab, t.ci_ab, 0.95, false, "A/B coverage",
						   ns[i], sh->name);
				/* below 4 units a side Mann-Whitney decides nothing */
				if (!models[m].welch && ns[i] < st_mwu_min_n(o.alpha))
					assert_int_equal(t.false_v + t.nochange + t.found, 0);
				else
					assert_true(t.ci_aa == REPS);
			}
}

/* ---- sporadic counters: 0 on some runs (compare.c, cmp_bh_families) ---- */

#define NCTR 8            /* counters of one point */

/* A counter's run: 0 but with chance @pi, else about 1. */
static double sporadic(struct st_rng *r, double pi)
{
	return unif(r) < pi ? exp(0.3 * gauss(r)) : 0;
}

/* One point of NCTR counters, n runs a side, judged as compare judges
 * them: the first @nreal all-or-nothing (0 on A, above 0 on B), the rest
 * the same on both sides with chance @pi of being above 0. Returns how
 * many got a verdict, of the nulls into @false_v. */
static unsigned counters(struct st_rng *r, unsigned n, double pi, unsigned nreal,
			 unsigned *false_v)
{
	static const struct cmp_metric mt = { "ctr", "/op", "", -1, CMP_SECONDARY,
					      NULL, NULL, NULL };
	double va[NCTR][MAXV], vb[NCTR][MAXV];
	unsigned inv[MAXV] = { 0 }, found = 0;
	struct cmp_cell a[NCTR], b[NCTR];
	struct cmp_delta d[NCTR], *dp[NCTR];
	struct cmp_opts o;

	cmp_opts_default(&o);
	*false_v = 0;
	for (unsigned k = 0; k < NCTR; k++) {
		for (unsigned i = 0; i < n; i++) {
			va[k][i] = k < nreal ? 0 : sporadic(r, pi);
			vb[k][i] = k < nreal ? sporadic(r, 1) : sporadic(r, pi);
		}
		fill(&a[k], va[k], inv, n);
		fill(&b[k], vb[k], inv, n);
		memset(&d[k], 0, sizeof(d[k]));
		assert_int_equal(cmp_delta_cells(&a[k], &b[k], 0, &mt, &o, &d[k]), 0);
		dp[k] = d[k].valid ? &d[k] : NULL;
	}
	assert_int_equal(cmp_bh_families(dp, NCTR), 0);
	for (unsigned k = 0; k < NCTR; k++) {
		enum cmp_verdict v;

		if (!dp[k])
			continue;
		d[k].threshold = 0;
		v = cmp_judge(&d[k], CMP_SECONDARY, a[k].d[0].cov_pct, b[k].d[0].cov_pct,
			      n, n, &o);
		if (v != CMP_REGRESSION && v != CMP_IMPROVEMENT)
			continue;
		found += k < nreal;
		*false_v += k >= nreal;
	}
	return found;
}

/* A/A: at most alpha of the points get any false verdict (all nulls: the
 * false discovery rate is the family-wise rate). A/B: 3 counters that
 * appear on every B run beside 5 sporadic nulls are found from 5 a side;
 * at 4 a side (Fisher's p 2/70, BH q = p m / k) only where they are most
 * of the family, here all 8 (a limit that makes every one appear). */
static void test_sporadic_sim(void **state)
{
	static const unsigned ns[] = { 4, 5, 8, 10 };
	static const double pis[] = { 0.2, 0.5, 0.8 };
	struct st_rng r;
	struct cmp_opts o;

	(void)state;
	cmp_opts_default(&o);
	st_rng_seed(&r, 25);
	printf("sporadic counters: %u counters a point, %u points a cell\n"
	       "   n   pi   AA points with a false verdict [Wilson]   AB: all real found (3; at n=4, 8)\n",
	       NCTR, REPS);
	for (size_t i = 0; i < sizeof(ns) / sizeof(*ns); i++)
		for (size_t j = 0; j < sizeof(pis) / sizeof(*pis); j++) {
			unsigned bad = 0, found = 0, fv;

			for (unsigned k = 0; k < REPS; k++) {
				counters(&r, ns[i], pis[j], 0, &fv);
				bad += fv > 0;
				found += counters(&r, ns[i], pis[j], ns[i] > 4 ? 3 : NCTR, &fv) ==
					 (ns[i] > 4 ? 3 : NCTR);
			}
			printf("  %2u  %.1f  %.3f [<= %.3f]                        %.3f\n", ns[i],
			       pis[j], (double)bad / REPS, wilson_hi(bad, REPS),
			       (double)found / REPS);
			check_rate(bad, REPS, o.alpha, true, "sporadic false verdicts", ns[i], "ctr");
			check_rate(found, REPS, 0.95, false, "all-or-nothing found", ns[i], "ctr");
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_sim),
		cmocka_unit_test(test_sporadic_sim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
