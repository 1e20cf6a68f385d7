/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result.c - allocation of the result model and the per-point summary
 * arithmetic: rates over the real elapsed time of the measured intervals,
 * per-task fairness, CoV across intervals, and LKP's scalability figure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/model/result.h"

const char *const res_phase_names[] = {
	[RES_PHASE_START] = "start",
	[RES_PHASE_WARMUP] = "warmup",
	[RES_PHASE_MEASURE] = "measure",
	NULL,
};

const char *const res_status_names[RES_NSTATUS] = {
	[RES_NONE] = NULL, [RES_OK] = "ok", [RES_FAILED] = "failed",
	[RES_SKIPPED] = "skipped", [RES_STOPPED] = "stopped",
	[RES_INTERRUPTED] = "interrupted",
};

int res_status_parse(const char *s)
{
	for (int i = RES_NONE + 1; s && i < RES_NSTATUS; i++)
		if (!strcmp(s, res_status_names[i]))
			return i;
	return -EINVAL;
}

int res_point_alloc(struct res_point *p, unsigned ntasks, unsigned nsamples)
{
	p->ntasks = ntasks;
	p->nsamples = nsamples;
	p->task = calloc(ntasks ? ntasks : 1, sizeof(*p->task));
	p->t_ns = calloc(nsamples ? nsamples : 1, sizeof(*p->t_ns));
	p->phase = calloc(nsamples ? nsamples : 1, sizeof(*p->phase));
	p->ops = calloc((size_t)ntasks * nsamples + 1, sizeof(*p->ops));
	p->idle_pct = calloc(nsamples + 1, sizeof(double));
	p->iowait_pct = calloc(nsamples + 1, sizeof(double));
	p->steal_pct = calloc(nsamples + 1, sizeof(double));
	if (!p->task || !p->t_ns || !p->phase || !p->ops || !p->idle_pct ||
	    !p->iowait_pct || !p->steal_pct)
		return -ENOMEM;
	for (unsigned s = 0; s < nsamples; s++)
		p->idle_pct[s] = p->iowait_pct[s] = p->steal_pct[s] = NAN;
	for (unsigned i = 0; i < ntasks; i++)
		p->task[i].index = (int)i;
	p->sum.scalability = NAN;
	return 0;
}

int res_point_set_aux(struct res_point *p, unsigned naux,
		      const char *const *names, const char *const *units,
		      const double *scales)
{
	if (naux > CGS_MAX_AUX)
		return -EINVAL;
	p->naux = naux;
	for (unsigned k = 0; k < naux; k++) {
		p->aux_name[k] = strdup(names[k]);
		p->aux_unit[k] = strdup(units[k]);
		p->aux_scale[k] = scales[k];
		p->aux[k] = calloc((size_t)p->ntasks * p->nsamples + 1,
				   sizeof(uint64_t));
		if (!p->aux_name[k] || !p->aux_unit[k] || !p->aux[k])
			return -ENOMEM;
	}
	return 0;
}

void res_point_free(struct res_point *p)
{
	for (unsigned k = 0; k < p->naux && k < CGS_MAX_AUX; k++) {
		free(p->aux_name[k]);
		free(p->aux_unit[k]);
		free(p->aux[k]);
	}
	for (unsigned i = 0; p->task && i < p->ntasks; i++) {
		free(p->task[i].cpuset);
		free(p->task[i].error);
	}
	free(p->task);
	free(p->t_ns);
	free(p->phase);
	free(p->ops);
	free(p->idle_pct);
	free(p->iowait_pct);
	free(p->steal_pct);
	free(p->test);
	free(p->mode);
	free(p->reason);
	free(p->started_at);
	free(p->placement);
	json_object_put(p->wopts);
	json_object_put(p->extra);
	memset(p, 0, sizeof(*p));
}

