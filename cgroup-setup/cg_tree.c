/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_tree.c - the cgroups of one point: plan which hierarchies and paths
 * a layout needs, create them top first (each marked, each level's knobs
 * written through libcgroup), move a worker into its leaf, and remove
 * them all again deepest first. See cg.h for the shape.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "cgroup-setup/cg.h"
#include "cgroup-setup/cg_int.h"

/* The tree hierarchy of layout hierarchy @hi, added when new. */
static struct cg_thier *thier(struct cg_tree *t, unsigned hi, const char *ctrl)
{
	struct cg_thier *h = NULL;

	for (unsigned i = 0; i < t->nh; i++)
		if (t->h[i].hi == hi)
			h = &t->h[i];
	if (!h) {
		h = &t->h[t->nh++];
		memset(h, 0, sizeof(*h));
		h->hi = hi;
		h->runner_lock = -1;
		h->version = t->lay->h[hi].version;
		snprintf(h->ctrl, sizeof(h->ctrl), "%s", ctrl);
	}
	if (!cg_list_has(h->need, ctrl))
		snprintf(h->need + strlen(h->need), sizeof(h->need) - strlen(h->need),
			 "%s%s", h->need[0] ? "," : "", ctrl);
	return h;
}

/* The node names, relative to the parent: levels 1..depth-1, leaves. */
static int plan_nodes(struct cg_tree *t)
{
	const struct cg_spec *s = &t->spec;
	unsigned n = s->depth - 1 + s->nleaves;

	t->rel = calloc(n, sizeof(*t->rel));
	t->level = calloc(n, sizeof(*t->level));
	t->made = calloc(n, sizeof(*t->made));
	if (!t->rel || !t->level || !t->made)
		return -ENOMEM;
	for (unsigned k = 1; k < s->depth; k++) {
		if (k == 1)
			snprintf(t->rel[0], PATH_MAX, "/%s", s->id);
		else if (cg_copy(t->rel[k - 1], PATH_MAX - 32, t->rel[k - 2]))
			return -ENAMETOOLONG;
		else
			snprintf(t->rel[k - 1] + strlen(t->rel[k - 1]), 32,
				 "/" CG_PREFIX "l%u", k);
		t->level[k - 1] = k;
	}
	t->first_leaf = s->depth - 1;
	for (unsigned i = 0; i < s->nleaves; i++) {
		char *r = t->rel[t->first_leaf + i];
		const char *up = s->depth > 1 ? t->rel[s->depth - 2] : "";

		if (s->depth == 1 && !s->per_task)
			snprintf(r, PATH_MAX, "/%s", s->id);
		else if (s->depth == 1)
			snprintf(r, PATH_MAX, "/%s-t%u", s->id, i);
		else if (!s->per_task)
			snprintf(r, PATH_MAX, "%s/" CG_PREFIX "l%u", up, s->depth);
		else
			snprintf(r, PATH_MAX, "%s/" CG_PREFIX "t%u", up, i);
		t->level[t->first_leaf + i] = s->depth;
	}
	t->nnodes = n;
	return 0;
}

int cg_tree_plan(struct cg_tree *t, const struct cg_layout *l,
		 const struct cg_spec *spec, char *err, size_t errlen)
{
	int mem = cg_layout_find(l, "memory"), rc;

	memset(t, 0, sizeof(*t));
	t->lay = l;
	t->spec = *spec;
	t->wait_ns = 10 * 1000000000LL;
	for (unsigned h = 0; h < CG_MAX_HIER; h++)
		t->lock[h] = -1;
	if (spec->depth < 1 || spec->depth > CG_MAX_DEPTH || spec->nleaves < 1 ||
	    (!spec->per_task && spec->nleaves != 1))
		return cgs_errf(err, errlen, -EINVAL, "bad cgroup tree: depth %u, %u leaves",
			   spec->depth, spec->nleaves);
	if (mem < 0)
		return cgs_errf(err, errlen, -ENODEV,
			   "the memory controller is not available: no v1 hierarchy has it and no cgroup2 mount lists it in cgroup.controllers (is CONFIG_MEMCG on, or cgroup_disable=memory given?)");
	thier(t, (unsigned)mem, "memory");
	for (unsigned i = 0; i < spec->nknobs; i++) {
		const struct cg_knob *k = &spec->knobs[i];

		if (k->level > spec->depth)
			continue;
		rc = cg_knob_check(l, k, err, errlen);
		if (rc)
			return rc;
		thier(t, (unsigned)cg_layout_find(l, k->ctrl), k->ctrl);
	}
	for (unsigned i = 0; i < t->nh; i++) {
		struct cg_thier *h = &t->h[i];
		const struct cg_hier *lh = &l->h[h->hi];

		if (spec->parent) {
			snprintf(h->parent, sizeof(h->parent), "%s", spec->parent);
		} else if (lh->self[0]) {
			snprintf(h->parent, sizeof(h->parent), "%s", lh->self);
		} else {
			return cgs_errf(err, errlen, -ENOENT,
				   "our own cgroup is not visible under %s (it is outside the mounted subtree %s); give --cgroup-parent",
				   lh->mount, lh->mroot);
		}
		if (lh->readonly)
			return cgs_errf(err, errlen, -EROFS,
				   "%s is mounted read-only: cgscale cannot create cgroups there (in a container? give it a writable cgroup mount, or use --cgroup-depth 0)",
				   lh->mount);
	}
	return plan_nodes(t);
}

