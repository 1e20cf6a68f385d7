/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_compare.c - the page of `cgscale compare --html`: what was
 * compared and how, the verdict counts, the notes and power warnings,
 * the environment diff, per metric a forest plot (each point's % change,
 * + is better, with its CI, coloured and marked by verdict, the +-T band
 * shaded), per test and mode the sides as bars of the primary metric with
 * a dot per run, and the table behind every chart. It reads a finished
 * struct cmp_result (compare.h) and computes nothing of its own.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report.h"
#include "report_flame.h"

/* Verdicts keep one look everywhere: colour, marker, and their name. */
static const unsigned verdict_look[CMP_NVERDICT] = {
	[CMP_IMPROVEMENT] = 0, [CMP_REGRESSION] = 1, [CMP_NOISY] = 3,
	[CMP_INCONCLUSIVE] = 4, [CMP_NO_CHANGE] = 6,
};

static const char *const verdict_meaning[CMP_NVERDICT] = {
	[CMP_NO_CHANGE] = "the CI lies within +-T",
	[CMP_IMPROVEMENT] = "the CI lies entirely above +T",
	[CMP_REGRESSION] = "the CI lies entirely below -T",
	[CMP_NOISY] = "a side's runs vary more than --max-cov",
	[CMP_INCONCLUSIVE] = "anything else: too few runs, or a CI across +-T",
};

