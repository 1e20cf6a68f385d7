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

#include "lib/irqsite.h"
#include "lib/json.h"
#include "results/compare/profile.h"
#include "results/compare/why.h"
#include "results/model/disturb.h"

#define WHY_APART 3.0    /* errors between the two splits that say the samples lean */

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
		if (isfinite(rows[i].d) && (rows[i].appears || fabs(rows[i].d) >= min))
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

/* Which list of the block a metric goes to: the point's own (counters
 * per op, lock time), the machine's (proc-vmstat.*: its neighbours count
 * too), who ran outside the tasks (who.*), the stat reader's functions. */
enum why_list { WHY_OWN, WHY_SYSTEM, WHY_WHO, WHY_READER };

static enum why_list list_of(const char *name)
{
	if (!strncmp(name, "proc-vmstat.", 12))
		return WHY_SYSTEM;
	if (!strncmp(name, "who.", 4))
		return WHY_WHO;
	return strncmp(name, "stat_reader.fn.", 15) ? WHY_OWN : WHY_READER;
}

/* The metrics of unit @unit and list @list that changed by T or more (or
 * from 0) and by @min at least, ranked into @out. */
static unsigned changed(const struct cmp_result *r, const struct cmp_group *g, unsigned s,
			const char *unit, enum why_list list, double min,
			struct cmp_why_row *out)
{
	struct cmp_why_row *all = calloc(r->ms.n + 1, sizeof(*all));
	size_t n = 0, k;

	if (!all)
		return 0;
	for (size_t m = 0; m < r->ms.n; m++) {
		const struct cmp_delta *d = cmp_delta_of(r, g, s, m);

		if (strcmp(r->ms.m[m].unit, unit) || !d->valid || r->o.metric_off[m] ||
		    is_part(r->ms.m[m].name) || list_of(r->ms.m[m].name) != list ||
		    !(d->from_zero || fabs(d->pct) >= d->threshold))
			continue;
		all[n] = metric_row(r, g, s, m, NULL);
		all[n++].appears = d->from_zero || d->to_zero;
	}
	k = cmp_why_rank(all, n, CMP_WHY_MAX, min, !strcmp(unit, "/op"));
	memcpy(out, all, k * sizeof(*all));
	free(all);
	return (unsigned)k;
}

/* Does row @x's change of self ns/op hold across the runs: the profile
 * section's own test, significant after Benjamini-Hochberg over the
 * point's functions (q < alpha), its CI excluding 0? A CI that excludes 0
 * alone is not enough: of 40 functions that did not change, 2 such CIs
 * are expected at alpha 0.05. (One run a side has no test: none holds.) */
static bool holds(const struct cmp_pns_row *x, double alpha)
{
	const struct cmp_delta *d = &x->dself;

	return isfinite(d->q) && d->q < alpha && isfinite(d->lo) && isfinite(d->hi) &&
	       (d->lo > 0 || d->hi < 0);
}

/* Row @x into the top list of @w by |change|, the smallest out to
 * fn_more_d when it is full. */
static void fn_insert(struct cmp_why *w, const struct cmp_pns_row *x)
{
	struct cmp_why_row e = { .name = x->sym, .unit = "ns/op", .a = x->a.self,
				 .b = x->b.self, .d = x->dself.pct,
				 .d_children = x->dchildren.pct, .verdict = x->vself };
	unsigned k = w->nfn;

	if (k == CMP_WHY_MAX) {
		if (fabs(e.d) <= fabs(w->fn[k - 1].d)) {
			w->fn_more_d += e.d;
			return;
		}
		w->fn_more_d += w->fn[--k].d;
		w->fn_d -= w->fn[k].d;
		w->nfn--;
	}
	while (k > 0 && fabs(w->fn[k - 1].d) < fabs(e.d)) {
		w->fn[k] = w->fn[k - 1];
		k--;
	}
	w->fn[k] = e;
	w->nfn++;
	w->fn_d += e.d;
}

/* The functions whose change holds across the runs, by size; the rest
 * summed as within noise, and apart, in a skewed profile, the time at
 * interrupt-enable sites: never ranked as a cause. */
static void functions(const struct cmp_result *r, const struct cmp_group *g,
		      struct cmp_why *w)
{
	const struct cmp_pns_point *pt = r->prof ?
		cmp_profile_point_ns(r->prof, w->group, w->side) : NULL;

