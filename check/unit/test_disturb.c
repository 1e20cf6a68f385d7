/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_disturb.c - disturbed runs and the robust verdicts on synthetic
 * data with known answers: the marking rules one by one (steal, foreign
 * load against the siblings and against the task count, a late sampler, a
 * migration, cgroup events), compare leaving marked runs out and saying
 * when too few clean runs remain, and a single outlier run that no longer
 * decides NOISY when the Hodges-Lehmann interval is clear; the stall
 * rules: a task stopped or starved while its siblings ran, a lone task or
 * all stopped, tasks that never ran, clean +-20% noise left unmarked.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "results/compare/compare.h"
#include "results/model/disturb.h"
#include "results/stats/stats.h"
#include "check/unit/cmp_two.h"
#include "check/unit/synth.h"

static const struct synth S = { .tasks = 1, .mean = 1e6 };

static void header(struct res_file *f, int cpus)
{
	f->schema_version = 1;
	f->tool_version = strdup("0.1.0");
	f->git = strdup("synthetic");
	f->complete = true;
	f->kernel = synth_header(&S, "kernel");
	f->machine = synth_header(&S, "machine");
	json_object_object_add(f->machine, "online_cpus", json_object_new_int(cpus));
	f->environment = synth_header(&S, "environment");
	f->options = synth_header(&S, "options");
}

static void test_mark_rules(void **state)
{
	struct res_file f = { 0 };
	char why[512];

	(void)state;
	header(&f, 4);
	for (unsigned i = 0; i < 6; i++) {
		assert_int_equal(synth_point(&f, &S, i, 1e6), 0);
		f.points[i].sum.idle_pct = 70 + i;   /* 1 task of 4 CPUs: 75% */
		f.points[i].sum.steal_pct = 0.5;
		f.points[i].interval_s = 1;
		f.points[i].sampler_lag_ms = 2;
	}
	f.points[1].sum.steal_pct = 8;
	f.points[2].sum.idle_pct = 40;          /* median 72.5: 32.5 below */
	f.points[3].sampler_lag_ms = 400;
	f.points[4].task[0].cpuset = strdup("0-1");
	f.points[4].task[0].migrated = true;
	f.points[4].task[0].cpu_end = 1;
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), -1);
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), 0);
	assert_int_equal(res_disturbed(&f.points[1], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "steal 8.0%"));
	assert_int_equal(res_disturbed(&f.points[2], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "foreign load: idle 40.0%"));
	assert_int_equal(res_disturbed(&f.points[3], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "sampler late by 400 ms"));
	assert_int_equal(res_disturbed(&f.points[4], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "task 0 migrated"));
	assert_int_equal(res_disturbed(&f.points[5], why, sizeof(why)), 0);
	/* marking again starts afresh */
	f.points[1].sum.steal_pct = 0;
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[1], why, sizeof(why)), 0);
	res_file_free(&f);
}

static void test_mark_lone_and_cgroup(void **state)
{
	struct res_file f = { 0 };
	struct json_object *cg;
	char why[512];

	(void)state;
	/* a lone run: its idle against what 1 task of 2 CPUs leaves (50%) */
	header(&f, 2);
	assert_int_equal(synth_point(&f, &S, 0, 1e6), 0);
	f.points[0].sum.idle_pct = 2;
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "task count leaves 50.0%"));
	f.points[0].sum.idle_pct = 45;
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), 0);
	/* cgroup events in 1 run of 4: disturbed; in all 4: the setting */
	for (unsigned i = 1; i < 4; i++)
		assert_int_equal(synth_point(&f, &S, i, 1e6), 0);
	for (unsigned i = 0; i < 4; i++) {
		f.points[i].sum.idle_pct = 45;
		cg = json_object_new_object();
		json_object_object_add(cg, "flagged", json_object_new_boolean(i == 2));
		json_object_object_add(f.points[i].extra, "cgroup", cg);
	}
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[2], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "cgroup memory events in 1 of 4"));
	for (unsigned i = 0; i < 4; i++) {
		json_object_object_get_ex(f.points[i].extra, "cgroup", &cg);
		json_object_object_add(cg, "flagged", json_object_new_boolean(1));
	}
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[2], why, sizeof(why)), 0);
	res_file_free(&f);
}

