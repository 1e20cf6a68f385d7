/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt.c - the human formats of `cgscale compare`: text (aligned
 * blocks, one per point, each led by where the time went, why_fmt.c) and markdown (one table, for a mail or a PR), and
 * the dispatch to lkp (results/compare/lkp.c) and mmtests (results/compare/mmtests.c).
 * Every format prints the same environment diff and the same notes
 * (results/compare/fmt_util.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/compare/model.h"
#include "results/compare/fmt.h"
#include "results/compare/profile.h"
#include "results/compare/why.h"

const char *const cmp_format_names[] = {
	[CMP_FMT_TEXT] = "text", [CMP_FMT_LKP] = "lkp",
	[CMP_FMT_MMTESTS] = "mmtests", [CMP_FMT_MARKDOWN] = "markdown",
	[CMP_FMT_JSON] = "json", NULL,
};

/* A verdict of metric @m on some side (perhaps with no value on A). */
static bool any_valid(const struct cmp_result *r, const struct cmp_group *g, size_t m)
{
	for (unsigned s = 1; s < r->nsides; s++)
		if (cmp_delta_of(r, g, s, m)->valid)
			return true;
	return false;
}

/* The Hodges-Lehmann shift and its rank interval. */
static void hl_line(const struct cmp_delta *d, FILE *out)
{
	char a[32], b[32], c[32];

	if (isnan(d->hl_pct))
		return;
	fprintf(out, "    %-4s Hodges-Lehmann shift %s, rank CI %s%s%s%s%s\n", "",
		cmp_fmt_pct(a, 32, d->hl_pct), isnan(d->hl_lo) ? "none (too few runs)" : "[",
		isnan(d->hl_lo) ? "" : cmp_fmt_pct(b, 32, d->hl_lo), isnan(d->hl_lo) ? "" : ", ",
		isnan(d->hl_lo) ? "" : cmp_fmt_pct(c, 32, d->hl_hi), isnan(d->hl_lo) ? "" : "]");
}

/* A new side's change (plain, + means up), its effect, CI, p and verdict,
 * and the lines under it. */
static void delta_rows(const struct cmp_result *r, const struct cmp_metric *mt,
		       const struct cmp_delta *dl, FILE *out)
{
	char a[32], b[32], f[32], g_[32], ci[80];

	snprintf(ci, sizeof(ci), "[%s, %s]", cmp_fmt_pct(f, 32, dl->lo),
		 cmp_fmt_pct(g_, 32, dl->hi));
	fprintf(out, " %9s %-6s  %-21s %-8s %s%s%s%s\n", cmp_fmt_change(a, 32, dl),
		cmp_effect(dl), ci, cmp_fmt_pval(b, 32, dl->p),
		cmp_verdict_names[dl->verdict],
		*dl->why ? " (" : "", dl->why, *dl->why ? ")" : "");
	if (mt->cls == CMP_PRIMARY || dl->by_rank)
		hl_line(dl, out);
	if (r->o.welch)
		fprintf(out, "    %-4s Welch t = %.3f, df = %.1f; Mann-Whitney p = %s%s\n",
			"", dl->welch.stat, dl->welch.df,
			cmp_fmt_pval(a, 32, dl->mwu.p), dl->mwu.exact ? " (exact)" : "");
	if (!isnan(dl->q))
		fprintf(out, "    %-4s Benjamini-Hochberg q = %s\n", "",
			cmp_fmt_pval(a, 32, dl->q));
}

/* Metric @m is 0 on every run of every side that has it: nothing to
 * read in its table. */
static bool all_zero(const struct cmp_result *r, const struct cmp_group *g, size_t m)
{
	bool any = false;

	for (unsigned s = 0; s < r->nsides; s++) {
		const struct st_desc *sd = &g->cell[s].d[m];

		if (!sd->n)
			continue;
		if (sd->min != 0 || sd->max != 0)
			return false;
		any = true;
	}
	return any;
}

/* Metric @m's table at point @g: a row a side, the change under it. */
static void metric_table(const struct cmp_result *r, const struct cmp_group *g, size_t m, FILE *out)
{
	const struct cmp_metric *mt = &r->ms.m[m];
	char a[32], b[32], c[32], d[32], e[32], f[32];

	fprintf(out, "  %s (%s, %s is better, T=%g%%)\n", mt->name, mt->unit,
		mt->dir > 0 ? "higher" : "lower", r->o.threshold[mt->cls]);
	fprintf(out, "    %-4s %4s %12s %12s %10s %6s %12s %12s %9s %-6s  %-21s %-8s %s\n",
		"side", "n", "mean", "median", "stddev", "cov%", "min", "max",
		"change", "effect", "95% CI", "p", "verdict");
	for (unsigned s = 0; s < r->nsides; s++) {
		const struct st_desc *sd = &g->cell[s].d[m];
		const struct cmp_delta *dl = cmp_delta_of(r, g, s, m);

		fprintf(out, "    %-4s %4zu %12s %12s %10s %6s %12s %12s",
			r->sides[s].label, sd->n, cmp_fmt_num(a, 32, sd->mean),
			cmp_fmt_num(b, 32, sd->median), cmp_fmt_num(c, 32, sd->sd),
			cmp_fmt_cov(f, 32, sd->cov_pct), cmp_fmt_num(d, 32, sd->min),
			cmp_fmt_num(e, 32, sd->max));
		if (!s || !dl->valid) {
			fprintf(out, "\n");
			continue;
		}
		delta_rows(r, mt, dl, out);
	}
}

/* The metrics left out as 0 everywhere, named in lines of about 100. */
static void zero_line(const struct cmp_result *r, const struct cmp_group *g, FILE *out)
{
	size_t n = 0, col = 0;

	for (size_t m = 0; m < r->ms.n; m++)
		n += !r->o.metric_off[m] && all_zero(r, g, m);
	if (!n)
		return;
	fprintf(out, "  0 on every run of every side (%zu, no table):", n);
	col = 48;
	for (size_t m = 0; m < r->ms.n; m++) {
		if (r->o.metric_off[m] || !all_zero(r, g, m))
			continue;
		if (col + strlen(r->ms.m[m].name) > 100) {
			fprintf(out, "\n   ");
			col = 3;
		}
		col += fprintf(out, " %s", r->ms.m[m].name);
	}
	fprintf(out, "\n");
}

static void print_text(const struct cmp_result *r, FILE *out)
{
	cmp_fmt_header(r, out, "");
	cmp_fmt_env(r, out, false);
	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct cmp_group *g = &r->groups[i];
		char name[512];

		if (!g->common)
			continue;
		cmp_group_name(g, name, sizeof(name));
		fprintf(out, "\n%s\n", name);
		cmp_why_print_group(r, i, out, "");
		for (size_t m = 0; m < r->ms.n; m++)
			if ((g->cell[0].n[m] || any_valid(r, g, m)) && !r->o.metric_off[m] &&
			    !all_zero(r, g, m))
				metric_table(r, g, m, out);
		zero_line(r, g, out);
		cmp_fmt_point_notes(r, g, out, "  ");
	}
	fprintf(out, "\n");
	cmp_profile_print(r, r->prof, CMP_FMT_TEXT, out);
	cmp_fmt_totals(r, out, "");
	cmp_fmt_notes(r, out, "");
}

