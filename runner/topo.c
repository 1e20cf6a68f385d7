/*
 * topo.c - topology load and summary, and the placement orders (cores,
 * pus, spread) computed on hwloc objects, so that they can be unit-tested
 * on synthetic topologies (hwloc_topology_set_synthetic).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "topo.h"

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

	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		unsigned n = nb(t, levels[i]);

		if (n) {
			*count = n;
			return hwloc_get_obj_by_type(t, levels[i], 0);
		}
	}
	*count = 0;
	return NULL;
}

int cgs_topo_load(struct cgs_topo *topo, const char *synthetic)
{
	return cgs_topo_load_from(topo, synthetic, NULL);
}

int cgs_topo_load_from(struct cgs_topo *topo, const char *synthetic,
		       const char *xml)
{
	hwloc_obj_t llc;
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
	topo->packages = nb(topo->t, HWLOC_OBJ_PACKAGE);
	topo->numa_nodes = nb(topo->t, HWLOC_OBJ_NUMANODE);
	topo->pus = nb(topo->t, HWLOC_OBJ_PU);
	topo->cores = nb(topo->t, HWLOC_OBJ_CORE);
	if (!topo->cores)
		topo->cores = topo->pus;
	llc = first_llc(topo->t, &topo->llcs);
	topo->llc_cores = cores_in(topo->t, llc);
	topo->package_cores =
		cores_in(topo->t, hwloc_get_obj_by_type(topo->t,
							HWLOC_OBJ_PACKAGE, 0));
	topo->numa_cores =
		cores_in(topo->t, hwloc_get_obj_by_type(topo->t,
							HWLOC_OBJ_NUMANODE, 0));
	if (!topo->pus) {
		rc = -ENODEV;
		goto fail;
	}
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

/* Index of the package and NUMA node that hold @core (0 when none). */
static void core_domains(const struct cgs_topo *topo, hwloc_obj_t core,
			 unsigned *pkg, unsigned *numa)
{
	hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(topo->t,
						       HWLOC_OBJ_PACKAGE, core);

	*pkg = p ? p->logical_index : 0;
	*numa = 0;
	for (unsigned i = 0; i < topo->numa_nodes; i++) {
		hwloc_obj_t n = hwloc_get_obj_by_type(topo->t,
						      HWLOC_OBJ_NUMANODE, i);

		if (n && hwloc_bitmap_isincluded(core->cpuset, n->cpuset)) {
			*numa = i;
			break;
		}
	}
}

/*
 * Reorder @cores for spread: round-robin across packages, within each
 * package round-robin across its NUMA nodes, keeping core order inside a
 * node. For pack:2 numa:2 core:8 the first four places land on package 0
 * node 0, package 1 node 2, package 0 node 1, package 1 node 3.
 */
static int spread_order(const struct cgs_topo *topo, hwloc_obj_t *cores)
{
	unsigned n = topo->cores, np = topo->packages ? topo->packages : 1;
	unsigned nn = topo->numa_nodes ? topo->numa_nodes : 1;
	unsigned *pkg = calloc(n, sizeof(*pkg)), *numa = calloc(n, sizeof(*numa));
	unsigned *taken = calloc(n, sizeof(*taken));
	hwloc_obj_t *out = calloc(n, sizeof(*out));
	unsigned done = 0;
	int rc = -ENOMEM;

	if (!pkg || !numa || !taken || !out)
		goto out;
	for (unsigned i = 0; i < n; i++)
		core_domains(topo, cores[i], &pkg[i], &numa[i]);
	/* round r: for each package, its next node in turn, its next core */
	for (unsigned round = 0; done < n; round++) {
		for (unsigned p = 0; p < np; p++) {
			/* the nodes of package p that still have cores */
			unsigned nodes[nn], k = 0;

			for (unsigned d = 0; d < nn; d++)
				for (unsigned i = 0; i < n; i++)
					if (pkg[i] == p && numa[i] == d && !taken[i]) {
						nodes[k++] = d;
						break;
					}
			if (!k)
				continue;
			unsigned d = nodes[round % k];

			for (unsigned i = 0; i < n; i++)
				if (pkg[i] == p && numa[i] == d && !taken[i]) {
					taken[i] = 1;
					out[done++] = cores[i];
					break;
				}
		}
	}
	memcpy(cores, out, n * sizeof(*out));
	rc = 0;
out:
	free(pkg);
	free(numa);
	free(taken);
	free(out);
	return rc;
}

/* Place one PU each: PU k of every core in @cores order, for k = 0, 1... */
static int pu_places(const struct cgs_topo *topo, hwloc_obj_t *cores,
		     struct cgs_places *pl)
{
	unsigned k = 0;

	pl->set = calloc(topo->pus, sizeof(*pl->set));
	if (!pl->set)
		return -ENOMEM;
	for (unsigned level = 0; pl->n < topo->pus && level < topo->pus; level++) {
		for (unsigned c = 0; c < topo->cores; c++) {
			hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(
				topo->t, cores[c]->cpuset, HWLOC_OBJ_PU, level);

			if (!pu)
				continue;
			pl->set[k] = hwloc_bitmap_dup(pu->cpuset);
			if (!pl->set[k])
				return -ENOMEM;
			pl->n = ++k;
		}
	}
	return 0;
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
		rc = pl->set ? 0 : -ENOMEM;
		for (unsigned i = 0; !rc && i < topo->cores; i++) {
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
	pl->set = NULL;
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
