/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pidmap.h - from a pid back to the index it was started as, in
 * O(log n): a worker that reaps thousands of children looks each one up
 * once, so reaping them all is O(n log n), not O(n^2).
 */
#ifndef CGS_PIDMAP_H
#define CGS_PIDMAP_H

#include <sys/types.h>

struct cgs_pidmap {
	struct cgs_pidmap_ent { pid_t pid; unsigned idx; } *e;
	unsigned n;
};

/* Map pids[0..n), skipping those <= 0. 0 or -ENOMEM. */
int cgs_pidmap_build(struct cgs_pidmap *m, const pid_t *pids, unsigned n);

/* The index @pid was given at, or -1. */
int cgs_pidmap_find(const struct cgs_pidmap *m, pid_t pid);

void cgs_pidmap_free(struct cgs_pidmap *m);

#endif
