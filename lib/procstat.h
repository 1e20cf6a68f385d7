/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procstat.h - parsers for the /proc files the runner reads at the edges
 * of the measured window: /proc/vmstat ("key value" lines) and a task's
 * /proc/PID/task/TID/stat (user and system time in clock ticks). Pure
 * text in, numbers out, so they are unit-tested on fixed texts.
 */
#ifndef CGS_PROCSTAT_H
#define CGS_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

#define CGS_VMSTAT_MAX 512      /* keys; 6.18 has about 190 */
#define CGS_VMSTAT_NAME 64

struct cgs_vmstat {
	unsigned n;
	char name[CGS_VMSTAT_MAX][CGS_VMSTAT_NAME];
	uint64_t v[CGS_VMSTAT_MAX];
};

/* Parse "key value" lines of @text (NUL-terminated) into @out, in order.
 * A line that is not "word number" is skipped. 0, or -EINVAL when
 * nothing parsed, -E2BIG when there are more than CGS_VMSTAT_MAX keys. */
int cgs_vmstat_parse(const char *text, struct cgs_vmstat *out);

/* The value of @name in @s; -ENOENT when absent, else 0. */
int cgs_vmstat_get(const struct cgs_vmstat *s, const char *name, uint64_t *v);

/* Fields 14 and 15 (utime, stime, in clock ticks) of a stat line
 * "pid (comm) state ...", where comm may hold spaces and parentheses.
 * 0 or -EINVAL. */
int cgs_taskstat_parse(const char *line, uint64_t *utime, uint64_t *stime);

/* The first two fields of /proc/PID/task/TID/schedstat, "run_ns
 * wait_ns timeslices": the time the task ran on a CPU and the time it
 * waited on a run queue, in ns. 0 or -EINVAL. */
int cgs_schedstat_parse(const char *line, uint64_t *run_ns, uint64_t *wait_ns);

/* The sum_sleep_runtime of a /proc/PID/task/TID/sched text (schedstats:
 * the time the task spent asleep, blocked included, "ms.nnnnnn" under the
 * names "sum_sleep_runtime", "stats.sum_sleep_runtime" or, before 5.16,
 * "se.statistics.sum_sleep_runtime") in ns. -ENOENT when the kernel
 * prints none (no CONFIG_SCHEDSTATS). */
int cgs_procsched_sleep(const char *text, uint64_t *ns);

/* kernel.sched_schedstats: 1 on, 0 off, -1 no such sysctl (a kernel
 * without CONFIG_SCHEDSTATS) or unreadable. */
int cgs_read_schedstats_sysctl(void);

#endif
