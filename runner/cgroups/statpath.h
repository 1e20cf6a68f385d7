/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statpath.h - where the cgroup statistics files that the stat_read
 * workload and the concurrent reader (--stat-reader) read are: which
 * hierarchy each file lives in, which cgroup a target (leaf, top, parent)
 * names. Reading and parsing them is lib/statfile.h's.
 *
 * A target is found from a task's own cgroup (/proc/PID/cgroup), never
 * from names we expect: "leaf" is the task's cgroup, "top" the ancestor
 * depth-1 levels up (level 1 of what cgscale made), "parent" the one
 * depth levels up (where cgscale made them). Without cgroups of our own
 * (depth 0) all three are the task's cgroup, which is the runner's.
 */
#ifndef CGS_STATFILE_H
#define CGS_STATFILE_H

#include <stddef.h>
#include <sys/types.h>

#include "lib/statfile.h"

struct cg_layout;

/*
 * Can @file be read in layout @l for cgroups @cg (NULL: none)? Its
 * hierarchy must be mounted and, when cgscale makes cgroups, be one of
 * theirs. Returns the hierarchy's index, or -ENODEV/-EINVAL with @err.
 */
int cgs_stat_check(const struct cg_layout *l, enum cgs_stat_file file,
		   const struct cgs_cgview *cg, char *err, size_t errlen);

/*
 * Resolve @file at @target in layout @l (cgroup-setup/cg.h), from the
 * /proc/PID/cgroup text of a task. @cg may be NULL (depth 0). Pure, for
 * unit tests. 0 or -errno with a one-line message in @err.
 */
int cgs_stat_locate_in(const struct cg_layout *l, const char *proc_cgroup,
		       enum cgs_stat_file file, enum cgs_stat_target target,
		       const struct cgs_cgview *cg, struct cgs_stat_where *w,
		       char *err, size_t errlen);

/* The same for process @pid (0: ourselves), with the layout detected
 * from /proc; also checks that the file can be read. */
int cgs_stat_locate(pid_t pid, enum cgs_stat_file file,
		    enum cgs_stat_target target, const struct cgs_cgview *cg,
		    struct cgs_stat_where *w, char *err, size_t errlen);

#endif
