/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.c - descriptive statistics, Mann-Whitney U, Welch's t, the
 * expanded percentile bootstrap of the % change, Benjamini-Hochberg and
 * the run-count estimate. The normal and t distributions and the exact
 * Mann-Whitney distribution without ties are R's (libRmath, Debian
 * r-mathlib); the exact distribution with ties, the bootstrap, BH and the
 * power estimate are our own. Knobs: ST_MWU_PWILCOX_MAX and
 * ST_MWU_EXACT_MAX (stats.h) say when a p-value is exact.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/stats/stats.h"

#define MATHLIB_STANDALONE 1
#include <Rmath.h>

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double mean_of(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : NAN;
}

/* Sample variance (n - 1); NAN below 2 values. */
static double var_of(const double *v, size_t n, double m)
{
	double ss = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return ss / (n - 1);
}

int st_describe(const double *v, size_t n, struct st_desc *d)
{
	double *s;

	d->n = n;
	d->mean = d->median = d->sd = d->cov_pct = d->min = d->max = NAN;
	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	d->mean = mean_of(s, n);
	d->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	d->min = s[0];
	d->max = s[n - 1];
	d->sd = sqrt(var_of(s, n, d->mean));
	d->cov_pct = d->mean != 0 ? 100.0 * d->sd / fabs(d->mean) : NAN;
	free(s);
	return 0;
}

/* The distributions are R's own (libRmath), the code behind R's pnorm,
 * qnorm, pt, qt, t.test and wilcox.test. */
double st_norm_cdf(double z)
{
	return pnorm(z, 0, 1, 1, 0);
}

double st_norm_quantile(double p)
{
	return qnorm(p, 0, 1, 1, 0);
}

double st_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return pt(t, df, 1, 0);
}

double st_t_quantile(double p, double df)
{
	if (!(p >= 0 && p <= 1) || !(df > 0))
		return NAN;
	return qt(p, df, 1, 0);
}

struct ranked {
	double v;
	int from_b;
};

static int cmp_ranked(const void *x, const void *y)
{
	return cmp_double(&((const struct ranked *)x)->v,
			  &((const struct ranked *)y)->v);
}

/* Exact two-sided p of the doubled rank sum @w2 of a subset of size @k
 * drawn from the @n doubled ranks @r2 (integers). */
static int mwu_exact(const unsigned *r2, size_t n, size_t k, unsigned w2,
		     double *p)
{
	size_t smax = 0, width;
	double *cnt, lo = 0, hi = 0, tot = 0;

	for (size_t i = 0; i < n; i++)
		smax += r2[i];
	width = smax + 1;
	cnt = calloc((k + 1) * width, sizeof(*cnt));
	if (!cnt)
		return -ENOMEM;
	cnt[0] = 1;  /* cnt[j * width + s]: subsets of size j with sum s */
	for (size_t i = 0; i < n; i++)
		for (size_t j = (i + 1 < k ? i + 1 : k); j >= 1; j--)
			for (size_t s = smax; s >= r2[i]; s--) {
				cnt[j * width + s] += cnt[(j - 1) * width + s - r2[i]];
				if (s == r2[i])
					break;
			}
	for (size_t s = 0; s <= smax; s++) {
		double c = cnt[k * width + s];

		tot += c;
		if (s <= w2)
			lo += c;
		if (s >= w2)
			hi += c;
	}
	*p = fmin(1.0, 2 * fmin(lo, hi) / tot);
	free(cnt);
	return 0;
}

/* R's exact two-sided p of U = @u of the @m values against @n, no ties:
 * the tail on @u's side, doubled, as wilcox.test(exact = TRUE). */
static double mwu_pwilcox(double u, size_t m, size_t n)
{
	double p;

	if (u > m * (double)n / 2)
		p = pwilcox(u - 1, (double)m, (double)n, 0, 0);
	else
		p = pwilcox(u, (double)m, (double)n, 1, 0);
	wilcox_free();  /* its table is cached in a static */
	return fmin(1.0, 2 * p);
}

/* a and b pooled in @all and sorted, twice each one's midrank in @r2;
 * returns the tie correction, the sum of t^3 - t over groups of t ties. */
static double mwu_rank(const double *a, size_t na, const double *b, size_t nb,
		       struct ranked *all, unsigned *r2)
{
	size_t n = na + nb;
	double ties = 0;

