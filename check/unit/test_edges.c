/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_edges.c - the observers' reads at the window's edges
 * (runner/observe/edges.h): a read at the sample that opens the window
 * and at window_end of a measured window; none at the end without the
 * start, nor outside the measure phase; a failed read keeps its error,
 * drops both edges and stops every read after it; off reads nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runner/observe/edges.h"

struct obs {
	int reads[2];
	int fail_at;          /* the edge whose read fails, -1 none */
};

static int rd(void *o, int which)
{
	struct obs *x = o;

	x->reads[which]++;
	return which == x->fail_at ? -EIO : 0;
}

static void test_edges(void **state)
{
	struct cgs_edges e = { 0 };
	struct obs o = { .fail_at = -1 };

	(void)state;
	cgs_edges_end(&e, RES_PHASE_MEASURE, 5, rd, &o);     /* no start: no read */
	cgs_edges_sample(&e, false, 1, rd, &o);               /* not the opening sample */
	assert_int_equal(o.reads[0] + o.reads[1], 0);
	cgs_edges_sample(&e, true, 100, rd, &o);
	cgs_edges_end(&e, RES_PHASE_WARMUP, 200, rd, &o);     /* not measured */
	assert_false(cgs_edges_both(&e));
	cgs_edges_end(&e, RES_PHASE_MEASURE, 2000000100, rd, &o);
	assert_true(cgs_edges_both(&e));
	assert_int_equal(o.reads[0], 1);
	assert_int_equal(o.reads[1], 1);
	assert_true(cgs_edges_seconds(&e) == 2.0);
	assert_int_equal(e.err, 0);
}

static void test_failure(void **state)
{
	struct cgs_edges e = { 0 }, off = { .off = true };
	struct obs o = { .fail_at = 1 }, p = { .fail_at = -1 };

	(void)state;
	cgs_edges_sample(&e, true, 100, rd, &o);
	cgs_edges_end(&e, RES_PHASE_MEASURE, 200, rd, &o);
	assert_false(e.have[0] || e.have[1]);
	assert_int_equal(e.err, -EIO);
	assert_true(e.off);
	cgs_edges_sample(&e, true, 300, rd, &o);               /* stopped */
	assert_int_equal(o.reads[0], 1);
	cgs_edges_sample(&off, true, 100, rd, &p);            /* nothing to read */
	assert_int_equal(p.reads[0], 0);
	assert_false(cgs_edges_both(&off));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
