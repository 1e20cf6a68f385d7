/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf_metric.h - the derived perf metrics (run -e): one table, read by
 * the runner to compute them into a point's "perf.metrics" and label its
 * table lines, by the report to describe them, and by compare to compare
 * them. A new metric is one more RES_PERF_METRICS row.
 */
#ifndef CGS_PERF_METRIC_H
#define CGS_PERF_METRIC_H

#include <linux/perf_event.h>
#include <stdint.h>

/* How a metric comes from the per-event totals of a point. */
enum res_perf_how {
	RES_PERF_RATIO,   /* scale x num / den, both counted alike; on num's line */
	RES_PERF_CLOCK,   /* software clock num in ns / elapsed s; on num's line */
	RES_PERF_PER_OP,  /* num per op; on no line */
};

/*
 * The rows, in the order compare lists the compared ones:
 *   X(id, name, how, type (HW or SW), num, den, scale, label, what,
 *     cmp, dir, unit, cmp_desc)
 * label: the run table's note on the event's line (printf of the value),
 * or NULL; what: the report's description; cmp YES/NO: compared by
 * `cgscale compare`, with dir (+1 higher is better), unit and cmp_desc.
 */
#define RES_PERF_METRICS(X) \
	X(PATH_LENGTH, "path_length", RES_PERF_PER_OP, HW, PERF_COUNT_HW_INSTRUCTIONS, 0, 1, \
	  NULL, "instructions per op, LKP's path-length (lower is better)", \
	  YES, -1, "instr/op", "instructions per op, LKP's path-length (perf)") \
	X(IPC, "ipc", RES_PERF_RATIO, HW, PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES, 1, \
	  "# %8.2f  insn per cycle", "instructions per cycle (higher is better)", \
	  YES, +1, "instr/cycle", "instructions per cycle (perf)") \
	X(CPI, "cpi", RES_PERF_RATIO, HW, PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS, 1, \
	  "# %8.2f  cycles per insn", "cycles per instruction (lower is better)", \
	  NO, -1, NULL, NULL) \
	X(CACHE_MISS_PCT, "cache_miss_pct", RES_PERF_RATIO, HW, PERF_COUNT_HW_CACHE_MISSES, \
	  PERF_COUNT_HW_CACHE_REFERENCES, 100, \
	  "# %8.2f%% of all cache refs", "cache misses, % of references (lower is better)", \
	  YES, -1, "%", "cache-misses per cache-reference (perf)") \
	X(BRANCH_MISS_PCT, "branch_miss_pct", RES_PERF_RATIO, HW, PERF_COUNT_HW_BRANCH_MISSES, \
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100, \
	  "# %8.2f%% of all branches", "branch misses, % of branches (lower is better)", \
	  YES, -1, "%", "branch-misses per branch (perf)") \
	X(CPUS_UTILIZED, "cpus_utilized", RES_PERF_CLOCK, SW, \
	  PERF_COUNT_SW_TASK_CLOCK, 0, 1, \
	  "# %8.2f  CPUs utilized", "CPUs busy: task-clock / elapsed time", \
	  NO, +1, NULL, NULL)

#define RES_PERF_ID_(id, ...) RES_PERF_##id,
enum res_perf_id { RES_PERF_METRICS(RES_PERF_ID_) RES_NPERF };

struct res_perf_metric {
	const char *name;       /* its key in "perf.metrics" */
	enum res_perf_how how;
	uint32_t type;          /* perf_event_attr type and config of the */
	uint64_t num, den;      /* numerator and denominator events */
	double scale;
	const char *label;      /* run table note, a printf format; or NULL */
	const char *what;       /* the report's description */
};
extern const struct res_perf_metric res_perf_metrics[RES_NPERF];

/* The row named @name, or NULL. */
const struct res_perf_metric *res_perf_find(const char *name);

#endif
