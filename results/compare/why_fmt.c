/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why_fmt.c - "where the time went" (why.h) written out: a few short
 * lines at the top of a point in compare's text, and the same figures
 * as an object of the point in --format json. Changes first, then the
 * two means, then the metric's verdict.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/esc.h"
#include "lib/json.h"
#include "results/compare/fmt.h"
#include "results/compare/why.h"

/* "3601 -> 4113", with the ratio when it is x10 or more. */
static const char *fmt_ab(char *buf, size_t len, double a, double b)
{
	char x[32], y[32], z[32] = "";

	if (a > 0 && b / a >= 1 + CMP_RATIO_FROM_PCT / 100)
		snprintf(z, sizeof(z), " (%s)", cmp_fmt_pct(x, sizeof(x), 100 * (b / a - 1)));
	snprintf(buf, len, "%s -> %s%s", cmp_fmt_num(x, sizeof(x), a),
		 cmp_fmt_num(y, sizeof(y), b), z);
	return buf;
}

static const char *verdict_of(const struct cmp_why_row *w)
{
	return w->delta && w->delta->valid ? cmp_verdict_names[w->delta->verdict] : "";
}

static void rows(const struct cmp_why_row *w, unsigned n, FILE *out, const char *lead,
		 int width)
{
	char d[32], ab[96];

	for (unsigned i = 0; i < n; i++)
		fprintf(out, "%s      %8s  %-*s %-24s %s\n", lead, cmp_fmt_delta(d, sizeof(d), w[i].d),
			width, w[i].name, fmt_ab(ab, sizeof(ab), w[i].a, w[i].b), verdict_of(&w[i]));
}

static void head_line(const struct cmp_result *r, const struct cmp_why *w, FILE *out,
		      const char *lead)
{
	char d[32], ab[96], pct[32];

	fprintf(out, "%s  where the time went, %s against %s (ns per op, means of the runs):\n",
		lead, r->sides[w->side].label, r->sides[0].label);
	fprintf(out, "%s    %-12s%8s  %-24s", lead, "wall", cmp_fmt_delta(d, sizeof(d), w->wall_d),
		fmt_ab(ab, sizeof(ab), w->wall_a, w->wall_b));
	if (w->head && w->head->valid)
		fprintf(out, "  %s %s %s", w->head_name, cmp_fmt_change(pct, sizeof(pct), w->head),
			cmp_verdict_names[w->head->verdict]);
	fprintf(out, "\n");
}

bool cmp_why_split_text(const struct cmp_why *w, char *buf, size_t len)
{
	char c[256];

	if (!w->split_by)
		return false;
	cgs_esc(w->split_config ? w->split_config : "", c, sizeof(c));
	if (!strcmp(w->split_by, "exact"))
		snprintf(buf, len, "user/sys: split exactly at each kernel entry and exit (%s)", c);
	else if (isfinite(w->user_se))
		snprintf(buf, len, "user/sys: split by the scheduler tick (%s), a sample: the user (and sys) change is +-%.1f ns/op (1 SE of the ticks), so one within about %.0f of 0 is not seen",
			 c, w->user_se, 2 * w->user_se);
	else
		snprintf(buf, len, "user/sys: split by %s (%s), its error unknown",
			 !strcmp(w->split_by, "ticks") ? "the scheduler tick" : "a clock not known", c);
	return true;
}

/* How the kernel split user and sys, and what that means for the user
 * and sys parts' change. Names from a result file are escaped. */
static void split_line(const struct cmp_why *w, FILE *out, const char *lead)
{
	char t[512];

	if (cmp_why_split_text(w, t, sizeof(t)))
		fprintf(out, "%s      %s\n", lead, t);
	if (cmp_why_prof_split_text(w, t, sizeof(t)))
		fprintf(out, "%s      %s\n", lead, t);
}

bool cmp_why_prof_split_text(const struct cmp_why *w, char *buf, size_t len)
{
	int n;

	if (!w->have_prof_split)
		return false;
	n = snprintf(buf, len, "user/sys by the profile's samples (their user-mode share x the CPU time): user change %+.1f +-%.1f ns/op (1 SE: their sampling or the runs' spread, the larger)%s",
		     w->prof_user_d, w->prof_user_se,
		     w->prof_biased ? "" : w->prof_preferred ?
		     "; finer than the kernel's split: read the user change from this line" :
		     "; the kernel's split is as fine or finer");
	if (w->prof_biased && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; WARNING: %.1f errors from the kernel's split (%+.1f): on this box the profile's samples are not spread as the CPU time is, so the ns/op of user-mode functions read %s and of kernel ones %s: trust the parts above for time",
			 w->prof_apart, w->part[0].d,
			 w->prof_user_d > w->part[0].d ? "high" : "low",
			 w->prof_user_d > w->part[0].d ? "low" : "high");
	return true;
}

