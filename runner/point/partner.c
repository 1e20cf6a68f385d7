/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * partner.c - a task's partner (see tests/partner.h): a thread in thread
 * mode, a child process of the task in process mode, bound next to the
 * task (to the CPU masks the runner made from its hwloc places), joined
 * with a bounded wait.
 *
 * Everything the task and its partner share (the start handshake, the
 * result, the message, the partner's aux counts and its copy of the
 * argument) lives in one MAP_SHARED anonymous mapping, so both modes work
 * the same way. It is unmapped at join, except when a thread partner would
 * not end: then it stays for that thread, and goes with the worker.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/cancel.h"
#include "lib/futex.h"
#include "lib/pdeath.h"
#include "runner/point/point.h"
#include "runner/point/task.h"

const char *const cgs_partner_place_names[] = {
	[CGS_PARTNER_SAME] = "same",
	[CGS_PARTNER_NEXT] = "next",
	[CGS_PARTNER_FREE] = "free",
	NULL,
};

enum { P_STARTING, P_RUNNING, P_FAILED };

#define QUIT_GRACE_NS 1000000000LL

struct cgs_partner {
	_Atomic uint32_t state;     /* futex word: P_* */
	_Atomic uint32_t done;      /* futex word: 1 once fn returned */
	_Atomic int quit;
	int rc;
	bool forked;
	pid_t pid;                  /* process mode */
	pthread_t th;               /* thread mode */
	int wstatus;
	bool reaped;
	char name[16];
	char msg[200];
	unsigned long *set;         /* where to bind, in this mapping, */
	size_t set_bytes;           /* set_bytes long; 0: leave as is */
	struct cgs_slot *slot;
	uint64_t aux[CGS_MAX_AUX];
	unsigned aux_used;          /* bit k: aux[k] is the partner's */
	cgs_partner_fn fn;
	size_t maplen;
	_Alignas(16) unsigned char arg[];
};

/* Wait until *w != @old or @deadline (monotonic ns); true if it changed. */
static bool wait_word(_Atomic uint32_t *w, uint32_t old, int64_t deadline)
{
	while (atomic_load(w) == old) {
		int64_t left = deadline - cgs_now_ns();
		struct timespec ts;

		if (left <= 0)
			return false;
		ts.tv_sec = left / 1000000000;
		ts.tv_nsec = left % 1000000000;
		cgs_futex_wait(w, old, &ts);
	}
	return true;
}

static void set_word(_Atomic uint32_t *w, uint32_t v)
{
	atomic_store(w, v);
	cgs_futex_wake(w, 1);
}

int cgs_partner_fail(struct cgs_partner *p, int err, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	if (err && n < sizeof(p->msg))
		snprintf(p->msg + n, sizeof(p->msg) - n, ": %s", strerror(-err));
	return err;
}

void cgs_partner_aux_add(struct cgs_partner *p, unsigned k, uint64_t n)
{
	p->aux[k] += n;
	p->aux_used |= 1u << k;
	atomic_store_explicit(&p->slot->aux[k], p->aux[k], memory_order_relaxed);
}

bool cgs_partner_quit(const struct cgs_partner *p)
{
	return atomic_load_explicit(&p->quit, memory_order_relaxed);
}

bool cgs_partner_forked(const struct cgs_partner *p)
{
	return p->forked;
}

/* The partner's life, in its thread or process: bind, say so, run. */
static void partner_main(struct cgs_partner *p)
{
	cgs_thread_async_cancel();
	prctl(PR_SET_NAME, p->name);
	if (p->set_bytes &&
	    sched_setaffinity(0, p->set_bytes, (const cpu_set_t *)p->set)) {
		p->rc = cgs_partner_fail(p, -errno, "binding to its CPUs");
		set_word(&p->state, P_FAILED);
		return;
	}
	set_word(&p->state, P_RUNNING);
	p->rc = p->fn(p, p->arg);
	set_word(&p->done, 1);
}

