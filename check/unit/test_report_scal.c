/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_scal.c - the report's scalability charts on synthetic runs:
 * one task count is drawn as points with no linear line and an x axis
 * around it; a sweep of 1..64 tasks gets a log2 axis starting at 1 task
 * and the linear reference with its end label; a workload's aux counter
 * gets its own chart of its rate (remap's bogo-ops/s), with the mean of
 * the runs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "results/report/document.h"

#define NG 7

struct fixture {
	struct res_point p[NG][2];
	struct rpt_run run[NG][2];
	struct rpt_group g[NG];
	const char *test[1], *mode[1];
	struct rpt_set s;
};

/* @ng task counts (1, 2, 4, ...; or only @only), two runs each, remap's
 * aux counter "passes" in bogo-ops/s. */
static void build(struct fixture *f, unsigned ng, unsigned only)
{
	memset(f, 0, sizeof(*f));
	f->test[0] = "remap";
	f->mode[0] = "process";
	for (unsigned i = 0; i < ng; i++) {
		unsigned n = only ? only : 1u << i;

		for (unsigned r = 0; r < 2; r++) {
			struct res_point *p = &f->p[i][r];

			p->test = (char *)"remap";
			p->mode = (char *)"process";
			p->status = RES_OK;
			p->tasks = n;
			p->run = r;
			p->sum.elapsed_s = 1;
			p->sum.total_ops_per_sec = 1000.0 * n + r * 10;
			p->naux = 1;
			p->aux_name[0] = (char *)"passes";
			p->aux_unit[0] = (char *)"bogo-ops/s";
			p->sum.aux_rate[0] = 50.0 * n + r;
			f->run[i][r].p = p;
		}
		f->g[i] = (struct rpt_group){ .test = "remap", .mode = "process", .tasks = n,
					      .run = f->run[i], .nrun = 2, .nok = 2 };
	}
	f->s = (struct rpt_set){ .g = f->g, .ng = ng, .test = f->test, .mode = f->mode,
				 .ntest = 1, .nmode = 1 };
}

static const struct rpt_series *series(const struct rpt_chart *c, const char *name)
{
	for (unsigned i = 0; i < c->nseries; i++)
		if (!strcmp(c->series[i].name, name))
			return &c->series[i];
	return NULL;
}

static void one_task_count(void **state)
{
	static struct fixture f;
	struct rpt_doc d;
	const struct rpt_series *line;

	(void)state;
	build(&f, 1, 4);
	assert_int_equal(rpt_doc_init(&d, "t"), 0);
	rpt_scalability(&d, &f.s, 0);
	assert_int_equal(d.err, 0);
	assert_int_equal(d.nchart, 2);   /* ops, and the aux counter */
	line = series(d.chart[0], "process");
	assert_non_null(line);
	assert_int_equal(line->style, RPT_POINTS);
	assert_null(series(d.chart[0], "process linear"));
	assert_false(d.chart[0]->x.log2);
	assert_true(d.chart[0]->x.min < 4 && d.chart[0]->x.max > 4);
	assert_non_null(strstr(d.chart[1]->title, "bogo-ops/s"));
	line = series(d.chart[1], "process");
	assert_non_null(line);
	assert_true(line->n == 1 && line->y[0] == 200.5);   /* mean of 200, 201 */
	rpt_doc_free(&d);
}

static void sweep(void **state)
{
	static struct fixture f;
	struct rpt_doc d;
	const struct rpt_series *line, *lin;

	(void)state;
	build(&f, NG, 0);
	assert_int_equal(rpt_doc_init(&d, "t"), 0);
	rpt_scalability(&d, &f.s, 0);
	assert_int_equal(d.nchart, 2);
	for (unsigned c = 0; c < 2; c++) {
		assert_true(d.chart[c]->x.log2);
		assert_true(d.chart[c]->x.min == 1 && d.chart[c]->x.max == 64);
		line = series(d.chart[c], "process");
		lin = series(d.chart[c], "process linear");
		assert_non_null(line);
		assert_int_equal(line->style, RPT_LINESPOINTS);
		assert_non_null(lin);
		assert_true(lin->label_end && lin->n == NG);
		assert_true(d.chart[c]->y.max > lin->y[NG - 1]);   /* headroom */
	}
	/* linear = N x value(1): 64 x 1005 ops/s, 64 x 50.5 bogo-ops/s */
	assert_true(fabs(series(d.chart[0], "process linear")->y[NG - 1] - 64 * 1005.0) < 1e-6);
	assert_true(fabs(series(d.chart[1], "process linear")->y[NG - 1] - 64 * 50.5) < 1e-6);
	rpt_doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_task_count),
		cmocka_unit_test(sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