static void parts(const struct cmp_why *w, FILE *out, const char *lead)
{
	char d[32], e[32], ab[96];

	if (!w->have_parts) {
		fprintf(out, "%s      (no account of the time in these results: "
			"run without --no-account for the split)\n", lead);
		return;
	}
	for (int k = 0; k < CMP_WHY_NPART; k++)
		fprintf(out, "%s      %-10s%8s  %-24s %s\n", lead, w->part[k].name,
			cmp_fmt_delta(d, sizeof(d), w->part[k].d),
			fmt_ab(ab, sizeof(ab), w->part[k].a, w->part[k].b), verdict_of(&w->part[k]));
	fprintf(out, "%s      the four add up to %s (from ops/s: %s)\n", lead,
		cmp_fmt_delta(d, sizeof(d), w->parts_d), cmp_fmt_delta(e, sizeof(e), w->ops_wall_d));
	split_line(w, out, lead);
}

void cmp_why_print(const struct cmp_result *r, const struct cmp_why *w, FILE *out,
		   const char *lead)
{
	char d[32], e[32];

	head_line(r, w, out, lead);
	parts(w, out, lead);
	if (!w->fn_how)
		fprintf(out, "%s    functions: no profile (run --profile)\n", lead);
	else if (!w->nfn)
		fprintf(out, "%s    functions (sampled on %s): no function's change holds across the runs at this noise (none is significant after Benjamini-Hochberg over the functions: more runs a side, or --welch, can show one); the profile section lists them all\n",
			lead, w->fn_event ? w->fn_event : "an event the results do not name");
	else {
		fprintf(out, "%s    functions (%s; sampled on %s):\n", lead, w->fn_how,
			w->fn_event ? w->fn_event : "an event the results do not name");
		rows(w->fn, w->nfn, out, lead, 32);
		fprintf(out, "%s      these %u: %s", lead, w->nfn, cmp_fmt_delta(d, sizeof(d), w->fn_d));
		if (w->have_parts)
			fprintf(out, " of the CPU time's %s (user + sys)",
				cmp_fmt_delta(e, sizeof(e), w->part[0].d + w->part[1].d));
		if (w->fn_more_d != 0)
			fprintf(out, "; more that hold: %s", cmp_fmt_delta(e, sizeof(e), w->fn_more_d));
		fprintf(out, "\n");
	}
	if (w->fn_how && w->nfn_noise)
		fprintf(out, "%s      within noise (%u functions whose change is not significant): %s\n", lead,
			w->nfn_noise, cmp_fmt_delta(d, sizeof(d), w->fn_noise_d));
	if (w->fn_how && w->fn_skew_d != 0)
		fprintf(out, "%s      at interrupt-enable sites (a skewed profile: their callers' time, never a cause): %s\n",
			lead, cmp_fmt_delta(d, sizeof(d), w->fn_skew_d));
	if (!w->nctr && !w->nsys_ctr)
		fprintf(out, "%s    counters per op: none changed by T or more\n", lead);
	if (w->nctr) {
		fprintf(out, "%s    counters per op, the point's own cgroups:\n", lead);
		rows(w->ctr, w->nctr, out, lead, 42);
	}
	if (w->nsys_ctr) {
		fprintf(out, "%s    counters per op, system-wide (neighbours count too):\n", lead);
		rows(w->sys_ctr, w->nsys_ctr, out, lead, 42);
	}
	if (w->nwho) {
		fprintf(out, "%s    work outside the tasks, by who (ns per op, --profile-scope):\n", lead);
		rows(w->who, w->nwho, out, lead, 42);
	}
	if (w->nreader) {
		fprintf(out, "%s    the stat reader's functions, self time (ns per op, merged over the runs; interrupt-enable sites are its callers' time):\n", lead);
		rows(w->reader, w->nreader, out, lead, 42);
	}
	if (w->nlock) {
		fprintf(out, "%s    lock time (ns per op):\n", lead);
		rows(w->lock, w->nlock, out, lead, 42);
	}
}

void cmp_why_print_group(const struct cmp_result *r, unsigned g, FILE *out,
			 const char *lead)
{
	struct cmp_why w;

	for (unsigned s = 1; s < r->nsides; s++) {
		if (!r->groups[g].cell[0].ok || !r->groups[g].cell[s].ok)
			continue;
		cmp_why_point(r, g, s, &w);
		cmp_why_print(r, &w, out, lead);
	}
}

