/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * limits.h - limits that more than one layer must agree on.
 */
#ifndef CGS_LIMITS_H
#define CGS_LIMITS_H

/* Auxiliary counters per workload (tests/workload.h) and per point in a
 * result (results/model/result.h). */
#define CGS_MAX_AUX 4

#endif
