/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scope_cg.c - where `--profile-scope cgroup` points perf (scope.h): a
 * perf cgroup event (PERF_FLAG_PID_CGROUP) takes a directory of the
 * hierarchy that holds the perf_event controller, a v1 hierarchy that
 * names it or else cgroup v2, where it is implicit. The run's cgroups
 * must be there: cgscale makes its tree in the hierarchies of the
 * controllers it uses (cgs_cgview.ctrls), and one of them must hold
 * perf_event; the event then covers level 1 of the tree, so every task
 * of the point and nothing else. On a hybrid host whose tree is in the
 * v1 memory hierarchy while perf_event is on v2, where the tasks share
 * the runner's cgroup, it cannot: the reason says so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup-setup/cg.h"
#include "lib/util.h"
#include "runner/observe/profile/scope.h"

/* Is hierarchy @h one of those cgscale made the tree in? */
static bool ours(const struct cg_layout *l, int h, const char *ctrls)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", ctrls ? ctrls : "");
	for (char *c = strtok_r(buf, ",", &save); c; c = strtok_r(NULL, ",", &save))
		if (cg_layout_find(l, c) == h)
			return true;
	return false;
}

/* Drop the last @up components of cgroup path @p ("/a/b/c"). */
static int ascend(char *p, unsigned up)
{
	while (up--) {
		char *s = strrchr(p, '/');

		if (!s || s == p)
			return -ERANGE;
		*s = 0;
	}
	return 0;
}

int cgs_scope_cgroup_in(const struct cg_layout *l, bool v2_perf,
			const char *proc_cgroup, const struct cgs_cgview *cg,
			char *dir, size_t dlen, char *why, size_t wlen)
{
	int h = cg_layout_find(l, "perf_event");
	char path[PATH_MAX];

	for (unsigned i = 0; h < 0 && v2_perf && i < l->n; i++)
		if (l->h[i].version == 2)
			h = (int)i;
	if (h < 0)
		return cgs_errf(why, wlen, -EOPNOTSUPP,
				"the perf_event cgroup controller is on no mounted hierarchy here (neither a v1 mount names it nor is cgroup v2 mounted with it); use --profile-scope system");
	if (!cg || !cg->depth)
		return cgs_errf(why, wlen, -EOPNOTSUPP,
				"the run makes no cgroups (--cgroup-depth 0), so its tasks are in the runner's own cgroup; use --profile-scope system");
	if (!ours(l, h, cg->ctrls))
		return cgs_errf(why, wlen, -EOPNOTSUPP,
				"perf_event is on the cgroup v%d hierarchy at %s, where cgscale makes no cgroups (it makes them in the hierarchies of %s), so perf cannot tell the run's tasks from the rest; use --profile-scope system",
				l->h[h].version, l->h[h].mount, cg->ctrls);
	if (cg_proc_path(l, (unsigned)h, proc_cgroup, path, sizeof(path)))
		return cgs_errf(why, wlen, -EOPNOTSUPP,
				"task 0 is in no cgroup of the perf_event hierarchy at %s", l->h[h].mount);
	if (ascend(path, cg->depth - 1))
		return cgs_errf(why, wlen, -EOPNOTSUPP,
				"task 0's cgroup %s is not %u levels deep", path, cg->depth);
	if ((size_t)snprintf(dir, dlen, "%s%s", l->h[h].mount, path) >= dlen)
		return cgs_errf(why, wlen, -EOPNOTSUPP, "the cgroup's path is too long");
	return 0;
}

int cgs_scope_cgroup(int pid, const struct cgs_cgview *cg, char *dir, size_t dlen,
		     char *why, size_t wlen)
{
	struct cg_layout *l = malloc(sizeof(*l));
	char *pc = malloc(1 << 16), *cgs = malloc(1 << 14), path[64];
	int rc = -ENOMEM;

	if (!l || !pc || !cgs) {
		cgs_errf(why, wlen, rc, "out of memory");
		goto out;
	}
	rc = cg_layout_detect(l, why, wlen);
	if (rc)
		goto out;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	rc = cgs_read_file(path, pc, 1 << 16);
	if (rc) {
		cgs_errf(why, wlen, rc, "reading %s: %s", path, strerror(-rc));
		goto out;
	}
	if (cgs_read_file("/proc/cgroups", cgs, 1 << 14))
		cgs[0] = 0;
	rc = cgs_scope_cgroup_in(l, strstr(cgs, "\nperf_event\t") != NULL, pc, cg,
				 dir, dlen, why, wlen);
out:
	free(l);
	free(pc);
	free(cgs);
	return rc;
}
