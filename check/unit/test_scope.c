/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_scope.c - `--profile-scope` off the machine: fixed cpu-clock sample
 * buffers, laid out as the kernel writes them, decoded and given to who
 * ran (a softirq on a task, idle, the tasks, the stats reader, the runner,
 * kworkers, kswapd, ksoftirqd, others by comm, names from COMM records
 * before /proc); the ns per op of each who (samples x period / ops) with
 * its interval and its top functions; and where a perf cgroup event can
 * point on a hybrid host (nowhere, with the reason), a v2 host (level 1
 * of the tree) and a run without cgroups.
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

#include <cmocka.h>
#include <json-c/json.h>

#include "cgroup-setup/cg.h"
#include "runner/observe/profile/scope.h"

#define PERIOD 1000000ULL          /* 1 ms a sample */

static struct cgs_symtab *syms(void)
{
	static struct cgs_symtab t;
	static struct cgs_sym v[] = {
		{ 0xffffffff81000000ULL, 0, "do_syscall_64" },
		{ 0xffffffff81000100ULL, 0, "memcg1_stat_format" },
		{ 0xffffffff81000200ULL, 0, "mem_cgroup_flush_stats" },
		{ 0xffffffff81000300ULL, 0, "handle_softirqs" },
		{ 0xffffffff81000400ULL, 0, "net_rx_action" },
		{ 0xffffffff81000500ULL, 0, "clear_page_erms" },
		{ 0xffffffff81000600ULL, 0, "exc_page_fault" },
		{ 0xffffffff81000700ULL, 0, "worker_thread" },
	};

	t.v = v;
	t.n = t.cap = sizeof(v) / sizeof(v[0]);
	return &t;
}

#define IP_SYSCALL 0xffffffff81000010ULL
#define IP_STATFMT 0xffffffff81000110ULL
#define IP_FLUSH 0xffffffff81000210ULL
#define IP_SOFTIRQ 0xffffffff81000310ULL
#define IP_NETRX 0xffffffff81000410ULL
#define IP_CLEAR 0xffffffff81000510ULL
#define IP_FAULT 0xffffffff81000610ULL
#define IP_WORKER 0xffffffff81000710ULL

/* A sample: ip, pid/tid, time, cpu/res, period, callchain (kernel
 * context, then the frames leaf first). */
static struct perf_event_header *sample(uint64_t *buf, int pid, int tid, bool user,
					const uint64_t *ips, unsigned n)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	uint32_t pt[2] = { (uint32_t)pid, (uint32_t)tid };

	buf[1] = n ? ips[0] : 0x401000;
	memcpy(&buf[2], pt, 8);
	buf[3] = 42;
	buf[4] = 1;                    /* cpu 1 */
	buf[5] = PERIOD;
	buf[6] = n + (n > 0);
	if (n)
		buf[7] = (uint64_t)PERF_CONTEXT_KERNEL;
	if (n)
		memcpy(&buf[8], ips, 8 * n);
	h->type = PERF_RECORD_SAMPLE;
	h->misc = user ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
	h->size = (uint16_t)(8 * (7 + n + (n > 0)));
	return h;
}

struct comms { int asked; };

static const char *comm_of(void *arg, int pid, int tid)
{
	struct comms *c = arg;

	(void)pid;
	c->asked++;
	switch (tid) {
	case 300: return "kworker/1:2";
	case 301: return "kswapd0";
	case 302: return "ksoftirqd/1";
	case 303: return "chromium";
	case 304: return "cc1";
	default: return NULL;
	}
}

static double jd(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		char *end;
		long i = strtol(k, &end, 10);

		if (o && !*end && json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)i);
		else if (!o || !json_object_object_get_ex(o, k, &o))
			return -1;
	}
	return o ? json_object_get_double(o) : -2;
}

/* The scope's samples decoded; a record cut short or with too many IPs
 * refused. */
