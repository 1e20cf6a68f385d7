/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lkp.c - `cgscale compare --format lkp`: the layout of lkp-tests'
 * ncompare (lib/compare.rb: show_group_header, show_perf_header,
 * show_perf_change), one group per point. The ===== block names the
 * point's parameters as common axes and the compared sides (side name and
 * the --axis value) as compare axes; rows are the LKP stats' own keys,
 * "cgscale.per_process_ops" (results/compare/lkp_names.c), so that a row
 * and LKP's stats of the same runs have one name. The values are LKP's: the arithmetic mean, %stddev from
 * the population stddev shown above 2%, %change of the means. A first
 * block, the job's, compares the runs' LKP stats themselves (lkp_job.c),
 * as lkp ncompare does on their stats.json. cgscale's
 * own verdicts, environment diff and notes follow the tables. A key that
 * is 0 in every run of every side has no row (LKP's %change of 0 against
 * 0 reads -100%), only a count.
 * check/integration/69-lkp-compare.sh checks it against lib/compare.rb.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/esc.h"
#include "results/compare/model.h"
#include "results/compare/fmt.h"
#include "results/compare/lkp_names.h"
#include "results/compare/lkp_stats.h"
#include "results/compare/profile.h"

#define LKP_ABS_WIDTH 10
#define LKP_REL_WIDTH 10
#define LKP_ERR_WIDTH 6

/* An axis value without spaces ("depth=2 leaf=shared" -> depth=2:leaf=shared). */
/* The strings are the result files': escaped (lib/esc.h), spaces as ':'. */
static void axis_value(FILE *out, const char *v)
{
	char esc[1024];

	for (v = cgs_esc(v, esc, sizeof(esc)); *v; v++)
		fputc(*v == ' ' ? ':' : *v, out);
}

/* The --axis field's value on side @s, or NULL when not recorded. */
static const char *axis_of(const struct cmp_result *r, unsigned s, const char **field)
{
	/* LKP names a side by its kernel (release), not by the config rows
	 * that the environment lists first: those only when nothing else */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < r->nenv; i++)
			if (r->env[i].axis && r->env[i].val[s] &&
			    (pass || strncmp(r->env[i].field, "kernel.config.", 14))) {
				*field = r->env[i].field;
				return r->env[i].val[s];
			}
	return NULL;
}

/* side/axis values of side @s, spaces replaced, into @buf. */
static void compare_axes(const struct cmp_result *r, unsigned s, char *buf, size_t len)
{
	const char *field, *v = axis_of(r, s, &field);
	char raw[1024];

	snprintf(raw, sizeof(raw), "%s%s%s", r->sides[s].name, v ? "/" : "", v ? v : "");
	cgs_esc(raw, buf, len);
	for (char *c = buf; *c; c++)
		if (*c == ' ')
			*c = ':';
}

/* The sides' part of a block's head: the compare axes, the columns. */
static void sides_header(const struct cmp_result *r, FILE *out)
{
	const char *field = NULL;
	char buf[512];

	axis_of(r, 0, &field);
	fprintf(out, "\n\nside%s%s: \n", field ? "/" : "", field ? cgs_esc(field, buf, sizeof(buf)) : "");
	for (unsigned s = 0; s < r->nsides; s++) {
		compare_axes(r, s, buf, sizeof(buf));
		fprintf(out, "  %s\n", buf);
	}
	fputc('\n', out);
	for (unsigned s = 0; s < r->nsides; s++) {
		int w = LKP_ABS_WIDTH + LKP_ERR_WIDTH + (s ? LKP_REL_WIDTH + 1 : 0);

		compare_axes(r, s, buf, sizeof(buf));
		fprintf(out, "%*.*s ", w, w, buf);
	}
	fputc('\n', out);
	for (unsigned s = 0; s < r->nsides; s++) {
		int w = LKP_ABS_WIDTH + LKP_ERR_WIDTH + (s ? LKP_REL_WIDTH + 1 : 0);

		for (int i = 0; i < w; i++)
			fputc('-', out);
		fputc(' ', out);
	}
	fputc('\n', out);
	fprintf(out, "         %%stddev");
	for (unsigned s = 1; s < r->nsides; s++)
		fprintf(out, "     %%change         %%stddev");
	fprintf(out, "\n             \\  ");
	for (unsigned s = 1; s < r->nsides; s++)
		fprintf(out, "        |                \\  ");
	fputc('\n', out);
}

