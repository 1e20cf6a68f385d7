/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo_allowed.c - the CPUs a run may use: its cpuset's CPUs that the
 * affinity mask it was started with allows (taskset, numactl
 * --physcpubind, a CI runner or a container runtime that pins with
 * sched_setaffinity). The topology is narrowed to them with
 * hwloc_topology_restrict, so that every count, place and CPU choice
 * of the run stays inside; what narrowed them is recorded, and a
 * placement that cannot be met inside them is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "runner/core/topo.h"
#include "lib/util.h"

const char *const cgs_allowed_by_names[] = {
	[0] = "all",
	[CGS_ALLOWED_CPUSET] = "cpuset",
	[CGS_ALLOWED_AFFINITY] = "affinity",
	[CGS_ALLOWED_CPUSET | CGS_ALLOWED_AFFINITY] = "both",
	NULL,
};

/* Objects of @type that hold a CPU of @set. */
static unsigned holding(hwloc_topology_t t, hwloc_obj_type_t type,
			hwloc_const_bitmap_t set)
{
	unsigned n = 0;

	for (hwloc_obj_t o = hwloc_get_next_obj_by_type(t, type, NULL); o;
	     o = hwloc_get_next_obj_by_type(t, type, o))
		n += o->cpuset && hwloc_bitmap_intersects(o->cpuset, set);
	return n;
}

/* Packages or NUMA nodes that hold a CPU of @set, whichever are more. */
static unsigned domains(hwloc_topology_t t, hwloc_const_bitmap_t set)
{
	unsigned p = holding(t, HWLOC_OBJ_PACKAGE, set);
	unsigned n = holding(t, HWLOC_OBJ_NUMANODE, set);

	return p > n ? p : n;
}

/* Cores that hold CPUs of @set and CPUs outside it. */
static unsigned cut(hwloc_topology_t t, hwloc_const_bitmap_t set)
{
	unsigned n = 0;

	for (hwloc_obj_t o = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_CORE, NULL); o;
	     o = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_CORE, o))
		n += hwloc_bitmap_intersects(o->cpuset, set) &&
		     !hwloc_bitmap_isincluded(o->cpuset, set);
	return n;
}

int cgs_topo_limit(struct cgs_topo *topo, hwloc_const_bitmap_t cpuset,
		   hwloc_const_bitmap_t affinity)
{
	hwloc_const_bitmap_t all = hwloc_topology_get_topology_cpuset(topo->t);
	hwloc_bitmap_t set = hwloc_bitmap_dup(all);
	int rc = 0;

	if (!set)
		return -ENOMEM;
	topo->machine_domains = domains(topo->t, all);
	if (cpuset && !hwloc_bitmap_isincluded(set, cpuset)) {
		hwloc_bitmap_and(set, set, cpuset);
		topo->allowed_by |= CGS_ALLOWED_CPUSET;
	}
	if (affinity && !hwloc_bitmap_isincluded(set, affinity)) {
		hwloc_bitmap_and(set, set, affinity);
		topo->allowed_by |= CGS_ALLOWED_AFFINITY;
	}
	if (hwloc_bitmap_iszero(set)) {
		rc = -ENODEV;
		goto out;
	}
	topo->cut_cores = cut(topo->t, set);
	if (!hwloc_bitmap_isequal(set, all)) {
		if (hwloc_topology_restrict(topo->t, set, 0)) {
			rc = -errno ? -errno : -ENOMEM;
			goto out;
		}
		cgs_topo_count(topo);
	}
out:
	hwloc_bitmap_free(set);
	return rc;
}

/* hwloc has left out the CPUs outside the cpuset already; whether it
 * did is seen against the online CPUs. */
int cgs_topo_limit_self(struct cgs_topo *topo)
{
	hwloc_bitmap_t aff = hwloc_bitmap_alloc(), online = hwloc_bitmap_alloc();
	char line[4096];
	int rc = -ENOMEM;

	if (!aff || !online)
		goto out;
	if (cgs_read_line("/sys/devices/system/cpu/online", line, sizeof(line)) == 0 &&
	    hwloc_bitmap_list_sscanf(online, line) == 0 &&
	    hwloc_bitmap_weight(online) > 0) {
		topo->machine_pus = (unsigned)hwloc_bitmap_weight(online);
		if (!hwloc_bitmap_isincluded(online, hwloc_topology_get_topology_cpuset(topo->t)))
			topo->allowed_by |= CGS_ALLOWED_CPUSET;
	}
	/* no binding to read (not supported): nothing narrows it */
	rc = cgs_topo_limit(topo, NULL, hwloc_get_cpubind(topo->t, aff,
							  HWLOC_CPUBIND_PROCESS) ? NULL : aff);
out:
	hwloc_bitmap_free(aff);
	hwloc_bitmap_free(online);
	return rc;
}

void cgs_topo_allowed_str(const struct cgs_topo *topo, char *buf, size_t len)
{
	static const char *const by[] = {
		"", ", by the cpuset", ", by the affinity mask",
		", by the affinity mask and the cpuset",
	};
	char list[512];

	hwloc_bitmap_list_snprintf(list, sizeof(list),
				   hwloc_topology_get_allowed_cpuset(topo->t));
	snprintf(buf, len, "%s%s", list, by[topo->allowed_by & 3]);
}

struct json_object *cgs_topo_allowed_json(const struct cgs_topo *topo)
{
	struct json_object *o = json_object_new_object();
	char list[4096];

	hwloc_bitmap_list_snprintf(list, sizeof(list),
				   hwloc_topology_get_allowed_cpuset(topo->t));
	json_object_object_add(o, "cpus", json_object_new_string(list));
	json_object_object_add(o, "by", json_object_new_string(
				       cgs_allowed_by_names[topo->allowed_by & 3]));
	json_object_object_add(o, "cut_cores", json_object_new_int((int)topo->cut_cores));
	return o;
}

int cgs_placement_check(const struct cgs_topo *topo, enum cgs_placement p,
			char *err, size_t errlen)
{
	char allowed[600];

	if (p != CGS_PLACE_SPREAD || !topo->allowed_by || topo->machine_domains < 2 ||
	    domains(topo->t, hwloc_topology_get_allowed_cpuset(topo->t)) > 1)
		return 0;
	cgs_topo_allowed_str(topo, allowed, sizeof(allowed));
	return cgs_errf(err, errlen, -EINVAL,
			"--placement spread: the CPUs this run may use, %s, lie in one package and one NUMA node of the %u here, so there is nothing to spread over; allow CPUs of several, or give --placement cores or pus",
			allowed, topo->machine_domains);
}
