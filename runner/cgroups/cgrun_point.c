/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgrun_point.c - the cgroups of one point: a fresh tree per point (so
 * memory.events, failcnt and peaks are the point's own), one worker per
 * leaf moved into it before it starts its tasks (the runner stays
 * outside), a check at the gate that every task sits in its leaf, and
 * snapshots of the leaves' memory.stat at the gate, at the start of the
 * measured window and at its end, written to extra.cgroup with the
 * knobs read back and the memory events of every level (since the gate,
 * or since the tree was made when the point ended before it, and over the
 * measured window).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "runner/cgroups/cgrun.h"
#include "lib/util.h"

struct cgs_cgpoint {
	struct cgs_cgrun *c;
	unsigned li, depth, ntasks, nexpected;
	bool has_tree;
	struct cg_tree tree;
	struct cgs_group *groups;
	int memh;                          /* tree hierarchy of memory */
	struct cg_kv *gate, *before, *after;   /* per leaf */
	bool have_gate, have_before, have_after, after_at_end;
	struct cg_kv *ev0, *ev1;           /* per node, memory events */
	bool have_ev0;                     /* ev0: at the tree's start, then the gate */
	struct cg_kv *evw[2];              /* the same at the window's edges */
	bool have_evw[2];
	int64_t *peak;                     /* per node, -1 unknown */
	struct json_object *knobs;         /* read back after writing */
	struct json_object *moved;         /* processes not ours moved out */
	char error[1024];
	bool json_done;
};

static unsigned nleaves(const struct cgs_cgpoint *cp)
{
	return cp->has_tree ? cp->tree.spec.nleaves : 0;
}

/* In the worker: join its leaf in every hierarchy of the tree. */
static int enter_tree(void *arg, unsigned group, char *msg, size_t len)
{
	struct cgs_cgpoint *cp = arg;

	return cg_tree_enter(&cp->tree, cp->c->per_task ? group : 0, msg, len);
}

/* In the worker, depth 0 under --cgroup-parent: join the parent. */
static int enter_parent(void *arg, unsigned group, char *msg, size_t len)
{
	struct cgs_cgpoint *cp = arg;

	(void)group;
	return cg_lib_attach("memory", cp->c->parent, getpid(), msg, len);
}

static void snap_stats(struct cgs_cgpoint *cp, struct cg_kv *out)
{
	for (unsigned i = 0; i < nleaves(cp); i++) {
		char rel[PATH_MAX];

		out[i].n = 0;
		if (!cg_tree_rel(&cp->tree, (unsigned)cp->memh, cp->tree.first_leaf + i,
				 rel, sizeof(rel)))
			cg_lib_stat("memory", rel, &out[i]);
	}
}

/* memory.events on v2; failcnt and oom_control's oom_kill on v1. */
static void snap_events(struct cgs_cgpoint *cp, struct cg_kv *out, bool peak)
{
	int v = cp->tree.h[cp->memh].version;

	for (unsigned i = 0; i < cp->tree.nnodes; i++) {
		char rel[PATH_MAX], buf[4096];
		struct cg_kv tmp;
		int64_t x;

		out[i].n = 0;
		if (cg_tree_rel(&cp->tree, (unsigned)cp->memh, i, rel, sizeof(rel)))
			continue;
		if (v == 2) {
			if (!cg_lib_read("memory", rel, "memory.events", buf, sizeof(buf)))
				cg_kv_parse(buf, &out[i]);
		} else {
			if (!cg_lib_read("memory", rel, "memory.failcnt", buf, sizeof(buf))) {
				snprintf(out[i].key[0], sizeof(out[i].key[0]), "failcnt");
				out[i].val[0] = strtoll(buf, NULL, 10);
				out[i].n = 1;
			}
			if (!cg_lib_read("memory", rel, "memory.oom_control", buf, sizeof(buf))) {
				cg_kv_parse(buf, &tmp);
				if (!cg_kv_get(&tmp, "oom_kill", &x) && out[i].n < CG_KV_MAX) {
					snprintf(out[i].key[out[i].n], sizeof(out[i].key[0]), "oom_kill");
					out[i].val[out[i].n++] = x;
				}
			}
		}
		if (peak) {
			cp->peak[i] = -1;
			if (!cg_lib_read("memory", rel, v == 2 ? "memory.peak" :
					 "memory.max_usage_in_bytes", buf, sizeof(buf)))
				cp->peak[i] = strtoll(buf, NULL, 10);
		}
	}
}

/* At the gate: every task must sit in its leaf, in every hierarchy. */
static int obs_ready(void *priv, unsigned ntasks, const int *pid, const int *tid,
		     char *msg, size_t len)
{
	struct cgs_cgpoint *cp = priv;

	if (!cp->has_tree)
		return 0;
	for (unsigned i = 0; i < ntasks; i++)
		for (unsigned h = 0; h < cp->tree.nh; h++) {
			char path[96], text[8192], in[PATH_MAX], want[PATH_MAX];
			unsigned leaf = cp->c->per_task ? i : 0;

			snprintf(path, sizeof(path), "/proc/%d/task/%d/cgroup", pid[i], tid[i]);
			cg_tree_rel(&cp->tree, h, cp->tree.first_leaf + leaf, want, sizeof(want));
			if (cgs_read_file(path, text, sizeof(text)) ||
			    cg_proc_path(&cp->c->lay, cp->tree.h[h].hi, text, in, sizeof(in)))
				snprintf(in, sizeof(in), "(unknown)");
			if (strcmp(in, want)) {
				snprintf(msg, len, "task %u (pid %d) is in %s:%s, not in its leaf %s",
					 i, pid[i], cp->tree.h[h].ctrl, in, want);
				return -EIO;
			}
		}
	/* the tasks are the run's own: only they (and the workers, which
	 * record themselves) are ever killed in these cgroups */
	for (unsigned i = 0; i < ntasks; i++)
		if ((!i || pid[i] != pid[i - 1]) && cg_tree_own(&cp->tree, pid[i])) {
			snprintf(msg, len, "no memory to record the tasks");
			return -ENOMEM;
		}
	snap_stats(cp, cp->gate);
	snap_events(cp, cp->ev0, false);
	cp->have_gate = true;
	return 0;
}

/* A process cgscale did not start, found in the point's cgroups as they
 * are removed: never killed; moved out, said and recorded. */
static void stray(void *arg, const char *from, pid_t pid, const char *comm,
		  const char *to, const char *why)
{
	struct cgs_cgpoint *cp = arg;
	struct json_object *o = json_object_new_object();

	if (to)
		cgs_warn("pid %d (%s), which cgscale did not start, was in %s: moved to %s, not killed",
			 (int)pid, comm, from, to);
	else
		cgs_warn("pid %d (%s), which cgscale did not start, is in %s and could not be moved out (%s): left there, not killed",
			 (int)pid, comm, from, why);
	if (!cp->moved)
		cp->moved = json_object_new_array();
	json_object_object_add(o, "pid", json_object_new_int(pid));
	json_object_object_add(o, "comm", json_object_new_string(comm));
	json_object_object_add(o, "from", json_object_new_string(from));
	json_object_object_add(o, "to", to ? json_object_new_string(to) : NULL);
	json_object_array_add(cp->moved, o);
}

static void obs_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
		       bool window_start)
{
	struct cgs_cgpoint *cp = priv;

	(void)t_ns;
	(void)ph;
	if (!cp->has_tree || !cp->have_gate)
		return;
	if (window_start && !cp->have_before) {
		snap_stats(cp, cp->before);
		snap_events(cp, cp->evw[0], false);
		cp->have_before = cp->have_evw[0] = true;
	}
	if (s + 1 == cp->nexpected) {
		snap_stats(cp, cp->after);
		snap_events(cp, cp->evw[1], false);
		cp->have_after = true;
		cp->have_evw[1] = cp->have_evw[0];
	}
}

