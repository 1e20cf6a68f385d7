/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * evidence.c - which evidence observers a point gets (evidence.h): vmstat
 * and CPU time (unless --no-vmstat / --no-cputime), the tracepoint sets of
 * --trace. They go after the other observers, so their finish sees the
 * sections those wrote (the stat reader's read count, for flushes per read).
 */
#include <errno.h>
#include <stdlib.h>

#include "runner/observe/cputime.h"
#include "runner/observe/evidence.h"
#include "runner/observe/trace_point.h"
#include "runner/observe/vmstat.h"

struct cgs_evidence {
	struct cgs_vmobs *vm;
	struct cgs_cpuobs *cpu;
	struct cgs_tracept *tr;
};

int cgs_evidence_begin(bool vmstat, bool cputime, const struct cgs_trace *trace,
		       const struct cgs_cgview *cg, struct cgs_observer *obs,
		       unsigned *nobs, struct cgs_evidence **out)
{
	struct cgs_evidence *ev = calloc(1, sizeof(*ev));

	*out = ev;
	if (!ev)
		return -ENOMEM;
	if (vmstat) {
		ev->vm = cgs_vmobs_new();
		if (!ev->vm)
			return -ENOMEM;
		cgs_vmobs_observer(ev->vm, &obs[(*nobs)++]);
	}
	if (cputime) {
		ev->cpu = cgs_cpuobs_new();
		if (!ev->cpu)
			return -ENOMEM;
		cgs_cpuobs_observer(ev->cpu, &obs[(*nobs)++]);
	}
	if (trace) {
		ev->tr = cgs_tracept_new(trace, cg);
		if (!ev->tr)
			return -ENOMEM;
		cgs_tracept_observer(ev->tr, &obs[(*nobs)++]);
	}
	return 0;
}

void cgs_evidence_end(struct cgs_evidence *ev)
{
	if (!ev)
		return;
	cgs_vmobs_free(ev->vm);
	cgs_cpuobs_free(ev->cpu);
	cgs_tracept_free(ev->tr);
	free(ev);
}