/* A point of @tasks tasks: a start sample, one warm-up and @m measured
 * 0.5 s intervals, each task doing 1e5 ops an interval times 1 + noise *
 * u, u uniform in [-1, 1]. stall() edits it; marked() judges. */
static struct res_point *grid(struct res_file *f, const char *mode,
			      unsigned tasks, unsigned m, double noise,
			      struct st_rng *r)
{
	struct res_point *p = res_file_add_point(f);

	assert_non_null(p);
	assert_int_equal(res_point_alloc(p, tasks, m + 2), 0);
	p->seq = p->run = f->npoints - 1;
	p->test = strdup("page_fault1");
	p->mode = strdup(mode);
	p->tasks = tasks;
	p->status = RES_OK;
	p->interval_s = 0.5;
	p->wopts = json_object_new_object();
	p->extra = json_object_new_object();
	for (unsigned k = 0; k < m + 2; k++) {
		p->t_ns[k] = (int64_t)k * 500000000;
		p->phase[k] = !k ? RES_PHASE_START : k == 1 ? RES_PHASE_WARMUP :
			      RES_PHASE_MEASURE;
		for (unsigned i = 0; k && i < tasks; i++)
			p->ops[(size_t)i * (m + 2) + k] = (uint64_t)llround(1e5 *
				(1 + noise * (2 * ((st_rng_next(r) >> 11) * 0x1.0p-53) - 1)));
	}
	for (unsigned i = 0; i < tasks; i++)
		p->task[i].status = RES_OK;
	return p;
}

/* Task @i does @frac of its ops in measured intervals a..b (from 1). */
static void stall(struct res_point *p, unsigned i, unsigned a, unsigned b,
		  double frac)
{
	for (unsigned j = a; j <= b; j++) {
		uint64_t *o = &p->ops[(size_t)i * p->nsamples + j + 1];

		*o = (uint64_t)llround(*o * frac);
	}
}

/* Summarise and mark @f; point @i's reasons into @why, and their count. */
static int marked(struct res_file *f, unsigned i, char *why, size_t len)
{
	for (unsigned k = 0; k < f->npoints; k++) {
		res_point_summarise(&f->points[k]);
		f->points[k].sum.idle_pct = NAN;   /* no foreign-load verdict */
	}
	assert_int_equal(res_disturb_mark(f), 0);
	return res_disturbed(&f->points[i], why, len);
}

static void test_stall_process(void **state)
{
	struct res_file f = { 0 };
	struct res_point *p;
	struct st_rng r;
	char why[1024];

	(void)state;
	st_rng_seed(&r, 1);
	header(&f, 8);
	p = grid(&f, "process", 4, 10, 0.2, &r);
	stall(p, 2, 4, 7, 0);        /* SIGSTOP for 2 s */
	stall(p, 1, 2, 4, 0.02);     /* starved: 2% of its siblings */
	stall(p, 3, 9, 9, 0);        /* 0.5 s: a busy machine's, not judged */
	assert_int_equal(marked(&f, 0, why, sizeof(why)), 2);
	assert_non_null(strstr(why, "task 1 did under 5% of its siblings' median ops in intervals 2-4 of 10 while its siblings ran"));
	assert_non_null(strstr(why, "task 2 did 0 ops in intervals 4-7 of 10 while its siblings ran (stopped, starved or stuck)"));
	assert_null(strstr(why, "task 3"));
	assert_int_equal(res_silent_tasks(p), 0);
	res_file_free(&f);
}

static void test_stall_thread(void **state)
{
	struct res_file f = { 0 };
	struct res_point *p;
	struct st_rng r;
	char why[1024];

	(void)state;
	st_rng_seed(&r, 2);
	header(&f, 8);
	p = grid(&f, "thread", 2, 10, 0.2, &r);
	stall(p, 1, 3, 6, 0);
	assert_int_equal(marked(&f, 0, why, sizeof(why)), 1);
	assert_string_equal(why, "task 1 did 0 ops in intervals 3-6 of 10 while its siblings ran (stopped, starved or stuck)");
	/* two stops of one task, merged into spans */
	p = grid(&f, "thread", 3, 10, 0.2, &r);
	stall(p, 0, 1, 2, 0);
	stall(p, 0, 8, 10, 0);
	assert_int_equal(marked(&f, 1, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "task 0 did 0 ops in intervals 1-2, 8-10 of 10"));
	/* the whole thread group stopped (SIGSTOP stops every thread) */
	p = grid(&f, "thread", 4, 10, 0.2, &r);
	for (unsigned i = 0; i < 4; i++)
		stall(p, i, 5, 7, 0);
	assert_int_equal(marked(&f, 2, why, sizeof(why)), 1);
	assert_string_equal(why, "all tasks did 0 ops in intervals 5-7 of 10 while the window went on (stopped, starved or stuck together)");
	res_file_free(&f);
}

