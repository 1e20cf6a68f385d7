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
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "point.h"
#include "task.h"
#include "../lib/freeze.h"
#include "../lib/util.h"

static int cpustat_read(int fd, struct cgs_cpustat *out)
{
	char buf[512];
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;

	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	return cgs_cpustat_parse(buf, out);
}

/* Sleep until @when (monotonic ns) unless a signal arrives first. */
static int wait_until(int64_t when, int sigfd, int *signo)
{
	for (;;) {
		int64_t left = when - cgs_now_ns();
		struct pollfd pfd = { .fd = sigfd, .events = POLLIN };
		struct timespec ts;
		int r;

		if (left <= 0)
			return 0;
		ts.tv_sec = left / 1000000000;
		ts.tv_nsec = left % 1000000000;
		r = ppoll(&pfd, sigfd >= 0 ? 1 : 0, &ts, NULL);
		if (r > 0) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
				*signo = (int)si.ssi_signo;
				return -EINTR;
			}
		}
	}
}

/* The workers of a point, one per group, and what became of them. */
struct workers {
	unsigned n;
	pid_t *pid;
	int *wst;
	bool *reaped;
	char frozen_at[PATH_MAX];   /* a frozen cgroup a worker was in, or "" */
	bool frozen_ours, thawed;   /* that cgroup is this run's; we thawed it */
	int64_t next_check;         /* of frozen cgroups, monotonic ns */
};

/* Is a worker in a frozen cgroup now? Checked at most every 250 ms. A
 * cgroup of this run's (its name holds cgscale-<our pid>-) is thawed when
 * @thaw, so that its tasks can stop; another's is only named. */
static bool workers_frozen(struct workers *wk, bool thaw)
{
	char where[PATH_MAX], mark[48];

	if (cgs_now_ns() < wk->next_check)
		return false;
	wk->next_check = cgs_now_ns() + 250000000;
	snprintf(mark, sizeof(mark), "/cgscale-%d-", (int)getpid());
	for (unsigned g = 0; g < wk->n; g++) {
		if (wk->reaped[g] || wk->pid[g] <= 0 ||
		    cgs_frozen(wk->pid[g], where, sizeof(where)) != 1)
			continue;
		snprintf(wk->frozen_at, sizeof(wk->frozen_at), "%s", where);
		wk->frozen_ours = strstr(where, mark);
		if (thaw && wk->frozen_ours && !cgs_thaw(where))
			wk->thawed = true;
		return true;
	}
	return false;
}

/* Has any worker exited? (Before stop, that is always a failure.) */
static bool any_worker_gone(struct workers *wk)
{
	bool gone = false;

	for (unsigned g = 0; g < wk->n; g++) {
		if (!wk->reaped[g] && wk->pid[g] > 0 &&
		    waitpid(wk->pid[g], &wk->wst[g], WNOHANG) == wk->pid[g])
			wk->reaped[g] = true;
		gone |= wk->reaped[g];
	}
	return gone;
}

static bool all_workers_gone(struct workers *wk)
{
	any_worker_gone(wk);
	for (unsigned g = 0; g < wk->n; g++)
		if (!wk->reaped[g] && wk->pid[g] > 0)
			return false;
	return true;
}

/* Wait for every task at the gate, a failure, or the timeout. */
static int wait_ready(const struct cgs_point_spec *spec, struct cgs_shared *sh,
		      struct workers *wk, int *signo)
{
	int64_t deadline = cgs_now_ns() + spec->ready_timeout_ns;

	while (atomic_load(&sh->ready) < (int)sh->ntasks) {
		int rc;

		if (atomic_load(&sh->failed))
			return -ECANCELED;
		if (any_worker_gone(wk))
			return -ECHILD;
		if (workers_frozen(wk, false))
			return -EDEADLK;
		if (cgs_now_ns() > deadline)
			return -ETIMEDOUT;
		rc = wait_until(cgs_now_ns() + 2000000, spec->sigfd, signo);
		if (rc)
			return rc;
	}
	return 0;
}

/* Stop the tasks and reap the workers and anything left in their process
 * groups. Returns true when they had to be killed. */
/* Reap worker @g within 5 s of its SIGKILL (a frozen one is thawed if
 * ours); never a wait without end. */
static void reap_killed(struct workers *wk, unsigned g)
{
	int64_t deadline = cgs_now_ns() + 5000000000LL;
	int dummy;

	while (!wk->reaped[g] && cgs_now_ns() < deadline) {
		if (waitpid(wk->pid[g], &wk->wst[g], WNOHANG) == wk->pid[g]) {
			wk->reaped[g] = true;
			break;
		}
		workers_frozen(wk, true);
		wait_until(cgs_now_ns() + 2000000, -1, &dummy);
	}
}

