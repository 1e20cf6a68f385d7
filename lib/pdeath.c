/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pdeath.c - PR_SET_PDEATHSIG, then a check that the parent did not die
 * before it took effect (pdeath.h).
 */
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/pdeath.h"

void cgs_die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
}
