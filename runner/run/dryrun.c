/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dryrun.c - print the plan of a run without running it (dryrun.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "runner/cgroups/cgrun.h"
#include "runner/run/dryrun.h"
#include "runner/run/image.h"
#include "lib/freshtmp.h"
#include "lib/esc.h"
#include "lib/macros.h"

/* The points as run_all() runs them: runs, tests, task counts, modes,
 * cgroup layouts innermost in ABBA order. */
static unsigned nmodes(const struct cgs_run *r)
{
	return r->o.mode == CGS_MODE_BOTH ? 2 : 1;
}

static unsigned npoints(const struct cgs_run *r)
{
	return (unsigned)r->o.runs * r->ntests * r->tasks.n * nmodes(r) * r->cg->nlayouts;
}

double cgs_dryrun_seconds(const struct cgs_run *r)
{
	return npoints(r) * (r->o.warmup_ns + r->o.duration_ns) / 1e9;
}

/* The last-level cache's type: the highest cache level present. */
static hwloc_obj_type_t llc_type(hwloc_topology_t t)
{
	static const hwloc_obj_type_t lv[] = {
		HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
		HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE,
	};

	for (size_t i = 0; i < ARRAY_SIZE(lv); i++)
		if (hwloc_get_nbobjs_by_type(t, lv[i]) > 0)
			return lv[i];
	return HWLOC_OBJ_TYPE_MAX;
}

/*
 * What the first places cover, counted as places are added (task counts
 * ascend, so each count adds to the one before): every object is marked
 * once, from a place's own object up to the root and down to the PUs of
 * the place, so all counts together are linear in the objects.
 */
struct cover {
	hwloc_topology_t t;
	hwloc_obj_type_t llc;
	unsigned char **seen;        /* [depth][logical index] */
	unsigned char *numa_seen;    /* [NUMA logical index] */
	int depth;
	unsigned n[5];               /* packages, NUMA, LLCs, cores, PUs */
};

static void cover_count(struct cover *c, hwloc_obj_t o)
{
	c->n[0] += o->type == HWLOC_OBJ_PACKAGE;
	c->n[2] += o->type == c->llc;
	c->n[3] += o->type == HWLOC_OBJ_CORE;
	c->n[4] += o->type == HWLOC_OBJ_PU;
	for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling)
		if (m->type == HWLOC_OBJ_NUMANODE && !c->numa_seen[m->logical_index]) {
			c->numa_seen[m->logical_index] = 1;
			c->n[1]++;
		}
}

static bool cover_mark(struct cover *c, hwloc_obj_t o)
{
	if (o->depth < 0 || o->depth >= c->depth || c->seen[o->depth][o->logical_index])
		return false;
	c->seen[o->depth][o->logical_index] = 1;
	cover_count(c, o);
	return true;
}

/* @o's children that share a PU with @place, and theirs. */
static void cover_down(struct cover *c, hwloc_obj_t o, hwloc_const_bitmap_t place)
{
	for (hwloc_obj_t k = o->first_child; k; k = k->next_sibling)
		if (k->cpuset && hwloc_bitmap_intersects(k->cpuset, place) &&
		    cover_mark(c, k))
			cover_down(c, k, place);
}

static void cover_add(struct cover *c, hwloc_obj_t o, hwloc_const_bitmap_t place)
{
	cover_down(c, o, place);
	/* an object already marked has its ancestors marked too */
	for (; o && cover_mark(c, o); o = o->parent)
		;
}

static int cover_init(struct cover *c, hwloc_topology_t t)
{
	c->t = t;
	c->llc = llc_type(t);
	c->depth = hwloc_topology_get_depth(t);
	c->seen = calloc((size_t)c->depth, sizeof(*c->seen));
	c->numa_seen = calloc((size_t)hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE) + 1, 1);
	if (!c->seen || !c->numa_seen)
		return -ENOMEM;
	for (int d = 0; d < c->depth; d++)
		if (!(c->seen[d] = calloc(hwloc_get_nbobjs_by_depth(t, (unsigned)d) + 1, 1)))
			return -ENOMEM;
	return 0;
}

static void cover_free(struct cover *c)
{
	for (int d = 0; c->seen && d < c->depth; d++)
		free(c->seen[d]);
	free(c->seen);
	free(c->numa_seen);
}

