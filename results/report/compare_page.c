/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_page.c - the page of `cgscale compare --html`: what was
 * compared and how; first, the headline (the primary metric's change,
 * CI and verdict at each point) beside the verdict counts; the notes and
 * power warnings, the environment diff (those in
 * results/report/compare_head.c), per metric a
 * forest plot (each point's plain % change, + meaning up, the better side
 * named on the axis, with its CI, coloured and marked by verdict, the +-T band
 * shaded), per test and mode the sides as bars of the primary metric with
 * a dot per run, and the table behind every chart. It reads a finished
 * struct cmp_result (results/compare/model.h) and computes nothing of its own.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare/model.h"
#include "results/report/document.h"
#include "results/report/compare_page.h"
#include "lib/macros.h"
#include "results/report/flame.h"

/* Verdicts keep one look everywhere: colour, marker, and their name. */
static const unsigned verdict_look[CMP_NVERDICT] = {
	[CMP_IMPROVEMENT] = 0, [CMP_REGRESSION] = 1, [CMP_NOISY] = 3,
	[CMP_INCONCLUSIVE] = 4, [CMP_NO_CHANGE] = 6,
};

static void varies(const struct cmp_result *r, bool *layout, bool *wopts)
{
	*layout = *wopts = false;
	for (unsigned i = 1; i < r->ngroups; i++) {
		const struct cmp_group *a = &r->groups[0], *b = &r->groups[i];

		*layout |= strcmp(a->layout ? a->layout : "", b->layout ? b->layout : "") != 0;
		*wopts |= strcmp(a->wopts ? a->wopts : "", b->wopts ? b->wopts : "") != 0;
	}
}

/* "page_fault3, thread, 2 tasks", with the layout and the workload
 * options only when they vary between points. */
static void point_name(const struct cmp_result *r, const struct cmp_group *g,
		       bool with_tasks, char *buf, size_t len)
{
	bool layout, wopts;
	size_t o;

	varies(r, &layout, &wopts);
	o = (size_t)snprintf(buf, len, "%s, %s", g->test, g->mode);
	if (with_tasks && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", %u task%s", g->tasks,
				      g->tasks == 1 ? "" : "s");
	if (layout && g->layout && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", cgroup %s", g->layout);
	if (wopts && g->wopts && o < len)
		snprintf(buf + o, len - o, ", %s", g->wopts);
}

/* ---- the headline: the primary metric's change at every point ---- */

static void headline(FILE *o, const struct cmp_result *r, size_t m)
{
	const struct cmp_metric *mt = &r->ms.m[m];
	char name[512];

	fprintf(o, "<table id=\"headline\">\n<caption>");
	rpt_html_printf(o, "%s (%s, %s is better), point by point: change against "
			"%s, %g%% CI", mt->name, mt->unit, mt->dir > 0 ? "higher" : "lower",
			r->sides[0].label, 100 * (1 - r->o.alpha));
	fprintf(o, "</caption>\n<tr><th>point</th>%s<th>", r->nsides > 2 ? "<th>side</th>" : "");
	rpt_html_printf(o, "%s mean", r->sides[0].label);
	fprintf(o, "</th><th>");
	rpt_html_printf(o, "%s mean", r->nsides > 2 ? "side" : r->sides[1].label);
	fprintf(o, "</th><th>change %%</th><th>CI %%</th><th>verdict</th><th>why</th></tr>\n");
	for (unsigned i = 0; i < r->ngroups; i++)
		for (unsigned s = 1; r->groups[i].common && s < r->nsides; s++) {
			const struct cmp_group *g = &r->groups[i];
			const struct cmp_delta *dl = cmp_delta_of(r, g, s, m);
			double a = g->cell[0].d[m].mean, b = g->cell[s].d[m].mean;
			char ci[64] = "-";

			if (!dl->valid)
				continue;
			point_name(r, g, true, name, sizeof(name));
			fprintf(o, "<tr>");
			rpt_td(o, name);
			if (r->nsides > 2)
				rpt_td(o, r->sides[s].label);
			rpt_td_num(o, a, fabs(a) >= 100 ? 0 : 4);
			rpt_td_num(o, b, fabs(b) >= 100 ? 0 : 4);
			rpt_td_pct(o, dl->pct);
			if (isfinite(dl->lo) && isfinite(dl->hi))
				snprintf(ci, sizeof(ci), "[%+.2f, %+.2f]", dl->lo, dl->hi);
			fprintf(o, "<td class=\"n\">%s</td>", ci);
			rpt_td_verdict(o, dl->verdict);
			rpt_td(o, dl->why);
			fprintf(o, "</tr>\n");
		}
	fprintf(o, "</table>\n");
}

