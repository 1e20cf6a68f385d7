/*
 * report_run.c - the report of one or more result files: the points of
 * all files grouped by (test, mode, tasks), their runs pooled; the page's
 * outline, the summary table, and per test the scalability curve (total
 * ops/s against tasks, each run a dot, the linear line N x ops(1) as
 * will-it-scale draws it). The environment and warnings are in
 * report_env.c, each group's own section in report_point.c.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static unsigned intern(const char ***v, unsigned *n, const char *s, int *rc)
{
	const char **nv;

	for (unsigned i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return i;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		*rc = -ENOMEM;
		return 0;
	}
	*v = nv;
	nv[*n] = s;
	return (*n)++;
}

static int group_cmp(const void *a, const void *b)
{
	const struct rpt_group *x = a, *y = b;

	if (x->test_idx != y->test_idx)
		return x->test_idx < y->test_idx ? -1 : 1;
	if (x->mode_idx != y->mode_idx)
		return x->mode_idx < y->mode_idx ? -1 : 1;
	return x->tasks < y->tasks ? -1 : x->tasks > y->tasks;
}

static int add_run(struct rpt_set *s, const struct res_point *p, unsigned file)
{
	unsigned t, m, k;
	struct rpt_run *nr;
	int rc = 0;

	t = intern(&s->test, &s->ntest, p->test ? p->test : "?", &rc);
	m = intern(&s->mode, &s->nmode, p->mode ? p->mode : "?", &rc);
	if (rc)
		return rc;
	for (k = 0; k < s->ng; k++)
		if (s->g[k].test_idx == t && s->g[k].mode_idx == m &&
		    s->g[k].tasks == p->tasks)
			break;
	if (k == s->ng) {
		struct rpt_group *ng = realloc(s->g, (s->ng + 1) * sizeof(*ng));

		if (!ng)
			return -ENOMEM;
		s->g = ng;
		memset(&ng[k], 0, sizeof(ng[k]));
		ng[k].test = s->test[t];
		ng[k].mode = s->mode[m];
		ng[k].tasks = p->tasks;
		ng[k].test_idx = t;
		ng[k].mode_idx = m;
		s->ng++;
	}
	nr = realloc(s->g[k].run, (s->g[k].nrun + 1) * sizeof(*nr));
	if (!nr)
		return -ENOMEM;
	s->g[k].run = nr;
	nr[s->g[k].nrun++] = (struct rpt_run){ p, file };
	s->g[k].nok += rpt_ok(p);
	return 0;
}

static void set_free(struct rpt_set *s)
{
	for (unsigned i = 0; i < s->ng; i++)
		free(s->g[i].run);
	free(s->g);
	free(s->test);
	free(s->mode);
}

/* ---- contents, summary ---- */

