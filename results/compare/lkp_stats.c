/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lkp_stats.c - a result's LKP stats (`cgscale export --format
 * lkp-stats`, and each run of `compare --format lkp`): the `key: value`
 * lines an LKP program's parse prints (LKP prefixes them with the program
 * name, "cgscale."). Keys follow LKP's own where the work is the same:
 * will-it-scale's per_process_ops, per_thread_ops, scalability, workload
 * and <N>.processes/<N>.threads; netperf's Throughput_Mbps for sendfile,
 * stress-ng's remap.ops_per_sec for remap (lkp_aliases[]). Our own: every other compare
 * metric (perf, stat reader latencies), the cgroup memory.stat deltas, and
 * with run --profile the kernel profile as LKP's perf-profile.self and
 * .children keys named by the sampled event (shares of at least
 * EXP_LKP_PROFILE_FLOOR %), and profile_skew_pct, the share at
 * interrupt-enable sites (lib/irqsite.h). A file with both modes gives those per mode
 * (results/compare/lkp_names.c names them). With a baseline task count
 * (the LKP program's added 1-task point) that point gives only its
 * <N>.processes/<N>.threads and the scalability.
 * results/SCHEMA.md lists them; integrations/lkp/ uses them.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/model.h"
#include "results/compare/lkp_names.h"
#include "results/compare/profile.h"
#include "results/compare/lkp_stats.h"
#include "results/model/disturb.h"
#include "lib/macros.h"
#include "lib/limits.h"

#define EXP_LKP_PROFILE_FLOOR 0.5

/*
 * LKP's names for a workload's aux counter: the key of the LKP program
 * that does the same work, and whether LKP's figure is of all tasks (the
 * per-task rate x tasks) or per task. Compare itself names no counter; it
 * compares them all as aux.NAME.
 */
static const struct lkp_alias {
	const char *test, *aux, *key;
	bool all_tasks;
} lkp_aliases[] = {
	/* netperf's Throughput_Mbps: Mbit/s received by one stream */
	{ "sendfile", "rx_bytes", "Throughput_Mbps", false },
	/* stress-ng's remap.ops_per_sec: bogo-ops/s of all instances */
	{ "remap", "passes", "remap.ops_per_sec", true },
};

/* A running mean. */
struct acc {
	double sum;
	unsigned n;
};

static void acc_add(struct acc *a, double v)
{
	if (isfinite(v))
		a->sum += v, a->n++;
}

static double acc_mean(const struct acc *a)
{
	return a->n ? a->sum / a->n : NAN;
}

/* Per mode and task count: total ops/s and idle % over the runs. */
struct lkp_cell {
	const char *mode;
	unsigned tasks;
	struct acc total, idle, scal;
};

struct lkp_state {
	const char *test;
	unsigned baseline;                  /* task count of the baseline, 0: none */
	bool keep_disturbed;                /* disturbed runs in the means too */
	const char *layout;                 /* only this cgroup layout's points; NULL: all */
	char pfx[96];                       /* its keys' prefix ("depth-3." or "") */
	struct lkp_cell *cell;
	unsigned ncell, failed, disturbed;
	struct acc per_task[2];             /* process, thread */
	struct cmp_mset ms;                 /* the metrics of all the files */
	/* the rest per mode: [0] process, [1] thread */
	struct acc metric[2][CMP_MAX_METRICS];
	struct acc alias[2][ARRAY_SIZE(lkp_aliases)];
	struct json_object *memstat[2];     /* field -> [sum, n] */
	struct json_object *prof[2];        /* perf-profile key -> [sum %, n] */
	unsigned nprof[2];                  /* points with a profile */
};

static const char *const mode_names[2] = { "process", "thread" };

static struct lkp_cell *cell_of(struct lkp_state *st, const struct res_point *p)
{
	struct lkp_cell *c;

	for (unsigned i = 0; i < st->ncell; i++)
		if (st->cell[i].tasks == p->tasks && !strcmp(st->cell[i].mode, p->mode))
			return &st->cell[i];
	c = realloc(st->cell, (st->ncell + 1) * sizeof(*c));
	if (!c)
		return NULL;
	st->cell = c;
	c = &st->cell[st->ncell++];
	memset(c, 0, sizeof(*c));
	c->mode = p->mode, c->tasks = p->tasks;
	return c;
}

/* Add @v to the [sum, n] pair under @k of @acc. 0 or -ENOMEM. */
static int jacc_add(struct json_object *acc, const char *k, double v)
{
	struct json_object *a;

	if (!json_object_object_get_ex(acc, k, &a)) {
		a = json_object_new_array();
		if (!a || json_object_object_add(acc, k, a))
			return -ENOMEM;
		json_object_array_add(a, json_object_new_double(0));
		json_object_array_add(a, json_object_new_int(0));
	}
	json_object_array_put_idx(a, 0, json_object_new_double(
		json_object_get_double(json_object_array_get_idx(a, 0)) + v));
	json_object_array_put_idx(a, 1, json_object_new_int(
		json_object_get_int(json_object_array_get_idx(a, 1)) + 1));
	return 0;
}

/* Add the point's memory.stat deltas (extra.cgroup.memory_stat.delta). */
static int add_memstat(struct lkp_state *st, const struct res_point *p, int mode)
{
	struct json_object *cg, *ms, *d;

	if (!p->extra || !json_object_object_get_ex(p->extra, "cgroup", &cg) ||
	    !json_object_object_get_ex(cg, "memory_stat", &ms) ||
	    !json_object_object_get_ex(ms, "delta", &d) ||
	    !json_object_is_type(d, json_type_object))
		return 0;
	json_object_object_foreach(d, k, v) {
		if (!json_object_is_type(v, json_type_int) &&
		    !json_object_is_type(v, json_type_double))
			continue;
		if (jacc_add(st->memstat[mode], k, json_object_get_double(v)))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Add the point's profile: per symbol, its self and children share of
 * the samples received, in %, under LKP's perf-profile names with the
 * event sampled. A symbol a point does not list counts 0 there: the
 * means divide by the points profiled.
 */
static int add_profile(struct lkp_state *st, const struct res_point *p, int mode)
{
	static const char *const kinds[] = { "self", "children" };
	struct json_object *prof = cmp_point_profile(p), *syms, *smp, *rv, *v0;
	const char *event = cmp_lkp_profile_event(prof);
	char key[600];
	double recv;

	if (!prof || !json_object_object_get_ex(prof, "samples", &smp) ||
	    !json_object_object_get_ex(smp, "received", &rv))
		return 0;
	recv = json_object_get_double(rv);
	syms = cmp_profile_array(prof, "symbols");
	if (!(recv > 0) || !syms)
		return 0;
	st->nprof[mode]++;
	/* the share of samples at interrupt-enable sites (lib/irqsite.h):
	 * a skewed clock-event profile is flagged in LKP's stats too */
	if (json_object_object_get_ex(prof, "skew", &v0) &&
	    json_object_object_get_ex(v0, "pct", &v0) &&
	    jacc_add(st->prof[mode], "profile_skew_pct", json_object_get_double(v0)))
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(syms); i++) {
		struct json_object *e = json_object_array_get_idx(syms, i), *n, *v;

		if (!json_object_object_get_ex(e, "name", &n) ||
		    !json_object_is_type(n, json_type_string))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
			if (!json_object_object_get_ex(e, kinds[k], &v))
				continue;
			cmp_lkp_profile_key(kinds[k], event, json_object_get_string(n),
					    key, sizeof(key));
			if (jacc_add(st->prof[mode], key,
				     100 * json_object_get_double(v) / recv))
				return -ENOMEM;
		}
	}
	return 0;
}

/* @p's aux counters that LKP has a name for. */
static void add_aliases(struct lkp_state *st, const struct res_point *p, int mode)
{
	for (size_t a = 0; a < ARRAY_SIZE(lkp_aliases); a++) {
		const struct lkp_alias *al = &lkp_aliases[a];

		if (strcmp(al->test, p->test))
			continue;
		for (unsigned k = 0; k < p->naux && k < CGS_MAX_AUX; k++)
			if (!strcmp(p->aux_name[k], al->aux))
				acc_add(&st->alias[mode][a], p->sum.aux_task_rate[k] *
					(al->all_tasks ? p->tasks : 1));
	}
}

static int add_point(struct lkp_state *st, struct res_point *p, char *err,
		     size_t errlen)
{
	struct lkp_cell *c;
	int thread = !strcmp(p->mode, "thread");

	if (st->test && strcmp(st->test, p->test)) {
		snprintf(err, errlen, "the files hold tests %s and %s, and LKP runs one test "
			 "per job: export each test's files apart", st->test, p->test);
		return -EINVAL;
	}
	st->test = p->test;
	if (st->layout && strcmp(cmp_point_layout(p) ? cmp_point_layout(p) : "", st->layout))
		return 0;
	if (p->status != RES_OK) {
		st->failed++;
		return 0;
	}
	/* left out of the means, as compare leaves them out */
	if (res_disturbed(p, NULL, 0) > 0) {
		st->disturbed++;
		if (!st->keep_disturbed)
			return 0;
	}
	res_point_summarise(p);
	c = cell_of(st, p);
	if (!c)
		return -ENOMEM;
	acc_add(&c->total, p->sum.total_ops_per_sec);
	acc_add(&c->idle, p->sum.idle_pct);
	acc_add(&c->scal, p->tasks > 1 ? p->sum.scalability : NAN);
	if (p->tasks == st->baseline)
		return 0;
	acc_add(&st->per_task[thread], p->sum.per_task_ops_per_sec);
	for (size_t m = 0; m < st->ms.n; m++)
		acc_add(&st->metric[thread][m], cmp_metric_value(&st->ms.m[m], p));
	add_aliases(st, p, thread);
	return add_memstat(st, p, thread) ?: add_profile(st, p, thread);
}

/* The scalability of mode @mode at its largest task count. */
static double scalability_of(const struct lkp_state *st, const char *mode)
{
	const struct lkp_cell *best = NULL;

	for (unsigned i = 0; i < st->ncell; i++) {
		const struct lkp_cell *c = &st->cell[i];

		if (c->scal.n && !strcmp(c->mode, mode) && (!best || c->tasks > best->tasks))
			best = c;
	}
	return best ? acc_mean(&best->scal) : NAN;
}

/* will-it-scale's keys. Its scalability is of process mode when that
 * ran (LKP's parse reads the processes column), so thread mode's, when
 * both ran, is thread.scalability; workload adds every task count of
 * both modes, as LKP's parse does. */
static void print_wis(FILE *out, const struct lkp_state *st)
{
	double workload = 0, s = scalability_of(st, "process"), ts = scalability_of(st, "thread");

	for (unsigned i = 0; i < st->ncell; i++) {
		const struct lkp_cell *c = &st->cell[i];
		const char *col = strcmp(c->mode, "thread") ? "processes" : "threads";

		fprintf(out, "%s%u.%s: %.0f\n", st->pfx, c->tasks, col, acc_mean(&c->total));
		if (c->idle.n)
			fprintf(out, "%s%u.%s_idle: %.2f\n", st->pfx, c->tasks, col, acc_mean(&c->idle));
		if (c->tasks != st->baseline)
			workload += acc_mean(&c->total);
	}
	if (isfinite(s) || isfinite(ts))
		fprintf(out, "%sscalability: %f\n", st->pfx, isfinite(s) ? s : ts);
	if (isfinite(s) && isfinite(ts))
		fprintf(out, "%sthread.scalability: %f\n", st->pfx, ts);
	/* will-it-scale's parse prints these with %d: truncated */
	if (st->per_task[0].n)
		fprintf(out, "%sper_process_ops: %.0f\n", st->pfx, trunc(acc_mean(&st->per_task[0])));
	if (st->per_task[1].n)
		fprintf(out, "%sper_thread_ops: %.0f\n", st->pfx, trunc(acc_mean(&st->per_task[1])));
	if (workload > 0)
		fprintf(out, "%sworkload: %.0f\n", st->pfx, trunc(workload));
}

/* "KEY: " of figure @name of mode @m, named as lkp_names.c says. */
static void key(FILE *out, const struct lkp_state *st, const char *name, int m)
{
	char buf[700];

	cmp_lkp_key(name, mode_names[m], st->per_task[0].n && st->per_task[1].n,
		    buf, sizeof(buf));
	fprintf(out, "%s%s: ", st->pfx, buf);
}

/* The workloads' own figures under the names LKP gives them. */
static void print_aliases(FILE *out, const struct lkp_state *st, int m)
{
	for (size_t a = 0; a < ARRAY_SIZE(lkp_aliases); a++) {
		double v = acc_mean(&st->alias[m][a]);

		if (!isfinite(v))
			continue;
		key(out, st, lkp_aliases[a].key, m);
		fprintf(out, "%.2f\n", v);
	}
}

static void print_ours(FILE *out, const struct lkp_state *st, int m)
{
	char name[600];

	for (size_t i = 0; i < st->ms.n; i++) {
		double v = acc_mean(&st->metric[m][i]);

		/* per_task_ops is per_process_ops/per_thread_ops already, and
		 * scalability is will-it-scale's (print_wis): a key once */
		if (!isfinite(v) || !strcmp(st->ms.m[i].name, "per_task_ops") ||
		    !strcmp(st->ms.m[i].name, "scalability"))
			continue;
		key(out, st, st->ms.m[i].name, m);
		fprintf(out, "%.10g\n", v);
	}
	json_object_object_foreach(st->memstat[m], k, a) {
		double sum = json_object_get_double(json_object_array_get_idx(a, 0));
		int n = json_object_get_int(json_object_array_get_idx(a, 1));

		snprintf(name, sizeof(name), "memory.stat.%s", k);
		key(out, st, name, m);
		fprintf(out, "%.10g\n", n ? sum / n : 0);
	}
	json_object_object_foreach(st->prof[m], pk, pa) {
		double mean = json_object_get_double(json_object_array_get_idx(pa, 0)) /
			      st->nprof[m];

		/* LKP's perf-profile tables stop at small shares too */
		if (mean < EXP_LKP_PROFILE_FLOOR)
			continue;
		key(out, st, pk, m);
		fprintf(out, "%.2f\n", mean);
	}
}

static void state_free(struct lkp_state *st)
{
	free(st->cell);
	for (int m = 0; m < 2; m++) {
		json_object_put(st->memstat[m]);
		json_object_put(st->prof[m]);
	}
}

/* The stats of the points of st->layout (all: NULL) under st->pfx.
 * -ENODATA when none ran ok. */
static int write_layout(FILE *out, struct cmp_side *sides, unsigned nsides,
			struct lkp_state *st, char *err, size_t errlen)
{
	int rc = 0;

	for (int m = 0; m < 2; m++) {
		st->memstat[m] = json_object_new_object();
		st->prof[m] = json_object_new_object();
		if (!st->memstat[m] || !st->prof[m])
			rc = -ENOMEM;
	}
	cmp_mset_init(&st->ms);
	for (unsigned s = 0; s < nsides && !rc; s++)
		for (unsigned f = 0; f < sides[s].nfiles && !rc; f++)
			rc = cmp_mset_add(&st->ms, &sides[s].files[f].res) ?:
			     res_disturb_mark_unmarked(&sides[s].files[f].res);
	if (rc)
		snprintf(err, errlen, rc == -ENOMEM ? "out of memory" :
			 "the files have more aux counters than export can hold");
	for (unsigned s = 0; s < nsides && !rc; s++)
		for (unsigned f = 0; f < sides[s].nfiles && !rc; f++)
			for (unsigned i = 0; i < sides[s].files[f].res.npoints && !rc; i++)
				rc = add_point(st, &sides[s].files[f].res.points[i], err, errlen);
	if (!rc && st->ncell) {
		print_wis(out, st);
		for (int m = 0; m < 2; m++) {
			print_aliases(out, st, m);
			print_ours(out, st, m);
		}
	}
	if (!rc && st->failed)
		fprintf(out, "%sfailed_points: %u\n", st->pfx, st->failed);
	if (!rc && st->disturbed)   /* compare leaves them out too */
		fprintf(out, "%sdisturbed_runs: %u\n", st->pfx, st->disturbed);
	return rc ? rc : st->ncell ? 0 : -ENODATA;
}

/* A layout as one word of an LKP key: "depth=3 leaf=shared" is
 * "depth-3_leaf-shared". */
static void layout_key(const char *layout, char *buf, size_t len)
{
	size_t n = 0;

	for (; *layout && n + 2 < len; layout++)
		buf[n++] = *layout == '=' ? '-' : *layout == ' ' ? '_' :
			   isalnum((unsigned char)*layout) || *layout == '-' ? *layout : '_';
	buf[n++] = '.';
	buf[n] = 0;
}

int cmp_lkp_stats(FILE *out, struct cmp_side *sides, unsigned nsides,
		  unsigned baseline, bool keep_disturbed, char *err, size_t errlen)
{
	const char *lay[64];
	unsigned nl = 0, ok = 0, disturbed = 0;
	int rc = 0;

	/* one set of keys a cgroup layout where the points have several (a
	 * job that contrasts depth 0 with 3 exists to keep them apart) */
	for (unsigned s = 0; s < nsides; s++)
		for (unsigned f = 0; f < sides[s].nfiles; f++)
			for (unsigned i = 0; i < sides[s].files[f].res.npoints; i++) {
				const char *l = cmp_point_layout(&sides[s].files[f].res.points[i]);
				unsigned k = 0;

				l = l ? l : "";
				while (k < nl && strcmp(lay[k], l))
					k++;
				if (k == nl && nl < ARRAY_SIZE(lay))
					lay[nl++] = l;
			}
	for (unsigned k = 0; k < (nl > 1 ? nl : 1) && (!rc || rc == -ENODATA); k++) {
		struct lkp_state st = { .baseline = baseline, .keep_disturbed = keep_disturbed,
					.layout = nl > 1 ? lay[k] : NULL };

		if (nl > 1)
			layout_key(lay[k], st.pfx, sizeof(st.pfx));
		rc = write_layout(out, sides, nsides, &st, err, errlen);
		ok += !rc;
		disturbed += st.disturbed;
		state_free(&st);
	}
	/* every ok run disturbed: no means, and disturbed_runs says why (a
	 * busy box; --keep-disturbed uses them), which is no failure */
	if (rc == -ENODATA && (ok || disturbed))
		rc = 0;
	if (rc == -ENODATA)
		snprintf(err, errlen, "no point ran ok in the files: there are no stats "
			 "to print (see 'cgscale show' for why)");
	return rc ? rc : ferror(out) ? -EIO : 0;
}
