/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disturb.h - tell disturbed runs apart: a run whose conditions differ
 * clearly from those of its siblings (the other runs of the same point in
 * the same file) is marked in its point, extra "disturbed", with one
 * reason per finding. compare leaves such runs out by default; `run`'s
 * notes and `show` list them. results/COMPARE.md, "Disturbed runs", says
 * what counts.
 */
#ifndef CGS_DISTURB_H
#define CGS_DISTURB_H

#include <stddef.h>

#include "results/model/result.h"

/* The thresholds (one const table, disturb.c). */
struct res_disturb_limits {
	double steal_pct;        /* steal over the measured window above */
	double idle_pts;         /* idle this many points below the siblings'
				  * median (or, alone, below what the task
				  * count leaves idle) */
	double lag_frac;         /* sampler later than this share of the
				  * interval */
	double flagged_frac;     /* cgroup events in a run while at most this
				  * share of its siblings have them */
	double stall_frac;       /* a task's ops in a measured interval below
				  * this share of its siblings' median there
				  * (a lone task, or all tasks together:
				  * of the point's upper-quartile interval) */
	double stall_min_ops;    /* ... judged only where that reference is
				  * at least this many ops, so that the share
				  * is a whole op or more */
	double stall_min_s;      /* ... and only for consecutive intervals
				  * that last this long together */
};
extern const struct res_disturb_limits res_disturb_limits;

/* Check every ok point of @f against its siblings and set its extra
 * "disturbed" (an array of reasons, empty when clean); points not ok get
 * none. Marks again from scratch when called again. 0 or -ENOMEM. */
int res_disturb_mark(struct res_file *f);

/* Mark @f as res_disturb_mark() does when none of its points was ever
 * checked (a file of an older runner, or of another tool); a file the
 * runner marked is left as it is. 0 or -ENOMEM. */
int res_disturb_mark_unmarked(struct res_file *f);

/* results/model/stall.c: the stall reasons of the ok point @p, by the
 * limits @L, into the array @a: a task stopped, starved or stuck in some
 * measured intervals while its siblings ran; intervals where no task made
 * progress; tasks that did no op in the whole window. @cpus: the CPUs
 * the run may use (of its idle figure: the online CPUs in older files),
 * 0 if not known. 0 or -ENOMEM. */
int res_stall_reasons(const struct res_point *p,
		      const struct res_disturb_limits *L, int cpus,
		      struct json_object *a);

/* How many tasks of @p did no op in its measured window. */
unsigned res_silent_tasks(const struct res_point *p);

/* The reasons of @p joined by "; " into @buf; returns how many, or -1
 * when @p was never checked (an older file). */
int res_disturbed(const struct res_point *p, char *buf, size_t len);

#endif