static void obs_finish(void *priv, struct res_point *p);

/* Plan and create the point's cgroup tree, named with a fresh id. 0 or
 * -errno with @err. */
static int make_tree(struct cgs_cgpoint *cp, unsigned nleaves, char *err,
		     size_t errlen)
{
	struct cgs_cgrun *c = cp->c;
	struct cg_spec s = { 0 };
	int rc;

	s.depth = cp->depth;
	s.per_task = c->per_task;
	s.nleaves = nleaves;
	s.parent = c->has_parent ? c->parent : NULL;
	s.nknobs = c->nknobs;
	s.knobs = c->knobs;
	snprintf(s.id, sizeof(s.id), CG_PREFIX "%d-%08x-%u", (int)getpid(), c->rand,
		 c->seq++);
	rc = cg_tree_plan(&cp->tree, &c->lay, &s, err, errlen);
	cp->tree.stray = stray;
	cp->tree.stray_arg = cp;
	if (!rc)
		rc = cg_tree_create(&cp->tree, err, errlen);
	return rc;
}

/* The point's counters, per leaf and per node of the tree, and with one
 * cgroup per task, its task groups. 0 or -ENOMEM. */
static int alloc_counters(struct cgs_cgpoint *cp, unsigned nleaves)
{
	bool per_task = cp->c->per_task;
	unsigned ntasks = cp->ntasks;

	cp->gate = calloc(nleaves, sizeof(*cp->gate));
	cp->before = calloc(nleaves, sizeof(*cp->before));
	cp->after = calloc(nleaves, sizeof(*cp->after));
	cp->ev0 = calloc(cp->tree.nnodes, sizeof(*cp->ev0));
	cp->ev1 = calloc(cp->tree.nnodes, sizeof(*cp->ev1));
	cp->evw[0] = calloc(cp->tree.nnodes, sizeof(*cp->evw[0]));
	cp->evw[1] = calloc(cp->tree.nnodes, sizeof(*cp->evw[1]));
	cp->peak = calloc(cp->tree.nnodes, sizeof(*cp->peak));
	if (per_task)
		cp->groups = calloc(ntasks, sizeof(*cp->groups));
	if (!cp->gate || !cp->before || !cp->after || !cp->ev0 || !cp->ev1 ||
	    !cp->evw[0] || !cp->evw[1] || !cp->peak || (per_task && !cp->groups))
		return -ENOMEM;
	for (unsigned i = 0; per_task && i < ntasks; i++)
		cp->groups[i] = (struct cgs_group){ i, 1 };
	return 0;
}

