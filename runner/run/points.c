/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * points.c - the points of `cgscale run`: all of them in their order
 * (runs outermost, interleaved; cgroup layouts innermost, ABBA), and one
 * point from its header to its outcome, with the observers the run asked
 * for around it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "runner/run/autoruns.h"
#include "runner/run/causes.h"
#include "runner/cgroups/cgrun.h"
#include "runner/cgroups/statpath.h"
#include "runner/run/run_journal.h"
#include "runner/point/point.h"
#include "runner/run/run.h"
#include "lib/util.h"

static void tick(void *arg, int64_t elapsed)
{
	struct cgs_run *r = arg;

	cgs_progress(r, &r->res.points[r->res.npoints - 1], elapsed);
}

/* What a point is: its test, mode, tasks, run, options and timing. */
static void point_header(struct cgs_run *r, struct res_point *p,
			 const struct cgs_workload *w, const void *wopts,
			 unsigned ntasks, bool threads, unsigned run)
{
	char when[32];

	if (w->nopts) {
		struct cgs_optset set = { NULL, w->opts, w->nopts, (void *)wopts };

		p->wopts = cgs_opt_echo(&set);
		/* a knob that is off by default (an int whose default is 0, as
		 * --pf3-spin) is recorded only when on, so that points group
		 * with those of runners from before it existed */
		for (size_t i = 0; p->wopts && i < w->nopts; i++)
			if (w->opts[i].type == CGS_OPT_INT && w->opts[i].def &&
			    !strcmp(w->opts[i].def, "0") &&
			    !*(const int64_t *)((const char *)wopts + w->opts[i].offset))
				json_object_object_del(p->wopts, w->opts[i].name);
	}
	cgs_iso8601_now(when, sizeof(when));
	p->seq = r->res.npoints - 1;
	p->test = strdup(w->name);
	p->mode = strdup(threads ? "thread" : "process");
	p->tasks = ntasks;
	p->run = run;
	p->started_at = strdup(when);
	p->placement = strdup(cgs_placement_names[r->o.placement]);
	p->places = r->places.n;
	p->oversubscribed = r->places.n && ntasks > r->places.n;
	p->warmup_s = r->o.warmup_ns / 1e9;
	p->duration_s = r->o.duration_ns / 1e9;
	p->interval_s = r->o.interval_ns / 1e9;
}

/* An interrupted point is dropped and the run marked; a failed or
 * skipped one is said on stderr. */
static void point_outcome(struct cgs_run *r, struct res_point *p, int rc,
			  int signo)
{
	if (rc == -EINTR) {
		r->res.interrupted = cgs_fmt("%s %s %u tasks run %u (signal %d)",
					     p->test, p->mode, p->tasks, p->run + 1,
					     signo);
		res_point_free(p);
		r->res.npoints--;
	} else if (p->status != RES_OK) {
		cgs_progress_done(r);
		cgs_err("%s %s %u tasks run %u: %s: %s", p->test, p->mode, p->tasks,
			p->run + 1, res_status_names[p->status], p->reason ? p->reason : "(no reason)");
	}
}

/* The options struct of workload @w in this run. */
static const void *wopts_of(const struct cgs_run *r, const struct cgs_workload *w)
{
	for (size_t i = 0; i < cgs_nworkloads; i++)
		if (cgs_workloads[i] == w)
			return r->wopts[i];
	return NULL;
}

/* One point of cgroup layout @li, with its observers around it; returns 0,
 * or -EINTR with *signo when interrupted. */
