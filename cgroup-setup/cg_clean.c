/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_clean.c - `cgscale cgroup cleanup`: find the cgroups a killed
 * cgscale left behind and remove them, deepest first. A directory is
 * ours only if its name starts with CG_PREFIX *and* it carries the
 * CG_MARKER xattr; it is left alone while its run lives (cg_owner_state:
 * its lock is held, or the pid in its marker still runs with the same
 * start time), at any depth: another run may have made its tree inside a
 * dead one's. Anything else, including a foreign cgroup inside one of
 * ours, is never touched, and the only processes killed are those the dead
 * run recorded as its own (CG_PROCS), never one for its name.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <signal.h>
#include <time.h>
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

/* Is the marked cgroup @sub a live run's? Says so when it is; when not,
 * *@lockfd holds its lock (or -1) for the caller to close. */
static bool live(struct walk *w, const char *sub, const struct cg_marker *m,
		 int *lockfd)
{
	enum cg_life s = cg_owner_state(sub, m, lockfd);
	char what[160];

	if (s == CG_GONE)
		return false;
	if (s == CG_UNKNOWN)
		snprintf(what, sizeof(what), "made by pid %d in another pid namespace, which may still run: left alone",
			 (int)m->pid);
	else if (cg_owner_alive(m->pid, m->start))
		snprintf(what, sizeof(what), "in use by cgscale pid %d, still running: left alone",
			 (int)m->pid);
	else
		snprintf(what, sizeof(what), "in use: a live process holds its lock (made by pid %d): left alone",
			 (int)m->pid);
	say(w, sub, what);
	return true;
}

/* Remove one empty cgroup dir of ours; only @own's processes are killed
 * (all with --force). */
static int remove_dir(struct walk *w, const char *full, const struct cg_own *own,
		      char *err, size_t errlen)
{
	const char *rel = full + strlen(w->h->mount);
	struct cg_evict ev = { .own = own, .kill_all = w->o->force };
	char ctrl[64];
	int rc = cg_drain(full, w->h->version, w->o->wait_ns, &ev);

	if (rc) {
		snprintf(err, errlen, "tasks did not leave");
		return rc;
	}
	snprintf(ctrl, sizeof(ctrl), "%.*s", (int)strcspn(w->h->ctrls, ","), w->h->ctrls);
	if (ctrl[0])
		return cg_lib_remove(ctrl, rel, err, errlen);
	/* a cgroup2 mount with no controller: libcgroup knows no name to
	 * build the path with, so rmdir directly */
	if (rmdir(full)) {      /* safe-path: cgroupfs, a cgroup we made and own */
		snprintf(err, errlen, "%s", strerror(errno));
		return -errno;
	}
	return 0;
}

/* Give the processes of a dead run that it did not record (its tasks)
 * up to wait_ns to die with it, once the recorded ones are killed.
 * Returns how many others are left, as cg_procs_sort. */
static int settle(struct walk *w, const char *full, const struct cg_own *own,
		  char *ours, size_t olen, char *foreign, size_t flen)
{
	int64_t deadline = cgs_now_ns() + w->o->wait_ns;
	int n = cg_procs_sort(full, own, ours, olen, foreign, flen);

	if (n <= 0 || w->o->dry_run || w->o->force)
		return n;
	for (unsigned i = 0; i < own->n; i++)
		if (own->pid[i] != getpid() && cg_own_has(own, own->pid[i]))
			kill(own->pid[i], SIGKILL);
	while (n > 0 && cgs_now_ns() < deadline) {
		struct timespec ts = { 0, 20000000 };

		nanosleep(&ts, NULL);
		n = cg_procs_sort(full, own, ours, olen, foreign, flen);
	}
	return n;
}

/* Processes in a dead run's cgroup: those it recorded as its own are
 * killed on removal; any other keeps the cgroup unless --force. -EBUSY
 * when it is kept. */
static int check_procs(struct walk *w, const char *full, const struct cg_own *own)
{
	char ours[512], foreign[512], what[1200];
	int n = settle(w, full, own, ours, sizeof(ours), foreign, sizeof(foreign));

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

/* The children of our cgroup @full, each removed first; *@live_pid is
 * set when one is a live run's. 0 or -EBUSY when one stays. */
static int remove_tree(struct walk *w, const char *full, int depth, pid_t *live_pid);

static int remove_children(struct walk *w, const char *full, int depth, pid_t *live_pid)
{
	DIR *d = opendir(full);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		struct cg_marker m;
		int fd;

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", full, e->d_name) >= (int)sizeof(sub))
			continue;
		if (!ours_by_name(e->d_name) || read_marker(sub, &m)) {
			say(w, sub, "not made by cgscale (no prefix or marker): left alone, so its parent stays too");
			rc = -EBUSY;
			continue;
		}
		/* another run's cgroup inside this one (--cgroup-parent
		 * pointed here) may be alive though this one's runner is not */
		if (live(w, sub, &m, &fd)) {
			*live_pid = m.pid;
			rc = -EBUSY;
			continue;
		}
		if (remove_tree(w, sub, depth + 1, live_pid))
			rc = -EBUSY;
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
	return rc;
}

/* Remove our cgroup @full and everything below, deepest first. Every
 * cgroup below must be ours too, and its runner gone. 0 or -errno. */
static int remove_tree(struct walk *w, const char *full, int depth, pid_t *live_pid)
{
	char err[512] = "", what[600];
	struct cg_own own = { 0 };
	pid_t below = 0;
	int rc;

	if (depth > MAX_WALK_DEPTH)
		return -ELOOP;
	rc = remove_children(w, full, depth, &below);
	if (rc) {
		if (below) {
			snprintf(what, sizeof(what), "kept: it holds the cgroups of a live cgscale run (pid %d)",
				 (int)below);
			*live_pid = below;
		}
		say(w, full, below ? what : "kept: it holds a cgroup that is not ours");
		w->left++;
		return rc;
	}
	cg_own_read(&own, full);
	rc = check_procs(w, full, &own);
	if (!rc && w->o->dry_run)
		say(w, full, "would remove");
	else if (!rc)
		rc = remove_dir(w, full, &own, err, sizeof(err));
	cg_own_free(&own);
	if (rc && err[0]) {
		snprintf(what, sizeof(what), "cannot remove: %s", err);
		say(w, full, what);
		w->left++;
	} else if (!rc && !w->o->dry_run) {
		say(w, full, "removed");
	}
	return rc;
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
		char sub[PATH_MAX];
		struct cg_marker m;
		pid_t below = 0;
		int rc, fd;

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
		if (live(w, sub, &m, &fd))
			continue;
		/* the lock is ours while we remove it: a second sweep
		 * meanwhile sees it in use */
		if (!remove_tree(w, sub, depth + 1, &below))
			restore_parent(w, sub, m.enabled);
		if (fd >= 0)
			close(fd);
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
