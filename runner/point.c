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

#include "point.h"
#include "task.h"
#include "util.h"

int64_t cgs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

unsigned cgs_schedule(int64_t warmup, int64_t duration, int64_t interval,
		      int64_t *at, enum res_phase *phase)
{
	unsigned n = 0;

#define SCHED_ADD(t, ph) do { if (at) { at[n] = (t); phase[n] = (ph); } n++; } while (0)
	SCHED_ADD(0, RES_PHASE_START);
	for (int64_t t = interval; t < warmup; t += interval)
		SCHED_ADD(t, RES_PHASE_WARMUP);
	if (warmup > 0)
		SCHED_ADD(warmup, RES_PHASE_WARMUP);
	for (int64_t t = warmup + interval; t < warmup + duration; t += interval)
		SCHED_ADD(t, RES_PHASE_MEASURE);
	SCHED_ADD(warmup + duration, RES_PHASE_MEASURE);
#undef SCHED_ADD
	return n;
}

int cgs_cpustat_parse(const char *line, struct cgs_cpustat *out)
{
	unsigned long long v[8] = { 0 };
	int n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);

	if (n < 4)
		return -EINVAL;
	out->total = 0;
	for (int i = 0; i < 8; i++)
		out->total += v[i];    /* guest time is already in user */
	out->idle = v[3];
	out->iowait = v[4];
	out->steal = v[7];
	return 0;
}

void cgs_cpustat_pct(const struct cgs_cpustat *a, const struct cgs_cpustat *b,
		     double *idle, double *iowait, double *steal)
{
	double dt = (double)b->total - (double)a->total;

	if (!(dt > 0)) {
		*idle = *iowait = *steal = NAN;
		return;
	}
	*idle = 100.0 * ((double)b->idle - (double)a->idle) / dt;
	*iowait = 100.0 * ((double)b->iowait - (double)a->iowait) / dt;
	*steal = 100.0 * ((double)b->steal - (double)a->steal) / dt;
}

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

/* Has the worker exited? Fills *st when it has. */
static bool worker_gone(pid_t worker, int *st, bool *reaped)
{
	if (*reaped)
		return true;
	if (waitpid(worker, st, WNOHANG) == worker)
		*reaped = true;
	return *reaped;
}

/* Wait for every task at the gate, a failure, or the timeout. */
static int wait_ready(const struct cgs_point_spec *spec, struct cgs_shared *sh,
		      pid_t worker, int *wst, bool *reaped, int *signo)
{
	int64_t deadline = cgs_now_ns() + spec->ready_timeout_ns;

	while (atomic_load(&sh->ready) < (int)sh->ntasks) {
		int rc;

		if (atomic_load(&sh->failed))
			return -ECANCELED;
		if (worker_gone(worker, wst, reaped))
			return -ECHILD;
		if (cgs_now_ns() > deadline)
			return -ETIMEDOUT;
		rc = wait_until(cgs_now_ns() + 2000000, spec->sigfd, signo);
		if (rc)
			return rc;
	}
	return 0;
}

/* Stop the tasks and reap the worker and anything left in its group. */
static bool collect(const struct cgs_point_spec *spec, struct cgs_shared *sh,
		    pid_t worker, int *wst, bool *reaped)
{
	int64_t deadline = cgs_now_ns() + spec->stop_timeout_ns;
	bool killed = false;
	int dummy;

	atomic_store(&sh->stop, 1);
	cgs_gate_open(sh);    /* tasks still at the gate leave at once */
	while (!worker_gone(worker, wst, reaped)) {
		if (cgs_now_ns() > deadline) {
			kill(-worker, SIGKILL);
			killed = true;
			if (waitpid(worker, wst, 0) == worker)
				*reaped = true;
			break;
		}
		wait_until(cgs_now_ns() + 2000000, -1, &dummy);
	}
	/* the worker's group: tasks or partners orphaned by a dead worker */
	kill(-worker, SIGKILL);
	deadline = cgs_now_ns() + 5000000000LL;
	while (waitpid(-worker, NULL, WNOHANG) >= 0 && cgs_now_ns() < deadline)
		wait_until(cgs_now_ns() + 1000000, -1, &dummy);
	return killed;
}

