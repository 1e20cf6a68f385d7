/*
 * stats.c - descriptive statistics, Mann-Whitney U, Welch's t, the
 * expanded percentile bootstrap of the % change, Benjamini-Hochberg and
 * the run-count estimate. No external library: the t distribution comes
 * from the regularised incomplete beta function (continued fraction).
 * Knobs: ST_MWU_EXACT_MAX (stats.h) bounds the exact Mann-Whitney table.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

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

double st_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* Acklam's rational approximation, polished by one Halley step. */
double st_norm_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02,
		-3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01,
		-1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00,
		4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r, x, e, u;

	if (!(p > 0 && p < 1))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	if (p < 0.02425 || p > 1 - 0.02425) {
		q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
		if (p > 0.5)
			x = -x;
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	e = st_norm_cdf(x) - p;
	u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m, num, del;

		num = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

double st_betainc(double a, double b, double x)
{
	double front;

	if (!(x > 0))
		return 0;
	if (!(x < 1))
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double st_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(df))
		return st_norm_cdf(t);
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * st_betainc(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double st_t_quantile(double p, double df)
{
	double lo = -1, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	while (st_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	while (st_t_cdf(lo, df) > p && lo > -1e300)
		lo *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
		double mid = (lo + hi) / 2;

		if (st_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
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

int st_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		    struct st_test *out)
{
	size_t n = na + nb, k;
	struct ranked *all;
	unsigned *r2, w2 = 0;
	double ties = 0, u, mu, var, z;
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
	if (n <= ST_MWU_EXACT_MAX) {
		out->exact = true;
		rc = mwu_exact(r2, n, k, w2, &out->p);
		goto out;
	}
	u = out->stat;
	mu = na * (double)nb / 2;
	var = na * (double)nb / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (!(var > 0)) {
		out->p = 1;
		goto out;
	}
	z = fmax(0, fabs(u - mu) - 0.5) / sqrt(var);
	out->p = fmin(1.0, erfc(z / M_SQRT2));
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

/* Linear interpolation between order statistics of sorted @v. */
static double quantile_sorted(const double *v, size_t n, double q)
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
	*lo = quantile_sorted(d, resamples, tail);
	*hi = quantile_sorted(d, resamples, 1 - tail);
	free(d);
	return 0;
}

unsigned st_runs_needed(double cov_pct, double effect_pct, double alpha,
			double power)
{
	double z, n;
	unsigned nmin = 2;

	if (!(cov_pct >= 0) || !(effect_pct > 0) || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return 0;
	while (st_mwu_min_p(nmin, nmin) >= alpha && nmin < 1000)
		nmin++;
	z = st_norm_quantile(1 - alpha / 2) + st_norm_quantile(power);
	n = 2 * z * z * (cov_pct / effect_pct) * (cov_pct / effect_pct) /
	    (3 / M_PI);
	if (n > 100000)
		return 100000;
	return n < nmin ? nmin : (unsigned)ceil(n);
}
