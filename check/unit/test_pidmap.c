/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pidmap.c - pid -> index: pids out of order (wrapped pid numbers),
 * unstarted slots (0 or -1) skipped, misses, and an empty map.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/pidmap.h"

static void test_lookup(void **state)
{
	/* pid_max wrapped between the 3rd and 4th fork; slot 5 never forked */
	pid_t pids[] = { 32700, 32750, 32766, 301, 302, 0, 450, -1 };
	struct cgs_pidmap m;

	(void)state;
	assert_int_equal(cgs_pidmap_build(&m, pids, 8), 0);
	assert_int_equal(m.n, 6);
	for (int i = 0; i < 8; i++)
		if (pids[i] > 0)
			assert_int_equal(cgs_pidmap_find(&m, pids[i]), i);
	assert_int_equal(cgs_pidmap_find(&m, 303), -1);
	assert_int_equal(cgs_pidmap_find(&m, 0), -1);
	assert_int_equal(cgs_pidmap_find(&m, 99999), -1);
	cgs_pidmap_free(&m);
	assert_null(m.e);
}

static void test_empty(void **state)
{
	struct cgs_pidmap m;

	(void)state;
	assert_int_equal(cgs_pidmap_build(&m, NULL, 0), 0);
	assert_int_equal(cgs_pidmap_find(&m, 1), -1);
	cgs_pidmap_free(&m);
}

static void test_many(void **state)
{
	enum { N = 20000 };
	static pid_t pids[N];
	struct cgs_pidmap m;

	(void)state;
	for (int i = 0; i < N; i++)
		pids[i] = (pid_t)(2 + (i * 7919) % 40009);   /* distinct, scattered */
	assert_int_equal(cgs_pidmap_build(&m, pids, N), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(cgs_pidmap_find(&m, pids[i]), i);
	cgs_pidmap_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
