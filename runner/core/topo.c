/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo.c - topology load and summary, and the placement orders (cores,
 * pus, spread) computed on hwloc objects, so that they can be unit-tested
 * on synthetic topologies (hwloc_topology_set_synthetic). The narrowing
 * to the CPUs a run may use is topo_allowed.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "runner/core/topo.h"
#include "lib/macros.h"

const char *const cgs_placement_names[] = {
	[CGS_PLACE_CORES] = "cores",
	[CGS_PLACE_PUS] = "pus",
	[CGS_PLACE_SPREAD] = "spread",
	[CGS_PLACE_NONE] = "none",
	NULL,
};

static unsigned nb(hwloc_topology_t t, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(t, type);

	return n > 0 ? (unsigned)n : 0;
}

/* Cores (or PUs when there are no cores) inside @obj's cpuset. */
static unsigned cores_in(hwloc_topology_t t, hwloc_obj_t obj)
{
	hwloc_obj_type_t type = nb(t, HWLOC_OBJ_CORE) ? HWLOC_OBJ_CORE
						       : HWLOC_OBJ_PU;

	if (!obj)
		return 0;
	return (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t, obj->cpuset,
								 type);
}

/* The first last-level cache (the highest cache level present). */
static hwloc_obj_t first_llc(hwloc_topology_t t, unsigned *count)
{
	static const hwloc_obj_type_t levels[] = {
		HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
		HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE,
	};

	for (size_t i = 0; i < ARRAY_SIZE(levels); i++) {
		unsigned n = nb(t, levels[i]);

		if (n) {
			*count = n;
			return hwloc_get_obj_by_type(t, levels[i], 0);
		}
	}
	*count = 0;
	return NULL;
}

static int load_real(struct cgs_topo *topo, void *arg)
{
	(void)arg;
	return cgs_topo_load_from(topo, NULL, NULL);
}

int cgs_topo_load_tries(struct cgs_topo *topo,
			int (*load)(struct cgs_topo *topo, void *arg), void *arg,
			unsigned tries, unsigned pause_ms)
{
	unsigned n = 0;
	int rc;

	do {
		if (n) {
			unsigned ms = pause_ms << (n - 1);
			struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

			cgs_topo_free(topo);
			nanosleep(&ts, NULL);
		}
		rc = load(topo, arg);
		n++;
	} while (!rc && topo->thissystem && !topo->llcs && n < tries);
	topo->loads = n;
	return rc;
}

int cgs_topo_load(struct cgs_topo *topo, const char *synthetic)
{
	/* measured on an AMD PVM guest, beside runs of cgscale: 21 of 60000
	 * loads found no cache, in spells of up to 20 ms; 4 loads, 25, 50
	 * and 100 ms apart, outlast them */
	if (!synthetic)
		return cgs_topo_load_tries(topo, load_real, NULL, 4, 25);
	return cgs_topo_load_from(topo, synthetic, NULL);
}

void cgs_topo_count(struct cgs_topo *topo)
{
	hwloc_obj_t llc = first_llc(topo->t, &topo->llcs);

	topo->packages = nb(topo->t, HWLOC_OBJ_PACKAGE);
	topo->numa_nodes = nb(topo->t, HWLOC_OBJ_NUMANODE);
	topo->pus = nb(topo->t, HWLOC_OBJ_PU);
	topo->cores = nb(topo->t, HWLOC_OBJ_CORE);
	if (!topo->cores)
		topo->cores = topo->pus;
	topo->llc_cores = cores_in(topo->t, llc);
	topo->package_cores =
		cores_in(topo->t, hwloc_get_obj_by_type(topo->t,
							HWLOC_OBJ_PACKAGE, 0));
	topo->numa_cores =
		cores_in(topo->t, hwloc_get_obj_by_type(topo->t,
							HWLOC_OBJ_NUMANODE, 0));
}

int cgs_topo_load_from(struct cgs_topo *topo, const char *synthetic,
		       const char *xml)
{
	int rc;

	memset(topo, 0, sizeof(*topo));
	if (hwloc_topology_init(&topo->t))
		return -errno ? -errno : -ENOMEM;
	if ((synthetic && hwloc_topology_set_synthetic(topo->t, synthetic)) ||
	    (xml && hwloc_topology_set_xml(topo->t, xml))) {
		rc = -EINVAL;
		goto fail;
	}
	if (hwloc_topology_load(topo->t)) {
		rc = -errno ? -errno : -EINVAL;
		goto fail;
	}
	topo->thissystem = hwloc_topology_is_thissystem(topo->t);
	cgs_topo_count(topo);
	topo->machine_pus = topo->pus;
	if (!topo->pus) {
		rc = -ENODEV;
		goto fail;
	}
	topo->loads = 1;
	return 0;
fail:
	hwloc_topology_destroy(topo->t);
	topo->t = NULL;
	return rc;
}

