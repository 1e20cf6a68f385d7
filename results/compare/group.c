/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * group.c - the first step of `cgscale compare`'s analysis: the runs of
 * each side's files grouped by point (test, mode, tasks, cgroup layout,
 * workload options), one cell per group and side holding one value per
 * run and metric, with the runs that failed, were disturbed or drift
 * counted and noted. The statistics follow in compare.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare/model.h"
#include "results/model/disturb.h"

static struct cmp_group *group_find(struct cmp_result *r, const struct res_point *p,
				    const char *layout, const char *wopts)
{
	for (unsigned i = 0; i < r->ngroups; i++) {
		struct cmp_group *g = &r->groups[i];

		if (g->tasks == p->tasks && !strcmp(g->test, p->test) &&
		    !strcmp(g->mode, p->mode) && !strcmp(g->wopts, wopts) &&
		    (!g->layout || !strcmp(g->layout, layout)))
			return g;
	}
	return NULL;
}

struct cmp_group *cmp_group_of(const struct cmp_result *r,
			       const struct res_point *p)
{
	bool wo_axis = !strcmp(r->o.axis, "workload");
	char *wopts = wo_axis ? strdup("") : cmp_canon_wopts(p->wopts);
	struct cmp_group *g;

	if (!wopts)
		return NULL;
	g = group_find((struct cmp_result *)r, p, cmp_point_layout(p), wopts);
	free(wopts);
	return g;
}

static struct cmp_group *group_add(struct cmp_result *r, const struct res_point *p,
				   const char *layout, const char *wopts)
{
	struct cmp_group *v = realloc(r->groups, (r->ngroups + 1) * sizeof(*v)), *g;

	if (!v)
		return NULL;
	r->groups = v;
	g = &v[r->ngroups];
	memset(g, 0, sizeof(*g));
	g->test = strdup(p->test);
	g->mode = strdup(p->mode);
	g->layout = layout ? strdup(layout) : NULL;
	g->wopts = strdup(wopts);
	g->tasks = p->tasks;
	g->cell = calloc(r->nsides, sizeof(*g->cell));
	g->delta = calloc((size_t)r->nsides * r->ms.n, sizeof(*g->delta));
	r->ngroups++;
	if (!g->test || !g->mode || (layout && !g->layout) || !g->wopts ||
	    !g->cell || !g->delta)
		return NULL;
	return g;
}

