/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_v2.c - the steps libcgroup 2.0.2 cannot do, done on cgroupfs files
 * directly: the parent's cgroup.subtree_control on v2 (2.0.2 never writes
 * the mount root's, and it would enable controllers in a parent that
 * still holds the runner, which v2's no-internal-process rule forbids),
 * moving the runner into a leaf of its own first, and the marker xattr.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cgroup-setup/cg.h"
#include "cgroup-setup/cg_int.h"
#include "lib/util.h"

int cg_mark(const char *full, const char *value, char *err, size_t errlen)
{
	if (!setxattr(full, CG_MARKER, value, strlen(value), 0))
		return 0;
	snprintf(err, errlen, "cannot mark %s with the xattr %s: %s (cgscale only removes cgroups it can recognise)",
		 full, CG_MARKER, strerror(errno));
	return -errno;
}

/* Child cgroup directories of @full, other than @except; -errno. */
static int count_children(const char *full, const char *except)
{
	DIR *d = opendir(full);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (e->d_type == DT_DIR && strcmp(e->d_name, ".") &&
		    strcmp(e->d_name, "..") && (!except || strcmp(e->d_name, except)))
			n++;
	closedir(d);
	return n;
}

/* Write "+a +b" or "-a -b" for the comma-separated @ctrls. */
static int subtree_write(const char *full, const char *ctrls, char sign)
{
	char path[PATH_MAX + 32], val[300] = "";
	size_t used = 0;

	for (const char *p = ctrls; p && *p;) {
		size_t n = strcspn(p, ",");

		used += snprintf(val + used, sizeof(val) - used, "%s%c%.*s",
				 used ? " " : "", sign, (int)n, p);
		p = p[n] ? p + n + 1 : NULL;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", full);
	return used ? cgs_write_str(path, val) : 0;
}

/* Is the @n-character word @w in the blank-separated @list? */
static bool word_in(const char *list, const char *w, size_t n)
{
	for (const char *p = list; *p;) {
		size_t len;

		p += strspn(p, " \n");
		len = strcspn(p, " \n");
		if (len == n && !strncmp(p, w, n))
			return true;
		p += len;
	}
	return false;
}

/* Step 1: every controller @h needs is available in @full. */
static int check_available(const struct cg_thier *h, const char *full,
			   char *err, size_t errlen)
{
	char path[PATH_MAX + 32], buf[8192];
	int rc;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", full);
	if ((rc = cgs_read_file(path, buf, sizeof(buf))))
		return cgs_errf(err, errlen, rc, "--cgroup-parent %s: cannot read %s: %s",
				h->parent, path, strerror(-rc));
	for (const char *p = h->need; *p;) {
		size_t n = strcspn(p, ",");

		if (!word_in(buf, p, n))
			return cgs_errf(err, errlen, -ENODEV, "the %.*s controller is not available in %s: its parent does not enable it in cgroup.subtree_control; enable it there or choose another --cgroup-parent",
					(int)n, p, full);
		p = p[n] ? p + n + 1 : "";
	}
	return 0;
}

/* Step 2: the controllers @h needs that @full does not enable for its
 * children yet, comma-separated in @missing ("" when none). */
static int find_missing(const struct cg_thier *h, const char *full,
			char *missing, size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], buf[8192];
	int rc;

	*missing = 0;
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", full);
	if ((rc = cgs_read_file(path, buf, sizeof(buf))))
		return cgs_errf(err, errlen, rc, "cannot read %s: %s", path, strerror(-rc));
	for (const char *p = h->need; *p;) {
		size_t n = strcspn(p, ",");

		if (!word_in(buf, p, n))
			snprintf(missing + strlen(missing), len - strlen(missing),
				 "%s%.*s", missing[0] ? "," : "", (int)n, p);
		p = p[n] ? p + n + 1 : "";
	}
	return 0;
}

/* Step 3, the no-internal-process rule: @full holds no process but
 * perhaps the runner itself (*us says so). */
static int check_no_procs(const char *full, const char *missing, bool *us,
			  char *err, size_t errlen)
{
	char path[PATH_MAX + 32], buf[8192];
	pid_t self = getpid();
	int rc;

	*us = false;
	snprintf(path, sizeof(path), "%s/cgroup.procs", full);
	if ((rc = cgs_read_file(path, buf, sizeof(buf))))
		return cgs_errf(err, errlen, rc, "cannot read %s: %s", path, strerror(-rc));
	for (char *p = buf; *p;) {
		long pid = strtol(p, &p, 10);

		if (pid == self)
			*us = true;
		else if (pid > 0)
			return cgs_errf(err, errlen, -EBUSY, "%s holds processes (pid %ld and maybe more) and cgroup v2 forbids enabling controllers (%s) in a cgroup with processes: give --cgroup-parent / or a cgroup without processes",
					full, pid, missing);
		while (*p && (*p < '0' || *p > '9'))
			p++;
	}
	return 0;
}

/*
 * Step 4: move the runner out of @h's parent into a leaf of its own, as
 * container runtimes do. Directly: libcgroup's create would enable the
 * controllers in the parent first, which fails while we are still in it,
 * and 2.0.2's attach refuses a v2 cgroup whose parent does not enable the
 * controller ("Cgroup is not mounted"), which is the point here.
 */
