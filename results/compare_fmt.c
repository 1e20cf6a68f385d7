/*
 * compare_fmt.c - the human formats of `cgscale compare`: text (aligned
 * blocks, one per point), lkp (the %stddev %change %stddev table of the
 * 0-day reports), mmtests (Min/Amean/Stddev/CoeffVar/Max rows with
 * *significance* markers) and markdown (one table, for a mail or a PR).
 * Every format prints the same environment diff and the same notes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"

const char *const cmp_format_names[] = {
	[CMP_FMT_TEXT] = "text", [CMP_FMT_LKP] = "lkp",
	[CMP_FMT_MMTESTS] = "mmtests", [CMP_FMT_MARKDOWN] = "markdown",
	[CMP_FMT_JSON] = "json", NULL,
};

/* A number in at most ~10 characters: whole above 100, else 4 digits. */
static const char *num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e10)
		snprintf(buf, len, "%.4g", v);
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

static const char *pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.2f%%", v);
	return buf;
}

static const char *cov(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

static const char *pval(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "%.1e", p);
	else
		snprintf(buf, len, "%.4f", p);
	return buf;
}

static bool significant(const struct cmp_result *r, const struct cmp_delta *d,
			const struct cmp_metric *m)
{
	double p = m->cls == CMP_PRIMARY ? d->p : d->q;

	return d->valid && p < r->o.alpha;
}

static void header(const struct cmp_result *r, FILE *out, const char *lead)
{
	fprintf(out, "%scgscale compare:", lead);
	for (unsigned s = 0; s < r->nsides; s++)
		fprintf(out, "%s %s = %s (%u file%s)%s", s ? "," : "",
			r->sides[s].label, r->sides[s].arg, r->sides[s].nfiles,
			r->sides[s].nfiles == 1 ? "" : "s", s ? "" : " [baseline]");
	fprintf(out, "\n%saxis %s; T = %g%% primary, %g%% secondary, %g%% tail; --max-cov %g%%; %g%% CI by bootstrap (%u resamples, seed %llu); p by %s\n",
		lead, r->o.axis, r->o.threshold[CMP_PRIMARY],
		r->o.threshold[CMP_SECONDARY], r->o.threshold[CMP_TAIL],
		r->o.max_cov, 100 * (1 - r->o.alpha), r->o.resamples,
		(unsigned long long)r->o.seed,
		r->o.welch ? "Welch's t" : "Mann-Whitney U");
}

/* The environment rows worth showing: differences, and the axis. */
static bool env_shown(const struct cmp_envrow *e)
{
	return !e->hidden &&
	       (e->differs || e->mixed || (e->axis && strcmp(e->field, "cgroup.layout")));
}

static void env_text(const struct cmp_result *r, FILE *out, bool md)
{
	bool any = false;

	for (unsigned i = 0; i < r->nenv; i++) {
		const struct cmp_envrow *e = &r->env[i];

		if (!env_shown(e))
			continue;
		if (!any) {
			if (md) {
				fprintf(out, "\n| field | kind |");
				for (unsigned s = 0; s < r->nsides; s++)
					fprintf(out, " %s |", r->sides[s].label);
				fprintf(out, "\n|---|---|");
				for (unsigned s = 0; s < r->nsides; s++)
					fprintf(out, "---|");
				fprintf(out, "\n");
			} else {
				fprintf(out, "\nenvironment (differences and the axis):\n");
			}
			any = true;
		}
		if (md) {
			fprintf(out, "| %s | %s |", e->field, e->axis ? "axis" :
				e->critical ? "critical" : "info");
			for (unsigned s = 0; s < r->nsides; s++)
				fprintf(out, " %.80s |", e->val[s] ? e->val[s] : "-");
			fprintf(out, "\n");
			continue;
		}
		fprintf(out, "  %-34s %-8s", e->field, e->axis ? "axis" :
			e->critical ? "critical" : "info");
		for (unsigned s = 0; s < r->nsides; s++)
			fprintf(out, "%s %s: %.70s", s ? " |" : "", r->sides[s].label,
				e->val[s] ? e->val[s] : "-");
		fprintf(out, "\n");
	}
	if (!any)
		fprintf(out, "\nenvironment: no difference in the recorded fields\n");
}

static void notes(const struct cmp_result *r, FILE *out, const char *lead)
{
	for (unsigned i = 0; i < r->nnotes; i++)
		fprintf(out, "%snote: %s\n", lead, r->notes[i]);
}