static double mean_of(const struct rpt_group *g, size_t off)
{
	double sum = 0;
	unsigned n = 0;

	for (unsigned r = 0; r < g->nrun; r++) {
		const struct res_point *p = g->run[r].p;
		double v = *(const double *)((const char *)&p->sum + off);

		if (rpt_ok(p) && isfinite(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / n : NAN;
}
#define GMEAN(g, field) mean_of(g, offsetof(struct res_summary, field))

static void summary(struct rpt_doc *d, const struct rpt_set *s)
{
	static const char *const head[] = {
		"test", "mode", "tasks", "ok/runs", "total ops/s", "per-task ops/s",
		"slowest task", "fastest task", "task CoV %", "interval CoV %",
		"idle %", "steal %", "scalability", "notes",
	};
	FILE *o = d->out;

	fprintf(o, "<h2 id=\"summary\">Summary</h2>\n<p>Means over the ok runs. "
		   "Per-task ops/s is LKP's per_process_ops (process mode) or "
		   "per_thread_ops (thread mode); scalability is total(N) / (N &#215; "
		   "total(1)), 1.0 being perfect.</p>\n<table>\n<tr>");
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		rpt_th(o, head[i]);
	fprintf(o, "</tr>\n");
	for (unsigned i = 0; i < s->ng; i++) {
		const struct rpt_group *g = &s->g[i];
		const char *why = NULL;
		bool over = false;

		for (unsigned r = 0; r < g->nrun; r++) {
			over |= g->run[r].p->oversubscribed;
			if (!rpt_ok(g->run[r].p) && !why)
				why = g->run[r].p->status;
		}
		fprintf(o, "<tr%s><td><a href=\"#%s\">", g->nok < g->nrun ?
			" class=\"bad\"" : "", g->id);
		rpt_html_puts(o, g->test);
		fprintf(o, "</a></td>");
		rpt_td(o, g->mode);
		fprintf(o, "<td class=\"n\">%u</td><td class=\"n\">%u/%u</td>", g->tasks,
			g->nok, g->nrun);
		rpt_td_num(o, GMEAN(g, total_ops_per_sec), 0);
		rpt_td_num(o, GMEAN(g, per_task_ops_per_sec), 0);
		rpt_td_num(o, GMEAN(g, min_task_ops_per_sec), 0);
		rpt_td_num(o, GMEAN(g, max_task_ops_per_sec), 0);
		rpt_td_num(o, GMEAN(g, task_cov_pct), 1);
		rpt_td_num(o, GMEAN(g, interval_cov_pct), 1);
		rpt_td_num(o, GMEAN(g, idle_pct), 1);
		rpt_td_num(o, GMEAN(g, steal_pct), 1);
		rpt_td_num(o, GMEAN(g, scalability), 2);
		fprintf(o, "<td>");
		if (why)
			rpt_html_printf(o, "%s ", why);
		if (over)
			fprintf(o, "oversubscribed");
		fprintf(o, "</td></tr>\n");
	}
	fprintf(o, "</table>\n");
}

/* ---- per test: the scalability curve ---- */

static void scalability(struct rpt_doc *d, const struct rpt_set *s, unsigned t)
{
	struct rpt_chart *c;
	FILE *o;
	char title[512], name[160];
	bool many = false, linear = false;

	for (unsigned i = 0; i < s->ng; i++)
		many |= s->g[i].test_idx == t && s->g[i].nok > 1;
	snprintf(title, sizeof(title), "%s: total ops/s against tasks", s->test[t]);
	c = rpt_figure(d, title, 760, 400);
	if (!c)
		return;
	c->key_rows = many ? 3 : 2;   /* a column per mode */
	snprintf(c->x.label, sizeof(c->x.label), "tasks");
	snprintf(c->y.label, sizeof(c->y.label), "total ops/s (all tasks)");
	for (unsigned m = 0; m < s->nmode; m++) {
		double tasks[256], ops[256], lin[256];
		struct rpt_series *line, *dots = NULL, *ref;
		size_t n = 0;

		for (unsigned i = 0; i < s->ng && n < 256; i++) {
			const struct rpt_group *g = &s->g[i];

			if (g->test_idx != t || g->mode_idx != m || !g->nok)
				continue;
			tasks[n] = g->tasks;
			ops[n++] = GMEAN(g, total_ops_per_sec);
		}
		if (!n)
			continue;
		line = rpt_chart_series(c, s->mode[m], RPT_LINESPOINTS, m);
		if (many) {
			snprintf(name, sizeof(name), "%s runs", s->mode[m]);
			dots = rpt_chart_series(c, name, RPT_POINTS, m);
		}
		snprintf(name, sizeof(name), "%s linear", s->mode[m]);
		ref = rpt_chart_series(c, name, RPT_REFERENCE, m);
		if (ref)
			ref->label_end = true;   /* tells them apart in grey */
		linear |= rpt_linear(tasks, ops, n, lin) == 0;
		for (size_t k = 0; k < n; k++) {
			if (line)
				rpt_series_add(line, tasks[k], ops[k], NAN, NAN);
			if (ref)
				rpt_series_add(ref, tasks[k], lin[k], NAN, NAN);
		}
		for (unsigned i = 0; dots && i < s->ng; i++) {
			const struct rpt_group *g = &s->g[i];

			for (unsigned r = 0; g->test_idx == t && g->mode_idx == m &&
					     r < g->nrun; r++)
				if (rpt_ok(g->run[r].p))
					rpt_series_add(dots, g->tasks,
						       g->run[r].p->sum.total_ops_per_sec,
						       NAN, NAN);
		}
	}
	rpt_chart_fit(c, RPT_AX_ZERO | RPT_AX_INT, RPT_AX_ZERO);
	fprintf(d->out, "<p class=\"note\">%s%s</p>\n", linear ?
		"Dotted: linear scaling from 1 task, N &#215; total ops/s at 1 task, "
		"as will-it-scale plots it." : "No linear line: no run with 1 task.",
		many ? " Small marks: each run; the line joins their means." : "");
	rpt_figure_table(d);
	o = d->out;
	fprintf(o, "<table>\n<tr>");
	rpt_th(o, "mode");
	rpt_th(o, "tasks");
	rpt_th(o, "ok runs");
	rpt_th(o, "total ops/s, mean");
	rpt_th(o, "lowest run");
	rpt_th(o, "highest run");
	rpt_th(o, "linear: N x ops(1)");
	rpt_th(o, "mean / linear");
	fprintf(o, "</tr>\n");
	for (unsigned m = 0; m < s->nmode; m++) {
		double one = NAN;

		for (unsigned i = 0; i < s->ng; i++)
			if (s->g[i].test_idx == t && s->g[i].mode_idx == m &&
			    s->g[i].tasks == 1 && s->g[i].nok)
				one = GMEAN(&s->g[i], total_ops_per_sec);
		for (unsigned i = 0; i < s->ng; i++) {
			const struct rpt_group *g = &s->g[i];
			double lo = INFINITY, hi = -INFINITY, mean, lin;

			if (g->test_idx != t || g->mode_idx != m)
				continue;
			for (unsigned r = 0; r < g->nrun; r++)
				if (rpt_ok(g->run[r].p)) {
					lo = fmin(lo, g->run[r].p->sum.total_ops_per_sec);
					hi = fmax(hi, g->run[r].p->sum.total_ops_per_sec);
				}
			mean = GMEAN(g, total_ops_per_sec);
			lin = g->tasks * one;
			fprintf(o, "<tr>");
			rpt_td(o, g->mode);
			fprintf(o, "<td class=\"n\">%u</td><td class=\"n\">%u</td>",
				g->tasks, g->nok);
			rpt_td_num(o, mean, 0);
			rpt_td_num(o, lo, 0);
			rpt_td_num(o, hi, 0);
			rpt_td_num(o, lin, 0);
			rpt_td_num(o, mean / lin, 3);
			fprintf(o, "</tr>\n");
		}
	}
	fprintf(o, "</table>\n");
	rpt_figure_end(d);
}

static void test_heading(struct rpt_doc *d, const struct rpt_set *s, unsigned t)
{
	char buf[512];
	const char *what = s->describe ? s->describe(s->test[t], buf, sizeof(buf)) : NULL;

	fprintf(d->out, "<h2 id=\"t%u\">", t + 1);
	rpt_html_puts(d->out, s->test[t]);
	fprintf(d->out, "</h2>\n");
	if (what) {
		fprintf(d->out, "<p>");
		rpt_html_puts(d->out, what);
		fprintf(d->out, "</p>\n");
	}
}

static void contents(struct rpt_doc *d, const struct rpt_set *s)
{
	FILE *o = d->out;

	fprintf(o, "<nav>\n<ul>\n<li><a href=\"#env\">Environment</a></li>\n"
		   "<li><a href=\"#summary\">Summary</a></li>\n");
	for (unsigned t = 0; t < s->ntest; t++) {
		fprintf(o, "<li><a href=\"#t%u\">", t + 1);
		rpt_html_puts(o, s->test[t]);
		fprintf(o, "</a></li>\n");
	}
	fprintf(o, "</ul>\n</nav>\n");
}

int rpt_build_runs(struct rpt_doc *d, const struct rpt_input *in, unsigned n,
		   rpt_describe_fn describe)
{
	struct rpt_set s = { .in = in, .nin = n, .describe = describe };
	unsigned npoints = 0;
	int rc = 0;

	for (unsigned i = 0; i < n && !rc; i++)
		for (unsigned p = 0; p < in[i].res.npoints && !rc; p++) {
			rc = add_run(&s, &in[i].res.points[p], i);
			npoints++;
		}
	if (rc)
		goto out;
	qsort(s.g, s.ng, sizeof(*s.g), group_cmp);
	for (unsigned i = 0; i < s.ng; i++)
		rpt_doc_id(d, "p", s.g[i].id, sizeof(s.g[i].id));

	fprintf(d->out, "<h1>cgscale report</h1>\n<p class=\"sub\">");
	rpt_html_printf(d->out, "%u result file%s, %u points of %u test%s: ", n,
			n == 1 ? "" : "s", npoints, s.ntest, s.ntest == 1 ? "" : "s");
	for (unsigned t = 0; t < s.ntest; t++)
		rpt_html_printf(d->out, "%s%s", t ? ", " : "", s.test[t]);
	fprintf(d->out, ".</p>\n");
	rpt_doc_status(d);
	rpt_warnings(d, &s);
	contents(d, &s);
	rpt_env_table(d, &s);
	summary(d, &s);
	for (unsigned t = 0; t < s.ntest; t++) {
		test_heading(d, &s, t);
		scalability(d, &s, t);
		for (unsigned i = 0; i < s.ng; i++)
			if (s.g[i].test_idx == t)
				rpt_group_section(d, &s, &s.g[i]);
	}
out:
	set_free(&s);
	return rc ? rc : d->err;
}
