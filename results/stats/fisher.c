/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fisher.c - Fisher's exact test of a 2x2 table, two-sided as R's
 * fisher.test: the sum of the hypergeometric probabilities (libRmath's
 * dhyper) of every table with the same margins that is no more likely
 * than the one seen. compare uses it for a counter that is 0 on every run
 * of one side and above 0 on every run of the other (COMPARE.md,
 * "All-or-nothing counters"). Knobs: none.
 */
#include <math.h>

#define MATHLIB_STANDALONE 1
#include <Rmath.h>

#include "results/stats/stats.h"

double st_fisher_2x2(unsigned a, unsigned b, unsigned c, unsigned d)
{
	/* rows: the two sides; columns: the runs at 0, the runs above it */
	double zeros = (double)a + c, others = (double)b + d, row = (double)a + b;
	double seen = dhyper(a, zeros, others, row, 0), p = 0;
	unsigned lo = row > others ? (unsigned)(row - others) : 0;
	unsigned hi = (unsigned)fmin(row, zeros);

	if (!(row > 0) || !((double)c + d > 0))
		return NAN;
	for (unsigned x = lo; x <= hi; x++) {
		double px = dhyper(x, zeros, others, row, 0);

		if (px <= seen * (1 + 1e-7))   /* R's relative tolerance */
			p += px;
	}
	return fmin(1.0, p);
}
