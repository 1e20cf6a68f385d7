/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_placement.c - the placement orders on synthetic hwloc topologies
 * (pack:2 core:4 pu:2 and pack:2 numa:2 core:8 pu:2), for every policy:
 * which PU each task's place starts at, and the place sizes; and the
 * same inside an allowed set (an affinity mask, a cpuset, both), where
 * every place stays inside it and spread that cannot spread is refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* @syn narrowed to @cpuset and @affinity (lists; NULL: none): @policy's
 * @total places (@n if 0) start at first[0..n), each of @weight PUs, all
 * inside. */
static void check_in_of(const char *syn, const char *cpuset, const char *affinity,
			enum cgs_placement policy, const int *first, unsigned n,
			unsigned total, int weight)
{
	hwloc_bitmap_t cs = hwloc_bitmap_alloc(), af = hwloc_bitmap_alloc();
	struct cgs_topo topo;
	struct cgs_places pl;
	int got[64];

	assert_int_equal(cgs_topo_load(&topo, syn), 0);
	assert_int_equal(hwloc_bitmap_list_sscanf(cs, cpuset ? cpuset : "0-63"), 0);
	assert_int_equal(hwloc_bitmap_list_sscanf(af, affinity ? affinity : "0-63"), 0);
	assert_int_equal(cgs_topo_limit(&topo, cpuset ? cs : NULL, affinity ? af : NULL), 0);
	assert_int_equal(cgs_places_build(&topo, policy, &pl), 0);
	assert_int_equal(pl.n, total ? total : n);
	cgs_places_first_pus(&pl, got);
	for (unsigned i = 0; i < pl.n; i++) {
		if (i < n && got[i] != first[i])
			fail_msg("%s in %s/%s %s: place %u starts at PU %d, expected %d", syn,
				 cpuset, affinity, cgs_placement_names[policy], i, got[i], first[i]);
		assert_int_equal(hwloc_bitmap_weight(pl.set[i]), weight);
		assert_true(hwloc_bitmap_isincluded(pl.set[i], cs));
		assert_true(hwloc_bitmap_isincluded(pl.set[i], af));
	}
	cgs_places_free(&pl);
	cgs_topo_free(&topo);
	hwloc_bitmap_free(cs);
	hwloc_bitmap_free(af);
}
#define check_in(syn, cs, af, policy, first, n, weight) \
	check_in_of(syn, cs, af, policy, first, n, 0, weight)

static void t_allowed_affinity(void **state)
{
	/* taskset -c 8-15 on SMALL: package 1's cores 4-7 */
	const int cores[] = { 8, 10, 12, 14 }, pus[] = { 8, 10, 12, 14, 9, 11, 13, 15 };
	/* taskset -c 1: one PU, the second of core 0 */
	const int one[] = { 1 };
	/* taskset -c 3,5-6: core 1 in part, core 2 in part, core 3 whole */
	const int mixed[] = { 3, 5, 6 };

	(void)state;
	check_in(SMALL, NULL, "8-15", CGS_PLACE_CORES, cores, 4, 2);
	check_in(SMALL, NULL, "8-15", CGS_PLACE_PUS, pus, 8, 1);
	check_in(SMALL, NULL, "1", CGS_PLACE_CORES, one, 1, 1);
	check_in(SMALL, NULL, "1", CGS_PLACE_PUS, one, 1, 1);
	check_in(SMALL, NULL, "3,5-6", CGS_PLACE_PUS, mixed, 3, 1);
	check_in(NUMA, NULL, "1", CGS_PLACE_SPREAD, one, 1, 1);
}

static void t_allowed_cpuset(void **state)
{
	/* a cpuset of package 0 (PUs 0-7) and a mask of 4-11: 4-7 left */
	const int cores[] = { 4, 6 }, spread[] = { 4, 6, 5, 7 };
	/* a cpuset of node 0 and node 2 (PUs 0-15, 32-47): spread goes on
	 * alternating packages */
	const int two[] = { 0, 32, 2, 34 };

	(void)state;
	check_in(SMALL, "0-7", "4-11", CGS_PLACE_CORES, cores, 2, 2);
	check_in(SMALL, "0-7", "4-11", CGS_PLACE_SPREAD, spread, 4, 1);
	check_in_of(NUMA, "0-15,32-47", NULL, CGS_PLACE_SPREAD, two, 4, 32, 1);
}

/* What narrowed the set, the counts, the cut cores, and spread refused
 * where the allowed CPUs lie in one package and node of several. */
static void t_allowed_record(void **state)
{
	hwloc_bitmap_t a = hwloc_bitmap_alloc(), c = hwloc_bitmap_alloc();
	struct cgs_topo topo;
	char err[512] = "", s[128];

	(void)state;
	hwloc_bitmap_list_sscanf(a, "1,4-7");
	hwloc_bitmap_list_sscanf(c, "0-7");
	assert_int_equal(cgs_topo_load(&topo, SMALL), 0);
	assert_int_equal(cgs_topo_limit(&topo, c, a), 0);
	assert_int_equal(topo.allowed_by, CGS_ALLOWED_CPUSET | CGS_ALLOWED_AFFINITY);
	assert_int_equal(topo.pus, 5);
	assert_int_equal(topo.cores, 3);
	assert_int_equal(topo.packages, 1);
	assert_int_equal(topo.cut_cores, 1);           /* core 0: PU 1 only */
	cgs_topo_allowed_str(&topo, s, sizeof(s));
	assert_string_equal(s, "1,4-7, by the affinity mask and the cpuset");
	assert_int_equal(cgs_placement_check(&topo, CGS_PLACE_CORES, err, sizeof(err)), 0);
	assert_int_equal(cgs_placement_check(&topo, CGS_PLACE_SPREAD, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--placement spread: the CPUs this run may use, 1,4-7, by the affinity mask and the cpuset, lie in one package"));
	cgs_topo_free(&topo);
	/* a mask of all CPUs narrows nothing; none left is an error */
	assert_int_equal(cgs_topo_load(&topo, SMALL), 0);
	hwloc_bitmap_fill(a);
	assert_int_equal(cgs_topo_limit(&topo, NULL, a), 0);
	assert_int_equal(topo.allowed_by, 0);
	assert_int_equal(topo.pus, 16);
	assert_int_equal(cgs_placement_check(&topo, CGS_PLACE_SPREAD, err, sizeof(err)), 0);
	hwloc_bitmap_only(a, 99);
	assert_int_equal(cgs_topo_limit(&topo, NULL, a), -ENODEV);
	cgs_topo_free(&topo);
	/* spread over the two packages of the mask: allowed */
	assert_int_equal(cgs_topo_load(&topo, SMALL), 0);
	hwloc_bitmap_list_sscanf(a, "6-9");
	assert_int_equal(cgs_topo_limit(&topo, NULL, a), 0);
	assert_int_equal(topo.allowed_by, CGS_ALLOWED_AFFINITY);
	assert_int_equal(cgs_placement_check(&topo, CGS_PLACE_SPREAD, err, sizeof(err)), 0);
	cgs_topo_free(&topo);
	hwloc_bitmap_free(a);
	hwloc_bitmap_free(c);
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
		cmocka_unit_test(t_allowed_affinity),
		cmocka_unit_test(t_allowed_cpuset),
		cmocka_unit_test(t_allowed_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
