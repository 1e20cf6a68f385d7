/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * account.h - the additive account of an op's time (the account
 * observer, account.c): over the measured window, each task's wall time
 * is split into the time it ran in user mode, ran in the kernel, waited
 * on a run queue, and was off the CPU otherwise (blocked: asleep on a
 * lock, on I/O, stopped). Run and run-queue time are the task's
 * /proc/PID/task/TID/schedstat (ns); the run time is split into user and
 * sys by the ratio of the utime and stime ticks of its stat file over the
 * same window, so that user + sys is the schedstat run time exactly;
 * blocked is the window less run and run-queue time. The four add up to
 * the window, so per op they add up to the wall time per op. Where the
 * kernel splits user and sys by the tick, the split says so, with its
 * sampling error ("split").
 *
 * The arithmetic (account_calc.c) is pure, for unit tests.
 */
#ifndef CGS_ACCOUNT_H
#define CGS_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;

enum cgs_acct_part { CGS_ACCT_USER, CGS_ACCT_SYS, CGS_ACCT_RUNQ, CGS_ACCT_BLOCKED,
		     CGS_ACCT_NPART };

/* The keys of the parts in extra.account, "user_ns_per_op", ... */
extern const char *const cgs_acct_part_keys[CGS_ACCT_NPART];

/* One task read at one edge of the window. */
struct cgs_acct_read {
	uint64_t run_ns, wait_ns;     /* schedstat */
	uint64_t utime, stime;        /* stat, clock ticks */
	uint64_t sleep_ns;            /* sched's sum_sleep_runtime (schedstats) */
};

/* One task over the window: its ops and its readings at both edges. */
struct cgs_acct_task {
	uint64_t ops;
	bool sleep;                   /* sleep_ns read at both edges */
	struct cgs_acct_read at[2];
};

/* Mean, sample standard deviation, min and max of @n per-task values. */
struct cgs_acct_spread {
	unsigned n;
	double mean, sd, min, max;
};

struct cgs_acct {
	unsigned ntasks;
	uint64_t ops;                       /* all tasks */
	double window_ns;
	/* all tasks' time over all their ops: wall = ntasks x window / ops,
	 * which is 1e9 / the point's per-task ops/s */
	double wall_ns_per_op, part_ns_per_op[CGS_ACCT_NPART];
	/* the same per task (tasks with ops), across the tasks */
	struct cgs_acct_spread wall, part[CGS_ACCT_NPART];
	double on_cpu_pct;                  /* (user + sys) / wall */
	unsigned unsplit;                   /* tasks that ran without a tick of
					     * their own: split as all tasks */
	double sleep_ns_per_op;             /* all tasks' sleep (sched's
					     * sum_sleep_runtime) over the ops;
					     * NAN: not read for every task */
};

/* The four parts of task @t over a window of @window_ns, in ns: its run
 * time split by its own ticks, or by @user_share (0..1) when it has none
 * (then false is returned). */
bool cgs_acct_task_parts(const struct cgs_acct_task *t, double window_ns,
			 double user_share, double part[CGS_ACCT_NPART]);

/* The account of @n tasks over a window of @window_ns into @a. */
void cgs_acct_calc(const struct cgs_acct_task *t, unsigned n, double window_ns,
		   struct cgs_acct *a);

/* Its figures into @o (extra.account, results/SCHEMA.md). */
void cgs_acct_json(const struct cgs_acct *a, struct json_object *o);

/* How the kernel split CPU time into user and sys (its config): "ticks"
 * (CONFIG_TICK_CPU_ACCOUNTING, or VIRT_CPU_ACCOUNTING_GEN off its
 * nohz_full CPUs: the tick samples the mode it lands in, so the split
 * has a sampling error), "exact" (VIRT_CPU_ACCOUNTING_NATIVE: at each
 * kernel entry and exit) or "unknown" (no config to read). */
struct cgs_acct_clock {
	char by[16];
	char config[160];             /* the options that say so */
	double hz;                    /* CONFIG_HZ; NAN unknown */
	/* whether the kernel keeps each task's sleep time: 1 kernel.
	 * sched_schedstats is 1; 0 it is 0; -1 no such sysctl (no
	 * CONFIG_SCHEDSTATS). Read at prepare; never changed. */
	int schedstats;
};

/* The clock of the kernel whose config object is @kc (lib/kconfig.h's
 * cgs_kconfig_running; NULL or unreadable: "unknown"). */
void cgs_acct_clock_of(struct json_object *kc, struct cgs_acct_clock *c);

/* Account @a's "split" object: the clock @c, and where it samples, the
 * ticks in the window (all tasks' run time x HZ) and the user part's
 * sampling error, 1 SE in ns/op: a share p of n ticks is p +-
 * sqrt(p (1 - p) / n), of (user + sys) ns/op. NULL when out of memory. */
struct json_object *cgs_acct_split_json(const struct cgs_acct *a,
					const struct cgs_acct_clock *c);

/* Blocked time, measured where the kernel keeps it: every task's
 * sum_sleep_runtime (schedstats; asleep or blocked, counted when the
 * task wakes), with the remainder below kept as a check
 * (blocked_remainder_ns_per_op, blocked_check_ns_per_op = remainder -
 * measured). Else it is the remainder of the window. The kernel folds a
 * running slice into the run time only at a tick or a switch, so each
 * task's run time may lag by up to a tick at each edge: the remainder of
 * a task that never slept can be below 0 by up to 2 ticks per task. Into
 * @o: blocked_ns_per_op as max(0, remainder), never a negative time;
 * blocked_remainder_ns_per_op (the remainder itself: user + sys +
 * run-queue + remainder = wall); blocked_bound_ns_per_op (2 ticks per task
 * over the ops, at CONFIG_HZ or 100 Hz when unknown); blocked_source; and
 * a note when the remainder is below -bound (the edges were read late:
 * the parts are approximate). blocked_source says which, and why not
 * measured (@c->schedstats). */
void cgs_acct_blocked_json(const struct cgs_acct *a, const struct cgs_acct_clock *c,
			   struct json_object *o);

#endif
