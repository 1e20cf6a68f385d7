/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload.h - the whole contract between a workload and the runner.
 * The folder is called tests/ after will-it-scale's; it holds the
 * workloads, not the project's tests (those are in check/).
 *
 * A workload is a const struct of hooks, filled with designated
 * initializers and listed once in tests/list.h. The runner checks every
 * entry at start-up (cgs_workload_check). A task's loop looks like:
 *
 *	static int foo_loop(struct cgs_task *t)
 *	{
 *		while (!cgs_stop(t)) {
 *			do_one_op();
 *			cgs_add(t, 1);
 *		}
 *		return 0;
 *	}
 *
 * The loop *returns* when told to stop, so no task is ever cancelled
 * asynchronously, and teardown always runs.
 *
 * Hook order, for one point (test, mode, tasks):
 *   prepare(ctx)            once, in the runner, before the point's tasks
 *                           (ctx->extra set: what it chose is recorded);
 *                           then again, ctx->extra NULL, in each worker of
 *                           the plain image (runner/image/), whose tasks
 *                           see its ctx->priv: it must choose alike
 *   per task, in the task:  setup(t) -> [start gate] -> loop(t) -> teardown(t)
 *   cleanup(ctx)            once after the tasks are gone, wherever
 *                           prepare ran
 * Hooks return 0 or -errno. -EOPNOTSUPP or -ENOSYS from prepare or setup
 * mean "cannot run here": the point is SKIPPED with the reason given by
 * cgs_task_fail()/cgs_ctx_fail(), not failed.
 */
#ifndef CGS_WORKLOAD_H
#define CGS_WORKLOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/limits.h"
#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/statfile.h"


/*
 * The per-task counters, alone on their own cache lines (see task.h): the
 * op counter and up to CGS_MAX_AUX auxiliary counters the workload
 * declares (e.g. bytes received), all written by that task only.
 */
struct cgs_slot {
	_Alignas(256) _Atomic uint64_t ops;
	_Atomic uint64_t aux[CGS_MAX_AUX];
};
_Static_assert(sizeof(struct cgs_slot) == 256,
	       "a task's counters fill exactly one 256-byte slot");

/*
 * An auxiliary counter: sampled with the ops, reported as a rate in its
 * own unit. rate_scale converts counts per second into rate_unit
 * (8e-6 turns bytes/s into Mbit/s).
 */
struct cgs_aux {
	const char *name;        /* e.g. "rx_bytes" */
	const char *rate_unit;   /* e.g. "Mbit/s" */
	double rate_scale;
};

/* Whole-point context, given to prepare/cleanup and seen by each task. */
struct cgs_ctx {
	const void *opts;        /* the workload's options struct */
	const char *tmpdir;      /* where task files go (--tmpdir) */
	unsigned nr_tasks;
	bool threads;            /* thread mode (else process mode) */
	void *priv;              /* prepare's state, seen by the tasks */
	char *why;               /* prepare's skip or failure reason */
	size_t whylen;
	/* the cgroups cgscale made for the point (lib/statfile.h);
	 * NULL: none, the tasks run in the runner's own cgroups */
	const struct cgs_cgview *cg;
	/* prepare may add keys (json-c) about what it chose, e.g. the address
	 * family used; the point records them as "workload". Runner only. */
	struct json_object *extra;
};

/*
 * One task, as its workload sees it: its index, the point's context and
 * its own state. Everything else about a task is the runner's
 * (runner/point/task.h), reached from this struct with container_of.
 */
struct cgs_task {
	unsigned nr;              /* task index, 0..nr_tasks-1 */
	const struct cgs_ctx *ctx;
	void *priv;               /* the workload's per-task state */
};

/*
 * The counting side of a task, kept around it by the runner. It is
 * declared here only so that counting stays one inline relaxed store;
 * workloads use the functions below and never these fields.
 */
struct cgs_count {
	struct cgs_task task;     /* what the workload is given */
	uint64_t ops;             /* local copy of the counter */
	uint64_t aux[CGS_MAX_AUX];
	struct cgs_slot *slot;    /* shared counter the sampler reads */
	const _Atomic int *stop;  /* set by the runner to end the loop */
};

static inline struct cgs_count *cgs_count_of(struct cgs_task *t)
{
	return cgs_container_of(t, struct cgs_count, task);
}

