/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spin.h - a fixed per-op slowdown for calibration (the page-fault
 * workloads' --pfN-spin NS): NS nanoseconds of busy-wait per op on
 * average, measured with CLOCK_MONOTONIC (the vDSO, no system call), paid
 * CGS_SPIN_BATCH ops at a time: after every 64th page touch the task
 * spins 64 * NS. A spin after every touch made the kernel's fault path
 * itself cheaper (page_fault3's system time per op fell by 15% with a
 * 331 ns spin, results/COMPARE.md "Calibration"), so the slowdown was not
 * the one injected; in a batch the touches run back to back, as without
 * the knob. bench/verdict-calibration injects its effect with it. With
 * NS = 0 an op pays one predictable branch and nothing else.
 */
#ifndef CGS_SPIN_H
#define CGS_SPIN_H

#include <stdint.h>
#include <time.h>

/* The options struct of a workload whose only knob is the spin. */
struct cgs_spin_opts {
	int64_t spin_ns;
};

/* The spin of task @opts (NULL: none). */
static inline int64_t cgs_spin_of(const void *opts)
{
	return opts ? ((const struct cgs_spin_opts *)opts)->spin_ns : 0;
}

static inline int64_t cgs_spin_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Busy-wait @ns nanoseconds. */
static inline void cgs_spin(int64_t ns)
{
	int64_t end = cgs_spin_now() + ns;

	while (cgs_spin_now() < end)
		;
}

/* Ops per spin: the pages of a 128 MiB mapping are a multiple of it. */
#define CGS_SPIN_BATCH 64

/*
 * Op @n (counted from 0 in the pass) was done: every CGS_SPIN_BATCH-th
 * op busy-waits @ns for each op of its batch.
 */
static inline void cgs_spin_op(int64_t ns, unsigned long n)
{
	if (ns && n % CGS_SPIN_BATCH == CGS_SPIN_BATCH - 1)
		cgs_spin(ns * CGS_SPIN_BATCH);
}

/* The option table entry of the knob named @name ("pf1-spin"). */
#define CGS_SPIN_OPT(name) \
	OPT_INT(name, 0, struct cgs_spin_opts, spin_ns, .def = "0", .min = 0, \
		.max = 10000000, .metavar = "NS", \
		.help = "busy-wait NS ns per op (64 * NS after every 64th op), timed with the clock: a fixed slowdown to calibrate compare (0: off)")

#endif
