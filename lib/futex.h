/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * futex.h - the one futex wrapper: wait while *@w == @val (with an
 * optional relative timeout), and wake @n waiters. Not FUTEX_PRIVATE:
 * the words live in memory shared between processes.
 */
#ifndef CGS_FUTEX_H
#define CGS_FUTEX_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline long cgs_futex_wait(_Atomic uint32_t *w, uint32_t val,
				  const struct timespec *rel)
{
	return syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT, val, rel, NULL, 0);
}

static inline long cgs_futex_wake(_Atomic uint32_t *w, int n)
{
	return syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, n, NULL, NULL, 0);
}

#endif
