/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * env.c - the head of a report: the environment of each result
 * file as one table (a column per file, rows that differ marked), with
 * the cgroup layout taken from the points' cgroup sections, folded below
 * the summary with long values folded to their start; the line under the
 * title with host, kernel and CPUs; and the warnings a reader must see
 * before any figure (interrupted runs, failed points, disturbed runs,
 * steal, oversubscription, files from different kernels).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/model/disturb.h"
#include "results/report/document.h"
#include "lib/macros.h"

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

/* The machine's topology in one line. */
static void topo_text(const struct res_file *f, char *buf, size_t len)
{
	char a[256], b[256], c[256], d2[256], e[256], g[256], h[256];

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
}

/* The temporary directory: path (file system, mount options). */
static void tmpdir_text(const struct res_file *f, char *buf, size_t len)
{
	char a[256], b[256], c[256];

	jtext(f, "environment.tmpdir.path", a, sizeof(a));
	jtext(f, "environment.tmpdir.fstype", b, sizeof(b));
	jtext(f, "environment.tmpdir.mount_options", c, sizeof(c));
	snprintf(buf, len, "%s (%s, %s)", a, b, c);
}

/* The command line, its words joined by spaces. */
static void cmdline_text(const struct res_file *f, char *buf, size_t len)
{
	size_t o = 0, n = f->command_line ?
		json_object_array_length(f->command_line) : 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && o < len - 1; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "",
			json_object_get_string(
				json_object_array_get_idx(f->command_line, i)));
}

static void env_value(const struct env_row *r, const struct rpt_input *in,
		      char *buf, size_t len)
{
	const struct res_file *f = &in->res;

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
		topo_text(f, buf, len);
		break;
	case E_TMPDIR:
		tmpdir_text(f, buf, len);
		break;
	case E_CGROUP:
		cgroup_layouts(f, buf, len);
		if (!buf[0])
			snprintf(buf, len, "none recorded: the tasks ran in the cgroup "
				 "cgscale was started in");
		break;
	case E_CMDLINE:
		cmdline_text(f, buf, len);
		break;
	}
}

/* Beyond this many bytes a value is folded to its start (the kernel
 * command line), so that the table keeps its shape. */
#define ENV_LONG 110

static bool row_differs(const struct env_row *r, const struct rpt_set *s,
			char *v0, char *v, size_t len)
{
	bool differs = false;

	if (r->kind == E_PATH || r->kind == E_TIME || r->kind == E_CMDLINE)
		return false;
	env_value(r, &s->in[0], v0, len);
	for (unsigned i = 1; i < s->nin; i++) {
		env_value(r, &s->in[i], v, len);
		differs |= strcmp(v, v0) != 0;
	}
	return differs;
}

void rpt_env_table(struct rpt_doc *d, const struct rpt_set *s)
{
	FILE *o = d->out;
	char *v0 = malloc(4096), *v = malloc(4096);
	unsigned ndiff = 0;

	if (!v0 || !v)
		goto out;
	for (size_t r = 0; r < ARRAY_SIZE(env_rows); r++)
		ndiff += row_differs(&env_rows[r], s, v0, v, 4096);
	fprintf(o, "<h2 id=\"env\">Environment</h2>\n<details><summary>");
	rpt_html_printf(o, "The %zu fields of %s: kernel, machine, settings, "
			"command line%s", ARRAY_SIZE(env_rows),
			s->nin == 1 ? "the result file" : "each result file",
			ndiff ? "" : " (show them)");
	if (ndiff)
		fprintf(o, "; <b>%u differ between the files</b>, marked", ndiff);
	fprintf(o, "</summary>\n<table>\n");
	if (s->nin > 1) {
		fprintf(o, "<tr><th></th>");
		for (unsigned i = 0; i < s->nin; i++)
			fprintf(o, "<th>file %u</th>", i + 1);
		fprintf(o, "</tr>\n");
	}
	for (size_t r = 0; r < ARRAY_SIZE(env_rows); r++) {
		bool differs = row_differs(&env_rows[r], s, v0, v, 4096);

		fprintf(o, "<tr%s><th>", differs ? " class=\"differs\"" : "");
		rpt_html_puts(o, env_rows[r].label);
		fprintf(o, "%s</th>", differs ? " (differs)" : "");
		for (unsigned i = 0; i < s->nin; i++) {
			env_value(&env_rows[r], &s->in[i], v, 4096);
			rpt_td_long(o, "mono", v, ENV_LONG);
		}
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n</details>\n");
out:
	free(v0);
	free(v);
}

/* @path's value in the first file into @first; returns how many
 * distinct values the files have. */
static unsigned distinct(const struct rpt_set *s, const char *path, char *first,
			 size_t len)
{
	char v[256], w[256];
	unsigned n = 0;

	jtext(&s->in[0].res, path, first, len);
	for (unsigned i = 0; i < s->nin; i++) {
		bool seen = false;

		jtext(&s->in[i].res, path, v, sizeof(v));
		for (unsigned k = 0; k < i && !seen; k++) {
			jtext(&s->in[k].res, path, w, sizeof(w));
			seen = !strcmp(v, w);
		}
		n += !seen;
	}
	return n;
}

void rpt_env_line(struct rpt_doc *d, const struct rpt_set *s)
{
	static const struct { const char *one, *many, *path; } f[] = {
		{ "host %s", "%u hosts", "machine.hostname" },
		{ "kernel %s", "%u kernels", "kernel.release" },
		{ "%s online CPUs", "%u CPU counts", "machine.online_cpus" },
		{ "%s", "%u CPU models", "machine.cpu_model" },
	};
	char v[256];

	if (!s->nin)
		return;
	fprintf(d->out, "<br/>");
	for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
		unsigned n = distinct(s, f[i].path, v, sizeof(v));

		fprintf(d->out, "%s", i ? ", " : "");
		if (n > 1)
			rpt_html_printf(d->out, f[i].many, n);
		else
			rpt_html_printf(d->out, f[i].one, v);
	}
	fprintf(d->out, ". <a href=\"#env\">The environment</a> is below the "
		    "summary.");
}

void rpt_warnings(struct rpt_doc *d, const struct rpt_set *s)
{
	FILE *o = d->out;
	unsigned bad = 0, steal = 0, over = 0, dist = 0;
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
			dist += res_disturbed(&f->points[p], NULL, 0) > 0;
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
	if (dist)
		fprintf(o, "<p class=\"warn\">%u run%s disturbed (steal, foreign "
			   "load, a late sampler, a stalled task...): marked in the "
			   "summary, with the reasons in %s section; <code>cgscale "
			   "compare</code> leaves %s out.</p>\n", dist,
			dist == 1 ? " was" : "s were", dist == 1 ? "its" : "their",
			dist == 1 ? "it" : "them");
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
