/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.c - profile shares compared between sides
 * (results/compare/profile.h), for --format lkp and for runs without a CPU
 * time per op, and the per-run loading and statistics that the time per
 * op (profile_ns.c) shares (profile_int.h). Each run of a point gives, per key, 100 x samples
 * / samples received: self.SYM, children.SYM from the point's symbols,
 * calltrace.A.B.C from its folded stacks. A key a run does not list is 0
 * there (it was below the 0.1% the runner keeps). The change is the
 * difference of the means, in percentage points; its CI is a bootstrap
 * of that difference, widened for small samples as compare's % intervals
 * are; p is Mann-Whitney's (Welch's with --welch); q is Benjamini-
 * Hochberg over the listed keys of one point and side.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/folded.h"
#include "lib/json.h"
#include "results/compare/profile.h"
#include "results/compare/profile_int.h"
#include "results/model/disturb.h"

const char *const cmp_prof_kind_names[] = { "self", "children", "calltrace", NULL };

struct json_object *cmp_point_profile(const struct res_point *p)
{
	struct json_object *o = cgs_jget(p->extra, "profile");

	return o && json_object_is_type(o, json_type_object) ? o : NULL;
}

const char *cmp_profile_event(const struct cmp_result *r)
{
	const struct cmp_side *sd = &r->sides[0];

	for (unsigned f = 0; f < sd->nfiles; f++)
		for (unsigned i = 0; i < sd->files[f].res.npoints; i++) {
			struct json_object *e = cgs_jget(cmp_point_profile(&sd->files[f].res.points[i]), "event");

			if (e && json_object_is_type(e, json_type_string) && *json_object_get_string(e))
				return json_object_get_string(e);
		}
	return NULL;
}

struct json_object *cmp_profile_array(struct json_object *prof, const char *key)
{
	struct json_object *a = cgs_jget(prof, key);

	return a && json_object_is_type(a, json_type_array) ? a : NULL;
}

int cmp_profile_folded(struct json_object *prof, struct cgs_stacks *s)
{
	struct json_object *fold = cmp_profile_array(prof, "folded");
	int rc = 0;

	for (size_t i = 0; !rc && fold && i < json_object_array_length(fold); i++) {
		struct json_object *e = json_object_array_get_idx(fold, i), *st, *n;

		if (!json_object_is_type(e, json_type_array) || json_object_array_length(e) < 2)
			continue;
		st = json_object_array_get_idx(e, 0);
		n = json_object_array_get_idx(e, 1);
		if (json_object_is_type(st, json_type_string) &&
		    json_object_is_type(n, json_type_int) && json_object_get_int64(n) > 0)
			rc = cgs_stacks_add(s, json_object_get_string(st),
					    (uint64_t)json_object_get_int64(n));
	}
	return rc;
}

#define run cmp_prof_run

static int run_load(struct json_object *prof, struct run *r)
{
	struct json_object *syms = cmp_profile_array(prof, "symbols");
	struct cgs_stacks st = { 0 }, tr = { 0 };
	char key[4200];
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->recv = json_object_get_double(cgs_jget(cgs_jget(prof, "samples"), "received"));
	for (size_t i = 0; !rc && syms && i < json_object_array_length(syms); i++) {
		struct json_object *s = json_object_array_get_idx(syms, i);
		const char *n = json_object_get_string(cgs_jget(s, "name"));

		if (!n || !json_object_is_type(s, json_type_object))
			continue;
		snprintf(key, sizeof(key), "self.%s", n);
		rc = cgs_stacks_add(&r->keys, key, (uint64_t)json_object_get_int64(cgs_jget(s, "self")));
		snprintf(key, sizeof(key), "children.%s", n);
		if (!rc)
			rc = cgs_stacks_add(&r->keys, key,
					    (uint64_t)json_object_get_int64(cgs_jget(s, "children")));
	}
	if (!rc)
		rc = cmp_profile_folded(prof, &st);
	if (!rc)
		rc = cgs_stacks_calltraces(&st, CMP_PROF_TRACE_DEPTH, &tr);
	for (size_t i = 0; !rc && i < tr.n; i++) {
		if (!strchr(tr.v[i].stack, '.'))
			continue;      /* a root alone is no trace */
		snprintf(key, sizeof(key), "calltrace.%s", tr.v[i].stack);
		rc = cgs_stacks_add(&r->keys, key, tr.v[i].count);
	}
	for (size_t i = 0; !rc && syms && i < json_object_array_length(syms); i++) {
		struct json_object *s = json_object_array_get_idx(syms, i);
		const char *n = json_object_get_string(cgs_jget(s, "name"));

		if (n && json_object_is_type(s, json_type_object) &&
		    json_object_get_boolean(cgs_jget(s, "kernel")))
			rc = cgs_stacks_add(&r->kernel, n, 0);
	}
	cgs_stacks_free(&st);
	cgs_stacks_free(&tr);
	return rc;
}