static void totals(const struct cmp_result *r, FILE *out, const char *lead)
{
	fprintf(out, "%sverdicts:", lead);
	for (int v = 0; v < CMP_NVERDICT; v++)
		fprintf(out, " %s %u%s", cmp_verdict_names[v], r->count[v],
			v + 1 < CMP_NVERDICT ? "," : "\n");
}

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
		pct(a, 32, d->hl_pct), isnan(d->hl_lo) ? "none (too few runs)" : "[",
		isnan(d->hl_lo) ? "" : pct(b, 32, d->hl_lo), isnan(d->hl_lo) ? "" : ", ",
		isnan(d->hl_lo) ? "" : pct(c, 32, d->hl_hi), isnan(d->hl_lo) ? "" : "]");
}

/* Failed runs, LKP's fail:runs, and the power warning of the primary. */
static void point_notes(const struct cmp_result *r, const struct cmp_group *g,
			FILE *out, const char *lead)
{
	for (unsigned s = 0; s < r->nsides; s++)
		if (g->cell[s].runs > g->cell[s].ok + g->cell[s].disturbed)
			fprintf(out, "%sfail:runs %s %u:%u (%s)\n", lead,
				r->sides[s].label,
				g->cell[s].runs - g->cell[s].ok - g->cell[s].disturbed,
				g->cell[s].runs, g->cell[s].fail_reason);
	for (unsigned s = 0; s < r->nsides; s++)
		if (g->cell[s].disturbed)
			fprintf(out, "%sdisturbed %s %u of %u ok runs, left out (see the notes; --keep-disturbed uses them)\n",
				lead, r->sides[s].label, g->cell[s].disturbed,
				g->cell[s].ok + g->cell[s].disturbed);
	for (unsigned s = 1; s < r->nsides; s++)
		for (size_t m = 0; m < cmp_nmetrics; m++) {
			const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
			size_t na = g->cell[0].n[m], nb = g->cell[s].n[m];

			if (!d->valid || cmp_metrics[m].cls != CMP_PRIMARY)
				continue;
			if (d->min_p >= r->o.alpha)
				fprintf(out, "%spower: %s %zu vs %s %zu runs can never give p < %g (the smallest p is %.3g);",
					lead, r->sides[0].label, na, r->sides[s].label, nb,
					r->o.alpha, d->min_p);
			else if (d->runs_needed > (na < nb ? na : nb))
				fprintf(out, "%spower: %s %zu vs %s %zu runs are few for the noise seen;",
					lead, r->sides[0].label, na, r->sides[s].label, nb);
			else
				continue;
			fprintf(out, " rerun each side with --runs %u (about; or -r auto -T %g) to find a %g%% change of %s with 80%% power at this noise\n",
				d->runs_needed, d->threshold, d->threshold, cmp_metrics[m].name);
		}
}

static void print_text(const struct cmp_result *r, FILE *out)
{
	char a[32], b[32], c[32], d[32], e[32], f[32], g_[32];

	header(r, out, "");
	env_text(r, out, false);
	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct cmp_group *g = &r->groups[i];
		char name[512];

		if (!g->common)
			continue;
		cmp_group_name(g, name, sizeof(name));
		fprintf(out, "\n%s\n", name);
		for (size_t m = 0; m < cmp_nmetrics; m++) {
			const struct cmp_metric *mt = &cmp_metrics[m];

			if ((!g->cell[0].n[m] && !any_valid(r, g, m)) || r->o.metric_off[m])
				continue;
			fprintf(out, "  %s (%s, %s is better, T=%g%%)\n", mt->name, mt->unit,
				mt->dir > 0 ? "higher" : "lower", r->o.threshold[mt->cls]);
			fprintf(out, "    %-4s %4s %12s %12s %10s %6s %12s %12s %9s  %-21s %-8s %s\n",
				"side", "n", "mean", "median", "stddev", "cov%", "min", "max",
				"change", "95% CI", "p", "verdict");
			for (unsigned s = 0; s < r->nsides; s++) {
				const struct st_desc *sd = &g->cell[s].d[m];
				const struct cmp_delta *dl = cmp_delta_of(r, g, s, m);
				char ci[80];

				fprintf(out, "    %-4s %4zu %12s %12s %10s %6s %12s %12s",
					r->sides[s].label, sd->n, num(a, 32, sd->mean),
					num(b, 32, sd->median), num(c, 32, sd->sd),
					cov(f, 32, sd->cov_pct), num(d, 32, sd->min),
					num(e, 32, sd->max));
				if (!s || !dl->valid) {
					fprintf(out, "\n");
					continue;
				}
				snprintf(ci, sizeof(ci), "[%s, %s]", pct(f, 32, dl->lo),
					 pct(g_, 32, dl->hi));
				fprintf(out, " %9s  %-21s %-8s %s%s%s%s\n", pct(a, 32, dl->pct), ci,
					pval(b, 32, dl->p), cmp_verdict_names[dl->verdict],
					*dl->why ? " (" : "", dl->why, *dl->why ? ")" : "");
				if (cmp_metrics[m].cls == CMP_PRIMARY || dl->by_rank)
					hl_line(dl, out);
				if (r->o.welch)
					fprintf(out, "    %-4s Welch t = %.3f, df = %.1f; Mann-Whitney p = %s%s\n",
						"", dl->welch.stat, dl->welch.df,
						pval(a, 32, dl->mwu.p), dl->mwu.exact ? " (exact)" : "");
				if (!isnan(dl->q))
					fprintf(out, "    %-4s Benjamini-Hochberg q = %s\n", "",
						pval(a, 32, dl->q));
			}
		}
		point_notes(r, g, out, "  ");
	}
	fprintf(out, "\n");
	totals(r, out, "");
	notes(r, out, "");
}