static void test_stall_lone(void **state)
{
	struct res_file f = { 0 };
	struct res_point *p;
	struct st_rng r;
	char why[1024];

	(void)state;
	st_rng_seed(&r, 3);
	header(&f, 8);
	p = grid(&f, "process", 1, 10, 0.2, &r);
	stall(p, 0, 5, 8, 0);
	p = grid(&f, "thread", 1, 10, 0.2, &r);
	stall(p, 0, 2, 3, 0.03);
	p = grid(&f, "process", 1, 10, 0.2, &r);
	stall(p, 0, 2, 8, 0);              /* stopped for most of the window */
	p = grid(&f, "thread", 1, 10, 0.2, &r);
	stall(p, 0, 3, 3, 0.02);           /* an interval the stop cut into */
	stall(p, 0, 4, 6, 0);
	assert_int_equal(marked(&f, 0, why, sizeof(why)), 1);
	assert_string_equal(why, "task 0 did 0 ops in intervals 5-8 of 10 while the window went on (stopped, starved or stuck)");
	assert_int_equal(marked(&f, 1, why, sizeof(why)), 1);
	assert_string_equal(why, "task 0 did under 5% of its usual ops in intervals 2-3 of 10 while the window went on (stopped, starved or stuck)");
	assert_int_equal(marked(&f, 2, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "task 0 did 0 ops in intervals 2-8 of 10"));
	assert_int_equal(marked(&f, 3, why, sizeof(why)), 1);
	assert_string_equal(why, "task 0 did 0 ops in intervals 4-6 of 10, and under 5% of its usual ops in interval 3 while the window went on (stopped, starved or stuck)");
	res_file_free(&f);
}

static void test_stall_never_ran(void **state)
{
	const unsigned silent[] = { 1, 3, 4, 5, 6 };
	struct res_file f = { 0 };
	struct res_point *p;
	struct st_rng r;
	char why[1024];

	(void)state;
	st_rng_seed(&r, 4);
	header(&f, 2);
	p = grid(&f, "process", 2, 8, 0.2, &r);
	stall(p, 1, 1, 8, 0);    /* ran in the warm-up only */
	assert_int_equal(marked(&f, 0, why, sizeof(why)), 1);
	assert_string_equal(why, "1 of 2 tasks did no op in the measured window (first: task 1): stopped, starved or stuck");
	assert_int_equal(res_silent_tasks(p), 1);
	/* oversubscribed: starved by design, and still not comparable */
	p = grid(&f, "thread", 8, 8, 0.2, &r);
	p->oversubscribed = true;
	for (unsigned k = 0; k < 5; k++)
		stall(p, silent[k], 1, 8, 0);
	assert_int_equal(marked(&f, 1, why, sizeof(why)), 1);
	assert_string_equal(why, "5 of 8 tasks did no op in the measured window (first: task 1): starved, 8 tasks on 2 CPUs, so its figures are not comparable");
	assert_int_equal(res_silent_tasks(p), 5);
	res_file_free(&f);
}

/* Write runs of these values; runs whose bit is set in @bad are marked
 * disturbed ("steal 9%" in the point, as a runner would). */
static void write_runs(const char *path, const double *v, unsigned n, unsigned bad)
{
	struct res_file f = { 0 };
	char err[512];

	header(&f, 2);
	for (unsigned i = 0; i < n; i++) {
		struct json_object *a = json_object_new_array();

		assert_int_equal(synth_point(&f, &S, i, v[i]), 0);
		if (bad & (1u << i))
			json_object_array_add(a, json_object_new_string("steal 9.0% (above 5%)"));
		json_object_object_add(f.points[i].extra, "disturbed", a);
	}
	assert_int_equal(res_write_file(&f, path, err, sizeof(err)), 0);
	res_file_free(&f);
}

static void analyse(struct cmp_result *r, const char *a, const char *b, bool keep)
{
	memset(r, 0, sizeof(*r));
	cmp_opts_default(&r->o);
	r->o.keep_disturbed = keep;
	cmp_analyse_two(r, a, b);
	assert_int_equal(r->ngroups, 1);
}

