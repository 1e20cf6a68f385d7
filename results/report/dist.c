/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dist.c - the per-task figure of a point with many tasks. Above
 * RPT_TASK_BARS tasks a bar per task is unreadable and the table behind
 * it long: the figure becomes the distribution, each run's per-task ops/s
 * sorted from the slowest to the fastest task as a line (at most
 * RPT_DIST_POINTS points each), with a table of each run's quantiles and
 * its slowest and fastest tasks named. Every task stays in the result.
 * Also the measured rate of one task, which the bar chart uses too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/report/document.h"
#include "lib/macros.h"

double rpt_task_rate(const struct res_point *p, unsigned i)
{
	double el = 0, ops = 0;

	for (unsigned s = 1; s < p->nsamples; s++) {
		if (p->phase[s] != RES_PHASE_MEASURE)
			continue;
		el += (p->t_ns[s] - p->t_ns[s - 1]) / 1e9;
		ops += (double)res_ops(p, i, s);
	}
	return el > 0 ? ops / el : NAN;
}

struct ranked {
	double rate;
	unsigned task;
};

static int by_rate(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->rate, y = ((const struct ranked *)b)->rate;

	return (x > y) - (x < y);
}

/* The finite per-task rates of @p, ascending; their count in *n. */
static struct ranked *ranked_tasks(const struct res_point *p, unsigned *n)
{
	struct ranked *v = calloc(p->ntasks ? p->ntasks : 1, sizeof(*v));

	*n = 0;
	for (unsigned i = 0; v && i < p->ntasks; i++) {
		double r = rpt_task_rate(p, i);

		if (isfinite(r))
			v[(*n)++] = (struct ranked){ r, i };
	}
	if (v)
		qsort(v, *n, sizeof(*v), by_rate);
	return v;
}

/* Value at quantile @q of @n ascending rates (nearest rank). */
static double quantile(const struct ranked *v, unsigned n, double q)
{
	return n ? v[(unsigned)lround(q * (n - 1))].rate : NAN;
}

static void task_cell(FILE *o, const struct res_point *p, const struct ranked *t)
{
	const struct res_task *k = &p->task[t->task];

	fprintf(o, "<td>");
	rpt_html_printf(o, "task %d (%s): %.0f", k->index, k->cpuset ? k->cpuset : "unbound",
			t->rate);
	fprintf(o, "</td>");
}

static void dist_table(struct rpt_doc *d, const struct rpt_run *const *v,
		       const char (*label)[64], struct ranked **rk,
		       const unsigned *nr, unsigned n)
{
	static const char *const head[] = {
		"run", "tasks", "slowest", "10%", "median", "90%", "fastest",
		"slowest task (cpuset): ops/s", "fastest task (cpuset): ops/s",
	};
	FILE *o;

	rpt_figure_table(d);
	o = d->out;
	rpt_table_head(o, head, ARRAY_SIZE(head));
	for (unsigned r = 0; r < n; r++) {
		fprintf(o, "<tr>");
		rpt_td(o, label[r]);
		fprintf(o, "<td class=\"n\">%u</td>", v[r]->p->ntasks);
		rpt_td_num(o, quantile(rk[r], nr[r], 0), 0);
		rpt_td_num(o, quantile(rk[r], nr[r], 0.1), 0);
		rpt_td_num(o, quantile(rk[r], nr[r], 0.5), 0);
		rpt_td_num(o, quantile(rk[r], nr[r], 0.9), 0);
		rpt_td_num(o, quantile(rk[r], nr[r], 1), 0);
		if (nr[r]) {
			task_cell(o, v[r]->p, &rk[r][0]);
			task_cell(o, v[r]->p, &rk[r][nr[r] - 1]);
		} else {
			fprintf(o, "<td>-</td><td>-</td>");
		}
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n");
}

void rpt_task_dist(struct rpt_doc *d, const struct rpt_group *g,
		   const struct rpt_run *const *v, const char (*label)[64],
		   unsigned n)
{
	struct ranked *rk[RPT_MAX_SERIES] = { 0 };
	unsigned nr[RPT_MAX_SERIES] = { 0 };
	struct rpt_chart *c;
	char title[512];

	snprintf(title, sizeof(title),
		 "%s, %s, %u tasks: ops/s of each task, slowest to fastest",
		 g->test, g->mode, g->tasks);
	c = rpt_figure(d, title, 600, 340);
	if (!c)
		return;
	snprintf(c->x.label, sizeof(c->x.label), "tasks ranked by ops/s (%% of the tasks)");
	snprintf(c->y.label, sizeof(c->y.label), "ops/s of one task (measured)");
	for (unsigned r = 0; r < n && r < RPT_MAX_SERIES; r++) {
		struct rpt_series *line;
		unsigned step;

		rk[r] = ranked_tasks(v[r]->p, &nr[r]);
		line = rpt_chart_series(c, n == 1 ? "ops/s" : label[r], RPT_LINES, r);
		if (!rk[r] || !line || !nr[r])
			continue;
		step = (nr[r] + RPT_DIST_POINTS - 1) / RPT_DIST_POINTS;
		for (unsigned i = 0; i < nr[r]; i += step)
			rpt_series_add(line, nr[r] > 1 ? 100.0 * i / (nr[r] - 1) : 0,
				       rk[r][i].rate, NAN, NAN);
		if ((nr[r] - 1) % step)     /* the fastest always ends the line */
			rpt_series_add(line, 100.0, rk[r][nr[r] - 1].rate, NAN, NAN);
	}
	rpt_chart_fit(c, 0, RPT_AX_ZERO);
	fprintf(d->out, "<p class=\"note\">More than %d tasks: each run's tasks are drawn "
		"sorted by their ops/s; a flat line is a fair split. The table names the "
		"slowest and fastest task of each run; every task is in the result file.</p>\n",
		RPT_TASK_BARS);
	if (n < g->nok)
		fprintf(d->out, "<p class=\"note\">The first %u of %u runs are drawn.</p>\n",
			n, g->nok);
	dist_table(d, v, label, rk, nr, n);
	rpt_figure_end(d);
	for (unsigned r = 0; r < n && r < RPT_MAX_SERIES; r++)
		free(rk[r]);
}
