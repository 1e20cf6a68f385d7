/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * point.c - run one point: prepare, start the worker and its tasks, wait
 * for all of them at the gate, open it, sample every task's counter with
 * a CLOCK_MONOTONIC timestamp at each instant of the schedule (rates later
 * divide by the real elapsed time), then stop, collect and record.
 *
 * The runner's process stays outside the tasks; signals reach it through
 * a signalfd, so a ^C is handled between samples, never asynchronously.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "runner/point/point.h"
#include "runner/point/cost.h"
#include "runner/point/point_int.h"
#include "runner/core/sampler_cpu.h"
#include "runner/point/task.h"
#include "lib/util.h"

/* Read /proc/stat when due (see struct cgs_cpustat_span). */
static void cpustat_take(struct cgs_cpustat_span *cs, struct cgs_cpustat_src *src,
			 struct res_point *p,
			 unsigned k, int64_t now, int64_t every, bool edge)
{
	struct cgs_cpustat cur;

	if (cgs_cpustat_due(cs, now, every, edge) && cgs_cpustat_read(src, &cur) == 0)
		cgs_cpustat_span_fill(cs, &cur, now, k, p->idle_pct, p->iowait_pct,
				      p->steal_pct);
}

/* Wait for every task at the gate, a failure, or the timeout. */
static int wait_ready(const struct cgs_point_spec *spec, struct cgs_shared *sh,
		      struct cgs_workers *wk, int *signo)
{
	int64_t deadline = cgs_now_ns() + spec->ready_timeout_ns;

	while (atomic_load(&sh->ready) < (int)sh->ntasks) {
		int rc;

		if (atomic_load(&sh->failed))
			return -ECANCELED;
		if (cgs_workers_any_gone(wk))
			return -ECHILD;
		if (cgs_workers_frozen(wk, false))
			return -EDEADLK;
		if (cgs_now_ns() > deadline)
			return -ETIMEDOUT;
		rc = cgs_wait_until(cgs_now_ns() + 2000000, spec->sigfd, signo);
		if (rc)
			return rc;
	}
	return 0;
}

static void take_counts(const struct cgs_shared *sh, struct res_point *p,
			uint64_t *last, unsigned s)
{
	unsigned stride = 1 + CGS_MAX_AUX;

	for (unsigned i = 0; i < sh->ntasks; i++) {
		const struct cgs_slot *sl = &cgs_sh_slots(sh)[i];
		size_t at = (size_t)i * p->nsamples + s;
		uint64_t v = atomic_load_explicit(&sl->ops, memory_order_relaxed);

		p->ops[at] = v - last[i * stride];
		last[i * stride] = v;
		for (unsigned k = 0; k < p->naux; k++) {
			v = atomic_load_explicit(&sl->aux[k], memory_order_relaxed);
			p->aux[k][at] = v - last[i * stride + 1 + k];
			last[i * stride + 1 + k] = v;
		}
	}
}

static void obs_sample(const struct cgs_point_spec *spec, const struct res_point *p,
		       unsigned k, bool window_start)
{
	for (unsigned i = 0; i < spec->nobs; i++)
		if (spec->obs[i].sample)
			spec->obs[i].sample(spec->obs[i].priv, k, p->t_ns[k],
					    p->phase[k], window_start);
}

/* Open the gate and take sample 0 (and the first /proc/stat reading);
 * returns the gate's time t0, *@wstart set when the start opens the
 * measured window. */
static int64_t sample_start(const struct cgs_point_spec *spec, struct cgs_shared *sh,
			    struct res_point *p, const enum res_phase *phase,
			    unsigned nplan, uint64_t *last, struct cgs_cpustat_span *cs,
			    struct cgs_cpustat_src *src, struct cgs_point_cost *cost,
			    int64_t *wstart)
{
	int64_t t0, tg;

	cs->have = cgs_cpustat_read(src, &cs->prev) == 0;
	t0 = cgs_now_ns();
	cs->prev_ns = t0;
	cgs_gate_open(sh);
	tg = cgs_now_ns();    /* waking every task is not the sampler's work */
	p->t_ns[0] = 0;
	p->phase[0] = phase[0];
	take_counts(sh, p, last, 0);
	if (nplan > 1 && phase[1] == RES_PHASE_MEASURE)
		*wstart = t0;   /* no warm-up: the start opens the window */
	obs_sample(spec, p, 0, *wstart != 0);
	cgs_point_cost_sample(cost, cgs_now_ns() - tg);
	return t0;
}