static void *partner_thread(void *arg)
{
	partner_main(arg);
	return NULL;
}

/*
 * The CPUs for @where into p->set, or none (set_bytes 0) to inherit the
 * task's (unbound task). "free" is the binding of the worker's main
 * thread, which never binds: the affinity the run started with.
 */
static int partner_set(struct cgs_task *t, enum cgs_partner_place where,
		       struct cgs_partner *p)
{
	const struct cgs_point_tasks *pt = cgs_rtask_of(t)->pt;
	const unsigned long *place = cgs_sh_mask(pt->sh, t->nr);
	size_t bytes = cgs_sh_image(pt->sh)->mask_words * sizeof(long);
	pid_t worker = pt->ctx.threads ? getpid() : getppid();

	if (!place)
		return 0;
	if (where == CGS_PARTNER_NEXT)
		place = cgs_sh_mask(pt->sh, t->nr + 1);
	if (where == CGS_PARTNER_FREE &&
	    sched_getaffinity(worker, bytes, (cpu_set_t *)p->set))
		return -errno;
	if (where != CGS_PARTNER_FREE)
		memcpy(p->set, place, bytes);
	p->set_bytes = bytes;
	return 0;
}

/* Start partner @p: a child process beside a task that is a process,
 * else a thread. */
static int partner_launch(struct cgs_task *t, struct cgs_partner *p)
{
	if (p->forked) {
		/* p is shared with the child: only the parent writes pid */
		pid_t parent = getpid(), pid = fork();

		if (pid == 0) {
			cgs_die_with_parent(parent);
			partner_main(p);
			_exit(p->rc ? 1 : 0);
		}
		if (pid < 0)
			return cgs_task_fail(t, -errno, "forking the partner");
		p->pid = pid;
	} else {
		int e = pthread_create(&p->th, NULL, partner_thread, p);

		if (e)
			return cgs_task_fail(t, -e, "starting the partner thread");
	}
	return 0;
}

int cgs_partner_start(struct cgs_task *t, enum cgs_partner_place where,
		      const char *name, cgs_partner_fn fn, const void *arg,
		      size_t argsize)
{
	struct cgs_rtask *rt = cgs_rtask_of(t);
	size_t argend = (sizeof(struct cgs_partner) + argsize + 15) & ~(size_t)15;
	size_t len = argend + cgs_sh_image(rt->pt->sh)->mask_words * sizeof(long);
	struct cgs_partner *p;
	int rc;

	if (rt->partner)
		return cgs_task_fail(t, -EBUSY, "a task has one partner at most");
	len = (len + 4095) & ~(size_t)4095;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return cgs_task_fail(t, -errno, "mapping the partner's state");
	p->maplen = len;
	p->fn = fn;
	p->set = (unsigned long *)((char *)p + argend);
	p->slot = rt->c.slot;
	p->forked = !t->ctx->threads;
	snprintf(p->name, sizeof(p->name), "%s", name);
	memcpy(p->arg, arg, argsize);
	rc = partner_set(t, where, p);
	if (rc) {
		cgs_task_fail(t, rc, "the CPUs for the %s partner", cgs_partner_place_names[where]);
		goto fail;
	}
	rc = partner_launch(t, p);
	if (rc)
		goto fail;
	rt->partner = p;
	/* it binds itself first: wait for that, so setup sees a failure */
	if (!wait_word(&p->state, P_STARTING, cgs_now_ns() + 10000000000LL) ||
	    atomic_load(&p->state) == P_FAILED) {
		rc = cgs_partner_join(t, QUIT_GRACE_NS);
		return rc ? rc : cgs_task_fail(t, -ETIMEDOUT, "the partner did not start");
	}
	return 0;
fail:
	munmap(p, p->maplen);
	return rc;
}

