/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_metrics.c - the metric table of `cgscale compare` (one line per
 * metric: name, unit, direction, threshold class, extractor), how a
 * metric and a point's cgroup layout are read, the default options, and
 * the exit status that the verdicts give. Knobs: cmp_metrics[].
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare.h"
#include "perf_metric.h"
#include "../lib/macros.h"

const char *const cmp_class_names[] = {
	[CMP_PRIMARY] = "primary", [CMP_SECONDARY] = "secondary",
	[CMP_TAIL] = "tail-latency", NULL,
};

const char *const cmp_verdict_names[] = {
	[CMP_NO_CHANGE] = "NO_CHANGE", [CMP_IMPROVEMENT] = "IMPROVEMENT",
	[CMP_REGRESSION] = "REGRESSION", [CMP_NOISY] = "NOISY",
	[CMP_INCONCLUSIVE] = "INCONCLUSIVE", NULL,
};

static double m_per_task(const struct res_point *p)
{
	return p->sum.per_task_ops_per_sec;
}

/* Fairness: the slowest task. One task is its own minimum: left out. */
static double m_min_task(const struct res_point *p)
{
	return p->tasks > 1 ? p->sum.min_task_ops_per_sec : NAN;
}

static double m_scalability(const struct res_point *p)
{
	return p->tasks > 1 ? p->sum.scalability : NAN;
}

/* A workload's aux counter as a rate per task, in its unit; NAN if none. */
static double aux_task_rate(const struct res_point *p, const char *name)
{
	for (unsigned k = 0; k < p->naux; k++)
		if (!strcmp(p->aux_name[k], name))
			return p->sum.aux_task_rate[k];
	return NAN;
}

/* sendfile: received Mbit/s per task, LKP's netperf.Throughput_Mbps. */
static double m_rx_mbps(const struct res_point *p)
{
	return aux_task_rate(p, "rx_bytes");
}

/* remap: stress-ng bogo-ops/s of all tasks, LKP's remap.ops_per_sec. */
static double m_bogo_ops(const struct res_point *p)
{
	return aux_task_rate(p, "passes") * p->tasks;
}

/* The derived perf metrics that compare compares (perf_metric.h). */
#define CMP_PERF_ROW_YES(nm, dir, unit, desc) \
	{ nm, unit, desc, dir, CMP_SECONDARY, NULL, "perf.metrics." nm },
#define CMP_PERF_ROW_NO(nm, dir, unit, desc)
#define CMP_PERF_ROW_(id, nm, how, ty, num, den, sc, lab, wh, cmp, dir, unit, desc) \
	CMP_PERF_ROW_##cmp(nm, dir, unit, desc)

/*
 * The metrics, one line each: an extractor, or a dotted path to a number
 * in the point's extra sections (absent: the metric is not compared).
 */
