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

#include <stddef.h>

#include "point.h"

struct cgs_run;
struct cgs_evidence;

/* For one point whose cgroups are @cg (NULL: none): add the observers @r asks for to obs[*nobs]; *@out is
 * freed by cgs_evidence_end (NULL: none). 0 or -ENOMEM. */
int cgs_evidence_begin(const struct cgs_run *r, const struct cgs_cgview *cg,
		       struct cgs_observer *obs, unsigned *nobs,
		       struct cgs_evidence **out);
void cgs_evidence_end(struct cgs_evidence *ev);

/* The observers themselves; each *_new returns NULL without memory. */
struct cgs_vmobs;
struct cgs_vmobs *cgs_vmobs_new(void);
void cgs_vmobs_observer(struct cgs_vmobs *v, struct cgs_observer *o);
void cgs_vmobs_free(struct cgs_vmobs *v);

struct cgs_cpuobs;
struct cgs_cpuobs *cgs_cpuobs_new(void);
void cgs_cpuobs_observer(struct cgs_cpuobs *c, struct cgs_observer *o);
void cgs_cpuobs_free(struct cgs_cpuobs *c);

#endif
