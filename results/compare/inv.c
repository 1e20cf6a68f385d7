/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inv.c - runs grouped by invocation in compare: which invocation
 * each run came from (a file's invocation.id, or the file itself), the
 * units of replication (the runs, or the invocation means when a side has
 * several invocations), the declared test and its own interval on them
 * (Mann-Whitney and the Hodges-Lehmann rank interval, or Welch's t), the
 * variance components of boot2.h, and the text and JSON figures.
 * With one invocation a side the output says that the variance between
 * invocations is unknown.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/model.h"
#include "results/stats/robust.h"
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

/* The units of replication of one side into @u: its runs, or with
 * @by_inv the mean of each of its invocations. Returns how many. */
static size_t units_of(const struct cmp_cell *c, size_t m, bool by_inv, double *u)
{
	const unsigned *inv = c->inv[m];
	size_t k = 0;

	if (!by_inv) {
		memcpy(u, c->v[m], c->n[m] * sizeof(*u));
		return c->n[m];
	}
	for (size_t i = 0; i < c->n[m]; i++) {
		size_t j = 0, cnt = 0;
		double s = 0;

		while (j < i && inv[j] != inv[i])
			j++;
		if (j < i)
			continue;  /* this invocation has its mean already */
		for (size_t l = i; l < c->n[m]; l++)
			if (inv[l] == inv[i]) {
				s += c->v[m][l];
				cnt++;
			}
		u[k++] = s / cnt;
	}
	return k;
}

/* The interval of the change from the units @ua (@ka of them) to @ub, of
 * the declared test's own family at every n: the exact Hodges-Lehmann
 * rank interval (the shifts Mann-Whitney does not reject), or with
 * --welch Welch's t interval of the logs. Not the bootstrap of the mean:
 * with heavy-tailed runs it covers 0.91 at 20 a side (COMPARE.md). */
static int interval(const double *ua, size_t ka, const double *ub, size_t kb,
		    const struct cmp_opts *o, struct cmp_delta *d)
{
	double level = 1 - o->alpha, est;
	struct st_test t;

	d->ci = o->welch ? CMP_CI_WELCH_LOG : CMP_CI_RANK;
	if (o->welch)
		return st_welch_log_ci_pct(ua, ka, ub, kb, level, &d->lo, &d->hi, &t);
	return st_hl_shift_pct(ua, ka, ub, kb, level, &est, &d->lo, &d->hi);
}

/* The declared test on the units: p, the best p they can give, and how
 * many units a side a decision needs when they cannot give p < alpha. */
static int test(const double *ua, size_t ka, const double *ub, size_t kb,
		const struct cmp_opts *o, struct cmp_delta *d)
{
	int rc = st_mann_whitney(ua, ka, ub, kb, &d->mwu);

	if (rc && rc != -EINVAL)
		return rc;
	rc = st_welch(ua, ka, ub, kb, &d->welch);
	if (rc && rc != -EINVAL)
		return rc;
	d->p = o->welch ? d->welch.p : d->mwu.p;
	d->min_p = st_mwu_min_p(ka, kb);
	if (o->welch)
		d->needs = ka < 2 || kb < 2 ? 2 : 0;
	else
		d->needs = d->min_p >= o->alpha ? st_mwu_min_n(o->alpha) : 0;
	return 0;
}

int cmp_inv_ci(const struct cmp_cell *a, const struct cmp_cell *b, size_t m,
	       const struct cmp_opts *o, struct cmp_delta *d)
{
	double *ua = malloc((a->n[m] + b->n[m] + 1) * sizeof(*ua)), *ub;
	size_t ka, kb;
	int rc = -ENOMEM;

	d->ci = CMP_CI_NONE;
	if (!ua)
		return rc;
	d->two_level = cmp_inv_count(a->inv[m], a->n[m]) > 1 ||
		       cmp_inv_count(b->inv[m], b->n[m]) > 1;
	ub = ua + a->n[m];
	ka = units_of(a, m, d->two_level, ua);
	kb = units_of(b, m, d->two_level, ub);
	d->units[0] = (unsigned)ka;
	d->units[1] = (unsigned)kb;
	rc = test(ua, ka, ub, kb, o, d);
	if (!rc && d->two_level &&
	    (st_vc_estimate(a->v[m], a->inv[m], a->n[m], &d->vc[0]) == -ENOMEM ||
	     st_vc_estimate(b->v[m], b->inv[m], b->n[m], &d->vc[1]) == -ENOMEM))
		rc = -ENOMEM;
	if (!rc)
		rc = interval(ua, ka, ub, kb, o, d);
	if (rc == -EINVAL)
		d->ci = CMP_CI_NONE;
	free(ua);
	return rc;
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

/* The method of @d's interval, for the text and JSON. */
static const char *ci_name(const struct cmp_delta *d, bool json)
{
	static const char *const name[] = { "none", "hodges_lehmann_rank",
		"welch_t_log" };
	static const char *const text[] = { "none",
		"the Hodges-Lehmann rank CI", "Welch's t CI of the logs" };

	return (json ? name : text)[d->ci];
}

void cmp_inv_print(const struct cmp_result *r, const struct cmp_group *g,
		   unsigned s, size_t m, FILE *out, const char *lead)
{
	const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
	char a[160], b[160];

	if (!d->valid)
		return;
	if (!d->two_level) {
		fprintf(out, "%sinvocations: %s and %s are one invocation each: the variance between invocations (boots) is unknown, and the CI (%s of the runs) covers only the noise between runs of one; run each side with --invocations K (COMPARE.md, Invocations)\n",
			lead, r->sides[0].label, r->sides[s].label, ci_name(d, false));
		return;
	}
	side_text(&d->vc[0], r->sides[0].label, a, sizeof(a));
	side_text(&d->vc[1], r->sides[s].label, b, sizeof(b));
	fprintf(out, "%sinvocations: %s; %s; p on the invocation means, CI by %s%s\n",
		lead, a, b, ci_name(d, false),
		d->vc[0].model == ST_VC_TWO_LEVEL || d->vc[1].model == ST_VC_TWO_LEVEL ?
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
	cgs_jadd(o, "ci_method", cgs_jstr(ci_name(d, true)));
	cgs_jadd(o, "base_units", json_object_new_int64(d->units[0]));
	cgs_jadd(o, "new_units", json_object_new_int64(d->units[1]));
	cgs_jadd(o, "needs_units", json_object_new_int64(d->needs));
	if (d->two_level) {
		cgs_jadd(o, "base", vc_json(&d->vc[0]));
		cgs_jadd(o, "new", vc_json(&d->vc[1]));
	}
	return o;
}
