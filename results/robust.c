/*
 * robust.c - the Hodges-Lehmann shift and its rank-based interval, the CoV
 * without the most extreme run, and the predicted half-width of compare's
 * interval (robust.h). Knobs: none; the level comes from the caller.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "robust.h"
#include "stats.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

long st_mwu_lower_quantile(size_t na, size_t nb, double p)
{
	size_t nmax = na * nb;
	double *f = calloc((nmax + 1) * (na + 1), sizeof(*f)), total, cum = 0;
	long best = -1;

	/* F(m, u) counts the orders of m values of A and n of B whose U (pairs
	 * with the A value above the B value) is u. The largest value is an A
	 * (n pairs more) or a B (none): c(m, n, u) = c(m - 1, n, u - n) +
	 * c(m, n - 1, u). Rows are kept for the current n, m upwards. */
	if (!f)
		return -2;
#define F(m, u) f[(size_t)(m) * (nmax + 1) + (u)]
	for (size_t m = 0; m <= na; m++)
		F(m, 0) = 1;
	for (size_t n = 1; n <= nb; n++)
		for (size_t m = 1; m <= na; m++)
			for (size_t u = n; u <= nmax; u++)
				F(m, u) += F(m - 1, u - n);
	total = 0;
	for (size_t u = 0; u <= nmax; u++)
		total += F(na, u);
	for (size_t u = 0; u <= nmax; u++) {
		cum += F(na, u);
		if (cum / total <= p * (1 + 1e-12))
			best = (long)u;
		else
			break;
	}
#undef F
	free(f);
	return best;
}

/* The rank of the lower end of the interval, 1-based; 0 when none. */
static size_t hl_rank(size_t na, size_t nb, double level)
{
	double alpha = 1 - level, n = (double)na * nb;

	if (na + nb <= ST_MWU_EXACT_MAX) {
		long q = st_mwu_lower_quantile(na, nb, alpha / 2);

		return q < 0 ? 0 : (size_t)q + 1;
	}
	double k = floor(n / 2 - st_norm_quantile(1 - alpha / 2) *
			 sqrt(n * (na + nb + 1) / 12.0));

	return k < 1 ? 0 : (size_t)k;
}

int st_hl_shift_pct(const double *base, size_t nb, const double *new,
		    size_t nn, double level, double *est, double *lo,
		    double *hi)
{
	size_t n = nb * nn, k;
	double *d;

	*est = *lo = *hi = NAN;
	if (!nb || !nn)
		return -EINVAL;
	for (size_t i = 0; i < nb; i++)
		if (!(base[i] > 0))
			return -EINVAL;
	for (size_t j = 0; j < nn; j++)
		if (!(new[j] > 0))
			return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < nn; j++)
			d[i * nn + j] = log(new[j]) - log(base[i]);
	qsort(d, n, sizeof(*d), cmp_dbl);
	*est = 100 * expm1(n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2);
	k = hl_rank(nb, nn, level);
	if (k >= 1 && k <= n + 1 - k) {
		*lo = 100 * expm1(d[k - 1]);
		*hi = 100 * expm1(d[n - k]);
	}
	free(d);
	return 0;
}

double st_cov_without_extreme(const double *v, size_t n)
{
	struct st_desc all, rest;
	double *w;
	size_t far = 0;

	if (n < 3 || st_describe(v, n, &all))
		return NAN;
	w = malloc(n * sizeof(*w));
	if (!w)
		return NAN;
	for (size_t i = 1; i < n; i++)
		if (fabs(v[i] - all.median) > fabs(v[far] - all.median))
			far = i;
	for (size_t i = 0, j = 0; i < n; i++)
		if (i != far)
			w[j++] = v[i];
	if (st_describe(w, n - 1, &rest))
		rest.cov_pct = NAN;
	free(w);
	return rest.cov_pct;
}

int st_predicted_half_width(const double *v, size_t n, double level,
			    unsigned resamples, uint64_t seed, double *hw)
{
	double lo, hi;
	int rc;

	*hw = NAN;
	if (n < 2)
		return -EINVAL;
	rc = st_boot_ci_pct(v, n, v, n, level, resamples, seed, &lo, &hi);
	if (!rc)
		*hw = (hi - lo) / 2;
	return rc;
}

unsigned st_runs_for_half_width(double cov_pct, double target_pct,
				double level)
{
	if (!(cov_pct >= 0) || !(target_pct > 0) || !(level > 0 && level < 1))
		return 0;
	for (unsigned n = 3; n <= 100000; n++) {
		double t = st_t_quantile(1 - (1 - level) / 2, 2.0 * n - 2);

		if (t * sqrt(2.0 / n) * cov_pct <= target_pct)
			return n;
	}
	return 0;
}
