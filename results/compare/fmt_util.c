/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt_util.c - what every human format of `cgscale compare` shares:
 * number formatting (a change of x10 or more as a ratio), the run header (with the legend of the change's
 * sign), the environment diff, the notes and verdict totals, and the
 * per-point failure and power notes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/esc.h"
#include "results/compare/model.h"
#include "results/compare/fmt.h"

/* A number in at most ~10 characters: whole above 100, else 4 digits. */
const char *cmp_fmt_num(char *buf, size_t len, double v)
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

const char *cmp_fmt_delta(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%+.0f", v);
	else if (fabs(v) >= 1)
		snprintf(buf, len, "%+.1f", v);
	else
		snprintf(buf, len, "%+.3g", v);
	return buf;
}

const char *cmp_fmt_pct(char *buf, size_t len, double v)
{
	double x = 1 + v / 100;

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v >= CMP_RATIO_FROM_PCT && isinf(v))
		snprintf(buf, len, "xinf");
	else if (v >= CMP_RATIO_FROM_PCT)
		/* from a near-zero baseline a % says nothing: "x788" */
		snprintf(buf, len, x < 100 ? "x%.1f" : "x%.0f", x);
	else
		snprintf(buf, len, "%+.2f%%", v);
	return buf;
}

const char *cmp_fmt_change(char *buf, size_t len, const struct cmp_delta *d)
{
	if (d->from_zero)
		snprintf(buf, len, "from 0");
	else
		cmp_fmt_pct(buf, len, d->pct);
	return buf;
}

const char *cmp_fmt_cov(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

const char *cmp_fmt_pval(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "%.1e", p);
	else
		snprintf(buf, len, "%.4f", p);
	return buf;
}

bool cmp_fmt_significant(const struct cmp_result *r, const struct cmp_delta *d,
			const struct cmp_metric *m)
{
	double p = m->cls == CMP_PRIMARY ? d->p : d->q;

	return d->valid && p < r->o.alpha;
}

void cmp_fmt_header(const struct cmp_result *r, FILE *out, const char *lead)
{
	char arg[1024];

	fprintf(out, "%scgscale compare:", lead);
	for (unsigned s = 0; s < r->nsides; s++)
		fprintf(out, "%s %s = %s (%u file%s)%s", s ? "," : "",
			r->sides[s].label, cgs_esc(r->sides[s].arg, arg, sizeof(arg)),
			r->sides[s].nfiles,
			r->sides[s].nfiles == 1 ? "" : "s", s ? "" : " [baseline]");
	fprintf(out, "\n%saxis %s; T = %g%% primary, %g%% secondary, %g%% tail; --max-cov %g%%; %g%% CI %s; p by %s\n",
		lead, r->o.axis, r->o.threshold[CMP_PRIMARY],
		r->o.threshold[CMP_SECONDARY], r->o.threshold[CMP_TAIL],
		r->o.max_cov, 100 * (1 - r->o.alpha),
		r->o.welch ? "by Welch's t of the logs" : "by the Hodges-Lehmann rank interval",
		r->o.welch ? "Welch's t" : "Mann-Whitney U");
	fprintf(out, "%schange: " CMP_SIGN_LEGEND "\n", lead);
}

/* The environment rows worth showing: differences, and the axis. */
static bool env_shown(const struct cmp_envrow *e)
{
	return !e->hidden &&
	       (e->differs || e->mixed || (e->axis && strcmp(e->field, "cgroup.layout")));
}

