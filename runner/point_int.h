/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * point_int.h - what point.c shares with the files it delegates to:
 * workers.c (the worker processes) and point_record.c (the tasks'
 * outcomes). Private to the runner.
 */
#ifndef CGS_POINT_INT_H
#define CGS_POINT_INT_H

#include <stdbool.h>
#include <sys/types.h>

#include "point.h"
#include "task.h"

/* The workers of a point, one per group, and what became of them. */
struct cgs_workers {
	unsigned n;
	pid_t *pid;
	int *wst;
	bool *reaped;
};

/* Fork one worker per group of @spec (all tasks: one group). */
int cgs_workers_start(const struct cgs_point_spec *spec,
		      struct cgs_point_tasks *pt, struct cgs_workers *wk);

/* Has any worker exited? (Before stop, that is always a failure.) */
bool cgs_workers_any_gone(struct cgs_workers *wk);

/* Stop the tasks and reap the workers and anything left in their process
 * groups. Returns true when they had to be killed. */
bool cgs_workers_collect(const struct cgs_point_spec *spec,
			 struct cgs_shared *sh, struct cgs_workers *wk);

/* The outcome when no task failed on its own: worker or timing trouble. */
void cgs_workers_outcome(struct res_point *p, int rc, struct cgs_workers *wk,
			 bool killed, const struct cgs_point_spec *spec);

void cgs_workers_free(struct cgs_workers *wk);

/* Copy the tasks' info records into the point and decide its status. */
void cgs_point_record_tasks(const struct cgs_point_spec *spec,
			    const struct cgs_shared *sh, struct res_point *p);

#endif
