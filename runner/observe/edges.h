/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * edges.h - the "read at the measured window's edges" skeleton that the
 * vmstat, account and cputime observers share: a read at the sample that
 * opens the window and one when the sampling ends (window_end) while the
 * window was measured, each edge's time kept, and on the first failed
 * read its -errno kept, both edges dropped and no read made again (the
 * figures would not cover the window). The observer gives the read; its
 * sample and window_end hooks call cgs_edges_sample and cgs_edges_end.
 */
#ifndef CGS_OBSERVE_EDGES_H
#define CGS_OBSERVE_EDGES_H

#include <stdbool.h>
#include <stdint.h>

#include "results/model/result.h"

struct cgs_edges {
	int64_t t_ns[2];          /* the window's start and end */
	bool have[2];
	bool off;                 /* a read failed, or nothing to read: no more */
	int err;                  /* the first failed read's -errno, or 0 */
};

/* Read edge @which (0 start, 1 end) into the observer @obs: 0 or -errno. */
typedef int (*cgs_edge_read)(void *obs, int which);

/* For the sample hook: edge 0, at the sample that opens the window. */
void cgs_edges_sample(struct cgs_edges *e, bool window_start, int64_t t_ns,
		      cgs_edge_read read, void *obs);

/* For the window_end hook: edge 1, when the window was measured and its
 * start read. */
void cgs_edges_end(struct cgs_edges *e, enum res_phase ph, int64_t t_ns,
		   cgs_edge_read read, void *obs);

/* Both edges read: the window is covered. */
static inline bool cgs_edges_both(const struct cgs_edges *e)
{
	return e->have[0] && e->have[1];
}

/* The window's length in seconds (both edges read). */
static inline double cgs_edges_seconds(const struct cgs_edges *e)
{
	return (double)(e->t_ns[1] - e->t_ns[0]) / 1e9;
}

#endif
