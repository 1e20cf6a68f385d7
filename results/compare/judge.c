/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * judge.c - the verdict of one metric of one point from its
 * interval, the declared test's p (BH q for the non-primary metrics), the
 * sides' noise and, when one outlier run made a side noisy, the rank-based
 * interval (results/COMPARE.md, "Verdicts", "Small samples" and "Robust
 * statistics"), by the metric's direction; and the better/worse word of a
 * change. Too few units for any p below alpha: INCONCLUSIVE. Knobs:
 * struct cmp_opts (thresholds, --max-cov, alpha).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/compare/model.h"
#include "results/compare/fmt.h"

/* The verdict of an interval entirely below -T (@below) or above +T: a
 * REGRESSION on the metric's worse side (down when higher is better, up
 * when lower is better), else an IMPROVEMENT. */
static enum cmp_verdict beyond(const struct cmp_delta *d, bool below)
{
	return below == (d->dir >= 0) ? CMP_REGRESSION : CMP_IMPROVEMENT;
}

const char *cmp_effect(const struct cmp_delta *d)
{
	if (!d->valid || (isnan(d->pct) && !d->from_zero) || d->verdict == CMP_NO_CHANGE ||
	    d->capped)
		return "-";
	if (d->verdict == CMP_REGRESSION || d->verdict == CMP_IMPROVEMENT)
		return d->verdict == CMP_REGRESSION ? "worse" : "better";
	if (d->from_zero)
		return beyond(d, false) == CMP_REGRESSION ? "worse" : "better";
	if (fabs(d->pct) <= d->threshold)
		return "-";
	return beyond(d, d->pct < 0) == CMP_REGRESSION ? "worse" : "better";
}

/* A side is noisy only through one outlier run: the rank-based interval,
 * which one run cannot pull, decides when it is clear. */
static enum cmp_verdict judge_by_rank(struct cmp_delta *d, double t, bool sig,
				      double cov, const struct cmp_opts *o)
{
	enum cmp_verdict v = CMP_NOISY;
	const char *what = NULL;

	if ((d->hl_hi < -t || d->hl_lo > t) && sig) {
		v = beyond(d, d->hl_hi < -t);
		what = d->hl_hi < -t ? "entirely below -" : "entirely above +";
	} else if (d->hl_lo >= -t && d->hl_hi <= t) {
		v = CMP_NO_CHANGE;
		what = "within +-";
	}
	if (what) {
		d->by_rank = true;
		snprintf(d->why, sizeof(d->why),
			 "rank CI %s%g%%; CoV %.1f%% from one outlier run", what, t, cov);
	} else {
		snprintf(d->why, sizeof(d->why),
			 "CoV %.1f%% > --max-cov %g%% (one outlier run; the rank CI is unclear too)",
			 cov, o->max_cov);
	}
	return v;
}

/* The CI lies beyond +-T (@dir "below" or "above"), a side is noisy and
 * each side is one invocation: its runs cannot show how far a disturbed
 * invocation lies from a quiet one, so the mean's interval gives no
 * direction. When one outlier run made the side noisy, the rank interval,
 * which one run cannot pull, decides; else NOISY. */
static enum cmp_verdict judge_noisy(struct cmp_delta *d, const char *dir, bool sig,
				    double cov_base, double cov_new,
				    const struct cmp_opts *o)
{
	double t = d->threshold;
	double cov = fmax(isnan(cov_base) ? 0 : cov_base, isnan(cov_new) ? 0 : cov_new);

	if (d->one_outlier && isfinite(d->hl_lo) && isfinite(d->hl_hi))
		return judge_by_rank(d, t, sig, cov, o);
	snprintf(d->why, sizeof(d->why),
		 "CI entirely %s %s%g%%, but CoV %.1f%% > --max-cov %g%% with one invocation a side",
		 dir, *dir == 'b' ? "-" : "+", t, cov, o->max_cov);
	return CMP_NOISY;
}

/* Before any interval: too few units, too few runs, or all or nothing
 * (0 on every run of one side). CMP_NVERDICT when none of those holds. */
static enum cmp_verdict judge_first(struct cmp_delta *d, enum cmp_class cls, bool sig,
				    size_t nbase, size_t nnew, const struct cmp_opts *o)
{
	if (d->needs) {
		snprintf(d->why, sizeof(d->why),
			 "needs %u %s a side: %u vs %u can never give p < %g",
			 d->needs, d->two_level ? "invocations" : "runs",
			 d->units[0], d->units[1], o->alpha);
		return CMP_INCONCLUSIVE;
	}
	if (nbase < 2 || nnew < 2) {
		snprintf(d->why, sizeof(d->why), "fewer than 2 runs on a side: no interval");
		return CMP_INCONCLUSIVE;
	}
	if (d->from_zero || d->to_zero) {
		/* all or nothing: the runs alone tell that it appeared or went */
		snprintf(d->why, sizeof(d->why), "%s on every baseline run, %s on every run: Fisher p = %.3g%s",
			 d->from_zero ? "0" : "above 0", d->from_zero ? "above 0" : "0", d->p,
			 cls == CMP_PRIMARY ? (sig ? "" : " >= alpha") :
			 sig ? ", q within the sporadic counters < alpha" :
			 ", but q >= alpha within the sporadic counters");
		return sig ? beyond(d, d->to_zero) : CMP_INCONCLUSIVE;
	}
	if (isnan(d->lo) || isnan(d->hi)) {
		snprintf(d->why, sizeof(d->why), "no interval (a mean of 0?)");
		return CMP_INCONCLUSIVE;
	}
	return CMP_NVERDICT;
}

/* The interval within +-T, or crossing it, on sides that are not noisy
 * (or, noisy, one outlier run's rank interval decides). */
static enum cmp_verdict judge_inside(struct cmp_delta *d, bool noisy, bool sig,
				     double cov_base, double cov_new, const struct cmp_opts *o)
{
	double t = d->threshold;
	double cov = fmax(isnan(cov_base) ? 0 : cov_base, isnan(cov_new) ? 0 : cov_new);

	/* the run-level rank CI knows nothing of the invocations */
	if (noisy && d->one_outlier && !d->two_level && isfinite(d->hl_lo) &&
	    isfinite(d->hl_hi))
		return judge_by_rank(d, t, sig, cov, o);
	if (noisy) {
		snprintf(d->why, sizeof(d->why), "CoV %.1f%% > --max-cov %g%%", cov, o->max_cov);
		return CMP_NOISY;
	}
	if (d->lo >= -t && d->hi <= t) {
		snprintf(d->why, sizeof(d->why), "CI within +-%g%%", t);
		return CMP_NO_CHANGE;
	}
	snprintf(d->why, sizeof(d->why), "CI crosses %s%g%%",
		 d->lo < -t ? "-" : "+", t);
	return CMP_INCONCLUSIVE;
}

enum cmp_verdict cmp_judge(struct cmp_delta *d, enum cmp_class cls,
			   double cov_base, double cov_new, size_t nbase,
			   size_t nnew, const struct cmp_opts *o)
{
	double t = d->threshold, p = cls == CMP_PRIMARY ? d->p : d->q;
	bool noisy = cov_base > o->max_cov || cov_new > o->max_cov;
	bool sig = p < o->alpha;  /* the declared test; BH q for the others */
	enum cmp_verdict v = judge_first(d, cls, sig, nbase, nnew, o);
	const char *dir = NULL;

	if (v != CMP_NVERDICT)
		return v;
	if (d->hi < -t)
		dir = "below";
	else if (d->lo > t)
		dir = "above";
	if (!dir)
		return judge_inside(d, noisy, sig, cov_base, cov_new, o);
	if (!sig) {
		snprintf(d->why, sizeof(d->why), "CI %s %s%g%% but %s = %.3g >= %g%s",
			 dir, *dir == 'b' ? "-" : "+", t, cls == CMP_PRIMARY ? "p" : "q",
			 p, o->alpha, cls == CMP_PRIMARY ? "" : " after Benjamini-Hochberg");
		return CMP_INCONCLUSIVE;
	}
	if (noisy && !d->two_level)
		return judge_noisy(d, dir, sig, cov_base, cov_new, o);
	snprintf(d->why, sizeof(d->why), "CI entirely %s %s%g%%%s", dir,
		 *dir == 'b' ? "-" : "+", t, noisy ? " (a side is noisy)" : "");
	return beyond(d, *dir == 'b');
}

/* @lo, @hi times @k, in order. */
static void scaled(double k, double lo, double hi, double *slo, double *shi)
{
	*slo = fmin(lo * k, hi * k);
	*shi = fmax(lo * k, hi * k);
}

void cmp_judge_part(struct cmp_delta *d, enum cmp_class cls, const struct st_desc *a,
		    const struct st_desc *b, double whole, const struct cmp_opts *o)
{
	double t = d->threshold, k, big;
	struct cmp_delta e = *d;
	char why[256];

	if (!(whole > 0))
		return;
	big = fmax(fmax(fabs(a->min), fabs(a->max)), fmax(fabs(b->min), fabs(b->max)));
	if (100 * big / whole <= t) {
		d->verdict = CMP_NO_CHANGE;
		d->by_rank = false;
		snprintf(d->why, sizeof(d->why),
			 "never above %.2g%% of the wall time per op (T=%g%%)", 100 * big / whole, t);
		return;
	}
	if (isnan(d->lo) || isnan(d->hi) || !(a->mean > 0))
		return;    /* no interval to scale: the verdict stands */
	k = a->mean / whole;
	e.pct = d->pct * k;
	scaled(k, d->lo, d->hi, &e.lo, &e.hi);
	scaled(k, d->hl_lo, d->hl_hi, &e.hl_lo, &e.hl_hi);
	e.hl_pct = d->hl_pct * k;
	e.verdict = cmp_judge(&e, cls, 100 * a->sd / whole, 100 * b->sd / whole, a->n, b->n, o);
	d->verdict = e.verdict;
	d->by_rank = e.by_rank;
	snprintf(why, sizeof(why), "as a share of the wall %+.2f%% [%+.2f%%, %+.2f%%]: %s",
		 e.pct, e.lo, e.hi, e.why);
	snprintf(d->why, sizeof(d->why), "%.*s", (int)sizeof(d->why) - 1, why);
}

/* @t went the worse way: beyond T, decided or not, or up from 0. */
static bool went_worse(const struct cmp_delta *t)
{
	return t->valid && !strcmp(cmp_effect(t), "worse");
}

void cmp_judge_cap(struct cmp_delta *d, const struct cmp_delta *total,
		   const char *total_name)
{
	char pct[32];

	if (!d->valid || d->verdict != CMP_IMPROVEMENT || !went_worse(total))
		return;
	cmp_fmt_change(pct, sizeof(pct), total);
	d->verdict = CMP_INCONCLUSIVE;
	d->by_rank = false;
	d->capped = true;
	snprintf(d->why, sizeof(d->why), "fell, but %s rose %s: a percentile is not the total",
		 total_name, pct);
}
