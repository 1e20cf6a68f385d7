/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_ns_fmt.c - the profiles in time per op written out
 * (profile.h): per point and new side, the CPU and wall time per op of
 * each side, then one row per function ranked by |change in ns/op| (self
 * and children, each with its change, sampling error and verdict, and the
 * shares that would have misled), then what the listed rows explain of
 * the CPU time's change; call paths after them with --profile-calltraces.
 * Text, and the JSON of compare --format json's "profile_ns". And the
 * top rows of a point with what they explain (cmp_profile_top_ns), which
 * this text, the JSON and the report's flame-graph table print.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "results/compare/profile.h"

/* The sampling variance of share @p of @n samples times @cpu (+- @se). */
static double sum_var(double cpu, double se, double p, double n)
{
	return n > 0 ? cpu * cpu * p * (1 - p) / n + p * p * se * se : 0;
}

int cmp_profile_top_ns(const struct cmp_profile *p, unsigned group,
		       unsigned side, size_t max, struct cmp_pns_top *t)
{
	const struct cmp_pns_point *pt = cmp_profile_point_ns(p, group, side);
	double pa = 0, pb = 0;

	memset(t, 0, sizeof(*t));
	if (!pt)
		return -ENOENT;
	t->pt = pt;
	for (size_t i = 0; i < pt->nfunc && t->n < max && t->n < CMP_PNS_TOP_MAX; i++) {
		const struct cmp_pns_row *w = &pt->rows[i];

		t->row[t->n++] = w;
		t->explained_ns += w->dself.pct;
		pa += w->a.self_pct / 100;
		pb += w->b.self_pct / 100;
	}
	/* the binomial error of the rows' summed share, as of one row */
	t->explained_se = sqrt(sum_var(pt->cpu_a, pt->cpu_se_a, fmin(pa, 1), pt->samples_a) +
			       sum_var(pt->cpu_b, pt->cpu_se_b, fmin(pb, 1), pt->samples_b));
	t->cpu_change_ns = pt->cpu_b - pt->cpu_a;
	t->wall_change_ns = pt->wall_b - pt->wall_a;
	return 0;
}


void cmp_pns_explain(const struct cmp_result *r, const struct cmp_pns_top *t,
		     const char *lead, FILE *out)
{
	const struct cmp_pns_point *pt = t->pt;
	double c = t->cpu_change_ns;

	(void)r;
	fprintf(out, "%sthese %zu function%s' self time: %+.1f +-%.1f of the %+.1f ns/op change of CPU time (user + sys)",
		lead, t->n, t->n == 1 ? "" : "s", t->explained_ns, t->explained_se, c);
	if (fabs(c) > 0 && fabs(c) >= 2 * (pt->cpu_se_a + pt->cpu_se_b))
		fprintf(out, ", %.0f%%", 100 * t->explained_ns / c);
	if (isfinite(t->wall_change_ns))
		fprintf(out, "; the wall time per op changed %+.1f ns/op, and the profile sees only its CPU part",
			t->wall_change_ns);
	fprintf(out, "\n");
}

static void point_head(const struct cmp_result *r, const struct cmp_pns_point *pt,
		       FILE *out)
{
	char name[512];

	cmp_group_name(&r->groups[pt->group], name, sizeof(name));
	fprintf(out, "\n%s, %s against %s (%zu and %zu runs, %.0f and %.0f samples):\n", name,
		r->sides[pt->side].label, r->sides[0].label, pt->na, pt->nb,
		pt->samples_a, pt->samples_b);
	fprintf(out, "  CPU time %.1f -> %.1f ns/op (%+.1f; user %+.1f, sys %+.1f), from %s",
		pt->cpu_a, pt->cpu_b, pt->cpu_b - pt->cpu_a, pt->user_b - pt->user_a,
		pt->sys_b - pt->sys_a, pt->cpu_src);
	if (isfinite(pt->wall_a) && isfinite(pt->wall_b))
		fprintf(out, "; wall %.1f -> %.1f ns/op (%+.1f)", pt->wall_a, pt->wall_b,
			pt->wall_b - pt->wall_a);
	fprintf(out, "; T %g ns/op\n", pt->threshold_ns);
	if (pt->skew[0])
		fprintf(out, "  %s\n", pt->skew);
	if (pt->nocpu_a || pt->nocpu_b)
		fprintf(out, "  (%zu and %zu profiled runs left out: no CPU time per op; run without --no-cputime)\n",
			pt->nocpu_a, pt->nocpu_b);
}

