/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_point.h - the --trace observer of one point (trace_point.c).
 */
#ifndef CGS_TRACE_POINT_H
#define CGS_TRACE_POINT_H

#include "runner/point/point.h"
#include "runner/observe/trace.h"

struct cgs_tracept;
struct cgs_cgview;
/* @cg: the point's cgroups (NULL: none), for the own cgroup ids. */
struct cgs_tracept *cgs_tracept_new(const struct cgs_trace *t,
				    const struct cgs_cgview *cg);
void cgs_tracept_observer(struct cgs_tracept *tp, struct cgs_observer *o);
void cgs_tracept_free(struct cgs_tracept *tp);

#endif
