/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cost.c - the harness's own cost per point (see runner/point/cost.h),
 * written into the point's "harness" section.
 */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "runner/point/cost.h"
#include "results/model/result.h"

void cgs_point_cost_init(struct cgs_point_cost *c)
{
	memset(c, 0, sizeof(*c));
	c->spawn_ns = c->stop_ns = -1;
	c->cpu = -1;
}

void cgs_point_cost_sample(struct cgs_point_cost *c, int64_t ns)
{
	c->sample_sum_ns += ns;
	if (ns > c->sample_max_ns)
		c->sample_max_ns = ns;
	c->nsample++;
}

static struct json_object *ms_or_null(int64_t ns)
{
	return ns < 0 ? NULL : json_object_new_double(ns / 1e6);
}

int cgs_point_cost_record(const struct cgs_point_cost *c, struct res_point *p)
{
	struct json_object *h = json_object_new_object();

	if (!h || (!p->extra && !(p->extra = json_object_new_object()))) {
		json_object_put(h);
		return -ENOMEM;
	}
	json_object_object_add(h, "sampler_policy", json_object_new_string(
		c->rt ? "SCHED_FIFO" : "normal"));
	if (c->rt_err)
		json_object_object_add(h, "sampler_policy_error",
				       json_object_new_string(strerror(-c->rt_err)));
	json_object_object_add(h, "sampler_cpu", c->cpu >= 0 && !c->cpu_err ?
		json_object_new_int(c->cpu) : NULL);
	json_object_object_add(h, "sampler_cpu_reason", json_object_new_string(
		c->cpu_why ? c->cpu_why : "unbound"));
	if (c->cpu_err)
		json_object_object_add(h, "sampler_cpu_error",
				       json_object_new_string(strerror(-c->cpu_err)));
	json_object_object_add(h, "cpustat_interval_ms", json_object_new_double(
		c->cpustat_ns / 1e6));
	if (c->idle_cpus)
		json_object_object_add(h, "idle_cpus", json_object_new_string(c->idle_cpus));
	json_object_object_add(h, "spawn_ms", ms_or_null(c->spawn_ns));
	json_object_object_add(h, "stop_ms", ms_or_null(c->stop_ns));
	json_object_object_add(h, "sample_instants", json_object_new_int((int)c->nsample));
	json_object_object_add(h, "sample_mean_us", c->nsample ?
		json_object_new_double(c->sample_sum_ns / 1e3 / c->nsample) : NULL);
	json_object_object_add(h, "sample_max_us", c->nsample ?
		json_object_new_double(c->sample_max_ns / 1e3) : NULL);
	json_object_object_add(p->extra, "harness", h);
	return 0;
}
