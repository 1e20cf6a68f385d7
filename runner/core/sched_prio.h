/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_prio.h - the sampler's scheduling priority. The runner's thread
 * samples at SCHED_FIFO (a low real-time priority) where it may, so that
 * thousands of runnable tasks cannot make it late: its duty is bounded (it
 * reads the counters, /proc/stat and the observers, then sleeps). Where it
 * may not (no root, no CAP_SYS_NICE, no RLIMIT_RTPRIO, a cgroup without RT
 * runtime) or when asked (--sampler-priority normal) it samples at the
 * priority it has, as will-it-scale does, and the results say which.
 */
#ifndef CGS_SCHED_PRIO_H
#define CGS_SCHED_PRIO_H

#include <stdbool.h>

struct json_object;

/* The FIFO priority: the lowest, above every SCHED_OTHER task only. */
#define CGS_SAMPLER_RT_PRIO 1

enum cgs_sprio_want { CGS_SPRIO_RT, CGS_SPRIO_NORMAL };
extern const char *const cgs_sprio_names[];   /* "rt", "normal" */

struct cgs_sampler_prio {
	bool rt;             /* sampling runs at SCHED_FIFO rt_prio */
	int rt_prio;
	char why[200];       /* when !rt: why not */
};

/*
 * Decide the sampler's priority for @want: try SCHED_FIFO once on the
 * calling thread and switch back. Fills @sp; returns 0 (a refusal is not
 * an error: sp->rt is false and sp->why says why).
 */
int cgs_sampler_prio_probe(enum cgs_sprio_want want, struct cgs_sampler_prio *sp);

/* What the calling thread ran at before cgs_sampler_prio_enter(). */
struct cgs_sched_saved {
	int policy;          /* -1: nothing to restore */
	int prio;
};

/*
 * Raise the calling thread to the sampler's priority (children forked
 * meanwhile start at normal priority: SCHED_RESET_ON_FORK). Returns 0 or
 * -errno; @saved is always filled for cgs_sampler_prio_leave().
 */
int cgs_sampler_prio_enter(const struct cgs_sampler_prio *sp,
			   struct cgs_sched_saved *saved);
void cgs_sampler_prio_leave(const struct cgs_sched_saved *saved);

/* {"policy": "SCHED_FIFO", "priority": 1} or {"policy": "normal", "reason"}. */
struct json_object *cgs_sampler_prio_json(const struct cgs_sampler_prio *sp);

#endif