	for (size_t i = 0; i < n; i++) {
		all[i].from_b = i >= na;
		all[i].v = i < na ? a[i] : b[i - na];
	}
	qsort(all, n, sizeof(*all), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && all[j + 1].v == all[i].v)
			j++;
		for (size_t t = i; t <= j; t++)
			r2[t] = (unsigned)(i + 1 + j + 1);  /* twice the midrank */
		ties += (double)(j - i + 1) * (j - i + 1) * (j - i + 1) - (j - i + 1);
		i = j + 1;
	}
	return ties;
}

/* The two-sided p of U by the normal approximation, corrected for
 * continuity and ties. */
static double mwu_normal(double u, size_t na, size_t nb, double ties)
{
	size_t n = na + nb;
	double mu, var, z;

	mu = na * (double)nb / 2;
	var = na * (double)nb / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (!(var > 0))
		return 1;
	z = fmax(0, fabs(u - mu) - 0.5) / sqrt(var);
	return fmin(1.0, 2 * pnorm(z, 0, 1, 0, 0));
}

int st_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		    struct st_test *out)
{
	size_t n = na + nb, k;
	struct ranked *all;
	unsigned *r2, w2 = 0;
	double ties;
	int rc = 0;

	out->stat = out->df = out->p = NAN;
	out->exact = false;
	if (!na || !nb)
		return -EINVAL;
	all = malloc(n * sizeof(*all));
	r2 = malloc(n * sizeof(*r2));
	if (!all || !r2) {
		rc = -ENOMEM;
		goto out;
	}
	ties = mwu_rank(a, na, b, nb, all, r2);
	/* the rank sum of the smaller side keeps the exact table small */
	k = nb <= na ? nb : na;
	for (size_t i = 0; i < n; i++)
		if (all[i].from_b == (nb <= na))
			w2 += r2[i];
	for (size_t i = 0, wb = 0; i <= n; i++) {
		if (i == n) {
			out->stat = wb / 2.0 - nb * (nb + 1) / 2.0;
			break;
		}
		if (all[i].from_b)
			wb += r2[i];
	}
	if (ties == 0 && na < ST_MWU_PWILCOX_MAX && nb < ST_MWU_PWILCOX_MAX) {
		out->exact = true;
		out->p = mwu_pwilcox(out->stat, nb, na);
		goto out;
	}
	if (n <= ST_MWU_EXACT_MAX) {
		out->exact = true;
		rc = mwu_exact(r2, n, k, w2, &out->p);
		goto out;
	}
	out->p = mwu_normal(out->stat, na, nb, ties);
out:
	free(all);
	free(r2);
	return rc;
}

int st_welch(const double *a, size_t na, const double *b, size_t nb,
	     struct st_test *out)
{
	double ma, mb, va, vb, se2;

	out->stat = out->df = out->p = NAN;
	out->exact = false;
	if (na < 2 || nb < 2)
		return -EINVAL;
	ma = mean_of(a, na);
	mb = mean_of(b, nb);
	va = var_of(a, na, ma) / na;
	vb = var_of(b, nb, mb) / nb;
	se2 = va + vb;
	if (!(se2 > 0)) {
		out->stat = ma == mb ? 0 : copysign(INFINITY, mb - ma);
		out->df = (double)(na + nb - 2);
		out->p = ma == mb ? 1 : 0;
		return 0;
	}
	out->stat = (mb - ma) / sqrt(se2);
	out->df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	out->p = fmin(1.0, 2 * st_t_cdf(-fabs(out->stat), out->df));
	return 0;
}

double st_mwu_min_p(size_t na, size_t nb)
{
	double c = 1;  /* C(na + nb, na), exact while it fits a double */

	if (!na || !nb)
		return 1;
	for (size_t i = 1; i <= na; i++)
		c = c * (nb + i) / i;
	return fmin(1.0, 2 / c);
}

unsigned st_mwu_min_n(double alpha)
{
	unsigned n = 2;

	if (!(alpha > 0 && alpha < 1))
		return 0;
	while (st_mwu_min_p(n, n) >= alpha && n < 1000)
		n++;
	return n;
}

static int log_of(const double *v, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return -EINVAL;
		out[i] = log(v[i]);
	}
	return 0;
}

int st_welch_log_ci_pct(const double *base, size_t nb, const double *new,
			size_t nn, double level, double *lo, double *hi,
			struct st_test *t)
{
	double *l = malloc((nb + nn + 1) * sizeof(*l)), half, est;
	int rc = -ENOMEM;