static void print_markdown(const struct cmp_result *r, FILE *out)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];

	cmp_fmt_header(r, out, "");
	cmp_fmt_env(r, out, true);
	fprintf(out, "\n| point | metric | %s (baseline) | side | mean ± CoV | change | effect | %g%% CI | p | verdict |\n",
		r->sides[0].label, 100 * (1 - r->o.alpha));
	fprintf(out, "|---|---|---|---|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct cmp_group *g = &r->groups[i];
		char name[512];

		if (!g->common)
			continue;
		cmp_group_name(g, name, sizeof(name));
		for (size_t m = 0; m < r->ms.n; m++)
			for (unsigned s = 1; s < r->nsides; s++) {
				const struct cmp_delta *dl = cmp_delta_of(r, g, s, m);
				const struct st_desc *x = &g->cell[0].d[m], *y = &g->cell[s].d[m];
				enum cmp_verdict v = dl->verdict;

				if (!dl->valid)
					continue;
				fprintf(out, "| %s | %s | %s ± %.1f%% | %s | %s ± %.1f%% | %s | %s | [%s, %s] | %s | %s%s%s |\n",
					name, r->ms.m[m].name, cmp_fmt_num(a, 32, x->mean), x->cov_pct,
					r->sides[s].label, cmp_fmt_num(b, 32, y->mean), y->cov_pct,
					cmp_fmt_change(c, 32, dl), cmp_effect(dl),
					cmp_fmt_pct(d, 32, dl->lo), cmp_fmt_pct(e, 32, dl->hi),
					cmp_fmt_pval(f, 32, dl->p),
					v == CMP_REGRESSION || v == CMP_IMPROVEMENT ? "**" : "",
					cmp_verdict_names[v],
					v == CMP_REGRESSION || v == CMP_IMPROVEMENT ? "**" : "");
			}
	}
	fprintf(out, "\n");
	for (unsigned i = 0; i < r->ngroups; i++)
		if (r->groups[i].common)
			cmp_fmt_point_notes(r, &r->groups[i], out, "- ");
	cmp_fmt_totals(r, out, "");
	cmp_fmt_notes(r, out, "- ");
}

int cmp_print(const struct cmp_result *r, enum cmp_format f, FILE *out)
{
	switch (f) {
	case CMP_FMT_TEXT:
		print_text(r, out);
		break;
	case CMP_FMT_LKP:
		cmp_print_lkp(r, out);
		break;
	case CMP_FMT_MMTESTS:
		cmp_print_mmtests(r, out);
		break;
	case CMP_FMT_MARKDOWN:
		print_markdown(r, out);
		break;
	case CMP_FMT_JSON:
		return cmp_print_json(r, out);
	}
	return ferror(out) ? -EIO : 0;
}