static int run_point(struct cgs_run *r, unsigned run, const struct cgs_workload *w,
		     unsigned ntasks, bool threads, unsigned li, int *signo)
{
	struct res_point *p = res_file_add_point(&r->res);
	struct cgs_obs_point pt = { .w = w, .wopts = wopts_of(r, w),
				    .threads = threads, .ntasks = ntasks };
	struct cgs_obs_live live = { .n = 0 };
	struct cgs_observer cgobs;
	struct cgs_cgpoint *cgp = NULL;
	struct cgs_cgview view;
	char ctrls[256];
	struct cgs_point_spec spec = {
		.w = w, .wopts = pt.wopts, .tmpdir = r->tmpdir,
		.fresh_tmp_bytes = r->tmp_fresh ? r->tmp_size : 0, .threads = threads,
		.ntasks = ntasks, .topo = &r->topo, .places = &r->places,
		.warmup_ns = r->o.warmup_ns, .duration_ns = r->o.duration_ns,
		.interval_ns = r->o.interval_ns,
		.ready_timeout_ns = 60 * 1000000000LL,
		.stop_timeout_ns = 30 * 1000000000LL,
		.sigfd = r->sigfd, .tick_arg = r, .sprio = &r->sprio,
		.sampler_cpu = (int)r->o.sampler_cpu,
		.cpustat_interval_ns = r->o.cpustat_interval_ns,
		.image = r->image[0] ? r->image : NULL, .image_why = r->image_why,
		.locate = cgs_stat_locate,
	};
	unsigned ncg = 0;
	int rc;

	if (!p)
		return -ENOMEM;
	point_header(r, p, w, spec.wopts, ntasks, threads, run);
	spec.tick = (isatty(2) && !r->o.quiet) ? tick : NULL;
	if (spec.tick)
		cgs_progress(r, p, 0);
	rc = cgs_cgpoint_begin(r->cg, li, ntasks, p, &spec, &cgobs, &ncg, &cgp);
	if (!rc && !p->status) {
		/* the observers find their targets in the point's cgroups */
		cgs_cgpoint_view(cgp, &view, ctrls, sizeof(ctrls));
		spec.cg = pt.cg = &view;
		rc = cgs_obs_point_begin(&r->obs, &pt, ncg ? &cgobs : NULL, &live);
		spec.obs = live.obs;
		spec.nobs = live.n;
	}
	if (!rc && !p->status)
		rc = cgs_point_run(&spec, p, signo);
	else if (!rc)
		rc = res_point_alloc(p, ntasks, 0);
	cgs_obs_point_end(&live);
	cgs_cgpoint_end(r->cg, cgp, p);
	cgs_explain_failure(r->tmpdir, p);
	r->npoints_done++;
	if (rc != -EINTR)
		cgs_rj_flush(&r->journal, &r->res);
	point_outcome(r, p, rc, *signo);
	return rc;
}

/* All points: runs outermost (interleaved), then tests, tasks, modes,
 * and cgroup layouts innermost, in ABBA order over the runs. */
int cgs_run_all(struct cgs_run *r, int *signo)
{
	bool modes[2] = { r->o.mode != CGS_MODE_THREAD, r->o.mode != CGS_MODE_PROCESS };
	unsigned nl = r->cg->nlayouts;
	int rc = 0;

	r->npoints_planned = (unsigned)r->o.runs * r->ntests * r->tasks.n *
			     (modes[0] + modes[1]) * nl;
	r->started_ns = cgs_now_ns();
	for (unsigned run = 0; run <= r->o.runs; run++) {
		/* -r auto: stop when the answer is clear (or at a limit) */
		if (run && r->o.runs_auto && cgs_auto_done(r, run))
			break;
		if (run == r->o.runs)
			break;
		for (unsigned t = 0; t < r->ntests; t++)
			for (unsigned k = 0; k < r->tasks.n; k++)
				for (int m = 0; m < 2; m++)
					for (unsigned l = 0; modes[m] && l < nl; l++) {
						/* once per task count, at its first point in
						 * either mode */
						if (r->places.n && r->tasks.v[k] > r->places.n && !run && !t &&
						    m == !modes[0] && !l)
							cgs_warn("%u tasks on %u places: some places run more than one task (oversubscribed)",
								 r->tasks.v[k], r->places.n);
						rc = run_point(r, run, r->tests[t], r->tasks.v[k], m,
							       cgs_cg_order(nl, run, l), signo);
						if (rc)
							return rc;
						if (r->o.fail_fast && r->res.points[r->res.npoints - 1].status != RES_OK &&
						    r->res.points[r->res.npoints - 1].status != RES_SKIPPED)
							return 0;
					}
	}
	return 0;
}

