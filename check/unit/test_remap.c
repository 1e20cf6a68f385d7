/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_remap.c - the remap workload's pieces: the four pass orders, and
 * the verification after real remap_file_pages passes, which must catch
 * a page corrupted on purpose (and name it).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/remap.h"

static void test_orders(void **state)
{
	uint16_t o[REMAP_PAGES], o2[REMAP_PAGES];
	unsigned seen[REMAP_PAGES] = { 0 };
	uint32_t rng = 12345;

	(void)state;
	remap_order(REMAP_REVERSE, o, REMAP_PAGES, &rng);
	assert_int_equal(o[0], REMAP_PAGES - 1);
	assert_int_equal(o[REMAP_PAGES - 1], 0);
	remap_order(REMAP_ALL_TO_1, o, REMAP_PAGES, &rng);
	for (size_t i = 0; i < REMAP_PAGES; i++)
		assert_int_equal(o[i], 0);
	remap_order(REMAP_FORWARD, o, REMAP_PAGES, &rng);
	for (size_t i = 0; i < REMAP_PAGES; i++)
		assert_int_equal(o[i], i);
	/* random: a permutation, and a new one each pass */
	remap_order(REMAP_RANDOM, o, REMAP_PAGES, &rng);
	for (size_t i = 0; i < REMAP_PAGES; i++)
		seen[o[i]]++;
	for (size_t i = 0; i < REMAP_PAGES; i++)
		assert_int_equal(seen[i], 1);
	remap_order(REMAP_RANDOM, o2, REMAP_PAGES, &rng);
	assert_memory_not_equal(o, o2, sizeof(o));
	assert_string_equal(remap_pass_names[REMAP_ALL_TO_1], "all-to-1");
}

/* 512 shared pages, tagged, as the workload maps them with --remap-backing anon */
static char *map_tagged(size_t pg)
{
	char *base = mmap(NULL, REMAP_PAGES * pg, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	assert_true(base != MAP_FAILED);
	remap_tag(base, pg, REMAP_PAGES);
	return base;
}

static void run_pass(char *base, size_t pg, const uint16_t *order)
{
	for (size_t i = 0; i < REMAP_PAGES; i++) {
		const char *call = "";
		int rc = remap_page(base + i * pg, pg, order[i], &call);

		if (rc == -ENOSYS)
			skip();   /* a kernel without remap_file_pages */
		if (rc)
			fail_msg("%s of page %zu: %s", call, i, strerror(-rc));
	}
}

static void test_verify_catches_corruption(void **state)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), bad = 0;
	char *base = map_tagged(pg);
	uint16_t order[REMAP_PAGES], got = 0;
	uint32_t rng = 99;

	(void)state;
	remap_order(REMAP_FORWARD, order, REMAP_PAGES, &rng);
	assert_int_equal(remap_verify(base, pg, order, REMAP_PAGES, &bad, &got), 0);
	/* every pass of a bogo-op keeps the data where its order says */
	for (int p = 0; p < REMAP_NPASSES; p++) {
		remap_order(p, order, REMAP_PAGES, &rng);
		run_pass(base, pg, order);
		assert_int_equal(remap_verify(base, pg, order, REMAP_PAGES, &bad, &got), 0);
	}
	/* reverse: page 100 shows file page 411; spoil that page's tag */
	remap_order(REMAP_REVERSE, order, REMAP_PAGES, &rng);
	run_pass(base, pg, order);
	assert_int_equal(remap_verify(base, pg, order, REMAP_PAGES, &bad, &got), 0);
	*(volatile uint16_t *)(base + 100 * pg) = 7;
	assert_int_equal(remap_verify(base, pg, order, REMAP_PAGES, &bad, &got), -EIO);
	assert_int_equal(bad, 100);
	assert_int_equal(got, 7);
	/* the order is the reference: a right page under a wrong order fails */
	*(volatile uint16_t *)(base + 100 * pg) = 411;
	assert_int_equal(remap_verify(base, pg, order, REMAP_PAGES, &bad, &got), 0);
	order[5] = 6;
	assert_int_equal(remap_verify(base, pg, order, REMAP_PAGES, &bad, &got), -EIO);
	assert_int_equal(bad, 5);
	assert_int_equal(got, REMAP_PAGES - 1 - 5);
	munmap(base, REMAP_PAGES * pg);
}

/* remap_file_pages refuses a private mapping: the error names the call */
static void test_remap_private_fails(void **state)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *call = "";
	int rc;

	(void)state;
	assert_true(p != MAP_FAILED);
	rc = remap_page(p, pg, 1, &call);
	if (rc == -ENOSYS)
		skip();
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(call, "remap_file_pages");
	munmap(p, 2 * pg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_verify_catches_corruption),
		cmocka_unit_test(test_remap_private_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