#define LKP_RULE "=========================================================================================\n"

static void group_header(const struct cmp_result *r, const struct cmp_group *g, FILE *out)
{
	char t[256], m[64];

	fputs(LKP_RULE, out);
	fprintf(out, "testcase/test/mode/nr_task%s%s:\n  cgscale/%s/%s/%u",
		g->layout ? "/cgroup" : "", *g->wopts ? "/options" : "",
		cgs_esc(g->test, t, sizeof(t)), cgs_esc(g->mode, m, sizeof(m)), g->tasks);
	if (g->layout) {
		fputc('/', out);
		axis_value(out, g->layout);
	}
	if (*g->wopts) {
		fputc('/', out);
		axis_value(out, g->wopts);
	}
	sides_header(r, out);
}

/* LKP's mean and %stddev (population stddev / mean; -1 for one value). */
static void lkp_stat(const double *v, size_t n, double *avg, double *sdp)
{
	double sum = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	*avg = n ? sum / n : 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - *avg) * (v[i] - *avg);
	*sdp = n > 1 ? sqrt(ss / n) : -1;
	if (*avg != 0)
		*sdp = 100 * *sdp / *avg;
}

/* Ruby's "%d" of a Float truncates toward zero. */
static void lkp_value(FILE *out, double avg, double sdp)
{
	if (fabs(avg) < 1000)
		fprintf(out, "%*.2f", LKP_ABS_WIDTH, avg);
	else if (fabs(avg) > 100000000)
		fprintf(out, "%*.4g", LKP_ABS_WIDTH, avg);
	else
		fprintf(out, "%*lld", LKP_ABS_WIDTH, (long long)avg);
	if (sdp > 2)
		fprintf(out, " \xc2\xb1%*lld%%", LKP_ERR_WIDTH - 3, (long long)sdp);
	else
		fprintf(out, "%*s", LKP_ERR_WIDTH, "");
}

/* One row: the sides' values (@v[s], @n[s] of them) and @key. */
static void lkp_row(const struct cmp_result *r, const double *const *v, const size_t *n,
		    const char *key, FILE *out)
{
	double avg0, sd0;

	lkp_stat(v[0], n[0], &avg0, &sd0);
	lkp_value(out, avg0, sd0);
	for (unsigned s = 1; s < r->nsides; s++) {
		double avg, sd, p;

		lkp_stat(v[s], n[s], &avg, &sd);
		p = 100.0 * (avg - (avg0 ? avg0 : 1e-100)) / (avg0 ? avg0 : 1e-100);
		if (fabs(p) < 100000)
			fprintf(out, "%+*.1f%% ", LKP_REL_WIDTH, p);
		else
			fprintf(out, "%+*.2g%% ", LKP_REL_WIDTH, p);
		lkp_value(out, avg, sd);
	}
	fprintf(out, "  " CMP_LKP_PROGRAM ".%s\n", key);
}

/* The row of metric @m at point @g. */
static void metric_row(const struct cmp_result *r, const struct cmp_group *g, size_t m,
		       FILE *out)
{
	const double *v[CMP_MAX_SIDES];
	size_t n[CMP_MAX_SIDES];
	char key[300];

	for (unsigned s = 0; s < r->nsides; s++)
		v[s] = g->cell[s].v[m], n[s] = g->cell[s].n[m];
	cmp_lkp_key(r->ms.m[m].name, g->mode, cmp_lkp_both_modes(r, g), key, sizeof(key));
	lkp_row(r, v, n, key, out);
}

/* Metric @m is 0 in every run of every side at @g: a row of 0.00s whose
 * %change LKP's arithmetic would print as -100%. */
static bool all_zero(const struct cmp_result *r, const struct cmp_group *g, size_t m)
{
	for (unsigned s = 0; s < r->nsides; s++)
		for (size_t i = 0; i < g->cell[s].n[m]; i++)
			if (g->cell[s].v[m][i] != 0)
				return false;
	return true;
}

/* The test every file of @r ran, NULL when they ran several. */
static const char *job_test(const struct cmp_result *r)
{
	const char *t = NULL;

	for (unsigned s = 0; s < r->nsides; s++)
		for (unsigned f = 0; f < r->sides[s].nfiles; f++) {
			const struct res_file *rf = &r->sides[s].files[f].res;

			for (unsigned i = 0; i < rf->npoints; i++) {
				if (t && strcmp(t, rf->points[i].test))
					return NULL;
				t = rf->points[i].test;
			}
		}
	return t;
}

