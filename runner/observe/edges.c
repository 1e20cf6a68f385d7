/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * edges.c - reads at the measured window's edges (edges.h).
 */
#include "runner/observe/edges.h"

static void edge(struct cgs_edges *e, int which, int64_t t_ns, cgs_edge_read read,
		 void *obs)
{
	int rc;

	if (e->off)
		return;
	rc = read(obs, which);
	if (rc) {
		if (!e->err)
			e->err = rc;
		e->have[0] = e->have[1] = false;
		e->off = true;
		return;
	}
	e->t_ns[which] = t_ns;
	e->have[which] = true;
}

void cgs_edges_sample(struct cgs_edges *e, bool window_start, int64_t t_ns,
		      cgs_edge_read read, void *obs)
{
	if (window_start)
		edge(e, 0, t_ns, read, obs);
}

void cgs_edges_end(struct cgs_edges *e, enum res_phase ph, int64_t t_ns,
		   cgs_edge_read read, void *obs)
{
	if (ph == RES_PHASE_MEASURE && e->have[0])
		edge(e, 1, t_ns, read, obs);
}
