/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_placement.c - the placement orders on synthetic hwloc topologies
 * (pack:2 core:4 pu:2 and pack:2 numa:2 core:8 pu:2), for every policy:
 * which PU each task's place starts at, and the place sizes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "runner/core/topo.h"

/* Build @policy on @syn and compare first PUs and PU counts per place. */
static void check(const char *syn, enum cgs_placement policy,
		  const int *first, unsigned n, int weight)
{
	struct cgs_topo topo;
	struct cgs_places pl;
	int *got;

	assert_int_equal(cgs_topo_load(&topo, syn), 0);
	assert_false(topo.thissystem);     /* binding would be a no-op */
	assert_int_equal(cgs_places_build(&topo, policy, &pl), 0);
	assert_int_equal(pl.n, n);
	got = calloc(n + 1, sizeof(*got));
	cgs_places_first_pus(&pl, got);
	for (unsigned i = 0; i < n; i++) {
		if (got[i] != first[i])
			fail_msg("%s %s: place %u starts at PU %d, expected %d", syn,
				 cgs_placement_names[policy], i, got[i], first[i]);
		assert_int_equal(hwloc_bitmap_weight(pl.set[i]), weight);
	}
	/* task i goes to place i mod n: never silently elsewhere */
	if (n)
		assert_true(hwloc_bitmap_isequal(cgs_place_of(&pl, n + 1), pl.set[1]));
	else
		assert_null(cgs_place_of(&pl, 3));
	free(got);
	cgs_places_free(&pl);
	cgs_topo_free(&topo);
}

#define SMALL "pack:2 core:4 pu:2"
#define NUMA "pack:2 numa:2 core:8 pu:2"

static void t_small_cores(void **state)
{
	const int first[] = { 0, 2, 4, 6, 8, 10, 12, 14 };

	(void)state;
	check(SMALL, CGS_PLACE_CORES, first, 8, 2);   /* whole cores */
}

static void t_small_pus(void **state)
{
	const int first[] = { 0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15 };

	(void)state;
	check(SMALL, CGS_PLACE_PUS, first, 16, 1);
}

static void t_small_spread(void **state)
{
	/* alternate packages: core 0 (pkg 0), core 4 (pkg 1), core 1, ... */
	const int first[] = { 0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15 };

	(void)state;
	check(SMALL, CGS_PLACE_SPREAD, first, 16, 1);
}

static void t_small_none(void **state)
{
	(void)state;
	check(SMALL, CGS_PLACE_NONE, NULL, 0, 0);
}

static void t_numa_cores(void **state)
{
	int first[32];

	(void)state;
	for (int i = 0; i < 32; i++)
		first[i] = 2 * i;
	check(NUMA, CGS_PLACE_CORES, first, 32, 2);
}

static void t_numa_pus(void **state)
{
	int first[64];

	(void)state;
	for (int i = 0; i < 32; i++) {
		first[i] = 2 * i;
		first[32 + i] = 2 * i + 1;
	}
	check(NUMA, CGS_PLACE_PUS, first, 64, 1);
}

static void t_numa_spread(void **state)
{
	/* nodes 0,1 in package 0 (cores 0-7, 8-15), nodes 2,3 in package 1
	 * (cores 16-23, 24-31): pkg0/node0, pkg1/node2, pkg0/node1,
	 * pkg1/node3, then the next core of each, SMT siblings last */
	const int cores[] = { 0, 16, 8, 24, 1, 17, 9, 25, 2, 18, 10, 26, 3, 19, 11, 27,
			      4, 20, 12, 28, 5, 21, 13, 29, 6, 22, 14, 30, 7, 23, 15, 31 };
	int first[64];

	(void)state;
	for (int i = 0; i < 32; i++) {
		first[i] = 2 * cores[i];
		first[32 + i] = 2 * cores[i] + 1;
	}
	check(NUMA, CGS_PLACE_SPREAD, first, 64, 1);
}

static void t_numa_none(void **state)
{
	(void)state;
	check(NUMA, CGS_PLACE_NONE, NULL, 0, 0);
}

static void t_summary(void **state)
{
	struct cgs_topo topo;

	(void)state;
	assert_int_equal(cgs_topo_load(&topo, NUMA), 0);
	assert_int_equal(topo.packages, 2);
	assert_int_equal(topo.numa_nodes, 4);
	assert_int_equal(topo.cores, 32);
	assert_int_equal(topo.pus, 64);
	assert_int_equal(topo.package_cores, 16);
	assert_int_equal(topo.numa_cores, 8);
	cgs_topo_free(&topo);
	assert_int_equal(cgs_topo_load(&topo, "pack:2 nonsense:3"), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_small_cores),
		cmocka_unit_test(t_small_pus),
		cmocka_unit_test(t_small_spread),
		cmocka_unit_test(t_small_none),
		cmocka_unit_test(t_numa_cores),
		cmocka_unit_test(t_numa_pus),
		cmocka_unit_test(t_numa_spread),
		cmocka_unit_test(t_numa_none),
		cmocka_unit_test(t_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
