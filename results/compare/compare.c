/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - the analysis of `cgscale compare`: with the runs grouped
 * by point, one value per run and metric (results/compare/group.c), the
 * statistics of each side, and per non-baseline side the % change, the
 * declared test and its interval on the units of replication (inv.c),
 * Benjamini-Hochberg across the secondary metrics of a point, and the
 * verdict (judge.c). Knobs: struct cmp_opts
 * (compare.h), cmp_base_metrics[].
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/model.h"
#include "results/stats/robust.h"
#include "results/model/disturb.h"

/* A noisy side (above --max-cov) that is quiet without its one most
 * extreme run; false when no side is noisy. */
static bool outlier_only(const struct cmp_cell *c, size_t m, double max_cov)
{
	return c->n[m] >= 4 && st_cov_without_extreme(c->v[m], c->n[m]) <= max_cov;
}

/* The Hodges-Lehmann shift and its rank interval, plain (B against A). */
static int robust_delta(struct cmp_delta *d, const struct cmp_cell *a,
			const struct cmp_cell *b, size_t m,
			const struct cmp_opts *o)
{
	bool na = a->d[m].cov_pct > o->max_cov, nb = b->d[m].cov_pct > o->max_cov;
	int rc = st_hl_shift_pct(a->v[m], a->n[m], b->v[m], b->n[m], 1 - o->alpha,
				 &d->hl_pct, &d->hl_lo, &d->hl_hi);

	if (rc && rc != -EINVAL)
		return rc;
	d->one_outlier = (na || nb) && (!na || outlier_only(a, m, o->max_cov)) &&
			 (!nb || outlier_only(b, m, o->max_cov));
	return 0;
}

/* Every value 0: a counter that never moved. */
static bool all_zero(const struct st_desc *d)
{
	return d->n && d->min == 0 && d->max == 0;
}

int cmp_delta_cells(const struct cmp_cell *a, const struct cmp_cell *b,
		    size_t m, const struct cmp_metric *mt,
		    const struct cmp_opts *o, struct cmp_delta *d)
{
	double ma = a->d[m].mean, cov;
	int rc;

	d->p = d->q = d->lo = d->hi = d->pct = NAN;
	d->hl_pct = d->hl_lo = d->hl_hi = NAN;
	d->threshold = o->threshold[mt->cls];
	d->dir = mt->dir;
	if (!a->n[m] || !b->n[m] || o->metric_off[m] ||
	    (!strcmp(mt->unit, "/op") && all_zero(&a->d[m]) && all_zero(&b->d[m])))
		return 0;    /* a count that never moved on either side */
	d->valid = true;
	d->from_zero = all_zero(&a->d[m]) && b->d[m].min > 0;
	d->to_zero = all_zero(&b->d[m]) && a->d[m].min > 0;
	d->sporadic = mt->cls != CMP_PRIMARY && (a->d[m].min == 0 || b->d[m].min == 0);
	if (ma > 0)    /* a % of a negative or zero mean means nothing */
		d->pct = 100.0 * (b->d[m].mean / ma - 1);
	/* the declared test and the interval, on the units of replication */
	rc = cmp_inv_ci(a, b, m, o, d);
	if (rc && rc != -EINVAL)
		return rc;
	rc = robust_delta(d, a, b, m, o);
	if (rc)
		return rc;
	if (d->from_zero || d->to_zero)   /* the test that fits the pattern */
		d->p = d->from_zero ? st_fisher_2x2(d->units[0], 0, 0, d->units[1]) :
				      st_fisher_2x2(0, d->units[0], d->units[1], 0);
	cov = sqrt((pow(isnan(a->d[m].cov_pct) ? 0 : a->d[m].cov_pct, 2) +
		    pow(isnan(b->d[m].cov_pct) ? 0 : b->d[m].cov_pct, 2)) / 2);
	d->runs_needed = st_runs_needed(cov, d->threshold, o->alpha, 0.8);
	return 0;
}

static int delta(struct cmp_result *r, struct cmp_group *g, unsigned s, size_t m)
{
	return cmp_delta_cells(&g->cell[0], &g->cell[s], m, &r->ms.m[m], &r->o,
			       cmp_delta_of(r, g, s, m));
}

bool cmp_run_used(const struct cmp_result *r, const struct res_point *p,
		  const struct cmp_group *g)
{
	char why[256];

	return p->status == RES_OK && cmp_group_of(r, p) == g &&
	       (r->o.keep_disturbed || res_disturbed(p, why, sizeof(why)) <= 0);
}

int cmp_bh_families(struct cmp_delta *const *d, size_t n)
{
	double *p = malloc(2 * (n ? n : 1) * sizeof(*p)), *q = p + (n ? n : 1);
	int rc = p ? 0 : -ENOMEM;

	for (int fam = 0; !rc && fam < 2; fam++) {
		for (size_t i = 0; i < n; i++)
			p[i] = d[i] && d[i]->sporadic == fam ? d[i]->p : NAN;
		rc = st_bh(p, n, q);
		for (size_t i = 0; !rc && i < n; i++)
			if (d[i] && d[i]->sporadic == fam)
				d[i]->q = q[i];
	}
	free(p);
	return rc;
}