double cmp_prof_count(const struct run *r, const char *key)
{
	const struct cgs_stack *e = cgs_stacks_find(&r->keys, key);

	return e ? (double)e->count : 0;
}

static double share(const struct run *r, const char *key)
{
	return r->recv > 0 ? 100.0 * cmp_prof_count(r, key) / r->recv : 0;
}

double cmp_prof_mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : NAN;
}

/* Coefficient of variation in %, NAN for fewer than 2 values or mean 0. */
static double cov(const double *v, size_t n, double m)
{
	double ss = 0;

	if (n < 2 || !(m > 0))
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return 100 * sqrt(ss / (double)(n - 1)) / m;
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double resampled(struct st_rng *g, const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[st_rng_below(g, n)];
	return s / (double)n;
}

/* Bootstrap CI of mean(b) - mean(a), its tails widened to Student's t
 * for small samples as st_boot_ci_pct does. */
int cmp_prof_boot_diff(const double *a, size_t na, const double *b, size_t nb,
		       const struct cmp_opts *o, uint64_t seed, double *lo, double *hi)
{
	double ma = cmp_prof_mean(a, na), mb = cmp_prof_mean(b, nb), va = 0, vb = 0, df, tail;
	double ka, kb, *d;
	struct st_rng g;

	*lo = *hi = NAN;
	if (na < 2 || nb < 2)
		return 0;
	for (size_t i = 0; i < na; i++)
		va += (a[i] - ma) * (a[i] - ma) / (double)(na - 1) / (double)na;
	for (size_t i = 0; i < nb; i++)
		vb += (b[i] - mb) * (b[i] - mb) / (double)(nb - 1) / (double)nb;
	if (!(va + vb > 0)) {
		*lo = *hi = mb - ma;
		return 0;
	}
	df = (va + vb) * (va + vb) / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	tail = 1 - st_norm_cdf(st_t_quantile(1 - o->alpha / 2, df));
	ka = sqrt((double)na / (double)(na - 1));
	kb = sqrt((double)nb / (double)(nb - 1));
	d = malloc(o->resamples * sizeof(*d));
	if (!d)
		return -ENOMEM;
	st_rng_seed(&g, seed);
	for (unsigned i = 0; i < o->resamples; i++)
		d[i] = mb + kb * (resampled(&g, b, nb) - mb) -
		       (ma + ka * (resampled(&g, a, na) - ma));
	qsort(d, o->resamples, sizeof(*d), cmp_dbl);
	*lo = d[(size_t)floor(tail * (o->resamples - 1))];
	*hi = d[(size_t)ceil((1 - tail) * (o->resamples - 1))];
	free(d);
	return 0;
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

uint64_t cmp_prof_seed(const struct cmp_result *r, unsigned gi, unsigned s,
		       const char *key)
{
	char name[512];

	cmp_group_name(&r->groups[gi], name, sizeof(name));
	return fnv(fnv(fnv(0xcbf29ce484222325ULL ^ r->o.seed, name), key), r->sides[s].label);
}

bool cmp_profile_run_used(const struct cmp_result *r, const struct res_point *p,
			  const struct cmp_group *g)
{
	return cmp_point_profile(p) && !cgs_jget(cmp_point_profile(p), "error") &&
	       cmp_run_used(r, p, g);
}

int cmp_prof_side_runs(const struct cmp_result *r, const struct cmp_group *g,
		       unsigned s, struct run **out, size_t *n)
{
	const struct cmp_side *sd = &r->sides[s];
	int rc = 0;

	*out = NULL;
	*n = 0;
	for (unsigned f = 0; !rc && f < sd->nfiles; f++)
		for (unsigned i = 0; !rc && i < sd->files[f].res.npoints; i++) {
			const struct res_point *p = &sd->files[f].res.points[i];
			struct json_object *prof = cmp_point_profile(p);
			struct run *v;

			if (!cmp_profile_run_used(r, p, g))
				continue;
			v = realloc(*out, (*n + 1) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			*out = v;
			rc = run_load(prof, &v[*n]);
			v[*n].p = p;
			(*n)++;
		}
	return rc;
}

void cmp_prof_runs_free(struct run *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cgs_stacks_free(&v[i].keys);
		cgs_stacks_free(&v[i].kernel);
	}
	free(v);
}

static int add_row(struct cmp_profile *p, const struct cmp_prof_row *row)
{
	struct cmp_prof_row *v = realloc(p->rows, (p->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	p->rows = v;
	v[p->n++] = *row;
	return 0;
}

/* One key's row, when it is at or above the floor on a side. */
static int key_row(const struct cmp_result *r, struct cmp_profile *p,
		   unsigned gi, unsigned s, const char *key, const struct run *A,
		   size_t na, const struct run *B, size_t nb, double *a, double *b)
{
	struct cmp_prof_row row = { .group = gi, .side = s, .na = na, .nb = nb };
	int rc;

	for (size_t i = 0; i < na; i++)
		a[i] = share(&A[i], key);
	for (size_t i = 0; i < nb; i++)
		b[i] = share(&B[i], key);
	row.mean_a = cmp_prof_mean(a, na);
	row.mean_b = cmp_prof_mean(b, nb);
	row.cov_a = cov(a, na, row.mean_a);
	row.cov_b = cov(b, nb, row.mean_b);
	if (fmax(row.mean_a, row.mean_b) < p->floor)
		return 0;
	row.kind = !strncmp(key, "self.", 5) ? CMP_PROF_SELF :
		   !strncmp(key, "children.", 9) ? CMP_PROF_CHILDREN : CMP_PROF_CALLTRACE;
	row.sym = strdup(strchr(key, '.') + 1);
	if (!row.sym)
		return -ENOMEM;
	row.d.valid = true;
	row.d.threshold = p->threshold;
	row.d.pct = row.mean_b - row.mean_a;
	row.d.q = NAN;
	rc = cmp_prof_boot_diff(a, na, b, nb, &r->o, cmp_prof_seed(r, gi, s, key),
				&row.d.lo, &row.d.hi);
	if (!rc && st_mann_whitney(a, na, b, nb, &row.d.mwu))
		row.d.mwu.p = NAN;
	if (!rc && st_welch(a, na, b, nb, &row.d.welch))
		row.d.welch.p = NAN;
	row.d.p = r->o.welch ? row.d.welch.p : row.d.mwu.p;
	if (!rc)
		rc = add_row(p, &row);
	if (rc)
		free(row.sym);
	return rc;
}

static int by_change(const void *x, const void *y)
{
	const struct cmp_prof_row *a = x, *b = y;
	double da = fabs(a->d.pct), db = fabs(b->d.pct);

	if (da != db)
		return da > db ? -1 : 1;
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	return strcmp(a->sym, b->sym);
}

void cmp_prof_units(char *why, size_t len, double t, const char *unit)
{
	char pat[32], *at;
	size_t u = strlen(unit);

	snprintf(pat, sizeof(pat), "%g%%", t);
	at = strstr(why, pat);
	if (at && strlen(why) + u < len) {
		size_t n = strlen(pat);

		memmove(at + n - 1 + u, at + n, strlen(at + n) + 1);
		memcpy(at + n - 1, unit, u);
	}
}

const char *cmp_prof_verdict_name(enum cmp_verdict v)
{
	return v == CMP_IMPROVEMENT ? "GREW" : v == CMP_REGRESSION ? "SHRANK" :
	       v == CMP_NO_CHANGE ? "NO_CHANGE" : "INCONCLUSIVE";
}

/* q over the rows [from, p->n), then each verdict, then the order. */
static int judge(const struct cmp_result *r, struct cmp_profile *p, size_t from)
{
	size_t n = p->n - from;
	double *pv = calloc(n + 1, sizeof(*pv)), *q = calloc(n + 1, sizeof(*q));
	int rc = pv && q ? 0 : -ENOMEM;

	for (size_t i = 0; !rc && i < n; i++)
		pv[i] = p->rows[from + i].d.p;
	if (!rc && n)
		rc = st_bh(pv, n, q);
	for (size_t i = 0; !rc && i < n; i++) {
		struct cmp_prof_row *w = &p->rows[from + i];
		enum cmp_verdict v;

		w->d.q = q[i];
		v = cmp_judge(&w->d, CMP_SECONDARY, NAN, NAN, w->na, w->nb, &r->o);
		w->d.verdict = v;
		w->verdict = cmp_prof_verdict_name(v);
		cmp_prof_units(w->d.why, sizeof(w->d.why), p->threshold, " pp");
	}
	if (!rc && n)
		qsort(p->rows + from, n, sizeof(*p->rows), by_change);
	free(pv);
	free(q);
	return rc;
}

static int group_side(const struct cmp_result *r, struct cmp_profile *p,
		      unsigned gi, unsigned s)
{
	struct run *A = NULL, *B = NULL;
	struct cgs_stacks u = { 0 };
	size_t na = 0, nb = 0, from = p->n;
	double *a = NULL, *b = NULL;
	int rc = cmp_prof_side_runs(r, &r->groups[gi], 0, &A, &na);

	if (!rc)
		rc = cmp_prof_side_runs(r, &r->groups[gi], s, &B, &nb);
	if (rc || !na || !nb)
		goto out;
	for (size_t i = 0; !rc && i < na + nb; i++) {
		const struct run *x = i < na ? &A[i] : &B[i - na];

		for (size_t k = 0; !rc && k < x->keys.n; k++)
			rc = cgs_stacks_add(&u, x->keys.v[k].stack, 0);
	}
	a = calloc(na, sizeof(*a));
	b = calloc(nb, sizeof(*b));
	if (!rc && (!a || !b))
		rc = -ENOMEM;
	for (size_t k = 0; !rc && k < u.n; k++)
		rc = key_row(r, p, gi, s, u.v[k].stack, A, na, B, nb, a, b);
	if (!rc)
		rc = judge(r, p, from);
out:
	cgs_stacks_free(&u);
	cmp_prof_runs_free(A, na);
	cmp_prof_runs_free(B, nb);
	free(a);
	free(b);
	return rc;
}

int cmp_prof_share_analyse(const struct cmp_result *r, struct cmp_profile *p)
{
	int rc = 0;

	for (unsigned i = 0; !rc && i < r->ngroups; i++) {
		size_t before = p->n;

		if (!r->groups[i].common)
			continue;
		for (unsigned s = 1; !rc && s < r->nsides; s++)
			rc = group_side(r, p, i, s);
		p->groups_with_profile += p->n > before;
	}
	return rc;
}
