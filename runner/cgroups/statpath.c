/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statpath.c - find the cgroup statistics files of runner/cgroups/statpath.h (reading
 * and parsing them is lib/statfile.c's).
 *
 * Which hierarchies are mounted where comes from cgroup-setup's layout
 * (cg_layout_detect); a file lives in the hierarchy of its controller, or
 * in cgroup v2's when it is a v2 core file (cgroup.stat, cpu.stat).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cgroup-setup/cg.h"
#include "tests/workload.h"
#include "runner/cgroups/statpath.h"
#include "lib/util.h"

/* The controller a file belongs to; NULL: a v2 core file. */
static const char *file_ctrl(enum cgs_stat_file f)
{
	switch (f) {
	case CGS_SF_MEMORY_STAT:
	case CGS_SF_NUMA_STAT:
		return "memory";
	case CGS_SF_CPU_STAT:
		return "cpu";
	case CGS_SF_CGROUP_STAT:
		break;
	}
	return NULL;
}

/*
 * The hierarchy a file lives in: the one holding its controller (v1 or
 * v2), else, for a v2 core file (cgroup.stat; cpu.stat without the cpu
 * controller), the cgroup2 hierarchy. -ENOENT when there is none.
 */
static int file_hier(const struct cg_layout *l, enum cgs_stat_file f)
{
	const char *ctrl = file_ctrl(f);
	int h = ctrl ? cg_layout_find(l, ctrl) : -ENOENT;

	if (h >= 0 || (ctrl && f != CGS_SF_CPU_STAT))
		return h;
	for (unsigned i = 0; i < l->n; i++)
		if (l->h[i].version == 2)
			return (int)i;
	return -ENOENT;
}

/* Drop the last @up components of cgroup path @p ("/a/b/c" -> "/a").
 * -ERANGE when it has fewer. */
static int ascend(char *p, unsigned up)
{
	for (unsigned i = 0; i < up; i++) {
		char *slash = strrchr(p, '/');

		if (!slash || !strcmp(p, "/"))
			return -ERANGE;
		if (slash == p)
			slash[1] = 0;    /* "/a" -> "/" */
		else
			*slash = 0;
	}
	return 0;
}

/* Is hierarchy @h one of those holding the cgroups of @cg? */
static bool ours(const struct cg_layout *l, int h, const struct cgs_cgview *cg)
{
	for (const char *c = cg->ctrls; c && *c;) {
		size_t len = strcspn(c, ",");
		char one[32];

		snprintf(one, sizeof(one), "%.*s", (int)len, c);
		if (cg_layout_find(l, one) == h)
			return true;
		c += len;
		c += strspn(c, ",");
	}
	return false;
}

int cgs_stat_check(const struct cg_layout *l, enum cgs_stat_file file,
		   const struct cgs_cgview *cg, char *err, size_t errlen)
{
	const char *name = cgs_stat_file_names[file], *ctrl = file_ctrl(file);
	int h = file_hier(l, file);

	if (h < 0)
		return ctrl && file != CGS_SF_CPU_STAT
		       ? cgs_errf(err, errlen, -ENODEV,
				  "%s: the %s controller is mounted neither on cgroup v1 nor on cgroup v2 here; pick another file",
				  name, ctrl)
		       : cgs_errf(err, errlen, -ENODEV,
				  "%s is a cgroup v2 file and no cgroup2 filesystem is mounted here; pick another file",
				  name);
	if (cg && cg->depth && !ours(l, h, cg))
		return cgs_errf(err, errlen, -EINVAL,
				"%s lives in the cgroup v%d hierarchy at %s, where cgscale makes no cgroups (it makes them in the hierarchies of %s); pick a file of those",
				name, l->h[h].version, l->h[h].mount, cg->ctrls);
	return h;
}

int cgs_stat_locate_in(const struct cg_layout *l, const char *proc_cgroup,
		       enum cgs_stat_file file, enum cgs_stat_target target,
		       const struct cgs_cgview *cg, struct cgs_stat_where *w,
		       char *err, size_t errlen)
{
	const char *name = cgs_stat_file_names[file];
	const char *tname = cgs_stat_target_names[target];
	unsigned depth = cg ? cg->depth : 0, up;
	const struct cg_hier *hr;
	int h, rc;

	memset(w, 0, sizeof(*w));
	h = cgs_stat_check(l, file, cg, err, errlen);
	if (h < 0)
		return h;
	hr = &l->h[h];
	w->version = hr->version;
	if (cg_proc_path(l, (unsigned)h, proc_cgroup, w->cgroup, sizeof(w->cgroup)))
		return cgs_errf(err, errlen, -ENOENT,
				"%s: the task is in no cgroup that the cgroup v%d mount at %s shows",
				name, hr->version, hr->mount);
	if (depth) {
		up = target == CGS_ST_LEAF ? 0 : target == CGS_ST_TOP ? depth - 1 : depth;
		if (ascend(w->cgroup, up))
			return cgs_errf(err, errlen, -ERANGE,
					"target %s: the task's cgroup %s is not %u levels deep",
					tname, w->cgroup, up);
		snprintf(w->how, sizeof(w->how),
			 "%s: %u level(s) above the cgroup of task 0, of the %u cgscale made",
			 tname, up, depth);
	} else {
		snprintf(w->how, sizeof(w->how),
			 "%s: the tasks' own cgroup (cgscale made no cgroups)", tname);
	}
	rc = snprintf(w->path, sizeof(w->path), "%s%s/%s", hr->mount,
		      strcmp(w->cgroup, "/") ? w->cgroup : "", name);
	if (rc >= (int)sizeof(w->path))
		return cgs_errf(err, errlen, -ENAMETOOLONG, "the path of %s is too long", name);
	return 0;
}

int cgs_stat_locate(pid_t pid, enum cgs_stat_file file,
		    enum cgs_stat_target target, const struct cgs_cgview *cg,
		    struct cgs_stat_where *w, char *err, size_t errlen)
{
	struct cg_layout *l = malloc(sizeof(*l));
	char *pc = malloc(1 << 16), path[64];
	int rc = -ENOMEM;

	if (!l || !pc)
		goto out;
	rc = cg_layout_detect(l, err, errlen);
	if (rc)
		goto out;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid ? (int)pid : (int)getpid());
	rc = cgs_read_file(path, pc, 1 << 16);
	if (rc) {
		cgs_errf(err, errlen, rc, "cannot read %s: %s", path, strerror(-rc));
		goto out;
	}
	rc = cgs_stat_locate_in(l, pc, file, target, cg, w, err, errlen);
	if (!rc && access(w->path, R_OK)) {
		rc = -errno;
		cgs_errf(err, errlen, rc, "%s: cannot read %s (cgroup %s, v%d): %s",
			 cgs_stat_file_names[file], w->path, w->cgroup, w->version,
			 strerror(-rc));
	}
out:
	free(l);
	free(pc);
	return rc;
}