/* BH over the non-primary metrics of one point and side. */
static int adjust(struct cmp_result *r, struct cmp_group *g, unsigned s)
{
	struct cmp_delta *d[CMP_MAX_METRICS];

	for (size_t m = 0; m < r->ms.n; m++) {
		d[m] = cmp_delta_of(r, g, s, m);
		if (!d[m]->valid || r->ms.m[m].cls == CMP_PRIMARY)
			d[m] = NULL;
	}
	return cmp_bh_families(d, r->ms.n);
}

static int describe_group(struct cmp_result *r, struct cmp_group *g)
{
	int rc = 0;

	for (unsigned s = 0; s < r->nsides; s++)
		for (size_t m = 0; !rc && m < r->ms.n; m++)
			rc = st_describe(g->cell[s].v[m], g->cell[s].n[m], &g->cell[s].d[m]);
	return rc;
}

/* With disturbed runs left out, a side may have too few clean ones left
 * to judge on: say so instead. */
static void too_few_clean(const struct cmp_result *r, const struct cmp_group *g,
			  unsigned s, struct cmp_delta *d)
{
	const unsigned sides[2] = { 0, s };

	for (unsigned i = 0; i < 2; i++) {
		unsigned k = sides[i];
		const struct cmp_cell *c = &g->cell[k];

		if (!c->disturbed || c->ok >= CMP_MIN_CLEAN)
			continue;
		d->verdict = CMP_INCONCLUSIVE;
		d->by_rank = false;
		snprintf(d->why, sizeof(d->why),
			 "only %u clean runs on %s (%u disturbed, left out); rerun on a quieter machine, or --keep-disturbed",
			 c->ok, r->sides[k].label, c->disturbed);
		return;
	}
}

/* The rules between metrics (cmp_part_rules, cmp_cap_rules) on side @s
 * of @g, once all its verdicts are known; parts first, as a cap reads
 * only its total. */
static void apply_rules(const struct cmp_result *r, struct cmp_group *g, unsigned s)
{
	for (size_t i = 0; i < cmp_npart_rules; i++) {
		int m = cmp_mset_find(&r->ms, cmp_part_rules[i].metric);
		int w = cmp_mset_find(&r->ms, cmp_part_rules[i].of);

		if (m < 0 || w < 0 || !cmp_delta_of(r, g, s, (size_t)m)->valid ||
		    !g->cell[0].n[w])
			continue;
		cmp_judge_part(cmp_delta_of(r, g, s, (size_t)m), r->ms.m[m].cls,
			       &g->cell[0].d[m], &g->cell[s].d[m], g->cell[0].d[w].mean,
			       &r->o);
	}
	for (size_t i = 0; i < cmp_ncap_rules; i++) {
		int m = cmp_mset_find(&r->ms, cmp_cap_rules[i].metric);
		int t = cmp_mset_find(&r->ms, cmp_cap_rules[i].of);

		if (m >= 0 && t >= 0)
			cmp_judge_cap(cmp_delta_of(r, g, s, (size_t)m),
				      cmp_delta_of(r, g, s, (size_t)t), cmp_cap_rules[i].of);
	}
}

static int judge_group(struct cmp_result *r, struct cmp_group *g)
{
	int rc = 0;

	for (unsigned s = 1; !rc && s < r->nsides; s++) {
		for (size_t m = 0; !rc && m < r->ms.n; m++)
			rc = delta(r, g, s, m);
		if (!rc)
			rc = adjust(r, g, s);
		for (size_t m = 0; !rc && m < r->ms.n; m++) {
			struct cmp_delta *d = cmp_delta_of(r, g, s, m);

			if (d->valid)
				d->verdict = cmp_judge(d, r->ms.m[m].cls,
						       g->cell[0].d[m].cov_pct,
						       g->cell[s].d[m].cov_pct,
						       g->cell[0].n[m], g->cell[s].n[m], &r->o);
		}
		if (!rc)
			apply_rules(r, g, s);
		for (size_t m = 0; !rc && m < r->ms.n; m++) {
			struct cmp_delta *d = cmp_delta_of(r, g, s, m);

			if (!d->valid && r->ms.m[m].cls == CMP_PRIMARY &&
			    (g->cell[0].disturbed || g->cell[s].disturbed))
				d->valid = true;   /* every run of a side disturbed: say so */
			else if (!d->valid)
				continue;
			too_few_clean(r, g, s, d);
			r->count[d->verdict]++;
		}
	}
	return rc;
}

static bool has_runs(const struct cmp_cell *c)
{
	return c->ok || c->disturbed;
}

static bool same(const char *x, const char *y)
{
	return (!x && !y) || (x && y && !strcmp(x, y));
}

/* What differs between the points of the baseline and side @s, none in
 * common, and which --axis would pair them where one would. */
