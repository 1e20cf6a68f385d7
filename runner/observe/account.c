/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * account.c - the account observer: where each op's wall time went
 * (account.h). Every task's /proc/PID/task/TID/schedstat and stat are
 * read by the runner at the sample that opens the measured window and
 * when the sampling ends (window_end), before the tasks stop: two reads
 * per task twice a point, nothing per sample and nothing in the tasks'
 * loops (read_us in the section says what the reads took). Written to
 * extra.account: user, sys, run-queue and blocked ns per op, which add
 * up to the wall ns per op, with their spread across the tasks. Only the
 * tasks count, not a workload's partners. On by default (--no-account).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/kconfig.h"
#include "lib/macros.h"
#include "lib/procstat.h"
#include "lib/util.h"
#include "runner/observe/account.h"
#include "runner/observe/edges.h"
#include "runner/observe/observer.h"

struct acct_opts {
	bool off;                     /* --no-account */
};

struct acct_obs {
	unsigned n;
	int *fd_sched, *fd_stat;
	int *fd_psched;               /* /proc/.../sched, with schedstats; -1 */
	struct cgs_acct_task *t;
	struct cgs_edges e;           /* when they were read; off until ready */
	int64_t read_ns;              /* spent reading, both edges */
	char err[200];                /* the first problem, or "" */
	struct cgs_acct_clock clock;  /* how the kernel splits user and sys */
};

static void acct_close(struct acct_obs *a)
{
	for (unsigned i = 0; i < a->n; i++) {
		if (a->fd_sched[i] >= 0)
			close(a->fd_sched[i]);
		if (a->fd_stat[i] >= 0)
			close(a->fd_stat[i]);
		if (a->fd_psched[i] >= 0)
			close(a->fd_psched[i]);
	}
	free(a->fd_sched);
	free(a->fd_stat);
	free(a->fd_psched);
	free(a->t);
	a->fd_sched = a->fd_stat = a->fd_psched = NULL;
	a->t = NULL;
	a->n = 0;
}

static int open_task(const char *what, int pid, int tid, char *err, size_t len)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", pid, tid, what);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && !err[0])
		snprintf(err, len, "cannot open %s: %s", path, strerror(errno));
	return fd;
}

static int acct_ready(void *priv, unsigned ntasks, const int *pid,
		      const int *tid, char *msg, size_t len)
{
	struct acct_obs *a = priv;

	(void)msg;
	(void)len;
	a->fd_sched = malloc(ntasks * sizeof(int) + 1);
	a->fd_stat = malloc(ntasks * sizeof(int) + 1);
	a->fd_psched = malloc(ntasks * sizeof(int) + 1);
	a->t = calloc(ntasks + 1, sizeof(*a->t));
	if (!a->fd_sched || !a->fd_stat || !a->fd_psched || !a->t)
		return -ENOMEM;
	for (unsigned i = 0; i < ntasks; i++) {
		char none[1] = "";

		a->fd_sched[i] = open_task("schedstat", pid[i], tid[i], a->err, sizeof(a->err));
		a->fd_stat[i] = open_task("stat", pid[i], tid[i], a->err, sizeof(a->err));
		/* the sleep time, where the kernel keeps it; optional */
		a->fd_psched[i] = a->clock.schedstats == 1 ?
				  open_task("sched", pid[i], tid[i], none, sizeof(none)) : -1;
		a->t[i].sleep = a->fd_psched[i] >= 0;
		a->n = i + 1;
	}
	if (a->err[0])
		acct_close(a);    /* the point still runs, without an account */
	a->e.off = !a->n;
	return 0;
}

static int pread_text(int fd, char *buf, size_t len)
{
	ssize_t r = pread(fd, buf, len - 1, 0);

	if (r <= 0)
		return -EIO;
	buf[r] = 0;
	return 0;
}

static int read_edge(struct acct_obs *a, int k)
{
	char buf[4096];

	for (unsigned i = 0; i < a->n; i++) {
		struct cgs_acct_read *r = &a->t[i].at[k];

		if (pread_text(a->fd_sched[i], buf, sizeof(buf)) ||
		    cgs_schedstat_parse(buf, &r->run_ns, &r->wait_ns) ||
		    pread_text(a->fd_stat[i], buf, sizeof(buf)) ||
		    cgs_taskstat_parse(buf, &r->utime, &r->stime))
			return -EIO;
		if (a->t[i].sleep && (pread_text(a->fd_psched[i], buf, sizeof(buf)) ||
				      cgs_procsched_sleep(buf, &r->sleep_ns)))
			a->t[i].sleep = false;   /* blocked falls back to the rest */
	}
	return 0;
}