/* "name.mode.tasks[.cgroup][.options].metric", as LKP names its stats. */
static void lkp_name(const struct cmp_group *g, const char *metric, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s.%s.%u%s%s%s%s.%s", g->test, g->mode, g->tasks,
		 g->layout && strcmp(g->layout, "none") ? "." : "",
		 g->layout && strcmp(g->layout, "none") ? g->layout : "",
		 *g->wopts ? "." : "", g->wopts, metric);
}

/* LKP prints "± N%" only above 2%. */
static void lkp_value(FILE *out, const struct st_desc *d)
{
	char a[32];

	if (d->n && d->cov_pct > 2)
		fprintf(out, "%10s \xc2\xb1%3.0f%%", num(a, 32, d->mean), d->cov_pct);
	else
		fprintf(out, "%10s      ", num(a, 32, d->mean));
}

static void print_lkp(const struct cmp_result *r, FILE *out)
{
	header(r, out, "");
	env_text(r, out, false);
	fprintf(out, "\n");
	for (unsigned s = 0; s < r->nsides; s++)
		fprintf(out, "%s%-16.16s", s ? " " : "", r->sides[s].name);
	fprintf(out, "\n----------------");
	for (unsigned s = 1; s < r->nsides; s++)
		fprintf(out, " ---------------------------");
	fprintf(out, "\n         %%stddev");
	for (unsigned s = 1; s < r->nsides; s++)
		fprintf(out, "     %%change         %%stddev");
	fprintf(out, "\n             \\   ");
	for (unsigned s = 1; s < r->nsides; s++)
		fprintf(out, "       |                \\   ");
	fprintf(out, "\n");
	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct cmp_group *g = &r->groups[i];

		if (!g->common)
			continue;
		for (size_t m = 0; m < cmp_nmetrics; m++) {
			char name[600];

			if (!g->cell[0].n[m] || r->o.metric_off[m])
				continue;
			lkp_value(out, &g->cell[0].d[m]);
			for (unsigned s = 1; s < r->nsides; s++) {
				const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
				double raw = d->pct * cmp_metrics[m].dir;

				if (isnan(raw))
					fprintf(out, "  %9s   ", "");
				else
					fprintf(out, "  %+9.1f%%  ", raw);
				lkp_value(out, &g->cell[s].d[m]);
			}
			lkp_name(g, cmp_metrics[m].name, name, sizeof(name));
			fprintf(out, "  %s\n", name);
		}
	}
	fprintf(out, "\n");
	totals(r, out, "");
	notes(r, out, "");
}

/* mmtests' pdiff: + is better; spread rows are always lower-is-better. */
static void mm_row(const struct cmp_result *r, const struct cmp_group *g, size_t m,
		   const char *row, int which, FILE *out)
{
	const struct cmp_metric *mt = &cmp_metrics[m];
	double base = NAN;
	char a[32];

	fprintf(out, "%-9s%-18.18s", row, mt->name);
	for (unsigned s = 0; s < r->nsides; s++) {
		const struct st_desc *d = &g->cell[s].d[m];
		double v = which == 0 ? d->min : which == 1 ? d->mean :
			   which == 2 ? d->sd : which == 3 ? d->cov_pct : d->max;
		int dir = which == 2 || which == 3 ? -1 : mt->dir;
		double diff = dir * 100.0 * (v / base - 1);
		bool star = which == 1 && s &&
			    significant(r, cmp_delta_of(r, g, s, m), mt);

		if (!s)
			base = v;
		if (!s)
			diff = 0;
		if (!isfinite(diff))
			diff = NAN;
		if (star)
			fprintf(out, " %12s *%7.2f%%*", num(a, 32, v), diff);
		else
			fprintf(out, " %12s (%7.2f%%)", num(a, 32, v), diff);
	}
	fprintf(out, "\n");
}