/* Stop the tasks and reap the workers and anything left in their process
 * groups. Returns true when they had to be killed. A SIGINT/SIGTERM while
 * waiting kills them at once; *@signo says which. */
static bool collect(const struct cgs_point_spec *spec, struct cgs_shared *sh,
		    struct workers *wk, int *signo)
{
	int64_t deadline = cgs_now_ns() + spec->stop_timeout_ns;
	bool killed = false;
	int dummy;

	atomic_store(&sh->stop, 1);
	cgs_gate_open(sh);    /* tasks still at the gate leave at once */
	while (!all_workers_gone(wk)) {
		if (workers_frozen(wk, true) && !wk->frozen_ours)
			deadline = 0;     /* not ours to thaw: they cannot stop */
		if (cgs_now_ns() > deadline) {
			for (unsigned g = 0; g < wk->n; g++) {
				if (wk->reaped[g] || wk->pid[g] <= 0)
					continue;
				kill(-wk->pid[g], SIGKILL);
				reap_killed(wk, g);
			}
			killed = true;
			break;
		}
		if (wait_until(cgs_now_ns() + 2000000, spec->sigfd, signo) == -EINTR)
			deadline = 0;
	}
	/* the groups: tasks or partners orphaned by a dead worker come to
	 * us (we are a child subreaper); kill and reap them */
	for (unsigned g = 0; g < wk->n; g++) {
		if (wk->pid[g] <= 0)
			continue;
		kill(-wk->pid[g], SIGKILL);
		deadline = cgs_now_ns() + 5000000000LL;
		while (waitpid(-wk->pid[g], NULL, WNOHANG) >= 0 &&
		       cgs_now_ns() < deadline)
			wait_until(cgs_now_ns() + 1000000, -1, &dummy);
	}
	return killed;
}

static void take_counts(const struct cgs_shared *sh, struct res_point *p,
			uint64_t *last, unsigned s)
{
	unsigned stride = 1 + CGS_MAX_AUX;

	for (unsigned i = 0; i < sh->ntasks; i++) {
		const struct cgs_slot *sl = &sh->slots[i];
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

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Copy the tasks' info records into the point and decide its status. */
static void record_tasks(const struct cgs_point_spec *spec,
			 const struct cgs_shared *sh, struct res_point *p)
{
	char *first = NULL;
	unsigned failed = 0, skipped = 0;

	for (unsigned i = 0; i < sh->ntasks; i++) {
		const struct cgs_task_info *in = &sh->info[i];
		struct res_task *t = &p->task[i];
		hwloc_const_bitmap_t place = cgs_place_of(spec->places, i);
		int state = atomic_load(&in->state);

		t->pid = in->pid;
		t->tid = in->tid;
		t->cpu_start = in->cpu_start;
		t->cpu_end = in->cpu_end;
		t->migrated = in->cpu_start >= 0 && in->cpu_end >= 0 &&
			      in->cpu_start != in->cpu_end;
		t->ops = in->ops_final;
		memcpy(t->aux, in->aux_final, sizeof(t->aux));
		t->minflt = in->minflt;
		t->majflt = in->majflt;
		if (place) {
			char list[256];

			hwloc_bitmap_list_snprintf(list, sizeof(list), place);
			t->cpuset = strdup(list);
		}
		if (state == CGS_T_DONE) {
			t->status = strdup("ok");
			continue;
		}
		if (state == CGS_T_SKIPPED) {
			skipped++;
			t->status = strdup("skipped");
		} else if (state == CGS_T_FAILED) {
			failed++;
			t->status = strdup("failed");
		} else {
			/* never got to record an outcome: stopped early */
			t->status = strdup("stopped");
		}
		t->error = xstrdup(in->msg[0] ? in->msg : NULL);
		if (!first && (state == CGS_T_FAILED || state == CGS_T_SKIPPED))
			first = cgs_fmt("task %u (pid %d): %s", i, in->pid,
				    in->msg[0] ? in->msg : "failed");
	}
	if (failed) {
		p->status = strdup("failed");
		p->reason = failed > 1 ? cgs_fmt("%s (and %u more)", first, failed - 1)
				       : xstrdup(first);
	} else if (skipped) {
		p->status = strdup("skipped");
		p->reason = xstrdup(first);
	}
	free(first);
}

/* The outcome when no task failed on its own: worker or timing trouble. */
static void record_workers(struct res_point *p, int rc, struct workers *wk,
			   bool killed, const struct cgs_point_spec *spec)
{
	if (p->status)
		return;
	if (wk->frozen_at[0]) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("the cgroup %s was frozen%s", wk->frozen_at,
				    wk->thawed ? "; thawed to stop the tasks"
				    : wk->frozen_ours ? "" : " (not this run's: left frozen)");
		return;
	}
	if (killed) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("tasks did not stop within %.0f s and were killed",
				    spec->stop_timeout_ns / 1e9);
		return;
	}
	for (unsigned g = 0; g < wk->n; g++) {
		int st = wk->wst[g];

		if (!wk->reaped[g])
			continue;
		if (WIFSIGNALED(st)) {
			p->status = strdup("failed");
			p->reason = cgs_fmt("the %s-mode worker was killed by signal %d (%s)",
					    spec->threads ? "thread" : "process",
					    WTERMSIG(st), strsignal(WTERMSIG(st)));
			return;
		}
		if (WEXITSTATUS(st)) {
			p->status = strdup("failed");
			p->reason = cgs_fmt("a worker exited with status %d",
					    WEXITSTATUS(st));
			return;
		}
	}
	if (rc == -ETIMEDOUT) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("tasks were not ready within %.0f s",
				    spec->ready_timeout_ns / 1e9);
	} else if (rc == -ECHILD) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("a worker exited before its tasks were ready");
	} else if (rc && rc != -ECANCELED) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("%s", strerror(-rc));
	} else {
		p->status = strdup("ok");
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
		       struct workers *wk, int *signo)
{
	uint64_t *last = calloc((size_t)sh->ntasks * (1 + CGS_MAX_AUX), sizeof(*last));
	int statfd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	struct cgs_cpustat prev = { 0 }, cur;
	int64_t t0, wstart = 0, lag = 0;
	unsigned k = 1;
	bool have_stat;
	int rc = 0;

