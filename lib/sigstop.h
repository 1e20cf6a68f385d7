/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sigstop.h - whether a signal that ends the run waits for us, blocked:
 * a wait that holds SIGINT, SIGTERM and SIGHUP blocked (the open of a
 * FIFO output, a helper `cgscale ab` runs) looks here and ends on one.
 */
#ifndef CGS_SIGSTOP_H
#define CGS_SIGSTOP_H

#include <signal.h>
#include <stdbool.h>

static inline bool cgs_stop_pending(void)
{
	sigset_t p;

	return !sigpending(&p) && (sigismember(&p, SIGINT) == 1 ||
				   sigismember(&p, SIGTERM) == 1 ||
				   sigismember(&p, SIGHUP) == 1);
}

#endif
