/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lkp_stats.h - a result's figures as LKP stats (results/compare/
 * lkp_stats.c): what `export --format lkp-stats` prints and what
 * `compare --format lkp` compares run by run, one computation for both.
 */
#ifndef CGS_COMPARE_LKP_STATS_H
#define CGS_COMPARE_LKP_STATS_H

#include <stdbool.h>
#include <stdio.h>

struct cmp_side;
struct cmp_result;
struct json_object;

/*
 * LKP stats of the sides' files: `key: value` lines as an LKP program's
 * parse prints them (will-it-scale, netperf and stress-ng names where the
 * work is the same). Points at @baseline tasks (0: none) give only their
 * <N>.processes/<N>.threads and the scalability. Disturbed runs are
 * left out of the means, as compare leaves them out (counted in
 * disturbed_runs), unless @keep_disturbed. Points of several cgroup
 * layouts get one set of keys a layout, each led by the layout
 * ("depth-3."). 0, -EIO, or -EINVAL with @err when the files hold more
 * than one test (LKP runs one test per job).
 */
int cmp_lkp_stats(FILE *out, struct cmp_side *sides, unsigned nsides,
		  unsigned baseline, bool keep_disturbed, char *err, size_t errlen);

/*
 * The LKP stats of every run of every side of @r (results/compare/
 * lkp_job.c): each result file is one LKP run, with the baseline its run
 * recorded beside it. @per_side[s] maps each key to the values of the
 * runs that have it. 0, -ENODATA when a file holds no LKP job (more than
 * one test), -ENOMEM; on failure every @per_side[s] is NULL.
 */
int cmp_lkp_job_stats(const struct cmp_result *r, struct json_object **per_side);

#endif
