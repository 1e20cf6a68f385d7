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

#include <limits.h>

#include "lib/statfile.h"
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

/*
 * How the tasks of one group came to be, and what their group needs
 * resolved before it starts (written by its worker, and by the tasks'
 * process when that is the plain image; read by the runner).
 */
struct cgs_group_rec {
	unsigned first, n;                     /* tasks first..first+n-1 */
	int stat_file, stat_target;            /* -1: not resolved */
	int stat_rc;                           /* the workload's stat file: */
	struct cgs_stat_where stat;            /* resolved from the group's */
	char stat_err[240];                    /* cgroup, before its tasks */
	_Atomic int plain;                     /* 1: in the exec'ed image */
	int maps;                              /* mappings of the tasks' mm at
						* start; 0: unknown */
	char why[240];                         /* plain 0: why not */
};

/* What the plain image needs to rebuild the point: written by the runner
 * before any worker starts. */
struct cgs_image_spec {
	char abi[64];                          /* CGS_IMAGE_ABI of the runner */
	char workload[64];
	char tmpdir[PATH_MAX];
	unsigned nr_tasks;
	bool threads;
	int runner;
	size_t opts_off, opts_size;            /* the workload's options */
	size_t masks_off, mask_words;          /* nr_tasks + 1 CPU masks */
};

struct cgs_shared {
	_Alignas(256) _Atomic uint32_t gate;   /* futex word: 1 = go */
	_Atomic int stop;                      /* 1 = leave the loop */
	_Atomic int failed;                    /* tasks that failed/skipped */
	_Atomic int ready;                     /* tasks at the gate */
	unsigned ntasks, ngroups;
	int fd;                                /* the memfd, in the runner and
						* the processes it forks */
	size_t slots_off, info_off, groups_off, image_off;
	size_t maplen;
};

/* The parts of the shared area, by offset: it is mapped at another
 * address in the plain image. */
static inline struct cgs_slot *cgs_sh_slots(const struct cgs_shared *sh)
{
	return (struct cgs_slot *)((char *)sh + sh->slots_off);
}

static inline struct cgs_task_info *cgs_sh_info(const struct cgs_shared *sh)
{
	return (struct cgs_task_info *)((char *)sh + sh->info_off);
}

static inline struct cgs_group_rec *cgs_sh_groups(const struct cgs_shared *sh)
{
	return (struct cgs_group_rec *)((char *)sh + sh->groups_off);
}

static inline struct cgs_image_spec *cgs_sh_image(const struct cgs_shared *sh)
{
	return (struct cgs_image_spec *)((char *)sh + sh->image_off);
}

/* Task @nr's CPU mask (mask_words longs), or NULL: not bound. */
static inline const unsigned long *cgs_sh_mask(const struct cgs_shared *sh,
					       unsigned nr)
{
	const struct cgs_image_spec *im = cgs_sh_image(sh);
	const unsigned long *m;

	if (!im->mask_words)
		return NULL;
	m = (const unsigned long *)((const char *)sh + im->masks_off);
	return m + (size_t)(nr > im->nr_tasks ? im->nr_tasks : nr) * im->mask_words;
}

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

/* Find a statistics file from process @pid's cgroup (0: the caller's):
 * runner/cgroups/statpath.h's cgs_stat_locate, given by the run. */
typedef int (*cgs_stat_locate_fn)(pid_t pid, enum cgs_stat_file file,
				  enum cgs_stat_target target,
				  const struct cgs_cgview *cg,
				  struct cgs_stat_where *w, char *err,
				  size_t errlen);

/* What the worker and its tasks need; all of it is inherited by fork. */
struct cgs_point_tasks {
	const struct cgs_workload *w;
	struct cgs_ctx ctx;
	const struct cgs_topo *topo;
	const struct cgs_places *places;
	struct cgs_shared *sh;
	pid_t runner;
	unsigned group;              /* which group this worker starts */
	cgs_group_enter_fn enter;    /* may be NULL */
	void *enter_arg;
	uint64_t fresh_tmp;          /* >0: the worker's own tmpfs (lib/freshtmp.h) */
	const char *image;           /* the plain image to exec; NULL: the
				      * tasks run in the runner's own image */
	const char *image_why;       /* image NULL: why */
	cgs_stat_locate_fn locate;   /* NULL: workloads find no stat file */
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

/* Map the shared area of pt's point, with its @ngroups groups (0: one of
 * all tasks), CPU masks and image spec filled (shared.c). Returns NULL
 * with errno set. */
struct cgs_shared *cgs_shared_map(const struct cgs_point_tasks *pt,
				  const struct cgs_group *groups, unsigned ngroups);
void cgs_shared_unmap(struct cgs_shared *sh);

/* Task @in failed with @err (-EOPNOTSUPP, -ENOSYS: skipped): its state,
 * and the count of failed tasks. */
void cgs_task_mark_failed(struct cgs_shared *sh, struct cgs_task_info *in,
			  int err);

/* Every task of pt->group fails with @msg (empty: @rc's text) and the
 * worker exits: its tasks never start. */
void cgs_group_fail(const struct cgs_point_tasks *pt, int rc, const char *msg)
	__attribute__((noreturn));

/* Can the plain image run workload @w? Not when an option of it is text
 * (a pointer the image would not have); then false, with why. */
bool cgs_image_carries(const struct cgs_workload *w, char *why, size_t len);

/* Map the shared area from its memfd @fd (the plain image). 0 or -errno. */
int cgs_shared_attach(int fd, struct cgs_shared **out);

/* Fork the worker of pt->group, which starts its tasks: in the plain
 * image pt->image when there is one, else in this one (worker.c).
 * Returns its pid or -errno. */
pid_t cgs_worker_start(const struct cgs_point_tasks *pt);

/* The tasks of pt->group, in this process: start them and wait for them.
 * The end of a worker, in either image. */
void cgs_tasks_run(const struct cgs_point_tasks *pt);

/* The build's signature, which runner and image must share: version,
 * commit and the sizes of the shared records. */
void cgs_image_abi(char *buf, size_t len);

/* Mappings in this process's address space (/proc/self/maps lines), or
 * -errno. */
int cgs_maps_count(void);

/* Open the gate: every task waiting in it starts at once. */
void cgs_gate_open(struct cgs_shared *sh);

#endif