/* Append value @x of invocation @inv to metric @m of @c. */
static int push(struct cmp_cell *c, size_t m, double x, unsigned inv)
{
	double *nv = realloc(c->v[m], (c->n[m] + 1) * sizeof(*nv));
	unsigned *ni;

	if (!nv)
		return -ENOMEM;
	c->v[m] = nv;
	ni = realloc(c->inv[m], (c->n[m] + 1) * sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	c->inv[m] = ni;
	nv[c->n[m]] = x;
	ni[c->n[m]++] = inv;
	return 0;
}

/* Second half of the measured intervals against the first, in %. */
static double drift_pct(const struct res_point *p)
{
	double first = 0, second = 0, t1 = 0, t2 = 0;
	unsigned k0 = 0, nm = 0, seen = 0;

	for (unsigned k = 1; k < p->nsamples; k++)
		if (p->phase[k] == RES_PHASE_MEASURE && !nm++)
			k0 = k;
	if (nm < 2)
		return NAN;
	for (unsigned k = k0; k < p->nsamples; k++) {
		double dt = (p->t_ns[k] - p->t_ns[k - 1]) / 1e9, ops = 0;

		if (p->phase[k] != RES_PHASE_MEASURE)
			continue;
		for (unsigned i = 0; i < p->ntasks; i++)
			ops += res_ops(p, i, k);
		if (seen++ < nm / 2) {
			first += ops;
			t1 += dt;
		} else if (seen > nm - nm / 2) {
			second += ops;
			t2 += dt;
		}
	}
	if (!(t1 > 0) || !(t2 > 0) || !(first > 0))
		return NAN;
	return 100.0 * ((second / t2) / (first / t1) - 1);
}

/* Summarise a point from its samples; true when it was measured. */
static bool measured(struct res_point *p, bool *disagree)
{
	double stored = p->sum.total_ops_per_sec;

	if (p->status != RES_OK)
		return false;
	res_point_summarise(p);
	if (isfinite(stored) &&
	    fabs(stored - p->sum.total_ops_per_sec) > 1e-9 * fabs(stored) + 1e-9)
		*disagree = true;
	return p->sum.elapsed_s > 0 && p->ntasks > 0;
}

/* 1 when @p is disturbed (counted and listed), 0 when clean, -ENOMEM. */
static int left_out(struct cmp_result *r, const struct cmp_file *f,
		    const struct res_point *p, struct cmp_cell *c)
{
	char why[1024];
	int rc;

	if (res_disturbed(p, why, sizeof(why)) <= 0)
		return 0;
	c->disturbed++;
	rc = cmp_note(r, "%s: %s %s tasks=%u run %u is disturbed, left out (--keep-disturbed uses it): %s",
		      f->path, p->test, p->mode, p->tasks, p->run + 1, why);
	return rc ? rc : 1;
}

/* The cell of side @s in @p's group, the group made when new; NULL on
 * ENOMEM. */
static struct cmp_cell *cell_of(struct cmp_result *r, unsigned s,
				const struct res_point *p, const char *layout)
{
	bool cg_axis = !strcmp(r->o.axis, "cgroup");
	bool wo_axis = !strcmp(r->o.axis, "workload");
	char *wopts = wo_axis ? strdup("") : cmp_canon_wopts(p->wopts);
	struct cmp_group *g;

	if (!wopts)
		return NULL;
	g = group_find(r, p, layout, wopts);
	if (!g)
		g = group_add(r, p, cg_axis ? NULL : layout, wopts);
	free(wopts);
	return g ? &g->cell[s] : NULL;
}

/* A clean measured run @p of invocation @inv counted in @c: its value of
 * each metric, and its drift. */
static int take_run(const struct cmp_result *r, struct cmp_cell *c,
		    const struct res_point *p, const char *layout, unsigned inv)
{
	int rc = 0;

	c->ok++;
	c->layout = layout;
	for (size_t m = 0; !rc && m < r->ms.n; m++) {
		double v = cmp_metric_value(&r->ms.m[m], p);

		if (isfinite(v))
			rc = push(c, m, v, inv);
	}
	if (!rc && isfinite(drift_pct(p))) {
		c->drift_pct += drift_pct(p);  /* a sum until cmp_analyse */
		c->ndrift++;
	}
	return rc;
}

int cmp_add_file(struct cmp_result *r, unsigned s, struct cmp_file *f,
		 char *err, size_t errlen)
{
	unsigned nmeasured = 0, inv = 0;
	bool disagree = false;
	int rc = cmp_inv_id(&r->sides[s], f, &inv);

	if (!rc && !f->res.complete)
		rc = cmp_note(r, "%s is incomplete (%s): its completed points are used",
			      f->path, f->res.interrupted ? f->res.interrupted : "interrupted");
	if (!rc)
		rc = res_disturb_mark_unmarked(&f->res);
	for (unsigned i = 0; !rc && i < f->res.npoints; i++) {
		struct res_point *p = &f->res.points[i];
		const char *layout = cmp_point_layout(p);
		struct cmp_cell *c = cell_of(r, s, p, layout);

		if (!c)
			return -ENOMEM;
		c->runs++;
		if (!measured(p, &disagree)) {
			c->fail_reason = p->reason ? p->reason :
					 p->status != RES_OK && p->status != RES_NONE ?
					 res_status_names[p->status] :
					 "no measured interval";
			continue;
		}
		nmeasured++;
		if (!r->o.keep_disturbed && (rc = left_out(r, f, p, c)) != 0) {
			rc = rc > 0 ? 0 : rc;
			continue;
		}
		rc = take_run(r, c, p, layout, inv);
	}
	if (!rc && disagree)
		rc = cmp_note(r, "%s: a summary disagrees with its samples; the samples are used",
			      f->path);
	if (!rc && !nmeasured && !r->o.keep_unmeasured) {
		snprintf(err, errlen,
			 "%s: no measured points (%u points, none ok with a measured interval)",
			 f->path, f->res.npoints);
		return -ENODATA;
	}
	return rc;
}
