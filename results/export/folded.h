/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folded.h - `cgscale export --folded` (results/export/folded.c).
 */
#ifndef CGS_EXPORT_FOLDED_H
#define CGS_EXPORT_FOLDED_H

#include <stddef.h>

/* What a stack's number is: its samples, or its time per op. */
enum exp_folded_weight { EXP_FOLDED_SAMPLES, EXP_FOLDED_NS_PER_OP };
extern const char *const exp_folded_weight_names[];   /* samples, ns-per-op */

/*
 * The folded stacks of the profiled point of the result files or
 * directories @args: its runs merged on stdout (one point only: @point,
 * "TEST:MODE:TASKS[:LAYOUT]", chooses), or with @out_dir one file per run
 * and point there (their paths on stdout); by @weight, the merged runs'
 * ns/op averaged. 0, or -errno with @err.
 */
int exp_write_folded(int nargs, char **args, const char *point,
		     const char *out_dir, enum exp_folded_weight weight,
		     char *err, size_t errlen);

#endif
