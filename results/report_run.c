/*
 * report_run.c - the report of one or more result files: the points of
 * all files grouped by (test, mode, tasks), their runs pooled; a header
 * with the environment of each file (rows that differ are marked), the
 * warnings a reader must see first, the summary table, and per test the
 * scalability curve (total ops/s against tasks, each run a dot, the
 * linear line N x ops(1) as will-it-scale draws it). Each group's own
 * section is in report_point.c.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "../tests/workload.h"
#include "report.h"

void rpt_run_label(const struct rpt_set *s, const struct rpt_run *r,
		   char *buf, size_t len)
{
	if (s->nin > 1)
		snprintf(buf, len, "file %u run %u", r->file + 1, r->p->run + 1);
	else
		snprintf(buf, len, "run %u", r->p->run + 1);
}

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

/* ---- the environment ---- */

enum env_kind { E_PATH, E_TOOL, E_TIME, E_COMPLETE, E_JSON, E_TOPO, E_TMPDIR,
		E_CGROUP, E_CMDLINE };

static const struct env_row {
	const char *label;
	enum env_kind kind;
	const char *path;      /* E_JSON: kernel.x, machine.x, environment.x */
} env_rows[] = {
	{ "result file", E_PATH, NULL },
	{ "cgscale", E_TOOL, NULL },
	{ "time (UTC)", E_TIME, NULL },
	{ "complete", E_COMPLETE, NULL },
	{ "kernel", E_JSON, "kernel.release" },
	{ "kernel build", E_JSON, "kernel.version" },
	{ "kernel command line", E_JSON, "kernel.cmdline" },
	{ "host", E_JSON, "machine.hostname" },
	{ "CPU", E_JSON, "machine.cpu_model" },
	{ "online CPUs", E_JSON, "machine.online_cpus" },
	{ "topology", E_TOPO, NULL },
	{ "THP enabled", E_JSON, "kernel.thp.enabled" },
	{ "THP defrag", E_JSON, "kernel.thp.defrag" },
	{ "THP shmem", E_JSON, "kernel.thp.shmem_enabled" },
	{ "tmpdir", E_TMPDIR, NULL },
	{ "cgroup layout", E_CGROUP, NULL },
	{ "cpufreq governor", E_JSON, "environment.governor.status" },
	{ "ASLR", E_JSON, "environment.aslr" },
	{ "sched_autogroup", E_JSON, "kernel.sched_autogroup_enabled" },
	{ "NUMA balancing", E_JSON, "kernel.numa_balancing" },
	{ "perf_event_paranoid", E_JSON, "kernel.perf_event_paranoid" },
	{ "command line", E_CMDLINE, NULL },
};

static struct json_object *file_json(const struct res_file *f, const char *path)
{
	size_t n = strcspn(path, ".");
	struct json_object *top = NULL;

	if (!strncmp(path, "kernel", n))
		top = f->kernel;
	else if (!strncmp(path, "machine", n))
		top = f->machine;
	else if (!strncmp(path, "environment", n))
		top = f->environment;
	return rpt_json_path(top, path[n] ? path + n + 1 : "");
}

static void jtext(const struct res_file *f, const char *path, char *buf,
		  size_t len)
{
	rpt_json_text(file_json(f, path), buf, len);
}

/* Distinct cgroup layouts of the file's points, "" when none. */
static void cgroup_layouts(const struct res_file *f, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < f->npoints && o < len - 1; i++) {
		struct json_object *c = rpt_json_path(f->points[i].extra, "cgroup");
		struct json_object *l = rpt_json_path(c, "layout");
		const char *s;

		if (!c)
			continue;
		if (json_object_is_type(c, json_type_string))
			s = json_object_get_string(c);
		else if (l && json_object_is_type(l, json_type_string))
			s = json_object_get_string(l);
		else
			s = json_object_to_json_string_ext(c, JSON_C_TO_STRING_PLAIN);
		if (strstr(buf, s))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "; " : "", s);
	}
}

static void env_value(const struct env_row *r, const struct rpt_input *in,
		      char *buf, size_t len)
{
	const struct res_file *f = &in->res;
	char a[256], b[256], c[256], d2[256], e[256], g[256], h[256];

	switch (r->kind) {
	case E_PATH:
		snprintf(buf, len, "%s", in->path);
		break;
	case E_TOOL:
		snprintf(buf, len, "%s (git %s), schema %d",
			 f->tool_version ? f->tool_version : "?",
			 f->git ? f->git : "?", f->schema_version);
		break;
	case E_TIME:
		snprintf(buf, len, "%s to %s", f->start_time ? f->start_time : "?",
			 f->end_time ? f->end_time : "?");
		break;
	case E_COMPLETE:
		snprintf(buf, len, "%s%s", f->complete ? "yes" : "no, interrupted: ",
			 f->complete ? "" : (f->interrupted ? f->interrupted : "?"));
		break;
	case E_JSON:
		jtext(f, r->path, buf, len);
		break;
	case E_TOPO:
		jtext(f, "machine.topology.packages", a, sizeof(a));
		jtext(f, "machine.topology.numa_nodes", b, sizeof(b));
		jtext(f, "machine.topology.cores", c, sizeof(c));
		jtext(f, "machine.topology.pus", d2, sizeof(d2));
		jtext(f, "machine.topology.llcs", e, sizeof(e));
		jtext(f, "machine.topology.cores_per_llc", g, sizeof(g));
		jtext(f, "machine.topology.smt", h, sizeof(h));
		snprintf(buf, len, "packages %s, NUMA nodes %s, cores %s, PUs %s, "
			 "LLCs %s (%s cores each), SMT %s", a, b, c, d2, e, g,
			 !strcmp(h, "yes") ? "on" : !strcmp(h, "no") ? "off" : h);
		break;
	case E_TMPDIR:
		jtext(f, "environment.tmpdir.path", a, sizeof(a));
		jtext(f, "environment.tmpdir.fstype", b, sizeof(b));
		jtext(f, "environment.tmpdir.mount_options", c, sizeof(c));
		snprintf(buf, len, "%s (%s, %s)", a, b, c);
		break;
	case E_CGROUP:
		cgroup_layouts(f, buf, len);
		if (!buf[0])
			snprintf(buf, len, "none recorded: the tasks ran in the cgroup "
				 "cgscale was started in");
		break;
	case E_CMDLINE: {
		size_t o = 0, n = f->command_line ?
			json_object_array_length(f->command_line) : 0;

		buf[0] = 0;
		for (size_t i = 0; i < n && o < len - 1; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "",
				json_object_get_string(
					json_object_array_get_idx(f->command_line, i)));
		break;
	}
	}
}