void res_file_free(struct res_file *f)
{
	for (unsigned i = 0; i < f->npoints; i++)
		res_point_free(&f->points[i]);
	free(f->points);
	free(f->tool_version);
	free(f->git);
	free(f->interrupted);
	free(f->start_time);
	free(f->end_time);
	json_object_put(f->command_line);
	json_object_put(f->kernel);
	json_object_put(f->machine);
	json_object_put(f->environment);
	json_object_put(f->options);
	json_object_put(f->invocation);
	json_object_put(f->sections);
	memset(f, 0, sizeof(*f));
}

static void shrink_rows(uint64_t *v, unsigned rows, unsigned from, unsigned to)
{
	for (unsigned i = 1; i < rows; i++)
		memmove(&v[(size_t)i * to], &v[(size_t)i * from], to * sizeof(*v));
}

void res_point_truncate(struct res_point *p, unsigned n)
{
	if (n >= p->nsamples)
		return;
	shrink_rows(p->ops, p->ntasks, p->nsamples, n);
	for (unsigned k = 0; k < p->naux; k++)
		shrink_rows(p->aux[k], p->ntasks, p->nsamples, n);
	p->nsamples = n;
}

struct res_point *res_file_add_point(struct res_file *f)
{
	struct res_point *v = f->points;
	unsigned n = f->npoints;

	/* the array holds the next power of two >= npoints: it doubles when
	 * full, so adding 18,000 points copies each about once */
	if (!(n & (n - 1))) {
		v = realloc(f->points, (n ? 2 * (size_t)n : 1) * sizeof(*v));
		if (!v)
			return NULL;
	}
	f->points = v;
	memset(&v[f->npoints], 0, sizeof(*v));
	v[f->npoints].sum.scalability = NAN;
	return &v[f->npoints++];
}

