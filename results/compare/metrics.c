/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics.c - the metric table of `cgscale compare` (one line per
 * metric: name, unit, direction, threshold class, extractor), how a
 * metric and a point's cgroup layout are read, the default options, and
 * the exit status that the verdicts give. Knobs: cmp_base_metrics[].
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/model.h"
#include "results/model/perf_metric.h"
#include "lib/esc.h"
#include "lib/macros.h"
#include "lib/util.h"

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

/* allocstall_dma, _dma32, _normal, _movable, _device: together. */
static double m_allocstall(const struct res_point *p)
{
	struct json_object *v = NULL, *po = NULL;
	double sum = 0;

	if (!p->extra || !json_object_object_get_ex(p->extra, "vmstat", &v) ||
	    !json_object_object_get_ex(v, "per_op", &po) ||
	    !json_object_is_type(po, json_type_object))
		return NAN;
	json_object_object_foreach(po, k, x)
		if (!strncmp(k, "allocstall_", 11) && (json_object_is_type(x, json_type_double) ||
						       json_object_is_type(x, json_type_int)))
			sum += json_object_get_double(x);
	return sum;
}

/* A vmstat key per op and one of the leaves' memory.stat. */
#define CMP_VM_ROW(key, desc) \
	{ "proc-vmstat." key ".per_op", "/op", desc ", per op, system-wide", \
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op." key "|0", NULL },
#define CMP_MEMCG_ROW(key, desc) \
	{ "memcg." key ".per_op", "/op", desc ", per op (memory.stat)", \
	  -1, CMP_SECONDARY, NULL, "cgroup.memory_stat.per_op." key "|0", NULL },

/* The derived perf metrics that compare compares (perf_metric.h). */
#define CMP_PERF_ROW_YES(nm, dir, unit, desc) \
	{ nm, unit, desc, dir, CMP_SECONDARY, NULL, "perf.metrics." nm, NULL },
#define CMP_PERF_ROW_NO(nm, dir, unit, desc)
#define CMP_PERF_ROW_(id, nm, how, ty, num, den, sc, lab, wh, cmp, dir, unit, desc) \
	CMP_PERF_ROW_##cmp(nm, dir, unit, desc)

/* CPU time of one "who" per op, from the sampled CPUs. */
#define WHO_ROW(w, desc) \
	{ "who." #w, "ns/op", "CPU time of " desc " per op, sampled on the CPUs (--profile-scope)", \
	  -1, CMP_SECONDARY, NULL, "profile_scope.who." #w ".ns_per_op", NULL },

/*
 * The metrics, one line each: an extractor, or a dotted path to a number
 * in the point's extra sections (absent: the metric is not compared).
 */
const struct cmp_metric cmp_base_metrics[] = {
	{ "per_task_ops", "ops/s",
	  "mean ops/s of one task (LKP per_process_ops / per_thread_ops)",
	  +1, CMP_PRIMARY, m_per_task, NULL, NULL },
	{ "min_task_ops", "ops/s", "ops/s of the slowest task (fairness)",
	  +1, CMP_SECONDARY, m_min_task, NULL, NULL },
	{ "scalability", "ratio", "ops(N) / (N x ops(1)) in the same run",
	  +1, CMP_SECONDARY, m_scalability, NULL, NULL },
	/* here the workloads' own figures: aux.NAME per aux counter of the
	 * inputs, per task, in the unit the result gives (struct cmp_mset) */
	{ NULL, NULL, NULL, +1, CMP_SECONDARY, NULL, NULL, NULL },
	/* perf counters (run -e), from the point's "perf" section */
	RES_PERF_METRICS(CMP_PERF_ROW_)
	/* latency of the concurrent stats reader (run --stat-reader); the
	 * tail percentiles are noisier and get the tail threshold */
	{ "stat_p50", "ns", "median latency of one read of the stat file (--stat-reader)",
	  -1, CMP_SECONDARY, NULL, "stat_reader.summary.p50_ns", NULL },
	{ "stat_p90", "ns", "90th percentile latency of a stat-file read",
	  -1, CMP_SECONDARY, NULL, "stat_reader.summary.p90_ns", NULL },
	{ "stat_p99", "ns", "99th percentile latency of a stat-file read",
	  -1, CMP_TAIL, NULL, "stat_reader.summary.p99_ns", NULL },
	{ "stat_p99_9", "ns", "99.9th percentile latency of a stat-file read",
	  -1, CMP_TAIL, NULL, "stat_reader.summary.p99_9_ns", NULL },
	{ "stat_max", "ns", "slowest stat-file read",
	  -1, CMP_TAIL, NULL, "stat_reader.summary.max_ns", NULL },
	/* CPU time of the tasks over the window (on by default) */
	{ "sys_us_per_op", "us/op", "system CPU time of the tasks per op",
	  -1, CMP_SECONDARY, NULL, "cputime.sys_us_per_op", NULL },
	{ "user_us_per_op", "us/op", "user CPU time of the tasks per op",
	  -1, CMP_SECONDARY, NULL, "cputime.user_us_per_op", NULL },
	/* the account of a task's time per op (on by default): user + sys +
	 * run-queue + blocked = wall. A part is judged as a share of the
	 * wall (cmp_part_rules[]), so a near-zero part that doubles is no
	 * regression */
	{ "wall_ns_per_op", "ns/op", "wall time of a task per op (1e9 / per-task ops/s), from the account",
	  -1, CMP_SECONDARY, NULL, "account.wall_ns_per_op", NULL },
	{ "user_ns_per_op", "ns/op", "of the wall time per op: running in user mode",
	  -1, CMP_SECONDARY, NULL, "account.user_ns_per_op", NULL },
	{ "sys_ns_per_op", "ns/op", "of the wall time per op: running in the kernel",
	  -1, CMP_SECONDARY, NULL, "account.sys_ns_per_op", NULL },
	{ "runq_ns_per_op", "ns/op", "of the wall time per op: runnable, waiting on a run queue",
	  -1, CMP_SECONDARY, NULL, "account.runq_ns_per_op", NULL },
	{ "blocked_ns_per_op", "ns/op", "of the wall time per op: off the CPU, not runnable (a lock, I/O, a sleep)",
	  -1, CMP_SECONDARY, NULL, "account.blocked_ns_per_op", NULL },
	/* /proc/vmstat over the window, system-wide, named as LKP does: per
	 * second they follow the throughput, per op they are work per op */
	{ "proc-vmstat.pgfault", "/s", "page faults per second, system-wide",
	  +1, CMP_SECONDARY, NULL, "vmstat.per_sec.pgfault", NULL },
	{ "proc-vmstat.pgfault.per_op", "/op", "page faults per op, system-wide",
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op.pgfault", NULL },
	{ "proc-vmstat.pgalloc_normal", "/s", "pages allocated from ZONE_NORMAL per second",
	  +1, CMP_SECONDARY, NULL, "vmstat.per_sec.pgalloc_normal", NULL },
	{ "proc-vmstat.pgalloc_normal.per_op", "/op", "pages allocated from ZONE_NORMAL per op",
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op.pgalloc_normal", NULL },
	{ "proc-vmstat.pgfree", "/s", "pages freed per second",
	  +1, CMP_SECONDARY, NULL, "vmstat.per_sec.pgfree", NULL },
	{ "proc-vmstat.pgfree.per_op", "/op", "pages freed per op",
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op.pgfree", NULL },
	{ "proc-vmstat.numa_hit", "/s", "allocations on the intended node per second",
	  +1, CMP_SECONDARY, NULL, "vmstat.per_sec.numa_hit", NULL },
	{ "proc-vmstat.numa_hit.per_op", "/op", "allocations on the intended node per op",
	  -1, CMP_SECONDARY, NULL, "vmstat.per_op.numa_hit", NULL },
	/* reclaim, refaults, THP and compaction per op, system-wide; a key
	 * vmstat left out did not change: 0 ("|0") */
	CMP_VM_ROW("pgscan_file", "file pages scanned by reclaim (any reclaim, memcg's too)")
	CMP_VM_ROW("pgscan_anon", "anon pages scanned by reclaim")
	CMP_VM_ROW("pgsteal_file", "file pages reclaimed")
	CMP_VM_ROW("pgsteal_anon", "anon pages reclaimed")
	CMP_VM_ROW("pgscan_direct", "pages scanned by direct reclaim of the whole machine (not memcg's)")
	CMP_VM_ROW("pgscan_kswapd", "pages scanned by kswapd")
	CMP_VM_ROW("workingset_refault_file", "file pages faulted back in soon after reclaim")
	CMP_VM_ROW("workingset_refault_anon", "anon pages faulted back in soon after reclaim")
	{ "proc-vmstat.allocstall.per_op", "/op", "allocations that entered direct reclaim (allocstall_*), per op",
	  -1, CMP_SECONDARY, m_allocstall, NULL, NULL },
	CMP_VM_ROW("pgmajfault", "major faults (read from storage)")
	CMP_VM_ROW("thp_fault_alloc", "huge pages allocated at a fault")
	CMP_VM_ROW("thp_fault_fallback", "faults that wanted a huge page and fell back to small ones")
	CMP_VM_ROW("compact_stall", "allocations that stalled in direct compaction")
	CMP_VM_ROW("compact_fail", "direct compactions that failed")
	/* the point's own cgroups, so neighbours do not count: the leaves'
	 * memory.stat over the window, and the tree's charge failures
	 * (v1 failcnt) or limit events (v2 memory.events) */
	CMP_MEMCG_ROW("pgfault", "page faults charged to the leaves (the tasks' own)")
	CMP_MEMCG_ROW("pgmajfault", "major faults charged to the leaves")
	CMP_MEMCG_ROW("pgscan", "pages the leaves' reclaim scanned (v2)")
	CMP_MEMCG_ROW("pgsteal", "pages the leaves' reclaim freed (v2)")
	CMP_MEMCG_ROW("workingset_refault_file", "the leaves' file pages faulted back in after reclaim")
	CMP_MEMCG_ROW("workingset_refault_anon", "the leaves' anon pages faulted back in after reclaim")
	{ "memcg.failcnt.per_op", "/op", "charges that hit a limit in the point's cgroups (v1 memory.failcnt), per op",
	  -1, CMP_SECONDARY, NULL, "cgroup.events_window.per_op.failcnt|0", NULL },
	{ "memcg.events.max.per_op", "/op", "times the point's cgroups hit memory.max (v2 memory.events max), per op",
	  -1, CMP_SECONDARY, NULL, "cgroup.events_window.per_op.max|0", NULL },
	{ "memcg.events.high.per_op", "/op", "times they went over memory.high (v2 memory.events high), per op",
	  -1, CMP_SECONDARY, NULL, "cgroup.events_window.per_op.high|0", NULL },
	/* memcg stats flushing (run --trace memcg-flush): flushes of the
	 * point's own cgroups, and the rstat lock per flush, system-wide */
	{ "flush_per_sec", "/s", "memcg stats flushes of the point's cgroups per second (--trace)",
	  -1, CMP_SECONDARY, NULL, "trace.flush.flushed.own_per_sec", NULL },
	{ "flush_per_op", "/op", "memcg stats flushes of the point's cgroups per op",
	  -1, CMP_SECONDARY, NULL, "trace.flush.flushed.own_per_op", NULL },
	{ "flush_per_read", "/read", "memcg stats flushes of the point's cgroups per --stat-reader read",
	  -1, CMP_SECONDARY, NULL, "trace.flush.flushed.own_per_read", NULL },
	{ "rstat_hold_per_sec", "ns/s", "total time the rstat lock was held per second, system-wide (--trace)",
	  -1, CMP_SECONDARY, NULL, "trace.rstat_lock.hold_ns_per_sec", NULL },
	{ "rstat_hold_per_op", "ns/op", "total time the rstat lock was held per op, system-wide",
	  -1, CMP_SECONDARY, NULL, "trace.rstat_lock.hold_ns_per_op", NULL },
	{ "rstat_wait_per_op", "ns/op", "total time spent waiting for the rstat lock per op, system-wide",
	  -1, CMP_SECONDARY, NULL, "trace.rstat_lock.wait_ns_per_op", NULL },
	/* the distribution of one flush's hold and wait: informational,
	 * capped by the totals above (cmp_cap_rules[]) */
	{ "rstat_hold_p50", "ns", "median time the rstat lock was held per flush (--trace)",
	  -1, CMP_SECONDARY, NULL, "trace.rstat_lock.hold_per_flush.p50_ns", NULL },
	{ "rstat_hold_p99", "ns", "99th percentile rstat lock hold per flush",
	  -1, CMP_TAIL, NULL, "trace.rstat_lock.hold_per_flush.p99_ns", NULL },
	{ "rstat_hold_max", "ns", "longest rstat lock hold per flush",
	  -1, CMP_TAIL, NULL, "trace.rstat_lock.hold_per_flush.max_ns", NULL },
	{ "rstat_wait_p99", "ns", "99th percentile wait for the rstat lock per flush",
	  -1, CMP_TAIL, NULL, "trace.rstat_lock.wait_per_flush.p99_ns", NULL },
	{ "rstat_wait_max", "ns", "longest wait for the rstat lock per flush",
	  -1, CMP_TAIL, NULL, "trace.rstat_lock.wait_per_flush.max_ns", NULL },
	/* lock contention (run --trace locks): the tasks' waits per op, in
	 * all and per lock (a family: one row per lock the inputs name) */
	{ "lock_wait_ns_per_op", "ns/op", "time the tasks waited on contended kernel locks per op (--trace locks)",
	  -1, CMP_SECONDARY, NULL, "trace.locks.tasks.wait_ns_per_op", NULL },
	{ "lock_waits_per_op", "/op", "contended lock acquisitions of the tasks per op",
	  -1, CMP_SECONDARY, NULL, "trace.locks.tasks.waits_per_op", NULL },
	{ "lock_wait.NAME", "ns/op", "the tasks' wait per op on one lock, named as trace.locks names it",
	  -1, CMP_SECONDARY, NULL, "trace.locks.wait_ns_per_op_by_lock", NULL },
	/* the reader's own functions, self time per op (a family; a function
	 * absent from a run that sampled the reader had no sample: 0) */
	{ "stat_reader.fn.NAME", "ns/op", "the --stat-reader thread's self time per op in one function (--profile-scope system|cgroup)",
	  -1, CMP_SECONDARY, NULL, "profile_scope.who.stat_reader.self_ns_per_op|0", NULL },
	/* who ran in the window, per op (run --profile-scope system|cgroup) */
	WHO_ROW(tasks, "the measured tasks")
	WHO_ROW(stat_reader, "the --stat-reader thread")
	WHO_ROW(runner, "cgscale's own other threads (the sampler)")
	WHO_ROW(kworker, "kernel workers (kworker/*)")
	WHO_ROW(kswapd, "kswapd")
	WHO_ROW(softirq, "softirqs (on any task, and ksoftirqd)")
	WHO_ROW(others, "every other task")
};
const size_t cmp_nbase_metrics = ARRAY_SIZE(cmp_base_metrics);

/* The account's parts, judged as shares of the wall time per op. */
const struct cmp_rule cmp_part_rules[] = {
	{ "user_ns_per_op", "wall_ns_per_op" },
	{ "sys_ns_per_op", "wall_ns_per_op" },
	{ "runq_ns_per_op", "wall_ns_per_op" },
	{ "blocked_ns_per_op", "wall_ns_per_op" },
};
const size_t cmp_npart_rules = ARRAY_SIZE(cmp_part_rules);

/* A lock's percentiles per flush answer to its total time per op: more,
 * shorter holds lower the median while the lock is held longer in all. */
const struct cmp_rule cmp_cap_rules[] = {
	{ "rstat_hold_p50", "rstat_hold_per_op" },
	{ "rstat_hold_p99", "rstat_hold_per_op" },
	{ "rstat_hold_max", "rstat_hold_per_op" },
	{ "rstat_wait_p99", "rstat_wait_per_op" },
	{ "rstat_wait_max", "rstat_wait_per_op" },
};
const size_t cmp_ncap_rules = ARRAY_SIZE(cmp_cap_rules);

/* a point's aux counters always fit: one point's set never fails */
_Static_assert(ARRAY_SIZE(cmp_base_metrics) + CGS_MAX_AUX + CMP_MAX_FAMILY + CMP_MAX_DECL <= CMP_MAX_METRICS,
	       "raise CMP_MAX_METRICS");

/* The base rows with the aux rows at the marker. */
static void mset_assemble(struct cmp_mset *ms)
{
	ms->n = 0;
	for (size_t b = 0; b < cmp_nbase_metrics; b++) {
		if (cmp_base_metrics[b].name) {
			ms->m[ms->n++] = cmp_base_metrics[b];
			cmp_family_expand(ms, cmp_base_metrics, b, &ms->n);
			continue;
		}
		for (unsigned k = 0; k < ms->naux; k++) {
			struct cmp_metric *mt = &ms->m[ms->n++];

			*mt = cmp_base_metrics[b];
			mt->name = ms->aux_name[k];
			mt->unit = ms->aux_unit[k];
			mt->desc = "a workload's aux counter, per task";
			mt->aux = ms->aux_src[k];
		}
	}
	cmp_decl_expand(ms, &ms->n);
}

void cmp_mset_init(struct cmp_mset *ms)
{
	memset(ms, 0, sizeof(*ms));
	mset_assemble(ms);
}

int cmp_mset_add_point(struct cmp_mset *ms, const struct res_point *p)
{
	for (unsigned k = 0; k < p->naux && k < CGS_MAX_AUX; k++) {
		char esc[256];
		unsigned a;

		for (a = 0; a < ms->naux && strcmp(ms->aux_src[a], p->aux_name[k]); a++)
			;
		if (a < ms->naux)
			continue;
		if (cmp_nbase_metrics + ms->naux + CMP_MAX_FAMILY + CMP_MAX_DECL >= CMP_MAX_METRICS)
			return -E2BIG;
		ms->aux_src[a] = p->aux_name[k];
		ms->aux_unit[a] = p->aux_unit[k] ? p->aux_unit[k] : "";
		/* the file's name, escaped: it is a column of text formats */
		snprintf(ms->aux_name[a], sizeof(ms->aux_name[a]), "aux.%s",
			 cgs_esc(p->aux_name[k], esc, sizeof(esc)));
		ms->naux++;
	}
	cmp_family_add_point(ms, p, cmp_base_metrics, cmp_nbase_metrics);
	mset_assemble(ms);
	return 0;
}

int cmp_mset_add(struct cmp_mset *ms, const struct res_file *f)
{
	int rc = 0;

	cmp_decl_add_file(ms, f, cmp_base_metrics, cmp_nbase_metrics);
	for (unsigned i = 0; !rc && i < f->npoints; i++)
		rc = cmp_mset_add_point(ms, &f->points[i]);
	mset_assemble(ms);
	return rc;
}

int cmp_mset_find(const struct cmp_mset *ms, const char *name)
{
	for (size_t m = 0; m < ms->n; m++)
		if (!strcmp(ms->m[m].name, name))
			return (int)m;
	return -1;
}

int cmp_mset_build(struct cmp_result *r, char *err, size_t errlen)
{
	char *copy, *save, *tok;
	int rc = 0;

	cmp_mset_init(&r->ms);
	for (unsigned s = 0; !rc && s < r->nsides; s++)
		for (unsigned f = 0; !rc && f < r->sides[s].nfiles; f++)
			rc = cmp_mset_add(&r->ms, &r->sides[s].files[f].res);
	if (rc)
		return cgs_errf(err, errlen, rc, "more aux counters than compare can hold (%d metrics)",
				CMP_MAX_METRICS);
	if (r->ms.ndecl_refused && (rc = cmp_note(r, "%u metric%s that the files' sections declare "
						  "not compared: %s", r->ms.ndecl_refused,
						  r->ms.ndecl_refused > 1 ? "s" : "", r->ms.decl_why)))
		return cgs_errf(err, errlen, rc, "out of memory");
	if (!r->o.metrics)
		return 0;
	if (!(copy = strdup(r->o.metrics)))
		return -ENOMEM;
	for (size_t m = 0; m < r->ms.n; m++)
		r->o.metric_off[m] = true;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		int m = cmp_mset_find(&r->ms, tok);

		if (m < 0)
			rc = cgs_errf(err, errlen, -EINVAL, "--metrics: unknown metric '%s'; see --help", tok);
		else
			r->o.metric_off[m] = false;
	}
	free(copy);
	return rc;
}

/* A family member's number: key @key of @o, the whole rest (dots and
 * all); "KEY|0": 0 when @o is there without it. */
static double family_value(struct json_object *o, const char *key)
{
	size_t n = strlen(key);
	bool zero = n > 2 && !strcmp(key + n - 2, "|0");
	char k[256];

	snprintf(k, sizeof(k), "%.*s", (int)(zero ? n - 2 : n), key);
	if (!o || !json_object_is_type(o, json_type_object))
		return NAN;
	if (!json_object_object_get_ex(o, k, &o))
		return zero ? 0 : NAN;
	return json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int) ?
	       json_object_get_double(o) : NAN;
}

double cmp_metric_value(const struct cmp_metric *m, const struct res_point *p)
{
	struct json_object *o = p->extra, *next;
	char part[128];
	const char *s;

	if (m->get)
		return m->get(p);
	if (m->aux) {
		for (unsigned k = 0; k < p->naux && k < CGS_MAX_AUX; k++)
			if (!strcmp(p->aux_name[k], m->aux))
				return p->sum.aux_task_rate[k];
		return NAN;
	}
	/* a '/' makes the rest one key, dots and all (family.c) */
	for (s = m->extra_path; o && s && *s;) {
		size_t n = strcspn(s, "./|");
		bool last = s[n] != '.' && s[n] != '/';

		snprintf(part, sizeof(part), "%.*s", (int)n, s);
		if (!json_object_object_get_ex(o, part, &next))
			/* "a.b.key|0": a key absent from a section that is there
			 * is 0 (vmstat writes only the keys that changed) */
			return last && !strcmp(s + n, "|0") &&
			       json_object_is_type(o, json_type_object) ? 0 : NAN;
		o = next;
		if (s[n] == '/')
			return family_value(o, s + n + 1);
		if (last)
			break;
		s += n + 1;
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

/* The strings come from the result files: escaped (lib/esc.h), so that a
 * name is one line that drives no terminal, in every format. */
void cmp_group_name(const struct cmp_group *g, char *buf, size_t len)
{
	char t[256], m[64], l[512], w[512];
	bool lay = g->layout && strcmp(g->layout, "none");

	snprintf(buf, len, "%s %s tasks=%u%s%s%s%s", cgs_esc(g->test, t, sizeof(t)),
		 cgs_esc(g->mode, m, sizeof(m)), g->tasks, lay ? " cgroup=" : "",
		 lay ? cgs_esc(g->layout, l, sizeof(l)) : "",
		 *g->wopts ? " " : "", cgs_esc(g->wopts, w, sizeof(w)));
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