static void row_line(const struct cmp_pns_row *w, FILE *out)
{
	if (w->path)
		fprintf(out, "  %8s %8s %8s %6s  %-12s", "", "", "", "", "");
	else
		fprintf(out, "  %8.1f %8.1f %+8.1f %6.1f  %-12s", w->a.self, w->b.self,
			w->dself.pct, hypot(w->a.self_se, w->b.self_se), w->vself);
	fprintf(out, " %8.1f %8.1f %+8.1f  %-12s %5.1f -> %-5.1f %s\n", w->a.children,
		w->b.children, w->dchildren.pct, w->vchildren,
		w->path ? w->a.children_pct : w->a.self_pct,
		w->path ? w->b.children_pct : w->b.self_pct, w->sym);
}

/* With few runs Mann-Whitney's p cannot go low enough for Benjamini-
 * Hochberg over many functions: say so rather than leave the reader to
 * wonder why nothing is decided. The smallest two-sided p of na and nb
 * runs is 2 / C(na + nb, na). */
static void power_note(const struct cmp_result *r, const struct cmp_pns_point *pt,
		       FILE *out)
{
	double c = 1, minp;

	if (r->o.welch || pt->na < 2 || pt->nb < 2 || !pt->nfunc)
		return;
	for (size_t i = 1; i <= pt->na; i++)
		c = c * (double)(pt->nb + i) / (double)i;
	minp = 2 / c;
	if (minp * (double)pt->nfunc / 3 >= r->o.alpha)
		fprintf(out, "  (with %zu and %zu runs Mann-Whitney's p is at least %.2g, which Benjamini-Hochberg over %zu functions lifts above %g unless many of them changed: for verdicts give more runs a side, or --welch)\n",
			pt->na, pt->nb, minp, pt->nfunc, r->o.alpha);
}

static void print_point(const struct cmp_result *r, const struct cmp_profile *p,
			const struct cmp_pns_point *pt, FILE *out)
{
	struct cmp_pns_top t;
	size_t shown = 0;

	point_head(r, pt, out);
	fprintf(out, "  %8s %8s %8s %6s  %-12s %8s %8s %8s  %-12s %-14s %s\n",
		"self A", "B", "change", "+-SE", "verdict", "child. A", "B", "change",
		"verdict", "self % A -> B", "function");
	for (size_t i = 0; i < pt->nfunc && shown < p->o.rows; i++, shown++)
		row_line(&pt->rows[i], out);
	if (pt->nfunc > shown)
		fprintf(out, "  ... %zu more functions at or above the floor (--profile-rows, --format json lists all)\n",
			pt->nfunc - shown);
	if (!cmp_profile_top_ns(p, pt->group, pt->side, p->o.rows, &t) && t.n)
		cmp_pns_explain(r, &t, "  ", out);
	power_note(r, pt, out);
	if (pt->n > pt->nfunc)
		fprintf(out, "  call paths (%d frames, leaf first, as LKP; their time is inclusive):\n",
			CMP_PROF_TRACE_DEPTH);
	for (size_t i = pt->nfunc; i < pt->n && i < pt->nfunc + p->o.rows; i++)
		row_line(&pt->rows[i], out);
}

void cmp_profile_ns_print(const struct cmp_result *r, const struct cmp_profile *p,
			  FILE *out)
{
	if (!p || !p->npts)
		return;
	fprintf(out, "\nProfile in time per op: a function's share of the tasks' samples x their CPU time per op; "
		"ranked by |change| of %s ns/op; self: in the function itself (the self times add up to the CPU time), "
		"children: with what it calls. +-SE: the sampling error (binomial). "
		"GREW/SHRANK: the CI of the change in ns/op beyond +-T (%g%% of the base's CPU time per op) and q < %g; "
		"the verdict is on ns/op, never on the share (self %%, shown A -> B)\n",
		cmp_pns_rank_names[p->o.rank], p->o.threshold, r->o.alpha);
	for (size_t i = 0; i < p->npts; i++)
		print_point(r, p, &p->pts[i], out);
}

static struct json_object *val_json(const struct cmp_pns_val *v, bool path)
{
	struct json_object *o = json_object_new_object();

	if (!path) {
		cgs_jadd(o, "self_ns_per_op", cgs_jnum(v->self));
		cgs_jadd(o, "self_se", cgs_jnum(v->self_se));
		cgs_jadd(o, "self_pct", cgs_jnum(v->self_pct));
	}
	cgs_jadd(o, "children_ns_per_op", cgs_jnum(v->children));
	cgs_jadd(o, "children_se", cgs_jnum(v->children_se));
	cgs_jadd(o, "children_pct", cgs_jnum(v->children_pct));
	return o;
}

static struct json_object *delta_json(const struct cmp_delta *d, const char *verdict,
				      double se)
{
	struct json_object *o = json_object_new_object(), *ci = json_object_new_array();

	cgs_jadd(o, "change_ns_per_op", cgs_jnum(d->pct));
	cgs_jadd(o, "sampling_se", cgs_jnum(se));
	json_object_array_add(ci, cgs_jnum(d->lo));
	json_object_array_add(ci, cgs_jnum(d->hi));
	cgs_jadd(o, "ci", ci);
	cgs_jadd(o, "p", cgs_jnum(d->p));
	cgs_jadd(o, "q", cgs_jnum(d->q));
	cgs_jadd(o, "verdict", json_object_new_string(verdict));
	cgs_jadd(o, "why", json_object_new_string(d->why));
	return o;
}

