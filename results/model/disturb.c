/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disturb.c - mark runs whose conditions differ clearly from their
 * siblings': steal, foreign load (idle far below the siblings' median, or
 * for a lone run below what the task count leaves idle of the CPUs the
 * run may use, those its idle figure covers), a late sampler,
 * a bound task that migrated, cgroup memory events most siblings do not
 * have, a task stopped, starved or stuck (stall.c). Knobs:
 * res_disturb_limits.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/model/disturb.h"

const struct res_disturb_limits res_disturb_limits = {
	.steal_pct = 5, .idle_pts = 15, .lag_frac = 0.25, .flagged_frac = 0.5,
	.stall_frac = 0.05, .stall_min_ops = 20, .stall_min_s = 1,
};

static bool ok_point(const struct res_point *p)
{
	return p->status == RES_OK;
}

/* extra.cgroup.layout, as compare groups by it; "none" when absent */
static const char *layout(const struct res_point *p)
{
	struct json_object *c = NULL, *l = NULL;

	if (p->extra && json_object_object_get_ex(p->extra, "cgroup", &c) &&
	    json_object_object_get_ex(c, "layout", &l) &&
	    json_object_is_type(l, json_type_string))
		return json_object_get_string(l);
	return "none";
}

static bool cg_flagged(const struct res_point *p)
{
	struct json_object *cg, *f;

	return p->extra && json_object_object_get_ex(p->extra, "cgroup", &cg) &&
	       json_object_object_get_ex(cg, "flagged", &f) &&
	       json_object_get_boolean(f);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* An ok point and what makes its siblings: same test, mode, task count
 * and cgroup layout. The points are sorted by it, so each group of
 * siblings is one stretch: O(n log n) for all of them, not O(n^2). */
struct sib {
	const struct res_point *p;
	const char *layout;
	unsigned idx;
};

static int cmp_sib(const void *x, const void *y)
{
	const struct sib *a = x, *b = y;
	int c = strcmp(a->p->test, b->p->test);

	if (!c)
		c = strcmp(a->p->mode, b->p->mode);
	if (!c)
		c = (a->p->tasks > b->p->tasks) - (a->p->tasks < b->p->tasks);
	if (!c)
		c = strcmp(a->layout, b->layout);
	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

static bool same_group(const struct sib *a, const struct sib *b)
{
	return a->p->tasks == b->p->tasks && !strcmp(a->p->test, b->p->test) &&
	       !strcmp(a->p->mode, b->p->mode) && !strcmp(a->layout, b->layout);
}

/* What a point is judged against: its siblings (itself included). */
struct sib_stats {
	double idle_med;
	unsigned n, flagged;
};

/* The stats of the siblings v[0..n); @tmp holds n doubles. */
static void sibling_stats(const struct sib *v, unsigned n, double *tmp,
			  struct sib_stats *st)
{
	unsigned k = 0;

	st->n = n;
	st->flagged = 0;
	for (unsigned i = 0; i < n; i++) {
		st->flagged += cg_flagged(v[i].p);
		if (isfinite(v[i].p->sum.idle_pct))
			tmp[k++] = v[i].p->sum.idle_pct;
	}
	qsort(tmp, k, sizeof(*tmp), cmp_dbl);
	st->idle_med = !k ? NAN : k % 2 ? tmp[k / 2] : (tmp[k / 2 - 1] + tmp[k / 2]) / 2;
}

static int online_cpus(const struct res_file *f)
{
	struct json_object *o;

	if (f->machine && json_object_object_get_ex(f->machine, "online_cpus", &o) &&
	    json_object_is_type(o, json_type_int))
		return json_object_get_int(o);
	return 0;
}

/* How many CPUs a list such as "1,4-7" names; 0 when it is not one. */
static int list_count(const char *s)
{
	long n = 0;

	while (*s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s || *s < '0' || *s > '9')
			return 0;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s || *s < '0' || *s > '9' || b < a)
				return 0;
		}
		n += (long)(b - a) + 1;
		if (n > 1000000 || (*end && *end != ','))
			return 0;
		s = *end ? end + 1 : end;
	}
	return (int)n;
}

/* The CPUs p's idle figure covers: harness.idle_cpus, those the run may
 * use (*@list, NULL: the machine's online CPUs, also in files of runners
 * from before the figure was of them). 0 when not known. */
static int idle_cpus(const struct res_file *f, const struct res_point *p,
		     const char **list)
{
	struct json_object *h, *c;
	int n;

	*list = NULL;
	if (p->extra && json_object_object_get_ex(p->extra, "harness", &h) &&
	    json_object_object_get_ex(h, "idle_cpus", &c) &&
	    json_object_is_type(c, json_type_string) &&
	    (n = list_count(json_object_get_string(c))) > 0) {
		*list = json_object_get_string(c);
		return n;
	}
	return online_cpus(f);
}

static void reason(struct json_object *a, const char *fmt, double x, double y)
{
	char buf[256];

	snprintf(buf, sizeof(buf), fmt, x, y);
	json_object_array_add(a, json_object_new_string(buf));
}

/* A lone run whose idle is far below what its task count leaves idle of
 * the @cpus its figure covers (@list, NULL: the machine). */
static void lone_idle(const struct res_point *p, int cpus, const char *list,
		      struct json_object *a)
{
	double idle = p->sum.idle_pct, leaves;
	char buf[320];

