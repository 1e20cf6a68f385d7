/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workers.c - the worker processes of one point: start one per group of
 * tasks, notice one that died, stop and reap them (and anything left in
 * their process groups) within bounded waits - thawing a frozen cgroup of
 * the run's - and turn what became of them into the point's outcome when
 * no task failed on its own.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/freeze.h"
#include "lib/util.h"
#include "runner/point/point_int.h"
#include "runner/point/task.h"

/* Has any worker exited? (Before stop, that is always a failure.) */
bool cgs_workers_any_gone(struct cgs_workers *wk)
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

static bool all_gone(struct cgs_workers *wk)
{
	cgs_workers_any_gone(wk);
	for (unsigned g = 0; g < wk->n; g++)
		if (!wk->reaped[g] && wk->pid[g] > 0)
			return false;
	return true;
}

bool cgs_workers_frozen(struct cgs_workers *wk, bool thaw)
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

/* Reap worker @g within 5 s of its SIGKILL (a frozen one is thawed if
 * ours); never a wait without end. */
static void reap_killed(struct cgs_workers *wk, unsigned g)
{
	int64_t deadline = cgs_now_ns() + 5000000000LL;
	int dummy;

	while (!wk->reaped[g] && cgs_now_ns() < deadline) {
		if (waitpid(wk->pid[g], &wk->wst[g], WNOHANG) == wk->pid[g]) {
			wk->reaped[g] = true;
			break;
		}
		cgs_workers_frozen(wk, true);
		cgs_wait_until(cgs_now_ns() + 2000000, -1, &dummy);
	}
}

bool cgs_workers_collect(const struct cgs_point_spec *spec, struct cgs_shared *sh,
			 struct cgs_workers *wk, int *signo)
{
	int64_t deadline = cgs_now_ns() + spec->stop_timeout_ns;
	bool killed = false;
	int dummy;

	atomic_store(&sh->stop, 1);
	cgs_gate_open(sh);    /* tasks still at the gate leave at once */
	while (!all_gone(wk)) {
		if (cgs_workers_frozen(wk, true) && !wk->frozen_ours)
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
		if (cgs_wait_until(cgs_now_ns() + 2000000, spec->sigfd, signo) == -EINTR)
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
			cgs_wait_until(cgs_now_ns() + 1000000, -1, &dummy);
	}
	return killed;
}

/* The outcome when no task failed on its own: worker or timing trouble. */
void cgs_workers_outcome(struct res_point *p, int rc, struct cgs_workers *wk,
			   bool killed, const struct cgs_point_spec *spec)
{
	if (p->status)
		return;
	if (wk->frozen_at[0]) {
		p->status = RES_FAILED;
		p->reason = cgs_fmt("the cgroup %s was frozen%s", wk->frozen_at,
				    wk->thawed ? "; thawed to stop the tasks"
				    : wk->frozen_ours ? "" : " (not this run's: left frozen)");
		return;
	}
	if (killed) {
		p->status = RES_FAILED;
		p->reason = cgs_fmt("tasks did not stop within %.0f s and were killed",
				    spec->stop_timeout_ns / 1e9);
		return;
	}
	for (unsigned g = 0; g < wk->n; g++) {
		int st = wk->wst[g];

		if (!wk->reaped[g])
			continue;
		if (WIFSIGNALED(st)) {
			p->status = RES_FAILED;
			p->reason = cgs_fmt("the %s-mode worker was killed by signal %d (%s)",
					    spec->threads ? "thread" : "process",
					    WTERMSIG(st), strsignal(WTERMSIG(st)));
			return;
		}
		if (WEXITSTATUS(st)) {
			p->status = RES_FAILED;
			p->reason = cgs_fmt("a worker exited with status %d",
					    WEXITSTATUS(st));
			return;
		}
	}
	if (rc == -ETIMEDOUT) {
		p->status = RES_FAILED;
		p->reason = cgs_fmt("tasks were not ready within %.0f s",
				    spec->ready_timeout_ns / 1e9);
	} else if (rc == -ECHILD) {
		p->status = RES_FAILED;
		p->reason = cgs_fmt("a worker exited before its tasks were ready");
	} else if (rc && rc != -ECANCELED) {
		p->status = RES_FAILED;
		p->reason = cgs_fmt("%s", strerror(-rc));
	} else {
		p->status = RES_OK;
	}
}

int cgs_workers_start(const struct cgs_point_spec *spec,
			 struct cgs_point_tasks *pt, struct cgs_workers *wk)
{
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

void cgs_workers_free(struct cgs_workers *wk)
{
	free(wk->pid);
	free(wk->wst);
	free(wk->reaped);
}