/*
 * Sample until the plan ends, a task fails, or a signal arrives. Planned
 * sample s is due at cgs_sample_due(); when the sampler wakes so late that
 * the next sample of the same phase is due too, the missed instant is
 * dropped and the interval simply lasts longer: rates divide by the real
 * elapsed time, and the measurement always lasts its full duration.
 */
static int sample_loop(const struct cgs_point_spec *spec, struct cgs_shared *sh,
		       struct res_point *p, const int64_t *plan,
		       const enum res_phase *phase, unsigned nplan,
		       struct cgs_workers *wk, struct cgs_point_cost *cost, int *signo)
{
	uint64_t *last = calloc((size_t)sh->ntasks * (1 + CGS_MAX_AUX), sizeof(*last));
	struct cgs_cpustat_src src;
	struct cgs_cpustat_span cs = { 0 };
	int64_t t0, wstart = 0, lag = 0;
	unsigned k = 1;
	int rc = cgs_cpustat_open(&src, spec->topo);

	if (!rc)
		rc = (cost->idle_cpus = cgs_cpustat_src_cpus(&src)) ? 0 : -ENOMEM;
	if (!rc && !last)
		rc = -ENOMEM;
	if (rc)
		goto out;
	t0 = sample_start(spec, sh, p, phase, nplan, last, &cs, &src, cost, &wstart);
	for (unsigned s = 1; s < nplan; s++) {
		int64_t due = cgs_sample_due(plan, phase, s, t0, wstart), now;
		bool opens = phase[s] != RES_PHASE_MEASURE && s + 1 < nplan &&
			     phase[s + 1] == RES_PHASE_MEASURE;

		rc = cgs_wait_until(due, spec->sigfd, signo);
		if (rc)
			break;
		now = cgs_now_ns();
		if (s + 1 < nplan && phase[s + 1] == phase[s] &&
		    now >= cgs_sample_due(plan, phase, s + 1, t0, wstart))
			continue;   /* woke too late: merge into the next interval */
		if (now - due > lag)
			lag = now - due;
		p->t_ns[k] = now - t0;
		p->phase[k] = phase[s];
		take_counts(sh, p, last, k);
		if (opens)
			wstart = now;
		obs_sample(spec, p, k, opens);
		cpustat_take(&cs, &src, p, k, now, spec->cpustat_interval_ns,
			     opens || s + 1 == nplan);
		if (spec->tick)
			spec->tick(spec->tick_arg, p->t_ns[k]);
		cgs_point_cost_sample(cost, cgs_now_ns() - now);
		k++;
		if (atomic_load(&sh->failed) || cgs_workers_any_gone(wk))
			break;
	}
	p->sampler_lag_ms = lag / 1e6;
	res_point_truncate(p, k);   /* keep only what was sampled */
out:
	cgs_cpustat_close(&src);
	free(last);
	return rc;
}

/* Tell the observers the sampling ended, before the tasks stop. */
static void obs_window_end(const struct cgs_point_spec *spec,
			   const struct res_point *p)
{
	if (!p->nsamples)
		return;
	for (unsigned i = 0; i < spec->nobs; i++)
		if (spec->obs[i].window_end)
			spec->obs[i].window_end(spec->obs[i].priv, p->nsamples - 1,
						p->t_ns[p->nsamples - 1],
						p->phase[p->nsamples - 1]);
}

/* Tell the observers all tasks are at the gate. */
static int obs_ready(const struct cgs_point_spec *spec, const struct cgs_shared *sh,
		     struct res_point *p)
{
	int *pid = calloc(sh->ntasks, sizeof(*pid)), *tid = calloc(sh->ntasks, sizeof(*tid));
	char msg[512] = "";
	int rc = pid && tid ? 0 : -ENOMEM;