	*lo = *hi = NAN;
	t->stat = t->df = t->p = NAN;
	t->exact = false;
	if (!l)
		return rc;
	rc = nb < 2 || nn < 2 || !(level > 0 && level < 1) ? -EINVAL : 0;
	if (!rc)
		rc = log_of(base, nb, l);
	if (!rc)
		rc = log_of(new, nn, l + nb);
	if (!rc)
		rc = st_welch(l, nb, l + nb, nn, t);
	if (!rc) {
		double ma = mean_of(l, nb), mn = mean_of(l + nb, nn);
		double se = sqrt(var_of(l, nb, ma) / nb + var_of(l + nb, nn, mn) / nn);

		est = mn - ma;
		/* a zero spread gives a point */
		half = se > 0 ? se * st_t_quantile(1 - (1 - level) / 2, t->df) : 0;
		*lo = 100 * expm1(est - half);
		*hi = 100 * expm1(est + half);
	}
	free(l);
	return rc;
}

struct idx_p {
	double p;
	size_t i;
};

static int cmp_idx_p(const void *x, const void *y)
{
	return cmp_double(&((const struct idx_p *)x)->p,
			  &((const struct idx_p *)y)->p);
}

int st_bh(const double *p, size_t n, double *q)
{
	struct idx_p *s = malloc((n ? n : 1) * sizeof(*s));
	size_t m = 0;
	double run = 1;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			s[m++] = (struct idx_p){ p[i], i };
	}
	qsort(s, m, sizeof(*s), cmp_idx_p);
	for (size_t r = m; r-- > 0;) {
		run = fmin(run, s[r].p * m / (r + 1));
		q[s[r].i] = fmin(1.0, run);
	}
	free(s);
	return 0;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void st_rng_seed(struct st_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t st_rng_next(struct st_rng *r)
{
	uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

size_t st_rng_below(struct st_rng *r, size_t n)
{
	return (size_t)(((unsigned __int128)st_rng_next(r) * n) >> 64);
}

static double resample_mean(struct st_rng *r, const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[st_rng_below(r, n)];
	return s / n;
}

double st_quantile_sorted(const double *v, size_t n, double q)
{
	double pos = q * (n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return v[n - 1];
	if (pos == i || !isfinite(v[i + 1]))
		return pos == i ? v[i] : v[i + 1];  /* no inf - inf */
	return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

int st_boot_ci_pct(const double *base, size_t nb, const double *new,
		   size_t nn, double level, unsigned resamples, uint64_t seed,
		   double *lo, double *hi)
{
	double mb, mn, kb, kn, vb, vn, df, tail, *d = NULL;
	struct st_rng r;

	*lo = *hi = NAN;
	if (nb < 2 || nn < 2 || !(level > 0 && level < 1) || resamples < 10)
		return -EINVAL;
	mb = mean_of(base, nb);
	mn = mean_of(new, nn);
	if (!(fabs(mb) > 0))
		return -EINVAL;
	vb = var_of(base, nb, mb) / nb;
	vn = var_of(new, nn, mn) / nn;
	if (!(vb + vn > 0)) {
		*lo = *hi = 100.0 * (mn / mb - 1);
		return 0;
	}
	df = (vb + vn) * (vb + vn) / (vb * vb / (nb - 1) + vn * vn / (nn - 1));
	tail = 1 - st_norm_cdf(st_t_quantile(1 - (1 - level) / 2, df));
	kb = sqrt((double)nb / (nb - 1));
	kn = sqrt((double)nn / (nn - 1));
	d = malloc(resamples * sizeof(*d));
	if (!d)
		return -ENOMEM;
	st_rng_seed(&r, seed);
	for (unsigned i = 0; i < resamples; i++) {
		double sb = mb + kb * (resample_mean(&r, base, nb) - mb);
		double sn = mn + kn * (resample_mean(&r, new, nn) - mn);

		/* a resampled base mean across zero has no ratio: unbounded */
		d[i] = sb * mb > 0 ? 100.0 * (sn / sb - 1) : INFINITY;
	}
	qsort(d, resamples, sizeof(*d), cmp_double);
	*lo = st_quantile_sorted(d, resamples, tail);
	*hi = st_quantile_sorted(d, resamples, 1 - tail);
	free(d);
	return 0;
}

unsigned st_runs_needed(double cov_pct, double effect_pct, double alpha,
			double power)
{
	double z, n;
	unsigned nmin;

	if (!(cov_pct >= 0) || !(effect_pct > 0) || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return 0;
	nmin = st_mwu_min_n(alpha);
	z = st_norm_quantile(1 - alpha / 2) + st_norm_quantile(power);
	n = 2 * z * z * (cov_pct / effect_pct) * (cov_pct / effect_pct) /
	    (3 / M_PI);
	if (n > 100000)
		return 100000;
	return n < nmin ? nmin : (unsigned)ceil(n);
}
