/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pdeath.h - children die with their parent: every process cgscale forks
 * (workers, tasks, partners, the runner of each --invocations, helpers)
 * calls this first, so that a kill -9 of the parent takes the whole tree
 * down at once instead of leaving orphans running.
 */
#ifndef CGS_PDEATH_H
#define CGS_PDEATH_H

#include <sys/types.h>

/*
 * In a child just forked by @parent (its pid, read before the fork): get
 * SIGKILL when the parent dies (PR_SET_PDEATHSIG, kept across execve),
 * and if the parent died before that was set (getppid() is no longer
 * @parent), exit at once with status 127.
 */
void cgs_die_with_parent(pid_t parent);

#endif
