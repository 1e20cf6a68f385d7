/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_evidence.c - the evidence a point records: the /proc/vmstat and
 * task stat parsers, the tracefs format parser and the CPU list, the
 * tracepoint records turned into flush counts and rstat lock holds and
 * waits (window, own cgroups, per-CPU flush loops, one-shot locks), the
 * sets of --trace and what tracefs says about a kernel that lacks a
 * tracepoint or a field, the notable vmstat keys of the report, and the
 * compare metrics that read the new sections.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "check/unit/tree_put.h"

#include "lib/procstat.h"
#include "lib/tpformat.h"
#include "results/compare/model.h"
#include "results/report/document.h"
#include "results/report/sections.h"
#include "runner/observe/trace/trace.h"
#include "runner/observe/trace/trace_calc.h"

static const char flush_fmt[] =
	"name: memcg_flush_stats\nID: 760\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:u64 id;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 stats_updates;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:bool force;\toffset:24;\tsize:1;\tsigned:0;\n"
	"\tfield:bool needs_flush;\toffset:25;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"memcg_id=%llu\", REC->id\n";

static const char locked_fmt_no_contended[] =
	"name: cgroup_rstat_locked\nID: 533\nformat:\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int root;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 memcg_id;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:24;\tsize:16;\tsigned:0;\n"
	"\tfield:int cpu;\toffset:40;\tsize:4;\tsigned:1;\n";