static const double A6[] = { 1000, 1003, 997, 1001, 999, 1002 };
static const double B6[] = { 1001, 998, 1002, 1000, 999, 1003 };

static void test_compare_leaves_out(void **state)
{
	char a[] = "/tmp/cgs-dist-a-XXXXXX.json", b[] = "/tmp/cgs-dist-b-XXXXXX.json";
	struct cmp_result r;
	const struct cmp_delta *d;
	bool listed = false;

	(void)state;
	assert_true(mkstemps(a, 5) >= 0 && mkstemps(b, 5) >= 0);
	write_runs(a, A6, 6, 0);
	write_runs(b, B6, 6, 0x3);
	analyse(&r, a, b, false);
	assert_int_equal(r.groups[0].cell[1].disturbed, 2);
	assert_int_equal(r.groups[0].cell[1].n[0], 4);
	for (unsigned i = 0; i < r.nnotes; i++)
		listed |= strstr(r.notes[i], "run 2 is disturbed") &&
			  strstr(r.notes[i], "steal 9.0%");
	assert_true(listed);
	d = cmp_delta_of(&r, &r.groups[0], 1, 0);
	assert_int_equal(d->verdict, CMP_NO_CHANGE);
	cmp_result_free(&r);
	analyse(&r, a, b, true);
	assert_int_equal(r.groups[0].cell[1].disturbed, 0);
	assert_int_equal(r.groups[0].cell[1].n[0], 6);
	cmp_result_free(&r);
	/* 2 clean runs left: said, not judged */
	write_runs(b, B6, 6, 0xf);
	analyse(&r, a, b, false);
	d = cmp_delta_of(&r, &r.groups[0], 1, 0);
	assert_int_equal(d->verdict, CMP_INCONCLUSIVE);
	assert_non_null(strstr(d->why, "only 2 clean runs on B (4 disturbed"));
	cmp_result_free(&r);
	/* none left */
	write_runs(b, B6, 6, 0x3f);
	analyse(&r, a, b, false);
	d = cmp_delta_of(&r, &r.groups[0], 1, 0);
	assert_true(d->valid);
	assert_int_equal(d->verdict, CMP_INCONCLUSIVE);
	assert_int_equal(r.count[CMP_INCONCLUSIVE], 1);
	assert_non_null(strstr(d->why, "only 0 clean runs on B"));
	cmp_result_free(&r);
	unlink(a);
	unlink(b);
}

static void test_one_outlier(void **state)
{
	char a[] = "/tmp/cgs-dist-a-XXXXXX.json", b[] = "/tmp/cgs-dist-b-XXXXXX.json";
	const double aa[] = { 1000, 1003, 997, 1001, 999, 1002, 998, 1000 };
	double bb[] = { 1001, 998, 1002, 1000, 999, 1003, 1000, 700 };
	struct cmp_result r;
	const struct cmp_delta *d;

	(void)state;
	assert_true(mkstemps(a, 5) >= 0 && mkstemps(b, 5) >= 0);
	write_runs(a, aa, 8, 0);
	/* A/A with one run at -30%: CoV 11%, the mean CI is wide; the rank
	 * CI is within +-2% */
	write_runs(b, bb, 8, 0);
	analyse(&r, a, b, false);
	d = cmp_delta_of(&r, &r.groups[0], 1, 0);
	assert_true(r.groups[0].cell[1].d[0].cov_pct > 5);
	assert_true(d->one_outlier && d->by_rank);
	assert_true(d->hl_lo >= -2 && d->hl_hi <= 2);
	assert_int_equal(d->verdict, CMP_NO_CHANGE);
	assert_non_null(strstr(d->why, "one outlier run"));
	cmp_result_free(&r);
	/* two outliers: NOISY as before */
	bb[6] = 1350;
	write_runs(b, bb, 8, 0);
	analyse(&r, a, b, false);
	d = cmp_delta_of(&r, &r.groups[0], 1, 0);
	assert_false(d->one_outlier);
	assert_int_equal(d->verdict, CMP_NOISY);
	cmp_result_free(&r);
	/* a real -10% with one run at +20%: a REGRESSION by the rank CI */
	for (int i = 0; i < 8; i++)
		bb[i] = aa[i] * 0.9;
	bb[3] = 1200;
	write_runs(b, bb, 8, 0);
	analyse(&r, a, b, false);
	d = cmp_delta_of(&r, &r.groups[0], 1, 0);
	assert_int_equal(d->verdict, CMP_REGRESSION);
	assert_true(d->hl_hi < -2);
	cmp_result_free(&r);
	unlink(a);
	unlink(b);
}

