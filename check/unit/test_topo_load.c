/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_topo_load.c - cgs_topo_load_tries (runner/core/topo.c): a load of
 * this system that found no cache (hwloc's CPUID discovery failing in a
 * guest whose vCPUs move between host CPUs) is tried again, at most the
 * tries given, and topo->loads counts them; a description is never tried
 * again, and a load that fails ends it with its error. The loads here are
 * synthetic descriptions standing in for the machine's, in turn.
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

#define NOCACHE "pack:1 core:2 pu:1"
#define CACHED  "pack:1 l3:1 core:2 pu:1"

struct seq {
	const char *const *descs;
	unsigned next;
	bool machine;   /* pretend each load is of this system */
};

static int load_next(struct cgs_topo *topo, void *arg)
{
	struct seq *s = arg;
	int rc = cgs_topo_load_from(topo, s->descs[s->next++], NULL);

	if (!rc)
		topo->thissystem = s->machine;
	return rc;
}

static void t_again_until_cached(void **state)
{
	static const char *const d[] = { NOCACHE, CACHED, NOCACHE };
	struct seq s = { d, 0, true };
	struct cgs_topo topo;

	(void)state;
	assert_int_equal(cgs_topo_load_tries(&topo, load_next, &s, 3, 0), 0);
	assert_int_equal(s.next, 2);
	assert_int_equal(topo.loads, 2);
	assert_int_equal(topo.llcs, 1);
	assert_int_equal(topo.llc_cores, 2);
	cgs_topo_free(&topo);
}

static void t_at_most_tries(void **state)
{
	static const char *const d[] = { NOCACHE, NOCACHE, NOCACHE, CACHED };
	struct seq s = { d, 0, true };
	struct cgs_topo topo;

	(void)state;
	assert_int_equal(cgs_topo_load_tries(&topo, load_next, &s, 3, 0), 0);
	assert_int_equal(s.next, 3);
	assert_int_equal(topo.loads, 3);
	assert_int_equal(topo.llcs, 0);
	assert_int_equal(topo.pus, 2);
	cgs_topo_free(&topo);
}

static void t_cached_once(void **state)
{
	static const char *const d[] = { CACHED, NOCACHE };
	struct seq s = { d, 0, true };
	struct cgs_topo topo;

	(void)state;
	assert_int_equal(cgs_topo_load_tries(&topo, load_next, &s, 3, 0), 0);
	assert_int_equal(topo.loads, 1);
	assert_int_equal(topo.llcs, 1);
	cgs_topo_free(&topo);
}

/* a description (not this system) is what it says: no cache, one load */
static void t_description_once(void **state)
{
	static const char *const d[] = { NOCACHE, CACHED };
	struct seq s = { d, 0, false };
	struct cgs_topo topo;

	(void)state;
	assert_int_equal(cgs_topo_load_tries(&topo, load_next, &s, 3, 0), 0);
	assert_int_equal(s.next, 1);
	assert_int_equal(topo.loads, 1);
	assert_int_equal(topo.llcs, 0);
	cgs_topo_free(&topo);
	assert_int_equal(cgs_topo_load(&topo, NOCACHE), 0);
	assert_int_equal(topo.loads, 1);
	cgs_topo_free(&topo);
}

/* a failed load ends the tries with its error, and nothing is held */
static void t_error_ends(void **state)
{
	static const char *const d[] = { NOCACHE, "pack:2 nonsense:3", CACHED };
	struct seq s = { d, 0, true };
	struct cgs_topo topo;

	(void)state;
	assert_int_equal(cgs_topo_load_tries(&topo, load_next, &s, 3, 0), -EINVAL);
	assert_int_equal(s.next, 2);
	assert_null(topo.t);
	cgs_topo_free(&topo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_again_until_cached),
		cmocka_unit_test(t_at_most_tries),
		cmocka_unit_test(t_cached_once),
		cmocka_unit_test(t_description_once),
		cmocka_unit_test(t_error_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
