/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_fmt.c - the profile comparison written out: text (the
 * first keys per point and side, with CI, p, q and verdict), LKP's
 * perf-profile.* lines, and the JSON array of compare --format json.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/esc.h"
#include "lib/json.h"
#include "results/compare/lkp_names.h"
#include "results/compare/profile.h"

/* The sampling event of the baseline's first profiled run (LKP's name
 * for it where none was: cpu-clock). */
static const char *profile_event(const struct cmp_result *r)
{
	const char *e = cmp_profile_event(r);

	return e ? e : cmp_lkp_profile_event(NULL);
}

/* The LKP stats' key: "cgscale.perf-profile.self.EVENT.SYM", per mode
 * where the test ran in both (results/compare/lkp_names.c). */
static void lkp_key(const struct cmp_result *r, const struct cmp_prof_row *w,
		    char *buf, size_t len)
{
	const struct cmp_group *g = &r->groups[w->group];
	char pk[4100], sym[1024];

	cmp_lkp_profile_key(cmp_prof_kind_names[w->kind], profile_event(r),
			    cgs_esc(w->sym, sym, sizeof(sym)),
			    pk, sizeof(pk));
	snprintf(buf, len, CMP_LKP_PROGRAM ".");
	cmp_lkp_key(pk, g->mode, cmp_lkp_both_modes(r, g), buf + strlen(buf),
		    len - strlen(buf));
}

/* As results/compare/lkp.c prints a value: %.2f, "± N%" (population stddev,
 * truncated) only above 2%. @cov is the sample CoV of @n runs. */
static void lkp_value(FILE *out, double v, double cov, size_t n)
{
	double pop = isfinite(cov) && n > 1 ? cov * sqrt((double)(n - 1) / (double)n) : -1;

	fprintf(out, "%10.2f", v);
	if (pop > 2)
		fprintf(out, " \xc2\xb1%3lld%%", (long long)pop);
	else
		fprintf(out, "%6s", "");
}

/* The row of the same key as @w on side @s, or NULL. */
static const struct cmp_prof_row *same_key(const struct cmp_profile *p,
					   const struct cmp_prof_row *w, unsigned s)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->rows[i].group == w->group && p->rows[i].side == s &&
		    p->rows[i].kind == w->kind && !strcmp(p->rows[i].sym, w->sym))
			return &p->rows[i];
	return NULL;
}

void cmp_profile_lkp_group(const struct cmp_result *r, const struct cmp_profile *p,
			   unsigned group, FILE *out)
{
	char name[4300];

	for (size_t i = 0; p && i < p->n; i++) {
		const struct cmp_prof_row *w = &p->rows[i];

		if (w->group != group || w->side != 1)
			continue;
		lkp_key(r, w, name, sizeof(name));
		lkp_value(out, w->mean_a, w->cov_a, w->na);
		for (unsigned s = 1; s < r->nsides; s++) {
			const struct cmp_prof_row *x = s == 1 ? w : same_key(p, w, s);

			if (!x) {
				fprintf(out, "%*s", 10 + 1 + 10 + 6 + 1, "");
				continue;
			}
			/* percentage points, as LKP's perf-profile rows: no % sign */
			fprintf(out, "%+10.1f  ", x->d.pct);
			lkp_value(out, x->mean_b, x->cov_b, x->nb);
		}
		fprintf(out, "  %s\n", name);
	}
}

static void text_rows(const struct cmp_result *r, const struct cmp_profile *p,
		      size_t from, size_t to, FILE *out)
{
	const size_t most = 30;

	fprintf(out, "  %8s %7s %7s  %-19s %8s %8s  %-12s %s\n", "change", r->sides[0].label,
		r->sides[p->rows[from].side].label, "CI (pp)", "p", "q", "verdict", "key");
	for (size_t i = from; i < to && i < from + most; i++) {
		const struct cmp_prof_row *w = &p->rows[i];
		char ci[64], sym[1024];

		if (isfinite(w->d.lo))
			snprintf(ci, sizeof(ci), "[%+.2f, %+.2f]", w->d.lo, w->d.hi);
		else
			snprintf(ci, sizeof(ci), "-");
		fprintf(out, "  %+8.2f %7.2f %7.2f  %-19s %8.3g %8.3g  %-12s %s.%s\n",
			w->d.pct, w->mean_a, w->mean_b, ci, w->d.p, w->d.q, w->verdict,
			cmp_prof_kind_names[w->kind], cgs_esc(w->sym, sym, sizeof(sym)));
	}
	if (to - from > most)
		fprintf(out, "  ... %zu more at or above the floor (--format lkp lists all)\n",
			to - from - most);
}

