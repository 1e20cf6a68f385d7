/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cancel.h - the cancel type of a thread that runs a workload's code.
 */
#ifndef CGS_CANCEL_H
#define CGS_CANCEL_H
#include <pthread.h>

/*
 * Called first by every task and partner, thread or process. In a
 * process that has ever had a second thread (also a child forked from
 * one), glibc 2.36 wraps each cancellation point (read, write,
 * fallocate, send, recv, ...) in two locked cmpxchg on the thread's
 * cancel state unless its cancel type is already asynchronous: 1.5% of
 * fallocate2's op in thread mode here. will-it-scale's threads are
 * asynchronous (so that it can cancel them) and its processes single-
 * threaded, so ours are asynchronous too, for the same op. Nothing ever
 * cancels a task or a partner, so the type changes nothing else.
 */
static inline void cgs_thread_async_cancel(void)
{
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
}

#endif