void cgs_topo_free(struct cgs_topo *topo)
{
	if (topo->t)
		hwloc_topology_destroy(topo->t);
	topo->t = NULL;
}

struct json_object *cgs_topo_json(const struct cgs_topo *topo)
{
	struct json_object *o = json_object_new_object();
	char synth[1024];

	json_object_object_add(o, "packages", json_object_new_int(topo->packages));
	json_object_object_add(o, "numa_nodes", json_object_new_int(topo->numa_nodes));
	json_object_object_add(o, "cores", json_object_new_int(topo->cores));
	json_object_object_add(o, "pus", json_object_new_int(topo->pus));
	json_object_object_add(o, "llcs", json_object_new_int(topo->llcs));
	json_object_object_add(o, "cores_per_llc", json_object_new_int(topo->llc_cores));
	json_object_object_add(o, "smt", json_object_new_boolean(topo->pus > topo->cores));
	json_object_object_add(o, "this_system", json_object_new_boolean(topo->thissystem));
	if (hwloc_topology_export_synthetic(topo->t, synth, sizeof(synth),
					    HWLOC_TOPOLOGY_EXPORT_SYNTHETIC_FLAG_IGNORE_MEMORY) > 0)
		json_object_object_add(o, "synthetic", json_object_new_string(synth));
	return o;
}

/* The cores in hwloc logical order; PUs stand in for cores if none. */
static int core_list(const struct cgs_topo *topo, hwloc_obj_t **out)
{
	hwloc_obj_type_t type = nb(topo->t, HWLOC_OBJ_CORE) ? HWLOC_OBJ_CORE
							     : HWLOC_OBJ_PU;
	hwloc_obj_t *v = calloc(topo->cores, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (unsigned i = 0; i < topo->cores; i++)
		v[i] = hwloc_get_obj_by_type(topo->t, type, i);
	*out = v;
	return 0;
}

/* Index of the package and NUMA node that hold @core (0 when none): the
 * first NUMA node, in logical order, of those attached to the core or an
 * ancestor (the nodes whose cpuset holds it). Found up the tree, so the
 * cost is the depth, not the number of nodes. */
static void core_domains(const struct cgs_topo *topo, hwloc_obj_t core,
			 unsigned *pkg, unsigned *numa)
{
	hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(topo->t,
						       HWLOC_OBJ_PACKAGE, core);
	bool found = false;

	*pkg = p ? p->logical_index : 0;
	*numa = 0;
	for (hwloc_obj_t a = core; a; a = a->parent)
		for (hwloc_obj_t m = a->memory_first_child; m; m = m->next_sibling)
			if (m->type == HWLOC_OBJ_NUMANODE &&
			    (!found || m->logical_index < *numa)) {
				*numa = m->logical_index;
				found = true;
			}
}

/*
 * Reorder @cores for spread: round-robin across packages, within each
 * package round-robin across its NUMA nodes, keeping core order inside a
 * node. For pack:2 numa:2 core:8 the first four places land on package 0
 * node 0, package 1 node 2, package 0 node 1, package 1 node 3. A node
 * that runs out is skipped; the turn passes to the next. The cores
 * are bucketed per (package, node) first, so this is linear in the cores
 * (times packages x nodes per round), not quadratic.
 */
static int spread_order(const struct cgs_topo *topo, hwloc_obj_t *cores)
{
	unsigned n = topo->cores, np = topo->packages ? topo->packages : 1;
	unsigned nn = topo->numa_nodes ? topo->numa_nodes : 1, nb = np * nn;
	unsigned *key = calloc(n, sizeof(*key)), *idx = calloc(n, sizeof(*idx));
	unsigned *start = calloc(nb + 1, sizeof(*start)), *cur = calloc(nb, sizeof(*cur));
	unsigned *last = calloc(np, sizeof(*last));
	hwloc_obj_t *out = calloc(n, sizeof(*out));
	unsigned done = 0;
	int rc = -ENOMEM;

	if (!key || !idx || !start || !cur || !last || !out)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		unsigned p, d;

		core_domains(topo, cores[i], &p, &d);
		key[i] = (p < np ? p : 0) * nn + (d < nn ? d : 0);
		start[key[i] + 1]++;
	}
	for (unsigned b = 0; b < nb; b++)
		start[b + 1] += start[b];
	for (unsigned i = 0; i < n; i++)     /* stable: core order kept */
		idx[start[key[i]] + cur[key[i]]++] = i;
	memset(cur, 0, nb * sizeof(*cur));
	/* each round: for each package, the next of its nodes that still
	 * has cores, after the one it took last; that node's next core */
	for (unsigned p = 0; p < np; p++)
		last[p] = nn - 1;
	while (done < n) {
		for (unsigned p = 0; p < np; p++) {
			for (unsigned s = 1; s <= nn; s++) {
				unsigned d = (last[p] + s) % nn, b = p * nn + d;

				if (start[b] + cur[b] == start[b + 1])
					continue;    /* none left in this node */
				out[done++] = cores[idx[start[b] + cur[b]++]];
				last[p] = d;
				break;
			}
		}
	}
	memcpy(cores, out, n * sizeof(*out));
	rc = 0;
out:
	free(key);
	free(idx);
	free(start);
	free(cur);
	free(last);
	free(out);
	return rc;
}

