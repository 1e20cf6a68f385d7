/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sampler_cpu.c - where --sampler-cpu puts the sampler, on synthetic
 * hwloc topologies (pack:2 core:4 pu:2, 16 PUs): auto takes the last PU no
 * task is bound to, else leaves it unbound; a number must be a PU the
 * runner may use; anything else is refused with the fix. Inside an
 * allowed set (taskset), auto stays inside and a CPU outside is refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "runner/core/sampler_cpu.h"
#include "runner/run/run.h"

#define SMALL "pack:2 core:4 pu:2"

/* The sampler's CPU for @ntasks tasks placed by @policy on SMALL. */
static int chosen(int asked, enum cgs_placement policy, unsigned ntasks,
		  char *why, size_t len)
{
	struct cgs_topo topo;
	struct cgs_places pl;
	struct cgs_sampler_pin pin;

	assert_int_equal(cgs_topo_load(&topo, SMALL), 0);
	assert_int_equal(cgs_places_build(&topo, policy, &pl), 0);
	cgs_sampler_cpu_choose(asked, &topo, &pl, ntasks, &pin);
	snprintf(why, len, "%s", pin.why);
	assert_int_equal(pin.err, 0);
	cgs_places_free(&pl);
	cgs_topo_free(&topo);
	return pin.cpu;
}

static void t_auto(void **state)
{
	char why[120];

	(void)state;
	/* whole cores: tasks on cores 0-2 = PUs 0-5; last free PU 15 */
	assert_int_equal(chosen(CGS_SCPU_AUTO, CGS_PLACE_CORES, 3, why, sizeof(why)), 15);
	assert_string_equal(why, "the last CPU no task is bound to");
	/* 7 cores taken: the 8th core's PUs are free */
	assert_int_equal(chosen(CGS_SCPU_AUTO, CGS_PLACE_CORES, 7, why, sizeof(why)), 15);
	/* every core taken: nowhere left */
	assert_int_equal(chosen(CGS_SCPU_AUTO, CGS_PLACE_CORES, 8, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "every CPU has a task"));
	/* more tasks than places wrap around: still nowhere */
	assert_int_equal(chosen(CGS_SCPU_AUTO, CGS_PLACE_CORES, 20, why, sizeof(why)), -1);
	/* one PU each, first PUs first: 8 tasks leave the SMT siblings */
	assert_int_equal(chosen(CGS_SCPU_AUTO, CGS_PLACE_PUS, 8, why, sizeof(why)), 15);
	/* 15 of 16 PUs: the one left is the second PU of the last core */
	assert_int_equal(chosen(CGS_SCPU_AUTO, CGS_PLACE_PUS, 15, why, sizeof(why)), 15);
	assert_int_equal(chosen(CGS_SCPU_AUTO, CGS_PLACE_PUS, 16, why, sizeof(why)), -1);
	/* unbound tasks: an unbound sampler */
	assert_int_equal(chosen(CGS_SCPU_AUTO, CGS_PLACE_NONE, 1, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "--placement none"));
}

static void t_asked(void **state)
{
	char why[120];

	(void)state;
	assert_int_equal(chosen(3, CGS_PLACE_CORES, 8, why, sizeof(why)), 3);
	assert_string_equal(why, "--sampler-cpu");
	assert_int_equal(chosen(CGS_SCPU_NONE, CGS_PLACE_CORES, 1, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "none"));
}

/* The run table's row parses --sampler-cpu (a CPU, auto or none) once;
 * whether the CPU exists is checked when the topology is known. */
static int set_cpu(struct cgs_run_opts *o, const char *val, char *err, size_t len)
{
	for (size_t i = 0; i < cgs_run_noptdefs; i++)
		if (!strcmp(cgs_run_optdefs[i].name, "sampler-cpu"))
			return cgs_opt_set(&cgs_run_optdefs[i], o, val, err, len);
	fail_msg("no --sampler-cpu row");
	return -ENOENT;
}

static void t_parse(void **state)
{
	struct cgs_run_opts o = { .sampler_cpu = 12345 };
	struct cgs_topo topo;
	char err[256];

	(void)state;
	assert_int_equal(cgs_topo_load(&topo, SMALL), 0);
	assert_int_equal(set_cpu(&o, "auto", err, sizeof(err)), 0);
	assert_int_equal(o.sampler_cpu, CGS_SCPU_AUTO);
	assert_int_equal(cgs_sampler_cpu_check(o.sampler_cpu, &topo, err, sizeof(err)), 0);
	assert_int_equal(set_cpu(&o, "none", err, sizeof(err)), 0);
	assert_int_equal(o.sampler_cpu, CGS_SCPU_NONE);
	assert_int_equal(cgs_sampler_cpu_check(o.sampler_cpu, &topo, err, sizeof(err)), 0);
	assert_int_equal(set_cpu(&o, "15", err, sizeof(err)), 0);
	assert_int_equal(o.sampler_cpu, 15);
	assert_int_equal(cgs_sampler_cpu_check(o.sampler_cpu, &topo, err, sizeof(err)), 0);
	assert_int_equal(set_cpu(&o, "16", err, sizeof(err)), 0);
	assert_int_equal(cgs_sampler_cpu_check(o.sampler_cpu, &topo, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--sampler-cpu 16 is not a CPU the runner may use (those are 0-15)"));
	assert_int_equal(set_cpu(&o, "1x", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--sampler-cpu '1x' is not a CPU number, auto or none");
	assert_int_equal(set_cpu(&o, "-1", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--sampler-cpu '-1' is not a CPU number, auto or none");
	assert_int_equal(set_cpu(&o, "", err, sizeof(err)), -EINVAL);
	assert_int_equal(o.sampler_cpu, 16);               /* refused: unchanged */
	cgs_topo_free(&topo);
}

/* taskset -c 2-5 on SMALL: cores 1 and 2 whole. */
static void t_allowed(void **state)
{
	hwloc_bitmap_t a = hwloc_bitmap_alloc();
	struct cgs_sampler_pin pin;
	struct cgs_topo topo;
	struct cgs_places pl;
	char err[256];

	(void)state;
	assert_int_equal(cgs_topo_load(&topo, SMALL), 0);
	hwloc_bitmap_list_sscanf(a, "2-5");
	assert_int_equal(cgs_topo_limit(&topo, NULL, a), 0);
	assert_int_equal(cgs_places_build(&topo, CGS_PLACE_PUS, &pl), 0);
	/* one task on PU 2: the last free one allowed is 5, not 15 */
	cgs_sampler_cpu_choose(CGS_SCPU_AUTO, &topo, &pl, 1, &pin);
	assert_int_equal(pin.cpu, 5);
	cgs_sampler_cpu_choose(CGS_SCPU_AUTO, &topo, &pl, 4, &pin);
	assert_int_equal(pin.cpu, -1);
	assert_int_equal(cgs_sampler_cpu_check(4, &topo, err, sizeof(err)), 0);
	assert_int_equal(cgs_sampler_cpu_check(15, &topo, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--sampler-cpu 15 is not a CPU the runner may use (those are 2-5, by the affinity mask)"));
	cgs_places_free(&pl);
	cgs_topo_free(&topo);
	hwloc_bitmap_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_auto),
		cmocka_unit_test(t_asked),
		cmocka_unit_test(t_parse),
		cmocka_unit_test(t_allowed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
