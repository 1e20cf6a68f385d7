/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flame_diff.c - compare --html: per point and new side with
 * profiles, the differential flame graph (the new side's shape, each
 * frame coloured by its change in ns/op against the same path of the
 * base: each run's tree weighted by its CPU time per op over its samples,
 * the runs of a side averaged, so a frame whose time per op did not change
 * stays neutral however its share moved; by the change of share when the
 * runs have no CPU time), and under it the functions ranked by |change in
 * ns/op| with their sampling error, CI, q and verdicts, and what the
 * listed ones explain of the CPU time's change (results/compare/profile.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/profile.h"
#include "results/report/flame.h"

#define MORE_ROWS 100     /* rows after the first ones, folded */

/* The merged tree of side @s's ok runs of group @g: in ns/op (@ns: only
 * the runs with a CPU time, each weighted), else plain samples. */
static int side_tree(const struct cmp_result *r, const struct cmp_group *g,
		     unsigned s, bool ns, struct cgs_ftnode *root)
{
	const struct cmp_side *sd = &r->sides[s];
	unsigned k = 0;
	int rc = 0;

	for (int pass = !ns; !rc && pass < 2; pass++)   /* ns: count, then add */
		for (unsigned f = 0; !rc && f < sd->nfiles; f++)
			for (unsigned i = 0; !rc && i < sd->files[f].res.npoints; i++) {
				const struct res_point *p = &sd->files[f].res.points[i];
				struct cgs_ftnode one = { 0 };
				struct cmp_run_cpu c;

				if (!cmp_profile_run_used(r, p, g) ||
				    (ns && !cmp_profile_run_cpu(p, &c)))
					continue;
				if (!pass) {
					k++;
					continue;
				}
				if (!ns) {
					rc = rpt_flame_add(root, cmp_point_profile(p));
					continue;
				}
				rc = rpt_flame_add(&one, cmp_point_profile(p));
				if (!rc && one.total)
					rc = cgs_ftree_merge(root, &one,
							     c.cpu / (double)one.total / k);
				cgs_ftree_free(&one);
			}
	return rc;
}

static void td_change(FILE *o, const struct cmp_delta *d, double se, const char *v)
{
	char ci[64] = "-";

	fprintf(o, "<td class=\"n\">%+.1f &#177; %.1f</td>", d->pct, se);
	if (isfinite(d->lo))
		snprintf(ci, sizeof(ci), "[%+.1f, %+.1f]", d->lo, d->hi);
	rpt_td(o, ci);
	rpt_td_num(o, d->q, 3);
	fprintf(o, "<td title=\"");
	rpt_html_puts(o, d->why);
	fprintf(o, "\">%s</td>", v);
}

static void fn_rows(FILE *o, const struct cmp_pns_point *pt, size_t from, size_t to)
{
	static const char *const head[] = {
		"function", "self A", "self B", "change ± SE (ns/op)", "CI", "q", "verdict",
		"children A", "children B", "change ± SE", "CI", "q", "verdict",
		"self % A → B" };

	rpt_table_head(o, head, 14);
	for (size_t i = from; i < to; i++) {
		const struct cmp_pns_row *w = &pt->rows[i];
		char sh[64];

		fprintf(o, "<tr>");
		rpt_td(o, w->sym);
		rpt_td_num(o, w->a.self, 1);
		rpt_td_num(o, w->b.self, 1);
		td_change(o, &w->dself, hypot(w->a.self_se, w->b.self_se), w->vself);
		rpt_td_num(o, w->a.children, 1);
		rpt_td_num(o, w->b.children, 1);
		td_change(o, &w->dchildren, hypot(w->a.children_se, w->b.children_se),
			  w->vchildren);
		snprintf(sh, sizeof(sh), "%.1f → %.1f", w->a.self_pct, w->b.self_pct);
		rpt_td(o, sh);
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n");
}

/* The ranked functions of @pt and what the first ones explain. */
static void ns_table(FILE *o, const struct cmp_result *r, const struct cmp_profile *p,
		     const struct cmp_pns_point *pt)
{
	size_t shown = pt->nfunc < p->o.rows ? pt->nfunc : p->o.rows;
	struct cmp_pns_top t;

	fprintf(o, "<p>");
	rpt_html_printf(o, "Time per op by function, %s against %s: a function's share of the tasks' samples × their CPU time per op (%.1f → %.1f ns/op, %+.1f; from %s); wall time per op %.1f → %.1f (%+.1f). Ranked by |change| of %s ns/op; self time adds up to the CPU time, children is with what the function calls. ± is the sampling error (binomial, 1 SE). GREW/SHRANK need the CI beyond ±%g ns/op (%g%% of the base's CPU time per op) and a Benjamini-Hochberg q below %g; the verdict is on ns/op, never on the share.",
			r->sides[pt->side].label, r->sides[0].label, pt->cpu_a, pt->cpu_b,
			pt->cpu_b - pt->cpu_a, pt->cpu_src, pt->wall_a, pt->wall_b,
			pt->wall_b - pt->wall_a, cmp_pns_rank_names[p->o.rank],
			pt->threshold_ns, p->o.threshold, r->o.alpha);
	fprintf(o, "</p>\n");
	fn_rows(o, pt, 0, shown);
	if (!cmp_profile_top_ns(p, pt->group, pt->side, p->o.rows, &t) && t.n) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			cmp_pns_explain(r, &t, "", m);
			fclose(m);
			fprintf(o, "<p class=\"facts\"><b>");
			rpt_html_puts(o, buf);
			fprintf(o, "</b></p>\n");
		}
		free(buf);
	}
	if (pt->nfunc > shown) {
		size_t to = pt->nfunc < shown + MORE_ROWS ? pt->nfunc : shown + MORE_ROWS;

		fprintf(o, "<details><summary>%zu more functions</summary>\n", to - shown);
		fn_rows(o, pt, shown, to);
		fprintf(o, "</details>\n");
	}
}