	if (!last) {
		rc = -ENOMEM;
		goto out;
	}
	have_stat = cpustat_read(statfd, &prev) == 0;
	t0 = cgs_now_ns();
	cgs_gate_open(sh);
	p->t_ns[0] = 0;
	p->phase[0] = phase[0];
	take_counts(sh, p, last, 0);
	if (nplan > 1 && phase[1] == RES_PHASE_MEASURE)
		wstart = t0;   /* no warm-up: the start opens the window */
	obs_sample(spec, p, 0, wstart != 0);
	for (unsigned s = 1; s < nplan; s++) {
		int64_t due = cgs_sample_due(plan, phase, s, t0, wstart), now;
		bool opens = phase[s] != RES_PHASE_MEASURE && s + 1 < nplan &&
			     phase[s + 1] == RES_PHASE_MEASURE;

		rc = wait_until(due, spec->sigfd, signo);
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
		if (have_stat && cpustat_read(statfd, &cur) == 0) {
			cgs_cpustat_pct(&prev, &cur, &p->idle_pct[k],
					&p->iowait_pct[k], &p->steal_pct[k]);
			prev = cur;
		}
		if (spec->tick)
			spec->tick(spec->tick_arg, p->t_ns[k]);
		k++;
		if (atomic_load(&sh->failed) || any_worker_gone(wk))
			break;
	}
	p->sampler_lag_ms = lag / 1e6;
	res_point_truncate(p, k);   /* keep only what was sampled */
out:
	if (statfd >= 0)
		close(statfd);
	free(last);
	return rc;
}

/* Tell the observers all tasks are at the gate. */
static int obs_ready(const struct cgs_point_spec *spec, const struct cgs_shared *sh,
		     struct res_point *p)
{
	int *pid = calloc(sh->ntasks, sizeof(*pid)), *tid = calloc(sh->ntasks, sizeof(*tid));
	char msg[512] = "";
	int rc = pid && tid ? 0 : -ENOMEM;

	for (unsigned i = 0; !rc && i < sh->ntasks; i++) {
		pid[i] = sh->info[i].pid;
		tid[i] = sh->info[i].tid;
	}
	for (unsigned k = 0; !rc && k < spec->nobs; k++) {
		if (!spec->obs[k].ready)
			continue;
		rc = spec->obs[k].ready(spec->obs[k].priv, sh->ntasks, pid, tid,
					msg, sizeof(msg));
		if (rc) {
			p->status = strdup("failed");
			p->reason = cgs_fmt("%s: %s", spec->obs[k].name,
					    msg[0] ? msg : strerror(-rc));
		}
	}
	free(pid);
	free(tid);
	return rc;
}

static int start_workers(const struct cgs_point_spec *spec,
			 struct cgs_point_tasks *pt, struct workers *wk)
{
	struct cgs_group all = { 0, spec->ntasks };