	if (!isfinite(idle) || cpus <= 0 || p->tasks >= (unsigned)cpus)
		return;
	leaves = 100.0 * (cpus - p->tasks) / cpus;
	if (leaves - idle <= res_disturb_limits.idle_pts)
		return;
	if (list)
		snprintf(buf, sizeof(buf), "foreign load: idle %.1f%% of the run's CPUs %.200s where the task count leaves %.1f%%",
			 idle, list, leaves);
	else
		snprintf(buf, sizeof(buf), "foreign load: idle %.1f%% where the task count leaves %.1f%%",
			 idle, leaves);
	json_object_array_add(a, json_object_new_string(buf));
}

/* How late the sampler was: its recorded lag, or a measured interval
 * longer than asked (instants it missed were merged into one). */
static double late_ms(const struct res_point *p)
{
	double late = p->sampler_lag_ms;

	for (unsigned k = 1; k < p->nsamples; k++)
		if (p->phase[k] == RES_PHASE_MEASURE && p->phase[k - 1] != RES_PHASE_START)
			late = fmax(late, (p->t_ns[k] - p->t_ns[k - 1]) / 1e6 -
				    p->interval_s * 1e3);
	return late;
}

/* The reasons of one ok point into @a. 0 or -ENOMEM. */
static int check_point(const struct res_file *f, const struct res_point *p,
		       const struct sib_stats *st, struct json_object *a)
{
	const struct res_disturb_limits *L = &res_disturb_limits;
	double med = st->idle_med, idle = p->sum.idle_pct;
	unsigned n = st->n, flagged = st->flagged;
	const char *list;
	int cpus = idle_cpus(f, p, &list);

	if (p->sum.steal_pct > L->steal_pct)
		reason(a, "steal %.1f%% (above %g%%)", p->sum.steal_pct, L->steal_pct);
	if (n > 1 && isfinite(idle) && med - idle > L->idle_pts)
		reason(a, "foreign load: idle %.1f%%, its sibling runs' median %.1f%%",
		       idle, med);
	else if (n == 1)
		lone_idle(p, cpus, list, a);
	if (p->interval_s > 0 && late_ms(p) > L->lag_frac * p->interval_s * 1e3)
		reason(a, "sampler late by %.0f ms (interval %.0f ms)", late_ms(p),
		       p->interval_s * 1e3);
	for (unsigned i = 0; i < p->ntasks; i++)
		if (p->task[i].cpuset && p->task[i].migrated)
			reason(a, "task %.0f migrated within its place (CPU %.0f)",
			       i, p->task[i].cpu_end);
	if (cg_flagged(p) && n > 1 && flagged <= L->flagged_frac * n)
		reason(a, "cgroup memory events in %.0f of %.0f sibling runs (see extra.cgroup.flags)",
		       flagged, n);
	return res_stall_reasons(p, L, cpus, a);
}

/* Mark the ok points v[0..n), siblings all. */
static int mark_group(const struct res_file *f, struct sib *v, unsigned n,
		      double *tmp)
{
	struct sib_stats st;

	sibling_stats(v, n, tmp, &st);
	for (unsigned i = 0; i < n; i++) {
		struct res_point *p = (struct res_point *)v[i].p;
		struct json_object *a = json_object_new_array();

		if (!a || (!p->extra && !(p->extra = json_object_new_object()))) {
			json_object_put(a);
			return -ENOMEM;
		}
		if (check_point(f, p, &st, a) ||
		    json_object_object_add(p->extra, "disturbed", a)) {
			json_object_put(a);
			return -ENOMEM;
		}
	}
	return 0;
}

int res_disturb_mark(struct res_file *f)
{
	struct sib *v = calloc(f->npoints ? f->npoints : 1, sizeof(*v));
	double *tmp = calloc(f->npoints ? f->npoints : 1, sizeof(*tmp));
	unsigned n = 0;
	int rc = v && tmp ? 0 : -ENOMEM;

	for (unsigned i = 0; !rc && i < f->npoints; i++) {
		struct res_point *p = &f->points[i];

		if (p->extra)
			json_object_object_del(p->extra, "disturbed");
		if (ok_point(p))
			v[n++] = (struct sib){ p, layout(p), i };
	}
	if (!rc)
		qsort(v, n, sizeof(*v), cmp_sib);
	for (unsigned a = 0, b; !rc && a < n; a = b) {
		for (b = a + 1; b < n && same_group(&v[a], &v[b]); b++)
			;
		rc = mark_group(f, v + a, b - a, tmp);
	}
	free(v);
	free(tmp);
	return rc;
}

int res_disturb_mark_unmarked(struct res_file *f)
{
	for (unsigned i = 0; i < f->npoints; i++)
		if (res_disturbed(&f->points[i], NULL, 0) >= 0)
			return 0;
	return res_disturb_mark(f);
}

int res_disturbed(const struct res_point *p, char *buf, size_t len)
{
	struct json_object *a;
	size_t n;

	if (len)
		buf[0] = 0;
	if (!p->extra || !json_object_object_get_ex(p->extra, "disturbed", &a) ||
	    !json_object_is_type(a, json_type_array))
		return -1;
	n = json_object_array_length(a);
	for (size_t i = 0; len && i < n; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(a, i));
		size_t used = strlen(buf);

		if (len > used)
			snprintf(buf + used, len - used, "%s%s", i ? "; " : "", s ? s : "?");
	}
	return (int)n;
}
