/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stall.c - the disturbed-run reasons that look inside one point's
 * samples: a task that did (almost) no op in a measured interval while
 * its siblings ran (stopped, starved or stuck), intervals in which no
 * task made progress (or, for a lone task, in which it did none while the
 * window went on), each for a second or more; and tasks that did no op
 * in the whole window. The knobs are stall_frac, stall_min_ops and
 * stall_min_s of the res_disturb_limits it is given.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/model/disturb.h"

#define SHOWN_TASKS 3   /* tasks named one by one; the rest are counted */
#define SHOWN_SPANS 6   /* spans of intervals written out; then "..." */

/* The point judged, by what limits, and its measured intervals: sample
 * indices k[0..m). */
struct win {
	const struct res_point *p;
	const struct res_disturb_limits *L;
	const unsigned *k;
	unsigned m;
	bool *zero, *low;   /* m each: scratch for stalled() */
};

/* The length of measured interval @j in seconds. */
static double dt_s(const struct win *w, unsigned j)
{
	return (w->p->t_ns[w->k[j]] - w->p->t_ns[w->k[j] - 1]) / 1e9;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The measured intervals of @p that have a length: their sample indices
 * into @k, and their count. */
static unsigned measured(const struct res_point *p, unsigned *k)
{
	unsigned m = 0;

	for (unsigned s = 1; s < p->nsamples; s++)
		if (p->phase[s] == RES_PHASE_MEASURE && p->t_ns[s] > p->t_ns[s - 1])
			k[m++] = s;
	return m;
}

static uint64_t window_ops(const struct res_point *p, unsigned task)
{
	uint64_t n = 0;

	for (unsigned s = 1; s < p->nsamples; s++)
		if (p->phase[s] == RES_PHASE_MEASURE)
			n += res_ops(p, task, s);
	return n;
}

unsigned res_silent_tasks(const struct res_point *p)
{
	unsigned n = 0, k = 0;

	for (unsigned s = 1; s < p->nsamples; s++)
		k += p->phase[s] == RES_PHASE_MEASURE;
	for (unsigned i = 0; k && i < p->ntasks; i++)
		n += !window_ops(p, i);
	return n;
}

/* The median of the sorted v[0..n) without one element equal to @x. */
static double median_without(const double *v, unsigned n, double x)
{
	unsigned lo = 0, hi = n, m = n - 1;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
#define AT(j) v[(j) < lo ? (j) : (j) + 1]
	return m % 2 ? AT(m / 2) : (AT(m / 2 - 1) + AT(m / 2)) / 2;
#undef AT
}

/* Clear the spans of consecutive flagged intervals in f[0..m) shorter
 * than stall_min_s together: a busy machine starves a task for half a
 * second now and then, a stopped or stuck one stays put. */
static void keep_long(const struct win *w, bool *f)
{
	unsigned m = w->m;

	for (unsigned j = 0; j < m; j++) {
		unsigned e = j;
		double len = 0;

		if (!f[j])
			continue;
		for (; e < m && f[e]; e++)
			len += dt_s(w, e);
		if (len < w->L->stall_min_s)
			memset(f + j, 0, (e - j) * sizeof(*f));
		j = e;
	}
}

/* f[i * m + j]: task i, which did ops in the window, did under stall_frac
 * of its siblings' median in interval j, where that median is at least
 * stall_min_ops. @tmp holds ntasks doubles; ntasks >= 2. */
static void sibling_stalls(const struct win *w, const bool *silent, double *tmp,
			   bool *f)
{
	const struct res_point *p = w->p;
	const unsigned *k = w->k;
	unsigned n = p->ntasks, m = w->m;

	for (unsigned j = 0; j < m; j++) {
		for (unsigned i = 0; i < n; i++)
			tmp[i] = (double)res_ops(p, i, k[j]);
		qsort(tmp, n, sizeof(*tmp), cmp_dbl);
		for (unsigned i = 0; i < n; i++) {
			double x = (double)res_ops(p, i, k[j]);
			double med = median_without(tmp, n, x);

			f[(size_t)i * m + j] = !silent[i] && med >= w->L->stall_min_ops &&
					       x < w->L->stall_frac * med;
		}
	}
	for (unsigned i = 0; i < n; i++)
		keep_long(w, f + (size_t)i * m);
}

/* f[j]: the point's ops in interval j (all tasks), as a rate, under
 * stall_frac of its upper-quartile interval rate, where that rate over
 * the interval is at least stall_min_ops. @tmp holds m doubles. */
static void window_stalls(const struct win *w, double *tmp, bool *f)
{
	const struct res_point *p = w->p;
	unsigned m = w->m;
	double ref;

	for (unsigned j = 0; j < m; j++) {
		uint64_t ops = 0;

		for (unsigned i = 0; i < p->ntasks; i++)
			ops += res_ops(p, i, w->k[j]);
		tmp[j] = ops / dt_s(w, j);
	}
	qsort(tmp, m, sizeof(*tmp), cmp_dbl);
	ref = tmp[3 * m / 4 < m - 1 ? 3 * m / 4 : m - 1];
	for (unsigned j = 0; j < m; j++) {
		double dt = dt_s(w, j);
		uint64_t ops = 0;

		for (unsigned i = 0; i < p->ntasks; i++)
			ops += res_ops(p, i, w->k[j]);
		f[j] = ref * dt >= w->L->stall_min_ops &&
		       ops < w->L->stall_frac * ref * dt;
	}
	keep_long(w, f);
}

/* The flagged intervals f[0..m) as "interval 4" or "intervals 4-6, 9"
 * into @buf, consecutive ones merged; false when there are none. */
static bool spans(const bool *f, unsigned m, char *buf, size_t len)
{
	unsigned count = 0, nspans = 0;
	size_t used = 0;
	char list[160] = "";   /* 6 spans of ", 4294967295-4294967295", ", ..." */

	for (unsigned j = 0; j < m; j++) {
		unsigned e = j;

		if (!f[j])
			continue;
		while (e + 1 < m && f[e + 1])
			e++;
		count += e - j + 1;
		if (nspans < SHOWN_SPANS && e > j)
			used += snprintf(list + used, sizeof(list) - used, "%s%u-%u",
					 nspans ? ", " : "", j + 1, e + 1);
		else if (nspans < SHOWN_SPANS)
			used += snprintf(list + used, sizeof(list) - used, "%s%u",
					 nspans ? ", " : "", j + 1);
		else if (nspans == SHOWN_SPANS)
			used += snprintf(list + used, sizeof(list) - used, ", ...");
		nspans++;
		j = e;
	}
	snprintf(buf, len, "%s %s", count > 1 ? "intervals" : "interval", list);
	return count > 0;
}

/* What task @i (all tasks: @i < 0) did in the intervals flagged in f:
 * "0 ops in intervals 4-6 of 8, and under 5% of @low in interval 3". */
static void stalled(const struct win *w, int i, const bool *f,
		    const char *low, char *buf, size_t len)
{
	const struct res_point *p = w->p;
	char zs[176], ls[176];
	bool anyz, anyl;

	for (unsigned j = 0; j < w->m; j++) {
		bool zero = true;

		for (unsigned t = i < 0 ? 0 : (unsigned)i;
		     t < (i < 0 ? p->ntasks : (unsigned)i + 1); t++)
			zero &= !res_ops(p, t, w->k[j]);
		w->zero[j] = f[j] && zero;
		w->low[j] = f[j] && !zero;
	}
	anyz = spans(w->zero, w->m, zs, sizeof(zs));
	anyl = spans(w->low, w->m, ls, sizeof(ls));
	if (anyz && anyl)
		snprintf(buf, len, "0 ops in %s of %u, and under %g%% of %s in %s",
			 zs, w->m, w->L->stall_frac * 100, low, ls);
	else if (anyz)
		snprintf(buf, len, "0 ops in %s of %u", zs, w->m);
	else
		snprintf(buf, len, "under %g%% of %s in %s of %u",
			 w->L->stall_frac * 100, low, ls, w->m);
}

static void add(struct json_object *a, const char *s)
{
	json_object_array_add(a, json_object_new_string(s));
}

/* The reasons for the tasks flagged in f (ntasks x m). */
static void sibling_reasons(const struct win *w, const bool *f,
			    struct json_object *a)
{
	const struct res_point *p = w->p;
	unsigned shown = 0, more = 0, m = w->m;
	char what[448], buf[640];

	for (unsigned i = 0; i < p->ntasks; i++) {
		const bool *fi = f + (size_t)i * m;
		bool any = false;

		for (unsigned j = 0; j < m; j++)
			any |= fi[j];
		if (!any)
			continue;
		if (shown == SHOWN_TASKS) {
			more++;
			continue;
		}
		stalled(w, (int)i, fi, "its siblings' median ops", what, sizeof(what));
		snprintf(buf, sizeof(buf), "task %u did %s while its siblings ran (stopped, starved or stuck)",
			 i, what);
		add(a, buf);
		shown++;
	}
	if (more) {
		snprintf(buf, sizeof(buf), "%u more tasks stalled likewise while their siblings ran",
			 more);
		add(a, buf);
	}
}

/* The reason for the intervals flagged in f[0..m) of the whole point. */
static void window_reason(const struct win *w, const bool *f,
			  struct json_object *a)
{
	bool one = w->p->ntasks == 1;
	char what[448], buf[640];

	stalled(w, -1, f, one ? "its usual ops" : "their usual ops", what,
		sizeof(what));
	snprintf(buf, sizeof(buf), "%s did %s while the window went on (%s)",
		 one ? "task 0" : "all tasks", what,
		 one ? "stopped, starved or stuck" : "stopped, starved or stuck together");
	add(a, buf);
}

/* The reason for the @nsilent tasks that did no op in the window; the
 * first of them is @first. */
static void silent_reason(const struct res_point *p, int cpus, unsigned nsilent,
			  unsigned first, struct json_object *a)
{
	unsigned on = p->places ? p->places : cpus > 0 ? (unsigned)cpus : 0;
	char buf[320];

	if (p->oversubscribed || (on && p->tasks > on))
		snprintf(buf, sizeof(buf), "%u of %u tasks did no op in the measured window (first: task %u): starved, %u tasks on %u %s, so its figures are not comparable",
			 nsilent, p->ntasks, first, p->tasks, on,
			 p->places ? "places" : "CPUs");
	else
		snprintf(buf, sizeof(buf), "%u of %u tasks did no op in the measured window (first: task %u): stopped, starved or stuck",
			 nsilent, p->ntasks, first);
	add(a, buf);
}

int res_stall_reasons(const struct res_point *p,
		      const struct res_disturb_limits *L, int cpus,
		      struct json_object *a)
{
	size_t n = p->ntasks, ns = p->nsamples;
	unsigned *k = calloc(ns + 1, sizeof(*k));
	double *tmp = calloc((n > ns ? n : ns) + 1, sizeof(*tmp));
	bool *silent = calloc(n + 1, sizeof(*silent));
	bool *f = NULL, *g = NULL, anyf = false;
	unsigned m = k ? measured(p, k) : 0, nsilent = 0, first = 0;
	struct win w = { p, L, k, m, NULL, NULL };
	int rc = k && tmp && silent ? 0 : -ENOMEM;

	if (rc || !m)
		goto out;
	for (unsigned i = 0; i < n; i++)
		if ((silent[i] = !window_ops(p, i)) && !nsilent++)
			first = i;
	f = calloc(n * m + 1, sizeof(*f));
	g = calloc(2 * m, sizeof(*g));
	if (!f || !g) {
		rc = -ENOMEM;
		goto out;
	}
	w.zero = g;
	w.low = g + m;
	if (n >= 2) {
		sibling_stalls(&w, silent, tmp, f);
		sibling_reasons(&w, f, a);
	}
	if (m >= 2) {
		window_stalls(&w, tmp, f);
		for (unsigned j = 0; j < m; j++)
			anyf |= f[j];
		if (anyf)
			window_reason(&w, f, a);
	}
	if (nsilent)
		silent_reason(p, cpus, nsilent, first, a);
out:
	free(k);
	free(tmp);
	free(silent);
	free(f);
	free(g);
	return rc;
}