static void t_decode(void **state)
{
	const int tasks[] = { 100, 101 };
	struct comms cm = { 0 };
	struct cgs_scope_ids ids = { tasks, 2, 50, 51, syms(), comm_of, &cm };
	struct cgs_scopecalc *c = cgs_scopecalc_new(&ids);
	uint64_t buf[64];
	const uint64_t fault[] = { IP_CLEAR, IP_FAULT };
	struct cgs_scope_sample s;
	const char *comm;
	struct perf_event_header *h;

	(void)state;
	assert_non_null(c);
	assert_int_equal(cgs_scope_decode(sample(buf, 7, 100, false, fault, 2), &s), 0);
	assert_int_equal(s.pid, 7);
	assert_int_equal(s.tid, 100);
	assert_int_equal(s.cpu, 1);
	assert_true(s.period == PERIOD);
	assert_int_equal(s.nips, 2);
	assert_true(s.ips[0] == IP_CLEAR && s.ips[1] == IP_FAULT);
	assert_false(s.user);
	assert_int_equal(cgs_scope_who(c, &s, &comm), CGS_WHO_TASKS);
	h = sample(buf, 7, 100, false, fault, 2);
	h->size = 40;                                     /* cut short */
	assert_int_equal(cgs_scope_decode(h, &s), -EINVAL);
	h = sample(buf, 7, 100, false, fault, 2);
	buf[6] = 99;                                      /* nr past the end */
	assert_int_equal(cgs_scope_decode(h, &s), -EINVAL);
	cgs_scopecalc_free(c);
}

/* t_who's samples: the tasks, the reader, the runner, a softirq, idle,
 * kernel threads and others by comm, a COMM record, a cached comm. */
static void record_all(struct cgs_scopecalc *c, uint64_t *buf, struct comms *cm)
{
	const uint64_t fault[] = { IP_CLEAR, IP_FAULT };
	const uint64_t read[] = { IP_FLUSH, IP_STATFMT, IP_SYSCALL };
	const uint64_t read2[] = { IP_STATFMT, IP_SYSCALL };
	const uint64_t soft[] = { IP_NETRX, IP_SOFTIRQ, IP_FAULT };
	const uint64_t work[] = { IP_WORKER };
	struct { struct perf_event_header h; uint32_t pid, tid; char comm[16]; } r =
		{ { PERF_RECORD_COMM, 0, sizeof(r) }, 304, 304, "kworker/u8:0" };

	/* the tasks: 6 samples, 2 of them in user mode */
	for (int i = 0; i < 4; i++)
		cgs_scopecalc_record(c, sample(buf, 100, 100, false, fault, 2));
	for (int i = 0; i < 2; i++)
		cgs_scopecalc_record(c, sample(buf, 101, 101, true, NULL, 0));
	/* the reader: 3 samples, all under memcg1_stat_format, 1 in the flush */
	cgs_scopecalc_record(c, sample(buf, 50, 51, false, read, 3));
	cgs_scopecalc_record(c, sample(buf, 50, 51, false, read2, 2));
	cgs_scopecalc_record(c, sample(buf, 50, 51, false, read2, 2));
	/* the runner's main thread */
	cgs_scopecalc_record(c, sample(buf, 50, 50, false, read2, 2));
	/* a softirq on task 100 is softirq, not the task's */
	cgs_scopecalc_record(c, sample(buf, 100, 100, false, soft, 3));
	/* idle, kworker, kswapd, ksoftirqd, others by comm */
	cgs_scopecalc_record(c, sample(buf, 0, 0, false, work, 1));
	cgs_scopecalc_record(c, sample(buf, 300, 300, false, work, 1));
	cgs_scopecalc_record(c, sample(buf, 301, 301, false, work, 1));
	cgs_scopecalc_record(c, sample(buf, 302, 302, false, work, 1));
	cgs_scopecalc_record(c, sample(buf, 303, 303, true, NULL, 0));
	cgs_scopecalc_record(c, sample(buf, 303, 303, true, NULL, 0));
	cgs_scopecalc_record(c, sample(buf, 304, 304, true, NULL, 0));
	cgs_scopecalc_record(c, sample(buf, 305, 305, true, NULL, 0));   /* unknown */
	/* a COMM record renames 304 before /proc is asked again */
	cgs_scopecalc_record(c, &r.h);
	cgs_scopecalc_record(c, sample(buf, 304, 304, false, work, 1));
	cm->asked = 0;
	cgs_scopecalc_record(c, sample(buf, 303, 303, true, NULL, 0));   /* cached */
	assert_int_equal(cm->asked, 0);
}

