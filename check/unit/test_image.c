/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_image.c - what the plain image (runner/image/) is given: the CPU
 * mask of each task's place, made from hwloc's places on a described
 * machine of 160 PUs (three longs a mask), the next place for a partner
 * wrapping as cgs_place_of does, none when unbound; the workload's
 * options copied; the groups; and which workloads it can carry (none with
 * a text option, whose value is a pointer into the runner).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "runner/point/task.h"
#include "runner/core/topo.h"

struct two { int64_t a; int b; };

static const struct cgs_workload plain = {
	.name = "plain-test", .opts_size = sizeof(struct two),
};

static void test_masks(void **state)
{
	struct cgs_topo topo;
	struct cgs_places pl;
	struct two o = { 77, 5 };
	struct cgs_point_tasks pt = {
		.w = &plain, .ctx = { .opts = &o, .nr_tasks = 5, .threads = true,
				      .tmpdir = "/dev/shm" },
		.places = &pl, .runner = 4321,
	};
	const struct cgs_group groups[] = { { 0, 2 }, { 2, 3 } };
	struct cgs_shared *sh;

	(void)state;
	assert_int_equal(cgs_topo_load(&topo, "pack:2 core:40 pu:2"), 0);
	assert_int_equal(cgs_places_build(&topo, CGS_PLACE_PUS, &pl), 0);
	sh = cgs_shared_map(&pt, groups, 2);
	assert_non_null(sh);
	/* every PU of the described box; longer where the kernel's mask is */
	assert_true(cgs_sh_image(sh)->mask_words * 8 * sizeof(long) >= 160);
	for (unsigned i = 0; i <= 5; i++) {
		const unsigned long *m = cgs_sh_mask(sh, i);
		hwloc_bitmap_t got = hwloc_bitmap_alloc();

		assert_non_null(m);
		for (unsigned k = 0; k < cgs_sh_image(sh)->mask_words; k++)
			hwloc_bitmap_set_ith_ulong(got, k, m[k]);
		assert_true(hwloc_bitmap_isequal(got, cgs_place_of(&pl, i)));
		hwloc_bitmap_free(got);
	}
	/* the tasks' view of the rest */
	assert_string_equal(cgs_sh_image(sh)->workload, "plain-test");
	assert_string_equal(cgs_sh_image(sh)->tmpdir, "/dev/shm");
	assert_int_equal(cgs_sh_image(sh)->runner, 4321);
	assert_true(cgs_sh_image(sh)->threads);
	assert_memory_equal((char *)sh + cgs_sh_image(sh)->opts_off, &o, sizeof(o));
	assert_int_equal(sh->ngroups, 2);
	assert_int_equal(cgs_sh_groups(sh)[1].first, 2);
	assert_int_equal(cgs_sh_groups(sh)[1].n, 3);
	assert_int_equal(cgs_sh_groups(sh)[0].stat_file, -1);
	assert_int_equal(cgs_sh_info(sh)[4].cpu_start, -1);
	cgs_shared_unmap(sh);
	cgs_places_free(&pl);
	cgs_topo_free(&topo);
}

static void test_unbound(void **state)
{
	struct cgs_topo topo;
	struct cgs_places pl;
	struct cgs_point_tasks pt = { .w = &plain, .ctx = { .nr_tasks = 3 }, .places = &pl };
	struct cgs_shared *sh;

	(void)state;
	assert_int_equal(cgs_topo_load(&topo, "pack:1 core:4 pu:1"), 0);
	assert_int_equal(cgs_places_build(&topo, CGS_PLACE_NONE, &pl), 0);
	sh = cgs_shared_map(&pt, NULL, 0);
	assert_non_null(sh);
	assert_null(cgs_sh_mask(sh, 0));
	assert_int_equal(sh->ngroups, 1);
	assert_int_equal(cgs_sh_groups(sh)[0].n, 3);
	cgs_shared_unmap(sh);
	cgs_places_free(&pl);
	cgs_topo_free(&topo);
}

static void test_carries(void **state)
{
	struct named { char *path; };
	const struct cgs_opt text[] = {
		{ .name = "path", .type = CGS_OPT_STRING, .offset = offsetof(struct named, path),
		  .help = "a path" },
	};
	const struct cgs_workload with_text = {
		.name = "texty", .opts = text, .nopts = 1, .opts_size = sizeof(struct named),
	};
	char why[200] = "";

	(void)state;
	assert_false(cgs_image_carries(&with_text, why, sizeof(why)));
	assert_string_equal(why, "texty's option --path is text, which the plain image is not given");
	/* every workload of ours runs in the image */
	for (size_t i = 0; i < cgs_nworkloads; i++)
		assert_true(cgs_image_carries(cgs_workloads[i], why, sizeof(why)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_unbound),
		cmocka_unit_test(test_carries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