/* Edge @k of every task, timed (edges.h's read). */
static int acct_read(void *obs, int k)
{
	struct acct_obs *a = obs;
	int64_t t0 = cgs_now_ns();
	int rc = read_edge(a, k);

	if (rc && !a->err[0])
		snprintf(a->err, sizeof(a->err),
			 "a task's schedstat or stat file could not be read at an edge of the window");
	a->read_ns += cgs_now_ns() - t0;
	return rc;
}

static void acct_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
			bool window_start)
{
	struct acct_obs *a = priv;

	(void)s;
	(void)ph;
	cgs_edges_sample(&a->e, window_start, t_ns, acct_read, a);
}

static void acct_window_end(void *priv, unsigned s, int64_t t_ns, enum res_phase ph)
{
	struct acct_obs *a = priv;

	(void)s;
	cgs_edges_end(&a->e, ph, t_ns, acct_read, a);
}

/* Each task's ops over the measured intervals, as the summary counts. */
static void window_ops(struct acct_obs *a, const struct res_point *p)
{
	for (unsigned i = 0; i < a->n; i++) {
		a->t[i].ops = 0;
		for (unsigned k = 1; i < p->ntasks && k < p->nsamples; k++)
			if (p->phase[k] == RES_PHASE_MEASURE)
				a->t[i].ops += res_ops(p, i, k);
	}
}

/* The kernel reports 0 0 0 without CONFIG_SCHED_INFO: no account. */
static bool no_schedstat(const struct acct_obs *a)
{
	for (unsigned i = 0; i < a->n; i++)
		if (a->t[i].at[1].run_ns || a->t[i].at[1].wait_ns)
			return false;
	return true;
}

static void acct_finish(void *priv, struct res_point *p)
{
	struct acct_obs *a = priv;
	struct json_object *o = json_object_new_object();
	struct cgs_acct ac;

	if (!p->extra)
		p->extra = json_object_new_object();
	cgs_jadd(o, "source", json_object_new_string(
		"run and run-queue ns of /proc/PID/task/TID/schedstat, run split into user "
		"and sys by the utime:stime of its stat, of each task over the window; "
		"blocked: see blocked_source; split: how the kernel splits user and sys"));
	if (cgs_edges_both(&a->e) && no_schedstat(a))
		snprintf(a->err, sizeof(a->err), "<not supported>: schedstat reads 0 0 0 "
			 "(a kernel without CONFIG_SCHED_INFO)");
	if (!cgs_edges_both(&a->e) || p->status != RES_OK || a->err[0]) {
		cgs_jadd(o, "error", json_object_new_string(a->err[0] ? a->err :
			 p->status != RES_OK ? "the point is not ok" :
			 "the point ended before its measured window closed"));
		json_object_object_add(p->extra, "account", o);
		acct_close(a);
		return;
	}
	window_ops(a, p);
	cgs_acct_calc(a->t, a->n, (double)(a->e.t_ns[1] - a->e.t_ns[0]), &ac);
	cgs_acct_json(&ac, o);
	cgs_jadd(o, "split", cgs_acct_split_json(&ac, &a->clock));
	cgs_acct_blocked_json(&ac, &a->clock, o);
	cgs_jadd(o, "read_us", cgs_jnum(a->read_ns / 1e3));
	json_object_object_add(p->extra, "account", o);
	acct_close(a);
}

static int acct_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		    void **priv)
{
	struct acct_obs *a = calloc(1, sizeof(*a));

	(void)pt;
	if (!a)
		return -ENOMEM;
	if (ctx->state)
		a->clock = *(const struct cgs_acct_clock *)ctx->state;
	else
		cgs_acct_clock_of(NULL, &a->clock);
	a->e.off = true;      /* no task to read until ready */
	*priv = a;
	return 0;
}

/* Once a run: how the running kernel splits user and sys (its config). */
static void acct_prepare(struct cgs_obs_ctx *ctx)
{
	struct cgs_acct_clock *c = calloc(1, sizeof(*c));
	struct json_object *kc = NULL;
	struct utsname u;

	if (!c)
		return;
	if (!uname(&u))
		kc = cgs_kconfig_running(u.release);
	cgs_acct_clock_of(kc && cgs_jpath(kc, "options") ? kc : NULL, c);
	json_object_put(kc);
	c->schedstats = cgs_read_schedstats_sysctl();
	ctx->state = c;
}

