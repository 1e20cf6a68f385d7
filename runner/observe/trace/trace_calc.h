/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_calc.h - the records of --trace turned into figures (trace_calc.c):
 * pure, so it is unit-tested on made-up records.
 */
#ifndef CGS_TRACE_CALC_H
#define CGS_TRACE_CALC_H

#include <stdbool.h>
#include <stdint.h>

#include "runner/observe/trace/trace.h"

struct json_object;

/* One record, decoded. */
struct cgs_tpev {
	int64_t t_ns;             /* CLOCK_MONOTONIC */
	int cpu;                  /* where it fired */
	enum cgs_tp_kind kind;
	int pid;
	uint64_t id;              /* the cgroup id of the record */
	int64_t a;                /* flush: stats_updates; rstat: cpu field */
	bool b, c;                /* flush: force, needs_flush; rstat: contended */
};

struct cgs_tpcalc;

/* @last_cpu: the highest possible CPU (a flush's per-CPU loop ends
 * there). NULL without memory. */
struct cgs_tpcalc *cgs_tpcalc_new(int last_cpu);
void cgs_tpcalc_free(struct cgs_tpcalc *c);
/* The point's own cgroups: records with these ids count as "own". */
void cgs_tpcalc_own(struct cgs_tpcalc *c, const uint64_t *ids, unsigned n);
/* The measured window; records outside it are not counted. */
void cgs_tpcalc_window(struct cgs_tpcalc *c, int64_t start_ns, int64_t end_ns);
/* Records in time order. */
void cgs_tpcalc_add(struct cgs_tpcalc *c, const struct cgs_tpev *e);
/* Records the kernel dropped (ring full). */
void cgs_tpcalc_lost(struct cgs_tpcalc *c, uint64_t n);
/* The counts, as the "flush" and "rstat_lock" objects of extra.trace;
 * @ops, @reads (the stat reader's, 0: none) scale them. */
struct json_object *cgs_tpcalc_json(const struct cgs_tpcalc *c,
				    const struct cgs_trace *t, double elapsed_s,
				    uint64_t ops, uint64_t reads);

#endif
