/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgrun_json.c - a point's extra.cgroup section (results/SCHEMA.md):
 * the layout string the compare tool groups on, every level's full path
 * in every hierarchy, the knobs with the values read back, the leaves'
 * memory.stat before/after the measured window with deltas and the
 * counters per op, and the memory events (v2 memory.events, v1 failcnt
 * and oom_kill) of every level, with "flags" naming any OOM, limit hit
 * or throttling, and the tree's over the window, per op.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "runner/cgroups/cgrun.h"

struct json_object *cgs_cgpoint_knobs(const struct cg_tree *t)
{
	struct json_object *a = json_object_new_array();

	for (unsigned k = 0; k < t->spec.nknobs; k++) {
		const struct cg_knob *kn = &t->spec.knobs[k];
		struct json_object *o, *rb;
		unsigned h;

		if (kn->level > t->spec.depth)
			continue;
		for (h = 0; h < t->nh && !cg_list_has(t->h[h].need, kn->ctrl); h++)
			;
		if (h == t->nh)
			continue;
		o = json_object_new_object();
		rb = json_object_new_array();
		json_object_object_add(o, "level", json_object_new_int((int)kn->level));
		json_object_object_add(o, "knob", json_object_new_string(kn->name));
		json_object_object_add(o, "value", json_object_new_string(kn->value));
		for (unsigned i = 0; i < t->nnodes; i++) {
			char rel[PATH_MAX], buf[4096];

			if (t->level[i] != kn->level)
				continue;
			if (cg_tree_rel(t, h, i, rel, sizeof(rel)) ||
			    cg_lib_read(kn->ctrl, rel, kn->name, buf, sizeof(buf))) {
				json_object_array_add(rb, NULL);
				continue;
			}
			while (*buf && strchr("\n ", buf[strlen(buf) - 1]))
				buf[strlen(buf) - 1] = 0;
			for (char *c = buf; *c; c++)
				if (*c == '\n')
					*c = ';';
			json_object_array_add(rb, json_object_new_string(buf));
		}
		json_object_object_add(o, "read_back", rb);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *kv_json(const struct cg_kv *kv)
{
	struct json_object *o = json_object_new_object();

	for (unsigned i = 0; kv && i < kv->n; i++)
		json_object_object_add(o, kv->key[i], json_object_new_int64(kv->val[i]));
	return o;
}

/* @b - @a for every key of @b that @a has too. */
static void kv_delta(const struct cg_kv *a, const struct cg_kv *b, struct cg_kv *out)
{
	out->n = 0;
	for (unsigned i = 0; i < b->n; i++) {
		int64_t va;

		if (cg_kv_get(a, b->key[i], &va))
			continue;
		memcpy(out->key[out->n], b->key[i], sizeof(out->key[0]));
		out->val[out->n++] = b->val[i] - va;
	}
}

/* The sum over @n leaves, key by key. */
static void kv_sum(const struct cg_kv *v, unsigned n, struct cg_kv *out)
{
	out->n = 0;
	for (unsigned l = 0; l < n; l++)
		for (unsigned i = 0; i < v[l].n; i++) {
			unsigned k;

			for (k = 0; k < out->n && strcmp(out->key[k], v[l].key[i]); k++)
				;
			if (k == out->n) {
				if (out->n == CG_KV_MAX)
					continue;
				memcpy(out->key[k], v[l].key[i], sizeof(out->key[0]));
				out->val[k] = 0;
				out->n++;
			}
			/* saturate: v1 adds limits such as
			 * hierarchical_memory_limit, near INT64_MAX */
			if (__builtin_add_overflow(out->val[k], v[l].val[i], &out->val[k]))
				out->val[k] = v[l].val[i] > 0 ? INT64_MAX : INT64_MIN;
		}
}

/* The few memory.stat keys that tell where the work was charged. */
static struct json_object *compact(const struct cg_kv *kv)
{
	static const char *const keys[] = { "pgfault", "pgmajfault", "anon",
		"file", "shmem", "sock", "rss", "cache", NULL };
	struct json_object *o = json_object_new_object();

	for (unsigned i = 0; keys[i]; i++) {
		int64_t v;

		if (!cg_kv_get(kv, keys[i], &v))
			json_object_object_add(o, keys[i], json_object_new_int64(v));
	}
	return o;
}

/* A memory.stat key that counts events (faults, scans, refaults), not
 * a level (bytes): its delta per op means something. v1's total_*
 * repeat the leaf's own keys hierarchically: left out. */
static bool is_counter(const char *k)
{
	static const char *const pre[] = { "pg", "workingset_refault", "workingset_activate",
		"workingset_restore", "workingset_nodereclaim", "thp_", "zswpin", "zswpout",
		"zswpwb", "swpin", "swpout", "numa_pages_migrated", "numa_pte_updates",
		"numa_hint_faults", NULL };

	for (unsigned i = 0; pre[i]; i++)
		if (!strncmp(k, pre[i], strlen(pre[i])))
			return true;
	return false;
}

/* The counters of @d per op of @p's window (null without ops). */
static struct json_object *per_op(const struct cg_kv *d, const struct res_point *p)
{
	struct json_object *o = json_object_new_object();
	uint64_t ops = p->status == RES_OK ? p->sum.ops : 0;

	for (unsigned i = 0; i < d->n; i++)
		if (is_counter(d->key[i]))
			json_object_object_add(o, d->key[i], ops ?
				json_object_new_double((double)d->val[i] / (double)ops) : NULL);
	return o;
}

static void add_stats(const struct cg_tree *t, const struct cgs_cgsnap *s,
		      const struct res_point *p, struct json_object *o)
{
	unsigned n = t->spec.nleaves;
	struct cg_kv *w = malloc(6 * sizeof(*w));
	struct json_object *ms, *per;

	if (!w || !s->gate || !s->after) {
		free(w);
		return;
	}
	ms = json_object_new_object();
	kv_sum(s->gate, n, &w[0]);
	kv_sum(s->after, n, &w[2]);
	json_object_object_add(ms, "leaves", json_object_new_int((int)n));
	if (s->before) {
		kv_sum(s->before, n, &w[1]);
		kv_delta(&w[1], &w[2], &w[3]);
		json_object_object_add(ms, "before", kv_json(&w[1]));
	}
	json_object_object_add(ms, "after", kv_json(&w[2]));
	json_object_object_add(ms, "delta", s->before ? kv_json(&w[3]) : NULL);
	if (s->before && !s->after_at_end)
		json_object_object_add(ms, "per_op", per_op(&w[3], p));
	kv_delta(&w[0], &w[2], &w[4]);
	json_object_object_add(ms, "delta_since_gate", kv_json(&w[4]));
	json_object_object_add(ms, "after_taken", json_object_new_string(
		s->after_at_end ? "after the tasks stopped (the point ended early)"
				: "at the end of the measured window"));
	json_object_object_add(o, "memory_stat", ms);
	if (n > 1 && s->before) {
		per = json_object_new_array();
		for (unsigned l = 0; l < n; l++) {
			struct json_object *j = json_object_new_object();
			char full[PATH_MAX];

			cg_tree_path(t, (unsigned)s->memh, t->first_leaf + l, full, sizeof(full));
			kv_delta(&s->before[l], &s->after[l], &w[5]);
			json_object_object_add(j, "path", json_object_new_string(full));
			json_object_object_add(j, "delta", compact(&w[5]));
			json_object_array_add(per, j);
		}
		json_object_object_add(o, "per_leaf", per);
	}
	free(w);
}

/*
 * The tree's memory events over the measured window, per op: v1 counts
 * failcnt (and oom_kill) where the limit was hit, so every cgroup of the
 * tree is summed; v2's memory.events are hierarchical, so the top level
 * holds the whole tree's.
 */
static void add_window_events(const struct cg_tree *t, const struct cgs_cgsnap *s,
			      const struct res_point *p, struct json_object *o)
{
	bool v2 = t->h[s->memh].version == 2;
	uint64_t ops = p->status == RES_OK ? p->sum.ops : 0;
	struct cg_kv *d = malloc((t->nnodes + 1) * sizeof(*d)), *sum;
	struct json_object *w, *po;
	unsigned n = 0;

	if (!d || !s->evw0 || !s->evw1) {
		free(d);
		return;
	}
	for (unsigned i = 0; i < t->nnodes; i++)
		if (!v2 || t->level[i] == 1)
			kv_delta(&s->evw0[i], &s->evw1[i], &d[n++]);
	sum = &d[t->nnodes];
	kv_sum(d, n, sum);
	w = json_object_new_object();
	po = json_object_new_object();
	json_object_object_add(w, "scope", json_object_new_string(v2 ?
		"memory.events of the tree's top level (hierarchical: the whole tree)" :
		"memory.failcnt and oom_control's oom_kill, summed over every cgroup of the tree"));
	json_object_object_add(w, "delta", kv_json(sum));
	for (unsigned i = 0; i < sum->n; i++)
		json_object_object_add(po, sum->key[i], ops ?
			json_object_new_double((double)sum->val[i] / (double)ops) : NULL);
	json_object_object_add(w, "per_op", po);
	json_object_object_add(o, "events_window", w);
	free(d);
}

/* Memory events of every level; flags for OOM, limit hits, throttling. */
static void add_events(const struct cg_tree *t, const struct cgs_cgsnap *s,
		       struct json_object *o)
{
	static const char *const bad_v2[] = { "high", "max", "oom", "oom_kill",
		"oom_group_kill", NULL };
	static const char *const bad_v1[] = { "failcnt", "oom_kill", NULL };
	const char *const *badk = t->h[s->memh].version == 2 ? bad_v2 : bad_v1;
	struct json_object *ev = json_object_new_array(), *flags = json_object_new_array();
	struct cg_kv *d = malloc(sizeof(*d));

	for (unsigned i = 0; d && s->ev0 && i < t->nnodes; i++) {
		struct json_object *j = json_object_new_object();
		char full[PATH_MAX];

		cg_tree_path(t, (unsigned)s->memh, i, full, sizeof(full));
		kv_delta(&s->ev0[i], &s->ev1[i], d);
		json_object_object_add(j, "path", json_object_new_string(full));
		json_object_object_add(j, "level", json_object_new_int((int)t->level[i]));
		json_object_object_add(j, "after", kv_json(&s->ev1[i]));
		json_object_object_add(j, "delta", kv_json(d));
		json_object_object_add(j, "peak_bytes", s->peak[i] >= 0 ?
				       json_object_new_int64(s->peak[i]) : NULL);
		json_object_array_add(ev, j);
		for (unsigned k = 0; badk[k]; k++) {
			int64_t v;
			char f[PATH_MAX + 64];

			if (cg_kv_get(d, badk[k], &v) || v <= 0)
				continue;
			snprintf(f, sizeof(f), "%s +%lld in %s", badk[k], (long long)v, full);
			json_object_array_add(flags, json_object_new_string(f));
		}
	}
	free(d);
	json_object_object_add(o, "events", ev);
	json_object_object_add(o, "flagged",
			       json_object_new_boolean(json_object_array_length(flags) > 0));
	json_object_object_add(o, "flags", flags);
}

static void add_hierarchies(const struct cg_tree *t, struct json_object *o)
{
	struct json_object *hs = json_object_new_array(), *vs = json_object_new_array();
	bool v[3] = { false };

	for (unsigned h = 0; h < t->nh; h++) {
		const struct cg_thier *th = &t->h[h];
		const struct cg_hier *lh = &t->lay->h[th->hi];
		struct json_object *j = json_object_new_object(), *lv = json_object_new_array();
		char full[2 * PATH_MAX];

		v[th->version] = true;
		json_object_object_add(j, "version", json_object_new_int(th->version));
		json_object_object_add(j, "mount", json_object_new_string(lh->mount));
		json_object_object_add(j, "controllers", json_object_new_string(th->need));
		snprintf(full, sizeof(full), "%s%s", lh->mount, strcmp(th->parent, "/") ? th->parent : "");
		json_object_object_add(j, "parent", json_object_new_string(full));
		if (th->version == 2) {
			json_object_object_add(j, "enabled_in_parent",
					       json_object_new_string(th->enabled));
			snprintf(full, sizeof(full), "%s%s", lh->mount, th->runner_leaf);
			json_object_object_add(j, "runner_moved_to", th->runner_leaf[0] ?
					       json_object_new_string(full) : NULL);
		}
		for (unsigned k = 1; k <= t->spec.depth; k++) {
			struct json_object *at = json_object_new_array();

			for (unsigned i = 0; i < t->nnodes; i++)
				if (t->level[i] == k && !cg_tree_path(t, h, i, full, sizeof(full)))
					json_object_array_add(at, json_object_new_string(full));
			json_object_array_add(lv, at);
		}
		json_object_object_add(j, "levels", lv);
		json_object_array_add(hs, j);
	}
	for (int i = 1; i <= 2; i++)
		if (v[i])
			json_object_array_add(vs, json_object_new_int(i));
	json_object_object_add(o, "versions", vs);
	json_object_object_add(o, "hierarchies", hs);
}

/* Depth 0: where the tasks ran. */
static void add_depth0(const struct cgs_cgrun *c, struct json_object *o)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; c->detected && i < c->lay.n; i++) {
		const struct cg_hier *h = &c->lay.h[i];
		struct json_object *j = json_object_new_object();
		bool mem = cg_list_has(h->ctrls, "memory") && c->has_parent;

		json_object_object_add(j, "version", json_object_new_int(h->version));
		json_object_object_add(j, "mount", json_object_new_string(h->mount));
		json_object_object_add(j, "controllers", json_object_new_string(h->ctrls));
		json_object_object_add(j, "path", json_object_new_string(
			mem ? c->parent : h->self[0] ? h->self : "(not visible)"));
		json_object_array_add(a, j);
	}
	json_object_object_add(o, "tasks_ran_in", a);
}

void cgs_cgpoint_json(const struct cgs_cgrun *c, unsigned li,
		      const struct cg_tree *t, struct res_point *p,
		      const struct cgs_cgsnap *s)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "layout", json_object_new_string(c->L[li].name));
	json_object_object_add(o, "depth", json_object_new_int((int)c->L[li].depth));
	if (c->L[li].depth)
		json_object_object_add(o, "leaf", json_object_new_string(
			cgs_cg_leaf_names[c->per_task ? CGS_CG_PER_TASK : CGS_CG_SHARED]));
	if (!c->L[li].depth)
		add_depth0(c, o);
	if (t) {
		add_hierarchies(t, o);
		json_object_object_add(o, "knobs", s->knobs ? s->knobs : json_object_new_array());
		add_stats(t, s, p, o);
		add_events(t, s, o);
		add_window_events(t, s, p, o);
	} else {
		json_object_put(s->knobs);
	}
	if (s->error && s->error[0])
		json_object_object_add(o, "error", json_object_new_string(s->error));
	if (!p->extra)
		p->extra = json_object_new_object();
	json_object_object_add(p->extra, "cgroup", o);
}