/* Has the process partner ended? Reaps it when it has. */
static bool child_gone(struct cgs_partner *p)
{
	if (!p->reaped && waitpid(p->pid, &p->wstatus, WNOHANG) == p->pid)
		p->reaped = true;
	return p->reaped;
}

bool cgs_partner_running(struct cgs_task *t)
{
	struct cgs_rtask *rt = cgs_rtask_of(t);
	struct cgs_partner *p = rt->partner;

	if (!p)
		return false;
	if (p->forked)
		return !child_gone(p);
	return !atomic_load(&p->done) && atomic_load(&p->state) != P_FAILED;
}

/* Wait for the partner to end until @deadline; true if it did. */
static bool partner_wait(struct cgs_partner *p, int64_t deadline)
{
	if (!p->forked)
		return atomic_load(&p->state) == P_FAILED ||
		       wait_word(&p->done, 0, deadline);
	while (!child_gone(p)) {
		struct timespec ts = { 0, 1000000 };

		if (cgs_now_ns() > deadline)
			return false;
		nanosleep(&ts, NULL);
	}
	return true;
}

/* The result of an ended partner; its message goes to the task's. */
static int partner_result(struct cgs_task *t, const struct cgs_partner *p)
{
	struct cgs_rtask *rt = cgs_rtask_of(t);
	int st = p->wstatus, rc = p->rc;
	char why[240] = "";

	if (p->forked && WIFSIGNALED(st)) {
		rc = -ECHILD;
		snprintf(why, sizeof(why), "was killed by signal %d (%s)",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	} else if (p->forked && WEXITSTATUS(st) && !rc) {
		rc = -ECHILD;
		snprintf(why, sizeof(why), "exited with status %d", WEXITSTATUS(st));
	} else if (rc) {
		snprintf(why, sizeof(why), "%s", p->msg[0] ? p->msg : strerror(-rc));
	}
	if (rc && !rt->msg[0])
		snprintf(rt->msg, rt->msglen, "partner %s (%s %d) %s%s", p->name,
			 p->forked ? "pid" : "thread of pid",
			 p->forked ? p->pid : getpid(),
			 p->rc && !WIFSIGNALED(st) ? "failed: " : "", why);
	return rc;
}

int cgs_partner_join(struct cgs_task *t, int64_t timeout_ns)
{
	struct cgs_rtask *rt = cgs_rtask_of(t);
	struct cgs_partner *p = rt->partner;
	bool ended, killed = false;
	int rc;

	if (!p)
		return 0;
	ended = partner_wait(p, cgs_now_ns() + timeout_ns);
	if (!ended) {
		atomic_store(&p->quit, 1);
		ended = partner_wait(p, cgs_now_ns() + QUIT_GRACE_NS);
	}
	if (!ended && p->forked && p->pid > 0) {
		kill(p->pid, SIGKILL);
		killed = partner_wait(p, cgs_now_ns() + 5 * QUIT_GRACE_NS);
	}
	for (unsigned k = 0; k < CGS_MAX_AUX; k++)
		if (p->aux_used & (1u << k))
			rt->c.aux[k] = p->aux[k];
	rt->partner = NULL;
	if (!ended) {
		rc = -ETIMEDOUT;
		if (!rt->msg[0])
			snprintf(rt->msg, rt->msglen, "partner %s did not end within %.1f s%s",
				 p->name, (timeout_ns + QUIT_GRACE_NS) / 1e9,
				 killed ? " and was killed" : "");
		rt->partner_err = rc;
		if (!killed) {
			/* a thread cannot be stopped from outside (nor a
			 * process in D state): leave its state mapped for
			 * it; the worker's end ends it */
			if (!p->forked)
				pthread_detach(p->th);
			return rc;
		}
	} else {
		if (!p->forked)
			pthread_join(p->th, NULL);
		rc = partner_result(t, p);
		if (rc)
			rt->partner_err = rc;
	}
	munmap(p, p->maplen);
	return rc;
}