int cgs_cgpoint_begin(struct cgs_cgrun *c, unsigned li, unsigned ntasks,
		      struct res_point *p, struct cgs_point_spec *spec,
		      struct cgs_observer *obs, unsigned *nobs,
		      struct cgs_cgpoint **out)
{
	struct cgs_cgpoint *cp = calloc(1, sizeof(*cp));
	unsigned nleaves = c->per_task ? ntasks : 1;
	char err[1024];
	int rc;

	*out = cp;
	if (!cp)
		return -ENOMEM;
	cp->c = c;
	cp->li = li;
	cp->depth = c->L[li].depth;
	cp->ntasks = ntasks;
	cp->memh = -1;
	cp->nexpected = cgs_schedule(spec->warmup_ns, spec->duration_ns,
				     spec->interval_ns, NULL, NULL);
	obs[(*nobs)++] = (struct cgs_observer){ .name = "cgroup", .priv = cp,
		.ready = obs_ready, .sample = obs_sample, .finish = obs_finish };
	if (!cp->depth) {
		if (c->has_parent) {
			spec->enter = enter_parent;
			spec->enter_arg = cp;
		}
		return 0;
	}
	rc = make_tree(cp, nleaves, err, sizeof(err));
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		snprintf(cp->error, sizeof(cp->error), "%s", err);
		p->status = RES_FAILED;
		p->reason = cgs_fmt("cgroup setup: %s", err);
		return 0;
	}
	cp->has_tree = true;
	for (unsigned h = 0; h < cp->tree.nh; h++)
		if (cg_list_has(cp->tree.h[h].need, "memory"))
			cp->memh = (int)h;
	rc = alloc_counters(cp, nleaves);
	if (rc)
		return rc;
	/* the kernel's counts from the start: a worker OOM-killed before
	 * the gate (a limit of a page) is still named by them */
	snap_events(cp, cp->ev0, false);
	cp->have_ev0 = true;
	if (c->per_task) {
		spec->groups = cp->groups;
		spec->ngroups = ntasks;
	}
	spec->enter = enter_tree;
	spec->enter_arg = cp;
	cp->knobs = cgs_cgpoint_knobs(&cp->tree);
	return 0;
}