/* No false positive: +-20% noise, a task at 30% of its siblings (an SMT
 * sibling), one starved for half a second (a busy machine), one idle in
 * the warm-up only, a workload of a few ops an interval. */
static void test_stall_clean(void **state)
{
	const unsigned tasks[] = { 1, 2, 4, 16 };
	struct res_file f = { 0 };
	struct res_point *p;
	struct st_rng r;
	char why[1024];

	(void)state;
	st_rng_seed(&r, 5);
	header(&f, 64);
	for (unsigned t = 0; t < 4; t++)
		for (unsigned k = 0; k < 50; k++)
			grid(&f, k % 2 ? "thread" : "process", tasks[t], 10, 0.2, &r);
	p = grid(&f, "process", 4, 10, 0.2, &r);
	stall(p, 1, 1, 10, 0.3);
	stall(p, 2, 6, 6, 0);
	p->ops[(size_t)3 * p->nsamples + 1] = 0;
	p = grid(&f, "thread", 2, 10, 0, &r);
	for (unsigned j = 0; j < 11; j++) {   /* ops of 0.3 to 1.5 s */
		p->ops[j + 1] = (const uint64_t[]){ 1, 1, 0, 0, 0, 2, 1, 1, 0, 0, 0 }[j];
		p->ops[p->nsamples + j + 1] = 1 + j % 3 / 2;
	}
	marked(&f, 0, why, sizeof(why));
	for (unsigned k = 0; k < f.npoints; k++) {
		if (res_disturbed(&f.points[k], why, sizeof(why)))
			fail_msg("point %u marked: %s", k, why);
		assert_int_equal(res_silent_tasks(&f.points[k]), 0);
	}
	res_file_free(&f);
}

/* compare leaves the run with a stopped task out, and --keep-disturbed
 * uses it. */
static void test_stall_compare(void **state)
{
	char a[] = "/tmp/cgs-dist-a-XXXXXX.json", b[] = "/tmp/cgs-dist-b-XXXXXX.json";
	struct cmp_result res;
	struct st_rng r;
	bool listed = false;
	char err[512];

	(void)state;
	st_rng_seed(&r, 6);
	assert_true(mkstemps(a, 5) >= 0 && mkstemps(b, 5) >= 0);
	for (unsigned side = 0; side < 2; side++) {
		struct res_file f = { 0 };

		header(&f, 2);
		for (unsigned k = 0; k < 5; k++)
			grid(&f, "process", 2, 8, 0.2, &r);
		if (side)
			stall(&f.points[2], 1, 3, 8, 0);
		marked(&f, 0, err, sizeof(err));
		assert_int_equal(res_write_file(&f, side ? b : a, err, sizeof(err)), 0);
		res_file_free(&f);
	}
	analyse(&res, a, b, false);
	assert_int_equal(res.groups[0].cell[0].disturbed, 0);
	assert_int_equal(res.groups[0].cell[1].disturbed, 1);
	assert_int_equal(res.groups[0].cell[1].n[0], 4);
	for (unsigned i = 0; i < res.nnotes; i++)
		listed |= strstr(res.notes[i], "run 3 is disturbed") &&
			  strstr(res.notes[i], "task 1 did 0 ops in intervals 3-8 of 8");
	assert_true(listed);
	cmp_result_free(&res);
	analyse(&res, a, b, true);
	assert_int_equal(res.groups[0].cell[1].disturbed, 0);
	assert_int_equal(res.groups[0].cell[1].n[0], 5);
	cmp_result_free(&res);
	unlink(a);
	unlink(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mark_rules),
		cmocka_unit_test(test_mark_lone_and_cgroup),
		cmocka_unit_test(test_compare_leaves_out),
		cmocka_unit_test(test_one_outlier),
		cmocka_unit_test(test_stall_process),
		cmocka_unit_test(test_stall_thread),
		cmocka_unit_test(test_stall_lone),
		cmocka_unit_test(test_stall_never_ran),
		cmocka_unit_test(test_stall_clean),
		cmocka_unit_test(test_stall_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
