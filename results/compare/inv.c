/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inv.c - runs grouped by invocation in compare: which invocation
 * each run came from (a file's invocation.id, or the file itself), the
 * interval of the change by the two-level bootstrap of boot2.h when a
 * side has several invocations, and its text and JSON figures. With one
 * invocation a side, the interval is compare's one-level one, and the
 * output says that the variance between invocations is unknown.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/compare.h"
#include "lib/json.h"

int cmp_inv_id(struct cmp_side *s, const struct cmp_file *f, unsigned *id)
{
	struct json_object *v = NULL;
	const char *key = f->path;
	char **nv;

	if (f->res.invocation && json_object_object_get_ex(f->res.invocation, "id", &v) &&
	    json_object_is_type(v, json_type_string) && *json_object_get_string(v))
		key = json_object_get_string(v);
	for (unsigned i = 0; i < s->ninv; i++)
		if (!strcmp(s->inv_ids[i], key)) {
			*id = i;
			return 0;
		}
	nv = realloc(s->inv_ids, (s->ninv + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	s->inv_ids = nv;
	if (!(nv[s->ninv] = strdup(key)))
		return -ENOMEM;
	*id = s->ninv++;
	return 0;
}

unsigned cmp_inv_count(const unsigned *inv, size_t n)
{
	unsigned k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && inv[j] != inv[i])
			j++;
		k += j == i;
	}
	return k;
}

int cmp_inv_ci(const struct cmp_cell *a, const struct cmp_cell *b, size_t m,
	       const struct cmp_opts *o, uint64_t seed, struct cmp_delta *d)
{
	d->two_level = cmp_inv_count(a->inv[m], a->n[m]) > 1 ||
		       cmp_inv_count(b->inv[m], b->n[m]) > 1;
	if (!d->two_level)
		return st_boot_ci_pct(a->v[m], a->n[m], b->v[m], b->n[m], 1 - o->alpha,
				      o->resamples, seed, &d->lo, &d->hi);
	return st_boot2_ci_pct(a->v[m], a->inv[m], a->n[m], b->v[m], b->inv[m],
			       b->n[m], 1 - o->alpha, o->resamples, seed, &d->lo,
			       &d->hi, &d->vc[0], &d->vc[1]);
}

/* sqrt(var) as % of the mean; NAN when unknown. */
static double sd_pct(double var, double mean)
{
	return isfinite(var) && mean != 0 ? 100 * sqrt(var) / fabs(mean) : NAN;
}

static void side_text(const struct st_vc *v, const char *label, char *buf, size_t len)
{
	double b = sd_pct(v->var_between, v->mean), w = sd_pct(v->var_within, v->mean);

	if (v->model == ST_VC_ONE)
		snprintf(buf, len, "%s 1 invocation (between unknown), within sd %.2f%%",
			 label, w);
	else if (v->model == ST_VC_MEANS)
		snprintf(buf, len, "%s %zu invocations of 1 run, sd of their means %.2f%%",
			 label, v->k, b);
	else
		snprintf(buf, len, "%s %zu invocations, between sd %.2f%%, within sd %.2f%%%s",
			 label, v->k, b, w,
			 v->model == ST_VC_POOLED ? " (no sign of a between part: pooled)" : "");
}

void cmp_inv_print(const struct cmp_result *r, const struct cmp_group *g,
		   unsigned s, size_t m, FILE *out, const char *lead)
{
	const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
	char a[160], b[160];

	if (!d->valid || isnan(d->lo))
		return;
	if (!d->two_level) {
		fprintf(out, "%sinvocations: %s and %s are one invocation each: the variance between invocations (boots) is unknown, and the CI covers only the noise between runs of one; run each side with --invocations K (COMPARE.md, Invocations)\n",
			lead, r->sides[0].label, r->sides[s].label);
		return;
	}
	side_text(&d->vc[0], r->sides[0].label, a, sizeof(a));
	side_text(&d->vc[1], r->sides[s].label, b, sizeof(b));
	fprintf(out, "%sinvocations: %s; %s; CI by the two-level bootstrap (invocations, then runs)%s\n",
		lead, a, b, d->vc[0].model == ST_VC_TWO_LEVEL || d->vc[1].model == ST_VC_TWO_LEVEL ?
		"; more invocations a side, not more runs, shrink the between part" : "");
}

static struct json_object *vc_json(const struct st_vc *v)
{
	static const char *const model[] = { "one_invocation", "pooled", "two_level",
					     "one_run_per_invocation" };
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "invocations", json_object_new_int64((int64_t)v->k));
	cgs_jadd(o, "model", cgs_jstr(model[v->model]));
	cgs_jadd(o, "between_sd_pct", cgs_jnum(sd_pct(v->var_between, v->mean)));
	cgs_jadd(o, "within_sd_pct", cgs_jnum(sd_pct(v->var_within, v->mean)));
	cgs_jadd(o, "mean_se_pct", cgs_jnum(sd_pct(v->var_mean, v->mean)));
	cgs_jadd(o, "df", cgs_jnum(v->df));
	return o;
}

struct json_object *cmp_inv_json(const struct cmp_result *r,
				 const struct cmp_group *g, unsigned s, size_t m)
{
	const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "two_level", json_object_new_boolean(d->two_level));
	cgs_jadd(o, "base_invocations", json_object_new_int64(
		 cmp_inv_count(g->cell[0].inv[m], g->cell[0].n[m])));
	cgs_jadd(o, "new_invocations", json_object_new_int64(
		 cmp_inv_count(g->cell[s].inv[m], g->cell[s].n[m])));
	if (d->two_level) {
		cgs_jadd(o, "base", vc_json(&d->vc[0]));
		cgs_jadd(o, "new", vc_json(&d->vc[1]));
	}
	return o;
}