/* The logical index of @o's ancestor (or itself) of @type, as text. */
static const char *up_to(hwloc_topology_t t, hwloc_obj_t o, hwloc_obj_type_t type,
			 char *buf, size_t len)
{
	while (o && o->type != type)
		o = o->parent;
	(void)t;
	if (o)
		snprintf(buf, len, "%u", o->logical_index);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* The NUMA nodes (os indexes) local to @o, as a list. */
static const char *numa_of(hwloc_obj_t o, char *buf, size_t len)
{
	if (!o || !o->nodeset || hwloc_bitmap_iszero(o->nodeset))
		snprintf(buf, len, "-");
	else
		hwloc_bitmap_list_snprintf(buf, len, o->nodeset);
	return buf;
}

/* One line per task count: what its tasks cover. */
static void print_counts(const struct cgs_run *r, FILE *out)
{
	hwloc_topology_t t = r->topo.t;
	unsigned np = r->places.n, added = 0;
	struct cover c = { 0 };
	bool ok = !cover_init(&c, t);

	fprintf(out, "\ntask counts (each task's place is the same in every test, mode and run):\n");
	fprintf(out, "  %6s %9s %5s %5s %6s %6s  %s\n", "tasks", "packages", "NUMA",
		"LLCs", "cores", "PUs", "tasks per place");
	if (ok && !np)      /* unbound: the tasks may run anywhere */
		cover_add(&c, hwloc_get_root_obj(t), hwloc_topology_get_topology_cpuset(t));
	for (unsigned k = 0; ok && k < r->tasks.n; k++) {
		unsigned n = r->tasks.v[k];

		for (; added < n && added < np; added++)
			cover_add(&c, r->places.obj[added], r->places.set[added]);
		fprintf(out, "  %6u %9u %5u %5u %6u %6u  ", n, c.n[0], c.n[1], c.n[2],
			c.n[3], c.n[4]);
		if (!np)
			fprintf(out, "unbound: the scheduler places them\n");
		else if (n > np)
			fprintf(out, "up to %u (oversubscribed: task i on place i mod %u)\n",
				(n + np - 1) / np, np);
		else
			fprintf(out, "1\n");
	}
	cover_free(&c);
}

/* Every task's place, for the largest count (smaller ones are its start). */
static void print_places(const struct cgs_run *r, FILE *out)
{
	hwloc_topology_t t = r->topo.t;
	unsigned n = r->tasks.n ? r->tasks.v[r->tasks.n - 1] : 0;
	hwloc_obj_type_t llc = llc_type(t);
	char pus[256], a[16], b[16], c[64], d[16];
	bool nb_cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) > 0;

	if (!r->places.n) {
		fprintf(out, "\nplaces: none (--placement none): tasks are not bound\n");
		return;
	}
	if (n > r->places.n)
		n = r->places.n;
	fprintf(out, "\nplaces (--placement %s, %u of them; task i is bound to place i mod %u):\n",
		cgs_placement_names[r->o.placement], r->places.n, r->places.n);
	fprintf(out, "  %6s  %-12s %5s %8s %5s %4s\n", "task", "PUs (os)", "core", "package",
		"NUMA", "LLC");
	for (unsigned i = 0; i < n; i++) {
		hwloc_const_bitmap_t s = r->places.set[i];
		/* the object the place was made of: the core or the PU */
		hwloc_obj_t o = r->places.obj[i];

		hwloc_bitmap_list_snprintf(pus, sizeof(pus), s);
		fprintf(out, "  %6u  %-12s %5s %8s %5s %4s\n", i, pus,
			up_to(t, o, nb_cores ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU, a, sizeof(a)),
			up_to(t, o, HWLOC_OBJ_PACKAGE, b, sizeof(b)),
			numa_of(o, c, sizeof(c)),
			llc == HWLOC_OBJ_TYPE_MAX ? "-" : up_to(t, o, llc, d, sizeof(d)));
	}
}

static void print_points(const struct cgs_run *r, FILE *out)
{
	bool modes[2] = { r->o.mode != CGS_MODE_THREAD, r->o.mode != CGS_MODE_PROCESS };
	unsigned nl = r->cg->nlayouts, seq = 0;

	if (r->o.runs_auto)
		fprintf(out, "\n-r auto: up to %u runs; it stops earlier once every point's interval is narrow enough, so the points and time below are the most\n",
			(unsigned)r->o.runs);
	fprintf(out, "\npoints, in the order they run (%u):\n", npoints(r));
	fprintf(out, "  %5s %4s  %-14s %-8s %6s  %s\n", "seq", "run", "test", "mode", "tasks",
		"cgroup layout");
	for (unsigned run = 0; run < r->o.runs; run++)
		for (unsigned t = 0; t < r->ntests; t++)
			for (unsigned k = 0; k < r->tasks.n; k++)
				for (int m = 0; m < 2; m++)
					for (unsigned l = 0; modes[m] && l < nl; l++)
						fprintf(out, "  %5u %4u  %-14s %-8s %6u  %s\n", seq++,
							run + 1, r->tests[t]->name,
							m ? "thread" : "process", r->tasks.v[k],
							r->cg->L[cgs_cg_order(nl, run, l)].name);
}

/* The tests this box cannot run: their points will be skipped, and why. */
static void print_support(const struct cgs_run *r, FILE *out)
{
	for (unsigned t = 0; t < r->ntests; t++) {
		char why[256];
		int rc = cgs_run_test_supported(r, t, why, sizeof(why));

		if (rc)
			fprintf(out, "\n%s is not supported here, so its points will be SKIPPED: %s\n",
				r->tests[t]->name, rc == -EOPNOTSUPP ? why : strerror(-rc));
	}
}

