/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * task.c - the tasks of one worker and the life of one task: bind to its
 * place, set up, wait at the gate, loop until told to stop, tear down.
 * Failures are recorded in the task's shared info record, never asserted.
 * Uses nothing but the C library, as it also runs in the plain image
 * (runner/image/), whose address space holds little else.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/stat.h>

#include "lib/version.h"
#include "lib/cancel.h"
#include "lib/futex.h"
#include "lib/pdeath.h"
#include "lib/pidmap.h"
#include "runner/point/task.h"

void cgs_gate_open(struct cgs_shared *sh)
{
	atomic_store(&sh->gate, 1);
	cgs_futex_wake(&sh->gate, INT_MAX);
}

static void gate_wait(struct cgs_shared *sh)
{
	while (!atomic_load(&sh->gate))
		cgs_futex_wait(&sh->gate, 0, NULL);
}

/* How long the runner waits for a partner left behind by a workload. */
#define PARTNER_REAP_NS (5 * 1000000000LL)

void cgs_task_mark_failed(struct cgs_shared *sh, struct cgs_task_info *in,
			  int err)
{
	bool skip = err == -EOPNOTSUPP || err == -ENOSYS;

	in->err = err;
	atomic_store(&in->state, skip ? CGS_T_SKIPPED : CGS_T_FAILED);
	atomic_fetch_add(&sh->failed, 1);
}

static void usage_of_thread(int64_t *minflt, int64_t *majflt)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		*minflt = ru.ru_minflt;
		*majflt = ru.ru_majflt;
	}
}

/* Bind the calling thread to task @nr's CPUs (none: leave it where it
 * is). The runner made the masks from its hwloc places. */
static int bind_place(const struct cgs_point_tasks *pt, struct cgs_task *t)
{
	const unsigned long *m = cgs_sh_mask(pt->sh, t->nr);
	size_t bytes = cgs_sh_image(pt->sh)->mask_words * sizeof(long);
	int first = -1, rc;

	if (!m || !sched_setaffinity(0, bytes, (const cpu_set_t *)m))
		return 0;
	rc = -errno;
	for (size_t b = 0; b < bytes * 8 && first < 0; b++)
		if (m[b / (8 * sizeof(long))] >> (b % (8 * sizeof(long))) & 1)
			first = (int)b;
	cgs_task_fail(t, rc, "binding to CPU %d and the rest of its place", first);
	return rc;
}

/* The workload's loop, past the gate, unless the point stopped first: its
 * faults, last CPU and ops into @in. A loop that returns before it is told
 * to stop has failed. */
static int run_loop(const struct cgs_point_tasks *pt, struct cgs_rtask *rt,
		    struct cgs_task_info *in)
{
	struct cgs_shared *sh = pt->sh;
	struct cgs_task *t = &rt->c.task;
	int64_t minflt0 = 0, majflt0 = 0;
	int rc;

	if (atomic_load(&sh->stop))
		return 0;
	atomic_store(&in->state, CGS_T_RUNNING);
	usage_of_thread(&minflt0, &majflt0);
	rc = pt->w->loop(t);
	usage_of_thread(&in->minflt, &in->majflt);
	in->minflt -= minflt0;
	in->majflt -= majflt0;
	in->cpu_end = sched_getcpu();
	in->ops_final = rt->c.ops;
	if (!rc && !atomic_load(&sh->stop))
		rc = cgs_task_fail(t, -ECANCELED,
				   "the loop returned before it was told to stop");
	else if (rc && !in->msg[0])
		cgs_task_fail(t, rc, "loop");
	return rc;
}

/* The whole life of task @nr. Returns 0 or -errno (also in its info). */
static int task_run(const struct cgs_point_tasks *pt, unsigned nr)
{
	struct cgs_shared *sh = pt->sh;
	struct cgs_task_info *in = &cgs_sh_info(sh)[nr];
	struct cgs_rtask rt = {
		.c = {
			.task = { .nr = nr, .ctx = &pt->ctx },
			.slot = &cgs_sh_slots(sh)[nr],
			.stop = &sh->stop,
		},
		.msg = in->msg,
		.msglen = sizeof(in->msg),
		.pt = pt,
	};
	struct cgs_task *t = &rt.c.task;
	char name[16];
	int rc;

	cgs_thread_async_cancel();
	snprintf(name, sizeof(name), "cgs:%s", pt->w->name);
	prctl(PR_SET_NAME, name);
	in->pid = getpid();
	in->tid = (int)syscall(SYS_gettid);
	rc = bind_place(pt, t);
	if (rc) {
		cgs_task_mark_failed(sh, in, rc);
		return rc;
	}
	in->cpu_start = sched_getcpu();
	rc = pt->w->setup ? pt->w->setup(t) : 0;
	if (rc) {
		cgs_partner_join(t, PARTNER_REAP_NS);
		if (!in->msg[0])
			cgs_task_fail(t, rc, "setup");
		cgs_task_mark_failed(sh, in, rc);
		return rc;
	}
	atomic_store(&in->state, CGS_T_READY);
	atomic_fetch_add(&sh->ready, 1);
	gate_wait(sh);
	rc = run_loop(pt, &rt, in);
	if (pt->w->teardown)
		pt->w->teardown(t);
	/* a partner the workload left is reaped here; its failure (also one
	 * the workload's own join saw) is the task's */
	cgs_partner_join(t, PARTNER_REAP_NS);
	if (!rc && rt.partner_err)
		rc = rt.partner_err;
	memcpy(in->aux_final, rt.c.aux, sizeof(in->aux_final));
	if (rc)
		cgs_task_mark_failed(sh, in, rc);
	else
		atomic_store(&in->state, CGS_T_DONE);
	return rc;
}