static void t_vmstat(void **state)
{
	struct cgs_vmstat *s = calloc(1, sizeof(*s));
	uint64_t v = 0;

	(void)state;
	assert_non_null(s);
	assert_int_equal(cgs_vmstat_parse("nr_free_pages 123\npgfault 456\nnot a line\nx\n"
					  "pgalloc_normal 18446744073709551615", s), 0);
	assert_int_equal(s->n, 3);
	assert_int_equal(cgs_vmstat_get(s, "pgfault", &v), 0);
	assert_int_equal(v, 456);
	assert_int_equal(cgs_vmstat_get(s, "pgalloc_normal", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(cgs_vmstat_get(s, "pgfree", &v), -ENOENT);
	assert_int_equal(cgs_vmstat_parse("", s), -EINVAL);
	assert_int_equal(cgs_vmstat_parse("words only here\n", s), -EINVAL);
	free(s);
}

static void t_taskstat(void **state)
{
	uint64_t u = 0, st = 0;

	(void)state;
	/* a comm with a space and a ')' in it */
	assert_int_equal(cgs_taskstat_parse("42 (we) ird) R 1 42 42 0 -1 4194304 100 0 7 0 250 75 0 0 20 0 1 0 99\n",
					    &u, &st), 0);
	assert_int_equal(u, 250);
	assert_int_equal(st, 75);
	assert_int_equal(cgs_taskstat_parse("garbage", &u, &st), -EINVAL);
	assert_int_equal(cgs_taskstat_parse("1 (x) R 1 2", &u, &st), -EINVAL);
}

static void t_tpformat(void **state)
{
	struct cgs_tpfield f;
	unsigned char raw[32] = { 0 };
	int32_t pid = -5;
	uint64_t id = 123456789012ULL;

	(void)state;
	assert_int_equal(cgs_tpformat_field(flush_fmt, "id", &f), 0);
	assert_int_equal(f.offset, 8);
	assert_int_equal(f.size, 8);
	assert_false(f.is_signed);
	assert_int_equal(cgs_tpformat_field(flush_fmt, "stats_updates", &f), 0);
	assert_int_equal(f.offset, 16);
	assert_true(f.is_signed);
	assert_int_equal(cgs_tpformat_field(flush_fmt, "needs_flush", &f), 0);
	assert_int_equal(f.offset, 25);
	assert_int_equal(f.size, 1);
	assert_int_equal(cgs_tpformat_field(flush_fmt, "flush", &f), -ENOENT);
	assert_int_equal(cgs_tpformat_field(flush_fmt, "contended", &f), -ENOENT);
	/* "id" is not "memcg_id"; an array is no scalar */
	assert_int_equal(cgs_tpformat_field(locked_fmt_no_contended, "id", &f), -ENOENT);
	assert_int_equal(cgs_tpformat_field(locked_fmt_no_contended, "comm", &f), -EINVAL);

	memcpy(raw + 4, &pid, 4);
	memcpy(raw + 8, &id, 8);
	raw[25] = 1;
	assert_int_equal(cgs_tpformat_field(flush_fmt, "common_pid", &f), 0);
	assert_int_equal(cgs_tpfield_get(&f, raw, sizeof(raw)), -5);
	assert_int_equal(cgs_tpformat_field(flush_fmt, "id", &f), 0);
	assert_true(cgs_tpfield_get(&f, raw, sizeof(raw)) == (int64_t)id);
	assert_int_equal(cgs_tpfield_get(&f, raw, 12), 0);    /* too short */
	assert_int_equal(cgs_tpformat_field(flush_fmt, "needs_flush", &f), 0);
	assert_int_equal(cgs_tpfield_get(&f, raw, sizeof(raw)), 1);
}

static void t_cpulist(void **state)
{
	(void)state;
	assert_int_equal(cgs_cpulist_last("0-1\n"), 1);
	assert_int_equal(cgs_cpulist_last("0-3,8-9"), 9);
	assert_int_equal(cgs_cpulist_last("5"), 5);
	assert_int_equal(cgs_cpulist_last(""), -EINVAL);
	assert_int_equal(cgs_cpulist_last("a"), -EINVAL);
	assert_int_equal(cgs_cpulist_last("3-1"), -EINVAL);
}

static struct cgs_trace *all_supported(void)
{
	static struct cgs_trace t;

	memset(&t, 0, sizeof(t));
	for (int k = 0; k < CGS_TP_NKIND; k++)
		t.tp[k].supported = t.tp[k].wanted = true;
	return &t;
}

static double jd(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		if (!o || !json_object_object_get_ex(o, k, &o))
			return -1;
	return o ? json_object_get_double(o) : -2;    /* -2: null */
}

static void ev(struct cgs_tpcalc *c, int64_t t, enum cgs_tp_kind k, int pid,
	       uint64_t id, int64_t a, bool b, bool cc)
{
	struct cgs_tpev e = { .t_ns = t, .kind = k, .pid = pid, .id = id,
			      .a = a, .b = b, .c = cc };

	cgs_tpcalc_add(c, &e);
}

static void t_calc_flush_counts(void **state)
{
	struct cgs_tpcalc *c = cgs_tpcalc_new(1);
	uint64_t own[] = { 100, 101 };
	struct json_object *o;

	(void)state;
	cgs_tpcalc_own(c, own, 2);
	cgs_tpcalc_window(c, 1000, 2000);
	ev(c, 900, CGS_TP_MEMCG_FLUSH, 1, 100, 5, false, true);    /* before */
	ev(c, 1100, CGS_TP_MEMCG_FLUSH, 1, 100, 50, false, true);
	ev(c, 1200, CGS_TP_MEMCG_FLUSH, 1, 200, 10, true, false);  /* not ours */
	ev(c, 1300, CGS_TP_MEMCG_FLUSH, 1, 101, 30, false, false);
	ev(c, 2100, CGS_TP_MEMCG_FLUSH, 1, 100, 5, false, true);   /* after */
	o = cgs_tpcalc_json(c, all_supported(), 2.0, 1000, 4);
	assert_true(jd(o, "flush.calls.all") == 3);
	assert_true(jd(o, "flush.calls.own") == 2);
	assert_true(jd(o, "flush.calls.own_per_sec") == 1);
	assert_true(jd(o, "flush.calls.own_per_read") == 0.5);
	assert_true(jd(o, "flush.flushed.own") == 1);
	assert_true(jd(o, "flush.flushed.own_per_op") == 0.001);
	assert_true(jd(o, "flush.forced.all") == 1);
	assert_true(jd(o, "flush.forced.own") == 0);
	assert_true(jd(o, "flush.own_stats_updates_mean") == 40);
	json_object_put(o);
	/* without reads or ops the rates per read and per op are null */
	o = cgs_tpcalc_json(c, all_supported(), 2.0, 0, 0);
	assert_true(jd(o, "flush.calls.own_per_read") == -2);
	assert_true(jd(o, "flush.calls.own_per_op") == -2);
	json_object_put(o);
	cgs_tpcalc_free(c);
}

static void t_calc_rstat(void **state)
{
	struct cgs_tpcalc *c = cgs_tpcalc_new(1);    /* CPUs 0 and 1 */
	struct json_object *o;

	(void)state;
	cgs_tpcalc_window(c, 1000, 3000);
	ev(c, 990, CGS_TP_RSTAT_LOCKED, 9, 5, 1, false, false);    /* before */
	ev(c, 1010, CGS_TP_RSTAT_UNLOCK, 9, 5, 1, false, false);   /* ignored */
	/* task 7: a contended lock on CPU 0, then CPU 1: one flush */
	ev(c, 1100, CGS_TP_RSTAT_CONTENDED, 7, 5, 0, true, false);
	ev(c, 1150, CGS_TP_RSTAT_LOCKED, 7, 5, 0, true, false);
	/* task 8 interleaves: its one-shot lock (cpu -1) is a flush too */
	ev(c, 1160, CGS_TP_RSTAT_LOCKED, 8, 6, -1, false, false);
	ev(c, 1190, CGS_TP_RSTAT_UNLOCK, 8, 6, -1, false, false);
	ev(c, 1250, CGS_TP_RSTAT_UNLOCK, 7, 5, 0, false, false);
	ev(c, 1300, CGS_TP_RSTAT_LOCKED, 7, 5, 1, false, false);
	ev(c, 1400, CGS_TP_RSTAT_UNLOCK, 7, 5, 1, false, false);
	/* task 7 again: CPU 0 only, then the window closes: not a flush */
	ev(c, 2900, CGS_TP_RSTAT_LOCKED, 7, 5, 0, false, false);
	ev(c, 2950, CGS_TP_RSTAT_UNLOCK, 7, 5, 0, false, false);
	ev(c, 3050, CGS_TP_RSTAT_LOCKED, 7, 5, 1, false, false);   /* after */
	ev(c, 3100, CGS_TP_RSTAT_UNLOCK, 7, 5, 1, false, false);
	cgs_tpcalc_lost(c, 3);
	o = cgs_tpcalc_json(c, all_supported(), 2.0, 100, 0);
	assert_true(jd(o, "rstat_lock.acquisitions.all") == 4);
	assert_true(jd(o, "rstat_lock.flushes") == 2);
	assert_true(jd(o, "rstat_lock.flushes_per_sec") == 1);
	assert_true(jd(o, "rstat_lock.flushes_per_op") == 0.02);
	assert_true(jd(o, "rstat_lock.hold_per_flush.count") == 2);
	assert_true(jd(o, "rstat_lock.hold_per_flush.min_ns") == 30);
	assert_true(jd(o, "rstat_lock.hold_per_flush.max_ns") == 200);
	assert_true(jd(o, "rstat_lock.hold_per_acquisition.count") == 4);
	assert_true(jd(o, "rstat_lock.hold_per_acquisition.max_ns") == 100);
	assert_true(jd(o, "rstat_lock.contended") == 1);
	assert_true(jd(o, "rstat_lock.wait_per_contended.max_ns") == 50);
	assert_true(jd(o, "rstat_lock.wait_per_flush.max_ns") == 50);
	assert_true(jd(o, "rstat_lock.wait_per_flush.min_ns") == 0);
	/* the totals: holds of 100 + 30 + 100 + 50 ns, one wait of 50 ns,
	 * over 2 s and 100 ops */
	assert_true(jd(o, "rstat_lock.hold_ns") == 280);
	assert_true(jd(o, "rstat_lock.hold_ns_per_sec") == 140);
	assert_true(jd(o, "rstat_lock.hold_ns_per_op") == 2.8);
	assert_true(jd(o, "rstat_lock.wait_ns") == 50);
	assert_true(jd(o, "rstat_lock.wait_ns_per_op") == 0.5);
	assert_true(jd(o, "lost_records") == 3);
	json_object_put(o);
	cgs_tpcalc_free(c);
}

static void t_calc_unsupported(void **state)
{
	struct cgs_tpcalc *c = cgs_tpcalc_new(1);
	struct cgs_trace *t = all_supported();
	struct json_object *o, *v;

	(void)state;
	t->tp[CGS_TP_MEMCG_FLUSH].supported = false;
	t->tp[CGS_TP_RSTAT_CONTENDED].supported = false;
	o = cgs_tpcalc_json(c, t, 1.0, 1, 1);
	assert_true(json_object_object_get_ex(o, "flush", &v) && v == NULL);
	assert_true(jd(o, "rstat_lock.flushes") == 0);
	assert_false(json_object_object_get_ex(json_object_object_get(o, "rstat_lock"),
					       "wait_per_flush", &v));
	json_object_put(o);
	cgs_tpcalc_free(c);
}

static void t_tracefs(void **state)
{
	char dir[] = "/tmp/cgs-tracefs-XXXXXX", cmd[64];
	struct cgs_trace *t = calloc(1, sizeof(*t));
	char err[256];

	(void)state;
	assert_non_null(t);
	assert_non_null(mkdtemp(dir));
	tree_put(dir, "events/memcg/memcg_flush_stats/id", "760\n");
	tree_put(dir, "events/memcg/memcg_flush_stats/format", flush_fmt);
	tree_put(dir, "events/cgroup/cgroup_rstat_locked/id", "533\n");
	tree_put(dir, "events/cgroup/cgroup_rstat_locked/format", locked_fmt_no_contended);
	assert_int_equal(cgs_trace_parse_sets("memcg-flush", t, err, sizeof(err)), 0);
	cgs_trace_read_tracefs(dir, t);
	assert_true(t->tp[CGS_TP_MEMCG_FLUSH].supported);
	assert_int_equal(t->tp[CGS_TP_MEMCG_FLUSH].id, 760);
	assert_int_equal(t->tp[CGS_TP_MEMCG_FLUSH].f[CGS_F_C].offset, 25);
	assert_false(t->tp[CGS_TP_RSTAT_LOCKED].supported);
	assert_non_null(strstr(t->tp[CGS_TP_RSTAT_LOCKED].reason, "'id'"));
	assert_false(t->tp[CGS_TP_RSTAT_UNLOCK].supported);
	assert_non_null(strstr(t->tp[CGS_TP_RSTAT_UNLOCK].reason, "no such tracepoint"));
	assert_non_null(strstr(t->tp[CGS_TP_RSTAT_UNLOCK].reason, "events/cgroup/cgroup_rstat_unlock"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(t);
}

static void t_sets(void **state)
{
	struct cgs_trace *t = calloc(1, sizeof(*t));
	char err[256] = "";

	(void)state;
	assert_non_null(t);
	assert_int_equal(cgs_trace_parse_sets("memcg-flush,memcg-flush", t, err, sizeof(err)), 0);
	for (int k = 0; k < CGS_TP_NKIND; k++) {
		assert_true(t->tp[k].wanted == !cgs_tp_is_lock(k));
		assert_string_equal(t->tp[k].name, cgs_tp_names[k]);
	}
	assert_int_equal(cgs_trace_parse_sets("memcg-flush,bogus", t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'bogus'"));
	assert_int_equal(cgs_trace_parse_sets("", t, err, sizeof(err)), -EINVAL);
	/* --help names every tracepoint of every set */
	for (unsigned s = 0; cgs_trace_set_names[s]; s++) {
		assert_non_null(strstr(CGS_TRACE_HELP, cgs_trace_set_names[s]));
		for (int k = 0; k < CGS_TP_NKIND; k++)
			if (cgs_trace_set_uses(s, (enum cgs_tp_kind)k))
				assert_non_null(strstr(CGS_TRACE_HELP, cgs_tp_names[k]));
	}
	free(t);
}

static void t_notable(void **state)
{
	(void)state;
	assert_true(rpt_vmstat_notable("pgfault"));
	assert_true(rpt_vmstat_notable("pgalloc_normal"));
	assert_true(rpt_vmstat_notable("pgfree"));
	assert_true(rpt_vmstat_notable("numa_hit"));
	assert_true(rpt_vmstat_notable("thp_fault_alloc"));
	assert_true(rpt_vmstat_notable("thp_fault_fallback_charge"));
	assert_false(rpt_vmstat_notable("nr_free_pages"));
	assert_false(rpt_vmstat_notable("pgfaultx"));
}

static double metric(const struct res_point *p, const char *name)
{
	struct cmp_mset ms;
	int m;

	cmp_mset_init(&ms);
	assert_int_equal(cmp_mset_add_point(&ms, p), 0);
	m = cmp_mset_find(&ms, name);
	if (m < 0)
		fail_msg("no metric %s", name);
	return cmp_metric_value(&ms.m[m], p);
}

static void t_metrics(void **state)
{
	struct res_point p = { 0 };

	(void)state;
	p.extra = json_tokener_parse(
		"{\"cputime\": {\"sys_us_per_op\": 1.5, \"user_us_per_op\": 0.25},"
		" \"vmstat\": {\"per_sec\": {\"pgfault\": 4e5}, \"per_op\": {\"pgalloc_normal\": 2.5}},"
		" \"trace\": {\"flush\": {\"flushed\": {\"own_per_read\": 0.125}},"
		"  \"rstat_lock\": {\"hold_per_flush\": {\"p99_ns\": 777}, \"wait_per_flush\": {\"max_ns\": 9}}}}");
	assert_non_null(p.extra);
	assert_true(metric(&p, "sys_us_per_op") == 1.5);
	assert_true(metric(&p, "user_us_per_op") == 0.25);
	assert_true(metric(&p, "proc-vmstat.pgfault") == 4e5);
	assert_true(metric(&p, "proc-vmstat.pgalloc_normal.per_op") == 2.5);
	assert_true(metric(&p, "flush_per_read") == 0.125);
	assert_true(metric(&p, "rstat_hold_p99") == 777);
	assert_true(metric(&p, "rstat_wait_max") == 9);
	assert_true(isnan(metric(&p, "proc-vmstat.numa_hit")));    /* absent */
	json_object_put(p.extra);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_vmstat),
		cmocka_unit_test(t_taskstat),
		cmocka_unit_test(t_tpformat),
		cmocka_unit_test(t_cpulist),
		cmocka_unit_test(t_calc_flush_counts),
		cmocka_unit_test(t_calc_rstat),
		cmocka_unit_test(t_calc_unsupported),
		cmocka_unit_test(t_tracefs),
		cmocka_unit_test(t_sets),
		cmocka_unit_test(t_notable),
		cmocka_unit_test(t_metrics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
