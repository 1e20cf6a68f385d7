/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cputime.c - the CPU-time observer: every task's user and system time
 * (utime and stime of /proc/PID/task/TID/stat, in clock ticks) read by the
 * runner at the sample that opens the measured window and once more when
 * the sampling ends (window_end), before the tasks stop: O(tasks) reads
 * twice a point, never per sample instant, and nothing added to the
 * tasks' loops. Over
 * the window they give sys_us_per_op and user_us_per_op (the "System"
 * time per page fault kernel developers quote), written to extra.cputime.
 * Only the tasks count: a workload's partners (sendfile's receivers) do
 * not. On by default (--no-cputime).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/macros.h"
#include "lib/procstat.h"
#include "runner/observe/edges.h"
#include "runner/observe/observer.h"

struct cpu_opts {
	bool off;                     /* --no-cputime */
};

struct cgs_cpuobs {
	unsigned n;
	int *fd;
	uint64_t *u[2], *s[2];        /* per task: window start, latest */
	struct cgs_edges e;           /* when they were read; off until ready */
	long hz;                      /* clock ticks per second */
	char err[160];                /* the first problem, or "" */
};

static void cpu_close(struct cgs_cpuobs *c)
{
	for (unsigned i = 0; i < c->n; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	free(c->fd);
	for (int k = 0; k < 2; k++) {
		free(c->u[k]);
		free(c->s[k]);
		c->u[k] = c->s[k] = NULL;
	}
	c->fd = NULL;
	c->n = 0;
}

static int cpu_ready(void *priv, unsigned ntasks, const int *pid,
		     const int *tid, char *msg, size_t len)
{
	struct cgs_cpuobs *c = priv;
	char path[64];

	(void)msg;
	(void)len;
	c->fd = calloc(ntasks, sizeof(*c->fd));
	for (int k = 0; k < 2; k++) {
		c->u[k] = calloc(ntasks, sizeof(uint64_t));
		c->s[k] = calloc(ntasks, sizeof(uint64_t));
		if (!c->u[k] || !c->s[k])
			return -ENOMEM;
	}
	if (!c->fd)
		return -ENOMEM;
	c->n = ntasks;
	for (unsigned i = 0; i < ntasks; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid[i], tid[i]);
		c->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (c->fd[i] < 0 && !c->err[0])
			snprintf(c->err, sizeof(c->err), "cannot open %s: %s", path,
				 strerror(errno));
	}
	c->e.off = !ntasks;
	return 0;    /* without CPU times the point still runs */
}

/* Every task's times at edge @which (edges.h's read). */
static int cpu_read_all(void *obs, int which)
{
	struct cgs_cpuobs *c = obs;
	char buf[1024];

	for (unsigned i = 0; i < c->n; i++) {
		ssize_t r = c->fd[i] >= 0 ? pread(c->fd[i], buf, sizeof(buf) - 1, 0) : -1;

		if (r > 0)
			buf[r] = 0;
		if (r <= 0 || cgs_taskstat_parse(buf, &c->u[which][i], &c->s[which][i])) {
			if (!c->err[0])
				snprintf(c->err, sizeof(c->err),
					 "a task's stat file could not be read at a sample");
			return r <= 0 ? -EIO : -EINVAL;
		}
	}
	return 0;
}

static void cpu_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
		       bool window_start)
{
	struct cgs_cpuobs *c = priv;

	(void)s;
	(void)ph;
	cgs_edges_sample(&c->e, window_start, t_ns, cpu_read_all, c);
}

static void cpu_window_end(void *priv, unsigned s, int64_t t_ns,
			   enum res_phase ph)
{
	struct cgs_cpuobs *c = priv;

	(void)s;
	cgs_edges_end(&c->e, ph, t_ns, cpu_read_all, c);
}

static void cpu_finish(void *priv, struct res_point *p)
{
	struct cgs_cpuobs *c = priv;
	struct json_object *o = json_object_new_object(), *tu, *ts;
	bool ok = p->status == RES_OK;
	uint64_t ops = ok ? p->sum.ops : 0, su = 0, ss = 0;
	double el = cgs_edges_seconds(&c->e), hz = (double)c->hz;

	if (!p->extra)
		p->extra = json_object_new_object();
	cgs_jadd(o, "source", json_object_new_string(
		"utime and stime of /proc/PID/task/TID/stat of each task"));
	cgs_jadd(o, "ticks_per_sec", json_object_new_int64(c->hz));
	if (!cgs_edges_both(&c->e)) {
		cgs_jadd(o, "error", json_object_new_string(c->err[0] ? c->err :
			 "the point ended before its measured window opened"));
		json_object_object_add(p->extra, "cputime", o);
		cpu_close(c);
		return;
	}
	tu = json_object_new_array();
	ts = json_object_new_array();
	for (unsigned i = 0; i < c->n; i++) {
		uint64_t du = c->u[1][i] - c->u[0][i], ds = c->s[1][i] - c->s[0][i];

		su += du;
		ss += ds;
		json_object_array_add(tu, json_object_new_double(du / hz));
		json_object_array_add(ts, json_object_new_double(ds / hz));
	}
	cgs_jadd(o, "elapsed_s", cgs_jnum(el));
	cgs_jadd(o, "ops", ok ? json_object_new_uint64(ops) : NULL);
	cgs_jadd(o, "user_s", json_object_new_double(su / hz));
	cgs_jadd(o, "sys_s", json_object_new_double(ss / hz));
	cgs_jadd(o, "user_us_per_op", ops ? cgs_jnum(su * 1e6 / hz / ops) : NULL);
	cgs_jadd(o, "sys_us_per_op", ops ? cgs_jnum(ss * 1e6 / hz / ops) : NULL);
	cgs_jadd(o, "cpus_used", cgs_jnum(el > 0 ? (su + ss) / hz / el : NAN));
	cgs_jadd(o, "task_user_s", tu);
	cgs_jadd(o, "task_sys_s", ts);
	json_object_object_add(p->extra, "cputime", o);
	cpu_close(c);
}

static int cpu_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		   void **priv)
{
	struct cgs_cpuobs *c = calloc(1, sizeof(*c));

	(void)ctx;
	(void)pt;
	if (!c)
		return -ENOMEM;
	c->hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	c->e.off = true;      /* no task to read until ready */
	*priv = c;
	return 0;
}

static void cpu_free(void *priv)
{
	struct cgs_cpuobs *c = priv;

	if (!c)
		return;
	cpu_close(c);
	free(c);
}

/* On unless --no-cputime. */
static bool cpu_wanted(const struct cgs_obs_ctx *ctx)
{
	const struct cpu_opts *o = ctx->opts;

	return !o->off;
}

static const struct cgs_opt cpu_optdefs[] = {
	OPT_BOOL("no-cputime", 0, struct cpu_opts, off,
		.help = "do not record the tasks' user and system CPU time per op"),
};

const struct cgs_obs_def cputime_observer = {
	.name = "cputime",
	.opts = cpu_optdefs,
	.nopts = ARRAY_SIZE(cpu_optdefs),
	.opts_size = sizeof(struct cpu_opts),
	.wanted = cpu_wanted,
	.new = cpu_new,
	.free = cpu_free,
	.ready = cpu_ready,
	.sample = cpu_sample,
	.window_end = cpu_window_end,
	.write = cpu_finish,
};
