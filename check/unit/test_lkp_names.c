/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lkp_names.c - the LKP stat names of results/compare/lkp_names.c:
 * per_task_ops becomes will-it-scale's per_process_ops/per_thread_ops, a
 * file with both modes names the rest per mode (scalability stays one
 * key), and a profile key carries the event sampled, made one word of
 * LKP's names whatever a result file says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "results/compare/lkp_names.h"

static void key_is(const char *name, const char *mode, bool both, const char *want)
{
	char buf[256];

	cmp_lkp_key(name, mode, both, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_keys(void **state)
{
	(void)state;
	key_is("per_task_ops", "process", false, "per_process_ops");
	key_is("per_task_ops", "thread", true, "per_thread_ops");
	/* LKP's scalability is process mode's: thread mode's apart */
	key_is("scalability", "thread", true, "thread.scalability");
	key_is("scalability", "thread", false, "scalability");
	key_is("scalability", "process", true, "scalability");
	key_is("min_task_ops", "process", false, "min_task_ops");
	key_is("min_task_ops", "process", true, "process.min_task_ops");
	key_is("memory.stat.pgfault", "thread", true, "thread.memory.stat.pgfault");
	key_is("Throughput_Mbps", "process", false, "Throughput_Mbps");
}

static void test_profile_keys(void **state)
{
	struct json_object *p = json_object_new_object();
	char buf[128];

	(void)state;
	cmp_lkp_profile_key("self", "cycles:pp", "do_fault", buf, sizeof(buf));
	assert_string_equal(buf, "perf-profile.self.cycles-pp.do_fault");
	cmp_lkp_profile_key("children", "cpu-clock", "f", buf, sizeof(buf));
	assert_string_equal(buf, "perf-profile.children.cpu-clock.f");
	/* a result file is input: no dot, blank or control character */
	cmp_lkp_profile_key("self", "a.b c\n", "f", buf, sizeof(buf));
	assert_string_equal(buf, "perf-profile.self.a_b_c_.f");
	/* too small a buffer: cut, still a string */
	cmp_lkp_profile_key("self", "cpu-clock", "symbol", buf, 20);
	assert_int_equal(strlen(buf), 19);
	assert_string_equal(cmp_lkp_profile_event(NULL), "cpu-clock");
	json_object_object_add(p, "event", json_object_new_string("cycles"));
	assert_string_equal(cmp_lkp_profile_event(p), "cycles");
	json_object_object_add(p, "event", json_object_new_int(3));
	assert_string_equal(cmp_lkp_profile_event(p), "cpu-clock");
	json_object_put(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_profile_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
