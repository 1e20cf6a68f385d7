/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mmtests.c - `cgscale compare --format mmtests`: the table of
 * mmtests' compare-kernels.sh (bin/lib/MMTests/Compare.pm and
 * PrintGeneric.pm, Multiops summary), one table per test and metric with
 * the points as operations: Min, Hmean (Amean when lower is better),
 * Stddev, CoeffVar and Max rows of every operation, two decimals, the %
 * difference plain (+ means the value went up; mmtests' own pdiff has +
 * better), and "-" where a value is undefined.
 * The mean row is marked *like this* when mmtests would call it
 * significant: the sides' mean +- 1.96 stddev bands do not overlap
 * (mmtests' cidiff > 1). cgscale's own verdict follows in a Verdict row,
 * with "(better)" or "(worse)" when the change is beyond T;
 * COMPARE.md explains why the two can differ.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/esc.h"
#include "results/compare/model.h"
#include "results/compare/fmt.h"

#define MM_FIELD 12      /* mmtests' default field length */
#define MM_CMP 7         /* its compare length */
#define MM_Z 1.959963984540054   /* qnorm(0.975) */

enum mm_stat { MM_MIN, MM_MEAN, MM_SD, MM_COV, MM_MAX, MM_NSTAT };

/* mmtests' statistics of one side's runs (Stat.pm). */
static void mm_stats(const struct cmp_cell *c, size_t m, bool hmean, double st[MM_NSTAT])
{
	size_t n = c->n[m];
	double sum = 0, d = 0;

	for (int k = 0; k < MM_NSTAT; k++)
		st[k] = NAN;
	if (!n)
		return;
	st[MM_MIN] = st[MM_MAX] = c->v[m][0];
	for (size_t i = 0; i < n; i++) {
		double v = c->v[m][i];

		sum += hmean ? 1 / v : v;
		st[MM_MIN] = fmin(st[MM_MIN], v);
		st[MM_MAX] = fmax(st[MM_MAX], v);
	}
	st[MM_MEAN] = hmean ? n / sum : sum / n;
	for (size_t i = 0; i < n; i++) {
		double x = hmean ? 1 / c->v[m][i] - 1 / st[MM_MEAN] : c->v[m][i] - st[MM_MEAN];

		d += x * x;
	}
	if (n > 1)
		st[MM_SD] = hmean ? sqrt(d * pow(st[MM_MEAN], 4) / n) : sqrt(d / (n - 1));
	/* calc_coeffvar: an undefined stddev counts as 0 */
	st[MM_COV] = 100 * (isfinite(st[MM_SD]) ? st[MM_SD] : 0) / st[MM_MEAN];
}

/* mmtests' cidiff of new against base with +-z*sd bands; NAN if none. */
static double mm_cidiff(const double b[MM_NSTAT], const double n[MM_NSTAT])
{
	double hb = MM_Z * b[MM_SD], hn = MM_Z * n[MM_SD], cisum;

	if (!isfinite(hb) || !isfinite(hn))
		return NAN;
	cisum = hn + hb;
	return cisum == 0 ? n[MM_MEAN] - b[MM_MEAN] : (n[MM_MEAN] - b[MM_MEAN]) / cisum;
}

/* The strings are the result files': escaped (lib/esc.h). */
static void op_name(const struct cmp_group *g, char *buf, size_t len)
{
	char raw[1200];

	snprintf(raw, sizeof(raw), "%s-%u%s%s%s%s", g->mode, g->tasks,
		 g->layout ? "-" : "", g->layout ? g->layout : "",
		 *g->wopts ? "-" : "", g->wopts);
	cgs_esc(raw, buf, len);
	for (char *c = buf; *c; c++)
		if (*c == ' ')
			*c = ':';
}

static const char *stat_name(enum mm_stat k, bool hmean)
{
	static const char *const a[] = { "Min", "Amean", "Stddev", "CoeffVar", "Max" };
	static const char *const h[] = { "Min", "Hmean", "HStddev", "HCoeffVar", "Max" };

	return hmean ? h[k] : a[k];
}

/* One row: stat name, operation, each side's value and % difference. */
static void mm_row(const struct cmp_result *r, const struct cmp_group *g, size_t m,
		   enum mm_stat k, int oplen, FILE *out)
{
	const struct cmp_metric *mt = &r->ms.m[m];
	bool hmean = mt->dir > 0;
	double base[MM_NSTAT], st[MM_NSTAT];
	char op[600];

	op_name(g, op, sizeof(op));
	fprintf(out, "%-9s %-*s", stat_name(k, hmean), oplen, op);
	mm_stats(&g->cell[0], m, hmean, base);
	for (unsigned s = 0; s < r->nsides; s++) {
		double v, diff, ci;
		bool sig;

		mm_stats(&g->cell[s], m, hmean, st);
		v = st[k];
		diff = v / base[k] * 100 - 100;
		ci = s ? mm_cidiff(base, st) : NAN;
		sig = k == MM_MEAN && s && fabs(ci) > 1;
		if (isfinite(v))
			fprintf(out, "%*.2f", MM_FIELD, v);
		else
			fprintf(out, "%*s", MM_FIELD, "-");
		if (!isfinite(diff))
			fprintf(out, " (%*s )", MM_CMP, "-");
		else if (sig)
			fprintf(out, " *%*.2f%%*", MM_CMP, diff);
		else
			fprintf(out, " (%*.2f%%)", MM_CMP, diff);
	}
	fputc('\n', out);
}

static void mm_verdicts(const struct cmp_result *r, const struct cmp_group *g, size_t m,
			int oplen, FILE *out)
{
	char op[600];

	op_name(g, op, sizeof(op));
	fprintf(out, "%-9s %-*s%*s", "Verdict", oplen, op, MM_FIELD + MM_CMP + 4, "baseline");
	for (unsigned s = 1; s < r->nsides; s++) {
		const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
		const char *eff = cmp_effect(d);
		char v[40];

		snprintf(v, sizeof(v), "%s%s%s%s", d->valid ? cmp_verdict_names[d->verdict] : "-",
			 *eff == '-' ? "" : " (", *eff == '-' ? "" : eff, *eff == '-' ? "" : ")");
		fprintf(out, "%*s", MM_FIELD + MM_CMP + 4, v);
	}
	fputc('\n', out);
}

static bool has(const struct cmp_result *r, const struct cmp_group *g, size_t m)
{
	return g->common && !r->o.metric_off[m] && g->cell[0].n[m];
}

/* One table: every point of @test that has metric @m. */
static void mm_table(const struct cmp_result *r, const char *test, size_t m, FILE *out)
{
	int oplen = 0;
	char op[600];

	for (unsigned i = 0; i < r->ngroups; i++)
		if (!strcmp(r->groups[i].test, test) && has(r, &r->groups[i], m)) {
			op_name(&r->groups[i], op, sizeof(op));
			if ((int)strlen(op) > oplen)
				oplen = (int)strlen(op);
		}
	if (!oplen)
		return;
	fprintf(out, "\n%s %s (%s, %s is better)\n", cgs_esc(test, op, sizeof(op)), r->ms.m[m].name,
		r->ms.m[m].unit, r->ms.m[m].dir > 0 ? "higher" : "lower");
	for (int row = 0; row < 2; row++) {
		fprintf(out, "%*s", 10 + oplen, "");
		for (unsigned s = 0; s < r->nsides; s++) {
			const char *nm = r->sides[s].name, *dash = strchr(nm, '-');
			int cut = dash ? (int)(dash - nm) : (int)strlen(nm);

			if (row == 0)
				fprintf(out, "%*.*s", MM_FIELD + MM_CMP + 4, cut, nm);
			else
				fprintf(out, "%*s", MM_FIELD + MM_CMP + 4, dash ? dash + 1 : "");
		}
		fputc('\n', out);
	}
	for (int k = 0; k < MM_NSTAT; k++)
		for (unsigned i = 0; i < r->ngroups; i++)
			if (!strcmp(r->groups[i].test, test) && has(r, &r->groups[i], m))
				mm_row(r, &r->groups[i], m, (enum mm_stat)k, oplen, out);
	for (unsigned i = 0; i < r->ngroups; i++)
		if (!strcmp(r->groups[i].test, test) && has(r, &r->groups[i], m))
			mm_verdicts(r, &r->groups[i], m, oplen, out);
}

void cmp_print_mmtests(const struct cmp_result *r, FILE *out)
{
	cmp_fmt_header(r, out, "");
	cmp_fmt_env(r, out, false);
	for (unsigned i = 0; i < r->ngroups; i++) {
		bool first = true;

		/* one table per test: at the test's first point */
		for (unsigned j = 0; j < i && first; j++)
			first = strcmp(r->groups[j].test, r->groups[i].test) != 0;
		if (!first)
			continue;
		for (size_t m = 0; m < r->ms.n; m++)
			mm_table(r, r->groups[i].test, m, out);
	}
	fputc('\n', out);
	for (unsigned i = 0; i < r->ngroups; i++)
		if (r->groups[i].common)
			cmp_fmt_point_notes(r, &r->groups[i], out, "");
	cmp_fmt_totals(r, out, "");
	cmp_fmt_notes(r, out, "");
}