static void td_verdict(FILE *o, enum cmp_verdict v)
{
	char cls[32];

	snprintf(cls, sizeof(cls), "v-%s", cmp_verdict_names[v]);
	for (char *c = cls; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
	fprintf(o, "<td class=\"%s\">%s</td>", cls, cmp_verdict_names[v]);
}

static void td_pct(FILE *o, double v)
{
	if (isfinite(v))
		fprintf(o, "<td class=\"n\">%+.2f</td>", v);
	else
		fprintf(o, "<td class=\"n\">-</td>");
}

static void td_p(FILE *o, double p)
{
	if (!isfinite(p))
		fprintf(o, "<td class=\"n\">-</td>");
	else if (p < 0.0001)
		fprintf(o, "<td class=\"n\">&lt;0.0001</td>");
	else
		fprintf(o, "<td class=\"n\">%.4f</td>", p);
}

/* ---- the head: sides, settings, verdicts, notes, power ---- */

static void power_notes(FILE *o, const struct cmp_result *r)
{
	unsigned never = 0, few = 0;
	double minp = 1;

	for (unsigned i = 0; i < r->ngroups; i++)
		for (unsigned s = 1; r->groups[i].common && s < r->nsides; s++)
			for (size_t m = 0; m < cmp_nmetrics; m++) {
				const struct cmp_group *g = &r->groups[i];
				const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
				size_t na = g->cell[0].n[m], nb = g->cell[s].n[m];

				if (!d->valid || cmp_metrics[m].cls != CMP_PRIMARY)
					continue;
				if (d->min_p >= r->o.alpha) {
					never++;
					minp = fmin(minp, d->min_p);
				} else if (d->runs_needed > (na < nb ? na : nb)) {
					few++;
				}
			}
	if (never)
		fprintf(o, "<p class=\"warn\">Power: at %u point%s the number of runs can "
			   "never give p &lt; %g (the smallest p it allows is %.3g).</p>\n",
			never, never == 1 ? "" : "s", r->o.alpha, minp);
	if (few)
		fprintf(o, "<p class=\"warn\">Power: at %u point%s the runs are few for "
			   "the noise seen.</p>\n", few, few == 1 ? "" : "s");
	if (never || few)
		fprintf(o, "<p>The tables give, per point, about how many runs a side "
			   "would find a change of T with 80%% power (column \"runs for "
			   "T\").</p>\n");
}

/* The notes of the comparison, in one box; beyond six, folded. */
static void notes(FILE *o, const struct cmp_result *r)
{
	if (!r->nnotes)
		return;
	fprintf(o, "<div class=\"info\">Notes:\n<ul>\n");
	for (unsigned i = 0; i < r->nnotes; i++) {
		if (i == 6)
			fprintf(o, "</ul>\n<details><summary>%u more notes</summary>\n<ul>\n",
				r->nnotes - 6);
		fprintf(o, "<li>");
		rpt_html_puts(o, r->notes[i]);
		fprintf(o, "</li>\n");
	}
	fprintf(o, "</ul>\n%s</div>\n", r->nnotes > 6 ? "</details>\n" : "");
}

static void head(struct rpt_doc *d, const struct cmp_result *r)
{
	FILE *o = d->out;

	fprintf(o, "<h1>cgscale compare</h1>\n<p class=\"sub\">");
	for (unsigned s = 0; s < r->nsides; s++)
		rpt_html_printf(o, "%s%s = %s (%u file%s)%s", s ? ", " : "",
				r->sides[s].label, r->sides[s].arg, r->sides[s].nfiles,
				r->sides[s].nfiles == 1 ? "" : "s",
				s ? "" : " [baseline]");
	fprintf(o, ".<br/>");
	rpt_html_printf(o, "Axis %s. Practical threshold T: %g%% primary, %g%% secondary. "
			"NOISY above a CoV of %g%%. %g%% CI of the change by bootstrap "
			"(%u resamples, seed %llu); p by %s. + is always better.",
			r->o.axis, r->o.threshold[CMP_PRIMARY],
			r->o.threshold[CMP_SECONDARY], r->o.max_cov,
			100 * (1 - r->o.alpha), r->o.resamples,
			(unsigned long long)r->o.seed,
			r->o.welch ? "Welch's t" : "Mann-Whitney U");
	fprintf(o, "</p>\n");
	rpt_doc_status(d);
	o = d->out;
	if (r->problem[0]) {
		fprintf(o, "<p class=\"warn\"><b>These inputs cannot be compared</b>: ");
		rpt_html_puts(o, r->problem);
		fprintf(o, " (exit status 3). The environment diff below shows why.</p>\n");
	}
	fprintf(o, "<table>\n<caption>Verdicts, all points and metrics</caption>\n"
		   "<tr><th>verdict</th><th>count</th><th>means</th></tr>\n");
	for (int v = 0; v < CMP_NVERDICT; v++) {
		fprintf(o, "<tr>");
		td_verdict(o, (enum cmp_verdict)v);
		fprintf(o, "<td class=\"n\">%u</td>", r->count[v]);
		rpt_td(o, verdict_meaning[v]);
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n");
	notes(o, r);
	power_notes(o, r);
}

/* ---- the environment diff ---- */

static void env_row(FILE *o, const struct cmp_result *r, const struct cmp_envrow *e)
{
	fprintf(o, "<tr%s><th class=\"mono\">", e->differs || e->mixed ?
		" class=\"differs\"" : "");
	rpt_html_puts(o, e->field);
	fprintf(o, "</th>");
	rpt_td(o, e->axis ? "axis" : e->critical ? "critical" : "info");
	rpt_td(o, e->mixed ? "within a side" : e->differs ? "between sides" : "");
	for (unsigned s = 0; s < r->nsides; s++) {
		fprintf(o, "<td class=\"mono\">");
		rpt_html_puts(o, e->val[s] ? e->val[s] : "-");
		fprintf(o, "</td>");
	}
	fprintf(o, "</tr>\n");
}

static void env_diff(struct rpt_doc *d, const struct cmp_result *r)
{
	FILE *o = d->out;
	unsigned same = 0;

	fprintf(o, "<h2 id=\"env\">Environment</h2>\n<p>Critical fields that differ "
		   "make the inputs incomparable unless they are the axis or "
		   "<code>--allow-env-diff</code> is given. Marked rows differ.</p>\n");
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			if (!same)
				break;
			fprintf(o, "<details><summary>%u fields equal on every side"
				   "</summary>\n", same);
		}
		fprintf(o, "<table>\n<tr><th>field</th><th>kind</th><th>differs</th>");
		for (unsigned s = 0; s < r->nsides; s++)
			rpt_th(o, r->sides[s].label);
		fprintf(o, "</tr>\n");
		for (unsigned i = 0; i < r->nenv; i++) {
			const struct cmp_envrow *e = &r->env[i];
			bool first = e->differs || e->mixed || e->axis;

			if (e->hidden)
				continue;
			same += !pass && !first;
			if (first == !pass)
				env_row(o, r, e);
		}
		fprintf(o, "</table>\n%s", pass ? "</details>\n" : "");
	}
}