/* Whether the space-separated @tok (of length @n) is a word of @line. */
static bool has_word(const char *line, const char *tok, size_t n)
{
	for (const char *p = line; p && *p; p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL)
		if (!strncmp(p, tok, n) && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* The words of side @s's command line (row @e) that some other side
 * lacks, "+"-marked, into @buf: a long line cut at the row's width would
 * hide the one argument that tells the sides apart (ab's boots). */
static const char *cmdline_own(const struct cmp_envrow *e, unsigned nsides, unsigned s,
			       char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (const char *p = e->val[s]; p && *p; p += strcspn(p, " "), p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");
		bool all = true;

		for (unsigned o = 0; o < nsides && all; o++)
			all = o == s || (e->val[o] && has_word(e->val[o], p, n));
		if (!all && used + n + 3 < len)
			used += (size_t)snprintf(buf + used, len - used, "%s+%.*s", used ? " " : "",
						 (int)n, p);
	}
	return used ? buf : "(no word of its own)";
}

/* Whether a shown kernel.config option row is absent on some side. */
static bool absent_option(const struct cmp_result *r)
{
	for (unsigned i = 0; i < r->nenv; i++)
		for (unsigned s = 0; s < r->nsides; s++)
			if (env_shown(&r->env[i]) && !r->env[i].val[s] &&
			    !strncmp(r->env[i].field, "kernel.config.options.", 22))
				return true;
	return false;
}

/* The strings of an environment row are the result files': escaped. */
void cmp_fmt_env(const struct cmp_result *r, FILE *out, bool md)
{
	char f[256], v[512];
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
			fprintf(out, "| %s | %s |", cgs_esc(e->field, f, sizeof(f)),
				e->axis ? "axis" : e->critical ? "critical" : "info");
			for (unsigned s = 0; s < r->nsides; s++)
				fprintf(out, " %.80s |", e->val[s] ? cgs_esc(e->val[s], v, sizeof(v)) : "-");
			fprintf(out, "\n");
			continue;
		}
		fprintf(out, "  %-34s %-8s", cgs_esc(e->field, f, sizeof(f)),
			e->axis ? "axis" : e->critical ? "critical" : "info");
		bool words = e->differs && !strcmp(e->field, "kernel.cmdline");

		for (unsigned s = 0; s < r->nsides; s++) {
			char own[512];

			fprintf(out, "%s %s: %.70s", s ? " |" : "", r->sides[s].label,
				!e->val[s] ? "-" : cgs_esc(words ? cmdline_own(e, r->nsides, s, own, sizeof(own)) :
							   e->val[s], v, sizeof(v)));
		}
		fprintf(out, "%s\n", words ? "  (the words that differ)" : "");
	}
	if (!any)
		fprintf(out, "\nenvironment: no difference in the recorded fields\n");
	else if (!md && absent_option(r))
		fprintf(out, "  (a kernel.config option: \"-\" the kernel's config has no such option at all; \"n\" it has, not set)\n");
}

void cmp_fmt_notes(const struct cmp_result *r, FILE *out, const char *lead)
{
	char n[4096];

	for (unsigned i = 0; i < r->nnotes; i++)
		fprintf(out, "%snote: %s\n", lead, cgs_esc(r->notes[i], n, sizeof(n)));
}

void cmp_fmt_totals(const struct cmp_result *r, FILE *out, const char *lead)
{
	fprintf(out, "%sverdicts:", lead);
	for (int v = 0; v < CMP_NVERDICT; v++)
		fprintf(out, " %s %u%s", cmp_verdict_names[v], r->count[v],
			v + 1 < CMP_NVERDICT ? "," : "\n");
}

/* Failed runs, LKP's fail:runs, and the power warning of the primary. */
void cmp_fmt_point_notes(const struct cmp_result *r, const struct cmp_group *g,
			FILE *out, const char *lead)
{
	char why[1024];

	for (unsigned s = 0; s < r->nsides; s++)
		if (g->cell[s].runs > g->cell[s].ok + g->cell[s].disturbed)
			fprintf(out, "%sfail:runs %s %u:%u (%s)\n", lead,
				r->sides[s].label,
				g->cell[s].runs - g->cell[s].ok - g->cell[s].disturbed,
				g->cell[s].runs, cgs_esc(g->cell[s].fail_reason, why, sizeof(why)));
	for (unsigned s = 0; s < r->nsides; s++)
		if (g->cell[s].disturbed)
			fprintf(out, "%sdisturbed %s %u of %u ok runs, left out (see the notes; --keep-disturbed uses them)\n",
				lead, r->sides[s].label, g->cell[s].disturbed,
				g->cell[s].ok + g->cell[s].disturbed);
	for (unsigned s = 1; s < r->nsides; s++)
		for (size_t m = 0; m < r->ms.n; m++) {
			const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
			size_t na = g->cell[0].n[m], nb = g->cell[s].n[m];

			if (!d->valid || r->ms.m[m].cls != CMP_PRIMARY)
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
			if (d->two_level)   /* the units are invocations (ab: boots) */
				fprintf(out, " give each side about %u invocations (run --invocations %u; in cgscale ab, --boots %u) to find a %g%% change of %s with 80%% power at this noise\n",
					d->runs_needed, d->runs_needed, d->runs_needed, d->threshold,
					r->ms.m[m].name);
			else
				fprintf(out, " rerun each side with --runs %u (about; or -r auto -T %g) to find a %g%% change of %s with 80%% power at this noise\n",
					d->runs_needed, d->threshold, d->threshold, r->ms.m[m].name);
		}
	for (unsigned s = 1; s < r->nsides; s++)
		for (size_t m = 0; m < r->ms.n; m++)
			if (r->ms.m[m].cls == CMP_PRIMARY)
				cmp_inv_print(r, g, s, m, out, lead);
}