/* The values of @a (a JSON array of numbers), malloc'd; NULL: none. */
static double *values_of(struct json_object *a, size_t *n)
{
	double *v;

	*n = a ? json_object_array_length(a) : 0;
	v = *n ? calloc(*n, sizeof(*v)) : NULL;
	for (size_t i = 0; v && i < *n; i++)
		v[i] = json_object_get_double(json_object_array_get_idx(a, i));
	return v;
}

/* One row of the job block, when every side has @key; counts an
 * all-zero key in @zero instead. */
static bool job_row(const struct cmp_result *r, struct json_object *const *st,
		    const char *key, unsigned *zero, FILE *out)
{
	double *v[CMP_MAX_SIDES] = { 0 };
	size_t n[CMP_MAX_SIDES];
	bool all = true, nonzero = false;

	for (unsigned s = 0; s < r->nsides; s++) {
		struct json_object *a = NULL;

		json_object_object_get_ex(st[s], key, &a);
		v[s] = values_of(a, &n[s]);
		all = all && v[s];
		for (size_t i = 0; v[s] && i < n[s]; i++)
			nonzero = nonzero || v[s][i] != 0;
	}
	if (all && !nonzero)
		(*zero)++;
	else if (all)
		lkp_row(r, (const double *const *)v, n, key, out);
	for (unsigned s = 0; s < r->nsides; s++)
		free(v[s]);
	return all && nonzero;
}

/*
 * The job block: the LKP stats of each run (each result file; lkp_job.c),
 * key by key, as lkp ncompare compares the runs' stats.json, so every
 * key LKP stores (workload, <N>.processes, Throughput_Mbps, memory.stat.*,
 * a layout's keys) is here under LKP's name. Nothing when a file holds
 * more than one test: that is no LKP job.
 */
static void job_block(const struct cmp_result *r, FILE *out)
{
	struct json_object *st[CMP_MAX_SIDES];
	const char *test = job_test(r);
	char t[256];
	unsigned zero = 0, rows = 0;

	if (!test || cmp_lkp_job_stats(r, st))
		return;
	fputs(LKP_RULE, out);
	fprintf(out, "testcase/test:\n  cgscale/%s", cgs_esc(test, t, sizeof(t)));
	sides_header(r, out);
	json_object_object_foreach(st[0], key, a0) {
		(void)a0;
		rows += job_row(r, st, key, &zero, out);
	}
	fprintf(out, "  (the job: each run's LKP stats, as lkp ncompare compares them; %u rows", rows);
	if (zero)
		fprintf(out, ", %u more keys 0 in every run of every side", zero);
	fputs(")\n\n", out);
	for (unsigned s = 0; s < r->nsides; s++)
		json_object_put(st[s]);
}

void cmp_print_lkp(const struct cmp_result *r, FILE *out)
{
	job_block(r, out);
	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct cmp_group *g = &r->groups[i];
		bool any = false;
		unsigned zero = 0;

		if (!g->common)
			continue;
		for (size_t m = 0; m < r->ms.n; m++) {
			bool all = !r->o.metric_off[m];

			for (unsigned s = 0; s < r->nsides && all; s++)
				all = g->cell[s].n[m] > 0;
			if (all && all_zero(r, g, m)) {
				zero++;
				continue;
			}
			if (!all)
				continue;
			if (!any)
				group_header(r, g, out);
			any = true;
			metric_row(r, g, m, out);
		}
		if (any)
			cmp_profile_lkp_group(r, r->prof, i, out);
		if (any && zero)
			fprintf(out, "  (%u more keys are 0 in every run of every side: not shown)\n", zero);
		if (any)
			fputc('\n', out);
	}
	cmp_fmt_header(r, out, "");
	cmp_fmt_env(r, out, false);
	for (unsigned i = 0; i < r->ngroups; i++)
		if (r->groups[i].common)
			cmp_fmt_point_notes(r, &r->groups[i], out, "");
	fprintf(out, "\n");
	cmp_fmt_totals(r, out, "");
	cmp_fmt_notes(r, out, "");
}