struct thread_arg {
	const struct cgs_point_tasks *pt;
	unsigned nr;
};

static void *task_thread(void *p)
{
	struct thread_arg *a = p;

	task_run(a->pt, a->nr);
	return NULL;
}

/* Task threads' stacks: the workloads need a few KiB; glibc's default
 * (RLIMIT_STACK, often 8 MiB) would reserve 64 GiB for 8192 threads,
 * which a box with strict overcommit refuses. */
#define TASK_STACK (1024 * 1024)

static void worker_threads(const struct cgs_point_tasks *pt,
			   const struct cgs_group_rec *g)
{
	unsigned n = g->n, started = 0;
	pthread_t *th = calloc(n, sizeof(*th));
	struct thread_arg *args = calloc(n, sizeof(*args));
	pthread_attr_t attr;

	if (!th || !args || pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, TASK_STACK))
		_exit(12);
	for (unsigned i = 0; i < n; i++) {
		int e;

		args[i] = (struct thread_arg){ .pt = pt, .nr = g->first + i };
		e = pthread_create(&th[i], &attr, task_thread, &args[i]);
		if (e) {
			struct cgs_task_info *in = &cgs_sh_info(pt->sh)[g->first + i];

			snprintf(in->msg, sizeof(in->msg),
				 "pthread_create: %s", strerror(e));
			cgs_task_mark_failed(pt->sh, in, -EAGAIN);
			break;
		}
		started++;
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_attr_destroy(&attr);
	free(th);
	free(args);
}

/* A task process was reaped with status @st: an end without an outcome
 * of its own is a failure. */
static void task_reaped(struct cgs_shared *sh, struct cgs_task_info *in, int st)
{
	int state = atomic_load(&in->state);

	in->wstatus = st;
	in->reaped = true;
	if (state == CGS_T_DONE || state == CGS_T_FAILED || state == CGS_T_SKIPPED)
		return;
	if (WIFSIGNALED(st))
		snprintf(in->msg, sizeof(in->msg), "killed by signal %d (%s)",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(in->msg, sizeof(in->msg), "exited early with status %d",
			 WEXITSTATUS(st));
	cgs_task_mark_failed(sh, in, -ECHILD);
}

static void worker_processes(const struct cgs_point_tasks *pt,
			     const struct cgs_group_rec *g)
{
	unsigned n = g->n, alive = 0;
	pid_t self = getpid(), *pids = calloc(n, sizeof(*pids));
	struct cgs_pidmap map;

	if (!pids)
		_exit(12);
	for (unsigned i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			cgs_die_with_parent(self);
			_exit(task_run(pt, g->first + i) ? 1 : 0);
		}
		if (pid < 0) {
			struct cgs_task_info *in = &cgs_sh_info(pt->sh)[g->first + i];

			snprintf(in->msg, sizeof(in->msg), "fork: %s",
				 strerror(errno));
			cgs_task_mark_failed(pt->sh, in, -EAGAIN);
			break;
		}
		pids[i] = pid;
		alive++;
	}
	if (cgs_pidmap_build(&map, pids, n))
		_exit(12);
	while (alive) {
		int st, i;
		pid_t pid = waitpid(-1, &st, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		i = cgs_pidmap_find(&map, pid);
		if (i < 0)
			continue;    /* not a task of ours */
		task_reaped(pt->sh, &cgs_sh_info(pt->sh)[g->first + i], st);
		alive--;
	}
	cgs_pidmap_free(&map);
	free(pids);
}

/* Every task of the group fails with @msg (or @rc's text); the worker
 * exits. */
void cgs_group_fail(const struct cgs_point_tasks *pt, int rc, const char *msg)
{
	const struct cgs_group_rec *g = &cgs_sh_groups(pt->sh)[pt->group];

	for (unsigned i = 0; i < g->n; i++) {
		struct cgs_task_info *in = &cgs_sh_info(pt->sh)[g->first + i];

		snprintf(in->msg, sizeof(in->msg), "%s", msg[0] ? msg : strerror(-rc));
		cgs_task_mark_failed(pt->sh, in, rc);
	}
	_exit(1);
}

void cgs_tasks_run(const struct cgs_point_tasks *pt)
{
	const struct cgs_group_rec *g = &cgs_sh_groups(pt->sh)[pt->group];

	if (pt->ctx.threads)
		worker_threads(pt, g);
	else
		worker_processes(pt, g);
}

int cgs_shared_attach(int fd, struct cgs_shared **out)
{
	struct cgs_shared *sh;
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if ((size_t)st.st_size < sizeof(*sh))
		return -EINVAL;
	sh = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (sh == MAP_FAILED)
		return -errno;
	if (sh->maplen != (size_t)st.st_size) {
		munmap(sh, (size_t)st.st_size);
		return -EINVAL;
	}
	*out = sh;
	return 0;
}

void cgs_image_abi(char *buf, size_t len)
{
	snprintf(buf, len, "%s-%s/%zu.%zu.%zu.%zu.%zu", CGS_VERSION, CGS_GIT,
		 sizeof(struct cgs_shared), sizeof(struct cgs_group_rec),
		 sizeof(struct cgs_image_spec), sizeof(struct cgs_task_info),
		 sizeof(struct cgs_slot));
}

int cgs_maps_count(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	int n = 0, c;

	if (!f)
		return -errno;
	while ((c = getc_unlocked(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}
