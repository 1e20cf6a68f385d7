/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo.h - the machine's topology (hwloc) and the ordered list of places
 * tasks are bound to. Task i goes to place i mod nplaces; more tasks than
 * places is allowed but reported as oversubscribed, never silent.
 *
 * On this machine (cgs_topo_load_desc) the topology holds only the CPUs
 * the run may use: those of its cpuset (hwloc leaves the others out) that
 * the affinity mask it was started with allows (taskset, numactl
 * --physcpubind, a container runtime; topo_allowed.c). Every count, place, "all", "50%", "sweep" and
 * the sampler's and the stat reader's CPUs come from it.
 */
#ifndef CGS_TOPO_H
#define CGS_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include <hwloc.h>

struct json_object;

struct cgs_topo {
	hwloc_topology_t t;
	bool thissystem;        /* false for synthetic/XML: binding is a no-op */
	unsigned packages, numa_nodes, cores, pus, llcs;
	unsigned llc_cores;     /* cores under the first last-level cache */
	unsigned package_cores; /* cores in the first package */
	unsigned numa_cores;    /* cores in the first NUMA node */
	/* the CPUs the run may use (topo_allowed.c) */
	unsigned allowed_by;    /* CGS_ALLOWED_* bits: what narrowed them */
	unsigned cut_cores;     /* cores of which only some PUs are allowed */
	unsigned machine_pus;   /* before narrowing by the affinity mask */
	unsigned machine_domains;  /* packages or NUMA nodes with CPUs, the more */
	unsigned loads;         /* hwloc loads it took: > 1 where one found no cache */
};

/* What narrowed the CPUs a run may use below the online ones. */
#define CGS_ALLOWED_CPUSET   1u   /* its cpuset (cgroup) */
#define CGS_ALLOWED_AFFINITY 2u   /* the affinity mask it was started with */
/* "all", "cpuset", "affinity", "both", indexed by the bits */
extern const char *const cgs_allowed_by_names[];

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
/*
 * Load with @load(@topo, @arg) until the topology has a cache, @tries
 * loads at most, @pause_ms before the second and twice as long before
 * each next, and only while it is this system (a description is what it
 * says): in a guest without caches in sysfs hwloc reads them with CPUID,
 * bound to each CPU in turn, and where the vCPUs move between host CPUs
 * the APIC IDs CPUID gives move with them, so that a load now and then
 * finds none. topo->loads says how many it took. 0 or -errno.
 */
int cgs_topo_load_tries(struct cgs_topo *topo,
			int (*load)(struct cgs_topo *topo, void *arg), void *arg,
			unsigned tries, unsigned pause_ms);
/* The same, from a synthetic description or an lstopo XML file (at most
 * one of them non-NULL). -EINVAL when hwloc refuses the description. */
int cgs_topo_load_from(struct cgs_topo *topo, const char *synthetic,
		       const char *xml);
void cgs_topo_free(struct cgs_topo *topo);
/* Recount packages, cores, PUs... after the topology changed. */
void cgs_topo_count(struct cgs_topo *topo);

/*
 * Narrow @topo to the CPUs of @cpuset (NULL: all it holds) that @affinity
 * (NULL: all) allows, recording which of the two narrowed it and the
 * cores it cuts. Unit tests give synthetic ones. 0, -ENODEV when no CPU
 * is left, -ENOMEM.
 */
int cgs_topo_limit(struct cgs_topo *topo, hwloc_const_bitmap_t cpuset,
		   hwloc_const_bitmap_t affinity);
/* The same on this machine's topology with the process's own affinity
 * mask (hwloc has applied its cpuset already): cgs_topo_load_desc does
 * it for this machine. 0 or -errno. */
int cgs_topo_limit_self(struct cgs_topo *topo);

/* "1, by the affinity mask", "0-3, by the cpuset", "0-7": the CPUs a run
 * may use and what narrowed them, for messages. */
void cgs_topo_allowed_str(const struct cgs_topo *topo, char *buf, size_t len);

/* machine.allowed of the results: {"cpus", "by", "cut_cores"}. */
struct json_object *cgs_topo_allowed_json(const struct cgs_topo *topo);

/* packages, NUMA nodes, cores, PUs, caches: for the results. */
struct json_object *cgs_topo_json(const struct cgs_topo *topo);

/* Can @p be met inside the allowed CPUs? spread cannot when the machine
 * has several packages or NUMA nodes and the allowed CPUs lie in one of
 * each. 0, or -EINVAL with a one-line message (reason and fix). */
int cgs_placement_check(const struct cgs_topo *topo, enum cgs_placement p,
			char *err, size_t errlen);

/* Build the ordered places for a policy. Returns 0 or -errno. */
int cgs_places_build(const struct cgs_topo *topo, enum cgs_placement p,
		     struct cgs_places *out);
void cgs_places_free(struct cgs_places *pl);

/* The place of task @i, or NULL when unbound. */
hwloc_const_bitmap_t cgs_place_of(const struct cgs_places *pl, unsigned i);

/* First PU os index of each place, for tests and messages: out[n]. */
void cgs_places_first_pus(const struct cgs_places *pl, int *out);

#endif
