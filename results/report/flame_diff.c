/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flame_diff.c - compare --html: per point and new side with
 * profiles, the differential flame graph (the new side's shape, each
 * frame coloured by the change of its share against the base, runs of
 * each side merged) and beside it the table of the biggest profile
 * changes with their CI, q and verdict (results/compare/profile.c).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/profile.h"
#include "results/report/flame.h"

#define TOP_ROWS 15

/* The merged tree of side @s's ok runs of group @g. */
static int side_tree(const struct cmp_result *r, const struct cmp_group *g,
		     unsigned s, struct cgs_ftnode *root)
{
	const struct cmp_side *sd = &r->sides[s];
	int rc = 0;

	for (unsigned f = 0; !rc && f < sd->nfiles; f++)
		for (unsigned i = 0; !rc && i < sd->files[f].res.npoints; i++) {
			const struct res_point *p = &sd->files[f].res.points[i];
			struct json_object *prof = cmp_point_profile(p);

			if (cmp_profile_run_used(r, p, g))
				rc = rpt_flame_add(root, prof);
		}
	return rc;
}

static void changes_table(FILE *o, const struct cmp_result *r,
			  const struct cmp_profile *p, size_t from, size_t to)
{
	static const char *const head[] = {
		"key", "base %", "new %", "change (pp)", "CI (pp)", "q", "verdict" };

	rpt_table_head(o, head, 7);
	for (size_t i = from; i < to && i < from + TOP_ROWS; i++) {
		const struct cmp_prof_row *w = &p->rows[i];
		char key[600], ci[64];

		snprintf(key, sizeof(key), "%s.%s", cmp_prof_kind_names[w->kind], w->sym);
		if (isfinite(w->d.lo))
			snprintf(ci, sizeof(ci), "[%+.2f, %+.2f]", w->d.lo, w->d.hi);
		else
			snprintf(ci, sizeof(ci), "-");
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
	(void)r;
}

static void one(struct rpt_doc *d, const struct cmp_result *r,
		const struct cmp_profile *p, size_t from, size_t to)
{
	const struct cmp_prof_row *w = &p->rows[from];
	const struct cmp_group *g = &r->groups[w->group];
	struct cgs_ftnode base = { 0 }, now = { 0 };
	char name[512], cap[1024];

	if (side_tree(r, g, 0, &base) || side_tree(r, g, w->side, &now))
		d->err = d->err ? d->err : -ENOMEM;
	cmp_group_name(g, name, sizeof(name));
	snprintf(cap, sizeof(cap), "Differential flame graph of %s: %s's shape (%zu runs), coloured by the change of each frame's share against %s (%zu runs): red grew, blue shrank (dashed outline), deeper the more; the change in percentage points follows the name",
		 name, r->sides[w->side].label, w->nb, r->sides[0].label, w->na);
	fprintf(d->out, "<figure class=\"fig wide flame\">\n<figcaption>");
	rpt_html_puts(d->out, cap);
	fprintf(d->out, "</figcaption>\n");
	if (now.total && base.total)
		rpt_flame_svg(d->out, &now, &base);
	else
		fprintf(d->out, "<p class=\"nochart\">No samples on a side.</p>\n");
	fprintf(d->out, "<p>");
	rpt_html_printf(d->out, "The biggest changes of the profile (%s against %s), of %zu keys at or above %g%% of the samples on a side; GREW/SHRANK need the CI beyond +-%g pp and a Benjamini-Hochberg q below %g:",
			r->sides[w->side].label, r->sides[0].label, to - from, p->floor,
			p->threshold, r->o.alpha);
	fprintf(d->out, "</p>\n");
	changes_table(d->out, r, p, from, to);
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
