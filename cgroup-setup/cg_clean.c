/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_clean.c - `cgscale cgroup cleanup`: find the cgroups a killed
 * cgscale left behind and remove them, deepest first. A directory is
 * ours only if its name starts with CG_PREFIX *and* it carries the
 * CG_MARKER xattr; it is left alone while the pid in its marker still runs
 * with the same start time (another run, maybe another user's). Anything
 * else, including a foreign cgroup inside one of ours, is never touched.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cgroup-setup/cg.h"
#include "cgroup-setup/cg_int.h"
#include "lib/util.h"

#define MAX_WALK_DEPTH 64

struct walk {
	const struct cg_layout *l;
	const struct cg_hier *h;
	const struct cg_clean_opts *o;
	int left;                 /* could not be removed */
	bool shallow;             /* only the direct children of the start */
};

static void say(const struct walk *w, const char *path, const char *what)
{
	if (w->o->report)
		w->o->report(w->o->arg, path, what);
}

/* The marker of @full, parsed: 0, or -ENODATA when it has none. */
static int read_marker(const char *full, struct cg_marker *m)
{
	char v[512];
	ssize_t n = getxattr(full, CG_MARKER, v, sizeof(v) - 1);

	if (n < 0)
		return errno == ENODATA || errno == ENOTSUP ? -ENODATA : -errno;
	v[n] = 0;
	return cg_marker_parse(v, m) ? -ENODATA : 0;
}

static bool ours_by_name(const char *name)
{
	return !strncmp(name, CG_PREFIX, strlen(CG_PREFIX));
}

/* Remove one empty cgroup dir of ours. */
static int remove_dir(struct walk *w, const char *full, char *err, size_t errlen)
{
	const char *rel = full + strlen(w->h->mount);
	char ctrl[64];
	int rc = cg_drain(full, w->h->version, w->o->wait_ns);

	if (rc) {
		snprintf(err, errlen, "tasks did not leave");
		return rc;
	}
	snprintf(ctrl, sizeof(ctrl), "%.*s", (int)strcspn(w->h->ctrls, ","), w->h->ctrls);
	if (ctrl[0])
		return cg_lib_remove(ctrl, rel, err, errlen);
	/* a cgroup2 mount with no controller: libcgroup knows no name to
	 * build the path with, so rmdir directly */
	if (rmdir(full)) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -errno;
	}
	return 0;
}

/* Processes in a dead run's cgroup: its workers are killed on removal; a
 * process someone moved there keeps the cgroup unless --force. -EBUSY
 * when it is kept. */
static int check_procs(struct walk *w, const char *full)
{
	char ours[512], foreign[512], what[1200];
	int n = cg_procs_sort(full, ours, sizeof(ours), foreign, sizeof(foreign));

	if (n < 0)
		return 0;         /* no cgroup.procs: nothing in it to kill */
	if (n && !w->o->force) {
		snprintf(what, sizeof(what), "kept: it holds processes that are not cgscale's workers: %s; move them out, or give --force to kill them too",
			 foreign);
		say(w, full, what);
		w->left++;
		return -EBUSY;
	}
	if (ours[0] || n) {
		snprintf(what, sizeof(what), "%s %s%s%s", w->o->dry_run ? "would kill" : "killing",
			 ours, ours[0] && n ? ", " : "", n ? foreign : "");
		say(w, full, what);
	}
	return 0;
}

/* Remove our cgroup @full and everything below, deepest first. Every
 * cgroup below must be ours too. Returns 0 or -errno. */
