/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * robust.c - the Hodges-Lehmann shift and its rank-based interval, the CoV
 * without the most extreme run, and the predicted half-width of compare's
 * interval (robust.h). The exact Mann-Whitney quantile is R's (qwilcox,
 * libRmath). Knobs: none; the level comes from the caller.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/stats/robust.h"
#include "results/stats/stats.h"

#define MATHLIB_STANDALONE 1
#include <Rmath.h>

/* R's qwilcox gives the smallest q with P(U <= q) >= p; the largest u
 * with P(U <= u) <= p is q itself when P(U <= q) is p (to rounding), else
 * q - 1. */
long st_mwu_lower_quantile(size_t na, size_t nb, double p)
{
	double q = qwilcox(p, (double)na, (double)nb, 1, 0);
	double at = pwilcox(q, (double)na, (double)nb, 1, 0);

	wilcox_free();  /* its table is cached in a static */
	if (isnan(q))
		return -2;
	return at <= p * (1 + 1e-12) ? (long)q : (long)q - 1;
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

static void swap_d(double *x, double *y)
{
	double t = *x;

	*x = *y;
	*y = t;
}

/* The @k-th smallest (0-based) of @v[0..n), @v reordered (selection by
 * three-way partitions around a median-of-three pivot): the order
 * statistics of the n x m differences without sorting them all. */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
		double piv = fmax(fmin(a, b), fmin(fmax(a, b), c));
		size_t lt = lo, i = lo, gt = hi;

		/* [lo, lt) < piv, [lt, i) == piv, [gt, hi) > piv */
		while (i < gt) {
			if (v[i] < piv)
				swap_d(&v[lt++], &v[i++]);
			else if (v[i] > piv)
				swap_d(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return piv;
	}
	return v[k];
}

/* The rank-@r value of @v, a rank at least that of the last call (*from,
 * 0 at first): the values after that rank are the larger ones, so only
 * they are searched. */
static double select_from(double *v, size_t n, size_t *from, size_t r)
{
	double x = select_kth(v + *from, n - *from, r - *from);

	*from = r;
	return x;
}

static int log_all(const double *v, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return -EINVAL;
		out[i] = log(v[i]);
	}
	return 0;
}

int st_hl_shift_pct(const double *base, size_t nb, const double *new,
		    size_t nn, double level, double *est, double *lo,
		    double *hi)
{
	size_t n = nb * nn, k;
	double *d, *l, mid;
	size_t from = 0;
	int rc;

	*est = *lo = *hi = NAN;
	if (!nb || !nn)
		return -EINVAL;
	d = malloc((n + nb + nn) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	l = d + n;
	rc = log_all(base, nb, l);
	if (!rc)
		rc = log_all(new, nn, l + nb);
	if (rc)
		goto out;
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < nn; j++)
			d[i * nn + j] = l[nb + j] - l[i];
	k = hl_rank(nb, nn, level);
	if (!(k >= 1 && k <= n + 1 - k))
		k = 0;
	if (k)
		*lo = 100 * expm1(select_from(d, n, &from, k - 1));
	mid = n % 2 ? 0 : select_from(d, n, &from, n / 2 - 1);
	mid = n % 2 ? select_from(d, n, &from, n / 2) :
		      (mid + select_from(d, n, &from, n / 2)) / 2;
	*est = 100 * expm1(mid);
	if (k)
		*hi = 100 * expm1(select_from(d, n, &from, n - k));
out:
	free(d);
	return rc;
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

int st_predicted_half_width(const double *v, size_t n, double level, double *hw)
{
	double est, lo, hi;
	int rc;

	*hw = NAN;
	if (n < 2)
		return -EINVAL;
	rc = st_hl_shift_pct(v, n, v, n, level, &est, &lo, &hi);
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