/* Without a CPU time per op: the biggest changes of share, as before. */
static void share_table(FILE *o, const struct cmp_result *r,
			const struct cmp_profile *p, size_t from, size_t to)
{
	static const char *const head[] = {
		"key", "base %", "new %", "change (pp)", "CI (pp)", "q", "verdict" };

	fprintf(o, "<p>");
	rpt_html_printf(o, "These runs have no CPU time per op, so the profile is compared in shares of the samples (a share also moves when another function's time changes): GREW/SHRANK need the CI beyond +-%g pp and a Benjamini-Hochberg q below %g:",
			p->threshold, r->o.alpha);
	fprintf(o, "</p>\n");
	rpt_table_head(o, head, 7);
	for (size_t i = from; i < to && i < from + 15; i++) {
		const struct cmp_prof_row *w = &p->rows[i];
		char key[600], ci[64] = "-";

		snprintf(key, sizeof(key), "%s.%s", cmp_prof_kind_names[w->kind], w->sym);
		if (isfinite(w->d.lo))
			snprintf(ci, sizeof(ci), "[%+.2f, %+.2f]", w->d.lo, w->d.hi);
		fprintf(o, "<tr>");
		rpt_td(o, key);
		rpt_td_num(o, w->mean_a, 2);
		rpt_td_num(o, w->mean_b, 2);
		rpt_td_num(o, w->d.pct, 2);
		rpt_td(o, ci);
		rpt_td_num(o, w->d.q, 3);
		rpt_td(o, w->verdict);
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n");
}

static void one(struct rpt_doc *d, const struct cmp_result *r,
		const struct cmp_profile *p, size_t from, size_t to)
{
	const struct cmp_prof_row *w = &p->rows[from];
	const struct cmp_group *g = &r->groups[w->group];
	const struct cmp_pns_point *pt = cmp_profile_point_ns(p, w->group, w->side);
	struct cgs_ftnode base = { 0 }, now = { 0 };
	char name[512], cap[1024];

	if (side_tree(r, g, 0, pt != NULL, &base) || side_tree(r, g, w->side, pt != NULL, &now))
		d->err = d->err ? d->err : -ENOMEM;
	cmp_group_name(g, name, sizeof(name));
	if (pt)
		snprintf(cap, sizeof(cap), "Differential flame graph of %s: %s's shape (%zu runs), each frame coloured by the change of its time per op against %s (%zu runs): red took more ns/op, blue less (dashed outline), deeper the more; neutral within 2 sampling errors; the change in ns/op follows the name. Click a frame to zoom, search by name above",
			 name, r->sides[w->side].label, pt->nb, r->sides[0].label, pt->na);
	else
		snprintf(cap, sizeof(cap), "Differential flame graph of %s: %s's shape (%zu runs), coloured by the change of each frame's share against %s (%zu runs): red grew, blue shrank (dashed outline), deeper the more; the change in percentage points follows the name",
			 name, r->sides[w->side].label, w->nb, r->sides[0].label, w->na);
	if (now.total && base.total)
		rpt_flame_script(d);
	fprintf(d->out, "<figure class=\"fig wide flame\">\n<figcaption>");
	rpt_html_puts(d->out, cap);
	fprintf(d->out, "</figcaption>\n");
	if (now.total && base.total)
		rpt_flame_svg(d->out, &now, &base);
	else
		fprintf(d->out, "<p class=\"nochart\">No samples on a side.</p>\n");
	if (pt)
		ns_table(d->out, r, p, pt);
	else
		share_table(d->out, r, p, from, to);
	fprintf(d->out, "</figure>\n");
	cgs_ftree_free(&base);
	cgs_ftree_free(&now);
}

void rpt_flame_compare(struct rpt_doc *d, const struct cmp_result *r,
		       const struct cmp_profile *p)
{
	if (!p || !p->n)
		return;
	fprintf(d->out, "<h2 id=\"profiles\">Profiles: why it changed</h2>\n");
	for (size_t i = 0; i < p->n;) {
		size_t j = i;

		while (j < p->n && p->rows[j].group == p->rows[i].group &&
		       p->rows[j].side == p->rows[i].side)
			j++;
		one(d, r, p, i, j);
		i = j;
	}
}
