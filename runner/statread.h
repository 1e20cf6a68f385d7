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

#include "point.h"
#include "statfile.h"

struct cgs_run;
struct res_file;

/* One point's stats observers; opaque. */
struct cgs_statread;

/* Check --stat-reader-cpu of @r (after the topology is loaded). 0 or
 * -EINVAL with a one-line message in @err. */
int cgs_statread_validate(struct cgs_run *r, char *err, size_t errlen);

/*
 * After the cgroup layouts are final (cgs_cgrun_preflight): the files of
 * the reader and of stat_read must live in a mounted hierarchy, and in
 * one that holds the cgroups cgscale makes. 0 or -errno with @err.
 */
int cgs_statread_preflight(struct cgs_run *r, char *err, size_t errlen);

/*
 * For a point of workload @w whose cgroups are @cg
 * (NULL: none): add the observers it needs to obs[*nobs] (the reader when
 * --stat-reader is on, the stat_read recorder for stat_read). *@out is
 * NULL when none is needed. Returns 0 or -ENOMEM.
 */
int cgs_statread_begin(const struct cgs_run *r, const struct cgs_workload *w,
		       const struct cgs_cgview *cg,
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