static struct json_object *row_json(const struct cmp_pns_row *w)
{
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, w->path ? "path" : "function", json_object_new_string(w->sym));
	if (!w->path)
		cgs_jadd(o, "kernel", json_object_new_boolean(w->kernel));
	cgs_jadd(o, "base", val_json(&w->a, w->path));
	cgs_jadd(o, "new", val_json(&w->b, w->path));
	if (!w->path)
		cgs_jadd(o, "self", delta_json(&w->dself, w->vself,
					       hypot(w->a.self_se, w->b.self_se)));
	cgs_jadd(o, "children", delta_json(&w->dchildren, w->vchildren,
					   hypot(w->a.children_se, w->b.children_se)));
	return o;
}

static struct json_object *side_json(double cpu, double se, double user, double sys,
				     double wall, double samples, size_t runs)
{
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "runs", json_object_new_int((int)runs));
	cgs_jadd(o, "samples", cgs_jnum(samples));
	cgs_jadd(o, "cpu_ns_per_op", cgs_jnum(cpu));
	cgs_jadd(o, "cpu_se", cgs_jnum(se));
	cgs_jadd(o, "user_ns_per_op", cgs_jnum(user));
	cgs_jadd(o, "sys_ns_per_op", cgs_jnum(sys));
	cgs_jadd(o, "wall_ns_per_op", cgs_jnum(wall));
	return o;
}

static struct json_object *point_json(const struct cmp_result *r, const struct cmp_profile *p,
				      const struct cmp_pns_point *pt)
{
	struct json_object *o = json_object_new_object(), *fn = json_object_new_array();
	struct json_object *paths = json_object_new_array(), *ex = json_object_new_object();
	struct cmp_pns_top t;
	char name[512];

	cmp_group_name(&r->groups[pt->group], name, sizeof(name));
	cgs_jadd(o, "point", json_object_new_string(name));
	cgs_jadd(o, "side", json_object_new_string(r->sides[pt->side].label));
	cgs_jadd(o, "cpu_source", json_object_new_string(pt->cpu_src));
	cgs_jadd(o, "threshold_ns_per_op", cgs_jnum(pt->threshold_ns));
	cgs_jadd(o, "skew_warning", pt->skew[0] ? json_object_new_string(pt->skew) : NULL);
	cgs_jadd(o, "base", side_json(pt->cpu_a, pt->cpu_se_a, pt->user_a, pt->sys_a,
				      pt->wall_a, pt->samples_a, pt->na));
	cgs_jadd(o, "new", side_json(pt->cpu_b, pt->cpu_se_b, pt->user_b, pt->sys_b,
				     pt->wall_b, pt->samples_b, pt->nb));
	for (size_t i = 0; i < pt->n; i++)
		json_object_array_add(i < pt->nfunc ? fn : paths, row_json(&pt->rows[i]));
	cgs_jadd(o, "functions", fn);
	if (p->o.calltraces)
		cgs_jadd(o, "paths", paths);
	else
		json_object_put(paths);
	cmp_profile_top_ns(p, pt->group, pt->side, p->o.rows, &t);
	cgs_jadd(ex, "functions", json_object_new_int((int)t.n));
	cgs_jadd(ex, "self_change_ns_per_op", cgs_jnum(t.explained_ns));
	cgs_jadd(ex, "sampling_se", cgs_jnum(t.explained_se));
	cgs_jadd(ex, "of_cpu_change_ns_per_op", cgs_jnum(t.cpu_change_ns));
	cgs_jadd(ex, "wall_change_ns_per_op", cgs_jnum(t.wall_change_ns));
	cgs_jadd(o, "explained", ex);
	return o;
}

struct json_object *cmp_profile_ns_json(const struct cmp_result *r,
					const struct cmp_profile *p)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();

	cgs_jadd(o, "unit", json_object_new_string("ns/op: share of the tasks' samples x their CPU time per op"));
	cgs_jadd(o, "rank", json_object_new_string(cmp_pns_rank_names[p->o.rank]));
	cgs_jadd(o, "floor_pct", cgs_jnum(p->o.floor));
	cgs_jadd(o, "threshold_pct_of_cpu", cgs_jnum(p->o.threshold));
	cgs_jadd(o, "rows", json_object_new_int((int)p->o.rows));
	for (size_t i = 0; i < p->npts; i++)
		json_object_array_add(a, point_json(r, p, &p->pts[i]));
	cgs_jadd(o, "points", a);
	return o;
}
