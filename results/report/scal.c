/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scal.c - the report's scalability charts of one test: total ops/s
 * against tasks per mode with will-it-scale's linear reference, then one
 * chart per aux counter (sendfile's Mbit/s, remap's bogo-ops/s: the
 * figures LKP reports for them), and the table behind the first. The
 * task axis starts at the smallest task count, is log2 for a sweep, and a
 * single task count is drawn as points.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/report/document.h"
#include "lib/macros.h"

/* What a chart shows of one run: total ops/s (aux < 0) or aux's rate. */
static double run_value(const struct res_point *p, int aux)
{
	if (aux < 0)
		return p->sum.total_ops_per_sec;
	return (unsigned)aux < p->naux ? p->sum.aux_rate[aux] : NAN;
}

static double group_value(const struct rpt_group *g, int aux)
{
	double sum = 0;
	unsigned n = 0;

	for (unsigned r = 0; r < g->nrun; r++) {
		double v = run_value(g->run[r].p, aux);

		if (rpt_ok(g->run[r].p) && isfinite(v))
			sum += v, n++;
	}
	return n ? sum / n : NAN;
}

unsigned rpt_task_axis_flags(const unsigned *tasks, size_t n)
{
	unsigned lo = 0, hi = 0, distinct = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= tasks[j] == tasks[i];
		if (seen || !tasks[i])
			continue;
		distinct++;
		lo = !lo || tasks[i] < lo ? tasks[i] : lo;
		hi = tasks[i] > hi ? tasks[i] : hi;
	}
	if (distinct >= 3 && hi >= 8 * lo)
		return RPT_AX_LOG2;
	return RPT_AX_INT | (distinct > 1 ? RPT_AX_TIGHT : 0);
}

/* One mode's curve: the means, each run's mark, the linear reference. */
static bool mode_curve(struct rpt_chart *c, const struct rpt_set *s, unsigned t,
		       unsigned m, int aux, bool many)
{
	double tasks[256], v[256], lin[256];
	struct rpt_series *line, *dots = NULL, *ref = NULL;
	char name[160];
	size_t n = 0;
	bool linear = false;

	for (unsigned i = 0; i < s->ng && n < 256; i++) {
		const struct rpt_group *g = &s->g[i];

		if (g->test_idx != t || g->mode_idx != m || !g->nok)
			continue;
		tasks[n] = g->tasks;
		v[n++] = group_value(g, aux);
	}
	if (!n)
		return false;
	line = rpt_chart_series(c, s->mode[m], n == 1 ? RPT_POINTS : RPT_LINESPOINTS, m);
	if (many) {
		snprintf(name, sizeof(name), "%s runs", s->mode[m]);
		dots = rpt_chart_series(c, name, RPT_POINTS, m);
	}
	if (n > 1) {
		snprintf(name, sizeof(name), "%s linear", s->mode[m]);
		ref = rpt_chart_series(c, name, RPT_REFERENCE, m);
	}
	if (ref)
		ref->label_end = true;   /* tells them apart in grey */
	linear = ref && rpt_linear(tasks, v, n, lin) == 0;
	for (size_t k = 0; k < n; k++) {
		if (line)
			rpt_series_add(line, tasks[k], v[k], NAN, NAN);
		if (linear)
			rpt_series_add(ref, tasks[k], lin[k], NAN, NAN);
	}
	for (unsigned i = 0; dots && i < s->ng; i++) {
		const struct rpt_group *g = &s->g[i];

		for (unsigned r = 0; g->test_idx == t && g->mode_idx == m && r < g->nrun; r++)
			if (rpt_ok(g->run[r].p))
				rpt_series_add(dots, g->tasks, run_value(g->run[r].p, aux),
					       NAN, NAN);
	}
	return linear;
}

/* The chart of total ops/s (aux < 0) or of aux counter @aux; false when
 * no figure could be opened (ENOMEM, in d->err). */