static struct json_object *row_json(const struct cmp_why_row *w)
{
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "name", cgs_jstr(w->name));
	cgs_jadd(o, "unit", cgs_jstr(w->unit));
	cgs_jadd(o, "base", cgs_jnum(w->a));
	cgs_jadd(o, "new", cgs_jnum(w->b));
	cgs_jadd(o, "change", cgs_jnum(w->d));
	if (isfinite(w->d_children))
		cgs_jadd(o, "children_change", cgs_jnum(w->d_children));
	cgs_jadd(o, "verdict", w->verdict ? cgs_jstr(w->verdict) : w->delta && w->delta->valid ?
		 cgs_jstr(cmp_verdict_names[w->delta->verdict]) : NULL);
	return o;
}

static struct json_object *rows_json(const struct cmp_why_row *w, unsigned n)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < n; i++)
		json_object_array_add(a, row_json(&w[i]));
	return a;
}

struct json_object *cmp_why_json(const struct cmp_result *r, const struct cmp_why *w)
{
	struct json_object *o = json_object_new_object(), *h = json_object_new_object();

	cgs_jadd(o, "side", cgs_jstr(r->sides[w->side].label));
	cgs_jadd(h, "base_ns_per_op", cgs_jnum(w->wall_a));
	cgs_jadd(h, "new_ns_per_op", cgs_jnum(w->wall_b));
	cgs_jadd(h, "change_ns_per_op", cgs_jnum(w->wall_d));
	cgs_jadd(h, "from", cgs_jstr(w->wall_from_account ? "account" : "per-task ops/s"));
	cgs_jadd(h, "change_from_ops_ns_per_op", cgs_jnum(w->ops_wall_d));
	cgs_jadd(h, "metric", cgs_jstr(w->head_name));
	cgs_jadd(h, "verdict", w->head && w->head->valid ?
		 cgs_jstr(cmp_verdict_names[w->head->verdict]) : NULL);
	cgs_jadd(o, "wall", h);
	cgs_jadd(o, "parts", w->have_parts ? rows_json(w->part, CMP_WHY_NPART) : NULL);
	cgs_jadd(o, "parts_change_ns_per_op", w->have_parts ? cgs_jnum(w->parts_d) : NULL);
	if (w->split_by) {
		struct json_object *sp = json_object_new_object();

		cgs_jadd(sp, "by", cgs_jstr(w->split_by));
		cgs_jadd(sp, "config", cgs_jstr(w->split_config));
		cgs_jadd(sp, "user_change_se_ns_per_op", cgs_jnum(w->user_se));
		if (w->have_prof_split) {
			struct json_object *pf = json_object_new_object();

			cgs_jadd(pf, "user_change_ns_per_op", cgs_jnum(w->prof_user_d));
			cgs_jadd(pf, "user_change_se_ns_per_op", cgs_jnum(w->prof_user_se));
			cgs_jadd(pf, "preferred", json_object_new_boolean(w->prof_preferred));
			cgs_jadd(pf, "apart_errors", cgs_jnum(w->prof_apart));
			cgs_jadd(pf, "biased", json_object_new_boolean(w->prof_biased));
			cgs_jadd(sp, "profile", pf);
		}
		cgs_jadd(o, "user_sys_split", sp);
	}
	cgs_jadd(o, "functions_how", cgs_jstr(w->fn_how));
	cgs_jadd(o, "functions_event", cgs_jstr(w->fn_event));
	cgs_jadd(o, "functions", rows_json(w->fn, w->nfn));
	if (w->fn_how) {
		cgs_jadd(o, "functions_more_ns_per_op", cgs_jnum(w->fn_more_d));
		cgs_jadd(o, "functions_within_noise_ns_per_op", cgs_jnum(w->fn_noise_d));
		cgs_jadd(o, "functions_within_noise", json_object_new_int((int)w->nfn_noise));
		cgs_jadd(o, "functions_at_irq_enable_sites_ns_per_op", cgs_jnum(w->fn_skew_d));
	}
	cgs_jadd(o, "counters", rows_json(w->ctr, w->nctr));
	cgs_jadd(o, "counters_system_wide", rows_json(w->sys_ctr, w->nsys_ctr));
	cgs_jadd(o, "locks", rows_json(w->lock, w->nlock));
	cgs_jadd(o, "who", rows_json(w->who, w->nwho));
	cgs_jadd(o, "stat_reader_functions", rows_json(w->reader, w->nreader));
	return o;
}

struct json_object *cmp_why_json_group(const struct cmp_result *r, unsigned g)
{
	struct json_object *a = json_object_new_array();
	struct cmp_why w;

	for (unsigned s = 1; s < r->nsides; s++) {
		if (!r->groups[g].cell[0].ok || !r->groups[g].cell[s].ok)
			continue;
		cmp_why_point(r, g, s, &w);
		json_object_array_add(a, cmp_why_json(r, &w));
	}
	return a;
}