/* Whether the points differ in cgroup layout, or in workload options. */
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

/* ---- per metric: the change of every point, as a forest plot ---- */

static void forest(struct rpt_doc *d, const struct cmp_result *r, size_t m,
		   unsigned s)
{
	const struct cmp_metric *mt = &cmp_metrics[m];
	struct rpt_series *vs[CMP_NVERDICT] = { 0 }, *zero;
	const char **label = calloc(r->ngroups + 1, sizeof(*label));
	char (*names)[96] = calloc(r->ngroups + 1, sizeof(*names));
	unsigned *idx = calloc(r->ngroups + 1, sizeof(*idx)), n = 0;
	struct rpt_chart *c;
	char title[512];
	double t = r->o.threshold[mt->cls];
	FILE *o;

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
	snprintf(c->x.label, sizeof(c->x.label), "change %% (+ is better)");
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
	fprintf(d->out, "<p class=\"note\">Shaded: &#177;T = &#177;%g%%. "
		"IMPROVEMENT or REGRESSION needs the whole CI beyond it, NO_CHANGE "
		"the whole CI inside.</p>\n", t);
	rpt_figure_table(d);
	o = d->out;
	fprintf(o, "<table>\n<tr><th>point</th>");
	for (unsigned k = 0; k < 2; k++)
		fprintf(o, "<th>%s runs</th><th>%s mean</th>", r->sides[k ? s : 0].label,
			r->sides[k ? s : 0].label);
	fprintf(o, "<th>change %%</th><th>CI low</th><th>CI high</th><th>p</th>"
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
		td_pct(o, dl->pct);
		td_pct(o, dl->lo);
		td_pct(o, dl->hi);
		td_p(o, dl->p);
		td_p(o, dl->q);
		td_verdict(o, dl->verdict);
		rpt_td(o, dl->why);
		fprintf(o, "<td class=\"n\">%u</td></tr>\n", dl->runs_needed);
	}
	fprintf(o, "</table>\n");
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
		"max", "change %", "CI low", "CI high", "p", "verdict", "failures",
	};

	rpt_table_head(o, head, sizeof(head) / sizeof(head[0]));
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
				td_pct(o, dl->pct);
				td_pct(o, dl->lo);
				td_pct(o, dl->hi);
				td_p(o, dl->p);
				td_verdict(o, dl->verdict);
			} else {
				fprintf(o, "<td></td><td></td><td></td><td></td><td></td>");
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
	const struct cmp_metric *mt = &cmp_metrics[m];
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
			snprintf(labels[k], sizeof(labels[k]), "%u: %s %+.1f%%", g[k]->tasks,
				 cmp_verdict_names[dl->verdict], dl->pct);
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

	head(d, r);
	env_diff(d, r);
	if (!r->ngroups)
		return d->err;
	for (size_t m = 0; m < cmp_nmetrics; m++)
		if (cmp_metrics[m].cls == CMP_PRIMARY) {
			primary = m;
			break;
		}
	fprintf(d->out, "<h2 id=\"changes\">Changes, metric by metric</h2>\n");
	for (size_t m = 0; m < cmp_nmetrics; m++)
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
