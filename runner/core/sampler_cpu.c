/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sampler_cpu.c - where the sampler runs while a point samples (see
 * sampler_cpu.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/core/sampler_cpu.h"
#include "lib/util.h"

const struct cgs_opt_key cgs_sampler_cpu_keys[] = {
	{ "auto", CGS_SCPU_AUTO }, { "none", CGS_SCPU_NONE }, { NULL, 0 },
};
const struct cgs_opt_key cgs_cpu_auto_keys[] = {
	{ "auto", CGS_SCPU_AUTO }, { NULL, 0 },
};

bool cgs_cpu_allowed(const struct cgs_topo *topo, int cpu, char *list, size_t len)
{
	hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(topo->t);

	if (hwloc_bitmap_isset(allowed, (unsigned)cpu))
		return true;
	cgs_topo_allowed_str(topo, list, len);
	return false;
}

int cgs_sampler_cpu_check(int64_t cpu, const struct cgs_topo *topo, char *err,
			  size_t errlen)
{
	char list[256] = "";

	if (cpu >= 0 && !cgs_cpu_allowed(topo, (int)cpu, list, sizeof(list)))
		return cgs_errf(err, errlen, -EINVAL,
				"--sampler-cpu %d is not a CPU the runner may use (those are %s); give one of them, auto or none",
				(int)cpu, list);
	return 0;
}

int cgs_last_free_cpu(const struct cgs_topo *topo, const struct cgs_places *pl,
		      unsigned ntasks)
{
	hwloc_bitmap_t free_pus = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo->t));
	int cpu;

	if (!free_pus)
		return -ENOMEM;
	for (unsigned i = 0; i < ntasks && i < pl->n; i++)
		hwloc_bitmap_andnot(free_pus, free_pus, cgs_place_of(pl, i));
	cpu = hwloc_bitmap_last(free_pus);
	hwloc_bitmap_free(free_pus);
	return cpu < 0 ? -1 : cpu;
}

void cgs_sampler_cpu_choose(int asked, const struct cgs_topo *topo,
			    const struct cgs_places *pl, unsigned ntasks,
			    struct cgs_sampler_pin *pin)
{
	memset(pin, 0, sizeof(*pin));
	pin->cpu = -1;
	if (asked >= 0) {
		pin->cpu = asked;
		snprintf(pin->why, sizeof(pin->why), "--sampler-cpu");
		return;
	}
	if (asked == CGS_SCPU_NONE) {
		snprintf(pin->why, sizeof(pin->why), "unbound (--sampler-cpu none)");
		return;
	}
	if (!pl->n) {
		snprintf(pin->why, sizeof(pin->why), "unbound, as the tasks are (--placement none)");
		return;
	}
	pin->cpu = cgs_last_free_cpu(topo, pl, ntasks);
	if (pin->cpu == -ENOMEM) {
		pin->cpu = -1;
		pin->err = -ENOMEM;
		snprintf(pin->why, sizeof(pin->why), "unbound: no memory to choose a CPU");
		return;
	}
	snprintf(pin->why, sizeof(pin->why), pin->cpu >= 0 ?
		 "the last CPU no task is bound to" :
		 "unbound: every CPU has a task (give --sampler-cpu to choose one)");
}

int cgs_sampler_pin_enter(const struct cgs_topo *topo, struct cgs_sampler_pin *pin)
{
	hwloc_bitmap_t one = NULL;

	pin->saved = NULL;
	if (pin->cpu < 0)
		return 0;
	pin->saved = hwloc_bitmap_alloc();
	one = hwloc_bitmap_alloc();
	if (!pin->saved || !one) {
		pin->err = -ENOMEM;
		goto out;
	}
	hwloc_bitmap_only(one, (unsigned)pin->cpu);
	if (hwloc_get_cpubind(topo->t, pin->saved, HWLOC_CPUBIND_THREAD) ||
	    hwloc_set_cpubind(topo->t, one, HWLOC_CPUBIND_THREAD))
		pin->err = errno ? -errno : -EINVAL;
out:
	hwloc_bitmap_free(one);
	if (pin->err) {
		hwloc_bitmap_free(pin->saved);
		pin->saved = NULL;
	}
	return pin->err;
}

void cgs_sampler_pin_leave(const struct cgs_topo *topo, struct cgs_sampler_pin *pin)
{
	if (!pin->saved)
		return;
	hwloc_set_cpubind(topo->t, pin->saved, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(pin->saved);
	pin->saved = NULL;
}
