/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_disturb.c - disturbed runs and the robust verdicts on synthetic
 * data with known answers: the marking rules one by one (steal, foreign
 * load against the siblings and against the task count, a late sampler, a
 * migration, cgroup events), compare leaving marked runs out and saying
 * when too few clean runs remain, and a single outlier run that no longer
 * decides NOISY when the Hodges-Lehmann interval is clear. The rules
 * that look inside a point's samples (stall.c) are in test_stall.c.
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

#include "results/compare/model.h"
#include "results/model/disturb.h"
#include "check/unit/cmp_two.h"
#include "check/unit/synth.h"

static const struct synth S = { .tasks = 1, .mean = 1e6 };

static void header(struct res_file *f, int cpus)
{
	synth_file_head(f, &S, cpus);
}

/* harness.idle_cpus of @p: the CPUs its idle figure covers */
static void idle_cpus_set(struct res_point *p, const char *list)
{
	struct json_object *h = json_object_new_object();

	json_object_object_add(h, "idle_cpus", json_object_new_string(list));
	json_object_object_add(p->extra, "harness", h);
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
	/* its idle figure of the run's CPUs only (harness.idle_cpus): 1 task
	 * on its 1 CPU leaves none idle, whatever the other CPU does */
	idle_cpus_set(&f.points[0], "1");
	f.points[0].sum.idle_pct = 0;
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), 0);
	/* of 4 allowed CPUs (on this 2-CPU file) 1 task leaves 75% */
	idle_cpus_set(&f.points[0], "0-1,4,6");
	f.points[0].sum.idle_pct = 40;
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "idle 40.0% of the run's CPUs 0-1,4,6 where the task count leaves 75.0%"));
	/* "all" or a list that does not parse: the machine's CPUs, as before */
	idle_cpus_set(&f.points[0], "all");
	f.points[0].sum.idle_pct = 2;
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "idle 2.0% where the task count leaves 50.0%"));
	idle_cpus_set(&f.points[0], "3-1");
	assert_int_equal(res_disturb_mark(&f), 0);
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "task count leaves 50.0%"));
	json_object_object_del(f.points[0].extra, "harness");
	f.points[0].sum.idle_pct = 45;
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
	cmp_analyse_two_default(r, a, b, keep);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mark_rules),
		cmocka_unit_test(test_mark_lone_and_cgroup),
		cmocka_unit_test(test_compare_leaves_out),
		cmocka_unit_test(test_one_outlier),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
