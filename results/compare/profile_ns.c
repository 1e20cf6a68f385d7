/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_ns.c - the profiles compared in time per op (profile.h).
 *
 * In one run, a function's self time per op is s / N x C: its self
 * samples s of the N samples received, times the tasks' CPU time per op C
 * (user + sys: the account's schedstat run time where the run has it,
 * else cputime's utime + stime in clock ticks); children likewise with
 * the samples it is on the stack of. The sampling error of one run's
 * figure is the binomial one of the share, propagated with C's own
 * (rounding to clock ticks: 1/3 tick^2 a task for four roundings):
 * var = C^2 p(1-p)/N + p^2 var(C); a side's mean has the root of the
 * summed variances over its runs. The change is the difference of the
 * sides' means, its CI the bootstrap of that difference, p Mann-Whitney's
 * (Welch's with --welch) and q Benjamini-Hochberg's over a point's
 * functions, all on the per-run ns/op: GREW/SHRANK need the CI beyond
 * +-T, T = --profile-threshold % of the base's CPU time per op, and
 * q < alpha. Also here: the options, the whole analysis (shares first,
 * profile.c), freeing it, and the top rows with the sum they explain.
 * A function renamed between the two kernels (renames.h: one side has
 * only the old name, the other only the new) is one row, "old -> new".
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/irqsite.h"
#include "lib/json.h"
#include "lib/util.h"
#include "results/compare/profile.h"
#include "results/compare/profile_int.h"
#include "results/compare/renames.h"

const char *const cmp_pns_rank_names[] = { "self", "children", NULL };

void cmp_prof_opts_default(struct cmp_prof_opts *o)
{
	*o = (struct cmp_prof_opts){ .floor = CMP_PROF_FLOOR,
				     .threshold = CMP_PROF_THRESHOLD,
				     .rank = CMP_PNS_BY_SELF, .rows = CMP_PROF_ROWS };
}

#define SRC_ACCOUNT "the account (schedstat run time, ns)"
#define SRC_CPUTIME "cputime (utime + stime, clock ticks)"

bool cmp_profile_run_cpu(const struct res_point *p, struct cmp_run_cpu *c)
{
	struct json_object *acc = cgs_jget(p->extra, "account"), *ct = cgs_jget(p->extra, "cputime");
	double ops = cgs_jget_num(ct, "ops"), hz = cgs_jget_num(ct, "ticks_per_sec");
	struct json_object *tasks = cgs_jget(ct, "task_user_s");

	memset(c, 0, sizeof(*c));
	c->user = cgs_jget_num(acc, "user_ns_per_op");
	c->sys = cgs_jget_num(acc, "sys_ns_per_op");
	c->src = SRC_ACCOUNT;
	if (!isfinite(c->user + c->sys)) {
		c->user = 1000 * cgs_jget_num(ct, "user_us_per_op");
		c->sys = 1000 * cgs_jget_num(ct, "sys_us_per_op");
		c->src = SRC_CPUTIME;
		if (ops > 0 && hz > 0)
			c->var = (tasks ? (double)json_object_array_length(tasks) : p->tasks) / 3.0 *
				 (1e9 / hz) * (1e9 / hz) / (ops * ops);
	}
	c->cpu = c->user + c->sys;
	c->wall = cgs_jget_num(acc, "wall_ns_per_op");
	if (!isfinite(c->wall) && p->sum.per_task_ops_per_sec > 0)
		c->wall = 1e9 / p->sum.per_task_ops_per_sec;
	return isfinite(c->cpu) && c->cpu >= 0;
}

/* A side's runs that have samples and a CPU time, with those times. */
struct side {
	struct cmp_prof_run *run;
	struct cmp_run_cpu *cpu;
	size_t n, all;         /* used; loaded (the rest lack a CPU time) */
};

static int side_load(const struct cmp_result *r, unsigned gi, unsigned s, struct side *sd)
{
	int rc = cmp_prof_side_runs(r, &r->groups[gi], s, &sd->run, &sd->all);

	sd->cpu = rc ? NULL : calloc(sd->all + 1, sizeof(*sd->cpu));
	if (!rc && !sd->cpu)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < sd->all; i++) {
		struct cmp_run_cpu c;

		if (!(sd->run[i].recv > 0) || !cmp_profile_run_cpu(sd->run[i].p, &c))
			continue;
		if (sd->n != i) {     /* keep the used ones first */
			struct cmp_prof_run t = sd->run[sd->n];

			sd->run[sd->n] = sd->run[i];
			sd->run[i] = t;
		}
		sd->cpu[sd->n++] = c;
	}
	return rc;
}

static void side_free(struct side *sd)
{
	cmp_prof_runs_free(sd->run, sd->all);
	free(sd->cpu);
}

/* Per run of @sd: the ns/op of @key into @v; the mean, its sampling
 * error and the mean share into @m, @se, @pct. */
static void key_values(const struct side *sd, const char *key, double *v,
		       double *m, double *se, double *pct)
{
	double var = 0, sh = 0;

	for (size_t i = 0; i < sd->n; i++) {
		const struct cmp_run_cpu *c = &sd->cpu[i];
		double n = sd->run[i].recv, p = cmp_prof_count(&sd->run[i], key) / n;

		v[i] = p * c->cpu;
		var += c->cpu * c->cpu * p * (1 - p) / n + p * p * c->var;
		sh += 100 * p;
	}
	*m = cmp_prof_mean(v, sd->n);
	*se = sd->n ? sqrt(var) / (double)sd->n : NAN;
	*pct = sd->n ? sh / (double)sd->n : NAN;
}

/* @d from the per-run values: the change, its CI and p (q later). */
static int delta(const struct cmp_result *r, const struct cmp_pns_point *pt,
		 const char *key, const double *a, size_t na, const double *b,
		 size_t nb, struct cmp_delta *d)
{
	memset(d, 0, sizeof(*d));
	d->valid = true;
	d->dir = +1;
	d->threshold = pt->threshold_ns;
	d->pct = cmp_prof_mean(b, nb) - cmp_prof_mean(a, na);
	d->q = NAN;
	d->units[0] = (unsigned)na;
	d->units[1] = (unsigned)nb;
	if (st_mann_whitney(a, na, b, nb, &d->mwu))
		d->mwu.p = NAN;
	if (st_welch(a, na, b, nb, &d->welch))
		d->welch.p = NAN;
	d->p = r->o.welch ? d->welch.p : d->mwu.p;
	return cmp_prof_boot_diff(a, na, b, nb, &r->o,
				  cmp_prof_seed(r, pt->group, pt->side, key), &d->lo, &d->hi);
}

/* Scratch of one point: the per-run values of one key. */
struct scratch {
	double *a, *b;
	char key[4200];
};

/* key_values() of the key @kind.@sym on side @sd (@key: its scratch). */
static void side_values(const struct side *sd, const char *kind, const char *sym, char *key,
			size_t klen, double *v, double *m, double *se, double *pct)
{
	snprintf(key, klen, "%s.%s", kind, sym);
	key_values(sd, key, v, m, se, pct);
}

/* The row of function (or call path) @sym, when it is at or above the
 * floor on a side; @path: a call path (its "calltrace." key). @sym_b:
 * its name on B where it was renamed (renames.h), else @sym. */
static int key_row(const struct cmp_result *r, const struct cmp_prof_opts *o,
		   struct cmp_pns_point *pt, const struct side *A, const struct side *B,
		   const char *sym, const char *sym_b, bool path, struct scratch *w)
{
	struct cmp_pns_row row = { .path = path, .a.self = NAN, .b.self = NAN };
	const char *kind = path ? "calltrace" : "children";
	int rc;

	side_values(A, kind, sym, w->key, sizeof(w->key), w->a, &row.a.children,
		    &row.a.children_se, &row.a.children_pct);
	side_values(B, kind, sym_b, w->key, sizeof(w->key), w->b, &row.b.children,
		    &row.b.children_se, &row.b.children_pct);
	if (fmax(row.a.children_pct, row.b.children_pct) < o->floor)
		return 0;
	rc = delta(r, pt, w->key, w->a, A->n, w->b, B->n, &row.dchildren);
	if (!rc && !path) {
		side_values(A, "self", sym, w->key, sizeof(w->key), w->a, &row.a.self,
			    &row.a.self_se, &row.a.self_pct);
		side_values(B, "self", sym_b, w->key, sizeof(w->key), w->b, &row.b.self,
			    &row.b.self_se, &row.b.self_pct);
		rc = delta(r, pt, w->key, w->a, A->n, w->b, B->n, &row.dself);
	}
	for (size_t i = 0; !path && !row.kernel && i < A->n + B->n; i++)
		row.kernel = cgs_stacks_find(i < A->n ? &A->run[i].kernel :
					     &B->run[i - A->n].kernel, i < A->n ? sym : sym_b) != NULL;
	row.sym = rc ? NULL : strcmp(sym, sym_b) ? cgs_fmt("%s -> %s", sym, sym_b) : strdup(sym);
	if (!rc && !row.sym)
		rc = -ENOMEM;
	if (!rc) {
		struct cmp_pns_row *v = realloc(pt->rows, (pt->n + 1) * sizeof(*v));

		if (!v) {
			free(row.sym);
			return -ENOMEM;
		}
		pt->rows = v;
		v[pt->n++] = row;
	}
	return rc;
}

/* The names after "@prefix." of every key of both sides' runs. */
static int names(const struct side *A, const struct side *B, const char *prefix,
		 struct cgs_stacks *u)
{
	size_t l = strlen(prefix);
	int rc = 0;

	for (size_t i = 0; !rc && i < A->n + B->n; i++) {
		const struct cmp_prof_run *x = i < A->n ? &A->run[i] : &B->run[i - A->n];

		for (size_t k = 0; !rc && k < x->keys.n; k++)
			if (!strncmp(x->keys.v[k].stack, prefix, l) && x->keys.v[k].stack[l] == '.')
				rc = cgs_stacks_add(u, x->keys.v[k].stack + l + 1, 0);
	}
	return rc;
}

/* BH q over the rows [from, to) of @pt for self (@self) or children, then
 * each verdict. */
static int judge(const struct cmp_result *r, struct cmp_pns_point *pt, size_t from,
		 size_t to, bool self)
{
	size_t n = to - from;
	double *pv = calloc(n + 1, sizeof(*pv)), *q = calloc(n + 1, sizeof(*q));
	int rc = pv && q ? 0 : -ENOMEM;

	for (size_t i = 0; !rc && i < n; i++)
		pv[i] = self ? pt->rows[from + i].dself.p : pt->rows[from + i].dchildren.p;
	if (!rc && n)
		rc = st_bh(pv, n, q);
	for (size_t i = 0; !rc && i < n; i++) {
		struct cmp_pns_row *w = &pt->rows[from + i];
		struct cmp_delta *d = self ? &w->dself : &w->dchildren;

		d->q = q[i];
		d->verdict = cmp_judge(d, CMP_SECONDARY, NAN, NAN, pt->na, pt->nb, &r->o);
		cmp_prof_units(d->why, sizeof(d->why), d->threshold, " ns/op");
		*(self ? &w->vself : &w->vchildren) = cmp_prof_verdict_name(d->verdict);
	}
	free(pv);
	free(q);
	return rc;
}

/* |change| of the rank column @arg (children for a path), then its size,
 * then the name. */
static int by_change(const void *x, const void *y, void *arg)
{
	const struct cmp_pns_row *a = x, *b = y;
	bool ch = *(const enum cmp_pns_rank *)arg == CMP_PNS_BY_CHILDREN;
	double da = fabs(ch || a->path ? a->dchildren.pct : a->dself.pct);
	double db = fabs(ch || b->path ? b->dchildren.pct : b->dself.pct);

	double sa = ch || a->path ? a->a.children + a->b.children : a->a.self + a->b.self;
	double sb = ch || b->path ? b->a.children + b->b.children : b->a.self + b->b.self;

	if (da != db)
		return da > db ? -1 : 1;
	if (sa != sb)       /* a tie (an A/A): the bigger function first */
		return sa > sb ? -1 : 1;
	return strcmp(a->sym, b->sym);
}

/* Side @sd's means: CPU, user, sys and wall ns/op; samples; CPU's error. */
static void side_head(const struct side *sd, double *cpu, double *user, double *sys,
		      double *wall, double *samples, double *cpu_se)
{
	double n = (double)sd->n, w = 0, var = 0;
	size_t nwall = 0;

	*cpu = *user = *sys = *samples = 0;
	for (size_t i = 0; i < sd->n; i++) {
		*cpu += sd->cpu[i].cpu / n;
		*user += sd->cpu[i].user / n;
		*sys += sd->cpu[i].sys / n;
		*samples += sd->run[i].recv;
		var += sd->cpu[i].var;
		if (isfinite(sd->cpu[i].wall)) {
			w += sd->cpu[i].wall;
			nwall++;
		}
	}
	*wall = nwall ? w / (double)nwall : NAN;
	*cpu_se = sqrt(var) / n;
}

/* The skew warning of both sides' runs together (lib/irqsite.h). */
static void point_skew(struct cmp_pns_point *pt, const struct side *A, const struct side *B)
{
	struct json_object *sk[128];
	size_t n = 0;

	for (size_t i = 0; i < A->n + B->n && n < 128; i++) {
		const struct cmp_prof_run *run = i < A->n ? &A->run[i] : &B->run[i - A->n];

		sk[n++] = run->p ? cgs_jpath(run->p->extra, "profile.skew") : NULL;
	}
	if (cgs_skew_warning(sk, n, pt->skew, sizeof(pt->skew)))
		pt->skew[0] = 0;
}

/* The point's figures per side, where the CPU time comes from, and T. */
static void point_head(const struct cmp_prof_opts *o, struct cmp_pns_point *pt,
		       const struct side *A, const struct side *B)
{
	char t[32];

	side_head(A, &pt->cpu_a, &pt->user_a, &pt->sys_a, &pt->wall_a, &pt->samples_a,
		  &pt->cpu_se_a);
	side_head(B, &pt->cpu_b, &pt->user_b, &pt->sys_b, &pt->wall_b, &pt->samples_b,
		  &pt->cpu_se_b);
	pt->cpu_src = SRC_ACCOUNT;
	for (size_t i = 0; i < A->n + B->n; i++)
		if (strcmp(i < A->n ? A->cpu[i].src : B->cpu[i - A->n].src, SRC_ACCOUNT))
			pt->cpu_src = SRC_CPUTIME;    /* said for the coarser one */
	pt->na = A->n;
	pt->nb = B->n;
	pt->nocpu_a = A->all - A->n;
	pt->nocpu_b = B->all - B->n;
	/* T to 3 significant figures, so that the verdicts' reasons read */
	snprintf(t, sizeof(t), "%.3g", o->threshold / 100 * pt->cpu_a);
	pt->threshold_ns = strtod(t, NULL);
	point_skew(pt, A, B);
}

/* Whether a run of side @side (0: A) has the function @sym on its stacks. */
static bool side_has(void *arg, int side, const char *sym)
{
	const struct side *sd = ((const struct side *const *)arg)[side];
	char key[512];

	snprintf(key, sizeof(key), "children.%s", sym);
	for (size_t i = 0; i < sd->n; i++)
		if (cmp_prof_count(&sd->run[i], key) > 0)
			return true;
	return false;
}

/* The rows of one family (functions, or call paths with @path) of @pt. */
static int family(const struct cmp_result *r, const struct cmp_prof_opts *o,
		  struct cmp_pns_point *pt, const struct side *A, const struct side *B,
		  bool path, struct scratch *w)
{
	struct cgs_stacks u = { 0 };
	const struct side *ab[2] = { A, B };
	size_t from = pt->n;
	int rc = names(A, B, path ? "calltrace" : "children", &u);

	for (size_t k = 0; !rc && k < u.n; k++) {
		const char *sym = u.v[k].stack;
		const char *other = path ? NULL : cmp_rename_pair(sym, side_has, ab);

		if (other != cmp_rename_skip)
			rc = key_row(r, o, pt, A, B, sym, other ? other : sym, path, w);
	}
	if (!rc && !path)
		rc = judge(r, pt, from, pt->n, true);
	if (!rc)
		rc = judge(r, pt, from, pt->n, false);
	if (!rc)
		qsort_r(pt->rows + from, pt->n - from, sizeof(*pt->rows), by_change,
			(void *)&o->rank);
	cgs_stacks_free(&u);
	return rc;
}

static void point_free(struct cmp_pns_point *pt)
{
	for (size_t i = 0; i < pt->n; i++)
		free(pt->rows[i].sym);
	free(pt->rows);
}

/* Point @gi, side @s, when both sides have runs with a CPU time. */
static int group_side(const struct cmp_result *r, struct cmp_profile *p,
		      unsigned gi, unsigned s)
{
	struct side A = { 0 }, B = { 0 };
	struct cmp_pns_point pt = { .group = gi, .side = s };
	struct scratch w = { 0 };
	int rc = side_load(r, gi, 0, &A);

	if (!rc)
		rc = side_load(r, gi, s, &B);
	if (rc || !A.n || !B.n)
		goto out;
	w.a = calloc(A.n, sizeof(double));
	w.b = calloc(B.n, sizeof(double));
	rc = w.a && w.b ? 0 : -ENOMEM;
	if (!rc) {
		point_head(&p->o, &pt, &A, &B);
		rc = family(r, &p->o, &pt, &A, &B, false, &w);
	}
	pt.nfunc = pt.n;
	if (!rc && p->o.calltraces)
		rc = family(r, &p->o, &pt, &A, &B, true, &w);
	if (!rc) {
		struct cmp_pns_point *v = realloc(p->pts, (p->npts + 1) * sizeof(*v));

		rc = v ? 0 : -ENOMEM;
		if (v) {
			p->pts = v;
			v[p->npts++] = pt;
			pt.rows = NULL;
			pt.n = 0;
		}
	}
out:
	point_free(&pt);
	side_free(&A);
	side_free(&B);
	free(w.a);
	free(w.b);
	return rc;
}

int cmp_profile_analyse_opts(const struct cmp_result *r,
			     const struct cmp_prof_opts *o, struct cmp_profile *p)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->o = *o;
	p->floor = o->floor;
	p->threshold = o->threshold;
	rc = cmp_prof_share_analyse(r, p);
	for (unsigned i = 0; !rc && i < r->ngroups; i++)
		for (unsigned s = 1; !rc && r->groups[i].common && s < r->nsides; s++)
			rc = group_side(r, p, i, s);
	return rc;
}

int cmp_profile_analyse(const struct cmp_result *r, double floor,
			double threshold, struct cmp_profile *p)
{
	struct cmp_prof_opts o;

	cmp_prof_opts_default(&o);
	o.floor = floor;
	o.threshold = threshold;
	return cmp_profile_analyse_opts(r, &o, p);
}

void cmp_profile_free(struct cmp_profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->rows[i].sym);
	free(p->rows);
	for (size_t i = 0; i < p->npts; i++)
		point_free(&p->pts[i]);
	free(p->pts);
	memset(p, 0, sizeof(*p));
}

const struct cmp_pns_point *cmp_profile_point_ns(const struct cmp_profile *p,
						 unsigned group, unsigned side)
{
	for (size_t i = 0; p && i < p->npts; i++)
		if (p->pts[i].group == group && p->pts[i].side == side)
			return &p->pts[i];
	return NULL;
}
