/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgrun.c - the --cgroup-* options of `cgscale run`: check them, resolve
 * the layouts (each --cgroup-depth value is one, run in ABBA order), pick
 * the default depth, and try every layout's tree once before the run.
 *
 * Default depth: 0 (the runner's own cgroup) when not root. As root: 1, a
 * leaf of our own under the runner's cgroup, so that every point records
 * the memory.stat and memory events of exactly its tasks, and the runner's
 * own memory stays outside; it falls back to 0, with a note, where that
 * cannot be done (no memory controller, a read-only cgroupfs, a v2 parent
 * that holds other processes...).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "runner/cgroups/cgrun.h"
#include "lib/pdeath.h"
#include "lib/util.h"

const char *const cgs_cg_leaf_names[] = { "shared", "per-task", NULL };

unsigned cgs_cg_order(unsigned nlayouts, unsigned run, unsigned i)
{
	if (!nlayouts || i >= nlayouts)
		return 0;
	return run % 2 ? nlayouts - 1 - i : i;
}

int cgs_cg_parse_depths(const char *s, unsigned *depths, unsigned max,
			char *err, size_t errlen)
{
	unsigned n = 0;

	for (const char *p = s; p && *p;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || (*end && *end != ',') || v < 0 || v > CG_MAX_DEPTH ||
		    *p == '-' || *p == '+' || *p == ' ')
			return cgs_errf(err, errlen, -EINVAL,
				   "--cgroup-depth '%s': give levels 0..%d, or a list like 0,3",
				   s, CG_MAX_DEPTH);
		for (unsigned i = 0; i < n; i++)
			if (depths[i] == (unsigned)v)
				return cgs_errf(err, errlen, -EINVAL,
					   "--cgroup-depth '%s': %ld is given twice", s, v);
		if (n == max)
			return cgs_errf(err, errlen, -EINVAL,
				   "--cgroup-depth '%s': at most %u layouts", s, max);
		depths[n++] = (unsigned)v;
		p = *end ? end + 1 : NULL;
		if (p && !*p)
			return cgs_errf(err, errlen, -EINVAL,
				   "--cgroup-depth '%s': trailing comma", s);
	}
	if (!n)
		return cgs_errf(err, errlen, -EINVAL, "--cgroup-depth: empty; give e.g. 3 or 0,3");
	return (int)n;
}

void cgs_cg_layout_name(unsigned depth, bool per_task, const struct cg_knob *k,
			unsigned nknobs, char *out, size_t len)
{
	size_t used;

	if (!depth) {
		snprintf(out, len, "depth=0");
		return;
	}
	used = (size_t)snprintf(out, len, "depth=%u leaf=%s", depth,
				per_task ? "per-task" : "shared");
	for (unsigned i = 0; i < nknobs && used < len; i++)
		if (k[i].level <= depth)
			used += (size_t)snprintf(out + used, len - used, " set=%u:%s=%s",
						 k[i].level, k[i].name, k[i].value);
}

/* Parse and check the knobs against the deepest layout. */
static int parse_knobs(struct cgs_cgrun *c, const struct cgs_strlist *set,
		       unsigned maxdepth, char *err, size_t errlen)
{
	for (size_t i = 0; i < set->n; i++) {
		struct cg_knob *k = &c->knobs[c->nknobs];
		int rc;

		if (c->nknobs == CG_MAX_KNOBS)
			return cgs_errf(err, errlen, -EINVAL, "more than %d --cgroup-set", CG_MAX_KNOBS);
		rc = cg_knob_parse(set->v[i], k, err, errlen);
		if (rc)
			return rc;
		for (unsigned j = 0; j < c->nknobs; j++)
			if (c->knobs[j].level == k->level && !strcmp(c->knobs[j].name, k->name))
				return cgs_errf(err, errlen, -EINVAL,
					   "--cgroup-set %u:%s is given twice", k->level, k->name);
		if (k->level > maxdepth)
			return cgs_errf(err, errlen, -EINVAL,
				   "--cgroup-set '%s': level %u does not exist with --cgroup-depth %u%s; give a deeper --cgroup-depth",
				   set->v[i], k->level, maxdepth,
				   !c->depth_default ? "" : maxdepth ? " (the default as root)"
				   : " (the default when not root)");
		c->nknobs++;
	}
	return 0;
}

