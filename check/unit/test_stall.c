/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stall.c - the stall rules of disturbed runs (results/model/
 * stall.c) on synthetic points with known answers: a task stopped or
 * starved while its siblings ran (process and thread mode), a lone task
 * stopped, the whole thread group stopped, tasks that never ran (and
 * starved by oversubscription), the caps on what a reason lists; no false
 * positive on clean points with +-20% interval noise, slow workloads and
 * a busy machine's half-second starvation; compare leaving the run out.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "results/compare/model.h"
#include "results/model/disturb.h"
#include "results/stats/stats.h"
#include "check/unit/cmp_two.h"
#include "check/unit/synth.h"

static const struct synth S = { .tasks = 1, .mean = 1e6 };

static void header(struct res_file *f, int cpus)
{
	synth_file_head(f, &S, cpus);
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

/* At most 3 tasks and 6 spans written out: the reason stays short. */
static void test_stall_caps(void **state)
{
	struct res_file f = { 0 };
	struct res_point *p;
	struct st_rng r;
	char why[2048];

	(void)state;
	st_rng_seed(&r, 7);
	header(&f, 8);
	p = grid(&f, "process", 16, 20, 0.2, &r);
	for (unsigned j = 1; j <= 19; j += 3)
		stall(p, 0, j, j + 1, 0);
	for (unsigned i = 1; i <= 4; i++)
		stall(p, i, 10, 11, 0);
	assert_int_equal(marked(&f, 0, why, sizeof(why)), 4);
	assert_non_null(strstr(why, "task 0 did 0 ops in intervals 1-2, 4-5, 7-8, 10-11, 13-14, 16-17, ... of 20 while"));
	assert_non_null(strstr(why, "task 2 did 0 ops in intervals 10-11 of 20"));
	assert_null(strstr(why, "task 3 did"));
	assert_non_null(strstr(why, "2 more tasks stalled likewise while their siblings ran"));
	res_file_free(&f);
}

static void analyse(struct cmp_result *r, const char *a, const char *b, bool keep)
{
	cmp_analyse_two_default(r, a, b, keep);
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
		cmocka_unit_test(test_stall_process),
		cmocka_unit_test(test_stall_thread),
		cmocka_unit_test(test_stall_lone),
		cmocka_unit_test(test_stall_never_ran),
		cmocka_unit_test(test_stall_caps),
		cmocka_unit_test(test_stall_clean),
		cmocka_unit_test(test_stall_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
