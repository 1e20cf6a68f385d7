/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * task.h - the tasks of one point and the memory they share with the
 * runner: a start gate, a stop flag, one op counter per task on its own
 * cache lines, and one info record per task, all in one MAP_SHARED
 * anonymous mapping made before any fork.
 *
 * Process tree: the runner (which samples) forks one worker; the worker
 * puts itself in a process group of its own, then starts the tasks as
 * threads (thread mode) or forks them (process mode). Tasks die with the
 * worker, and the worker with the runner (PR_SET_PDEATHSIG).
 */
#ifndef CGS_TASK_H
#define CGS_TASK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tests/workload.h"
#include "runner/core/topo.h"

enum cgs_task_state {
	CGS_T_INIT,      /* created, setting up */
	CGS_T_READY,     /* set up, waiting at the gate */
	CGS_T_RUNNING,   /* in its loop */
	CGS_T_DONE,      /* loop returned after stop, torn down */
	CGS_T_FAILED,    /* a hook failed, or the task died */
	CGS_T_SKIPPED,   /* setup said the workload cannot run here */
};

/* Written by the task (and, in process mode, by the worker on reaping). */
struct cgs_task_info {
	_Atomic int state;
	int pid, tid;
	int cpu_start, cpu_end;
	int err;                 /* -errno of the failing hook */
	int wstatus;             /* process mode: wait status of the task */
	bool reaped;
	uint64_t ops_final;
	uint64_t aux_final[CGS_MAX_AUX];
	int64_t minflt, majflt;
	char msg[240];
};

struct cgs_shared {
	_Alignas(256) _Atomic uint32_t gate;   /* futex word: 1 = go */
	_Atomic int stop;                      /* 1 = leave the loop */
	_Atomic int failed;                    /* tasks that failed/skipped */
	_Atomic int ready;                     /* tasks at the gate */
	unsigned ntasks;
	struct cgs_slot *slots;                /* ntasks counters */
	struct cgs_task_info *info;            /* ntasks records */
	size_t maplen;
};

/*
 * A group of tasks started by one worker process: all tasks by default,
 * or the tasks of one cgroup leaf. Tasks first..first+n-1.
 */
struct cgs_group {
	unsigned first, n;
};

/*
 * Called in each worker before it starts its tasks, e.g. to move the
 * worker into its group's cgroup so the tasks inherit it. Returns 0 or
 * -errno with a message in @msg; the group's tasks then fail with it.
 */
typedef int (*cgs_group_enter_fn)(void *arg, unsigned group, char *msg,
				  size_t len);

/* What the worker and its tasks need; all of it is inherited by fork. */
struct cgs_point_tasks {
	const struct cgs_workload *w;
	struct cgs_ctx ctx;
	const struct cgs_topo *topo;
	const struct cgs_places *places;
	struct cgs_shared *sh;
	pid_t runner;
	unsigned group;              /* which group this worker starts */
	const struct cgs_group *groups;
	cgs_group_enter_fn enter;    /* may be NULL */
	void *enter_arg;
	uint64_t fresh_tmp;          /* >0: the worker's own tmpfs (lib/freshtmp.h) */
};

/*
 * A task as the runner holds it: the workload's view and its counters
 * (tests/workload.h) first, then what only the runner and the partner
 * code touch. cgs_rtask_of() gets it back from the workload's pointer.
 */
struct cgs_rtask {
	struct cgs_count c;
	char *msg;                          /* shared error message buffer */
	size_t msglen;
	const struct cgs_point_tasks *pt;   /* the point, for partner.c */
	struct cgs_partner *partner;        /* see partner.h; NULL: none */
	int partner_err;                    /* a failed partner's result */
};

static inline struct cgs_rtask *cgs_rtask_of(struct cgs_task *t)
{
	return cgs_container_of(cgs_count_of(t), struct cgs_rtask, c);
}

/* Map the shared area for @ntasks tasks. Returns NULL with errno set. */
struct cgs_shared *cgs_shared_map(unsigned ntasks);
void cgs_shared_unmap(struct cgs_shared *sh);

/* Fork the worker of pt->group, which starts its tasks. Returns its pid
 * or -errno. */
pid_t cgs_worker_start(const struct cgs_point_tasks *pt);

/* Open the gate: every task waiting in it starts at once. */
void cgs_gate_open(struct cgs_shared *sh);

#endif