	(void)g;
	if (!pt)
		return;
	for (size_t i = 0; i < pt->nfunc; i++) {
		const struct cmp_pns_row *x = &pt->rows[i];

		if (!isfinite(x->dself.pct))
			continue;
		if (pt->skew[0] && cgs_irq_enable_site(x->sym))
			w->fn_skew_d += x->dself.pct;
		else if (!holds(x, r->o.alpha)) {
			w->fn_noise_d += x->dself.pct;
			w->nfn_noise++;
		} else
			fn_insert(w, x);
	}
	w->fn_event = cmp_profile_event(r);
	w->fn_how = "self time: share of the task samples x CPU time (user + sys) per op; "
		    "those whose change holds across the runs (the profile section's test, BH q < alpha over the functions), by size";
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

/* The error of side @s's mean user ns/op from the kernel's split (its
 * runs' account.split.user_se_ns_per_op: sqrt(sum of squares) / n), and
 * how it split, into @w; NAN when no run that compare uses says. */
static double split_se(const struct cmp_result *r, const struct cmp_group *g,
		       unsigned s, struct cmp_why *w)
{
	const struct cmp_side *sd = &r->sides[s];
	double sq = 0;
	size_t n = 0;

	for (unsigned f = 0; f < sd->nfiles; f++)
		for (unsigned i = 0; i < sd->files[f].res.npoints; i++) {
			const struct res_point *p = &sd->files[f].res.points[i];
			struct json_object *sp = cgs_jpath(p->extra, "account.split");
			double se;

			if (!sp || !cmp_run_used(r, p, g))
				continue;
			if (cgs_jpath_str(sp, "by") && !w->split_by) {
				w->split_by = cgs_jpath_str(sp, "by");
				w->split_config = cgs_jpath_str(sp, "config");
			}
			se = cgs_jpath_num(sp, "user_se_ns_per_op");
			if (!isfinite(se))
				return NAN;    /* a run without the figure */
			sq += se * se;
			n++;
		}
	return n ? sqrt(sq) / (double)n : NAN;
}

/* Side @s's mean user ns/op by the profile's samples (the user-mode share
 * of each run's samples x its user + sys ns/op) into @mean, and its error:
 * the sampling error (a share p of n samples is p +- sqrt(p (1 - p) / n))
 * or the runs' own spread, the larger; false unless every run that
 * compare uses has both. */
static bool profile_user(const struct cmp_result *r, const struct cmp_group *g,
			 unsigned s, double *mean, double *se)
{
	const struct cmp_side *sd = &r->sides[s];
	double sum = 0, sq = 0, var = 0;
	size_t n = 0;

	for (unsigned f = 0; f < sd->nfiles; f++)
		for (unsigned i = 0; i < sd->files[f].res.npoints; i++) {
			const struct res_point *p = &sd->files[f].res.points[i];
			double u = cgs_jpath_num(p->extra, "profile.samples.user");
			double k = cgs_jpath_num(p->extra, "profile.samples.kernel");
			double cpu = cgs_jpath_num(p->extra, "account.user_ns_per_op") +
				     cgs_jpath_num(p->extra, "account.sys_ns_per_op");

			if (!cmp_run_used(r, p, g))
				continue;
			if (!(u + k > 0) || !isfinite(cpu))
				return false;
			sum += cpu * u / (u + k);
			sq += (cpu * u / (u + k)) * (cpu * u / (u + k));
			var += cpu * cpu * (u / (u + k)) * (k / (u + k)) / (u + k);
			n++;
		}
	*mean = n ? sum / (double)n : NAN;
	*se = n ? sqrt(var) / (double)n : NAN;
	if (n > 1)   /* the spread of the runs, as the SE of their mean */
		*se = fmax(*se, sqrt(fmax(0, (sq - sum * sum / (double)n) / (double)(n - 1)) /
				     (double)n));
	return n > 0;
}

/* The profile's split of the change into @w, preferred where it is finer
 * than the kernel's (or the kernel's error is unknown). */
static void profile_split(const struct cmp_result *r, const struct cmp_group *g,
			  struct cmp_why *w)
{
	double a, b, sa, sb;

	if (!profile_user(r, g, 0, &a, &sa) || !profile_user(r, g, w->side, &b, &sb))
		return;
	w->prof_user_d = b - a;
	w->prof_user_se = hypot(sa, sb);
	w->have_prof_split = true;
	/* two measures of one change: the kernel's split and the samples'.
	 * More than WHY_APART errors apart, the samples are not spread as
	 * the CPU time is on this box (seen on a PVM guest at 1999 Hz, and
	 * in perf's own samples there at that rate), and the functions'
	 * ns/op lean with them: said, and never preferred */
	w->prof_apart = NAN;
	if (w->have_parts && isfinite(w->user_se) && isfinite(w->part[0].d))
		w->prof_apart = fabs(w->prof_user_d - w->part[0].d) /
				hypot(w->prof_user_se, w->user_se);
	w->prof_biased = isfinite(w->prof_apart) && w->prof_apart > WHY_APART;
	w->prof_preferred = !w->prof_biased &&
			    (!w->split_by || strcmp(w->split_by, "exact")) &&
			    (!isfinite(w->user_se) || w->prof_user_se < w->user_se);
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
	w->user_se = hypot(split_se(r, g, 0, w), split_se(r, g, side, w));
	profile_split(r, g, w);
	functions(r, g, w);
	w->nctr = changed(r, g, side, "/op", WHY_OWN, CMP_WHY_MIN_PER_OP, w->ctr);
	w->nsys_ctr = changed(r, g, side, "/op", WHY_SYSTEM, CMP_WHY_MIN_PER_OP, w->sys_ctr);
	w->nlock = changed(r, g, side, "ns/op", WHY_OWN, 0.1, w->lock);
	w->nwho = changed(r, g, side, "ns/op", WHY_WHO, 0.1, w->who);
	w->nreader = changed(r, g, side, "ns/op", WHY_READER, 0.1, w->reader);
}