/* schedstat for the run and run-queue times; how user and sys are split. */
static int acct_supported(char *why, size_t len)
{
	struct cgs_acct_clock c;
	struct json_object *kc = NULL;
	struct utsname u;
	char line[128];

	if (cgs_read_line("/proc/self/schedstat", line, sizeof(line))) {
		snprintf(why, len, "no /proc/PID/schedstat (a kernel without CONFIG_SCHED_INFO): "
			 "no run, run-queue or blocked time");
		return -EOPNOTSUPP;
	}
	if (!uname(&u))
		kc = cgs_kconfig_running(u.release);
	cgs_acct_clock_of(kc && cgs_jpath(kc, "options") ? kc : NULL, &c);
	json_object_put(kc);
	snprintf(why, len, "user and sys split %s (%s)", !strcmp(c.by, "exact") ? "exactly" :
		 !strcmp(c.by, "ticks") ? "by sampling the mode at the tick" : "by a clock not known",
		 c.config);
	return 0;
}

static void acct_run_free(struct cgs_obs_ctx *ctx)
{
	free(ctx->state);
	ctx->state = NULL;
}

static void acct_free(void *priv)
{
	struct acct_obs *a = priv;

	if (!a)
		return;
	acct_close(a);
	free(a);
}

/* Mean of the number at @key of @n sections. */
static double mean_of(struct json_object **sec, unsigned n, const char *key)
{
	double sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += cgs_jpath_num(sec[i], key);
	return n ? sum / n : NAN;
}

/* Under the point's row: the parts, and the user part's error a run. */
static void acct_rows(const struct res_file *f, const char *test, const char *mode,
		      unsigned tasks, const char *layout, FILE *out)
{
	struct json_object *sec[64];
	unsigned n = cgs_obs_sections(f, "account", test, mode, tasks, layout, sec, 64);
	double se;

	if (!n || !cgs_jpath(sec[0], "wall_ns_per_op"))
		return;
	fprintf(out, "  account (ns/op, mean of %u run%s): wall %.0f = user %.0f + sys %.0f + run-queue %.0f + blocked %.0f",
		n, n > 1 ? "s" : "", mean_of(sec, n, "wall_ns_per_op"), mean_of(sec, n, "user_ns_per_op"),
		mean_of(sec, n, "sys_ns_per_op"), mean_of(sec, n, "runq_ns_per_op"),
		mean_of(sec, n, "blocked_ns_per_op"));
	se = mean_of(sec, n, "split.user_se_ns_per_op");
	if (isfinite(se) && se > 0)
		fprintf(out, " (user/sys +-%.0f a run)", se);
	fprintf(out, "\n");
}

/* Once under the table: how the kernel split user and sys, what that
 * split cannot see, and where blocked came from (the first ok run's). */
static void acct_notes(const struct res_file *f, FILE *out)
{
	struct json_object *a = NULL;
	const char *by, *src;

	for (unsigned i = 0; i < f->npoints && !a; i++)
		if (f->points[i].status == RES_OK && f->points[i].extra &&
		    cgs_jpath(f->points[i].extra, "account.wall_ns_per_op"))
			a = cgs_jpath(f->points[i].extra, "account");
	if (!a)
		return;
	by = cgs_jpath_str(a, "split.by");
	if (by && !strcmp(by, "exact"))
		fprintf(out, "account: user/sys split exactly at each kernel entry and exit (%s).\n",
			cgs_jpath_str(a, "split.config"));
	else if (by)
		fprintf(out, "account: user/sys split by %s (%s): a change of user time within about two of a row's +-errors of 0 is not seen.\n",
			!strcmp(by, "ticks") ? "sampling the mode at the scheduler tick" : "a clock not known",
			cgs_jpath_str(a, "split.config"));
	src = cgs_jpath_str(a, "blocked_source");
	if (src)
		fprintf(out, "account: blocked is %s.\n", src);
}

/* On unless --no-account. */
static bool acct_wanted(const struct cgs_obs_ctx *ctx)
{
	const struct acct_opts *o = ctx->opts;

	return !o->off;
}

static const struct cgs_opt acct_optdefs[] = {
	OPT_BOOL("no-account", 0, struct acct_opts, off,
		.help = "do not split the tasks' wall time per op into user, sys, run-queue and blocked (schedstat)"),
};

const struct cgs_obs_def account_observer = {
	.name = "account",
	.opts = acct_optdefs,
	.nopts = ARRAY_SIZE(acct_optdefs),
	.opts_size = sizeof(struct acct_opts),
	.wanted = acct_wanted,
	.prepare = acct_prepare,
	.supported = acct_supported,
	.run_free = acct_run_free,
	.new = acct_new,
	.free = acct_free,
	.ready = acct_ready,
	.sample = acct_sample,
	.window_end = acct_window_end,
	.write = acct_finish,
	.table_rows = acct_rows,
	.table_notes = acct_notes,
};