static void print_mmtests(const struct cmp_result *r, FILE *out)
{
	static const char *const rows[] = { "Min", "Amean", "Stddev", "CoeffVar", "Max" };

	header(r, out, "");
	env_text(r, out, false);
	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct cmp_group *g = &r->groups[i];
		char name[512];

		if (!g->common)
			continue;
		cmp_group_name(g, name, sizeof(name));
		fprintf(out, "\n%s\n%27s", name, "");
		for (unsigned s = 0; s < r->nsides; s++)
			fprintf(out, " %23.23s", r->sides[s].name);
		fprintf(out, "\n");
		for (size_t m = 0; m < cmp_nmetrics; m++) {
			if (!g->cell[0].n[m] || r->o.metric_off[m])
				continue;
			for (int k = 0; k < 5; k++)
				mm_row(r, g, m, rows[k], k, out);
			fprintf(out, "%-9s%-18.18s %23s", "Verdict", cmp_metrics[m].name, "");
			for (unsigned s = 1; s < r->nsides; s++) {
				const struct cmp_delta *d = cmp_delta_of(r, g, s, m);

				fprintf(out, " %23s", d->valid ? cmp_verdict_names[d->verdict] : "-");
			}
			fprintf(out, "\n");
		}
		point_notes(r, g, out, "");
	}
	fprintf(out, "\n");
	totals(r, out, "");
	notes(r, out, "");
}

static void print_markdown(const struct cmp_result *r, FILE *out)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];

	header(r, out, "");
	env_text(r, out, true);
	fprintf(out, "\n| point | metric | %s (baseline) | side | mean ± CoV | change | %g%% CI | p | verdict |\n",
		r->sides[0].label, 100 * (1 - r->o.alpha));
	fprintf(out, "|---|---|---|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct cmp_group *g = &r->groups[i];
		char name[512];

		if (!g->common)
			continue;
		cmp_group_name(g, name, sizeof(name));
		for (size_t m = 0; m < cmp_nmetrics; m++)
			for (unsigned s = 1; s < r->nsides; s++) {
				const struct cmp_delta *dl = cmp_delta_of(r, g, s, m);
				const struct st_desc *x = &g->cell[0].d[m], *y = &g->cell[s].d[m];
				enum cmp_verdict v = dl->verdict;

				if (!dl->valid)
					continue;
				fprintf(out, "| %s | %s | %s ± %.1f%% | %s | %s ± %.1f%% | %s | [%s, %s] | %s | %s%s%s |\n",
					name, cmp_metrics[m].name, num(a, 32, x->mean), x->cov_pct,
					r->sides[s].label, num(b, 32, y->mean), y->cov_pct,
					pct(c, 32, dl->pct), pct(d, 32, dl->lo), pct(e, 32, dl->hi),
					pval(f, 32, dl->p),
					v == CMP_REGRESSION || v == CMP_IMPROVEMENT ? "**" : "",
					cmp_verdict_names[v],
					v == CMP_REGRESSION || v == CMP_IMPROVEMENT ? "**" : "");
			}
	}
	fprintf(out, "\n");
	for (unsigned i = 0; i < r->ngroups; i++)
		if (r->groups[i].common)
			point_notes(r, &r->groups[i], out, "- ");
	totals(r, out, "");
	notes(r, out, "- ");
}

int cmp_print(const struct cmp_result *r, enum cmp_format f, FILE *out)
{
	switch (f) {
	case CMP_FMT_TEXT:
		print_text(r, out);
		break;
	case CMP_FMT_LKP:
		print_lkp(r, out);
		break;
	case CMP_FMT_MMTESTS:
		print_mmtests(r, out);
		break;
	case CMP_FMT_MARKDOWN:
		print_markdown(r, out);
		break;
	case CMP_FMT_JSON:
		return cmp_print_json(r, out);
	}
	return ferror(out) ? -EIO : 0;
}