struct cgs_workload {
	const char *name;        /* e.g. "page_fault1" */
	const char *desc;        /* one line */
	const char *unit;        /* what one op is, e.g. "page touched" */
	const struct cgs_aux *aux;   /* auxiliary counters, may be NULL */
	size_t naux;                 /* at most CGS_MAX_AUX */
	const struct cgs_opt *opts;  /* the workload's knobs, may be NULL */
	size_t nopts;
	size_t opts_size;        /* sizeof its options struct */
	int (*prepare)(struct cgs_ctx *ctx);      /* optional */
	void (*cleanup)(struct cgs_ctx *ctx);     /* optional */
	int (*setup)(struct cgs_task *t);         /* optional */
	int (*loop)(struct cgs_task *t);          /* required */
	void (*teardown)(struct cgs_task *t);     /* optional */
	/* the most bytes one task keeps in --tmpdir at once, for plans
	 * (run --dry-run); optional: NULL means none */
	uint64_t (*tmpdir_bytes)(const void *opts);
	/* an observer its points need besides those the run asks for: the
	 * name of one in runner/observe/list.h (stat_read's records which
	 * file it reads); NULL: none. Checked at start-up. */
	const char *observer;
	/* which statistics file its tasks read, from its options, for that
	 * observer; optional */
	void (*stat_file)(const void *opts, enum cgs_stat_file *file,
			  enum cgs_stat_target *target);
	/* Can this box run it, with @opts (its options, filled)? 0, or
	 * -EOPNOTSUPP with the reason in @why ("remap_file_pages() is not in
	 * this kernel"), as stress-ng says "unsupported" before running.
	 * Asked by `cgscale list`, `run --dry-run`, and by run before a
	 * point: an unsupported test's points are SKIPPED with the reason.
	 * Optional: NULL runs anywhere. */
	int (*supported)(const void *opts, char *why, size_t len);
};

/* True once the runner has asked the tasks to stop. */
static inline bool cgs_stop(struct cgs_task *t)
{
	return atomic_load_explicit(cgs_count_of(t)->stop, memory_order_relaxed);
}

/* How many ops a loop with a long pass (page_fault's 32k pages) does
 * between looks at the stop flag inside the pass (a power of two). */
#define CGS_STOP_EVERY 256

/* cgs_stop() on every CGS_STOP_EVERY-th op of a pass (@n counts them
 * from 0): so that a pass made slow (a spin, a slow kernel) still ends
 * within an interval of the window's end, at one test of @n per op. */
static inline bool cgs_stop_in_pass(struct cgs_task *t, unsigned long n)
{
	return (n & (CGS_STOP_EVERY - 1)) == CGS_STOP_EVERY - 1 && cgs_stop(t);
}

/* Count @n ops: one relaxed store, no locked instruction. */
static inline void cgs_add(struct cgs_task *t, uint64_t n)
{
	struct cgs_count *c = cgs_count_of(t);

	c->ops += n;
	atomic_store_explicit(&c->slot->ops, c->ops, memory_order_relaxed);
}

/* Count @n in auxiliary counter @k (an index into the workload's aux). */
static inline void cgs_aux_add(struct cgs_task *t, unsigned k, uint64_t n)
{
	struct cgs_count *c = cgs_count_of(t);

	c->aux[k] += n;
	atomic_store_explicit(&c->slot->aux[k], c->aux[k], memory_order_relaxed);
}

/* The task's count in auxiliary counter @k so far (a partner's included
 * once it was joined). */
static inline uint64_t cgs_aux_get(struct cgs_task *t, unsigned k)
{
	return cgs_count_of(t)->aux[k];
}

/* True once a failure message was recorded for the task: by
 * cgs_task_fail(), or by its partner's end (partner.h). */
bool cgs_task_failed(struct cgs_task *t);

/* Record why a task failed; returns @err (a -errno) for `return`. */
int cgs_task_fail(struct cgs_task *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record why prepare failed or skipped; returns @err. */
int cgs_ctx_fail(struct cgs_ctx *ctx, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Create a file of the task's own in ctx->tmpdir, unlinked at once so that
 * nothing is left behind even after SIGKILL, and sized to @size bytes
 * (sparse, as will-it-scale's ftruncate). Returns the fd or -errno.
 */
int cgs_task_tmpfile(struct cgs_task *t, int64_t size);

/*
 * Where statistics file @file at @target is for the calling task (a
 * target is found from the task's own cgroup and ctx->cg). 0, or -ENODEV
 * or -ENOENT when this system lacks it, or -errno; @err says why.
 */
int cgs_task_stat_locate(struct cgs_task *t, enum cgs_stat_file file,
			 enum cgs_stat_target target,
			 struct cgs_stat_where *w, char *err, size_t errlen);

#include "tests/partner.h"

/* The registry, in its stable order. */
extern const struct cgs_workload *const cgs_workloads[];
extern const size_t cgs_nworkloads;

/* Look a workload up by name; NULL when unknown. */
const struct cgs_workload *cgs_workload_find(const char *name);

/* Check an entry: required fields and hooks, its option table. 0/-EINVAL */
int cgs_workload_check(const struct cgs_workload *w, char *err,
		       size_t errlen);

/* Can this box run @w with @opts (NULL: its defaults)? Its supported
 * hook: 0, or -EOPNOTSUPP with the reason in @why. */
int cgs_workload_supported(const struct cgs_workload *w, const void *opts, char *why,
			   size_t len);

#endif
