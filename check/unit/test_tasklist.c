/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tasklist.c - the -t parser: numbers, lists, ranges, percentages of
 * 2, 104 and 256 CPUs (rounded down, at least 1), all, sweep, and the
 * malformed inputs that must be refused with a message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runner/core/tasklist.h"
#include "lib/macros.h"

struct topo_case {
	const char *synthetic;
	struct cgs_topo topo;
};

static int load(void **state, const char *syn)
{
	struct topo_case *c = calloc(1, sizeof(*c));

	c->synthetic = syn;
	if (cgs_topo_load(&c->topo, syn))
		return -1;
	*state = c;
	return 0;
}

static int setup2(void **state) { return load(state, "pack:1 core:2 pu:1"); }
static int setup104(void **state) { return load(state, "pack:2 core:26 pu:2"); }
static int setup256(void **state) { return load(state, "pack:2 core:64 pu:2"); }
static int setup_numa(void **state) { return load(state, "pack:2 numa:2 core:8 pu:2"); }
static int setup_l3(void **state) { return load(state, "pack:2 [numa] l3:2 core:13 pu:2"); }

static int teardown(void **state)
{
	struct topo_case *c = *state;

	cgs_topo_free(&c->topo);
	free(c);
	return 0;
}

/* Parse @s and check the result equals the @n values that follow. */
static void expect(struct cgs_topo *topo, const char *s, unsigned n, ...)
{
	struct cgs_tasklist l;
	char err[256] = "";
	va_list ap;

	assert_int_equal(cgs_tasklist_parse(s, topo, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, n);
	va_start(ap, n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(l.v[i], va_arg(ap, unsigned));
	va_end(ap);
	cgs_tasklist_free(&l);
}

static void refuse(struct cgs_topo *topo, const char *s)
{
	struct cgs_tasklist l;
	char err[256] = "";

	assert_int_equal(cgs_tasklist_parse(s, topo, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-t"));   /* the message names the option */
	assert_int_equal(l.n, 0);
}

static void t_basic(void **state)
{
	struct cgs_topo *t = &((struct topo_case *)*state)->topo;

	expect(t, "1", 1, 1);
	expect(t, "4,2,1,2", 3, 1, 2, 4);     /* sorted, no duplicates */
	expect(t, "1-4", 4, 1, 2, 3, 4);
	expect(t, "2-3,1", 3, 1, 2, 3);
	expect(t, "all", 1, 2);
	expect(t, "1,all", 2, 1, 2);
}

static void t_percent_2(void **state)
{
	struct cgs_topo *t = &((struct topo_case *)*state)->topo;

	assert_int_equal(t->pus, 2);
	expect(t, "50%", 1, 1);
	expect(t, "1%", 1, 1);       /* rounds down to 0, at least 1 */
	expect(t, "100%", 1, 2);
	expect(t, "200%", 1, 4);
	expect(t, "75%", 1, 1);      /* 1.5 rounds down */
}

static void t_percent_104(void **state)
{
	struct cgs_topo *t = &((struct topo_case *)*state)->topo;

	assert_int_equal(t->pus, 104);
	expect(t, "50%", 1, 52);
	expect(t, "33%", 1, 34);     /* 34.32 */
	expect(t, "25%,100%", 2, 26, 104);
	expect(t, "1%", 1, 1);       /* 1.04 */
}

static void t_percent_256(void **state)
{
	struct cgs_topo *t = &((struct topo_case *)*state)->topo;

	assert_int_equal(t->pus, 256);
	expect(t, "50%", 1, 128);
	expect(t, "33%", 1, 84);     /* 84.48 */
	expect(t, "10%", 1, 25);     /* 25.6 */
	expect(t, "all", 1, 256);
}

static void t_sweep_numa(void **state)
{
	struct cgs_topo *t = &((struct topo_case *)*state)->topo;

	/* no caches in this synthetic topology: 1, package, node, cores, PUs */
	expect(t, "sweep", 5, 1, 8, 16, 32, 64);
}

static void t_sweep_l3(void **state)
{
	struct cgs_topo *t = &((struct topo_case *)*state)->topo;
	struct cgs_tasklist l;
	char err[128];

	/* 2 packages x 2 L3 x 13 cores x 2 PUs: LLC 13, package 26 (also
	 * the NUMA node's), cores 52, PUs 104 */
	expect(t, "sweep", 5, 1, 13, 26, 52, 104);
	assert_int_equal(cgs_tasklist_parse("sweep", t, &l, err, sizeof(err)), 0);
	assert_true(l.sweep);
	cgs_tasklist_free(&l);
}

static void t_malformed(void **state)
{
	struct cgs_topo *t = &((struct topo_case *)*state)->topo;
	const char *bad[] = {
		"", "0", "-1", "1-", "-4", "8-1", "abc", "1,,2", "1,", ",1",
		"0%", "1001%", "%", "1.5", "1x", "2 ", " 2", "99999999", "16385",
		"1-16385", "all%", "sweep,", "50%%",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		refuse(t, bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_basic, setup2, teardown),
		cmocka_unit_test_setup_teardown(t_percent_2, setup2, teardown),
		cmocka_unit_test_setup_teardown(t_percent_104, setup104, teardown),
		cmocka_unit_test_setup_teardown(t_percent_256, setup256, teardown),
		cmocka_unit_test_setup_teardown(t_sweep_numa, setup_numa, teardown),
		cmocka_unit_test_setup_teardown(t_sweep_l3, setup_l3, teardown),
		cmocka_unit_test_setup_teardown(t_malformed, setup2, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
