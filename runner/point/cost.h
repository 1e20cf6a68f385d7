/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cost.h - what running a point cost the harness itself, recorded
 * in the point as "harness": the time from starting the workers to every
 * task at the gate (spawn), from the stop to every task reaped (stop), the
 * sampler's own work per instant, the priority and CPU it sampled at, and
 * how often it read /proc/stat, and of which CPUs.
 */
#ifndef CGS_POINT_COST_H
#define CGS_POINT_COST_H

#include <stdbool.h>
#include <stdint.h>

struct res_point;

struct cgs_point_cost {
	int64_t spawn_ns;        /* workers started -> all tasks ready; -1: never */
	int64_t stop_ns;         /* stop flag set -> all reaped */
	int64_t sample_sum_ns, sample_max_ns;   /* sampler work per instant */
	unsigned nsample;
	bool rt;                 /* sampled at SCHED_FIFO */
	int rt_err;              /* -errno when raising it failed */
	int cpu;                 /* the sampler's CPU; -1: unbound */
	const char *cpu_why;     /* how it was chosen, or why unbound */
	int cpu_err;             /* -errno when binding it failed */
	int64_t cpustat_ns;      /* /proc/stat at most this often; 0: every sample */
	char *idle_cpus;         /* the CPUs of the idle figures, "all"; the
				  * caller's to free */
};

void cgs_point_cost_init(struct cgs_point_cost *c);

/* One instant's work took @ns. */
void cgs_point_cost_sample(struct cgs_point_cost *c, int64_t ns);

/* Add "harness" to p->extra. 0 or -ENOMEM. */
int cgs_point_cost_record(const struct cgs_point_cost *c, struct res_point *p);

#endif
