/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dryrun.h - `cgscale run --dry-run`: the plan of a run, printed, with
 * nothing run, made or written: every point in order, where each task
 * would be bound (PUs, core, package, NUMA node, last-level cache), the
 * cgroups each layout would make, the least wall time, and the space the
 * tasks would take in --tmpdir. With --topology it plans for a machine
 * described rather than this one.
 */
#ifndef CGS_DRYRUN_H
#define CGS_DRYRUN_H

#include <stdio.h>

#include "runner/run/run.h"

/* Print the plan of the validated run @r. Returns 0 or 1 when a cgroup
 * layout cannot be made here. */
int cgs_dryrun_print(const struct cgs_run *r, FILE *out);

/* Seconds of warm-up and measurement of all points: the least wall time. */
double cgs_dryrun_seconds(const struct cgs_run *r);

#endif