/* The JSON of record_all's samples at 1000 ops over 10 periods. */
static void who_figures(struct json_object *o)
{
	assert_true(jd(o, "samples.received") == 21);
	assert_true(jd(o, "who.tasks.samples") == 6);
	assert_true(jd(o, "who.tasks.ns") == 6 * PERIOD);
	assert_true(jd(o, "who.tasks.ns_per_op") == 6000);
	assert_true(fabs(jd(o, "who.tasks.ns_per_op_ci95") - 1.96 * sqrt(6) * 1000) < 1e-6);
	assert_true(jd(o, "who.tasks.cpu_share") == 0.3);
	assert_true(jd(o, "who.stat_reader.samples") == 3);
	assert_true(jd(o, "who.stat_reader.ns_per_op") == 3000);
	assert_true(jd(o, "who.runner.samples") == 1);
	assert_true(jd(o, "who.softirq.samples") == 2);     /* on a task, ksoftirqd */
	assert_true(jd(o, "who.idle.samples") == 1);
	assert_true(jd(o, "who.kworker.samples") == 2);     /* 300, renamed 304 */
	assert_true(jd(o, "who.kswapd.samples") == 1);
	assert_true(jd(o, "who.others.samples") == 5);
	/* where the reader's time went: all under the format, 1/3 flushing */
	assert_string_equal(json_object_get_string(json_object_object_get(json_object_array_get_idx(
		json_object_object_get(json_object_object_get(json_object_object_get(o, "who"),
			"stat_reader"), "top_self"), 0), "name")), "memcg1_stat_format");
	assert_true(jd(o, "who.stat_reader.top_self.0.samples") == 2);
	assert_true(jd(o, "who.stat_reader.top_self.1.samples") == 1);
	assert_true(jd(o, "who.stat_reader.top_children.0.samples") == 3);
	assert_true(jd(o, "who.stat_reader.top_children.0.ns_per_op") == 3000);
	/* the same self times by name, for compare's stat_reader.fn.NAME */
	assert_true(jd(o, "who.stat_reader.self_ns_per_op.memcg1_stat_format") == 2000);
	assert_true(jd(o, "who.tasks.self_ns_per_op") == -1);   /* the reader's only */
	assert_true(jd(o, "who.tasks.top_self.0.samples") == 4);   /* clear_page_erms */
	/* others by comm: chromium 3, then cc1 and ? (1 each) */
	assert_true(jd(o, "others_by_comm.0.samples") == 3);
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(o, "others_by_comm"), 0), "comm")),
		"chromium");
	assert_int_equal(json_object_array_length(json_object_object_get(o, "others_by_comm")), 3);
}

static void t_who(void **state)
{
	const int tasks[] = { 100, 101 };
	struct comms cm = { 0 };
	struct cgs_scope_ids ids = { tasks, 2, 50, 51, syms(), comm_of, &cm };
	struct cgs_scopecalc *c = cgs_scopecalc_new(&ids);
	uint64_t buf[64];
	struct json_object *o;

	(void)state;
	assert_non_null(c);
	record_all(c, buf, &cm);
	o = cgs_scopecalc_json(c, 1000, 10 * (int64_t)PERIOD, 2);
	who_figures(o);
	json_object_put(o);
	/* no ops: per op is null */
	o = cgs_scopecalc_json(c, 0, 10, 2);
	assert_true(jd(o, "who.tasks.ns_per_op") == -2);
	json_object_put(o);
	cgs_scopecalc_free(c);
}

