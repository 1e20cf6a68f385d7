/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * account_calc.c - the arithmetic of the account of an op's time
 * (account.h): each task's window split into user, sys, run-queue and
 * blocked time, the point's figures per op over all tasks, and their
 * spread across the tasks, and how the kernel split user and sys (its
 * config) with that split's sampling error. Pure, unit-tested on fixed
 * readings.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "runner/observe/account.h"

const char *const cgs_acct_part_keys[CGS_ACCT_NPART] = {
	[CGS_ACCT_USER] = "user_ns_per_op", [CGS_ACCT_SYS] = "sys_ns_per_op",
	[CGS_ACCT_RUNQ] = "runq_ns_per_op", [CGS_ACCT_BLOCKED] = "blocked_ns_per_op",
};

/* b - a of a counter that only grows; 0 if it went back (a new task). */
static double grown(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0;
}

bool cgs_acct_task_parts(const struct cgs_acct_task *t, double window_ns,
			 double user_share, double part[CGS_ACCT_NPART])
{
	double run = grown(t->at[0].run_ns, t->at[1].run_ns);
	double wait = grown(t->at[0].wait_ns, t->at[1].wait_ns);
	double u = grown(t->at[0].utime, t->at[1].utime);
	double s = grown(t->at[0].stime, t->at[1].stime);
	bool own = u + s > 0;
	double share = own ? u / (u + s) : user_share;

	part[CGS_ACCT_USER] = run * share;
	part[CGS_ACCT_SYS] = run - part[CGS_ACCT_USER];
	part[CGS_ACCT_RUNQ] = wait;
	/* the rest of the window: neither running nor runnable. The
	 * kernel folds a running slice into run_ns at a tick or a switch,
	 * so at an edge it may lag by up to a tick: a task that never left
	 * the CPU can show a small negative rest, kept so the four parts
	 * still add up to the window */
	part[CGS_ACCT_BLOCKED] = window_ns - run - wait;
	return own;
}

static void spread_add(struct cgs_acct_spread *s, double v, double *sq)
{
	if (!s->n++) {
		s->min = s->max = v;
	} else {
		s->min = fmin(s->min, v);
		s->max = fmax(s->max, v);
	}
	s->mean += v;
	*sq += v * v;
}

static void spread_end(struct cgs_acct_spread *s, double sq)
{
	if (!s->n) {
		s->mean = s->sd = s->min = s->max = NAN;
		return;
	}
	s->mean /= s->n;
	s->sd = s->n > 1 ? sqrt(fmax(0, (sq - s->n * s->mean * s->mean) / (s->n - 1))) : NAN;
}

/* The user share of all tasks' ticks together (0 when none ticked). */
static double pooled_share(const struct cgs_acct_task *t, unsigned n)
{
	double u = 0, s = 0;

	for (unsigned i = 0; i < n; i++) {
		u += grown(t[i].at[0].utime, t[i].at[1].utime);
		s += grown(t[i].at[0].stime, t[i].at[1].stime);
	}
	return u + s > 0 ? u / (u + s) : 0;
}

/* All tasks' sleep over the window per op; NAN unless read for each. */
static double sleep_per_op(const struct cgs_acct_task *t, unsigned n, uint64_t ops)
{
	double sum = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!t[i].sleep || t[i].at[1].sleep_ns < t[i].at[0].sleep_ns)
			return NAN;
		sum += (double)(t[i].at[1].sleep_ns - t[i].at[0].sleep_ns);
	}
	return n && ops ? sum / (double)ops : NAN;
}

void cgs_acct_calc(const struct cgs_acct_task *t, unsigned n, double window_ns,
		   struct cgs_acct *a)
{
	double tot[CGS_ACCT_NPART] = { 0 }, sq[CGS_ACCT_NPART + 1] = { 0 };
	double share = pooled_share(t, n);

