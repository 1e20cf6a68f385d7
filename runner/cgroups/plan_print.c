/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan_print.c - the cgroups each layout of a run would make, printed for
 * `cgscale cgroup show` and `run --dry-run` (cgrun.h); nothing is created.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/cgroups/cgrun.h"
#include "lib/util.h"

/* The cgroup file systems and the runner's place in each (cgrun.h). */
void cgs_cg_layout_print(const struct cg_layout *l)
{
	printf("cgroup file systems: %s\n", cg_kind_name(l->kind));
	for (unsigned i = 0; i < l->n; i++)
		printf("  v%d  %-28s %-28s runner in %s\n", l->h[i].version,
		       l->h[i].mount, l->h[i].ctrls[0] ? l->h[i].ctrls : "(no controllers)",
		       l->h[i].self[0] ? l->h[i].self : "(not visible)");
}

/* One layout's tree, drawn per hierarchy. */
static int print_tree(const struct cgs_cgrun *c, unsigned li, unsigned maxtasks)
{
	struct cg_spec spec = { .depth = c->L[li].depth, .per_task = c->per_task,
				.nleaves = c->per_task ? maxtasks : 1,
				.parent = c->has_parent ? c->parent : NULL,
				.nknobs = c->nknobs, .knobs = c->knobs,
				.id = CG_PREFIX "PID-RAND-N" };
	struct cg_tree t;
	char err[1024];
	int rc = cg_tree_plan(&t, &c->lay, &spec, err, sizeof(err));

	if (rc) {
		printf("  cannot be made here: %s\n", err);
		return rc;
	}
	for (unsigned h = 0; h < t.nh; h++) {
		const struct cg_thier *th = &t.h[h];
		const char *mnt = c->lay.h[th->hi].mount;

		printf("  %s (cgroup v%d, %s), under %s%s\n", th->need, th->version, mnt,
		       mnt, strcmp(th->parent, "/") ? th->parent : "");
		for (unsigned i = 0; i < t.nnodes; i++) {
			unsigned lv = t.level[i], leaves = t.spec.nleaves;
			const char *name = strrchr(t.rel[i], '/') + 1;

			if (i >= t.first_leaf + 2 && i + 1 < t.nnodes) {
				if (i == t.first_leaf + 2)
					printf("  %*s...\n", 2 * lv + 2, "");
				continue;
			}
			printf("  %*s%s/  level %u%s", 2 * lv + 2, "", name, lv,
			       i < t.first_leaf ? "" : leaves > 1 ? ", leaf of one task" :
			       ", leaf: all tasks");
			for (unsigned k = 0; k < c->nknobs; k++)
				if (c->knobs[k].level == lv && cg_list_has(th->need, c->knobs[k].ctrl))
					printf("  %s=%s", c->knobs[k].name, c->knobs[k].value);
			printf("\n");
		}
		if (th->version == 2)
			printf("    (v2: the controllers are enabled in the parent's cgroup.subtree_control if they are not; when the runner lives in a non-root parent, it waits in %s/" CG_PREFIX "PID-RAND-N-runner/ meanwhile)\n",
			       strcmp(th->parent, "/") ? th->parent : "");
	}
	cg_tree_free(&t);
	return 0;
}

int cgs_cg_plan_print(const struct cgs_cgrun *cg, unsigned maxtasks)
{
	int status = 0;

	printf("\n%u layout%s; every point runs once in each%s:\n", cg->nlayouts,
	       cg->nlayouts > 1 ? "s" : "",
	       cg->nlayouts > 1 ? ", in ABBA order over --runs" : "");
	for (unsigned li = 0; li < cg->nlayouts; li++) {
		printf("\nlayout %s\n", cg->L[li].name);
		if (!cg->L[li].depth) {
			printf("  no cgroup of our own: the tasks run in %s\n",
			       cg->has_parent ? cg->parent : "the runner's cgroup");
			continue;
		}
		printf("  (names: PID-RAND is unique per run, N counts the points)\n");
		if (print_tree(cg, li, maxtasks))
			status = 1;
	}
	if (geteuid() && (cg->has_parent || cg->L[0].depth || cg->nlayouts > 1))
		printf("\nnote: creating these needs root\n");
	fflush(stdout);
	return status;
}
