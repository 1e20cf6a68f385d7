/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pmu.c - the perf counters observer (-e, --require-events) and its
 * hooks for one point.
 * When every task waits at the gate: one group per task (its pid in
 * process mode, its tid in thread mode), the leader disabled, read as
 * PERF_FORMAT_GROUP with TOTAL_TIME_ENABLED/RUNNING and ID. At the sample
 * that opens the measured window (after warm-up) every group is enabled;
 * at every sample instant each group is read with one read(). When the
 * point ends the groups are closed and pmu_report.c turns the readings
 * into the point's "perf" section. The runner does all of it: the tasks
 * run no perf code of ours.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/macros.h"
#include "lib/util.h"
#include "runner/observe/observer.h"
#include "runner/observe/pmu/pmu.h"

struct pmu_point {
	const struct pmu_set *set;
	bool threads;
	unsigned nsamples;     /* room for this many samples */
	unsigned ntasks;       /* 0 until ready */
	unsigned nread;        /* samples read so far */
	unsigned enabled_at;   /* the sample that enabled counting */
	int *fd;               /* ntasks x n, -1 when not open */
	uint64_t *id;          /* ntasks x n: the kernel's event ids */
	int *terr;             /* ntasks x n: 0, or why it does not count */
	int *leader;           /* per task: the group leader's fd, or -1 */
	int *target;           /* per task: the pid or tid counted */
	uint64_t *cum;         /* ntasks x nsamples x (n + 2) readings */
	uint64_t *buf;         /* one group read: nr, enabled, running, pairs */
	char *failure;         /* the first failure after ready */
};

static struct pmu_point *pmu_point_new(const struct pmu_set *s, bool threads,
				       unsigned nsamples)
{
	struct pmu_point *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return NULL;
	pp->set = s;
	pp->threads = threads;
	pp->nsamples = nsamples;
	pp->buf = calloc(3 + 2 * (size_t)s->n, sizeof(*pp->buf));
	if (!pp->buf) {
		free(pp);
		return NULL;
	}
	return pp;
}

/* Close every counter and forget the tasks. */
static void point_reset(struct pmu_point *pp)
{
	for (size_t i = 0; pp->fd && i < (size_t)pp->ntasks * pp->set->n; i++)
		if (pp->fd[i] >= 0)
			close(pp->fd[i]);
	free(pp->fd);
	free(pp->id);
	free(pp->terr);
	free(pp->leader);
	free(pp->target);
	free(pp->cum);
	free(pp->failure);
	pp->fd = pp->leader = pp->target = pp->terr = NULL;
	pp->id = pp->cum = NULL;
	pp->failure = NULL;
	pp->ntasks = pp->nread = pp->enabled_at = 0;
}

static void pmu_point_free(struct pmu_point *pp)
{
	if (!pp)
		return;
	point_reset(pp);
	free(pp->buf);
	free(pp);
}

static int perf_open(struct perf_event_attr *a, pid_t pid, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, -1, group,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Open task @i's group. 0, or -errno with @msg when the point must fail. */
static int open_task(struct pmu_point *pp, unsigned i, char *msg, size_t len)
{
	const struct pmu_set *s = pp->set;
	size_t at = (size_t)i * s->n;

	for (unsigned e = 0; e < s->n; e++) {
		struct perf_event_attr a = s->ev[e].attr;
		int fd;

		if (s->ev[e].err) {
			pp->terr[at + e] = s->ev[e].err;
			continue;
		}
		a.size = sizeof(a);
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = pp->leader[i] < 0;
		a.inherit = 0;
		fd = perf_open(&a, pp->target[i], pp->leader[i]);
		if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ID, &pp->id[at + e])) {
			int err = -errno;

			close(fd);
			fd = -1;
			errno = -err;
		}
		if (fd < 0) {
			int err = -errno;

			pp->terr[at + e] = err;
			if (err == -EMFILE || err == -ENFILE || s->require) {
				snprintf(msg, len, "task %u (%s %d): cannot open event %s: %s",
					 i, pp->threads ? "tid" : "pid", pp->target[i],
					 s->ev[e].name, strerror(-err));
				return err;
			}
			continue;
		}
		pp->fd[at + e] = fd;
		if (pp->leader[i] < 0)
			pp->leader[i] = fd;
	}
	return 0;
}

