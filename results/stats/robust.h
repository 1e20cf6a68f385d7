/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * robust.h - rank-based and outlier-aware statistics beside the mean-based
 * ones of stats.h: the Hodges-Lehmann shift with its distribution-free
 * confidence interval (from the Mann-Whitney distribution), the CoV
 * without the single most extreme run, and the predicted half-width of
 * compare's interval for a side (what `run -r auto` aims at). Everything
 * is deterministic. See results/COMPARE.md, "Robust statistics".
 */
#ifndef CGS_ROBUST_H
#define CGS_ROBUST_H

#include <stddef.h>
#include <stdint.h>

/*
 * Hodges-Lehmann estimate of the % change from @base to @new: the median
 * of the na x nb pairwise differences log(new_j) - log(base_i), put back
 * as 100 * (exp(d) - 1). The interval at @level is [D(k), D(N+1-k)] of the
 * sorted differences, k taken from the exact Mann-Whitney null
 * distribution when na + nb <= ST_MWU_EXACT_MAX, from its normal
 * approximation beyond (Hollander & Wolfe). *lo and *hi are NAN when no k
 * exists (too few runs: 3 vs 3 at 95%). Returns 0, -EINVAL (a side empty
 * or a value not above 0) or -ENOMEM.
 */
int st_hl_shift_pct(const double *base, size_t nb, const double *new,
		    size_t nn, double level, double *est, double *lo,
		    double *hi);

/* The largest u with P(U <= u) <= @p under the exact null distribution of
 * Mann-Whitney's U for @na against @nb values without ties; -1 when even
 * P(U = 0) is above @p (R's qwilcox). Returns -2 on bad arguments. */
long st_mwu_lower_quantile(size_t na, size_t nb, double p);

/* The CoV (%) of @v after leaving out the one value farthest from the
 * median; NAN below 3 values. */
double st_cov_without_extreme(const double *v, size_t n);

/*
 * Half the width, in %, of compare's interval of the change (the exact
 * Hodges-Lehmann rank interval, st_hl_shift_pct) between two sides that
 * each had these @n values: the interval compare would print for an A/A
 * pair with this noise and this many runs. NAN below 2 values, and where
 * the rank interval does not exist yet (3 vs 3 at 95%). Returns 0, -EINVAL
 * or -ENOMEM.
 */
int st_predicted_half_width(const double *v, size_t n, double level, double *hw);

/* Runs a side needs for compare's interval to reach a half-width of
 * @target_pct at a per-run CoV of @cov_pct (normal theory, z at @level),
 * at least 3. 0 when unknown. */
unsigned st_runs_for_half_width(double cov_pct, double target_pct,
				double level);

#endif