/* Everything that needs the cgroup file systems, for depths > 0 or a
 * parent: root, a mounted cgroupfs, libcgroup, every layout plannable,
 * the parent present in every hierarchy. */
static int check_system(struct cgs_cgrun *c, const unsigned *depths, unsigned nd,
			bool dry, char *err, size_t errlen)
{
	char path[2 * PATH_MAX];
	struct stat st;
	int rc;

	if (geteuid() && !dry)
		return cgs_errf(err, errlen, -EPERM,
			   "%s needs root: cgscale creates and removes cgroups; run as root, or use --cgroup-depth 0",
			   c->has_parent ? "--cgroup-parent" : "--cgroup-depth > 0");
	if (c->lay.kind == CG_NONE)
		return cgs_errf(err, errlen, -ENODEV,
			   "no cgroup file system is mounted (no cgroup or cgroup2 in /proc/self/mountinfo); mount one, or use --cgroup-depth 0");
	if (!c->lib_ready) {
		rc = cg_lib_init(err, errlen);
		if (rc)
			return rc;
		c->lib_ready = true;
	}
	for (unsigned i = 0; i < nd; i++) {
		struct cg_spec spec = { .depth = depths[i] ? depths[i] : 1,
					.per_task = false, .nleaves = 1,
					.parent = c->has_parent ? c->parent : NULL,
					.nknobs = c->nknobs, .knobs = c->knobs,
					.id = CG_PREFIX "check" };
		struct cg_tree t;

		if (!depths[i] && !c->has_parent)
			continue;
		rc = cg_tree_plan(&t, &c->lay, &spec, err, errlen);
		for (unsigned h = 0; !rc && h < t.nh; h++) {
			const struct cg_hier *lh = &c->lay.h[t.h[h].hi];

			snprintf(path, sizeof(path), "%s%s", lh->mount,
				 strcmp(t.h[h].parent, "/") ? t.h[h].parent : "");
			if (stat(path, &st) || !S_ISDIR(st.st_mode))
				rc = cgs_errf(err, errlen, -ENOENT,
					 "--cgroup-parent %s does not exist in the %s hierarchy (%s); create it or choose another",
					 t.h[h].parent, t.h[h].need, path);
		}
		cg_tree_free(&t);
		if (rc)
			return rc;
	}
	return 0;
}

/* The depths to run at (CGS_CG_MAX_LAYOUTS at most) from --cgroup-depth
 * @arg; without it 1 as root, else 0 (the runner's own cgroup) with a
 * note. Returns how many, or -errno with @err. */
static int pick_depths(struct cgs_cgrun *c, const char *arg, unsigned *depths,
		       char *err, size_t errlen)
{
	if (arg)
		return cgs_cg_parse_depths(arg, depths, CGS_CG_MAX_LAYOUTS, err,
					   errlen);
	c->depth_default = true;
	depths[0] = geteuid() ? 0 : 1;
	if (geteuid())
		snprintf(c->note, sizeof(c->note),
			 "not root: the tasks run in the runner's own cgroup (depth 0)");
	return 1;
}

/* --cgroup-parent @arg checked and kept in c->parent. */
static int take_parent(struct cgs_cgrun *c, const char *arg, char *err,
		       size_t errlen)
{
	char why[512];
	int rc = cg_path_check(arg, c->parent, sizeof(c->parent), err, errlen);

	if (!rc) {
		c->has_parent = true;
		return 0;
	}
	snprintf(why, sizeof(why), "%s", err);
	return cgs_errf(err, errlen, rc, "--cgroup-parent: %s", why);
}

