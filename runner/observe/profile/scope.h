/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scope.h - `--profile-scope tasks|cgroup|system`: who used the CPUs in
 * the measured window. `tasks` (the default) adds nothing: --profile
 * samples the measured tasks alone. `system` samples every CPU with the
 * software cpu-clock (pid -1, one event per CPU, a fixed period of
 * 1e9/997 ns) and gives each sample to who ran: the measured tasks, the
 * --stat-reader thread, cgscale's own other threads, kernel workers,
 * kswapd, softirqs (a callchain through the softirq entry, on any task,
 * or ksoftirqd), the idle task, or others (named by comm), so work done
 * outside the tasks for them (a reader's flushes, a kworker's) shows, in
 * ns per op: samples x period / ops. `cgroup` limits the sampling to the
 * run's cgroups (PERF_FLAG_PID_CGROUP on level 1 of cgscale's tree in
 * the perf_event hierarchy), or says why it cannot.
 *
 * scope_calc.c classifies and counts (pure, unit-tested on fixed sample
 * buffers), scope_cg.c finds the cgroup, scope.c is the observer.
 */
#ifndef CGS_SCOPE_H
#define CGS_SCOPE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/statfile.h"
#include "lib/symtab.h"

struct json_object;
struct cg_layout;

#define CGS_SCOPE_HZ 997
#define CGS_SCOPE_MAX_STACK 64      /* kernel frames a sample keeps */
#define CGS_SCOPE_READER_COMM "cgs-statreader"   /* statread.c names it */

enum cgs_scope { CGS_SCOPE_TASKS, CGS_SCOPE_CGROUP, CGS_SCOPE_SYSTEM };
extern const char *const cgs_scope_names[];

enum cgs_who {
	CGS_WHO_TASKS, CGS_WHO_STAT_READER, CGS_WHO_RUNNER, CGS_WHO_KWORKER,
	CGS_WHO_KSWAPD, CGS_WHO_SOFTIRQ, CGS_WHO_IDLE, CGS_WHO_OTHERS, CGS_WHO_N
};
extern const char *const cgs_who_names[];

/* ---- scope_calc.c ---- */

/* The comm of thread @tid of process @pid, or NULL when unknown. */
typedef const char *cgs_scope_comm_fn(void *arg, int pid, int tid);

/* Who runs the point, as the calculation sees it. */
struct cgs_scope_ids {
	const int *task_tid;          /* the measured tasks */
	unsigned ntasks;
	int runner_pid;               /* cgscale's process (getpid) */
	int reader_tid;               /* 0: no --stat-reader */
	const struct cgs_symtab *ksyms;   /* names the frames; may be empty */
	cgs_scope_comm_fn *comm;
	void *comm_arg;
};

struct cgs_scopecalc;

struct cgs_scopecalc *cgs_scopecalc_new(const struct cgs_scope_ids *ids);
void cgs_scopecalc_free(struct cgs_scopecalc *c);

/* One decoded sample. */
struct cgs_scope_sample {
	int pid, tid, cpu;
	uint64_t period;              /* ns of CPU time it stands for */
	bool user;                    /* taken in user mode */
	uint64_t ips[CGS_SCOPE_MAX_STACK];   /* kernel frames, leaf first */
	unsigned nips;
};

/* Decode a PERF_RECORD_SAMPLE (sample_type IP | TID | TIME | CPU |
 * PERIOD | CALLCHAIN). 0, or -EINVAL when it is cut short. */
int cgs_scope_decode(const struct perf_event_header *h, struct cgs_scope_sample *s);
/* Who ran sample @s. */
enum cgs_who cgs_scope_who(const struct cgs_scopecalc *c, const struct cgs_scope_sample *s,
			   const char **comm);
/* Count one record of the rings: a sample, a COMM (a thread's new
 * name), a LOST; others are ignored. */
void cgs_scopecalc_record(struct cgs_scopecalc *c, const struct perf_event_header *h);
/* The profile_scope section's figures: "who", "others_by_comm",
 * "samples"; @elapsed_ns x @ncpus is the CPU time sampled. */
struct json_object *cgs_scopecalc_json(const struct cgs_scopecalc *c, uint64_t ops,
				       int64_t elapsed_ns, int ncpus);

/* ---- scope_cg.c ---- */

/*
 * The directory of level 1 of cgscale's tree in the perf_event hierarchy
 * of layout @l, from task 0's /proc/PID/cgroup text @proc_cgroup and the
 * point's cgroups @cg (NULL or depth 0: none). @v2_perf: the kernel has
 * the perf_event controller (/proc/cgroups), implicit on cgroup v2 when
 * no v1 hierarchy holds it. 0 with @dir; -EOPNOTSUPP with why not in
 * @why (which names what to use instead). Pure, for unit tests.
 */
int cgs_scope_cgroup_in(const struct cg_layout *l, bool v2_perf,
			const char *proc_cgroup, const struct cgs_cgview *cg,
			char *dir, size_t dlen, char *why, size_t wlen);
/* The same for process @pid, with the layout from /proc. */
int cgs_scope_cgroup(int pid, const struct cgs_cgview *cg, char *dir, size_t dlen,
		     char *why, size_t wlen);

#endif