/* The most --tmpdir space one point takes: its tasks' files at once. */
static void print_space(const struct cgs_run *r, FILE *out)
{
	unsigned n = r->tasks.n ? r->tasks.v[r->tasks.n - 1] : 0;
	uint64_t most = 0;
	const char *who = NULL;
	char dir[4 * PATH_MAX];
	struct statvfs sv;

	for (unsigned t = 0; t < r->ntests; t++) {
		const struct cgs_workload *w = r->tests[t];
		const void *opts = NULL;
		uint64_t b;

		for (size_t i = 0; i < cgs_nworkloads; i++)
			if (cgs_workloads[i] == w)
				opts = r->wopts[i];
		b = w->tmpdir_bytes ? w->tmpdir_bytes(opts) * n : 0;
		if (b > most || !who) {
			most = b;
			who = w->name;
		}
	}
	fprintf(out, "\ntmpdir %s: up to %.1f MiB at once (%s, %u tasks)",
		cgs_esc(r->tmpdir, dir, sizeof(dir)),
		most / 1048576.0, who ? who : "-", n);
	if (r->topo.thissystem && statvfs(r->tmpdir, &sv) == 0)
		fprintf(out, "; %.1f MiB free there now\n",
			(double)sv.f_bavail * sv.f_frsize / 1048576.0);
	else
		fprintf(out, "; on the described machine, check the space of its tmpdir\n");
	if (!r->o.tmpdir)
		fprintf(out, "  (without --tmpdir, as root: a new tmpfs of %.0f MiB mounted over /dev/shm in each point's own mount namespace, unseen by the box and gone with the point; else %s itself)\n",
			cgs_fresh_tmpfs_size(most) / 1048576.0, dir);
}

static void print_machine(const struct cgs_run *r, FILE *out)
{
	const struct cgs_topo *tp = &r->topo;
	char synth[1024], desc[4 * PATH_MAX];

	fprintf(out, "plan of 'cgscale run' (--dry-run: nothing runs, nothing is made or written)\n\n");
	fprintf(out, "machine: %s\n", r->o.topology ? cgs_esc(r->o.topology, desc, sizeof(desc)) :
		tp->thissystem ? "this one" : "from HWLOC_SYNTHETIC/HWLOC_XMLFILE");
	fprintf(out, "  %u package%s, %u NUMA node%s, %u last-level cache%s, %u cores, %u PUs%s\n",
		tp->packages, tp->packages == 1 ? "" : "s", tp->numa_nodes,
		tp->numa_nodes == 1 ? "" : "s", tp->llcs, tp->llcs == 1 ? "" : "s",
		tp->cores, tp->pus, tp->pus > tp->cores ? " (SMT)" : "");
	if (tp->allowed_by) {
		char allowed[600];

		cgs_topo_allowed_str(tp, allowed, sizeof(allowed));
		fprintf(out, "  the run may use CPUs %s (%u of %u online); the counts above are of those%s\n",
			allowed, tp->pus, tp->machine_pus, tp->cut_cores ?
			"; some cores only in part (their places are the allowed PUs)" : "");
	}
	if (hwloc_topology_export_synthetic(tp->t, synth, sizeof(synth),
					    HWLOC_TOPOLOGY_EXPORT_SYNTHETIC_FLAG_IGNORE_MEMORY) > 0)
		fprintf(out, "  as hwloc synthetic: %s\n", synth);
}

/* Where the tasks would run (--task-process, image.h). */
static void print_image(const struct cgs_run *r, FILE *out)
{
	char img[PATH_MAX], why[PATH_MAX + 200], esc[4 * PATH_MAX];

	cgs_image_find(r->o.task_process, img, sizeof(img), why, sizeof(why));
	if (img[0])
		fprintf(out, "tasks: in %s, the plain image each worker execs\n",
			cgs_esc(img, esc, sizeof(esc)));
	else
		fprintf(out, "tasks: in forks of cgscale, with its libraries in their address space: %s\n",
			cgs_esc(why, esc, sizeof(esc)));
}

int cgs_dryrun_print(const struct cgs_run *r, FILE *out)
{
	long s = (long)(cgs_dryrun_seconds(r) + 0.5);
	unsigned n = r->tasks.n ? r->tasks.v[r->tasks.n - 1] : 1;
	int status;

	print_machine(r, out);
	print_counts(r, out);
	print_points(r, out);
	print_support(r, out);
	print_places(r, out);
	fprintf(out, "\ncgroups:");
	fflush(out);
	status = cgs_cg_plan_print(r->cg, n);
	print_space(r, out);
	print_image(r, out);
	fprintf(out, "estimated wall time: at least %ld:%02ld:%02ld, %u points x (%.3g s warm-up + %.3g s measured), plus starting and stopping each point's tasks (harness.spawn_ms and stop_ms in the results; bench/sampler-scale)\n",
		s / 3600, s % 3600 / 60, s % 60, npoints(r), r->o.warmup_ns / 1e9,
		r->o.duration_ns / 1e9);
	return status;
}