static int move_runner(struct cg_tree *t, struct cg_thier *h,
		       const char *mount, const char *missing, char *err,
		       size_t errlen)
{
	char rel[PATH_MAX + 96], leaf[2 * PATH_MAX], mark[512], extra[300];
	char procs[2 * PATH_MAX + 16], pid[24];
	int rc;

	snprintf(extra, sizeof(extra), "parent_enabled=%s", missing);
	snprintf(rel, sizeof(rel), "%s/%s-runner", h->parent, t->spec.id);
	snprintf(leaf, sizeof(leaf), "%s%s", mount, rel);
	if (mkdir(leaf, 0755))   /* safe-path: cgroupfs, where only root makes directories and no link exists */
		return cgs_errf(err, errlen, -errno, "cannot create %s: %s", leaf,
				strerror(errno));
	cg_copy(h->runner_leaf, sizeof(h->runner_leaf), rel);
	cg_copy(h->runner_from, sizeof(h->runner_from), h->parent);
	h->runner_lock = cg_lock(leaf);
	if (h->runner_lock < 0)
		return cgs_errf(err, errlen, h->runner_lock, "cannot lock %s: %s", leaf,
				strerror(-h->runner_lock));
	if ((rc = cg_marker_value(mark, sizeof(mark), extra)))
		return cgs_errf(err, errlen, rc, "cannot mark %s: %s", leaf, strerror(-rc));
	if ((rc = cg_mark(leaf, mark, err, errlen)))
		return rc;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", leaf);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	rc = cgs_write_str(procs, pid);
	if (rc)
		return cgs_errf(err, errlen, rc, "cannot move the runner into %s: %s",
				leaf, strerror(-rc));
	return 0;
}

int cg_v2_prepare(struct cg_tree *t, struct cg_thier *h, char *err, size_t errlen)
{
	const struct cg_hier *lh = &t->lay->h[h->hi];
	bool root = !strcmp(h->parent, "/"), us = false;
	char full[PATH_MAX], missing[256], still[256];
	int rc;

	snprintf(full, sizeof(full), "%s%s", lh->mount, root ? "" : h->parent);
	if ((rc = check_available(h, full, err, errlen)) ||
	    (rc = find_missing(h, full, missing, sizeof(missing), err, errlen)))
		return rc;
	if (!missing[0])
		return 0;
	/* the root is exempt from the no-internal-process rule */
	if (!root && (rc = check_no_procs(full, missing, &us, err, errlen)))
		return rc;
	if (us && (rc = move_runner(t, h, lh->mount, missing, err, errlen)))
		return rc;
	rc = subtree_write(full, missing, '+');
	if (rc)
		return cgs_errf(err, errlen, rc, "cannot enable %s in %s/cgroup.subtree_control: %s",
				missing, full, strerror(-rc));
	snprintf(h->enabled, sizeof(h->enabled), "%s", missing);
	/* read back: what the kernel took is what the tree relies on */
	if ((rc = find_missing(h, full, still, sizeof(still), err, errlen)))
		return rc;
	if (still[0])
		return cgs_errf(err, errlen, -EIO, "wrote +%s to %s/cgroup.subtree_control, but it reads back without %s",
				missing, full, still);
	return 0;
}

/* The runner is back where it came from: a process someone else put in
 * its leaf meanwhile (or one moved out of the tree while the parent could
 * hold none) follows it there, never killed. */
static int runner_leaf_empty(struct cg_tree *t, struct cg_thier *h, const char *leaf,
			     char *err, size_t errlen)
{
	const struct cg_hier *lh = &t->lay->h[h->hi];
	char from[PATH_MAX + 96];
	struct cg_evict ev = { .to = { from, NULL }, .stray = t->stray, .arg = t->stray_arg };
	int rc;

	snprintf(from, sizeof(from), "%s%s", lh->mount,
		 strcmp(h->runner_from, "/") ? h->runner_from : "");
	rc = cg_drain(leaf, h->version, 0, &ev);
	if (rc)
		snprintf(err, errlen, "%s holds processes that cgscale did not start and cannot move to %s: left there",
			 leaf, from);
	return rc;
}

int cg_v2_restore(struct cg_tree *t, struct cg_thier *h, char *err, size_t errlen)
{
	const struct cg_hier *lh = &t->lay->h[h->hi];
	bool root = !strcmp(h->parent, "/");
	const char *rl = h->runner_leaf[0] ? strrchr(h->runner_leaf, '/') + 1 : NULL;
	char full[PATH_MAX];
	int rc = 0, n;

	snprintf(full, sizeof(full), "%s%s", lh->mount, root ? "" : h->parent);
	if (h->enabled[0]) {
		/* only when no other cgroup came to live there meanwhile:
		 * disabling would take the controller away from it */
		n = count_children(full, rl);
		if (n == 0)
			rc = subtree_write(full, h->enabled, '-');
		if (rc || n) {
			snprintf(err, errlen, "left %s enabled in %s/cgroup.subtree_control: %s",
				 h->enabled, full, n ? "other cgroups live there now" : strerror(-rc));
			rc = rc ? rc : -EBUSY;
		}
		h->enabled[0] = 0;
	}
	if (h->runner_leaf[0] && !rc) {
		char leaf[PATH_MAX + 96];

		rc = cg_lib_attach(h->ctrl, h->runner_from, getpid(), err, errlen);
		snprintf(leaf, sizeof(leaf), "%s%s", lh->mount, h->runner_leaf);
		if (!rc)
			rc = runner_leaf_empty(t, h, leaf, err, errlen);
		/* safe-path: cgroupfs, the runner leaf we made above */
		if (!rc && rmdir(leaf)) {
			rc = -errno;
			snprintf(err, errlen, "cannot remove %s: %s", leaf, strerror(errno));
		}
		if (!rc) {
			h->runner_leaf[0] = 0;
			if (h->runner_lock >= 0)
				close(h->runner_lock);
			h->runner_lock = -1;
		}
	}
	return rc;
}