const struct cmp_metric cmp_metrics[] = {
	{ "per_task_ops", "ops/s",
	  "mean ops/s of one task (LKP per_process_ops / per_thread_ops)",
	  +1, CMP_PRIMARY, m_per_task, NULL },
	{ "min_task_ops", "ops/s", "ops/s of the slowest task (fairness)",
	  +1, CMP_SECONDARY, m_min_task, NULL },
	{ "scalability", "ratio", "ops(N) / (N x ops(1)) in the same run",
	  +1, CMP_SECONDARY, m_scalability, NULL },
	/* the workloads' own figures, from their aux counters */
	{ "rx_mbps", "Mbit/s", "sendfile: Mbit/s received per task (LKP netperf.Throughput_Mbps)",
	  +1, CMP_SECONDARY, m_rx_mbps, NULL },
	{ "bogo_ops", "bogo-ops/s", "remap: stress-ng bogo-ops/s of all tasks (LKP remap.ops_per_sec)",
	  +1, CMP_SECONDARY, m_bogo_ops, NULL },
	/* perf counters (run -e), from the point's "perf" section */
	RES_PERF_METRICS(CMP_PERF_ROW_)
	/* latency of the concurrent stats reader (run --stat-reader); the
	 * tail percentiles are noisier and get the tail threshold */
	{ "stat_p50", "ns", "median latency of one read of the stat file (--stat-reader)",
	  -1, CMP_SECONDARY, NULL, "stat_reader.summary.p50_ns" },
	{ "stat_p90", "ns", "90th percentile latency of a stat-file read",
	  -1, CMP_SECONDARY, NULL, "stat_reader.summary.p90_ns" },
	{ "stat_p99", "ns", "99th percentile latency of a stat-file read",
	  -1, CMP_TAIL, NULL, "stat_reader.summary.p99_ns" },
	{ "stat_p99_9", "ns", "99.9th percentile latency of a stat-file read",
	  -1, CMP_TAIL, NULL, "stat_reader.summary.p99_9_ns" },
	{ "stat_max", "ns", "slowest stat-file read",
	  -1, CMP_TAIL, NULL, "stat_reader.summary.max_ns" },
	/* CPU time of the tasks over the window (on by default; seed 004) */
	{ "sys_us_per_op", "us/op", "system CPU time of the tasks per op",
	  -1, CMP_SECONDARY, NULL, "cputime.sys_us_per_op" },
	{ "user_us_per_op", "us/op", "user CPU time of the tasks per op",
	  -1, CMP_SECONDARY, NULL, "cputime.user_us_per_op" },
	/* /proc/vmstat over the window, system-wide, named as LKP does: per
	 * second they follow the throughput, per op they are work per op */
	{ "proc-vmstat.pgfault", "/s", "page faults per second, system-wide",
	  +1, CMP_SECONDARY, NULL, "vmstat.per_sec.pgfault" },
	{ "proc-vmstat.pgfault.per_op", "/op", "page faults per op, system-wide",
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op.pgfault" },
	{ "proc-vmstat.pgalloc_normal", "/s", "pages allocated from ZONE_NORMAL per second",
	  +1, CMP_SECONDARY, NULL, "vmstat.per_sec.pgalloc_normal" },
	{ "proc-vmstat.pgalloc_normal.per_op", "/op", "pages allocated from ZONE_NORMAL per op",
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op.pgalloc_normal" },
	{ "proc-vmstat.pgfree", "/s", "pages freed per second",
	  +1, CMP_SECONDARY, NULL, "vmstat.per_sec.pgfree" },
	{ "proc-vmstat.pgfree.per_op", "/op", "pages freed per op",
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op.pgfree" },
	{ "proc-vmstat.numa_hit", "/s", "allocations on the intended node per second",
	  +1, CMP_SECONDARY, NULL, "vmstat.per_sec.numa_hit" },
	{ "proc-vmstat.numa_hit.per_op", "/op", "allocations on the intended node per op",
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op.numa_hit" },
	/* memcg stats flushing (run --trace memcg-flush): flushes of the
	 * point's own cgroups, and the rstat lock per flush, system-wide */
	{ "flush_per_sec", "/s", "memcg stats flushes of the point's cgroups per second (--trace)",
	  -1, CMP_SECONDARY, NULL, "trace.flush.flushed.own_per_sec" },
	{ "flush_per_op", "/op", "memcg stats flushes of the point's cgroups per op",
	  -1, CMP_SECONDARY, NULL, "trace.flush.flushed.own_per_op" },
	{ "flush_per_read", "/read", "memcg stats flushes of the point's cgroups per --stat-reader read",
	  -1, CMP_SECONDARY, NULL, "trace.flush.flushed.own_per_read" },
	{ "rstat_hold_p50", "ns", "median time the rstat lock was held per flush (--trace)",
	  -1, CMP_SECONDARY, NULL, "trace.rstat_lock.hold_per_flush.p50_ns" },
	{ "rstat_hold_p99", "ns", "99th percentile rstat lock hold per flush",
	  -1, CMP_TAIL, NULL, "trace.rstat_lock.hold_per_flush.p99_ns" },
	{ "rstat_hold_max", "ns", "longest rstat lock hold per flush",
	  -1, CMP_TAIL, NULL, "trace.rstat_lock.hold_per_flush.max_ns" },
	{ "rstat_wait_p99", "ns", "99th percentile wait for the rstat lock per flush",
	  -1, CMP_TAIL, NULL, "trace.rstat_lock.wait_per_flush.p99_ns" },
	{ "rstat_wait_max", "ns", "longest wait for the rstat lock per flush",
	  -1, CMP_TAIL, NULL, "trace.rstat_lock.wait_per_flush.max_ns" },
};
const size_t cmp_nmetrics = ARRAY_SIZE(cmp_metrics);

_Static_assert(ARRAY_SIZE(cmp_metrics) <= CMP_MAX_METRICS,
	       "raise CMP_MAX_METRICS");

double cmp_metric_value(const struct cmp_metric *m, const struct res_point *p)
{
	struct json_object *o = p->extra;
	char part[128];
	const char *s;

	if (m->get)
		return m->get(p);
	for (s = m->extra_path; o && s && *s;) {
		size_t n = strcspn(s, ".");

		snprintf(part, sizeof(part), "%.*s", (int)n, s);
		if (!json_object_object_get_ex(o, part, &o))
			return NAN;
		s += n + (s[n] == '.');
	}
	if (o && (json_object_is_type(o, json_type_double) ||
		  json_object_is_type(o, json_type_int)))
		return json_object_get_double(o);
	return NAN;
}

const char *cmp_point_layout(const struct res_point *p)
{
	struct json_object *c = NULL, *l = NULL;

	if (!p->extra || !json_object_object_get_ex(p->extra, "cgroup", &c) || !c)
		return "none";
	if (json_object_is_type(c, json_type_string))
		return json_object_get_string(c);
	if (json_object_object_get_ex(c, "layout", &l) &&
	    json_object_is_type(l, json_type_string))
		return json_object_get_string(l);
	return "none";
}

void cmp_opts_default(struct cmp_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold[CMP_PRIMARY] = 2;
	o->threshold[CMP_SECONDARY] = 5;
	o->threshold[CMP_TAIL] = 10;
	o->max_cov = 5;
	o->alpha = 0.05;
	o->axis = "kernel";
	o->seed = 1;
	o->resamples = 10000;
}

int cmp_note(struct cmp_result *r, const char *fmt, ...)
{
	char **v = realloc(r->notes, (r->nnotes + 1) * sizeof(*v));
	va_list ap;
	int n;

	if (!v)
		return -ENOMEM;
	r->notes = v;
	va_start(ap, fmt);
	n = vasprintf(&v[r->nnotes], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	r->nnotes++;
	return 0;
}

void cmp_group_name(const struct cmp_group *g, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s tasks=%u%s%s%s%s", g->test, g->mode, g->tasks,
		 g->layout && strcmp(g->layout, "none") ? " cgroup=" : "",
		 g->layout && strcmp(g->layout, "none") ? g->layout : "",
		 *g->wopts ? " " : "", g->wopts);
}

int cmp_exit_status(const struct cmp_result *r)
{
	bool regression = r->count[CMP_REGRESSION] > 0;
	bool undecided = r->count[CMP_INCONCLUSIVE] + r->count[CMP_NOISY] > 0;

	if (r->o.bisect)
		return regression ? 1 : undecided ? CMP_EXIT_BISECT_SKIP : 0;
	if (regression)
		return CMP_EXIT_REGRESSION;
	if (undecided && r->o.fail_on_inconclusive)
		return CMP_EXIT_INCONCLUSIVE;
	return CMP_EXIT_OK;
}
