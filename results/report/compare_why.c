/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_why.c - "Where the time went" on the compare page: for each
 * compared point and new side, one small table of the figures of
 * results/compare/why.h (the wall time per op and its change, its split
 * into user, sys, run-queue and blocked, the functions, the counters per
 * op and the lock time that changed most), as the text shows them.
 */
#include <math.h>
#include <stdio.h>

#include "results/compare/fmt.h"
#include "results/compare/why.h"
#include "results/report/compare_page.h"
#include "results/report/document.h"

static void row(FILE *o, const char *kind, const struct cmp_why_row *w)
{
	char d[32], a[32], b[32];

	fprintf(o, "<tr>");
	rpt_td(o, kind);
	rpt_td(o, w->name);
	/* as the text block writes them: 68.27, not 68.2693 */
	fprintf(o, "<td class=\"n\">%s</td>", cmp_fmt_delta(d, sizeof(d), w->d));
	rpt_td(o, w->unit);
	fprintf(o, "<td class=\"n\">%s</td>", cmp_fmt_num(a, sizeof(a), w->a));
	fprintf(o, "<td class=\"n\">%s</td>", cmp_fmt_num(b, sizeof(b), w->b));
	if (w->delta && w->delta->valid)
		rpt_td_verdict(o, w->delta->verdict);
	else
		rpt_td(o, "");
	fprintf(o, "</tr>\n");
}

static void rows(FILE *o, const char *kind, const struct cmp_why_row *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		row(o, i ? "" : kind, &w[i]);
}

static void table(FILE *o, const struct cmp_result *r, const struct cmp_why *w)
{
	const struct cmp_group *g = &r->groups[w->group];
	struct cmp_why_row wall = { .name = "wall", .unit = "ns/op", .a = w->wall_a,
		.b = w->wall_b, .d = w->wall_d, .delta = w->head };
	char name[512], split[512];

	cmp_group_name(g, name, sizeof(name));
	fprintf(o, "<table class=\"why\">\n<caption>");
	rpt_html_printf(o, "%s: %s against %s, means of the runs", name,
			r->sides[w->side].label, r->sides[0].label);
	fprintf(o, "</caption>\n<tr><th>what</th><th>name</th><th>change</th><th>unit</th>");
	/* the labels are text (escaped), the tags are markup */
	fprintf(o, "<th>");
	rpt_html_puts(o, r->sides[0].label);
	fprintf(o, "</th><th>");
	rpt_html_puts(o, r->sides[w->side].label);
	fprintf(o, "</th>");
	fprintf(o, "<th>verdict</th></tr>\n");
	row(o, "time per op", &wall);
	if (w->have_parts)
		rows(o, "its parts", w->part, CMP_WHY_NPART);
	rows(o, "functions", w->fn, w->nfn);
	rows(o, "own counters", w->ctr, w->nctr);
	rows(o, "system-wide", w->sys_ctr, w->nsys_ctr);
	rows(o, "lock time", w->lock, w->nlock);
	rows(o, "work outside the tasks, by who", w->who, w->nwho);
	rows(o, "the stat reader's functions", w->reader, w->nreader);
	fprintf(o, "</table>\n");
	if (cmp_why_split_text(w, split, sizeof(split))) {
		fprintf(o, "<p class=\"note\">");
		rpt_html_puts(o, split);
		fprintf(o, "</p>\n");
	}
	if (cmp_why_prof_split_text(w, split, sizeof(split))) {
		fprintf(o, "<p class=\"note\">");
		rpt_html_puts(o, split);
		fprintf(o, "</p>\n");
	}
}

void rpt_cmp_why(struct rpt_doc *d, const struct cmp_result *r)
{
	bool any = false;
	struct cmp_why w;

	for (unsigned i = 0; i < r->ngroups; i++)
		for (unsigned s = 1; r->groups[i].common && s < r->nsides; s++) {
			if (!r->groups[i].cell[0].ok || !r->groups[i].cell[s].ok)
				continue;
			if (!any)
				fprintf(d->out, "<h2 id=\"why\">Where the time went</h2>\n<p>Per "
					"point, the change of the wall time per op, its split into "
					"user, sys, run-queue and blocked time (they add up to the "
					"wall), the functions (share of the samples x CPU time "
					"per op), and the counters per op that changed most.</p>\n");
			any = true;
			cmp_why_point(r, i, s, &w);
			table(d->out, r, &w);
		}
}