static const char *no_common_hint(const struct cmp_result *r, unsigned s)
{
	bool test = false, cg = false, wo = false;

	for (unsigned i = 0; i < r->ngroups; i++)
		for (unsigned j = 0; j < r->ngroups; j++) {
			const struct cmp_group *a = &r->groups[i], *b = &r->groups[j];

			if (!has_runs(&a->cell[0]) || !has_runs(&b->cell[s]) ||
			    strcmp(a->test, b->test))
				continue;
			test = true;
			if (strcmp(a->mode, b->mode) || a->tasks != b->tasks)
				continue;
			cg |= !same(a->layout, b->layout) && same(a->wopts, b->wopts);
			wo |= same(a->layout, b->layout) && !same(a->wopts, b->wopts);
		}
	if (cg)
		return "their cgroup layouts differ; --axis cgroup compares them";
	if (wo)
		return "their workload options differ; --axis workload compares them";
	if (test)
		return "they ran the same tests in other modes or task counts, which no --axis pairs; rerun one side with the other's -m and -t";
	return "they ran different tests, which no --axis pairs";
}

/* Notes on points that only some sides have, and on drift. */
static int coverage_notes(struct cmp_result *r)
{
	unsigned only = 0;
	int rc = 0;

	for (unsigned i = 0; !rc && i < r->ngroups; i++) {
		struct cmp_group *g = &r->groups[i];
		char name[512], who[64] = "";

		cmp_group_name(g, name, sizeof(name));
		for (unsigned s = 0; s < r->nsides; s++) {
			if (g->cell[s].ok || g->cell[s].disturbed)
				snprintf(who + strlen(who), sizeof(who) - strlen(who),
					 "%s", r->sides[s].label);
			if (s && (g->cell[0].ok || g->cell[0].disturbed) &&
			    (g->cell[s].ok || g->cell[s].disturbed))
				g->common = true;
			if (isfinite(g->cell[s].drift_pct) &&
			    fabs(g->cell[s].drift_pct) > r->o.threshold[CMP_PRIMARY])
				rc = cmp_note(r, "%s: side %s drifts %+.1f%% within its runs (second half of the measured intervals against the first); a longer --warmup may help",
					      name, r->sides[s].label, g->cell[s].drift_pct);
		}
		if (!rc && strlen(who) < r->nsides && only++ < 10)
			rc = cmp_note(r, "%s: only in %s", name, *who ? who : "no side (never ok)");
	}
	if (!rc && only > 10)
		rc = cmp_note(r, "... and %u more points that not every side has", only - 10);
	return rc;
}

int cmp_analyse(struct cmp_result *r, char *err, size_t errlen)
{
	int rc = cmp_mset_build(r, err, errlen);

	for (unsigned s = 0; !rc && s < r->nsides; s++)
		for (unsigned f = 0; !rc && f < r->sides[s].nfiles; f++)
			rc = cmp_add_file(r, s, &r->sides[s].files[f], err, errlen);
	for (unsigned i = 0; !rc && i < r->ngroups; i++)
		for (unsigned s = 0; s < r->nsides; s++) {
			struct cmp_cell *c = &r->groups[i].cell[s];

			c->drift_pct = c->ndrift ? c->drift_pct / c->ndrift : NAN;
		}
	if (!rc)
		rc = cmp_env_diff(r, err, errlen);
	if (!rc)
		rc = coverage_notes(r);
	for (unsigned i = 0; !rc && i < r->ngroups; i++)
		rc = describe_group(r, &r->groups[i]);
	for (unsigned i = 0; !rc && i < r->ngroups; i++)
		if (r->groups[i].common)
			rc = judge_group(r, &r->groups[i]);
	for (unsigned s = 1; !rc && s < r->nsides; s++) {
		bool any = false;

		for (unsigned i = 0; i < r->ngroups; i++)
			any |= r->groups[i].common &&
			       (r->groups[i].cell[0].ok || r->groups[i].cell[0].disturbed) &&
			       (r->groups[i].cell[s].ok || r->groups[i].cell[s].disturbed);
		if (!any) {
			snprintf(r->problem, sizeof(r->problem),
				 "no point in common between %s (%s) and %s (%s): %s",
				 r->sides[0].label, r->sides[0].arg,
				 r->sides[s].label, r->sides[s].arg, no_common_hint(r, s));
			rc = -EXDEV;
		}
	}
	return rc;
}

void cmp_result_free(struct cmp_result *r)
{
	for (unsigned i = 0; i < r->ngroups; i++) {
		struct cmp_group *g = &r->groups[i];

		for (unsigned s = 0; g->cell && s < r->nsides; s++)
			for (size_t m = 0; m < r->ms.n; m++) {
				free(g->cell[s].v[m]);
				free(g->cell[s].inv[m]);
			}
		free(g->cell);
		free(g->delta);
		free(g->test);
		free(g->mode);
		free(g->layout);
		free(g->wopts);
	}
	free(r->groups);
	for (unsigned i = 0; i < r->nenv; i++) {
		for (unsigned s = 0; s < r->nsides; s++)
			free(r->env[i].val[s]);
		free(r->env[i].val);
		free(r->env[i].field);
	}
	free(r->env);
	for (unsigned i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	for (unsigned s = 0; r->sides && s < r->nsides; s++)
		cmp_side_free(&r->sides[s]);
	free(r->sides);
	memset(r, 0, sizeof(*r));
}