/* ---- per metric: the change of every point, as a forest plot ---- */

/* The table behind a forest plot: points @idx[0..n) of metric @m. */
static void forest_table(FILE *o, const struct cmp_result *r, size_t m,
			 unsigned s, const unsigned *idx, char (*names)[96],
			 unsigned n)
{
	fprintf(o, "<table>\n<tr><th>point</th>");
	for (unsigned k = 0; k < 2; k++)
		fprintf(o, "<th>%s runs</th><th>%s mean</th>", r->sides[k ? s : 0].label,
			r->sides[k ? s : 0].label);
	fprintf(o, "<th>change %%</th><th>effect</th><th>CI low</th><th>CI high</th><th>p</th>"
		   "<th>q (BH)</th><th>verdict</th><th>why</th><th>runs for T</th></tr>\n");
	for (unsigned k = 0; k < n; k++) {
		const struct cmp_group *g = &r->groups[idx[k]];
		const struct cmp_delta *dl = cmp_delta_of(r, g, s, m);

		fprintf(o, "<tr>");
		rpt_td(o, names[k]);
		for (unsigned side = 0; side < 2; side++) {
			unsigned sd = side ? s : 0;

			fprintf(o, "<td class=\"n\">%zu</td>", g->cell[sd].n[m]);
			rpt_td_num(o, g->cell[sd].d[m].mean,
				   fabs(g->cell[sd].d[m].mean) >= 100 ? 0 : 4);
		}
		rpt_td_pct(o, dl->pct);
		rpt_td(o, cmp_effect(dl));
		rpt_td_pct(o, dl->lo);
		rpt_td_pct(o, dl->hi);
		rpt_td_p(o, dl->p);
		rpt_td_p(o, dl->q);
		rpt_td_verdict(o, dl->verdict);
		rpt_td(o, dl->why);
		fprintf(o, "<td class=\"n\">%u</td></tr>\n", dl->runs_needed);
	}
	fprintf(o, "</table>\n");
}

/* The forest plot itself: a bar per point with its CI, by verdict. */
static void forest_chart(struct rpt_chart *c, const struct cmp_result *r,
			 size_t m, unsigned s, const unsigned *idx,
			 const char **label, unsigned n)
{
	struct rpt_series *vs[CMP_NVERDICT] = { 0 }, *zero;
	double t = r->o.threshold[r->ms.m[m].cls];

	snprintf(c->x.label, sizeof(c->x.label), "change %% (+ means up; better is to the %s)",
		 r->ms.m[m].dir > 0 ? "right" : "left");
	for (unsigned k = 0; k < n; k++) {
		const struct cmp_delta *dl = cmp_delta_of(r, &r->groups[idx[k]], s, m);

		if (!vs[dl->verdict])
			vs[dl->verdict] = rpt_chart_series(c, cmp_verdict_names[dl->verdict],
							   RPT_XERRORBARS,
							   verdict_look[dl->verdict]);
		if (vs[dl->verdict])
			rpt_series_add(vs[dl->verdict], dl->pct, k, dl->lo, dl->hi);
	}
	zero = rpt_chart_series(c, "", RPT_REFERENCE, 6);
	if (zero) {
		rpt_series_add(zero, 0, -0.5, NAN, NAN);
		rpt_series_add(zero, 0, n - 0.5, NAN, NAN);
	}
	rpt_chart_band(c, false, -t, t, "");
	rpt_chart_fit(c, RPT_AX_ZERO, 0);
	rpt_axis_categories(&c->y, n, label, true);
}

static void forest(struct rpt_doc *d, const struct cmp_result *r, size_t m,
		   unsigned s)
{
	const struct cmp_metric *mt = &r->ms.m[m];
	const char **label = calloc(r->ngroups + 1, sizeof(*label));
	char (*names)[96] = calloc(r->ngroups + 1, sizeof(*names));
	unsigned *idx = calloc(r->ngroups + 1, sizeof(*idx)), n = 0;
	struct rpt_chart *c;
	char title[512];

	if (!label || !names || !idx)
		goto out;
	for (unsigned i = 0; i < r->ngroups; i++)
		if (r->groups[i].common && cmp_delta_of(r, &r->groups[i], s, m)->valid) {
			point_name(r, &r->groups[i], true, names[n], sizeof(names[0]));
			label[n] = names[n];
			idx[n++] = i;
		}
	if (!n)
		goto out;
	snprintf(title, sizeof(title), "%s (%s, %s is better): change of %s against %s, "
		 "%g%% CI", mt->name, mt->unit, mt->dir > 0 ? "higher" : "lower",
		 r->sides[s].label, r->sides[0].label, 100 * (1 - r->o.alpha));
	c = rpt_figure(d, title, 760, 110 + 26 * n);
	if (!c)
		goto out;
	forest_chart(c, r, m, s, idx, label, n);
	fprintf(d->out, "<p class=\"note\">Shaded: &#177;T = &#177;%g%%. "
		"IMPROVEMENT or REGRESSION needs the whole CI beyond it, NO_CHANGE "
		"the whole CI inside.</p>\n", r->o.threshold[mt->cls]);
	rpt_figure_table(d);
	forest_table(d->out, r, m, s, idx, names, n);
	rpt_figure_end(d);
out:
	free(label);
	free(names);
	free(idx);
}

