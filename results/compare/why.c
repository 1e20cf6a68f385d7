/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why.c - the figures of "where the time went" (why.h) from an analysed
 * comparison: the means of its metrics by name, and the profile's rows.
 * The headline is the account's wall ns per op (else 1e9 / per-task
 * ops/s); the parts are the account's; a function's ns per op is its
 * self share of the samples x the CPU time per op; the counters are
 * the metrics per op (unit "/op") that changed by T or more, ranked by
 * how many times they grew, the lock times the other "ns/op" metrics,
 * ranked as the functions by |change|.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare/profile.h"
#include "results/compare/why.h"

static const char *const part_metric[CMP_WHY_NPART] = {
	"user_ns_per_op", "sys_ns_per_op", "runq_ns_per_op", "blocked_ns_per_op",
};
static const char *const part_name[CMP_WHY_NPART] = {
	"user", "sys", "run-queue", "blocked",
};

static double mean_of(const struct cmp_result *r, const struct cmp_group *g,
		      unsigned s, const char *name)
{
	int m = cmp_mset_find(&r->ms, name);

	return m >= 0 && g->cell[s].n[m] ? g->cell[s].d[m].mean : NAN;
}

/* How many times a count grew or shrank, as |log|; one that appeared
 * or vanished: infinite. */
static double ratio_key(const struct cmp_why_row *w)
{
	return w->a > 0 && w->b > 0 ? fabs(log(w->b / w->a)) : INFINITY;
}

static int cmp_d(const struct cmp_why_row *a, const struct cmp_why_row *b)
{
	double da = fabs(a->d), db = fabs(b->d);

	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

static int by_d(const void *x, const void *y)
{
	return cmp_d(x, y);
}

static int by_ratio(const void *x, const void *y)
{
	double kx = ratio_key(x), ky = ratio_key(y);

	if (kx != ky)
		return kx < ky ? 1 : -1;
	return cmp_d(x, y);
}

size_t cmp_why_rank(struct cmp_why_row *rows, size_t n, size_t max, double min,
		    bool ratio)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(rows[i].d) && fabs(rows[i].d) >= min)
			rows[k++] = rows[i];
	qsort(rows, k, sizeof(*rows), ratio ? by_ratio : by_d);
	return k < max ? k : max;
}

/* One row of metric @m of @g, side @s against the baseline. */
static struct cmp_why_row metric_row(const struct cmp_result *r, const struct cmp_group *g,
				     unsigned s, size_t m, const char *name)
{
	struct cmp_why_row w = { .name = name ? name : r->ms.m[m].name,
		.unit = r->ms.m[m].unit, .d_children = NAN };

	w.a = g->cell[0].n[m] ? g->cell[0].d[m].mean : NAN;
	w.b = g->cell[s].n[m] ? g->cell[s].d[m].mean : NAN;
	w.d = w.b - w.a;
	w.delta = cmp_delta_of(r, g, s, m);
	return w;
}

static bool is_part(const char *name)
{
	for (size_t i = 0; i < cmp_npart_rules; i++)
		if (!strcmp(cmp_part_rules[i].metric, name) || !strcmp(cmp_part_rules[i].of, name))
			return true;
	return false;
}

/* A metric of the whole machine (its neighbours count too). */
static bool system_wide(const char *name)
{
	return !strncmp(name, "proc-vmstat.", 12);
}

/* The metrics of unit @unit that changed by T or more (or from 0) and by
 * @min at least, of the machine (@sys) or not, ranked into @out. */
static unsigned changed(const struct cmp_result *r, const struct cmp_group *g, unsigned s,
			const char *unit, bool sys, double min, struct cmp_why_row *out)
{
	struct cmp_why_row *all = calloc(r->ms.n + 1, sizeof(*all));
	size_t n = 0, k;

	if (!all)
		return 0;
	for (size_t m = 0; m < r->ms.n; m++) {
		const struct cmp_delta *d = cmp_delta_of(r, g, s, m);

		if (strcmp(r->ms.m[m].unit, unit) || !d->valid || r->o.metric_off[m] ||
		    is_part(r->ms.m[m].name) || system_wide(r->ms.m[m].name) != sys ||
		    !(d->from_zero || fabs(d->pct) >= d->threshold))
			continue;
		all[n++] = metric_row(r, g, s, m, NULL);
	}
	k = cmp_why_rank(all, n, CMP_WHY_MAX, min, !strcmp(unit, "/op"));
	memcpy(out, all, k * sizeof(*all));
	free(all);
	return (unsigned)k;
}

/* CPU ns per op of side @s: the account's user + sys, else cputime's. */
static double cpu_ns(const struct cmp_result *r, const struct cmp_group *g, unsigned s)
{
	double v = mean_of(r, g, s, "user_ns_per_op") + mean_of(r, g, s, "sys_ns_per_op");

	if (isfinite(v))
		return v;
	return 1e3 * (mean_of(r, g, s, "user_us_per_op") + mean_of(r, g, s, "sys_us_per_op"));
}