	pt->groups = spec->ngroups ? spec->groups : &all;
	wk->n = spec->ngroups ? spec->ngroups : 1;
	wk->pid = calloc(wk->n, sizeof(*wk->pid));
	wk->wst = calloc(wk->n, sizeof(*wk->wst));
	wk->reaped = calloc(wk->n, sizeof(*wk->reaped));
	if (!wk->pid || !wk->wst || !wk->reaped)
		return -ENOMEM;
	if (spec->threads && wk->n > 1)
		return -EINVAL;    /* threads of one mm cannot be split */
	for (unsigned g = 0; g < wk->n; g++) {
		pid_t pid;

		pt->group = g;
		pid = cgs_worker_start(pt);
		if (pid < 0)
			return pid;
		setpgid(pid, pid);   /* also done by the worker: no race */
		wk->pid[g] = pid;
	}
	return 0;
}

/* What prepare said about its choices goes into the point as "workload". */
static void workload_extra(struct res_point *p, struct json_object *extra)
{
	if (extra && json_object_object_length(extra) &&
	    (p->extra || (p->extra = json_object_new_object())))
		json_object_object_add(p->extra, "workload", json_object_get(extra));
	json_object_put(extra);
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
		.runner = getpid(),
		.enter = spec->enter,
		.enter_arg = spec->enter_arg,
	};
	struct workers wk = { 0 };
	unsigned n = cgs_schedule(spec->warmup_ns, spec->duration_ns,
				  spec->interval_ns, NULL, NULL);
	int64_t *at = calloc(n, sizeof(*at));
	enum res_phase *plan_phase = calloc(n, sizeof(*plan_phase));
	const char *anames[CGS_MAX_AUX], *aunits[CGS_MAX_AUX];
	double ascales[CGS_MAX_AUX];
	bool killed = false, prepared = false;
	int rc, sig2;

	for (size_t k = 0; k < w->naux; k++) {
		anames[k] = w->aux[k].name;
		aunits[k] = w->aux[k].rate_unit;
		ascales[k] = w->aux[k].rate_scale;
	}
	if (!at || !plan_phase || res_point_alloc(p, spec->ntasks, n) ||
	    res_point_set_aux(p, (unsigned)w->naux, anames, aunits, ascales)) {
		rc = -ENOMEM;
		goto out;
	}
	cgs_schedule(spec->warmup_ns, spec->duration_ns, spec->interval_ns,
		     at, plan_phase);
	if (w->prepare) {
		pt.ctx.extra = json_object_new_object();
		rc = w->prepare(&pt.ctx);
		if (rc) {
			bool skip = rc == -EOPNOTSUPP || rc == -ENOSYS;

			p->status = strdup(skip ? "skipped" : "failed");
			p->reason = strdup(why[0] ? why : strerror(-rc));
			res_point_truncate(p, 0);
			rc = 0;
			goto out;
		}
		prepared = true;
	}
	pt.sh = cgs_shared_map(spec->ntasks);
	if (!pt.sh) {
		rc = -errno;
		goto out;
	}
	rc = start_workers(spec, &pt, &wk);
	if (!rc)
		rc = wait_ready(spec, pt.sh, &wk, signo);
	if (!rc)
		rc = obs_ready(spec, pt.sh, p);
	if (!rc)
		rc = sample_loop(spec, pt.sh, p, at, plan_phase, n, &wk, signo);
	else
		res_point_truncate(p, 0);
	sig2 = 0;
	killed = collect(spec, pt.sh, &wk, &sig2);
	if (sig2 && rc != -EINTR) {
		*signo = sig2;
		rc = -EINTR;
	}
	record_tasks(spec, pt.sh, p);
	if (rc == -EINTR) {
		free(p->status);
		p->status = strdup("interrupted");
	} else {
		record_workers(p, rc, &wk, killed, spec);
		if (rc != -ENOMEM)
			rc = 0;
	}
	if (p->status && !strcmp(p->status, "ok"))
		res_point_summarise(p);
	for (unsigned k = 0; k < spec->nobs; k++)
		if (spec->obs[k].finish)
			spec->obs[k].finish(spec->obs[k].priv, p);
out:
	if (!p->status && rc) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("the runner could not run it: %s", strerror(-rc));
	}
	if (prepared && w->cleanup)
		w->cleanup(&pt.ctx);
	workload_extra(p, pt.ctx.extra);
	cgs_shared_unmap(pt.sh);
	free(wk.pid);
	free(wk.wst);
	free(wk.reaped);
	free(at);
	free(plan_phase);
	return rc;
}