/* ---- per test and mode: the sides as bars, a dot per run ---- */

static bool same_line(const struct cmp_group *a, const struct cmp_group *b)
{
	return !strcmp(a->test, b->test) && !strcmp(a->mode, b->mode) &&
	       !strcmp(a->layout ? a->layout : "", b->layout ? b->layout : "") &&
	       !strcmp(a->wopts ? a->wopts : "", b->wopts ? b->wopts : "");
}

static void side_table(FILE *o, const struct cmp_result *r,
		       const struct cmp_group *const *g, unsigned n, size_t m)
{
	static const char *const head[] = {
		"tasks", "side", "ok/runs", "mean", "median", "stddev", "CoV %", "min",
		"max", "change %", "effect", "CI low", "CI high", "p", "verdict", "failures",
	};

	rpt_table_head(o, head, ARRAY_SIZE(head));
	for (unsigned k = 0; k < n; k++)
		for (unsigned s = 0; s < r->nsides; s++) {
			const struct cmp_cell *c = &g[k]->cell[s];
			const struct st_desc *sd = &c->d[m];
			const struct cmp_delta *dl = cmp_delta_of(r, g[k], s, m);

			fprintf(o, "<tr><td class=\"n\">%u</td>", g[k]->tasks);
			rpt_td(o, r->sides[s].label);
			fprintf(o, "<td class=\"n\">%u/%u</td>", c->ok, c->runs);
			rpt_td_num(o, sd->mean, 0);
			rpt_td_num(o, sd->median, 0);
			rpt_td_num(o, sd->sd, 0);
			rpt_td_num(o, sd->cov_pct, 1);
			rpt_td_num(o, sd->min, 0);
			rpt_td_num(o, sd->max, 0);
			if (s && dl->valid) {
				rpt_td_pct(o, dl->pct);
				rpt_td(o, cmp_effect(dl));
				rpt_td_pct(o, dl->lo);
				rpt_td_pct(o, dl->hi);
				rpt_td_p(o, dl->p);
				rpt_td_verdict(o, dl->verdict);
			} else {
				fprintf(o, "<td></td><td></td><td></td><td></td><td></td><td></td>");
			}
			rpt_td(o, c->runs > c->ok + c->disturbed ? (c->fail_reason ? c->fail_reason :
						      "failed") : "");
			fprintf(o, "</tr>\n");
		}
	fprintf(o, "</table>\n");
}

static void sides_chart(struct rpt_doc *d, const struct cmp_result *r,
			const struct cmp_group *const *g, unsigned n, size_t m)
{
	const struct cmp_metric *mt = &r->ms.m[m];
	double w = 0.8 / r->nsides;
	char title[512], (*labels)[48] = calloc(n + 1, sizeof(*labels));
	const char **lp = calloc(n + 1, sizeof(*lp));
	struct rpt_series *dots;
	struct rpt_chart *c;

	if (!labels || !lp)
		goto out;
	point_name(r, g[0], false, title, sizeof(title));
	snprintf(title + strlen(title), sizeof(title) - strlen(title),
		 ": %s (%s) of each side, a dot per run", mt->name, mt->unit);
	c = rpt_figure(d, title, 600, 340);
	if (!c)
		goto out;
	c->bar_width = w;
	snprintf(c->x.label, sizeof(c->x.label), r->nsides == 2 ?
		 "tasks: verdict and change of B" : "tasks");
	snprintf(c->y.label, sizeof(c->y.label), "%s (%s)", mt->name, mt->unit);
	for (unsigned s = 0; s < r->nsides && s < RPT_MAX_SERIES - 1; s++) {
		char name[160];
		struct rpt_series *b;

		snprintf(name, sizeof(name), "%s%s", r->sides[s].label, s ? "" : " (base)");
		b = rpt_chart_series(c, name, RPT_BARS, s % (RPT_NLOOKS - 1));
		if (!b)
			break;
		b->xoff = (s - (r->nsides - 1) / 2.0) * w;
		for (unsigned k = 0; k < n; k++)
			rpt_series_add(b, k, g[k]->cell[s].d[m].mean, NAN, NAN);
	}
	dots = rpt_chart_series(c, "each run", RPT_POINTS, 6);
	for (unsigned k = 0; dots && k < n; k++)
		for (unsigned s = 0; s < r->nsides; s++)
			for (size_t i = 0; i < g[k]->cell[s].n[m]; i++)
				rpt_series_add(dots, k + (s - (r->nsides - 1) / 2.0) * w,
					       g[k]->cell[s].v[m][i], NAN, NAN);
	rpt_chart_fit(c, RPT_AX_INT | RPT_AX_PAD, RPT_AX_ZERO);
	for (unsigned k = 0; k < n; k++) {
		const struct cmp_delta *dl = r->nsides == 2 ?
			cmp_delta_of(r, g[k], 1, m) : NULL;

		if (dl && dl->valid)   /* two sides: the verdict under its bars */
			snprintf(labels[k], sizeof(labels[k]), "%u: %s %+.1f%%%s%s", g[k]->tasks,
				 cmp_verdict_names[dl->verdict], dl->pct,
				 *cmp_effect(dl) == '-' ? "" : " ",
				 *cmp_effect(dl) == '-' ? "" : cmp_effect(dl));
		else
			snprintf(labels[k], sizeof(labels[k]), "%u", g[k]->tasks);
		lp[k] = labels[k];
	}
	rpt_axis_categories(&c->x, n, lp, false);
	rpt_figure_table(d);
	side_table(d->out, r, g, n, m);
	rpt_figure_end(d);
out:
	free(labels);
	free(lp);
}