/* Whether text shows the shares of rows [i, ...): the point has no
 * profile in time per op (no CPU time per op). */
static bool shares_shown(const struct cmp_profile *p, size_t i)
{
	return !cmp_profile_point_ns(p, p->rows[i].group, p->rows[i].side);
}

void cmp_profile_print(const struct cmp_result *r, const struct cmp_profile *p,
		       enum cmp_format f, FILE *out)
{
	bool said = false;

	if (!p || (!p->n && !p->npts))
		return;
	if (f == CMP_FMT_TEXT)
		cmp_profile_ns_print(r, p, out);
	for (size_t i = 0; i < p->n;) {
		size_t j = i;
		char name[512];

		while (j < p->n && p->rows[j].group == p->rows[i].group &&
		       p->rows[j].side == p->rows[i].side)
			j++;
		if (f == CMP_FMT_TEXT && !shares_shown(p, i)) {
			i = j;
			continue;
		}
		if (f == CMP_FMT_TEXT && !said)
			fprintf(out, "\nProfile: share of samples in percentage points (these points have no CPU time per op for ns/op), keys at or above %g%% on a side, largest change first; GREW/SHRANK need the CI beyond +-%g pp and q < alpha\n",
				p->floor, p->threshold);
		said = true;
		cmp_group_name(&r->groups[p->rows[i].group], name, sizeof(name));
		if (f == CMP_FMT_LKP) {
			if (p->rows[i].side == 1)
				cmp_profile_lkp_group(r, p, p->rows[i].group, out);
		} else {
			fprintf(out, "\n%s, %s against %s (%zu and %zu runs):\n", name,
				r->sides[p->rows[i].side].label, r->sides[0].label,
				p->rows[i].na, p->rows[i].nb);
			text_rows(r, p, i, j, out);
		}
		i = j;
	}
}

struct json_object *cmp_profile_json(const struct cmp_result *r,
				     const struct cmp_profile *p)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < p->n; i++) {
		const struct cmp_prof_row *w = &p->rows[i];
		struct json_object *o = json_object_new_object(), *ci = json_object_new_array();
		char name[512], key[600];

		cmp_group_name(&r->groups[w->group], name, sizeof(name));
		snprintf(key, sizeof(key), "%s.%s", cmp_prof_kind_names[w->kind], w->sym);
		cgs_jadd(o, "point", json_object_new_string(name));
		cgs_jadd(o, "side", json_object_new_string(r->sides[w->side].label));
		cgs_jadd(o, "key", json_object_new_string(key));
		cgs_jadd(o, "kind", json_object_new_string(cmp_prof_kind_names[w->kind]));
		cgs_jadd(o, "symbol", json_object_new_string(w->sym));
		cgs_jadd(o, "runs", json_object_new_int((int)w->na));
		cgs_jadd(o, "runs_new", json_object_new_int((int)w->nb));
		cgs_jadd(o, "base_pct", cgs_jnum(w->mean_a));
		cgs_jadd(o, "new_pct", cgs_jnum(w->mean_b));
		cgs_jadd(o, "base_cov_pct", cgs_jnum(w->cov_a));
		cgs_jadd(o, "new_cov_pct", cgs_jnum(w->cov_b));
		cgs_jadd(o, "change_pp", cgs_jnum(w->d.pct));
		json_object_array_add(ci, cgs_jnum(w->d.lo));
		json_object_array_add(ci, cgs_jnum(w->d.hi));
		cgs_jadd(o, "ci_pp", ci);
		cgs_jadd(o, "p", cgs_jnum(w->d.p));
		cgs_jadd(o, "q", cgs_jnum(w->d.q));
		cgs_jadd(o, "verdict", json_object_new_string(w->verdict));
		cgs_jadd(o, "why", json_object_new_string(w->d.why));
		json_object_array_add(a, o);
	}
	return a;
}
