/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freshtmp.h - a tmpfs of the run's own over /dev/shm, in a mount
 * namespace of the run's own (freshtmp.c).
 */
#ifndef CGS_FRESHTMP_H
#define CGS_FRESHTMP_H

#include <stddef.h>
#include <stdint.h>

/* The size of the run's tmpfs for @need bytes of the tasks' files at
 * once: 16 MiB more, in whole MiB. */
uint64_t cgs_fresh_tmpfs_size(uint64_t need);

/* Move the runner into a mount namespace of its own and mount a tmpfs of
 * @bytes over /dev/shm there; its path into @path. Must run before the
 * runner starts a thread. @keep: paths the run writes (output, journal)
 * that must stay the box's. 0, or -errno with why not in @why (not
 * root, /dev/shm no tmpfs, a path of @keep or the working directory
 * under it, no namespace); on a failure after unshare the runner is in
 * a namespace of its own with every mount as it was. */
int cgs_fresh_tmpfs(const char *const *keep, size_t nkeep, uint64_t bytes, char *path,
		    size_t plen, char *why, size_t wlen);

#endif
