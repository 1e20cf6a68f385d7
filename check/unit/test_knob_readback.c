/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_knob_readback.c - cg_knob_same (cgroup-setup/cg_readback.c): the
 * value a knob reads back against the one written, per family, with
 * what this host's v1 kernel did (memory.limit_in_bytes: 2^64 reads 0,
 * 1000 reads 0, 4097 reads 4096, 2^64-1 and -1 read 9223372036854771712;
 * cpu.shares 1 reads 2) and v2's "max".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cgroup-setup/cg.h"

#define V1_MAX "9223372036854771712"   /* PAGE_COUNTER_MAX * 4096 */

static void same(const char *knob, const char *w, const char *r)
{
	char why[512] = "";

	if (cg_knob_same(knob, w, r, 4096, why, sizeof(why)) != 1)
		fail_msg("%s=%s read as '%s' refused: %s", knob, w, r, why);
}

static void differs(const char *knob, const char *w, const char *r, const char *needle)
{
	char why[512] = "";

	if (cg_knob_same(knob, w, r, 4096, why, sizeof(why)) != 0)
		fail_msg("%s=%s read as '%s' taken", knob, w, r);
	if (!strstr(why, needle))
		fail_msg("%s=%s: '%s' lacks '%s'", knob, w, why, needle);
}

static void t_bytes(void **state)
{
	(void)state;
	same("memory.limit_in_bytes", "1G", "1073741824\n");
	same("memory.limit_in_bytes", "4097", "4096");
	same("memory.limit_in_bytes", "-1", V1_MAX);
	same("memory.limit_in_bytes", "18446744073709551615", V1_MAX);
	same("memory.limit_in_bytes", "0x10000000", "268435456");
	same("memory.limit_in_bytes", "0", "0");
	same("memory.max", "max", "max");
	same("memory.max", "18446744073709551615", "max");
	same("memory.high", "512m", "536870912");
	same("memory.min", "1G", "1073741824");
	differs("memory.limit_in_bytes", "18446744073709551616", "0", "beyond 2^64");
	differs("memory.limit_in_bytes", "1000", "0", "at least 4096");
	differs("memory.limit_in_bytes", "1G", "0", "not 1073741824");
	differs("memory.max", "max", "1073741824", "where no limit was asked for");
	differs("memory.max", "1G", "max", "not 1073741824");
	/* hugetlb rounds to its own page; its "no limit" is the top, rounded */
	same("hugetlb.2MB.limit_in_bytes", "3M", "2097152");
	same("hugetlb.2MB.limit_in_bytes", "-1", "9223372036852678656");
	differs("hugetlb.2MB.limit_in_bytes", "1M", "0", "at least 2097152");
}

static void t_lists_and_words(void **state)
{
	(void)state;
	same("cpuset.cpus", "0,1", "0-1");
	same("cpuset.cpus", "3,0-2,7", "0-3,7");
	same("cpuset.mems", "0", "0\n");
	differs("cpuset.cpus", "0-3", "0-1", "reads it back as '0-1'");
	same("cpu.max", "50000", "50000 100000");
	same("cpu.max", "max 100000", "max 100000\n");
	same("io.max", "8:0 rbps=1000", "8:0 rbps=1000 wbps=max riops=max wiops=max");
	same("cpu.cfs_quota_us", "-1", "-1");
	same("memory.swappiness", "060", "60");
	differs("cpu.shares", "1", "2", "reads it back as '2'");
	differs("cpu.shares", "300000", "262144", "'262144'");
	differs("cpu.max", "50000", "500000 100000", "'500000 100000'");
	differs("memory.oom.group", "1", "0", "'0'");
	differs("pids.max", "max", "10", "'10'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_bytes),
		cmocka_unit_test(t_lists_and_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
