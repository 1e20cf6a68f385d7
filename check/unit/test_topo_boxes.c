/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_topo_boxes.c - placement orders and the `sweep` ladder on described
 * boxes, loaded as --topology would load them: a 2-socket SMT box with
 * Intel numbering (core k = PUs k and k+8), 8 NUMA nodes in 2 packages,
 * one big LLC, and an asymmetric box (package 1 lost two cores) written
 * to lstopo XML and read back. Expectations are worked out by hand in the
 * comments. Also: the same box inside an allowed set (what taskset or a
 * cpuset leaves), where the places, the ladder, all and 50% count only
 * its CPUs; --topology's errors, and the refusal to run real tasks on a
 * topology that is not this machine's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/core/tasklist.h"
#include "runner/core/topo_desc.h"

static void load(struct cgs_topo *t, const char *desc)
{
	char err[512] = "";

	if (cgs_topo_load_desc(t, desc, err, sizeof(err)))
		fail_msg("%s: %s", desc, err);
	assert_false(t->thissystem);
}

/* Places of @policy start at first[0..n) (n == all places). */
static void places(struct cgs_topo *t, enum cgs_placement policy,
		   const int *first, unsigned n)
{
	struct cgs_places pl;
	int got[256];

	assert_int_equal(cgs_places_build(t, policy, &pl), 0);
	assert_int_equal(pl.n, n);
	cgs_places_first_pus(&pl, got);
	for (unsigned i = 0; i < n; i++)
		if (got[i] != first[i])
			fail_msg("%s: place %u starts at PU %d, expected %d",
				 cgs_placement_names[policy], i, got[i], first[i]);
	cgs_places_free(&pl);
}