static void env_table(struct rpt_doc *d, const struct rpt_set *s)
{
	FILE *o = d->out;
	char *v0 = malloc(4096), *v = malloc(4096);

	if (!v0 || !v)
		goto out;
	fprintf(o, "<h2 id=\"env\">Environment</h2>\n<table>\n");
	if (s->nin > 1) {
		fprintf(o, "<tr><th></th>");
		for (unsigned i = 0; i < s->nin; i++)
			fprintf(o, "<th>file %u</th>", i + 1);
		fprintf(o, "</tr>\n");
	}
	for (size_t r = 0; r < sizeof(env_rows) / sizeof(env_rows[0]); r++) {
		bool differs = false;

		env_value(&env_rows[r], &s->in[0], v0, 4096);
		for (unsigned i = 1; i < s->nin && env_rows[r].kind != E_PATH &&
				     env_rows[r].kind != E_TIME &&
				     env_rows[r].kind != E_CMDLINE; i++) {
			env_value(&env_rows[r], &s->in[i], v, 4096);
			differs |= strcmp(v, v0) != 0;
		}
		fprintf(o, "<tr%s><th>", differs ? " class=\"differs\"" : "");
		rpt_html_puts(o, env_rows[r].label);
		fprintf(o, "%s</th>", differs ? " (differs)" : "");
		for (unsigned i = 0; i < s->nin; i++) {
			env_value(&env_rows[r], &s->in[i], v, 4096);
			fprintf(o, "<td class=\"mono\">");
			rpt_html_puts(o, v);
			fprintf(o, "</td>");
		}
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n");
out:
	free(v0);
	free(v);
}

/* ---- warnings, contents, summary ---- */

static void warnings(struct rpt_doc *d, const struct rpt_set *s)
{
	FILE *o = d->out;
	unsigned bad = 0, steal = 0, over = 0;
	char k0[256], k[256];

	for (unsigned i = 0; i < s->nin; i++) {
		const struct res_file *f = &s->in[i].res;

		if (!f->complete) {
			fprintf(o, "<p class=\"warn\">");
			rpt_html_printf(o, "%s was interrupted (%s): its last points are missing.",
					s->in[i].path, f->interrupted ? f->interrupted : "?");
			fprintf(o, "</p>\n");
		}
		for (unsigned p = 0; p < f->npoints; p++) {
			bad += !rpt_ok(&f->points[p]);
			steal += rpt_ok(&f->points[p]) && f->points[p].sum.steal_pct > 1;
			over += f->points[p].oversubscribed;
		}
	}
	jtext(&s->in[0].res, "kernel.release", k0, sizeof(k0));
	for (unsigned i = 1; i < s->nin; i++) {
		jtext(&s->in[i].res, "kernel.release", k, sizeof(k));
		if (strcmp(k, k0)) {
			fprintf(o, "<p class=\"warn\">These files come from different kernels: "
				   "their runs are pooled here as if they were one. For an A/B "
				   "comparison, use <code>cgscale compare</code>.</p>\n");
			break;
		}
	}
	if (bad)
		fprintf(o, "<p class=\"warn\">%u point%s failed or %s skipped; marked in "
			   "the summary, with the reason in %s section.</p>\n", bad,
			bad == 1 ? "" : "s", bad == 1 ? "was" : "were",
			bad == 1 ? "its" : "their");
	if (steal)
		fprintf(o, "<p class=\"warn\">%u point%s lost more than 1%% of CPU time to "
			   "steal: the machine was shared, and %s figures are lower than "
			   "the kernel can do.</p>\n", steal, steal == 1 ? "" : "s",
			steal == 1 ? "its" : "their");
	if (over)
		fprintf(o, "<p class=\"warn\">%u point%s ran more tasks than places "
			   "(oversubscribed): tasks shared CPUs.</p>\n", over,
			over == 1 ? "" : "s");
}

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
	const struct cgs_workload *w = cgs_workload_find(s->test[t]);

	fprintf(d->out, "<h2 id=\"t%u\">", t + 1);
	rpt_html_puts(d->out, s->test[t]);
	fprintf(d->out, "</h2>\n");
	if (w) {
		fprintf(d->out, "<p>");
		rpt_html_printf(d->out, "%s; one op = one %s.", w->desc, w->unit);
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

int rpt_build_runs(struct rpt_doc *d, const struct rpt_input *in, unsigned n)
{
	struct rpt_set s = { .in = in, .nin = n };
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
	warnings(d, &s);
	contents(d, &s);
	env_table(d, &s);
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
