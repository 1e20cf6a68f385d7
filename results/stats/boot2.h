/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boot2.h - runs grouped by invocation: the variance between invocations
 * (separate processes, separate boots) against the variance within one,
 * by one-way random-effects ANOVA, and a two-level bootstrap interval of
 * the % change that resamples invocations, then runs within them. See
 * results/COMPARE.md, "Invocations".
 */
#ifndef CGS_BOOT2_H
#define CGS_BOOT2_H

#include <stddef.h>
#include <stdint.h>

/* The variance components of one side. */
struct st_vc {
	size_t n, k;          /* values, invocations with a value */
	double mean;          /* of all values */
	double msb, msw;      /* ANOVA mean squares; NAN when undefined */
	double var_between;   /* sigma_b^2 >= 0; NAN when unknown (k < 2) */
	double var_within;    /* sigma_w^2 (MSW); NAN with one run per invocation */
	double var_mean;      /* the estimated variance of the mean */
	double df;            /* its degrees of freedom (Satterthwaite) */
	int model;            /* ST_VC_* below */
};

enum {
	ST_VC_ONE,            /* one invocation: within only, between unknown */
	ST_VC_POOLED,         /* MSB <= MSW: no sign of between variance */
	ST_VC_TWO_LEVEL,      /* MSB > MSW: sigma_b^2 > 0 */
	ST_VC_MEANS,          /* one run per invocation: the invocation means */
};

/*
 * The variance components of @n values, @inv[i] the invocation of value
 * i (any unsigned ids; equal ids are one invocation). Var(mean) is
 * sigma_b^2 sum(n_j^2)/N^2 + sigma_w^2/N, with sigma_b^2 = (MSB - MSW)/n0
 * when MSB > MSW; otherwise all values are pooled (s^2/N, N-1 df).
 * Returns 0, -EINVAL (fewer than 2 values) or -ENOMEM.
 */
int st_vc_estimate(const double *v, const unsigned *inv, size_t n,
		   struct st_vc *out);

/*
 * Interval at @level of 100 * (mean(new) / mean(base) - 1), each side
 * resampled on two levels: its invocations with replacement, then, within
 * each picked invocation, its runs with replacement. The invocation
 * effects and the residuals are scaled first so that the resampled mean
 * has the variance st_vc_estimate gives (the plain two-level bootstrap
 * counts the within variance twice and the between variance with a
 * (k-1)/k bias), and the percentiles are taken at the level whose normal
 * quantile is Student's t at the Welch-Satterthwaite df of the two sides'
 * var_mean. With one invocation a side it is the expanded one-level
 * bootstrap of st_boot_ci_pct. @vb, @vn get the components (may be NULL).
 * Returns 0, -EINVAL (fewer than 2 values a side, or a base mean of 0)
 * or -ENOMEM.
 */
int st_boot2_ci_pct(const double *base, const unsigned *ib, size_t nb,
		    const double *new, const unsigned *in, size_t nn,
		    double level, unsigned resamples, uint64_t seed,
		    double *lo, double *hi, struct st_vc *vb, struct st_vc *vn);

#endif
