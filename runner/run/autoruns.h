/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * autoruns.h - `run -r auto`: repeat the points, interleaved, until the
 * interval compare would give for each point's primary metric (one value
 * per clean run) is at most T/2 wide on each side, or --max-runs or
 * --max-time is reached. The target, the stop reason and each point's
 * figures go into the result (options.runs_auto).
 */
#ifndef CGS_AUTORUNS_H
#define CGS_AUTORUNS_H

#include <stdbool.h>
#include <stddef.h>

struct cgs_run;

/* Check --runs (N or auto), --threshold and --max-runs together and set
 * the run count (r->o.runs, r->o.runs_auto); 0 or -EINVAL with a one-line
 * message in @err. */
int cgs_auto_validate(struct cgs_run *r, char *err, size_t errlen);

/* After round @nruns (1-based) of -r auto: record the state in the
 * result, and true when the runs should stop (said on stderr). */
bool cgs_auto_done(struct cgs_run *r, unsigned nruns);

#endif
