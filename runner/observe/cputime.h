/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cputime.h - the CPU-time observer (cputime.c): each task's user and
 * system time over a point's measured window, into its "cputime" section.
 */
#ifndef CGS_CPUTIME_H
#define CGS_CPUTIME_H

#include "runner/point/point.h"

struct cgs_cpuobs;
/* NULL without memory. */
struct cgs_cpuobs *cgs_cpuobs_new(void);
void cgs_cpuobs_observer(struct cgs_cpuobs *c, struct cgs_observer *o);
void cgs_cpuobs_free(struct cgs_cpuobs *c);

#endif