double res_mean(const double *v, size_t n)
{
	double s = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

double res_cov_pct(const double *v, size_t n)
{
	double m = res_mean(v, n), ss = 0;

	if (n < 2 || !(m > 0))
		return NAN;   /* one value has no spread to speak of */
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return 100.0 * sqrt(ss / (n - 1)) / m;
}

/* Time-weighted mean of a per-interval percentage over measured samples. */
static double window_pct(const struct res_point *p, const double *pct)
{
	double w = 0, s = 0;

	for (unsigned k = 1; k < p->nsamples; k++) {
		double dt = (p->t_ns[k] - p->t_ns[k - 1]) / 1e9;

		if (p->phase[k] != RES_PHASE_MEASURE || isnan(pct[k]))
			continue;
		s += pct[k] * dt;
		w += dt;
	}
	return w > 0 ? s / w : NAN;
}

/* Sum the measure phase's intervals: ops and time in @sum, each task's ops
 * in @trate, each interval's rate in @rate; returns how many rates. */
static size_t sum_intervals(const struct res_point *p, struct res_summary *sum,
			    double *rate, double *trate)
{
	size_t nrate = 0;

	for (unsigned k = 1; k < p->nsamples; k++) {
		double dt = (p->t_ns[k] - p->t_ns[k - 1]) / 1e9;
		uint64_t tot = 0;

		if (p->phase[k] != RES_PHASE_MEASURE)
			continue;
		for (unsigned i = 0; i < p->ntasks; i++) {
			tot += res_ops(p, i, k);
			trate[i] += res_ops(p, i, k);
		}
		sum->ops += tot;
		sum->elapsed_s += dt;
		if (dt > 0)
			rate[nrate++] = tot / dt;
	}
	return nrate;
}

/* The total and per-task rates from the sums (@trate becomes rates). */
static void task_rates(const struct res_point *p, struct res_summary *sum,
		       double *trate)
{
	if (!(sum->elapsed_s > 0)) {
		sum->task_cov_pct = NAN;
		return;
	}
	sum->total_ops_per_sec = sum->ops / sum->elapsed_s;
	sum->min_task_ops_per_sec = INFINITY;
	for (unsigned i = 0; i < p->ntasks; i++) {
		trate[i] /= sum->elapsed_s;
		if (trate[i] < sum->min_task_ops_per_sec)
			sum->min_task_ops_per_sec = trate[i];
		if (trate[i] > sum->max_task_ops_per_sec)
			sum->max_task_ops_per_sec = trate[i];
	}
	if (!p->ntasks)
		sum->min_task_ops_per_sec = 0;
	sum->per_task_ops_per_sec =
		p->ntasks ? sum->total_ops_per_sec / p->ntasks : 0;
	sum->task_cov_pct = res_cov_pct(trate, p->ntasks);
}

/* Each auxiliary counter's rate over the measure phase, in all and per task. */
static void aux_rates(const struct res_point *p, struct res_summary *sum)
{
	for (unsigned a = 0; a < p->naux; a++) {
		uint64_t tot = 0;

		for (unsigned k = 1; k < p->nsamples; k++)
			for (unsigned i = 0; p->phase[k] == RES_PHASE_MEASURE &&
					     i < p->ntasks; i++)
				tot += p->aux[a][(size_t)i * p->nsamples + k];
		sum->aux_rate[a] = sum->elapsed_s > 0 ?
			tot / sum->elapsed_s * p->aux_scale[a] : NAN;
		sum->aux_task_rate[a] = p->ntasks ? sum->aux_rate[a] / p->ntasks : NAN;
	}
}

void res_point_summarise(struct res_point *p)
{
	struct res_summary *sum = &p->sum;
	double scal = sum->scalability;
	double *rate = calloc(p->nsamples + 1, sizeof(*rate));
	double *trate = calloc(p->ntasks + 1, sizeof(*trate));
	size_t nrate;

	memset(sum, 0, sizeof(*sum));
	sum->scalability = scal;
	if (!rate || !trate)
		goto out;
	nrate = sum_intervals(p, sum, rate, trate);
	task_rates(p, sum, trate);
	aux_rates(p, sum);
	sum->interval_cov_pct = res_cov_pct(rate, nrate);
	sum->idle_pct = window_pct(p, p->idle_pct);
	sum->iowait_pct = window_pct(p, p->iowait_pct);
	sum->steal_pct = window_pct(p, p->steal_pct);
out:
	free(rate);
	free(trate);
}

static bool point_ok(const struct res_point *p)
{
	return p->status == RES_OK;
}

/* The N=1 points, sorted by (test, mode, run, position in the file). */
struct one_ref {
	const struct res_point *p;
	unsigned k;
};

static int cmp_one(const struct res_point *a, unsigned ka,
		   const struct res_point *b, unsigned kb)
{
	int c = strcmp(a->test, b->test);

	if (!c)
		c = strcmp(a->mode, b->mode);
	if (!c)
		c = (a->run > b->run) - (a->run < b->run);
	return c ? c : (ka > kb) - (ka < kb);
}

static int cmp_one_ref(const void *x, const void *y)
{
	const struct one_ref *a = x, *b = y;

	return cmp_one(a->p, a->k, b->p, b->k);
}

/* The first N=1 reference of @p's test, mode and run, or NULL: a binary
 * search, so that all points together take O(n log n), not O(n^2). */
static const struct res_point *one_of(const struct one_ref *v, unsigned n,
				      const struct res_point *p)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (cmp_one(v[mid].p, v[mid].k, p, 0) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !cmp_one(v[lo].p, 0, p, 0) ? v[lo].p : NULL;
}

void res_file_scalability(struct res_file *f)
{
	struct one_ref *v = calloc(f->npoints ? f->npoints : 1, sizeof(*v));
	unsigned n = 0;

	for (unsigned k = 0; v && k < f->npoints; k++) {
		const struct res_point *one = &f->points[k];

		if (one->tasks == 1 && point_ok(one) && one->sum.total_ops_per_sec > 0)
			v[n++] = (struct one_ref){ one, k };
	}
	if (v)
		qsort(v, n, sizeof(*v), cmp_one_ref);
	for (unsigned i = 0; i < f->npoints; i++) {
		struct res_point *p = &f->points[i];
		const struct res_point *one = v && point_ok(p) ? one_of(v, n, p) : NULL;

		p->sum.scalability = one ? p->sum.total_ops_per_sec /
					   (p->tasks * one->sum.total_ops_per_sec) : NAN;
	}
	free(v);
}
