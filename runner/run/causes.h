/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * causes.h - failures named by their cause: --tmpdir's free space checked
 * against what the tests will fill before the first point, and a failed
 * point's reason completed from what was measured (an OOM kill in its
 * cgroup, a SIGBUS from a full --tmpdir).
 */
#ifndef CGS_CAUSES_H
#define CGS_CAUSES_H

#include <stddef.h>

struct cgs_workload;
struct res_point;

/* Is there room in --tmpdir @dir for @most tasks of each of the @n @tests
 * (each with its options @opts[i]), by the workloads' tmpdir_bytes? 0, or
 * -ENOSPC with @err naming the need, the free space and --tmpdir. */
int cgs_tmpdir_check(const char *dir, const struct cgs_workload *const *tests,
		     const void *const *opts, unsigned n, unsigned most,
		     char *err, size_t errlen);

/* Put the cause first in a failed point's reason, when it is known
 * (@tmpdir: the run's --tmpdir). */
void cgs_explain_failure(const char *tmpdir, struct res_point *p);

#endif
