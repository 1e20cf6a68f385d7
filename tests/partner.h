/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * partner.h - a helper per task, for workloads that need two ends (the
 * receiver of sendfile, as will-it-scale's new_task() gives
 * context_switch1 its partner). Included by workload.h; implemented in
 * runner/point/partner.c, which keeps hwloc inside the runner.
 *
 * A task starts at most one partner, in setup (before the start gate):
 *   - thread mode: a thread of the worker process, like the task itself;
 *   - process mode: a child of the task, in its process group and cgroup,
 *     killed with it (PR_SET_PDEATHSIG).
 * The partner runs fn(p, copy of arg). Its exit status is the task's
 * business: cgs_partner_join() waits for it with a bound, folds its aux
 * counters into the task's, and a failing partner fails the task. The
 * runner joins a partner the workload left behind after teardown (and
 * after a failed setup), so a partner never outlives its task.
 */
#ifndef CGS_PARTNER_H
#define CGS_PARTNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cgs_task;
struct cgs_partner;

/* Where the partner runs, relative to its task's place. */
enum cgs_partner_place {
	CGS_PARTNER_SAME,   /* on the task's place */
	CGS_PARTNER_NEXT,   /* on the next place (task nr + 1, wrapping) */
	CGS_PARTNER_FREE,   /* not pinned: the affinity the run started with */
};

/* "same", "next", "free", NULL: for a CGS_OPT_ENUM knob. */
extern const char *const cgs_partner_place_names[];

typedef int (*cgs_partner_fn)(struct cgs_partner *p, void *arg);

/*
 * Start @t's partner, named @name (the comm, at most 15 characters), bound
 * as @where says; it runs @fn on its own copy of the @argsize bytes at
 * @arg, so the task may free its state whatever the partner does. Returns
 * once the partner runs (bound), or -errno with the reason in the task's
 * message. With an unbound task (--placement none), the partner is unbound
 * too, whatever @where says.
 */
int cgs_partner_start(struct cgs_task *t, enum cgs_partner_place where,
		      const char *name, cgs_partner_fn fn, const void *arg,
		      size_t argsize);

/* True while @t's partner has not returned (false when there is none). */
bool cgs_partner_running(struct cgs_task *t);

/*
 * Wait up to @timeout_ns for the partner to return; then ask it to quit
 * (cgs_partner_quit) and wait one more second; then a process partner is
 * killed and reaped, and a thread partner is left to end with the worker.
 * Returns the partner's result: 0, its -errno (its message goes to the
 * task's), -ECHILD when it died, or -ETIMEDOUT. A non-zero result also
 * fails the task, even when the caller ignores it. 0 without a partner.
 */
int cgs_partner_join(struct cgs_task *t, int64_t timeout_ns);

/* In the partner: count @n in the task's aux counter @k, which only the
 * partner may use. */
void cgs_partner_aux_add(struct cgs_partner *p, unsigned k, uint64_t n);

/* In the partner: true once the task gave up waiting: return soon. */
bool cgs_partner_quit(const struct cgs_partner *p);

/* In the partner: true in a forked process (close what only the task
 * needs), false in a thread (the descriptors are shared: leave them). */
bool cgs_partner_forked(const struct cgs_partner *p);

/* In the partner: record why it failed; returns @err. */
int cgs_partner_fail(struct cgs_partner *p, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