/* The children row of @sym in @g and @side, or NULL. */
static const struct cmp_prof_row *children_of(const struct cmp_profile *p, unsigned group,
					      unsigned side, const char *sym)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->rows[i].group == group && p->rows[i].side == side &&
		    p->rows[i].kind == CMP_PROF_CHILDREN && !strcmp(p->rows[i].sym, sym))
			return &p->rows[i];
	return NULL;
}

/* The functions by their change in ns/op (the HOOK of why.h). */
static void functions(const struct cmp_result *r, const struct cmp_group *g,
		      struct cmp_why *w)
{
	const struct cmp_profile *p = r->prof;
	double ca = cpu_ns(r, g, 0), cb = cpu_ns(r, g, w->side);
	struct cmp_why_row *all;
	size_t n = 0, k;

	if (!p || !p->n || !isfinite(ca) || !isfinite(cb) ||
	    !(all = calloc(p->n + 1, sizeof(*all))))
		return;
	for (size_t i = 0; i < p->n; i++) {
		const struct cmp_prof_row *x = &p->rows[i], *c;
		struct cmp_why_row *f = &all[n];

		if (x->group != w->group || x->side != w->side || x->kind != CMP_PROF_SELF)
			continue;
		f->name = x->sym;
		f->unit = "ns/op";
		f->a = x->mean_a / 100 * ca;
		f->b = x->mean_b / 100 * cb;
		f->d = f->b - f->a;
		c = children_of(p, w->group, w->side, x->sym);
		f->d_children = c ? c->mean_b / 100 * cb - c->mean_a / 100 * ca : NAN;
		n++;
	}
	k = cmp_why_rank(all, n, CMP_WHY_MAX, 0.05, false);
	memcpy(w->fn, all, k * sizeof(*all));
	w->nfn = (unsigned)k;
	for (unsigned i = 0; i < w->nfn; i++)
		w->fn_d += w->fn[i].d;
	w->fn_how = "self share of the task samples x CPU time (user + sys) per op";
	free(all);
}

/* The runs' mean of 1e9 / ops/s: ns per op, as the account means it. */
static double inverse_mean(const struct cmp_cell *c, size_t m)
{
	double sum = 0;

	for (size_t i = 0; i < c->n[m]; i++)
		sum += 1e9 / c->v[m][i];
	return c->n[m] ? sum / c->n[m] : NAN;
}

static void headline(const struct cmp_result *r, const struct cmp_group *g,
		     struct cmp_why *w)
{
	unsigned s = w->side;

	for (size_t m = 0; m < r->ms.n; m++)
		if (r->ms.m[m].cls == CMP_PRIMARY) {
			w->head = cmp_delta_of(r, g, s, m);
			w->head_name = r->ms.m[m].name;
			w->wall_a = inverse_mean(&g->cell[0], m);
			w->wall_b = inverse_mean(&g->cell[s], m);
			w->ops_wall_d = w->wall_b - w->wall_a;
			break;
		}
	if (isfinite(mean_of(r, g, 0, "wall_ns_per_op")) &&
	    isfinite(mean_of(r, g, s, "wall_ns_per_op"))) {
		w->wall_a = mean_of(r, g, 0, "wall_ns_per_op");
		w->wall_b = mean_of(r, g, s, "wall_ns_per_op");
		w->wall_from_account = true;
	}
	w->wall_d = w->wall_b - w->wall_a;
}

void cmp_why_point(const struct cmp_result *r, unsigned group, unsigned side,
		   struct cmp_why *w)
{
	const struct cmp_group *g = &r->groups[group];

	memset(w, 0, sizeof(*w));
	w->group = group;
	w->side = side;
	w->wall_a = w->wall_b = w->ops_wall_d = NAN;
	headline(r, g, w);
	w->have_parts = w->wall_from_account;
	for (int k = 0; k < CMP_WHY_NPART; k++) {
		int m = cmp_mset_find(&r->ms, part_metric[k]);

		if (m < 0 || !g->cell[0].n[m] || !g->cell[side].n[m]) {
			w->have_parts = false;
			continue;
		}
		w->part[k] = metric_row(r, g, side, (size_t)m, part_name[k]);
		w->parts_d += w->part[k].d;
	}
	functions(r, g, w);
	w->nctr = changed(r, g, side, "/op", false, CMP_WHY_MIN_PER_OP, w->ctr);
	w->nsys_ctr = changed(r, g, side, "/op", true, CMP_WHY_MIN_PER_OP, w->sys_ctr);
	w->nlock = changed(r, g, side, "ns/op", false, 0.1, w->lock);
}