int cg_tree_rel(const struct cg_tree *t, unsigned h, unsigned i, char *out,
		size_t len)
{
	const char *p = t->h[h].parent;
	int n;

	if (h >= t->nh || i >= t->nnodes)
		return -EINVAL;
	n = snprintf(out, len, "%s%s", strcmp(p, "/") ? p : "", t->rel[i]);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int cg_tree_path(const struct cg_tree *t, unsigned h, unsigned i, char *out,
		 size_t len)
{
	char rel[PATH_MAX];
	int rc = cg_tree_rel(t, h, i, rel, sizeof(rel)), n;

	if (rc)
		return rc;
	n = snprintf(out, len, "%s%s", t->lay->h[t->h[h].hi].mount, rel);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* libcgroup must see each controller where the layout does. */
static int check_lib(const struct cg_tree *t, char *err, size_t errlen)
{
	for (unsigned i = 0; i < t->nh; i++) {
		const struct cg_thier *h = &t->h[i];
		const char *p = h->need;

		while (*p) {
			char c[64];
			size_t n = strcspn(p, ",");
			int v;

			snprintf(c, sizeof(c), "%.*s", (int)n, p);
			v = cg_lib_version(c);
			if (v != h->version)
				return cgs_errf(err, errlen, -ENODEV,
					   "libcgroup sees the %s controller %s, /proc/self/mountinfo on v%d at %s",
					   c, v < 0 ? "nowhere" : v == 1 ? "on v1" : "on v2",
					   h->version, t->lay->h[h->hi].mount);
			p += n + (p[n] == ',');
		}
	}
	return 0;
}

/*
 * Read knob @name of @rel back and compare it with @value: a knob that
 * does not keep what was written stops the run before its first point
 * (the trial tree), naming both. A write-only file (memory.reclaim) is
 * an action, not a setting: nothing to compare.
 */
static int readback(const char *ctrl, const char *rel, const char *full,
		    const char *name, const char *value, char *err, size_t errlen)
{
	char buf[4096], why[4600], path[PATH_MAX + 100];
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", full, name);
	if (!stat(path, &st) && !(st.st_mode & 0444))
		return 0;
	rc = cg_lib_read(ctrl, rel, name, buf, sizeof(buf));
	if (rc)
		return cgs_errf(err, errlen, rc, "%s was written but cannot be read back: %s",
				name, strerror(-rc));
	if (cg_knob_same(name, value, buf, page > 0 ? (uint64_t)page : 4096, why,
			 sizeof(why)))
		return 0;
	return cgs_errf(err, errlen, -EINVAL, "the kernel %s", why);
}

/* v1 cpuset: a new cgroup has empty cpus and mems and takes no task;
 * copy the parent's unless a knob of this level sets them. */
static int cpuset_inherit(struct cg_tree *t, struct cg_thier *h, unsigned i,
			  const char *rel, const char *full, char *err, size_t errlen)
{
	static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };
	char up[PATH_MAX], val[4096], why[5000];

	if (h->version != 1 || !cg_list_has(h->need, "cpuset"))
		return 0;
	snprintf(up, sizeof(up), "%s", rel);
	*strrchr(up, '/') = 0;
	if (!up[0])
		snprintf(up, sizeof(up), "/");
	for (unsigned f = 0; f < 2; f++) {
		const char *name = files[f], *v = val;
		bool set = false;
		int rc;

		for (unsigned k = 0; k < t->spec.nknobs; k++)
			set |= t->spec.knobs[k].level == t->level[i] &&
			       !strcmp(t->spec.knobs[k].name, name);
		if (set)
			continue;
		rc = cg_lib_read("cpuset", up, name, val, sizeof(val));
		val[strcspn(val, "\n")] = 0;
		if (!rc)
			rc = cg_lib_set("cpuset", rel, 1, &name, &v, err, errlen);
		if (!rc && readback("cpuset", rel, full, name, val, why, sizeof(why)))
			return cgs_errf(err, errlen, -EINVAL, "%s/%s, copied from the parent as %s: %s",
					full, name, val, why);
		if (rc)
			return rc;
	}
	return 0;
}

/* Create node @i in every hierarchy, mark it, write its level's knobs. */
static int create_node(struct cg_tree *t, unsigned i, char *err, size_t errlen)
{
	for (unsigned hh = 0; hh < t->nh; hh++) {
		struct cg_thier *h = &t->h[hh];
		char rel[PATH_MAX], full[PATH_MAX], mark[512];
		int rc;

		if ((rc = cg_tree_rel(t, hh, i, rel, sizeof(rel))) ||
		    (rc = cg_tree_path(t, hh, i, full, sizeof(full))))
			return cgs_errf(err, errlen, rc, "cgroup path too long");
		rc = cg_lib_create(h->need, rel, err, errlen);
		if (rc)
			return rc;
		t->made[i][hh] = true;
		/* the first cgroup of the tree is locked before it is marked:
		 * a marked tree of a live run is always a locked one */
		if (i == 0 && (t->lock[hh] = cg_lock(full)) < 0)
			return cgs_errf(err, errlen, t->lock[hh], "cannot lock %s: %s", full,
					strerror(-t->lock[hh]));
		snprintf(mark, sizeof(mark), "%s", t->marker);
		if (t->level[i] == 1 && h->enabled[0])
			snprintf(mark + strlen(mark), sizeof(mark) - strlen(mark),
				 " parent_enabled=%s", h->enabled);
		if ((rc = cg_mark(full, mark, err, errlen)) ||
		    (rc = cpuset_inherit(t, h, i, rel, full, err, errlen)))
			return rc;
		for (unsigned k = 0; k < t->spec.nknobs; k++) {
			const struct cg_knob *kn = &t->spec.knobs[k];
			const char *name = kn->name, *value = kn->value;

			if (kn->level != t->level[i] || !cg_list_has(h->need, kn->ctrl))
				continue;
			rc = cg_lib_set(kn->ctrl, rel, 1, &name, &value, err, errlen);
			if (!rc)
				rc = readback(kn->ctrl, rel, full, name, value, err, errlen);
			if (rc) {
				char why[512];

				snprintf(why, sizeof(why), "%s", err);
				return cgs_errf(err, errlen, rc, "--cgroup-set %u:%s=%s on %s: %s",
					   kn->level, kn->name, kn->value, full, why);
			}
		}
	}
	return 0;
}

int cg_tree_create(struct cg_tree *t, char *err, size_t errlen)
{
	char ignore[512];
	int rc = check_lib(t, err, errlen);

	if (!rc)
		rc = cg_marker_value(t->marker, sizeof(t->marker), NULL);
	for (unsigned hh = 0; !rc && hh < t->nh; hh++)
		if (t->h[hh].version == 2)
			rc = cg_v2_prepare(t, &t->h[hh], err, errlen);
	for (unsigned i = 0; !rc && i < t->nnodes; i++)
		rc = create_node(t, i, err, errlen);
	if (rc)
		cg_tree_destroy(t, ignore, sizeof(ignore));
	return rc;
}

/* A stray that could not be moved out: named in the error. */
struct stuck {
	cg_stray_fn *stray;
	void *arg;
	char what[512];
};

static void stray_seen(void *arg, const char *from, pid_t pid, const char *comm,
		       const char *to, const char *why)
{
	struct stuck *s = arg;

	if (!to && !s->what[0])
		snprintf(s->what, sizeof(s->what), "pid %d (%s), which cgscale did not start, is in it and cannot be moved out (%s)",
			 (int)pid, comm, why);
	if (s->stray)
		s->stray(s->arg, from, pid, comm, to, why);
}

/*
 * Empty node @i of tree hierarchy @hh (@full) before it is removed: the
 * run's own processes (the tasks recorded at the gate, the workers
 * recorded in the leaves) leave or are killed; any other goes to the
 * parent, or on v2 where the parent cannot hold a process, to the
 * runner's own cgroup. 0 or -EBUSY with @msg.
 */
static int drain_node(struct cg_tree *t, unsigned hh, unsigned i, const char *full,
		      char *msg, size_t len)
{
	const struct cg_thier *h = &t->h[hh];
	const struct cg_hier *lh = &t->lay->h[h->hi];
	char parent[PATH_MAX], self[PATH_MAX], text[8192], rel[PATH_MAX];
	struct stuck st = { .stray = t->stray, .arg = t->stray_arg };
	struct cg_evict ev = { .own = &t->own, .to = { parent, NULL }, .stray = stray_seen,
			       .arg = &st };
	int rc;

	snprintf(parent, sizeof(parent), "%s%s", lh->mount, strcmp(h->parent, "/") ? h->parent : "");
	if (!cgs_read_file("/proc/self/cgroup", text, sizeof(text)) &&
	    !cg_proc_path(t->lay, h->hi, text, rel, sizeof(rel)) &&
	    snprintf(self, sizeof(self), "%s%s", lh->mount, strcmp(rel, "/") ? rel : "") <
	    (int)sizeof(self) && strcmp(self, parent))
		ev.to[1] = self;
	if (i >= t->first_leaf)
		cg_own_read(&t->own, full);    /* its worker */
	rc = cg_drain(full, h->version, t->wait_ns, &ev);
	if (rc && st.what[0])
		return cgs_errf(msg, len, rc, "%s: %s", full, st.what);
	if (rc)
		return cgs_errf(msg, len, rc, "%s: tasks did not leave within %.0f s", full,
				t->wait_ns / 1e9);
	return 0;
}

int cg_tree_destroy(struct cg_tree *t, char *err, size_t errlen)
{
	char msg[PATH_MAX + 256];
	int first = 0;

	if (!t->made)
		return 0;
	/* leaves first (they are last), then the levels deepest first */
	for (unsigned i = t->nnodes; i-- > 0;)
		for (unsigned hh = 0; hh < t->nh; hh++) {
			char rel[PATH_MAX], full[PATH_MAX];
			int rc;

			if (!t->made[i][hh])
				continue;
			cg_tree_rel(t, hh, i, rel, sizeof(rel));
			cg_tree_path(t, hh, i, full, sizeof(full));
			rc = drain_node(t, hh, i, full, msg, sizeof(msg));
			if (!rc)
				rc = cg_lib_remove(t->h[hh].ctrl, rel, msg, sizeof(msg));
			if (!rc) {
				t->made[i][hh] = false;
				if (i == 0 && t->lock[hh] >= 0)
					close(t->lock[hh]);
				if (i == 0)
					t->lock[hh] = -1;
			} else if (!first && (first = rc)) {
				snprintf(err, errlen, "%s", msg);
			}
		}
	for (unsigned hh = 0; hh < t->nh; hh++) {
		int rc;

		if (t->h[hh].version != 2 || (!t->h[hh].enabled[0] && !t->h[hh].runner_leaf[0]))
			continue;
		if (first) {
			/* our cgroups are still there: leave the parent be */
			continue;
		}
		rc = cg_v2_restore(t, &t->h[hh], msg, sizeof(msg));
		if (rc && !first && (first = rc))
			snprintf(err, errlen, "%s", msg);
	}
	return first;
}

void cg_tree_free(struct cg_tree *t)
{
	for (unsigned h = 0; h < t->nh; h++) {
		if (t->lock[h] >= 0)
			close(t->lock[h]);
		if (t->h[h].runner_lock >= 0)
			close(t->h[h].runner_lock);
		t->lock[h] = t->h[h].runner_lock = -1;
	}
	cg_own_free(&t->own);
	free(t->rel);
	free(t->level);
	free(t->made);
	t->rel = NULL;
	t->level = NULL;
	t->made = NULL;
}

int cg_tree_enter(const struct cg_tree *t, unsigned leaf, char *err,
		  size_t errlen)
{
	if (leaf >= t->spec.nleaves)
		return cgs_errf(err, errlen, -EINVAL, "no leaf %u", leaf);
	for (unsigned hh = 0; hh < t->nh; hh++) {
		char rel[PATH_MAX];
		int rc = cg_tree_rel(t, hh, t->first_leaf + leaf, rel, sizeof(rel));

		if (!rc)
			rc = cg_lib_attach(t->h[hh].ctrl, rel, getpid(), err, errlen);
		if (rc)
			return rc;
		rc = cg_tree_path(t, hh, t->first_leaf + leaf, rel, sizeof(rel));
		if (!rc)
			rc = cg_own_record(rel, getpid());
		if (rc)
			return cgs_errf(err, errlen, rc, "cannot record the worker in %s (xattr %s): %s",
					rel, CG_PROCS, strerror(-rc));
	}
	return 0;
}

int cg_tree_own(struct cg_tree *t, pid_t pid)
{
	return cg_own_add(&t->own, pid, 0);
}
