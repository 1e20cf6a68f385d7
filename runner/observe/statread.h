/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statread.h - the concurrent stats reader (--stat-reader HZ): a thread of
 * the runner, outside the measured tasks and pinned with hwloc, that reads
 * a cgroup statistics file whole HZ times a second while any workload
 * runs, and records every read's latency in a log-bucketed histogram.
 *
 * It is an observer of the point: started when all tasks wait at the gate
 * (its target is found from task 0's cgroup), harvested at every sample
 * instant, so the updates' ops/s and the reads' latencies come from the
 * same intervals, and stopped at the end, when it writes the point's
 * extra.stat_reader section (results/SCHEMA.md).
 *
 * The stat_read workload gets a small observer too, which records the
 * file its tasks read (extra.stat_read).
 */
#ifndef CGS_STATREAD_H
#define CGS_STATREAD_H

#include <stddef.h>
#include <stdio.h>

#include "runner/point/point.h"
#include "runner/cgroups/statpath.h"

#include "runner/cgroups/cgrun.h"
#include "runner/core/run_opts.h"
#include "runner/core/topo.h"

struct res_file;

/* One point's stats observers; opaque. */
struct cgs_statread;

/* Check --stat-reader-cpu of @o on @topo (after the topology is loaded).
 * 0 or -EINVAL with a one-line message in @err. */
int cgs_statread_validate(const struct cgs_run_opts *o, const struct cgs_topo *topo,
			  char *err, size_t errlen);

/*
 * After the cgroup layouts are final (cgs_cgrun_preflight): the files of
 * the reader and of stat_read must live in a mounted hierarchy, and in
 * one that holds the cgroups cgscale makes (@c). @wfile: the stat_read
 * workload's --stat-file, or -1 when it is not run. 0 or -errno with @err.
 */
int cgs_statread_preflight(const struct cgs_run_opts *o, const struct cgs_cgrun *c,
			   int wfile, char *err, size_t errlen);

/*
 * For a point of workload @w (its options in @wopts) whose cgroups are @cg
 * (NULL: none): add the observers it needs to obs[*nobs] (the reader when
 * --stat-reader is on, the stat_read recorder for stat_read). *@out is
 * NULL when none is needed. Returns 0 or -ENOMEM.
 */
int cgs_statread_begin(const struct cgs_run_opts *o, const struct cgs_topo *topo,
		       const struct cgs_places *places, const struct cgs_workload *w,
		       const void *wopts, const struct cgs_cgview *cg,
		       struct cgs_observer *obs, unsigned *nobs,
		       struct cgs_statread **out);

/* After the point: stops the reader if it still runs, frees @sr. */
void cgs_statread_end(struct cgs_statread *sr);

/* The table line of the reader for the ok runs of one (test, mode,
 * tasks, cgroup layout; NULL: none recorded), their histograms merged,
 * after the point's own row. */
void cgs_statread_print_rows(const struct res_file *f, const char *test,
			     const char *mode, unsigned tasks, const char *layout,
			     FILE *out);

#endif