/*
 * Place one PU each: PU k of every core in @cores order, for k = 0, 1...
 * Each PU is filed under its core once (logical order), so this is
 * linear in the PUs.
 */
static int pu_places(const struct cgs_topo *topo, hwloc_obj_t *cores,
		     struct cgs_places *pl)
{
	unsigned nc = topo->cores, npu = topo->pus;
	bool by_core = nb(topo->t, HWLOC_OBJ_CORE) > 0;
	unsigned *pos = calloc(nc, sizeof(*pos)), *start = calloc(nc + 1, sizeof(*start));
	unsigned *fill = calloc(nc, sizeof(*fill));
	hwloc_obj_t *pu = calloc(npu, sizeof(*pu));
	int rc = -ENOMEM;

	pl->set = calloc(npu, sizeof(*pl->set));
	pl->obj = calloc(npu, sizeof(*pl->obj));
	if (!pos || !start || !fill || !pu || !pl->set || !pl->obj)
		goto out;
	for (unsigned c = 0; c < nc; c++)
		pos[cores[c]->logical_index] = c;
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < npu; i++) {
			hwloc_obj_t o = hwloc_get_obj_by_type(topo->t, HWLOC_OBJ_PU, i);
			hwloc_obj_t c = by_core ? hwloc_get_ancestor_obj_by_type(
					topo->t, HWLOC_OBJ_CORE, o) : o;

			if (!c || c->logical_index >= nc)
				continue;
			if (pass)
				pu[start[pos[c->logical_index]] + fill[pos[c->logical_index]]++] = o;
			else
				start[pos[c->logical_index] + 1]++;
		}
		for (unsigned c = 0; !pass && c < nc; c++)
			start[c + 1] += start[c];
	}
	rc = 0;
	for (unsigned level = 0, added = 1; !rc && added; level++) {
		added = 0;
		for (unsigned c = 0; !rc && c < nc; c++) {
			if (fill[c] <= level)
				continue;
			pl->obj[pl->n] = pu[start[c] + level];
			pl->set[pl->n] = hwloc_bitmap_dup(pu[start[c] + level]->cpuset);
			rc = pl->set[pl->n] ? 0 : -ENOMEM;
			pl->n += !rc;
			added++;
		}
	}
out:
	free(pos);
	free(start);
	free(fill);
	free(pu);
	return rc;
}

int cgs_places_build(const struct cgs_topo *topo, enum cgs_placement p,
		     struct cgs_places *pl)
{
	hwloc_obj_t *cores = NULL;
	int rc;

	memset(pl, 0, sizeof(*pl));
	if (p == CGS_PLACE_NONE)
		return 0;
	rc = core_list(topo, &cores);
	if (rc)
		return rc;
	if (p == CGS_PLACE_CORES) {
		pl->set = calloc(topo->cores, sizeof(*pl->set));
		pl->obj = calloc(topo->cores, sizeof(*pl->obj));
		rc = pl->set && pl->obj ? 0 : -ENOMEM;
		for (unsigned i = 0; !rc && i < topo->cores; i++) {
			pl->obj[i] = cores[i];
			pl->set[i] = hwloc_bitmap_dup(cores[i]->cpuset);
			rc = pl->set[i] ? 0 : -ENOMEM;
			pl->n = i + 1;
		}
	} else {
		if (p == CGS_PLACE_SPREAD)
			rc = spread_order(topo, cores);
		if (!rc)
			rc = pu_places(topo, cores, pl);
	}
	free(cores);
	if (rc)
		cgs_places_free(pl);
	return rc;
}

void cgs_places_free(struct cgs_places *pl)
{
	for (unsigned i = 0; pl->set && i < pl->n; i++)
		hwloc_bitmap_free(pl->set[i]);
	free(pl->set);
	free(pl->obj);
	pl->set = NULL;
	pl->obj = NULL;
	pl->n = 0;
}

hwloc_const_bitmap_t cgs_place_of(const struct cgs_places *pl, unsigned i)
{
	return pl->n ? pl->set[i % pl->n] : NULL;
}

void cgs_places_first_pus(const struct cgs_places *pl, int *out)
{
	for (unsigned i = 0; i < pl->n; i++)
		out[i] = hwloc_bitmap_first(pl->set[i]);
}