static int remove_tree(struct walk *w, const char *full, int depth)
{
	char err[512] = "";
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (depth > MAX_WALK_DEPTH)
		return -ELOOP;
	d = opendir(full);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		struct cg_marker m;

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", full, e->d_name) >= (int)sizeof(sub))
			continue;
		if (!ours_by_name(e->d_name) || read_marker(sub, &m)) {
			say(w, sub, "not made by cgscale (no prefix or marker): left alone, so its parent stays too");
			rc = -EBUSY;
			continue;
		}
		if (remove_tree(w, sub, depth + 1))
			rc = -EBUSY;
	}
	closedir(d);
	if (rc) {
		say(w, full, "kept: it holds a cgroup that is not ours");
		w->left++;
		return rc;
	}
	rc = check_procs(w, full);
	if (rc)
		return rc;
	if (w->o->dry_run) {
		say(w, full, "would remove");
		return 0;
	}
	rc = remove_dir(w, full, err, sizeof(err));
	if (rc) {
		char what[600];

		snprintf(what, sizeof(what), "cannot remove: %s", err);
		say(w, full, what);
		w->left++;
		return rc;
	}
	say(w, full, "removed");
	return 0;
}

/* v2: after removing a top-level cgroup of ours, turn off what the dead
 * run enabled in the parent, if nothing else lives there now. */
static void restore_parent(struct walk *w, const char *full, const char *enabled)
{
	char parent[PATH_MAX], path[PATH_MAX + 32], val[300] = "";
	DIR *d;
	struct dirent *e;
	bool others = false;

	if (w->h->version != 2 || !enabled[0] || w->o->dry_run)
		return;
	snprintf(parent, sizeof(parent), "%s", full);
	*strrchr(parent, '/') = 0;
	d = opendir(parent);
	if (!d)
		return;
	while ((e = readdir(d)))
		others |= e->d_type == DT_DIR && strcmp(e->d_name, ".") &&
			  strcmp(e->d_name, "..");
	closedir(d);
	if (others)
		return;
	for (const char *p = enabled; *p;) {
		size_t n = strcspn(p, ",");

		snprintf(val + strlen(val), sizeof(val) - strlen(val), "%s-%.*s",
			 val[0] ? " " : "", (int)n, p);
		p += n + (p[n] == ',');
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", parent);
	if (!cgs_write_str(path, val))
		say(w, parent, "turned off what the dead run enabled in cgroup.subtree_control");
}

/* Look for our top-level cgroups below @full. */
static int walk(struct walk *w, const char *full, int depth)
{
	DIR *d;
	struct dirent *e;

	if (depth > MAX_WALK_DEPTH)
		return 0;
	d = opendir(full);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char sub[PATH_MAX], what[128];
		struct cg_marker m;
		int rc;

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", full, e->d_name) >= (int)sizeof(sub))
			continue;
		if (!ours_by_name(e->d_name)) {
			if (!w->shallow)
				walk(w, sub, depth + 1);
			continue;
		}
		rc = read_marker(sub, &m);
		if (rc) {
			say(w, sub, "has the cgscale name prefix but no cgscale marker: not ours, left alone");
			continue;
		}
		rc = cg_marker_owner(&m);
		if (rc) {
			snprintf(what, sizeof(what), rc > 0 ?
				 "in use by cgscale pid %d, still running: left alone" :
				 "made by pid %d in another pid namespace, which may still run: left alone",
				 (int)m.pid);
			say(w, sub, what);
			continue;
		}
		if (!remove_tree(w, sub, depth + 1))
			restore_parent(w, sub, m.enabled);
	}
	closedir(d);
	return 0;
}

int cg_clean_children(const struct cg_layout *l, unsigned hi, const char *full,
		      const struct cg_clean_opts *o)
{
	struct walk w = { .l = l, .o = o, .shallow = true };

	if (hi >= l->n)
		return -EINVAL;
	w.h = &l->h[hi];
	walk(&w, full, 0);
	return w.left;
}

int cg_clean(const struct cg_layout *l, const struct cg_clean_opts *o,
	     char *err, size_t errlen)
{
	struct walk w = { .l = l, .o = o };

	(void)err;
	(void)errlen;
	for (unsigned i = 0; i < l->n; i++) {
		w.h = &l->h[i];
		walk(&w, l->h[i].mount, 0);
	}
	return w.left;
}
