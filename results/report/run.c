/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - the report of one or more result files: the points of
 * all files grouped by (test, mode, tasks), their runs pooled; the page's
 * outline (the answer first: the title, warnings and the summary table
 * with its notes fit the first screen; the contents and the environment,
 * folded, follow), the summary table, and per test the scalability curve (total
 * ops/s against tasks, each run a dot, the linear line N x ops(1) as
 * will-it-scale draws it). The environment and warnings are in
 * results/report/env.c, each group's own section in results/report/point.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/model/disturb.h"
#include "results/report/document.h"
#include "lib/macros.h"

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

/* The run table's min task / max task: the extreme over the ok runs;
 * and its rcov%: the CoV of total ops/s across them. */
static double runs_extreme(const struct rpt_group *g, bool max)
{
	double v = NAN;

	for (unsigned r = 0; r < g->nrun; r++) {
		const struct res_point *p = g->run[r].p;
		double x = max ? p->sum.max_task_ops_per_sec : p->sum.min_task_ops_per_sec;

		if (rpt_ok(p) && isfinite(x) && (isnan(v) || (max ? x > v : x < v)))
			v = x;
	}
	return v;
}

static double runs_cov(const struct rpt_group *g)
{
	double tot[512];
	size_t n = 0;

	for (unsigned r = 0; r < g->nrun && n < 512; r++)
		if (rpt_ok(g->run[r].p))
			tot[n++] = g->run[r].p->sum.total_ops_per_sec;
	return n > 1 ? res_cov_pct(tot, n) : NAN;
}

static bool cg_flagged(const struct res_point *p)
{
	struct json_object *f = rpt_json_path(p->extra, "cgroup.flagged");

	return f && json_object_get_boolean(f);
}

/* Append one note and its "; " to @buf. */
__attribute__((format(printf, 3, 4)))
static void note(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	used = strlen(buf);
	snprintf(buf + used, len - used, "; ");
}

/* The notes of @g, as `cgscale run` words them, "; " between. */
static void group_notes(const struct rpt_group *g, char *buf, size_t len)
{
	unsigned bad = 0, cg = 0, silent = 0, silent_runs = 0, dist;
	const struct res_point *first_bad = NULL;
	bool over = false;
	char why[256];
	size_t n;

	buf[0] = 0;
	for (unsigned r = 0; r < g->nrun; r++) {
		const struct res_point *p = g->run[r].p;
		unsigned k = rpt_ok(p) ? res_silent_tasks(p) : 0;

		over |= p->oversubscribed;
		cg += cg_flagged(p);
		silent_runs += k > 0;
		silent = k > silent ? k : silent;
		if (!rpt_ok(p) && !bad++)
			first_bad = p;
	}
	dist = rpt_disturbed_runs(g, why, sizeof(why));
	if (bad)
		note(buf, len, "%u of %u runs %s: %s", bad, g->nrun,
			res_status_names[first_bad->status],
			first_bad->reason ? first_bad->reason : "no reason recorded");
	if (dist)
		note(buf, len, "%u of %u runs disturbed (compare leaves them out), e.g. %s",
			dist, g->nrun, why);
	if (cg)
		note(buf, len, "%u run(s) with cgroup memory events (see the cgroup section)", cg);
	if (silent)
		note(buf, len, "%u task%s did no op in the window (in %u of %u runs)",
			silent, silent > 1 ? "s" : "", silent_runs, g->nrun);
	if (over)
		note(buf, len, "oversubscribed");
	n = strlen(buf);
	if (n >= 2 && !strcmp(buf + n - 2, "; "))
		buf[n - 2] = 0;
}

