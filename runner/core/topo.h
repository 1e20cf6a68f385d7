/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo.h - the machine's topology (hwloc) and the ordered list of places
 * tasks are bound to. Task i goes to place i mod nplaces; more tasks than
 * places is allowed but reported as oversubscribed, never silent.
 */
#ifndef CGS_TOPO_H
#define CGS_TOPO_H

#include <stdbool.h>

#include <hwloc.h>

struct json_object;

struct cgs_topo {
	hwloc_topology_t t;
	bool thissystem;        /* false for synthetic/XML: binding is a no-op */
	unsigned packages, numa_nodes, cores, pus, llcs;
	unsigned llc_cores;     /* cores under the first last-level cache */
	unsigned package_cores; /* cores in the first package */
	unsigned numa_cores;    /* cores in the first NUMA node */
};

enum cgs_placement {
	CGS_PLACE_CORES,   /* task i on core i mod ncores, the whole core */
	CGS_PLACE_PUS,     /* one PU each: first PU of every core, then SMT */
	CGS_PLACE_SPREAD,  /* round-robin across packages, then NUMA nodes */
	CGS_PLACE_NONE,    /* not bound */
};

extern const char *const cgs_placement_names[];  /* NULL-terminated */

struct cgs_places {
	unsigned n;             /* 0 for CGS_PLACE_NONE */
	hwloc_bitmap_t *set;    /* n cpusets, in task order */
	hwloc_obj_t *obj;       /* the core or PU each was made from, so that
				 * what holds a place is found without a
				 * search of the tree */
};

/*
 * Load the topology: the real machine when @synthetic is NULL (hwloc
 * honours HWLOC_SYNTHETIC/HWLOC_XMLFILE), else the synthetic description.
 * Returns 0 or -errno.
 */
int cgs_topo_load(struct cgs_topo *topo, const char *synthetic);
/* The same, from a synthetic description or an lstopo XML file (at most
 * one of them non-NULL). -EINVAL when hwloc refuses the description. */
int cgs_topo_load_from(struct cgs_topo *topo, const char *synthetic,
		       const char *xml);
void cgs_topo_free(struct cgs_topo *topo);

/* packages, NUMA nodes, cores, PUs, caches: for the results. */
struct json_object *cgs_topo_json(const struct cgs_topo *topo);

/* Build the ordered places for a policy. Returns 0 or -errno. */
int cgs_places_build(const struct cgs_topo *topo, enum cgs_placement p,
		     struct cgs_places *out);
void cgs_places_free(struct cgs_places *pl);

/* The place of task @i, or NULL when unbound. */
hwloc_const_bitmap_t cgs_place_of(const struct cgs_places *pl, unsigned i);

/* First PU os index of each place, for tests and messages: out[n]. */
void cgs_places_first_pus(const struct cgs_places *pl, int *out);

#endif