static bool scal_chart(struct rpt_doc *d, const struct rpt_set *s, unsigned t,
		       int aux, const struct res_point *first)
{
	unsigned tasks[512];
	size_t nt = 0;
	bool many = false, linear = false;
	struct rpt_chart *c;
	char title[512];

	for (unsigned i = 0; i < s->ng; i++)
		if (s->g[i].test_idx == t) {
			many |= s->g[i].nok > 1;
			if (s->g[i].nok && nt < 512)
				tasks[nt++] = s->g[i].tasks;
		}
	if (aux < 0)
		snprintf(title, sizeof(title), "%s: total ops/s against tasks", s->test[t]);
	else
		snprintf(title, sizeof(title), "%s: %s (%s) against tasks", s->test[t],
			 first->aux_unit[aux], first->aux_name[aux]);
	c = rpt_figure(d, title, 760, 400);
	if (!c)
		return false;
	c->key_rows = many ? 3 : 2;   /* a column per mode */
	snprintf(c->x.label, sizeof(c->x.label), "tasks");
	if (aux < 0)
		snprintf(c->y.label, sizeof(c->y.label), "total ops/s (all tasks)");
	else
		snprintf(c->y.label, sizeof(c->y.label), "%s, all tasks (%s)",
			 first->aux_unit[aux], first->aux_name[aux]);
	for (unsigned m = 0; m < s->nmode; m++)
		linear |= mode_curve(c, s, t, m, aux, many);
	rpt_chart_fit(c, rpt_task_axis_flags(tasks, nt), RPT_AX_ZERO);
	fprintf(d->out, "<p class=\"note\">%s%s%s</p>\n", linear ?
		"Dotted: linear scaling from 1 task, N &#215; the value at 1 task, "
		"as will-it-scale plots it." : "No linear line: no run with 1 task "
		"and another task count.",
		many ? " Small marks: each run; the line joins their means." : "",
		c->x.log2 ? " The task axis is log2." : "");
	return true;
}

/* The table behind the ops chart: per mode and task count. */
static void scal_table(struct rpt_doc *d, const struct rpt_set *s, unsigned t)
{
	static const char *const head[] = {
		"mode", "tasks", "ok runs", "total ops/s, mean", "lowest run",
		"highest run", "linear: N x ops(1)", "mean / linear",
	};
	FILE *o = d->out;

	fprintf(o, "<table>\n<tr>");
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		rpt_th(o, head[i]);
	fprintf(o, "</tr>\n");
	for (unsigned m = 0; m < s->nmode; m++) {
		double one = NAN;

		for (unsigned i = 0; i < s->ng; i++)
			if (s->g[i].test_idx == t && s->g[i].mode_idx == m &&
			    s->g[i].tasks == 1 && s->g[i].nok)
				one = group_value(&s->g[i], -1);
		for (unsigned i = 0; i < s->ng; i++) {
			const struct rpt_group *g = &s->g[i];
			double lo = INFINITY, hi = -INFINITY, mean = group_value(g, -1);

			if (g->test_idx != t || g->mode_idx != m)
				continue;
			for (unsigned r = 0; r < g->nrun; r++)
				if (rpt_ok(g->run[r].p)) {
					lo = fmin(lo, g->run[r].p->sum.total_ops_per_sec);
					hi = fmax(hi, g->run[r].p->sum.total_ops_per_sec);
				}
			fprintf(o, "<tr>");
			rpt_td(o, g->mode);
			fprintf(o, "<td class=\"n\">%u</td><td class=\"n\">%u</td>",
				g->tasks, g->nok);
			rpt_td_num(o, mean, 0);
			rpt_td_num(o, lo, 0);
			rpt_td_num(o, hi, 0);
			rpt_td_num(o, g->tasks * one, 0);
			rpt_td_num(o, mean / (g->tasks * one), 3);
			fprintf(o, "</tr>\n");
		}
	}
	fprintf(o, "</table>\n");
}

/* The aux chart's table: the mean rate per mode and task count. */
static void aux_table(struct rpt_doc *d, const struct rpt_set *s, unsigned t, int aux,
		      const struct res_point *first)
{
	FILE *o = d->out;
	char h[160];

	fprintf(o, "<table>\n<tr>");
	rpt_th(o, "mode");
	rpt_th(o, "tasks");
	rpt_th(o, "ok runs");
	snprintf(h, sizeof(h), "%s, mean", first->aux_unit[aux]);
	rpt_th(o, h);
	fprintf(o, "</tr>\n");
	for (unsigned i = 0; i < s->ng; i++) {
		const struct rpt_group *g = &s->g[i];

		if (g->test_idx != t)
			continue;
		fprintf(o, "<tr>");
		rpt_td(o, g->mode);
		fprintf(o, "<td class=\"n\">%u</td><td class=\"n\">%u</td>", g->tasks, g->nok);
		rpt_td_num(o, group_value(g, aux), 1);
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n");
}

void rpt_scalability(struct rpt_doc *d, const struct rpt_set *s, unsigned t)
{
	const struct res_point *first = NULL;

	for (unsigned i = 0; i < s->ng && !first; i++)
		for (unsigned r = 0; s->g[i].test_idx == t && r < s->g[i].nrun && !first; r++)
			if (rpt_ok(s->g[i].run[r].p))
				first = s->g[i].run[r].p;
	if (!scal_chart(d, s, t, -1, first))
		return;
	rpt_figure_table(d);
	scal_table(d, s, t);
	rpt_figure_end(d);
	for (unsigned k = 0; first && k < first->naux; k++) {
		if (!scal_chart(d, s, t, (int)k, first))
			return;
		rpt_figure_table(d);
		aux_table(d, s, t, (int)k, first);
		rpt_figure_end(d);
	}
}
