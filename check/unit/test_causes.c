/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_causes.c - a failed point's OOM cause (runner/run/causes.c) comes
 * from the kernel's oom_kill count in extra.cgroup's flags (v1
 * memory.oom_control, v2 memory.events), whatever the limit's spelling
 * (4097 and 0x1000 read back as 4096), names the cgroup, the limit read
 * back and the knob to raise; no oom_kill count, no OOM named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "results/model/result.h"
#include "runner/run/causes.h"

#define L1 "/sys/fs/cgroup/memory/p/cgscale-9-1a2b3c4d-0"
#define L2 L1 "/cgscale-l2"

/* The reason cgs_explain_failure leaves for a failed point that said
 * @reason, with extra.cgroup @cg (JSON). The caller frees it. */
static char *explained(const char *reason, const char *cg)
{
	struct res_point p = { .status = RES_FAILED };
	char *out;

	p.reason = strdup(reason);
	p.extra = json_object_new_object();
	assert_non_null(p.reason);
	json_object_object_add(p.extra, "cgroup", json_tokener_parse(cg));
	cgs_explain_failure("/tmp", &p);
	out = p.reason;
	json_object_put(p.extra);
	return out;
}

static void expect(const char *reason, const char *cg, const char *want)
{
	char *got = explained(reason, cg);

	if (strcmp(got, want))
		fail_msg("got  '%s'\nwant '%s'", got, want);
	free(got);
}

static void t_one_page_v1(void **state)
{
	(void)state;
	/* the worker killed before its tasks started: 4097 bytes read back */
	expect("the process-mode worker was killed by signal 9 (Killed)",
	       "{\"knobs\": [{\"level\": 1, \"knob\": \"memory.limit_in_bytes\", \"value\": \"4097\","
	       " \"read_back\": [\"4096\"]}],"
	       " \"events\": [{\"path\": \"" L1 "\", \"level\": 1}],"
	       " \"flags\": [\"failcnt +37 in " L1 "\", \"oom_kill +1 in " L1 "\"]}",
	       "OOM-killed in " L1 " (memory limit 4096 bytes): the kernel's OOM killer counted 1 kill(s) there (oom_kill); raise --cgroup-set 1:memory.limit_in_bytes: the process-mode worker was killed by signal 9 (Killed)");
}

static void t_v2_hierarchical(void **state)
{
	(void)state;
	/* v2 counts up the tree: the top level, where the limit is, named */
	expect("task 0 (pid 12): killed by signal 9 (Killed)",
	       "{\"knobs\": [{\"level\": 1, \"knob\": \"memory.max\", \"value\": \"0x1000\","
	       " \"read_back\": [\"4096\"]}],"
	       " \"events\": [{\"path\": \"" L1 "\", \"level\": 1}, {\"path\": \"" L2 "\", \"level\": 2}],"
	       " \"flags\": [\"max +3 in " L1 "\", \"oom_kill +2 in " L1 "\", \"oom_kill +2 in " L2 "\"]}",
	       "OOM-killed in " L1 " (memory limit 4096 bytes): the kernel's OOM killer counted 2 kill(s) there (oom_kill); raise --cgroup-set 1:memory.max: task 0 (pid 12): killed by signal 9 (Killed)");
}

static void t_limit_above(void **state)
{
	(void)state;
	expect("task 0 (pid 12): killed by signal 9 (Killed)",
	       "{\"knobs\": [{\"level\": 1, \"knob\": \"memory.limit_in_bytes\", \"value\": \"4M\","
	       " \"read_back\": [\"4194304\"]}],"
	       " \"events\": [{\"path\": \"" L1 "\", \"level\": 1}, {\"path\": \"" L2 "\", \"level\": 2}],"
	       " \"flags\": [\"oom_kill +1 in " L2 "\"]}",
	       "OOM-killed in " L2 " (memory limit set above it): the kernel's OOM killer counted 1 kill(s) there (oom_kill); raise the memory limit set above it: task 0 (pid 12): killed by signal 9 (Killed)");
}

/* No oom_kill counted: a SIGKILL from anyone else is not called an OOM
 * kill, whatever the limit; and a point that is not failed is left. */
static void t_not_oom(void **state)
{
	static const char cg[] =
		"{\"knobs\": [{\"level\": 1, \"knob\": \"memory.limit_in_bytes\", \"value\": \"4097\","
		" \"read_back\": [\"4096\"]}],"
		" \"events\": [{\"path\": \"" L1 "\", \"level\": 1}],"
		" \"flags\": [\"failcnt +37 in " L1 "\"]}";
	struct res_point p = { .status = RES_OK };

	(void)state;
	expect("task 0 (pid 12): killed by signal 9 (Killed)", cg,
	       "task 0 (pid 12): killed by signal 9 (Killed)");
	expect("task 0 (pid 12): killed by signal 9 (Killed)", "{}",
	       "task 0 (pid 12): killed by signal 9 (Killed)");
	cgs_explain_failure("/tmp", &p);
	assert_null(p.reason);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_one_page_v1),
		cmocka_unit_test(t_v2_hierarchical),
		cmocka_unit_test(t_limit_above),
		cmocka_unit_test(t_not_oom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
