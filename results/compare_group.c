/*
 * compare_group.c - the runs of `cgscale compare` grouped by point (test,
 * mode, tasks, cgroup layout, workload options), one value per ok run and
 * metric in each side's cell; failed, unmeasured and disturbed runs are
 * counted and noted, not used.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare.h"
#include "disturb.h"
#include "robust.h"

/* Workload options as "k=v,k=v", keys sorted, so that key order in the
 * file never splits a group. */
static char *canon_wopts(struct json_object *o)
{
	const char *keys[64];
	char *out = strdup("");
	unsigned n = 0;

	if (!out || !json_object_is_type(o, json_type_object))
		return out;
	json_object_object_foreach(o, k, v) {
		(void)v;
		if (n < 64)
			keys[n++] = k;
	}
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			if (strcmp(keys[j], keys[i]) < 0) {
				const char *t = keys[i];

				keys[i] = keys[j];
				keys[j] = t;
			}
	for (unsigned i = 0; out && i < n; i++) {
		struct json_object *v = json_object_object_get(o, keys[i]);
		const char *s = json_object_is_type(v, json_type_string) ?
			json_object_get_string(v) :
			json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
		char *next;

		if (asprintf(&next, "%s%s%s=%s", out, i ? "," : "", keys[i], s) < 0)
			next = NULL;
		free(out);
		out = next;
	}
	return out;
}

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
	g->delta = calloc((size_t)r->nsides * cmp_nmetrics, sizeof(*g->delta));
	r->ngroups++;
	if (!g->test || !g->mode || (layout && !g->layout) || !g->wopts ||
	    !g->cell || !g->delta)
		return NULL;
	return g;
}

static int push(double **v, size_t *n, double x)
{
	double *nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	nv[(*n)++] = x;
	*v = nv;
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

/* Mark the disturbed runs of a file the runner did not mark (an older
 * runner, or another tool): the same rules. */
static int mark_unmarked(struct res_file *f)
{
	char why[8];

	for (unsigned i = 0; i < f->npoints; i++)
		if (res_disturbed(&f->points[i], why, sizeof(why)) >= 0)
			return 0;
	return res_disturb_mark(f);
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

static int add_file(struct cmp_result *r, unsigned s, struct cmp_file *f,
		    char *err, size_t errlen)
{
	bool cg_axis = !strcmp(r->o.axis, "cgroup"), disagree = false;
	unsigned nmeasured = 0;
	int rc = 0;

	if (!f->res.complete)
		rc = cmp_note(r, "%s is incomplete (%s): its completed points are used",
			      f->path, f->res.interrupted ? f->res.interrupted : "interrupted");
	if (!rc)
		rc = mark_unmarked(&f->res);
	for (unsigned i = 0; !rc && i < f->res.npoints; i++) {
		struct res_point *p = &f->res.points[i];
		const char *layout = cmp_point_layout(p);
		char *wopts = canon_wopts(p->wopts);
		struct cmp_group *g;
		struct cmp_cell *c;
		bool ok;

		if (!wopts)
			return -ENOMEM;
		g = group_find(r, p, layout, wopts);
		if (!g)
			g = group_add(r, p, cg_axis ? NULL : layout, wopts);
		free(wopts);
		if (!g)
			return -ENOMEM;
		c = &g->cell[s];
		c->runs++;
		ok = measured(p, &disagree);
		if (!ok) {
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
		c->ok++;
		c->layout = layout;
		for (size_t m = 0; !rc && m < cmp_nmetrics; m++) {
			double v = cmp_metric_value(&cmp_metrics[m], p);

			if (isfinite(v))
				rc = push(&c->v[m], &c->n[m], v);
		}
		if (!rc && isfinite(drift_pct(p))) {
			c->drift_pct += drift_pct(p);  /* a sum until cmp_analyse */
			c->ndrift++;
		}
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

int cmp_group_runs(struct cmp_result *r, char *err, size_t errlen)
{
	int rc = 0;

	for (unsigned s = 0; !rc && s < r->nsides; s++)
		for (unsigned f = 0; !rc && f < r->sides[s].nfiles; f++)
			rc = add_file(r, s, &r->sides[s].files[f], err, errlen);
	for (unsigned i = 0; !rc && i < r->ngroups; i++)
		for (unsigned s = 0; s < r->nsides; s++) {
			struct cmp_cell *c = &r->groups[i].cell[s];

			c->drift_pct = c->ndrift ? c->drift_pct / c->ndrift : NAN;
		}
	return rc;
}