static void take_counts(const struct cgs_shared *sh, struct res_point *p,
			uint64_t *last, unsigned s)
{
	for (unsigned i = 0; i < sh->ntasks; i++) {
		uint64_t v = atomic_load_explicit(&sh->slots[i].ops,
						  memory_order_relaxed);

		p->ops[(size_t)i * p->nsamples + s] = v - last[i];
		last[i] = v;
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
static void record_worker(struct res_point *p, int rc, int wst, bool reaped,
			  bool killed, const struct cgs_point_spec *spec)
{
	if (p->status)
		return;
	if (killed) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("tasks did not stop within %.0f s and were killed",
				spec->stop_timeout_ns / 1e9);
	} else if (reaped && WIFSIGNALED(wst)) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("the %s-mode worker was killed by signal %d (%s)",
				spec->threads ? "thread" : "process",
				WTERMSIG(wst), strsignal(WTERMSIG(wst)));
	} else if (rc == -ETIMEDOUT) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("tasks were not ready within %.0f s",
				spec->ready_timeout_ns / 1e9);
	} else if (rc == -ECHILD || (reaped && WEXITSTATUS(wst))) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("the worker exited early (status %d)",
				reaped ? WEXITSTATUS(wst) : -1);
	} else {
		p->status = strdup("ok");
	}
}

/* Sample until the schedule ends, a task fails, or a signal arrives. */
static int sample_loop(const struct cgs_point_spec *spec, struct cgs_shared *sh,
		       struct res_point *p, const int64_t *at, pid_t worker,
		       int *wst, bool *reaped, int *signo)
{
	uint64_t *last = calloc(sh->ntasks, sizeof(*last));
	int statfd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	struct cgs_cpustat prev = { 0 }, cur;
	bool have_stat;
	int64_t t0;
	unsigned s;
	int rc = 0;

	if (!last) {
		rc = -ENOMEM;
		goto out;
	}
	have_stat = cpustat_read(statfd, &prev) == 0;
	t0 = cgs_now_ns();
	cgs_gate_open(sh);
	p->t_ns[0] = 0;
	take_counts(sh, p, last, 0);
	for (s = 1; s < p->nsamples; s++) {
		rc = wait_until(t0 + at[s], spec->sigfd, signo);
		if (rc)
			break;
		p->t_ns[s] = cgs_now_ns() - t0;
		take_counts(sh, p, last, s);
		if (have_stat && cpustat_read(statfd, &cur) == 0) {
			cgs_cpustat_pct(&prev, &cur, &p->idle_pct[s],
					&p->iowait_pct[s], &p->steal_pct[s]);
			prev = cur;
		}
		if (spec->tick)
			spec->tick(spec->tick_arg, p->t_ns[s]);
		if (atomic_load(&sh->failed) || worker_gone(worker, wst, reaped)) {
			s++;
			break;
		}
	}
	/* keep only what was sampled: shrink the columns in place */
	if (s < p->nsamples) {
		for (unsigned i = 1; i < sh->ntasks; i++)
			memmove(&p->ops[(size_t)i * s],
				&p->ops[(size_t)i * p->nsamples],
				s * sizeof(*p->ops));
		p->nsamples = s;
	}
out:
	if (statfd >= 0)
		close(statfd);
	free(last);
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
		},
		.topo = spec->topo,
		.places = spec->places,
		.runner = getpid(),
	};
	unsigned n = cgs_schedule(spec->warmup_ns, spec->duration_ns,
				  spec->interval_ns, NULL, NULL);
	int64_t *at = calloc(n, sizeof(*at));
	bool reaped = false, killed = false, prepared = false;
	pid_t worker = -1;
	int rc, wst = 0;

	if (!at || res_point_alloc(p, spec->ntasks, n)) {
		rc = -ENOMEM;
		goto out;
	}
	cgs_schedule(spec->warmup_ns, spec->duration_ns, spec->interval_ns,
		     at, p->phase);
	if (w->prepare) {
		rc = w->prepare(&pt.ctx);
		if (rc) {
			bool skip = rc == -EOPNOTSUPP || rc == -ENOSYS;

			p->status = strdup(skip ? "skipped" : "failed");
			p->reason = strdup(why[0] ? why : strerror(-rc));
			p->nsamples = 0;
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
	worker = cgs_worker_start(&pt);
	if (worker < 0) {
		rc = worker;
		goto out;
	}
	setpgid(worker, worker);   /* also done by the worker: no race */
	rc = wait_ready(spec, pt.sh, worker, &wst, &reaped, signo);
	if (rc == 0)
		rc = sample_loop(spec, pt.sh, p, at, worker, &wst, &reaped, signo);
	else
		p->nsamples = 0;
	killed = collect(spec, pt.sh, worker, &wst, &reaped);
	record_tasks(spec, pt.sh, p);
	if (rc == -EINTR) {
		free(p->status);
		p->status = strdup("interrupted");
	} else {
		record_worker(p, rc, wst, reaped, killed, spec);
		if (rc != -ENOMEM)
			rc = 0;
	}
	if (p->status && !strcmp(p->status, "ok"))
		res_point_summarise(p);
out:
	if (!p->status && rc) {
		p->status = strdup("failed");
		p->reason = cgs_fmt("the runner could not run it: %s", strerror(-rc));
	}
	if (prepared && w->cleanup)
		w->cleanup(&pt.ctx);
	cgs_shared_unmap(pt.sh);
	free(at);
	return rc;
}