static void ladder(struct cgs_topo *t, unsigned n, const unsigned *want)
{
	struct cgs_tasklist l;
	char err[256] = "";

	assert_int_equal(cgs_tasklist_parse("sweep", t, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(l.v[i], want[i]);
	cgs_tasklist_free(&l);
}

/* 2 packages x 4 cores x 2 PUs, Intel numbering: core k = PUs k, k+8. */
static void t_smt_intel(void **state)
{
	struct cgs_topo t;
	/* cores: place i is core i, first PU i */
	const int cores[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	/* pus: first PU of every core, then the SMT siblings */
	const int pus[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	/* spread: packages alternate (cores 0-3 and 4-7), siblings last */
	const int spread[] = { 0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15 };
	/* 1, a package's (= the NUMA node's) 4 cores, all 8 cores, 16 PUs */
	const unsigned sweep[] = { 1, 4, 8, 16 };

	(void)state;
	load(&t, "pack:2 [numa] core:4 pu:2(indexes=2*8:1*2)");
	assert_int_equal(t.pus, 16);
	places(&t, CGS_PLACE_CORES, cores, 8);
	places(&t, CGS_PLACE_PUS, pus, 16);
	places(&t, CGS_PLACE_SPREAD, spread, 16);
	ladder(&t, 4, sweep);
	cgs_topo_free(&t);
}

/* 2 packages x 4 NUMA nodes x 4 cores, no SMT: 32 cores. */
static void t_eight_numa(void **state)
{
	struct cgs_topo t;
	/* spread: package 0 node 0 (core 0), package 1 node 4 (core 16),
	 * then node 1 (core 4) and node 5 (core 20), ... then the second
	 * core of each node */
	const int spread[] = { 0, 16, 4, 20, 8, 24, 12, 28, 1, 17, 5, 21, 9, 25, 13, 29,
			       2, 18, 6, 22, 10, 26, 14, 30, 3, 19, 7, 23, 11, 27, 15, 31 };
	int cores[32];
	/* 1, one node's 4 cores, one package's 16, all 32 */
	const unsigned sweep[] = { 1, 4, 16, 32 };

	(void)state;
	for (int i = 0; i < 32; i++)
		cores[i] = i;
	load(&t, "pack:2 numa:4 core:4 pu:1");
	assert_int_equal(t.numa_nodes, 8);
	places(&t, CGS_PLACE_CORES, cores, 32);
	places(&t, CGS_PLACE_PUS, cores, 32);
	places(&t, CGS_PLACE_SPREAD, spread, 32);
	ladder(&t, 4, sweep);
	cgs_topo_free(&t);
}

/* One package, one L3 over 64 cores x 2 PUs. */
static void t_one_llc(void **state)
{
	struct cgs_topo t;
	int cores[64], pus[128];
	/* every domain is the whole box: 1, 64 cores, 128 PUs */
	const unsigned sweep[] = { 1, 64, 128 };

	(void)state;
	for (int i = 0; i < 64; i++) {
		cores[i] = 2 * i;
		pus[i] = 2 * i;
		pus[64 + i] = 2 * i + 1;
	}
	load(&t, "pack:1 l3:1 core:64 pu:2");
	assert_int_equal(t.llcs, 1);
	assert_int_equal(t.llc_cores, 64);
	places(&t, CGS_PLACE_CORES, cores, 64);
	places(&t, CGS_PLACE_PUS, pus, 128);
	places(&t, CGS_PLACE_SPREAD, pus, 128);   /* one package: as pus */
	ladder(&t, 3, sweep);
	cgs_topo_free(&t);
}

/* pack:2 core:4 pu:2 without PUs 12-15: package 1 keeps cores of PUs
 * 8-9 and 10-11. Written as XML, read back through --topology. */
static void t_asymmetric_xml(void **state)
{
	struct cgs_topo t, full;
	hwloc_bitmap_t keep = hwloc_bitmap_alloc();
	char path[] = "/tmp/cgscale-unit-XXXXXX.xml";
	int fd = mkstemps(path, 4);
	const int cores[] = { 0, 2, 4, 6, 8, 10 };
	/* spread: package 0 and 1 alternate while both have cores */
	const int spread[] = { 0, 8, 2, 10, 4, 6, 1, 9, 3, 11, 5, 7 };
	const int pus[] = { 0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11 };
	/* 1, the first package's 4 cores, all 6 cores, 12 PUs */
	const unsigned sweep[] = { 1, 4, 6, 12 };

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(cgs_topo_load(&full, "pack:2 core:4 pu:2"), 0);
	hwloc_bitmap_set_range(keep, 0, 11);
	assert_int_equal(hwloc_topology_restrict(full.t, keep, 0), 0);
	assert_int_equal(hwloc_topology_export_xml(full.t, path, 0), 0);
	cgs_topo_free(&full);
	hwloc_bitmap_free(keep);
	load(&t, path);
	unlink(path);
	assert_int_equal(t.packages, 2);
	assert_int_equal(t.cores, 6);
	assert_int_equal(t.pus, 12);
	places(&t, CGS_PLACE_CORES, cores, 6);
	places(&t, CGS_PLACE_PUS, pus, 12);
	places(&t, CGS_PLACE_SPREAD, spread, 12);
	ladder(&t, 4, sweep);
	cgs_topo_free(&t);
}

/* @t narrowed to the affinity mask @list. */
static void limit(struct cgs_topo *t, const char *list)
{
	hwloc_bitmap_t a = hwloc_bitmap_alloc();

	assert_int_equal(hwloc_bitmap_list_sscanf(a, list), 0);
	assert_int_equal(cgs_topo_limit(t, NULL, a), 0);
	hwloc_bitmap_free(a);
}

static unsigned tasks_of(const struct cgs_topo *t, const char *arg)
{
	struct cgs_tasklist l;
	char err[256] = "";
	unsigned n;

	assert_int_equal(cgs_tasklist_parse(arg, t, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	n = l.v[0];
	cgs_tasklist_free(&l);
	return n;
}

/* The Intel-numbered SMT box inside taskset masks. */
static void t_allowed_smt(void **state)
{
	struct cgs_topo t;
	/* package 1 whole (cores 4-7 = PUs 4-7 and 12-15) */
	const int cores[] = { 4, 5, 6, 7 }, pus[] = { 4, 5, 6, 7, 12, 13, 14, 15 };
	const unsigned sweep[] = { 1, 4, 8 };
	/* the first PU of package 0's cores: every core cut */
	const int firsts[] = { 0, 1, 2, 3 };
	const unsigned sweep_cut[] = { 1, 4 };

	(void)state;
	load(&t, "pack:2 [numa] core:4 pu:2(indexes=2*8:1*2)");
	limit(&t, "4-7,12-15");
	assert_int_equal(t.allowed_by, CGS_ALLOWED_AFFINITY);
	assert_int_equal(t.machine_pus, 16);
	assert_int_equal(t.pus, 8);
	assert_int_equal(t.cut_cores, 0);
	places(&t, CGS_PLACE_CORES, cores, 4);
	places(&t, CGS_PLACE_PUS, pus, 8);
	places(&t, CGS_PLACE_SPREAD, pus, 8);
	ladder(&t, 3, sweep);
	assert_int_equal(tasks_of(&t, "all"), 8);
	assert_int_equal(tasks_of(&t, "50%"), 4);
	cgs_topo_free(&t);

	load(&t, "pack:2 [numa] core:4 pu:2(indexes=2*8:1*2)");
	limit(&t, "0-3");
	assert_int_equal(t.cut_cores, 4);
	assert_int_equal(t.cores, 4);
	places(&t, CGS_PLACE_CORES, firsts, 4);   /* a cut core: its allowed PU */
	places(&t, CGS_PLACE_PUS, firsts, 4);
	ladder(&t, 2, sweep_cut);
	assert_int_equal(tasks_of(&t, "all"), 4);
	assert_int_equal(tasks_of(&t, "1000%"), 40);
	cgs_topo_free(&t);
}

static void t_desc_errors(void **state)
{
	struct cgs_topo t;
	char err[512] = "";

	(void)state;
	assert_int_equal(cgs_topo_load_desc(&t, "pack:2 cores:x", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not an hwloc synthetic description"));
	assert_int_equal(cgs_topo_load_desc(&t, "/no/such/box.xml", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "lstopo --of xml"));
	assert_int_equal(cgs_topo_load_desc(&t, "", err, sizeof(err)), -EINVAL);
	assert_int_equal(cgs_topo_load_desc(&t, "/etc/hostname", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cannot read it as topology XML"));
}

static void t_refuse_real(void **state)
{
	struct cgs_topo t;
	char err[512] = "";

	(void)state;
	load(&t, "pack:2 core:2 pu:1");
	assert_int_equal(cgs_topo_check_real(&t, "pack:2 core:2 pu:1", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--dry-run"));
	assert_int_equal(cgs_topo_check_real(&t, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "HWLOC_SYNTHETIC"));
	cgs_topo_free(&t);
	/* this machine's own topology runs (unless the environment fakes one) */
	if (!getenv("HWLOC_SYNTHETIC") && !getenv("HWLOC_XMLFILE")) {
		assert_int_equal(cgs_topo_load_desc(&t, NULL, err, sizeof(err)), 0);
		assert_int_equal(cgs_topo_check_real(&t, NULL, err, sizeof(err)), 0);
		cgs_topo_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_smt_intel),
		cmocka_unit_test(t_eight_numa),
		cmocka_unit_test(t_one_llc),
		cmocka_unit_test(t_asymmetric_xml),
		cmocka_unit_test(t_allowed_smt),
		cmocka_unit_test(t_desc_errors),
		cmocka_unit_test(t_refuse_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
