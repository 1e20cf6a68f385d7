/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * point_int.h - what point.c shares with the files it delegates to:
 * workers.c (the worker processes) and runner/point/record.c (the tasks'
 * outcomes), cpustat.c (the /proc/stat reader). Private to the runner.
 */
#ifndef CGS_POINT_INT_H
#define CGS_POINT_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "runner/point/point.h"
#include "runner/point/task.h"

/* The workers of a point, one per group, and what became of them. */
struct cgs_workers {
	unsigned n;
	pid_t *pid;
	int *wst;
	bool *reaped;
	char frozen_at[PATH_MAX];   /* a frozen cgroup a worker was in, or "" */
	bool frozen_ours, thawed;   /* that cgroup is this run's; we thawed it */
	int64_t next_check;         /* of frozen cgroups, monotonic ns */
};

/* Is a worker in a frozen cgroup now? Checked at most every 250 ms. A
 * cgroup of this run's (its name holds cgscale-<our pid>-) is thawed when
 * @thaw, so that its tasks can stop; another's is only named. */
bool cgs_workers_frozen(struct cgs_workers *wk, bool thaw);

/* Fork one worker per group of @spec (all tasks: one group). */
int cgs_workers_start(const struct cgs_point_spec *spec,
		      struct cgs_point_tasks *pt, struct cgs_workers *wk);

/* Has any worker exited? (Before stop, that is always a failure.) */
bool cgs_workers_any_gone(struct cgs_workers *wk);

/* Stop the tasks and reap the workers and anything left in their process
 * groups; no wait without end. Returns true when they had to be killed. A
 * SIGINT/SIGTERM while waiting kills them at once; *@signo says which. */
bool cgs_workers_collect(const struct cgs_point_spec *spec,
			 struct cgs_shared *sh, struct cgs_workers *wk,
			 int *signo);

/* The outcome when no task failed on its own: worker or timing trouble. */
void cgs_workers_outcome(struct res_point *p, int rc, struct cgs_workers *wk,
			 bool killed, const struct cgs_point_spec *spec);

void cgs_workers_free(struct cgs_workers *wk);

/* Copy the tasks' info records into the point and decide its status. */
void cgs_point_record_tasks(const struct cgs_point_spec *spec,
			    const struct cgs_shared *sh, struct res_point *p);

/* /proc/stat, read for the idle figures of the CPUs a run may use. */
struct cgs_cpustat_src {
	int fd;
	hwloc_bitmap_t cpus;   /* their per-CPU lines; NULL: the machine's line */
	char *buf;
	size_t len;
};

/* Open @src for @topo: its allowed CPUs where they are fewer than the
 * machine's online ones and @topo is this machine, else the machine's
 * line. A source that could not open reads -EIO. 0 or -ENOMEM. */
int cgs_cpustat_open(struct cgs_cpustat_src *src, const struct cgs_topo *topo);
int cgs_cpustat_read(struct cgs_cpustat_src *src, struct cgs_cpustat *out);
void cgs_cpustat_close(struct cgs_cpustat_src *src);

/* The CPUs @src reads, for harness.idle_cpus: a list "1,4-7", or "all"
 * for the machine's line. Allocated; NULL on ENOMEM. */
char *cgs_cpustat_src_cpus(const struct cgs_cpustat_src *src);

#endif