static void obs_finish(void *priv, struct res_point *p)
{
	struct cgs_cgpoint *cp = priv;

	if (cp->has_tree && cp->have_gate && !cp->have_after) {
		/* the point ended early: the best "after" there is */
		snap_stats(cp, cp->after);
		cp->have_after = cp->after_at_end = true;
	}
	if (cp->has_tree && cp->have_ev0)
		snap_events(cp, cp->ev1, true);
	cgs_cgpoint_json(cp->c, cp->li, cp->has_tree ? &cp->tree : NULL, p,
			 &(struct cgs_cgsnap){
				.gate = cp->have_gate ? cp->gate : NULL,
				.before = cp->have_before ? cp->before : NULL,
				.after = cp->have_after ? cp->after : NULL,
				.after_at_end = cp->after_at_end,
				.ev0 = cp->have_ev0 ? cp->ev0 : NULL,
				.ev1 = cp->have_ev0 ? cp->ev1 : NULL,
				.evw0 = cp->have_evw[1] ? cp->evw[0] : NULL,
				.evw1 = cp->have_evw[1] ? cp->evw[1] : NULL,
				.peak = cp->have_ev0 ? cp->peak : NULL,
				.knobs = cp->knobs, .memh = cp->memh,
				.error = cp->error });
	cp->knobs = NULL;    /* now owned by the point */
	cp->json_done = true;
}

void cgs_cgpoint_view(const struct cgs_cgpoint *cp, struct cgs_cgview *v,
		      char *ctrls, size_t len)
{
	size_t n = 0;

	ctrls[0] = 0;
	for (unsigned h = 0; cp->has_tree && h < cp->tree.nh; h++) {
		int k = snprintf(ctrls + n, len - n, "%s%s", h ? "," : "",
				 cp->tree.h[h].ctrl);

		if (k < 0 || (size_t)k >= len - n) {
			ctrls[n] = 0;    /* whole names only */
			break;
		}
		n += (size_t)k;
	}
	v->depth = cp->has_tree ? cp->depth : 0;
	v->ctrls = ctrls;
}

void cgs_cgpoint_end(struct cgs_cgrun *c, struct cgs_cgpoint *cp,
		     struct res_point *p)
{
	struct json_object *cg = NULL;
	char err[PATH_MAX + 512] = "";
	int rc = 0;

	if (!cp)
		return;
	if (!cp->json_done)
		obs_finish(cp, p);
	if (cp->has_tree) {
		rc = cg_tree_destroy(&cp->tree, err, sizeof(err));
		if (rc) {
			c->cleanup_failures++;
			cgs_warn("the cgroups of %s %s %u tasks stayed behind: %s; run 'cgscale cgroup cleanup' once the run is over",
				 p->test, p->mode, p->tasks, err);
		}
	}
	if (p->extra && json_object_object_get_ex(p->extra, "cgroup", &cg) && cp->has_tree) {
		json_object_object_add(cg, "removed", json_object_new_boolean(!rc));
		if (rc)
			json_object_object_add(cg, "cleanup_error", json_object_new_string(err));
		if (cp->moved) {
			json_object_object_add(cg, "moved_out", cp->moved);
			cp->moved = NULL;
		}
	}
	cg_tree_free(&cp->tree);
	json_object_put(cp->moved);
	json_object_put(cp->knobs);
	free(cp->groups);
	free(cp->gate);
	free(cp->before);
	free(cp->after);
	free(cp->ev0);
	free(cp->ev1);
	free(cp->evw[0]);
	free(cp->evw[1]);
	free(cp->peak);
	free(cp);
}

const char *cgs_point_layout(const struct res_point *p)
{
	struct json_object *cg, *l;

	if (!p->extra || !json_object_object_get_ex(p->extra, "cgroup", &cg) ||
	    !json_object_object_get_ex(cg, "layout", &l))
		return NULL;
	return json_object_get_string(l);
}
