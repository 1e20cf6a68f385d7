/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sampler_cpu.h - the CPU the sampler runs on while a point samples
 * (--sampler-cpu). At SCHED_FIFO an unbound sampler wakes on the CPU it
 * last ran on and preempts the task there; bound to a CPU no task is
 * bound to, it takes nothing from the tasks. auto: the last such CPU,
 * else unbound (every CPU has a task, or the tasks are unbound). A
 * workload's partner (sendfile's receiver at --partner next) is not a
 * task: auto may share its CPU.
 */
#ifndef CGS_SAMPLER_CPU_H
#define CGS_SAMPLER_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/opt.h"
#include "runner/core/topo.h"

#define CGS_SCPU_AUTO (-1)
#define CGS_SCPU_NONE (-2)

#define CGS_CPU_MAX (1 << 20)   /* the largest CPU number a CPU option takes */

/* The keywords of the CPU options (INT_OR rows in [0, CGS_CPU_MAX]):
 * --sampler-cpu takes auto and none, --stat-reader-cpu auto. Whether the
 * CPU exists is cgs_cpu_allowed's, once the topology is known. */
extern const struct cgs_opt_key cgs_sampler_cpu_keys[];
extern const struct cgs_opt_key cgs_cpu_auto_keys[];

/* May the runner use @cpu? When not, @list (@len bytes) gets the CPUs it
 * may use, for the message. */
bool cgs_cpu_allowed(const struct cgs_topo *topo, int cpu, char *list, size_t len);

/* --sampler-cpu as parsed (CGS_SCPU_AUTO, CGS_SCPU_NONE or a CPU): a CPU
 * must be one the runner may use. 0 or -EINVAL with @err. */
int cgs_sampler_cpu_check(int64_t cpu, const struct cgs_topo *topo, char *err,
			  size_t errlen);

struct cgs_sampler_pin {
	int cpu;              /* bound there; -1: unbound */
	char why[120];        /* how it was chosen, or why unbound */
	int err;              /* -errno when binding failed */
	hwloc_bitmap_t saved; /* the binding to restore; NULL: none */
};

/* The last PU the runner may use that none of tasks 0..@ntasks-1 is bound
 * to on @pl; -1 when there is none, -ENOMEM. */
int cgs_last_free_cpu(const struct cgs_topo *topo, const struct cgs_places *pl,
		      unsigned ntasks);

/* Choose for a point of @ntasks tasks on @pl, from @asked. */
void cgs_sampler_cpu_choose(int asked, const struct cgs_topo *topo,
			    const struct cgs_places *pl, unsigned ntasks,
			    struct cgs_sampler_pin *pin);

/* Bind the calling thread there (a no-op when unbound); 0 or -errno, also
 * kept in pin->err. Leave restores the binding it had. */
int cgs_sampler_pin_enter(const struct cgs_topo *topo, struct cgs_sampler_pin *pin);
void cgs_sampler_pin_leave(const struct cgs_topo *topo, struct cgs_sampler_pin *pin);

#endif