	memset(a, 0, sizeof(*a));
	a->ntasks = n;
	a->window_ns = window_ns;
	for (unsigned i = 0; i < n; i++) {
		double part[CGS_ACCT_NPART];

		a->unsplit += !cgs_acct_task_parts(&t[i], window_ns, share, part);
		a->ops += t[i].ops;
		for (int k = 0; k < CGS_ACCT_NPART; k++)
			tot[k] += part[k];
		if (!t[i].ops)
			continue;
		spread_add(&a->wall, window_ns / (double)t[i].ops, &sq[CGS_ACCT_NPART]);
		for (int k = 0; k < CGS_ACCT_NPART; k++)
			spread_add(&a->part[k], part[k] / (double)t[i].ops, &sq[k]);
	}
	spread_end(&a->wall, sq[CGS_ACCT_NPART]);
	for (int k = 0; k < CGS_ACCT_NPART; k++) {
		spread_end(&a->part[k], sq[k]);
		a->part_ns_per_op[k] = a->ops ? tot[k] / (double)a->ops : NAN;
	}
	a->wall_ns_per_op = a->ops ? n * window_ns / (double)a->ops : NAN;
	a->sleep_ns_per_op = sleep_per_op(t, n, a->ops);
	a->on_cpu_pct = a->ops && n && window_ns > 0 ?
		100 * (tot[CGS_ACCT_USER] + tot[CGS_ACCT_SYS]) / (n * window_ns) : NAN;
}

static struct json_object *spread_json(const struct cgs_acct_spread *s)
{
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "tasks", json_object_new_int((int)s->n));
	cgs_jadd(o, "mean", cgs_jnum(s->mean));
	cgs_jadd(o, "sd", cgs_jnum(s->sd));
	cgs_jadd(o, "min", cgs_jnum(s->min));
	cgs_jadd(o, "max", cgs_jnum(s->max));
	return o;
}

void cgs_acct_json(const struct cgs_acct *a, struct json_object *o)
{
	struct json_object *sp = json_object_new_object();

	cgs_jadd(o, "elapsed_s", cgs_jnum(a->window_ns / 1e9));
	cgs_jadd(o, "ops", json_object_new_uint64(a->ops));
	cgs_jadd(o, "wall_ns_per_op", cgs_jnum(a->wall_ns_per_op));
	for (int k = 0; k < CGS_ACCT_NPART; k++)
		cgs_jadd(o, cgs_acct_part_keys[k], cgs_jnum(a->part_ns_per_op[k]));
	cgs_jadd(o, "on_cpu_pct", cgs_jnum(a->on_cpu_pct));
	cgs_jadd(o, "unsplit_tasks", json_object_new_int((int)a->unsplit));
	cgs_jadd(sp, "wall_ns_per_op", spread_json(&a->wall));
	for (int k = 0; k < CGS_ACCT_NPART; k++)
		cgs_jadd(sp, cgs_acct_part_keys[k], spread_json(&a->part[k]));
	cgs_jadd(o, "task_spread", sp);
}

