/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * evidence.h - the observers that record why a point's figure is what it
 * is, beside the figure itself: /proc/vmstat deltas over the measured
 * window (vmstat.c), each task's user and system CPU time over it
 * (cputime.c), both on by default, and the kernel's memcg stats flushing
 * and rstat lock timing from tracepoints (--trace, trace*.c).
 * results/SCHEMA.md describes their sections (vmstat, cputime, trace).
 */
#ifndef CGS_EVIDENCE_H
#define CGS_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/point/point.h"

struct cgs_trace;
struct cgs_evidence;

/* For one point whose cgroups are @cg (NULL: none): add the observers
 * asked for (vmstat, CPU time, the tracepoints of @trace, NULL: none) to
 * obs[*nobs]; *@out is freed by cgs_evidence_end. 0 or -ENOMEM. */
int cgs_evidence_begin(bool vmstat, bool cputime, const struct cgs_trace *trace,
		       const struct cgs_cgview *cg, struct cgs_observer *obs,
		       unsigned *nobs, struct cgs_evidence **out);
void cgs_evidence_end(struct cgs_evidence *ev);

#endif