static void by_test(struct rpt_doc *d, const struct cmp_result *r, size_t m)
{
	const struct cmp_group **g = calloc(r->ngroups + 1, sizeof(*g));
	bool *done = calloc(r->ngroups + 1, sizeof(*done));

	if (!g || !done)
		goto out;
	fprintf(d->out, "<h2 id=\"sides\">The sides, point by point</h2>\n"
		   "<div class=\"figs\">\n");
	for (unsigned i = 0; i < r->ngroups; i++) {
		unsigned n = 0;

		if (done[i])
			continue;
		for (unsigned k = i; k < r->ngroups; k++)
			if (!done[k] && same_line(&r->groups[i], &r->groups[k])) {
				done[k] = true;
				g[n++] = &r->groups[k];
			}
		for (unsigned a = 1; a < n; a++)    /* by task count */
			for (unsigned b = a; b > 0 && g[b - 1]->tasks > g[b]->tasks; b--) {
				const struct cmp_group *t = g[b];

				g[b] = g[b - 1];
				g[b - 1] = t;
			}
		sides_chart(d, r, g, n, m);
	}
	fprintf(d->out, "</div>\n");
out:
	free(g);
	free(done);
}

int rpt_build_compare(struct rpt_doc *d, const struct cmp_result *r)
{
	size_t primary = 0;

	for (size_t m = 0; m < r->ms.n; m++)
		if (r->ms.m[m].cls == CMP_PRIMARY) {
			primary = m;
			break;
		}
	rpt_cmp_head(d, r);
	fprintf(d->out, "<div class=\"top\">\n");
	if (r->ngroups && r->nsides > 1)
		headline(d->out, r, primary);
	rpt_cmp_verdicts(d->out, r);
	fprintf(d->out, "</div>\n");
	rpt_cmp_why(d, r);
	rpt_cmp_notes(d->out, r);
	rpt_cmp_env(d, r);
	if (!r->ngroups)
		return d->err;
	fprintf(d->out, "<h2 id=\"changes\">Changes, metric by metric</h2>\n");
	for (size_t m = 0; m < r->ms.n; m++)
		for (unsigned s = 1; !r->o.metric_off[m] && s < r->nsides; s++)
			forest(d, r, m, s);
	by_test(d, r, primary);
	rpt_flame_compare(d, r, r->prof);
	return d->err;
}

int rpt_write_compare(const struct cmp_result *r, const char *path,
		      const char *gnuplot, char *err, size_t errlen)
{
	struct rpt_doc d;
	char title[512];
	int rc;

	snprintf(title, sizeof(title), "cgscale compare: %s vs %s%s",
		 r->nsides ? r->sides[0].arg : "?", r->nsides > 1 ? r->sides[1].arg : "?",
		 r->nsides > 2 ? ", ..." : "");
	rc = rpt_doc_init(&d, title);
	if (!rc)
		rc = rpt_build_compare(&d, r);
	if (rc) {
		snprintf(err, errlen, "out of memory building the page");
		rpt_doc_free(&d);
		return rc;
	}
	rc = rpt_doc_write(&d, path, gnuplot, err, errlen);
	rpt_doc_free(&d);
	return rc;
}