/* The value of option @name in config object @kc, or NULL. */
static const char *kc_opt(struct json_object *kc, const char *name)
{
	char path[96];
	struct json_object *v;

	snprintf(path, sizeof(path), "options.%s", name);
	v = cgs_jpath(kc, path);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static bool kc_yes(struct json_object *kc, const char *name)
{
	const char *v = kc_opt(kc, name);

	return v && !strcmp(v, "y");
}

void cgs_acct_clock_of(struct json_object *kc, struct cgs_acct_clock *c)
{
	const char *hz = kc_opt(kc, "CONFIG_HZ");
	char *end = NULL;

	memset(c, 0, sizeof(*c));
	c->schedstats = -1;     /* not known until read (acct_prepare) */
	c->hz = hz ? strtod(hz, &end) : NAN;
	if (!hz || end == hz || !(c->hz > 0))
		c->hz = NAN;
	if (kc_yes(kc, "CONFIG_VIRT_CPU_ACCOUNTING_NATIVE")) {
		snprintf(c->by, sizeof(c->by), "exact");
		snprintf(c->config, sizeof(c->config), "CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=y");
	} else if (kc_yes(kc, "CONFIG_TICK_CPU_ACCOUNTING") ||
		   kc_yes(kc, "CONFIG_VIRT_CPU_ACCOUNTING_GEN")) {
		snprintf(c->by, sizeof(c->by), "ticks");
		snprintf(c->config, sizeof(c->config), "%s, CONFIG_HZ=%s",
			 kc_yes(kc, "CONFIG_TICK_CPU_ACCOUNTING") ? "CONFIG_TICK_CPU_ACCOUNTING=y" :
			 "CONFIG_VIRT_CPU_ACCOUNTING_GEN=y (exact only on nohz_full CPUs)",
			 hz ? hz : "?");
	} else {
		snprintf(c->by, sizeof(c->by), "unknown");
		snprintf(c->config, sizeof(c->config), "%s", kc ?
			 "no CPU accounting option in the kernel config" : "no kernel config to read");
	}
}

struct json_object *cgs_acct_split_json(const struct cgs_acct *a,
					const struct cgs_acct_clock *c)
{
	struct json_object *o = json_object_new_object();
	double u = a->part_ns_per_op[CGS_ACCT_USER], s = a->part_ns_per_op[CGS_ACCT_SYS];
	double cpu = u + s, ticks = NAN, se = NAN;

	if (!o)
		return NULL;
	cgs_jadd(o, "by", json_object_new_string(c->by));
	cgs_jadd(o, "config", json_object_new_string(c->config));
	cgs_jadd(o, "hz", cgs_jnum(c->hz));
	/* an unknown clock is taken as the common one, the tick */
	if (strcmp(c->by, "exact") && isfinite(c->hz) && cpu > 0 && a->ops) {
		double p = u / cpu;

		ticks = cpu * (double)a->ops * c->hz / 1e9;
		se = ticks >= 1 ? cpu * sqrt(p * (1 - p) / ticks) : NAN;
	}
	cgs_jadd(o, "ticks", cgs_jnum(ticks));
	cgs_jadd(o, "user_se_ns_per_op", cgs_jnum(!strcmp(c->by, "exact") ? 0 : se));
	return o;
}

void cgs_acct_blocked_json(const struct cgs_acct *a, const struct cgs_acct_clock *c,
			   struct json_object *o)
{
	double rem = a->part_ns_per_op[CGS_ACCT_BLOCKED];
	double tick = 1e9 / (isfinite(c->hz) ? c->hz : 100);
	double bound = a->ops ? 2 * tick * a->ntasks / (double)a->ops : NAN;
	struct json_object *sp;

	double meas = a->sleep_ns_per_op;

	cgs_jadd(o, "blocked_ns_per_op", cgs_jnum(isfinite(meas) ? meas :
						  isfinite(rem) ? fmax(0, rem) : NAN));
	cgs_jadd(o, "blocked_remainder_ns_per_op", cgs_jnum(rem));
	cgs_jadd(o, "blocked_bound_ns_per_op", cgs_jnum(bound));
	if (isfinite(meas))
		cgs_jadd(o, "blocked_check_ns_per_op", cgs_jnum(rem - meas));
	cgs_jadd(o, "blocked_source", json_object_new_string(
		isfinite(meas) ? "measured: each task's sum_sleep_runtime of /proc/PID/task/TID/sched over the window (schedstats: asleep or blocked, counted at wake-up); the remainder is the check" :
		c->schedstats == 0 ? "the remainder: window - run - run-queue, floored at 0 (kernel.sched_schedstats is 0, so the kernel keeps no sleep time; sysctl kernel.sched_schedstats=1 lets cgscale measure it)" :
		c->schedstats < 0 ? "the remainder: window - run - run-queue, floored at 0 (this kernel keeps no sleep time: no kernel.sched_schedstats, CONFIG_SCHEDSTATS is off)" :
		"the remainder: window - run - run-queue, floored at 0 (a task's sched file gave no sum_sleep_runtime at an edge)"));
	if (isfinite(rem) && isfinite(bound) && rem < -bound) {
		char n[256];

		snprintf(n, sizeof(n), "run and run-queue time overran the window by %.1f ns/op, more than the %.1f a tick's lag explains: the edges were read late, the parts are approximate",
			 -rem, bound);
		cgs_jadd(o, "blocked_note", json_object_new_string(n));
	}
	/* the per-task spread of blocked time, floored the same way */
	if (json_object_object_get_ex(o, "task_spread", &sp) &&
	    json_object_object_get_ex(sp, "blocked_ns_per_op", &sp)) {
		static const char *const k[] = { "mean", "min", "max" };
		struct json_object *v;

		for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
			if (json_object_object_get_ex(sp, k[i], &v) && v &&
			    json_object_get_double(v) < 0)
				cgs_jadd(sp, k[i], json_object_new_double(0));
	}
}
