/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmstat.h - the vmstat observer (vmstat.c): /proc/vmstat deltas over a
 * point's measured window, into its "vmstat" section.
 */
#ifndef CGS_VMSTAT_H
#define CGS_VMSTAT_H

#include "runner/point/point.h"

struct cgs_vmobs;
/* NULL without memory. */
struct cgs_vmobs *cgs_vmobs_new(void);
void cgs_vmobs_observer(struct cgs_vmobs *v, struct cgs_observer *o);
void cgs_vmobs_free(struct cgs_vmobs *v);

#endif