int cgs_cgrun_validate(const struct cgs_run_opts *o, bool dry, struct cgs_cgrun **out,
		       char *err, size_t errlen)
{
	struct cgs_cgrun *c = calloc(1, sizeof(*c));
	unsigned depths[CGS_CG_MAX_LAYOUTS], maxdepth = 0;
	int nd, rc;

	if (!c)
		return -ENOMEM;
	*out = c;
	if (getrandom(&c->rand, sizeof(c->rand), GRND_NONBLOCK) != sizeof(c->rand))
		c->rand = (uint32_t)cgs_now_ns() ^ (uint32_t)getpid() << 16;
	c->per_task = o->cgroup_leaf == CGS_CG_PER_TASK;
	nd = pick_depths(c, o->cgroup_depth, depths, err, errlen);
	if (nd < 0)
		return nd;
	if (o->cgroup_parent) {
		rc = take_parent(c, o->cgroup_parent, err, errlen);
		if (rc)
			return rc;
	}
	/* the layout is recorded even at depth 0, when it can be read */
	if (!cg_layout_detect(&c->lay, NULL, 0))
		c->detected = true;
	for (int i = 0; i < nd; i++)
		maxdepth = depths[i] > maxdepth ? depths[i] : maxdepth;
	rc = parse_knobs(c, &o->cgroup_set, maxdepth, err, errlen);
	if (rc)
		return rc;
	if (maxdepth || c->has_parent) {
		rc = check_system(c, depths, (unsigned)nd, dry, err, errlen);
		if (rc && c->depth_default && !c->has_parent && !c->nknobs &&
		    !c->per_task) {
			snprintf(c->note, sizeof(c->note),
				 "no cgroup of our own (%.900s): the tasks run in the runner's cgroup (depth 0)",
				 err);
			depths[0] = maxdepth = 0;
			rc = 0;
		}
		if (rc)
			return rc;
	}
	if (c->per_task && !maxdepth)
		return cgs_errf(err, errlen, -EINVAL,
			   "--cgroup-leaf per-task needs cgroups of our own: give --cgroup-depth 1 or more%s%s",
			   c->note[0] ? "; " : "", c->note);
	if (c->per_task && o->mode != CGS_MODE_PROCESS)
		return cgs_errf(err, errlen, -EINVAL,
			   "--cgroup-leaf per-task needs --mode process: memory is charged per process, so threads of one process cannot be split over cgroups");
	for (int i = 0; i < nd; i++) {
		c->L[i].depth = depths[i];
		cgs_cg_layout_name(depths[i], c->per_task, c->knobs, c->nknobs,
				   c->L[i].name, sizeof(c->L[i].name));
	}
	c->nlayouts = (unsigned)nd;
	return 0;
}

