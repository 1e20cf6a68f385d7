/*
 * disturb.c - mark runs whose conditions differ clearly from their
 * siblings': steal, foreign load (idle far below the siblings' median, or
 * for a lone run below what the task count leaves idle), a late sampler,
 * a bound task that migrated, cgroup memory events most siblings do not
 * have. Knobs: res_disturb_limits.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "disturb.h"

const struct res_disturb_limits res_disturb_limits = {
	.steal_pct = 5, .idle_pts = 15, .lag_frac = 0.25, .flagged_frac = 0.5,
};

static bool ok_point(const struct res_point *p)
{
	return p->status && !strcmp(p->status, "ok");
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

static bool siblings(const struct res_point *a, const struct res_point *b)
{
	return ok_point(b) && a->tasks == b->tasks && !strcmp(a->test, b->test) &&
	       !strcmp(a->mode, b->mode) &&
	       !strcmp(layout(a), layout(b));
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

/* The siblings' median idle (self included), the count of siblings and
 * of flagged ones. */
static int sibling_stats(const struct res_file *f, const struct res_point *p,
			 double *idle_med, unsigned *n, unsigned *flagged)
{
	double *v = malloc(f->npoints * sizeof(*v));
	unsigned k = 0;

	*n = *flagged = 0;
	if (!v)
		return -ENOMEM;
	for (unsigned i = 0; i < f->npoints; i++) {
		const struct res_point *q = &f->points[i];

		if (!siblings(p, q))
			continue;
		(*n)++;
		*flagged += cg_flagged(q);
		if (isfinite(q->sum.idle_pct))
			v[k++] = q->sum.idle_pct;
	}
	qsort(v, k, sizeof(*v), cmp_dbl);
	*idle_med = !k ? NAN : k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	free(v);
	return 0;
}

static int online_cpus(const struct res_file *f)
{
	struct json_object *o;

	if (f->machine && json_object_object_get_ex(f->machine, "online_cpus", &o) &&
	    json_object_is_type(o, json_type_int))
		return json_object_get_int(o);
	return 0;
}

static void reason(struct json_object *a, const char *fmt, double x, double y)
{
	char buf[256];

	snprintf(buf, sizeof(buf), fmt, x, y);
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

/* The reasons of one ok point into @a. */
static int check_point(const struct res_file *f, const struct res_point *p,
		       struct json_object *a)
{
	const struct res_disturb_limits *L = &res_disturb_limits;
	double med, idle = p->sum.idle_pct;
	unsigned n, flagged;
	int cpus = online_cpus(f), rc = sibling_stats(f, p, &med, &n, &flagged);

	if (rc)
		return rc;
	if (p->sum.steal_pct > L->steal_pct)
		reason(a, "steal %.1f%% (above %g%%)", p->sum.steal_pct, L->steal_pct);
	if (n > 1 && isfinite(idle) && med - idle > L->idle_pts)
		reason(a, "foreign load: idle %.1f%%, its sibling runs' median %.1f%%",
		       idle, med);
	else if (n == 1 && isfinite(idle) && cpus > 0 && p->tasks < (unsigned)cpus &&
		 100.0 * (cpus - p->tasks) / cpus - idle > L->idle_pts)
		reason(a, "foreign load: idle %.1f%% where the task count leaves %.1f%%",
		       idle, 100.0 * (cpus - p->tasks) / cpus);
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
	return 0;
}

int res_disturb_mark(struct res_file *f)
{
	int rc = 0;

	for (unsigned i = 0; !rc && i < f->npoints; i++) {
		struct res_point *p = &f->points[i];
		struct json_object *a;

		if (p->extra)
			json_object_object_del(p->extra, "disturbed");
		if (!ok_point(p))
			continue;
		if (!p->extra && !(p->extra = json_object_new_object()))
			return -ENOMEM;
		a = json_object_new_array();
		if (!a)
			return -ENOMEM;
		rc = check_point(f, p, a);
		if (json_object_object_add(p->extra, "disturbed", a)) {
			json_object_put(a);
			rc = rc ? rc : -ENOMEM;
		}
	}
	return rc;
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
