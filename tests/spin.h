/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spin.h - an exact per-op slowdown for calibration (the page-fault
 * workloads' --pfN-spin NS): busy-wait NS nanoseconds, measured with
 * CLOCK_MONOTONIC (the vDSO, no system call), so that each op costs at
 * least NS more. bench/verdict-calibration injects a known effect with
 * it. With NS = 0 the loop pays one predictable branch and nothing else.
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

/* The option table entry of the knob named @name ("pf1-spin"). */
#define CGS_SPIN_OPT(name) \
	OPT_INT(name, 0, struct cgs_spin_opts, spin_ns, .def = "0", .min = 0, \
		.max = 10000000, .metavar = "NS", \
		.help = "busy-wait NS ns per op, timed with the clock: an exact slowdown to calibrate compare (0: off)")

#endif
