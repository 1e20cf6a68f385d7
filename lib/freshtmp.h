/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freshtmp.h - a tmpfs of a point's own over /dev/shm, in a mount
 * namespace of the worker's own (freshtmp.c).
 */
#ifndef CGS_FRESHTMP_H
#define CGS_FRESHTMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the tasks' files go in it. */
#define CGS_FRESH_TMPDIR "/dev/shm"

/* @dir (NULL or "": no) is on a tmpfs. */
bool cgs_is_tmpfs(const char *dir);

/* The size of the tmpfs for @need bytes of the tasks' files at once:
 * 16 MiB more, in whole MiB. */
uint64_t cgs_fresh_tmpfs_size(uint64_t need);

/* Can a worker here make one? Tried for real in a child process (root,
 * /dev/shm a tmpfs, a mount namespace, a tmpfs mounted in it). 0, or
 * -errno with why not in @why. */
int cgs_fresh_tmpfs_check(char *why, size_t wlen);

/* In the calling process (a worker, before it starts a thread or a
 * task): move into a mount namespace of its own, make its mounts
 * private, and mount a tmpfs of @bytes over /dev/shm; the box never sees
 * it and the kernel drops it when the last process in it ends. 0, or
 * -errno with why in @why. */
int cgs_fresh_tmpfs_enter(uint64_t bytes, char *why, size_t wlen);

#endif