/* Depth 0 under an explicit parent: can a process of ours join it? */
static int try_join_parent(struct cgs_cgrun *c, char *err, size_t errlen)
{
	pid_t parent = getpid(), pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid) {
		char e[512];

		cgs_die_with_parent(parent);
		_exit(cg_lib_attach("memory", c->parent, getpid(), e, sizeof(e)) ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return cgs_errf(err, errlen, -EBUSY,
			   "--cgroup-depth 0 --cgroup-parent %s: a task cannot join %s (on cgroup v2 only the root and leaves without enabled controllers can hold processes)",
			   c->parent, c->parent);
	return 0;
}

static void swept(void *arg, const char *path, const char *what)
{
	(void)arg;
	if (!strcmp(what, "removed"))
		cgs_warn("removed %s, left behind by a cgscale run that was killed", path);
	else if (strncmp(what, "in use", 6))
		cgs_warn("%s: %s", path, what);
}

/* Leftovers of killed runs under the parents of @t: ours by prefix and
 * marker, and their runner gone. */
static void sweep(const struct cgs_cgrun *c, const struct cg_tree *t)
{
	struct cg_clean_opts o = { .wait_ns = 2000000000LL, .report = swept };

	for (unsigned h = 0; h < t->nh; h++) {
		const struct cg_hier *lh = &c->lay.h[t->h[h].hi];
		char full[2 * PATH_MAX];

		snprintf(full, sizeof(full), "%s%s", lh->mount,
			 strcmp(t->h[h].parent, "/") ? t->h[h].parent : "");
		cg_clean_children(&c->lay, t->h[h].hi, full, &o);
	}
}

/* A process someone put in the trial tree: moved out, never killed. */
static void trial_stray(void *arg, const char *from, pid_t pid, const char *comm,
			const char *to, const char *why)
{
	(void)arg;
	cgs_warn("pid %d (%s), which cgscale did not start, was in %s: %s%s", (int)pid, comm,
		 from, to ? "moved to " : "left there: ", to ? to : why);
}

int cgs_cgrun_preflight(struct cgs_cgrun *c, char *err, size_t errlen)
{
	for (unsigned i = 0; i < c->nlayouts; i++) {
		struct cg_spec spec = { .depth = c->L[i].depth, .per_task = c->per_task,
					.nleaves = 1,
					.parent = c->has_parent ? c->parent : NULL,
					.nknobs = c->nknobs, .knobs = c->knobs };
		char why[1024];
		struct cg_tree t;
		int rc;

		if (!spec.depth) {
			rc = c->has_parent ? try_join_parent(c, err, errlen) : 0;
			if (rc)
				return rc;
			continue;
		}
		snprintf(spec.id, sizeof(spec.id), CG_PREFIX "%d-%08x-check%u",
			 (int)getpid(), c->rand, i);
		rc = cg_tree_plan(&t, &c->lay, &spec, why, sizeof(why));
		t.stray = trial_stray;
		if (!rc)
			sweep(c, &t);
		if (!rc)
			rc = cg_tree_create(&t, why, sizeof(why));
		if (!rc)
			rc = cg_tree_destroy(&t, why, sizeof(why));
		cg_tree_free(&t);
		if (!rc)
			continue;
		if (c->depth_default && !c->has_parent && !c->nknobs && !c->per_task) {
			snprintf(c->note, sizeof(c->note),
				 "no cgroup of our own (%.900s): the tasks run in the runner's cgroup (depth 0)",
				 why);
			c->L[i].depth = 0;
			cgs_cg_layout_name(0, false, NULL, 0, c->L[i].name, sizeof(c->L[i].name));
			cgs_warn("%s", c->note);
			continue;
		}
		return cgs_errf(err, errlen, rc, "cgroup layout %s: %s", c->L[i].name, why);
	}
	return 0;
}

/* Levels of @path below its root: 0 for "/". */
static unsigned levels(const char *path)
{
	unsigned n = 0;

	for (const char *s = path; *s; s++)
		n += *s == '/' && s[1] && s[1] != '/';
	return n;
}

bool cgs_cgrun_depth0_text(const struct cgs_cgrun *c, char *buf, size_t len)
{
	const struct cg_hier *h = NULL;
	bool any = false;

	for (unsigned i = 0; i < c->nlayouts; i++)
		any |= !c->L[i].depth;
	for (unsigned i = 0; c->detected && i < c->lay.n && !h; i++)
		if (cg_list_has(c->lay.h[i].ctrls, "memory") && c->lay.h[i].self[0])
			h = &c->lay.h[i];
	if (!any)
		return false;
	if (c->has_parent)
		snprintf(buf, len, "depth=0: no cgroup of our own; the tasks ran in --cgroup-parent %s (%u levels below the root)",
			 c->parent, levels(c->parent));
	else if (!h)
		snprintf(buf, len, "depth=0: no cgroup of our own; the tasks ran in the runner's cgroup (no memory cgroup visible)");
	else
		snprintf(buf, len, "depth=0: no cgroup of our own; the tasks ran in the runner's cgroup, memory %s (%s%u levels below the root)%s",
			 h->self, levels(h->self) ? "" : "the root, ", levels(h->self),
			 levels(h->self) ? "; --cgroup-parent / runs them in the root" : "");
	return true;
}

struct json_object *cgs_cgrun_env_json(const struct cgs_cgrun *c)
{
	char d0[PATH_MAX + 200];

	struct json_object *o = json_object_new_object(), *hs = json_object_new_array();
	struct json_object *ls = json_object_new_array();

	json_object_object_add(o, "kind", json_object_new_string(
		c->detected ? cg_kind_name(c->lay.kind) : "unknown"));
	for (unsigned i = 0; c->detected && i < c->lay.n; i++) {
		const struct cg_hier *h = &c->lay.h[i];
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "version", json_object_new_int(h->version));
		json_object_object_add(j, "mount", json_object_new_string(h->mount));
		json_object_object_add(j, "controllers", json_object_new_string(h->ctrls));
		json_object_object_add(j, "runner_cgroup", h->self[0] ?
				       json_object_new_string(h->self) : NULL);
		json_object_array_add(hs, j);
	}
	json_object_object_add(o, "hierarchies", hs);
	for (unsigned i = 0; i < c->nlayouts; i++)
		json_object_array_add(ls, json_object_new_string(c->L[i].name));
	json_object_object_add(o, "layouts", ls);
	json_object_object_add(o, "parent", json_object_new_string(
		c->has_parent ? c->parent : "(the runner's own cgroup)"));
	if (c->note[0])
		json_object_object_add(o, "note", json_object_new_string(c->note));
	if (cgs_cgrun_depth0_text(c, d0, sizeof(d0)))
		json_object_object_add(o, "depth0", json_object_new_string(d0));
	return o;
}

void cgs_cgrun_free(struct cgs_cgrun *c)
{
	free(c);
}
