/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - the statistics of `cgscale compare`, on R's distributions: descriptive
 * statistics, the Mann-Whitney U test (exact for small samples, normal
 * approximation with tie correction beyond), Welch's t-test, a bootstrap
 * confidence interval of the % change of the mean, Benjamini-Hochberg
 * adjusted p-values, and the power figures. See results/COMPARE.md.
 *
 * Everything is deterministic: the bootstrap takes its seed as an
 * argument and uses its own generator (xoshiro256**).
 */
#ifndef CGS_STATS_H
#define CGS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exact Mann-Whitney p without ties while both sides have fewer values
 * than this (R's pwilcox, as wilcox.test decides); with ties, exact (our
 * own count over midranks) up to ST_MWU_EXACT_MAX values in all. */
#define ST_MWU_PWILCOX_MAX 50
#define ST_MWU_EXACT_MAX 50

struct st_desc {
	size_t n;
	double mean, median, sd, cov_pct, min, max;  /* sd: sample, n-1 */
};

/* Describe @n values. sd and cov_pct are NAN below 2 values, all NAN for
 * none. Returns 0 or -ENOMEM. */
int st_describe(const double *v, size_t n, struct st_desc *d);

/* Standard normal and Student t distributions. */
double st_norm_cdf(double z);
double st_norm_quantile(double p);
double st_t_cdf(double t, double df);
double st_t_quantile(double p, double df);

struct st_test {
	double stat;   /* U of @b (pairs b > a, ties half), or Welch's t */
	double df;     /* Welch: Welch-Satterthwaite df; else NAN */
	double p;      /* two-sided */
	bool exact;    /* Mann-Whitney: p from the exact distribution */
};

/*
 * Mann-Whitney U test of @a against @b, two-sided, as R's wilcox.test:
 * without ties and below ST_MWU_PWILCOX_MAX a side, exact (R's pwilcox).
 * With ties, where R falls back to the normal approximation, exact too
 * (the permutation distribution of the midrank sum) up to ST_MWU_EXACT_MAX
 * values in all. Else the normal approximation with tie and continuity
 * corrections, R's wilcox.test(exact = FALSE). Returns 0, -EINVAL when a side is empty, or -ENOMEM.
 */
int st_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		    struct st_test *out);

/* Welch's unequal-variance t-test of b - a. -EINVAL below 2 per side. */
int st_welch(const double *a, size_t na, const double *b, size_t nb,
	     struct st_test *out);

/* The smallest two-sided p the exact Mann-Whitney test can give for na
 * against nb values without ties: 2 / C(na + nb, na), at most 1. */
double st_mwu_min_p(size_t na, size_t nb);

/* The smallest n whose n against n values can give a two-sided exact
 * Mann-Whitney p below @alpha (4 at 0.05, 5 at 0.02, 6 at 0.005); 0 for
 * an alpha outside (0, 1). Below it no verdict can be decided. */
unsigned st_mwu_min_n(double alpha);

/*
 * Welch's t interval at @level of the % change of the geometric mean,
 * 100 * (exp(mean(log new) - mean(log base)) - 1), with Welch's test of
 * the log values in @t (so that the interval excludes 0 exactly when
 * t->p < 1 - @level). Valid at every n >= 2 for log-normal runs: the t
 * quantile at the Welch-Satterthwaite df (about 1 to 2 at 2 runs a side)
 * makes it as wide as the noise says. Returns 0, -EINVAL (fewer than 2
 * values a side, a value not above 0) or -ENOMEM.
 */
int st_welch_log_ci_pct(const double *base, size_t nb, const double *new,
			size_t nn, double level, double *lo, double *hi,
			struct st_test *t);

/* Benjamini-Hochberg adjusted p-values (q) of @n p-values; NAN entries
 * are left out and stay NAN. Returns 0 or -ENOMEM. */
int st_bh(const double *p, size_t n, double *q);

/* Fisher's exact test, two-sided (R's fisher.test), of the table whose
 * rows are two sides and columns their runs at 0 (@a, @c) and above 0
 * (@b, @d): 2 / C(8, 4) = 0.0286 for 4 runs at 0 against 4 above it.
 * NAN when a side has no runs. results/stats/fisher.c */
double st_fisher_2x2(unsigned a, unsigned b, unsigned c, unsigned d);

/* xoshiro256** seeded through splitmix64. */
struct st_rng {
	uint64_t s[4];
};
void st_rng_seed(struct st_rng *r, uint64_t seed);
uint64_t st_rng_next(struct st_rng *r);
/* Uniform in [0, n). */
size_t st_rng_below(struct st_rng *r, size_t n);

/*
 * Confidence interval at @level of the % change of the mean from @base to
 * @new, 100 * (mean(new) / mean(base) - 1), by an expanded percentile
 * bootstrap (Hesterberg 2015) with @resamples resamples from @seed: each
 * resampled mean is put back on the scale of the sample variance (a factor
 * sqrt(n / (n - 1)) on its deviation), and the percentiles are taken at
 * the level whose normal quantile equals Student's t quantile at the Welch
 * degrees of freedom. This keeps the coverage close to @level for the 3 to
 * 10 runs a side typically has. Returns 0, -EINVAL (fewer than 2 values a
 * side, or a base mean of 0) or -ENOMEM.
 */
int st_boot_ci_pct(const double *base, size_t nb, const double *new,
		   size_t nn, double level, unsigned resamples, uint64_t seed,
		   double *lo, double *hi);

/*
 * Runs per side for a two-sided Mann-Whitney test at @alpha to find a true
 * change of @effect_pct with @power, when the runs vary by @cov_pct (the
 * normal-theory sample size divided by the test's efficiency 3/pi), and at
 * least the smallest n whose minimum p is below @alpha. 0 when unknown.
 */
unsigned st_runs_needed(double cov_pct, double effect_pct, double alpha,
			double power);

/* Linear interpolation between the order statistics of sorted @v (n > 0):
 * the q-quantile, never inf - inf. */
double st_quantile_sorted(const double *v, size_t n, double q);

#endif
