/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lock_rows.c - what `--trace locks` gives past the run: compare's
 * lock_wait.NAME family of metrics (one metric per lock the inputs name,
 * read by key), and the lines under a row of run's table (also
 * --profile-scope's), <not supported> too. test_locks.c checks the
 * naming, decoding and counting.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>


#include "results/compare/model.h"
#include "runner/observe/observer.h"
#include "runner/observe/trace/trace.h"
#include "runner/observe/trace/trace_locks.h"

/* lock_wait.NAME: one metric per lock the inputs name, read by key. */
static void t_family(void **state)
{
	struct res_point p = { 0 }, q = { 0 };
	struct cmp_mset ms;
	int a, b, c, fam;

	(void)state;
	p.extra = json_tokener_parse("{\"trace\": {\"locks\": {\"tasks\": {\"wait_ns_per_op\": 7},"
				     " \"wait_ns_per_op_by_lock\": {\"a.isra.0\": 5, \"b\": 2}}}}");
	q.extra = json_tokener_parse("{\"trace\": {\"locks\": {\"wait_ns_per_op_by_lock\":"
				     " {\"b\": 3, \"c/d\": 1}}}}");
	assert_non_null(p.extra);
	assert_non_null(q.extra);
	cmp_mset_init(&ms);
	fam = cmp_mset_find(&ms, "lock_wait.NAME");
	assert_true(fam >= 0);
	assert_true(cmp_family_prefix("lock_wait.NAME") == strlen("lock_wait."));
	assert_true(cmp_family_prefix("lock_wait_ns_per_op") == 0);
	assert_int_equal(cmp_mset_add_point(&ms, &p), 0);
	assert_int_equal(cmp_mset_add_point(&ms, &q), 0);
	assert_int_equal(cmp_mset_add_point(&ms, &p), 0);     /* each key once */
	a = cmp_mset_find(&ms, "lock_wait.a.isra.0");
	b = cmp_mset_find(&ms, "lock_wait.b");
	c = cmp_mset_find(&ms, "lock_wait.c/d");
	assert_true(a == fam + 1 && b == fam + 2 && c == fam + 3);
	assert_string_equal(ms.m[a].unit, "ns/op");
	assert_int_equal(ms.m[a].dir, -1);
	assert_true(cmp_metric_value(&ms.m[a], &p) == 5);     /* dots in the key */
	assert_true(isnan(cmp_metric_value(&ms.m[a], &q)));
	assert_true(cmp_metric_value(&ms.m[b], &q) == 3);
	assert_true(cmp_metric_value(&ms.m[c], &q) == 1);
	assert_true(isnan(cmp_metric_value(&ms.m[fam], &p)));   /* the row itself */
	assert_true(cmp_metric_value(&ms.m[cmp_mset_find(&ms, "lock_wait_ns_per_op")], &p) == 7);
	json_object_put(p.extra);
	json_object_put(q.extra);
	/* more keys than a comparison holds: the first CMP_MAX_FAMILY */
	p.extra = json_object_new_object();
	json_object_object_add(p.extra, "trace", json_object_new_object());
	{
		struct json_object *l = json_object_new_object(), *m = json_object_new_object();
		char k[16];

		for (int i = 0; i < 40; i++) {
			snprintf(k, sizeof(k), "k%d", i);
			json_object_object_add(m, k, json_object_new_int(i));
		}
		json_object_object_add(l, "wait_ns_per_op_by_lock", m);
		json_object_object_add(json_object_object_get(p.extra, "trace"), "locks", l);
	}
	cmp_mset_init(&ms);
	assert_int_equal(cmp_mset_add_point(&ms, &p), 0);
	assert_int_equal(ms.nfam, CMP_MAX_FAMILY);
	assert_true(cmp_mset_find(&ms, "lock_wait.k15") > 0);
	assert_int_equal(cmp_mset_find(&ms, "lock_wait.k16"), -1);
	json_object_put(p.extra);
}

extern const struct cgs_obs_def profile_scope_observer;

static char *rows(void (*fn)(const struct res_file *, const char *, const char *, unsigned,
			     const char *, FILE *), const char *extra)
{
	struct res_point p = { .test = "page_fault1", .mode = "process", .tasks = 1,
			       .status = RES_OK };
	struct res_file f = { .npoints = 1, .points = &p };
	static char buf[4096];
	FILE *out = fmemopen(buf, sizeof(buf), "w");

	p.extra = json_tokener_parse(extra);
	assert_non_null(p.extra);
	assert_non_null(out);
	fn(&f, "page_fault1", "process", 1, NULL, out);
	fclose(out);
	json_object_put(p.extra);
	return buf;
}

/* The lines under a row of run's table: figures, or <not supported>. */
static void t_rows(void **state)
{
	char *s;

	(void)state;
	s = rows(cgs_locks_print_rows, "{\"trace\": {\"locks\": {\"supported\": false,"
		 " \"reason\": \"this kernel has no such tracepoint\"}}}");
	assert_string_equal(s, "  locks: <not supported> (this kernel has no such tracepoint)\n");
	s = rows(cgs_locks_print_rows, "{\"trace\": {\"locks\": {\"supported\": true,"
		 " \"tasks\": {\"wait_ns_per_op\": 12.5, \"waits\": 40, \"waits_per_op\": 0.01,"
		 " \"wait\": {\"p50_ns\": 900, \"max_ns\": 5000}}, \"all\": {\"wait_us_per_sec\": 3,"
		 " \"waits\": 90}, \"lost_records\": 0, \"by_lock\": [{\"name\": \"__schedule\","
		 " \"kind\": \"spinlock\", \"named_by\": \"caller\", \"wait_ns_per_op\": 10,"
		 " \"waits\": 70, \"wait\": {\"p50_ns\": 800, \"max_ns\": 4000}}]}}}");
	assert_non_null(strstr(s, "locks: tasks waited 12.5 ns/op (40 waits, 0.01/op, p50 900 ns, max 5000 ns); everyone 3.0 us/s (90 waits)\n"));
	assert_non_null(strstr(s, "10.00 ns/op  __schedule (spinlock, by caller): 70 waits"));
	s = rows(profile_scope_observer.table_rows, "{\"profile_scope\": {\"scope\": \"cgroup\","
		 " \"supported\": false, \"reason\": \"perf_event is on v2\"}}");
	assert_string_equal(s, "  who: cgroup scope <not supported> (perf_event is on v2)\n");
	s = rows(profile_scope_observer.table_rows, "{\"profile_scope\": {\"scope\": \"system\","
		 " \"supported\": true, \"period_ns\": 1003009, \"cpus\": 2, \"who\": {"
		 "\"tasks\": {\"ns_per_op\": 1500}, \"stat_reader\": {\"samples\": 3, \"ns_per_op\": 75,"
		 " \"top_children\": [{\"name\": \"do_syscall_64\", \"ns_per_op\": 75},"
		 " {\"name\": \"memcg1_stat_format\", \"ns_per_op\": 60}]}}}}");
	assert_non_null(strstr(s, "who (system, cpu-clock every 1003 us, 2 CPUs), ns/op: tasks 1500.0, stat_reader 75.0,"));
	assert_non_null(strstr(s, "    stat_reader, children ns/op: memcg1_stat_format 60.0\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_family),
		cmocka_unit_test(t_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
