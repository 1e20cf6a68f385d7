/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boot2.c - variance between and within invocations, and the two-level
 * bootstrap interval of the % change (boot2.h). Knobs: none; the level,
 * resamples and the bootstrap's seed come from the caller.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results/stats/boot2.h"
#include "results/stats/stats.h"

/* One side, ready to resample: the grand mean, and per invocation its
 * scaled effect and its scaled residuals (contiguous in e). */
struct plan {
	double centre;
	size_t k, n;
	size_t *off, *cnt;
	double *eff, *e;
};

struct byinv {
	unsigned id;
	double v;
};

static int cmp_byinv(const void *a, const void *b)
{
	const struct byinv *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

static void plan_free(struct plan *p)
{
	free(p->off);
	free(p->cnt);
	free(p->eff);
	free(p->e);
	memset(p, 0, sizeof(*p));
}

/* Group @v by invocation into @p: off, cnt, eff = the invocation means,
 * e = the values. 0 or -ENOMEM. */
static int group(const double *v, const unsigned *inv, size_t n, struct plan *p)
{
	struct byinv *s = malloc(n * sizeof(*s));
	int rc = -ENOMEM;

	memset(p, 0, sizeof(*p));
	p->off = calloc(n, sizeof(*p->off));
	p->cnt = calloc(n, sizeof(*p->cnt));
	p->eff = calloc(n, sizeof(*p->eff));
	p->e = malloc(n * sizeof(*p->e));
	if (!s || !p->off || !p->cnt || !p->eff || !p->e)
		goto out;
	for (size_t i = 0; i < n; i++)
		s[i] = (struct byinv){ inv ? inv[i] : 0, v[i] };
	qsort(s, n, sizeof(*s), cmp_byinv);
	p->n = n;
	for (size_t i = 0; i < n; i++) {
		if (!i || s[i].id != s[i - 1].id)
			p->off[p->k++] = i;
		p->cnt[p->k - 1]++;
		p->eff[p->k - 1] += s[i].v;
		p->e[i] = s[i].v;
		p->centre += s[i].v;
	}
	p->centre /= n;
	for (size_t j = 0; j < p->k; j++)
		p->eff[j] /= p->cnt[j];
	rc = 0;
out:
	free(s);
	if (rc)
		plan_free(p);
	return rc;
}

/* The ANOVA of a grouped plan (eff = invocation means, e = values). */
static void anova(const struct plan *p, struct st_vc *o)
{
	double ssb = 0, ssw = 0, sn2 = 0, n = (double)p->n, k = (double)p->k;
	double n0, c1, c2;

	memset(o, 0, sizeof(*o));
	o->n = p->n;
	o->k = p->k;
	o->mean = p->centre;
	o->msb = o->msw = o->var_between = o->var_within = NAN;
	for (size_t j = 0; j < p->k; j++) {
		double d = p->eff[j] - p->centre;

		ssb += p->cnt[j] * d * d;
		sn2 += (double)p->cnt[j] * p->cnt[j];
		for (size_t i = p->off[j]; i < p->off[j] + p->cnt[j]; i++)
			ssw += (p->e[i] - p->eff[j]) * (p->e[i] - p->eff[j]);
	}
	if (p->n > p->k)
		o->msw = o->var_within = ssw / (n - k);
	if (p->k >= 2)
		o->msb = ssb / (k - 1);
	if (p->k < 2 || (p->n > p->k && !(o->msb > o->msw))) {
		/* one invocation, or no sign of a between part: pool */
		o->model = p->k < 2 ? ST_VC_ONE : ST_VC_POOLED;
		if (p->k >= 2)
			o->var_between = 0;
		o->var_mean = (ssb + ssw) / (n - 1) / n;
		o->df = n - 1;
		return;
	}
	if (p->n == p->k) {
		/* one run per invocation: its mean is all there is */
		o->model = ST_VC_MEANS;
		o->var_between = o->msb;
		o->var_mean = o->msb / n;
		o->df = k - 1;
		return;
	}
	o->model = ST_VC_TWO_LEVEL;
	n0 = (n - sn2 / n) / (k - 1);
	o->var_between = (o->msb - o->msw) / n0;
	/* Var(mean) = sb2 sum(n_j^2)/N^2 + sw2/N = c1 MSB + c2 MSW */
	c1 = sn2 / (n * n * n0);
	c2 = 1 / n - c1;
	o->var_mean = c1 * o->msb + c2 * o->msw;
	o->df = o->var_mean * o->var_mean /
		(c1 * c1 * o->msb * o->msb / (k - 1) + c2 * c2 * o->msw * o->msw / (n - k));
}

/* Scale the plan so that resampling gives var_mean: effects by c_b
 * around the grand mean, residuals (about their invocation's mean, or
 * the grand mean when pooled) by c_w. */
static void scale(struct plan *p, const struct st_vc *o)
{
	double mb = 0, mw = 0, cb = 0, cw = 0;
	bool pooled = o->model == ST_VC_ONE || o->model == ST_VC_POOLED;

	for (size_t j = 0; j < p->k; j++) {
		double d = p->eff[j] - p->centre;

		mb += p->cnt[j] * d * d / p->n;
		for (size_t i = p->off[j]; i < p->off[j] + p->cnt[j]; i++)
			p->e[i] -= pooled ? p->centre : p->eff[j];
	}
	for (size_t i = 0; i < p->n; i++)
		mw += p->e[i] * p->e[i] / p->n;
	if (pooled) {
		cw = mw > 0 ? sqrt(o->var_mean * p->n / mw) : 0;
	} else {
		/* between part: sb2 sum(n_j^2)/N^2 from picks of effects whose
		 * n_j-weighted mean square is mb; within part: sw2 / N */
		double sn2 = 0;

		for (size_t j = 0; j < p->k; j++)
			sn2 += (double)p->cnt[j] * p->cnt[j];
		cb = mb > 0 ? sqrt(o->var_between * sn2 / (p->n * p->n) * p->k / mb) : 0;
		if (o->model == ST_VC_MEANS)
			cb = mb > 0 ? sqrt(o->var_mean * p->k / mb) : 0;
		cw = mw > 0 && isfinite(o->var_within) ? sqrt(o->var_within / mw) : 0;
	}
	for (size_t j = 0; j < p->k; j++)
		p->eff[j] = pooled ? 0 : cb * (p->eff[j] - p->centre);
	for (size_t i = 0; i < p->n; i++)
		p->e[i] *= cw;
	if (pooled) {
		/* one group: the residuals are resampled across invocations */
		p->k = 1;
		p->off[0] = 0;
		p->cnt[0] = p->n;
	}
}

/* One two-level resample of the mean: k invocations with replacement,
 * then each one's runs with replacement. */
static double resample(const struct plan *p, struct st_rng *r)
{
	double s = 0;
	size_t m = 0;

	for (size_t pick = 0; pick < p->k; pick++) {
		size_t j = p->k == 1 ? 0 : st_rng_below(r, p->k);

		for (size_t i = 0; i < p->cnt[j]; i++)
			s += p->eff[j] + p->e[p->off[j] + st_rng_below(r, p->cnt[j])];
		m += p->cnt[j];
	}
	return p->centre + s / m;
}

int st_vc_estimate(const double *v, const unsigned *inv, size_t n,
		   struct st_vc *out)
{
	struct plan p;
	int rc;

	memset(out, 0, sizeof(*out));
	if (n < 2)
		return -EINVAL;
	rc = group(v, inv, n, &p);
	if (rc)
		return rc;
	anova(&p, out);
	plan_free(&p);
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int st_boot2_ci_pct(const double *base, const unsigned *ib, size_t nb,
		    const double *new, const unsigned *in, size_t nn,
		    double level, unsigned resamples, uint64_t seed,
		    double *lo, double *hi, struct st_vc *vb, struct st_vc *vn)
{
	struct plan pb = { 0 }, pn = { 0 };
	struct st_vc ob, on;
	double df, tail, *d = NULL;
	struct st_rng r;
	int rc;

	*lo = *hi = NAN;
	if (nb < 2 || nn < 2 || !(level > 0 && level < 1) || resamples < 10)
		return -EINVAL;
	rc = group(base, ib, nb, &pb);
	if (!rc)
		rc = group(new, in, nn, &pn);
	if (rc)
		goto out;
	anova(&pb, &ob);
	anova(&pn, &on);
	if (vb)
		*vb = ob;
	if (vn)
		*vn = on;
	rc = -EINVAL;
	if (!(fabs(ob.mean) > 0))
		goto out;
	rc = 0;
	if (!(ob.var_mean + on.var_mean > 0)) {
		*lo = *hi = 100.0 * (on.mean / ob.mean - 1);
		goto out;
	}
	df = (ob.var_mean + on.var_mean) * (ob.var_mean + on.var_mean) /
	     ((ob.var_mean > 0 ? ob.var_mean * ob.var_mean / ob.df : 0) +
	      (on.var_mean > 0 ? on.var_mean * on.var_mean / on.df : 0));
	tail = 1 - st_norm_cdf(st_t_quantile(1 - (1 - level) / 2, df));
	scale(&pb, &ob);
	scale(&pn, &on);
	rc = -ENOMEM;
	d = malloc(resamples * sizeof(*d));
	if (!d)
		goto out;
	rc = 0;
	st_rng_seed(&r, seed);
	for (unsigned i = 0; i < resamples; i++) {
		double sb = resample(&pb, &r), sn = resample(&pn, &r);

		d[i] = sb * ob.mean > 0 ? 100.0 * (sn / sb - 1) : INFINITY;
	}
	qsort(d, resamples, sizeof(*d), cmp_d);
	*lo = st_quantile_sorted(d, resamples, tail);
	*hi = st_quantile_sorted(d, resamples, 1 - tail);
out:
	free(d);
	plan_free(&pb);
	plan_free(&pn);
	return rc;
}
