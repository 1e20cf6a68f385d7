/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_head.c - the top of the `cgscale compare --html` page:
 * the sides, the settings, the verdict counts (beside the headline of
 * results/report/compare_page.c), the notes and power warnings, and the
 * environment diff; and the table cells of a change
 * (per cent, p, verdict) that the rest of the page (results/report/compare_page.c)
 * uses too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/compare/model.h"
#include "results/compare/fmt.h"
#include "results/report/document.h"
#include "results/report/compare_page.h"

static const char *const verdict_meaning[CMP_NVERDICT] = {
	[CMP_NO_CHANGE] = "the CI lies within +-T",
	[CMP_IMPROVEMENT] = "the CI lies entirely beyond T on the better side "
			    "(above +T when higher is better, below -T when lower is)",
	[CMP_REGRESSION] = "the CI lies entirely beyond T on the worse side "
			   "(below -T when higher is better, above +T when lower is)",
	[CMP_NOISY] = "a side's runs vary more than --max-cov",
	[CMP_INCONCLUSIVE] = "anything else: too few runs, or a CI across +-T",
};

void rpt_td_verdict(FILE *o, enum cmp_verdict v)
{
	char cls[32];

	snprintf(cls, sizeof(cls), "v-%s", cmp_verdict_names[v]);
	for (char *c = cls; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
	fprintf(o, "<td class=\"%s\">%s</td>", cls, cmp_verdict_names[v]);
}

void rpt_td_pct(FILE *o, double v)
{
	char b[32];

	if (isfinite(v) && v >= CMP_RATIO_FROM_PCT)
		fprintf(o, "<td class=\"n\">%s</td>", cmp_fmt_pct(b, sizeof(b), v));
	else if (isfinite(v))
		fprintf(o, "<td class=\"n\">%+.2f</td>", v);
	else
		fprintf(o, "<td class=\"n\">-</td>");
}

void rpt_td_p(FILE *o, double p)
{
	if (!isfinite(p))
		fprintf(o, "<td class=\"n\">-</td>");
	else if (p < 0.0001)
		fprintf(o, "<td class=\"n\">&lt;0.0001</td>");
	else
		fprintf(o, "<td class=\"n\">%.4f</td>", p);
}

/* ---- the head: sides, settings, verdicts, notes, power ---- */

static void power_notes(FILE *o, const struct cmp_result *r)
{
	unsigned never = 0, few = 0;
	double minp = 1;

	for (unsigned i = 0; i < r->ngroups; i++)
		for (unsigned s = 1; r->groups[i].common && s < r->nsides; s++)
			for (size_t m = 0; m < r->ms.n; m++) {
				const struct cmp_group *g = &r->groups[i];
				const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
				size_t na = g->cell[0].n[m], nb = g->cell[s].n[m];

				if (!d->valid || r->ms.m[m].cls != CMP_PRIMARY)
					continue;
				if (d->min_p >= r->o.alpha) {
					never++;
					minp = fmin(minp, d->min_p);
				} else if (d->runs_needed > (na < nb ? na : nb)) {
					few++;
				}
			}
	if (never)
		fprintf(o, "<p class=\"warn\">Power: at %u point%s the number of runs can "
			   "never give p &lt; %g (the smallest p it allows is %.3g).</p>\n",
			never, never == 1 ? "" : "s", r->o.alpha, minp);
	if (few)
		fprintf(o, "<p class=\"warn\">Power: at %u point%s the runs are few for "
			   "the noise seen.</p>\n", few, few == 1 ? "" : "s");
	if (never || few)
		fprintf(o, "<p>The tables give, per point, about how many runs a side "
			   "would find a change of T with 80%% power (column \"runs for "
			   "T\").</p>\n");
}

/* The notes of the comparison, in one box; beyond six, folded. */
static void notes(FILE *o, const struct cmp_result *r)
{
	if (!r->nnotes)
		return;
	fprintf(o, "<div class=\"info\">Notes:\n<ul>\n");
	for (unsigned i = 0; i < r->nnotes; i++) {
		if (i == 6)
			fprintf(o, "</ul>\n<details><summary>%u more notes</summary>\n<ul>\n",
				r->nnotes - 6);
		fprintf(o, "<li>");
		rpt_html_puts(o, r->notes[i]);
		fprintf(o, "</li>\n");
	}
	fprintf(o, "</ul>\n%s</div>\n", r->nnotes > 6 ? "</details>\n" : "");
}

void rpt_cmp_head(struct rpt_doc *d, const struct cmp_result *r)
{
	FILE *o = d->out;

	fprintf(o, "<h1>cgscale compare</h1>\n<p class=\"sub\">");
	for (unsigned s = 0; s < r->nsides; s++)
		rpt_html_printf(o, "%s%s = %s (%u file%s)%s", s ? ", " : "",
				r->sides[s].label, r->sides[s].arg, r->sides[s].nfiles,
				r->sides[s].nfiles == 1 ? "" : "s",
				s ? "" : " [baseline]");
	fprintf(o, ".<br/>");
	rpt_html_printf(o, "Axis %s. Practical threshold T: %g%% primary, %g%% secondary. "
			"NOISY above a CoV of %g%%. %g%% CI of the change %s; p by %s. "
			"Change: " CMP_SIGN_LEGEND ".",
			r->o.axis, r->o.threshold[CMP_PRIMARY],
			r->o.threshold[CMP_SECONDARY], r->o.max_cov,
			100 * (1 - r->o.alpha),
			r->o.welch ? "by Welch's t of the logs" : "by the Hodges-Lehmann rank interval",
			r->o.welch ? "Welch's t" : "Mann-Whitney U");
	fprintf(o, "</p>\n");
	rpt_doc_status(d);
	o = d->out;
	if (r->problem[0]) {
		fprintf(o, "<p class=\"warn\"><b>These inputs cannot be compared</b>: ");
		rpt_html_puts(o, r->problem);
		fprintf(o, " (exit status 3). The environment diff below shows why.</p>\n");
	}
}

void rpt_cmp_verdicts(FILE *o, const struct cmp_result *r)
{
	fprintf(o, "<table id=\"verdicts\">\n<caption>Verdicts, all points and metrics</caption>\n"
		   "<tr><th>verdict</th><th>count</th><th>means</th></tr>\n");
	for (int v = 0; v < CMP_NVERDICT; v++) {
		fprintf(o, "<tr>");
		rpt_td_verdict(o, (enum cmp_verdict)v);
		fprintf(o, "<td class=\"n\">%u</td>", r->count[v]);
		rpt_td(o, verdict_meaning[v]);
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n");
}

void rpt_cmp_notes(FILE *o, const struct cmp_result *r)
{
	notes(o, r);
	power_notes(o, r);
}

/* ---- the environment diff ---- */

static void env_row(FILE *o, const struct cmp_result *r, const struct cmp_envrow *e)
{
	fprintf(o, "<tr%s><th class=\"mono\">", e->differs || e->mixed ?
		" class=\"differs\"" : "");
	rpt_html_puts(o, e->field);
	fprintf(o, "</th>");
	rpt_td(o, e->axis ? "axis" : e->critical ? "critical" : "info");
	rpt_td(o, e->mixed ? "within a side" : e->differs ? "between sides" : "");
	for (unsigned s = 0; s < r->nsides; s++) {
		fprintf(o, "<td class=\"mono\">");
		rpt_html_puts(o, e->val[s] ? e->val[s] : "-");
		fprintf(o, "</td>");
	}
	fprintf(o, "</tr>\n");
}

void rpt_cmp_env(struct rpt_doc *d, const struct cmp_result *r)
{
	FILE *o = d->out;
	unsigned same = 0;

	fprintf(o, "<h2 id=\"env\">Environment</h2>\n<p>Critical fields that differ "
		   "make the inputs incomparable unless they are the axis or "
		   "<code>--allow-env-diff</code> is given. Marked rows differ.</p>\n");
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			if (!same)
				break;
			fprintf(o, "<details><summary>%u fields equal on every side"
				   "</summary>\n", same);
		}
		fprintf(o, "<table>\n<tr><th>field</th><th>kind</th><th>differs</th>");
		for (unsigned s = 0; s < r->nsides; s++)
			rpt_th(o, r->sides[s].label);
		fprintf(o, "</tr>\n");
		for (unsigned i = 0; i < r->nenv; i++) {
			const struct cmp_envrow *e = &r->env[i];
			bool first = e->differs || e->mixed || e->axis;

			if (e->hidden)
				continue;
			same += !pass && !first;
			if (first == !pass)
				env_row(o, r, e);
		}
		fprintf(o, "</table>\n%s", pass ? "</details>\n" : "");
	}
}

/* Whether the points differ in cgroup layout, or in workload options. */
