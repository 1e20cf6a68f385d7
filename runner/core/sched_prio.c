/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_prio.c - the sampler at a low SCHED_FIFO priority where it may,
 * and the record of what it ran at (see sched_prio.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "runner/core/sched_prio.h"

const char *const cgs_sprio_names[] = { "rt", "normal", NULL };

static int set_policy(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, policy, &sp) ? -errno : 0;
}

int cgs_sampler_prio_probe(enum cgs_sprio_want want, struct cgs_sampler_prio *sp)
{
	struct cgs_sched_saved saved;
	int rc;

	memset(sp, 0, sizeof(*sp));
	sp->rt_prio = CGS_SAMPLER_RT_PRIO;
	if (want == CGS_SPRIO_NORMAL) {
		snprintf(sp->why, sizeof(sp->why), "--sampler-priority normal");
		return 0;
	}
	sp->rt = true;
	rc = cgs_sampler_prio_enter(sp, &saved);
	cgs_sampler_prio_leave(&saved);
	if (rc) {
		sp->rt = false;
		snprintf(sp->why, sizeof(sp->why),
			 "SCHED_FIFO refused (%s): it needs root, CAP_SYS_NICE or RLIMIT_RTPRIO >= %d%s",
			 strerror(-rc), sp->rt_prio,
			 rc == -EPERM ? ", and RT runtime in the runner's cpu cgroup" : "");
	}
	return 0;
}

int cgs_sampler_prio_enter(const struct cgs_sampler_prio *sp,
			   struct cgs_sched_saved *saved)
{
	struct sched_param cur = { 0 };

	saved->policy = -1;
	if (!sp || !sp->rt)
		return 0;
	saved->prio = sched_getparam(0, &cur) ? 0 : cur.sched_priority;
	saved->policy = sched_getscheduler(0);
	if (saved->policy < 0)
		return -errno;
	saved->policy &= ~SCHED_RESET_ON_FORK;
	/* already real-time at or above ours (chrt by the user): keep it */
	if ((saved->policy == SCHED_FIFO || saved->policy == SCHED_RR) &&
	    saved->prio >= sp->rt_prio) {
		saved->policy = -1;
		return 0;
	}
	return set_policy(SCHED_FIFO | SCHED_RESET_ON_FORK, sp->rt_prio);
}

void cgs_sampler_prio_leave(const struct cgs_sched_saved *saved)
{
	if (saved->policy >= 0)
		set_policy(saved->policy, saved->prio);
}

struct json_object *cgs_sampler_prio_json(const struct cgs_sampler_prio *sp)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "policy", json_object_new_string(
		sp->rt ? "SCHED_FIFO" : "normal"));
	if (sp->rt)
		json_object_object_add(o, "priority", json_object_new_int(sp->rt_prio));
	else
		json_object_object_add(o, "reason", json_object_new_string(sp->why));
	return o;
}