	for (unsigned i = 0; !rc && i < sh->ntasks; i++) {
		pid[i] = cgs_sh_info(sh)[i].pid;
		tid[i] = cgs_sh_info(sh)[i].tid;
	}
	for (unsigned k = 0; !rc && k < spec->nobs; k++) {
		if (!spec->obs[k].ready)
			continue;
		rc = spec->obs[k].ready(spec->obs[k].priv, sh->ntasks, pid, tid,
					msg, sizeof(msg));
		if (rc) {
			p->status = RES_FAILED;
			p->reason = cgs_fmt("%s: %s", spec->obs[k].name,
					    msg[0] ? msg : strerror(-rc));
		}
	}
	free(pid);
	free(tid);
	return rc;
}

/* What prepare said about its choices goes into the point as "workload". */
static void workload_extra(struct res_point *p, struct json_object *extra)
{
	if (extra && json_object_object_length(extra) &&
	    (p->extra || (p->extra = json_object_new_object())))
		json_object_object_add(p->extra, "workload", json_object_get(extra));
	json_object_put(extra);
}

/* The point's sample plan (instants and phases) and its storage. */
static int point_alloc(const struct cgs_point_spec *spec, struct res_point *p,
		       int64_t **at, enum res_phase **phase, unsigned *n)
{
	const struct cgs_workload *w = spec->w;
	const char *anames[CGS_MAX_AUX], *aunits[CGS_MAX_AUX];
	double ascales[CGS_MAX_AUX];

	*n = cgs_schedule(spec->warmup_ns, spec->duration_ns, spec->interval_ns,
			  NULL, NULL);
	*at = calloc(*n, sizeof(**at));
	*phase = calloc(*n, sizeof(**phase));
	for (size_t k = 0; k < w->naux; k++) {
		anames[k] = w->aux[k].name;
		aunits[k] = w->aux[k].rate_unit;
		ascales[k] = w->aux[k].rate_scale;
	}
	if (!*at || !*phase || res_point_alloc(p, spec->ntasks, *n) ||
	    res_point_set_aux(p, (unsigned)w->naux, anames, aunits, ascales))
		return -ENOMEM;
	cgs_schedule(spec->warmup_ns, spec->duration_ns, spec->interval_ns,
		     *at, *phase);
	return 0;
}

/* A test this box cannot run (its supported hook): SKIPPED, with why,
 * before anything of it runs. */
static bool point_unsupported(const struct cgs_workload *w, const void *opts,
			      struct res_point *p)
{
	char why[256];
	int rc = cgs_workload_supported(w, opts, why, sizeof(why));

	if (!rc)
		return false;
	p->status = RES_SKIPPED;
	p->reason = cgs_fmt("not supported here: %s", rc == -EOPNOTSUPP ? why : strerror(-rc));
	res_point_truncate(p, 0);
	return true;
}

/* The workload's prepare hook: 0, or 1 when it said the point cannot run
 * (skipped or failed, with its reason, in @p). */
static int point_prepare(struct cgs_point_tasks *pt, struct res_point *p)
{
	int rc;

	pt->ctx.extra = json_object_new_object();
	rc = pt->w->prepare(&pt->ctx);
	if (!rc)
		return 0;
	p->status = rc == -EOPNOTSUPP || rc == -ENOSYS ? RES_SKIPPED : RES_FAILED;
	p->reason = strdup(pt->ctx.why[0] ? pt->ctx.why : strerror(-rc));
	res_point_truncate(p, 0);
	return 1;
}