static const char hybrid_mi[] =
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
static const char hybrid_self[] = "4:memory:/box\n0::/\n";
static const char hybrid_task[] = "4:memory:/box/cgscale-1-a/cgscale-l2/cgscale-l3\n0::/\n";
static const char v2_mi[] =
	"28 24 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
static const char v2_self[] = "0::/box\n";
static const char v2_task[] = "0::/box/cgscale-1-a/cgscale-l2/cgscale-l3\n";
static const char perf_v1_mi[] =
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"36 31 0:33 / /sys/fs/cgroup/perf_event rw,relatime - cgroup cgroup rw,perf_event\n";
static const char perf_v1_self[] = "5:perf_event:/\n4:memory:/box\n";
static const char perf_v1_task[] = "5:perf_event:/cgscale-1-a/cgscale-l2\n4:memory:/cgscale-1-a/cgscale-l2\n";

static void t_cgroup(void **state)
{
	struct cg_layout l;
	struct cgs_cgview mem3 = { 3, "memory" }, none = { 0, "memory" }, both2 = { 2, "memory,perf_event" };
	char dir[4096], why[512], err[256];

	(void)state;
	assert_int_equal(cg_layout_parse(hybrid_mi, hybrid_self, "hugetlb\n", &l, err, sizeof(err)), 0);
	assert_int_equal(cgs_scope_cgroup_in(&l, true, hybrid_task, &mem3, dir, sizeof(dir),
					     why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "perf_event is on the cgroup v2 hierarchy at /sys/fs/cgroup/unified"));
	assert_non_null(strstr(why, "memory"));
	assert_non_null(strstr(why, "--profile-scope system"));
	/* no perf_event controller at all */
	assert_int_equal(cgs_scope_cgroup_in(&l, false, hybrid_task, &mem3, dir, sizeof(dir),
					     why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "on no mounted hierarchy"));
	/* a v2 host: level 1 of the tree */
	assert_int_equal(cg_layout_parse(v2_mi, v2_self, "cpu memory pids\n", &l, err, sizeof(err)), 0);
	assert_int_equal(cgs_scope_cgroup_in(&l, true, v2_task, &mem3, dir, sizeof(dir),
					     why, sizeof(why)), 0);
	assert_string_equal(dir, "/sys/fs/cgroup/box/cgscale-1-a");
	assert_int_equal(cgs_scope_cgroup_in(&l, true, v2_task, &none, dir, sizeof(dir),
					     why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "--cgroup-depth 0"));
	assert_int_equal(cgs_scope_cgroup_in(&l, true, v2_task, NULL, dir, sizeof(dir),
					     why, sizeof(why)), -EOPNOTSUPP);
	/* deeper than the task's cgroup */
	struct cgs_cgview mem9 = { 9, "memory" };

	assert_int_equal(cgs_scope_cgroup_in(&l, true, v2_task, &mem9, dir, sizeof(dir),
					     why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "not 9 levels deep"));
	/* a v1 perf_event hierarchy that holds the tree */
	assert_int_equal(cg_layout_parse(perf_v1_mi, perf_v1_self, NULL, &l, err, sizeof(err)), 0);
	assert_int_equal(cgs_scope_cgroup_in(&l, true, perf_v1_task, &both2, dir, sizeof(dir),
					     why, sizeof(why)), 0);
	assert_string_equal(dir, "/sys/fs/cgroup/perf_event/cgscale-1-a");
	assert_int_equal(cgs_scope_cgroup_in(&l, true, perf_v1_task, &mem3, dir, sizeof(dir),
					     why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "cgroup v1 hierarchy at /sys/fs/cgroup/perf_event"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_decode),
		cmocka_unit_test(t_who),
		cmocka_unit_test(t_cgroup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
