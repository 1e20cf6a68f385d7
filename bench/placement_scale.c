/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement_scale.c - how long the placement orders take on large
 * described machines: cgs_places_build for each policy on synthetic
 * topologies of 128, 1024 and 4096 PUs of one shape (more packages),
 * hwloc's load timed apart, best of 5, and the per-PU ratio of the
 * largest to the 1024-PU box. Before the fix, a program that loads the
 * 4096-PU box and builds pus (spread) took 1.08 s (1.38 s); after, 62 ms
 * (99 ms), most of it hwloc's load. Run by `make bench`; figures, not a
 * test.
 */
#include <stdio.h>
#include <stdlib.h>

#include "runner/core/topo.h"
#include "lib/util.h"
#include "lib/macros.h"

static const struct { const char *desc; unsigned pus; } boxes[] = {
	{ "pack:2 numa:2 l3:1 core:16 pu:2", 128 },
	{ "pack:4 numa:2 l3:1 core:64 pu:2", 1024 },
	{ "pack:16 numa:2 l3:1 core:64 pu:2", 4096 },
};
#define NBOX (ARRAY_SIZE(boxes))
#define REPS 5

int main(void)
{
	double us[NBOX][3];

	printf("%-34s %6s %9s %9s %9s %9s  (ms, best of %d)\n", "synthetic topology", "PUs",
	       "load", "cores", "pus", "spread", REPS);
	for (unsigned b = 0; b < NBOX; b++) {
		double load = 1e30;
		struct cgs_topo topo;

		for (int r = 0; r < REPS; r++) {
			int64_t t0 = cgs_now_ns();

			if (cgs_topo_load(&topo, boxes[b].desc)) {
				fprintf(stderr, "placement-scale: hwloc refused %s\n", boxes[b].desc);
				return 1;
			}
			load = (cgs_now_ns() - t0) / 1e3 < load ? (cgs_now_ns() - t0) / 1e3 : load;
			if (r + 1 < REPS)
				cgs_topo_free(&topo);
		}
		for (int p = 0; p < 3; p++) {
			us[b][p] = 1e30;
			for (int r = 0; r < REPS; r++) {
				struct cgs_places pl;
				int64_t t0 = cgs_now_ns();

				if (cgs_places_build(&topo, (enum cgs_placement)p, &pl))
					return 1;
				double d = (cgs_now_ns() - t0) / 1e3;

				us[b][p] = d < us[b][p] ? d : us[b][p];
				cgs_places_free(&pl);
			}
		}
		printf("%-34s %6u %9.3f %9.3f %9.3f %9.3f\n", boxes[b].desc, topo.pus, load / 1e3,
		       us[b][0] / 1e3, us[b][1] / 1e3, us[b][2] / 1e3);
		cgs_topo_free(&topo);
	}
	printf("per-PU time ratio %u/%u PUs: cores %.2f, pus %.2f, spread %.2f (each place is an hwloc bitmap\n"
	       "as wide as the machine, so even copying the places grows as places x PUs: ~%u here)\n",
	       boxes[2].pus, boxes[1].pus,
	       us[2][0] / boxes[2].pus / (us[1][0] / boxes[1].pus),
	       us[2][1] / boxes[2].pus / (us[1][1] / boxes[1].pus),
	       us[2][2] / boxes[2].pus / (us[1][2] / boxes[1].pus), boxes[2].pus / boxes[1].pus);
	return 0;
}