/* Start the tasks, sample them, stop and record them. */
static int point_measure(const struct cgs_point_spec *spec,
			 struct cgs_point_tasks *pt, struct cgs_workers *wk,
			 struct res_point *p, const int64_t *at,
			 const enum res_phase *phase, unsigned n, int *signo)
{
	struct cgs_sched_saved saved;
	struct cgs_sampler_pin pin;
	struct cgs_point_cost cost;
	bool killed;
	int64_t t;
	int rc, sig = 0;

	cgs_point_cost_init(&cost);
	pt->sh = cgs_shared_map(pt, spec->groups, spec->ngroups);
	if (!pt->sh)
		return -errno;
	t = cgs_now_ns();
	rc = cgs_workers_start(spec, pt, wk);
	if (!rc)
		rc = wait_ready(spec, pt->sh, wk, signo);
	if (!rc)
		cost.spawn_ns = cgs_now_ns() - t;
	if (!rc)
		rc = obs_ready(spec, pt->sh, p);
	/* sampling and the stop at the sampler's priority: bounded duty */
	cost.rt_err = cgs_sampler_prio_enter(spec->sprio, &saved);
	cost.rt = spec->sprio && spec->sprio->rt && !cost.rt_err;
	cgs_sampler_cpu_choose(spec->sampler_cpu, spec->topo, spec->places,
			       spec->ntasks, &pin);
	cost.cpu_err = cgs_sampler_pin_enter(spec->topo, &pin);
	cost.cpu = pin.cpu;
	cost.cpu_why = pin.why;
	cost.cpustat_ns = spec->cpustat_interval_ns;
	if (!rc) {
		rc = sample_loop(spec, pt->sh, p, at, phase, n, wk, &cost, signo);
		obs_window_end(spec, p);
	} else {
		res_point_truncate(p, 0);
	}
	t = cgs_now_ns();
	killed = cgs_workers_collect(spec, pt->sh, wk, &sig);
	cost.stop_ns = cgs_now_ns() - t;
	cgs_sampler_pin_leave(spec->topo, &pin);
	cgs_sampler_prio_leave(&saved);
	cgs_point_cost_record(&cost, p);
	free(cost.idle_cpus);
	if (sig && rc != -EINTR) {      /* heard while stopping the tasks */
		*signo = sig;
		rc = -EINTR;
	}
	cgs_point_record_tasks(spec, pt->sh, p);
	if (rc == -EINTR) {
		p->status = RES_INTERRUPTED;
	} else {
		cgs_workers_outcome(p, rc, wk, killed, spec);
		if (rc != -ENOMEM)
			rc = 0;
	}
	if (p->status == RES_OK)
		res_point_summarise(p);
	for (unsigned k = 0; k < spec->nobs; k++)
		if (spec->obs[k].finish)
			spec->obs[k].finish(spec->obs[k].priv, p);
	return rc;
}

int cgs_point_run(const struct cgs_point_spec *spec, struct res_point *p,
		  int *signo)
{
	const struct cgs_workload *w = spec->w;
	char why[256] = "";
	struct cgs_point_tasks pt = {
		.w = w,
		.ctx = {
			.opts = spec->wopts,
			.tmpdir = spec->tmpdir,
			.nr_tasks = spec->ntasks,
			.threads = spec->threads,
			.why = why,
			.whylen = sizeof(why),
			.cg = spec->cg,
		},
		.topo = spec->topo,
		.places = spec->places,
		.fresh_tmp = spec->fresh_tmp_bytes,
		.runner = getpid(),
		.enter = spec->enter,
		.enter_arg = spec->enter_arg,
		.image = spec->image,
		.image_why = spec->image_why,
		.locate = spec->locate,
	};
	struct cgs_workers wk = { 0 };
	int64_t *at = NULL;
	enum res_phase *plan_phase = NULL;
	bool prepared = false;
	unsigned n = 0;
	int rc;

	/* a text option is a pointer into the runner: not for the image */
	char carry[200];

	if (pt.image && !cgs_image_carries(w, carry, sizeof(carry))) {
		pt.image = NULL;
		pt.image_why = carry;
	}
	rc = point_alloc(spec, p, &at, &plan_phase, &n);
	if (rc || point_unsupported(w, pt.ctx.opts, p))
		goto out;
	if (w->prepare) {
		if (point_prepare(&pt, p))
			goto out;
		prepared = true;
	}
	rc = point_measure(spec, &pt, &wk, p, at, plan_phase, n, signo);
out:
	if (!p->status && rc) {
		p->status = RES_FAILED;
		p->reason = cgs_fmt("the runner could not run it: %s", strerror(-rc));
	}
	if (prepared && w->cleanup)
		w->cleanup(&pt.ctx);
	workload_extra(p, pt.ctx.extra);
	cgs_shared_unmap(pt.sh);
	cgs_workers_free(&wk);
	free(at);
	free(plan_phase);
	return rc;
}