static int pmu_ready(void *priv, unsigned ntasks, const int *pid,
		     const int *tid, char *msg, size_t len)
{
	struct pmu_point *pp = priv;
	size_t n = (size_t)ntasks * pp->set->n;
	int rc = 0;

	point_reset(pp);
	pp->fd = malloc((n + 1) * sizeof(*pp->fd));
	pp->id = calloc(n + 1, sizeof(*pp->id));
	pp->terr = calloc(n + 1, sizeof(*pp->terr));
	pp->leader = malloc((ntasks + 1) * sizeof(*pp->leader));
	pp->target = calloc(ntasks + 1, sizeof(*pp->target));
	pp->cum = calloc((size_t)ntasks * pp->nsamples * (pp->set->n + 2) + 1,
			 sizeof(*pp->cum));
	if (!pp->fd || !pp->id || !pp->terr || !pp->leader || !pp->target || !pp->cum) {
		snprintf(msg, len, "out of memory for %u tasks' counters", ntasks);
		free(pp->fd);
		pp->fd = NULL;
		return -ENOMEM;
	}
	pp->ntasks = ntasks;
	for (size_t k = 0; k < n; k++)
		pp->fd[k] = -1;
	for (unsigned i = 0; i < ntasks; i++) {
		pp->leader[i] = -1;
		pp->target[i] = pp->threads ? tid[i] : pid[i];
	}
	for (unsigned i = 0; !rc && i < ntasks; i++)
		rc = open_task(pp, i, msg, len);
	return rc;
}

/* Task @i's counters stopped working: note why, count none of them. */
static void task_lost(struct pmu_point *pp, unsigned i, int err,
		      const char *what)
{
	for (unsigned e = 0; e < pp->set->n; e++)
		if (!pp->terr[(size_t)i * pp->set->n + e])
			pp->terr[(size_t)i * pp->set->n + e] = err;
	close(pp->leader[i]);
	for (unsigned e = 0; e < pp->set->n; e++)
		if (pp->fd[(size_t)i * pp->set->n + e] == pp->leader[i])
			pp->fd[(size_t)i * pp->set->n + e] = -1;
	pp->leader[i] = -1;
	if (!pp->failure)
		pp->failure = cgs_fmt("task %u: %s its counters: %s", i, what,
				      strerror(-err));
}

/* One read() of task @i's group into its readings of sample @s. */
static void read_task(struct pmu_point *pp, unsigned i, unsigned s)
{
	const struct pmu_set *set = pp->set;
	size_t want = (3 + 2 * (size_t)set->n) * sizeof(uint64_t);
	uint64_t *row = pp->cum + ((size_t)i * pp->nsamples + s) * (set->n + 2);
	const uint64_t *id = pp->id + (size_t)i * set->n;
	ssize_t got = read(pp->leader[i], pp->buf, want);

	if (got < (ssize_t)(3 * sizeof(uint64_t)) ||
	    (size_t)got < (3 + 2 * pp->buf[0]) * sizeof(uint64_t)) {
		task_lost(pp, i, got < 0 ? -errno : -EIO, "reading");
		return;
	}
	row[0] = pp->buf[1];
	row[1] = pp->buf[2];
	for (uint64_t k = 0; k < pp->buf[0]; k++)
		for (unsigned e = 0; e < set->n; e++)
			if (pp->fd[(size_t)i * set->n + e] >= 0 &&
			    id[e] == pp->buf[4 + 2 * k])
				row[2 + e] = pp->buf[3 + 2 * k];
}