static void summary(struct rpt_doc *d, const struct rpt_set *s)
{
	/* the columns of `cgscale run`'s table, then the report's own */
	static const char *const head[] = {
		"test", "mode", "tasks", "ok/runs", "total ops/s", "per-task ops/s",
		"min task", "max task", "icov %", "rcov %", "idle %", "steal %",
		"task CoV %", "scalability", "notes",
	};
	FILE *o = d->out;
	char notes[1024], why[8];

	fprintf(o, "<h2 id=\"summary\">Summary</h2>\n<table id=\"summary-table\">\n<tr>");
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		rpt_th(o, head[i]);
	fprintf(o, "</tr>\n");
	for (unsigned i = 0; i < s->ng; i++) {
		const struct rpt_group *g = &s->g[i];

		group_notes(g, notes, sizeof(notes));
		fprintf(o, "<tr%s><td><a href=\"#%s\">", g->nok < g->nrun ? " class=\"bad\"" :
			rpt_disturbed_runs(g, why, sizeof(why)) ? " class=\"disturbed\"" : "",
			g->id);
		rpt_html_puts(o, g->test);
		fprintf(o, "</a></td>");
		rpt_td(o, g->mode);
		fprintf(o, "<td class=\"n\">%u</td><td class=\"n\">%u/%u</td>", g->tasks,
			g->nok, g->nrun);
		rpt_td_num(o, GMEAN(g, total_ops_per_sec), 0);
		rpt_td_num(o, GMEAN(g, per_task_ops_per_sec), 0);
		rpt_td_num(o, runs_extreme(g, false), 0);
		rpt_td_num(o, runs_extreme(g, true), 0);
		rpt_td_num(o, GMEAN(g, interval_cov_pct), 1);
		rpt_td_num(o, runs_cov(g), 1);
		rpt_td_num(o, GMEAN(g, idle_pct), 1);
		rpt_td_num(o, GMEAN(g, steal_pct), 1);
		rpt_td_num(o, GMEAN(g, task_cov_pct), 1);
		rpt_td_num(o, GMEAN(g, scalability), 2);
		rpt_td(o, notes);
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n<p class=\"facts\">The table of <code>cgscale run</code>: "
		   "means over the ok runs (disturbed ones too; compare leaves those "
		   "out), but min task and max task are the slowest and the fastest "
		   "task of any run, icov %% the spread of total ops/s across a run's "
		   "intervals and rcov %% across the runs. Per-task ops/s is LKP's "
		   "per_process_ops (process mode) or per_thread_ops (thread mode); "
		   "task CoV %% is the spread across tasks; scalability is total(N) / "
		   "(N &#215; total(1)), 1.0 being perfect.</p>\n");
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

	fprintf(o, "<nav>\n<ul>\n<li><a href=\"#summary\">Summary</a></li>\n"
		   "<li><a href=\"#env\">Environment</a></li>\n");
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
	if (s.ng)
		qsort(s.g, s.ng, sizeof(*s.g), group_cmp);
	for (unsigned i = 0; i < s.ng; i++)
		rpt_doc_id(d, "p", s.g[i].id, sizeof(s.g[i].id));

	fprintf(d->out, "<h1>cgscale report</h1>\n<p class=\"sub\">");
	rpt_html_printf(d->out, "%u result file%s, %u points of %u test%s: ", n,
			n == 1 ? "" : "s", npoints, s.ntest, s.ntest == 1 ? "" : "s");
	for (unsigned t = 0; t < s.ntest; t++)
		rpt_html_printf(d->out, "%s%s", t ? ", " : "", s.test[t]);
	fprintf(d->out, ".");
	rpt_env_line(d, &s);
	fprintf(d->out, "</p>\n");
	rpt_doc_status(d);
	rpt_warnings(d, &s);
	summary(d, &s);
	contents(d, &s);
	rpt_env_table(d, &s);
	for (unsigned t = 0; t < s.ntest; t++) {
		test_heading(d, &s, t);
		rpt_scalability(d, &s, t);
		for (unsigned i = 0; i < s.ng; i++)
			if (s.g[i].test_idx == t)
				rpt_group_section(d, &s, &s.g[i]);
	}
out:
	set_free(&s);
	return rc ? rc : d->err;
}
