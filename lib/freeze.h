/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freeze.h - is a process in a frozen cgroup (the v1 freezer's
 * freezer.state, or cgroup v2's cgroup.freeze), which cgroup froze it, and
 * thawing one: so that a runner never waits forever on a task that cannot
 * run, and says why.
 */
#ifndef CGS_FREEZE_H
#define CGS_FREEZE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * 1 when @pid is frozen, with the directory of the cgroup that froze it
 * (the one that is itself set frozen, or the task's own when that cannot be
 * told) in @where; 0 when it is not (or is gone); -errno.
 */
int cgs_frozen(pid_t pid, char *where, size_t len);

/* Thaw the cgroup directory @where (v1 freezer or v2). 0 or -errno. */
int cgs_thaw(const char *where);

#endif