static void pmu_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
		       bool window_start)
{
	struct pmu_point *pp = priv;

	(void)t_ns;
	(void)ph;
	if (!pp->cum || s >= pp->nsamples)
		return;
	for (unsigned i = 0; i < pp->ntasks; i++)
		if (pp->leader[i] >= 0)
			read_task(pp, i, s);
	pp->nread = s + 1;
	if (!window_start)
		return;
	pp->enabled_at = s;
	for (unsigned i = 0; i < pp->ntasks; i++)
		if (pp->leader[i] >= 0 &&
		    ioctl(pp->leader[i], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
			task_lost(pp, i, -errno, "enabling");
}

static void pmu_finish(void *priv, struct res_point *p)
{
	struct pmu_point *pp = priv;
	struct pmu_section ps = {
		.set = pp->set, .p = p, .ntasks = pp->ntasks,
		.nsamples = pp->nsamples, .enabled_at = pp->enabled_at,
		.nread = pp->nread < p->nsamples ? pp->nread : p->nsamples,
		.cum = pp->cum, .terr = pp->terr, .target = pp->target,
		.failure = pp->failure,
	};
	struct json_object *sec;

	if (pp->ntasks != p->ntasks)
		ps.ntasks = 0;     /* ready never came: only the event list */
	sec = pmu_section_json(&ps);
	if (sec && !p->extra)
		p->extra = json_object_new_object();
	if (sec && p->extra)
		json_object_object_add(p->extra, "perf", sec);
	else
		json_object_put(sec);
	point_reset(pp);
}

struct pmu_opts {
	char *events;                 /* -e */
	bool require;                 /* --require-events */
};

/* -e: names libpfm4 encodes, what counts here, room for the files. */
static int pmu_check(struct cgs_obs_ctx *ctx, char *err, size_t errlen)
{
	const struct pmu_opts *o = ctx->opts;
	const struct cgs_tasklist *tl = ctx->env->tasks;
	struct pmu_set *set = calloc(1, sizeof(*set));
	unsigned most = 0;
	int rc;

	if (!set)
		return -ENOMEM;
	ctx->state = set;
	set->require = o->require;
	rc = pmu_set_parse(set, o->events, err, errlen);
	if (rc || !set->n)
		return rc;
	rc = pmu_set_probe(set, err, errlen);
	for (unsigned k = 0; k < tl->n; k++)
		if (tl->v[k] > most)
			most = tl->v[k];
	return rc ? rc : pmu_set_nofile(set, most, err, errlen);
}

/* Counting on the runner itself: instructions (a hardware PMU), else
 * task-clock (software events only), else nothing (not allowed). */
static int pmu_supported(char *why, size_t len)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_HARDWARE,
				     .config = PERF_COUNT_HW_INSTRUCTIONS, .disabled = 1 };
	int fd = perf_open(&a, 0, -1), hw = fd < 0 ? errno : 0;

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	fd = perf_open(&a, 0, -1);
	if (fd < 0) {
		snprintf(why, len, "perf_event_open: %s%s", strerror(errno), errno == EACCES ||
			 errno == EPERM ? " (run as root, give CAP_PERFMON or lower "
			 "kernel.perf_event_paranoid)" : "");
		return -EOPNOTSUPP;
	}
	close(fd);
	snprintf(why, len, "software events only: no hardware PMU (instructions: %s), so "
		 "-e default's instructions, cycles and caches read <not supported>", strerror(hw));
	return 0;
}

/* Say which events cannot count here. */
static void pmu_prepare(struct cgs_obs_ctx *ctx)
{
	if (ctx->state)
		pmu_set_report(ctx->state);
}

static void pmu_run_free(struct cgs_obs_ctx *ctx)
{
	if (ctx->state)
		pmu_set_free(ctx->state);
	free(ctx->state);
	ctx->state = NULL;
}

static bool pmu_wanted(const struct cgs_obs_ctx *ctx)
{
	const struct pmu_set *set = ctx->state;

	return set && set->n;
}

static int pmu_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		   void **priv)
{
	const struct cgs_run_opts *o = ctx->env->o;

	*priv = pmu_point_new(ctx->state, pt->threads,
			      cgs_schedule(o->warmup_ns, o->duration_ns,
					   o->interval_ns, NULL, NULL));
	return *priv ? 0 : -ENOMEM;
}

static void pmu_free(void *priv)
{
	pmu_point_free(priv);
}

static const struct cgs_opt pmu_optdefs[] = {
	OPT_STRING("events", 'e', struct pmu_opts, events, .def = "none",
		.metavar = "LIST",
		.help = "perf counters per task, libpfm4 names (see 'cgscale events'): none, default, or e.g. cycles,instructions:u,page-faults"),
	OPT_BOOL("require-events", 0, struct pmu_opts, require,
		.help = "fail before running when an event of -e cannot count here"),
};

const struct cgs_obs_def pmu_observer = {
	.name = "perf counters",
	.opts = pmu_optdefs,
	.nopts = ARRAY_SIZE(pmu_optdefs),
	.opts_size = sizeof(struct pmu_opts),
	.opts_after = "cpustat-interval",
	.before_cgroup = true,
	.check = pmu_check,
	.supported = pmu_supported,
	.prepare = pmu_prepare,
	.run_free = pmu_run_free,
	.wanted = pmu_wanted,
	.new = pmu_new,
	.free = pmu_free,
	.ready = pmu_ready,
	.sample = pmu_sample,
	.write = pmu_finish,
	.table_rows = pmu_print_rows,
};
