/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statread.c - the concurrent stats reader (--stat-reader HZ): a thread of
 * the runner, outside the measured tasks and pinned with hwloc, that reads
 * a cgroup statistics file whole HZ times a second while any workload
 * runs, and records every read's latency in a log-bucketed histogram.
 * Started when all tasks wait at the gate (its target is found from task
 * 0's cgroup), harvested at every sample instant, so the updates' ops/s
 * and the reads' latencies come from the same intervals, stopped at the
 * end, when it writes extra.stat_reader (results/SCHEMA.md).
 *
 * One read = open + pread from offset 0 until end of file + close of the
 * target file, timed with CLOCK_MONOTONIC around the whole of it. Reads
 * are due every 1/HZ from the start. When a read (or the wake-up before
 * it) is late, the one read then overdue follows at once and any due
 * instant before it is skipped and counted as missed, as a ticker that
 * keeps one pending tick: a slow read never causes a burst. A read
 * belongs to the interval in which it completed. Knobs: --stat-reader HZ,
 * --stat-reader-cpu, --stat-reader-file, --stat-reader-target; for tests,
 * CGSCALE_TEST_SR_LATE_MS delays the thread's first read by that long.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "results/stats/hist.h"
#include "runner/core/sampler_cpu.h"
#include "lib/macros.h"
#include "runner/observe/observer.h"
#include "runner/observe/profile/scope.h"
#include "runner/observe/statread/statread_int.h"
#include "lib/util.h"

/* Runner side: is the reader thread ours to stop? */
static void reader_stop(struct cgs_statread *sr)
{
	if (!sr->started)
		return;
	pthread_mutex_lock(&sr->mu);
	sr->stop = true;
	pthread_cond_broadcast(&sr->cv);
	pthread_mutex_unlock(&sr->mu);
	pthread_join(sr->th, NULL);
	sr->started = false;
}

static void abs_time(int64_t ns, struct timespec *ts)
{
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
}

/* In the reader thread: bind it, and tell the runner it runs. */
static int reader_bind(struct cgs_statread *sr)
{
	int rc = 0;

	if (sr->bind)
		rc = hwloc_set_cpubind(sr->topo->t, sr->bind, HWLOC_CPUBIND_THREAD |
				       HWLOC_CPUBIND_STRICT) ? -errno : 0;
	pthread_mutex_lock(&sr->mu);
	sr->bind_rc = rc;
	sr->running = true;
	pthread_cond_broadcast(&sr->cv);
	pthread_mutex_unlock(&sr->mu);
	return rc;
}

/* In the reader thread: account one read of @n bytes (or -errno) that
 * took t1..t2, into *@buf (swapped with the latest text), and when the
 * next is due. Under mu. */
static void reader_account(struct cgs_statread *sr, ssize_t n, int64_t t1,
			   int64_t t2, char **buf, size_t *cap, int64_t *next,
			   int64_t period)
{
	if (n >= 0) {
		char *b = sr->latest;
		size_t c = sr->latest_cap;

		res_hist_record(sr->cur, (uint64_t)(t2 - t1));
		sr->cur_bytes += (uint64_t)n;
		/* keep this text as the latest: swap the buffers */
		sr->latest = *buf;
		sr->latest_cap = *cap;
		sr->latest_done = t2;
		*buf = b;
		*cap = c;
	} else {
		sr->cur_errors++;
		if (!sr->first_error[0])
			snprintf(sr->first_error, sizeof(sr->first_error),
				 "a read of the file failed: %s", strerror((int)-n));
	}
	/* like a ticker that keeps one pending tick: a read that ends
	 * late is followed by one read at once, and only the due
	 * instants before that are skipped (counted as missed) */
	*next += period;
	if (t2 - *next >= period) {
		int64_t k = (t2 - *next) / period;

		sr->cur_missed += (uint64_t)k;
		*next += k * period;
	}
}

/* The reader thread. Everything it shares with the runner is under mu. */
static void *reader_main(void *arg)
{
	struct cgs_statread *sr = arg;
	int64_t period = 1000000000LL / sr->hz, next;
	char *buf = NULL;
	size_t cap = 0;

	/* named, so that --profile-scope tells its CPU time from the rest */
	pthread_setname_np(pthread_self(), CGS_SCOPE_READER_COMM);
	if (reader_bind(sr))
		return NULL;
	if (sr->late_ns) {   /* a test's stand-in for a reader starved at the start */
		struct timespec late = { sr->late_ns / 1000000000, sr->late_ns % 1000000000 };

		nanosleep(&late, NULL);
	}
	next = cgs_now_ns();
	for (;;) {
		struct timespec ts;
		int64_t t1, t2;
		ssize_t n;

		abs_time(next, &ts);
		pthread_mutex_lock(&sr->mu);
		while (!sr->stop && cgs_now_ns() < next)
			pthread_cond_timedwait(&sr->cv, &sr->mu, &ts);
		if (sr->stop) {
			pthread_mutex_unlock(&sr->mu);
			break;
		}
		pthread_mutex_unlock(&sr->mu);

		t1 = cgs_now_ns();
		n = cgs_stat_read(sr->where.path, &buf, &cap);
		t2 = cgs_now_ns();

		pthread_mutex_lock(&sr->mu);
		reader_account(sr, n, t1, t2, &buf, &cap, &next, period);
		pthread_mutex_unlock(&sr->mu);
	}
	free(buf);
	return NULL;
}

/* The CPU the reader goes on: the one asked for, or the last PU no task
 * is bound to; unbound when every PU has a task or tasks are unbound. */
static int choose_cpu(struct cgs_statread *sr, unsigned ntasks)
{
	int cpu = sr->cpu_asked;

	if (cpu < 0 && !sr->places->n) {
		snprintf(sr->cpu_note, sizeof(sr->cpu_note),
			 "unbound, as the tasks are (--placement none)");
		return 0;
	}
	if (cpu < 0) {
		cpu = cgs_last_free_cpu(sr->topo, sr->places, ntasks);
		if (cpu == -ENOMEM)
			return cpu;
		if (cpu < 0) {
			snprintf(sr->cpu_note, sizeof(sr->cpu_note),
				 "unbound: every CPU has a task (give --stat-reader-cpu to choose one)");
			return 0;
		}
		snprintf(sr->cpu_note, sizeof(sr->cpu_note), "the last CPU no task is bound to");
	} else {
		snprintf(sr->cpu_note, sizeof(sr->cpu_note), "--stat-reader-cpu");
	}
	sr->cpu = cpu;
	sr->bind = hwloc_bitmap_alloc();
	if (!sr->bind)
		return -ENOMEM;
	hwloc_bitmap_only(sr->bind, (unsigned)cpu);
	return 0;
}

/* All tasks are at the gate: find the target from task 0, read it once,
 * and start the thread. That read is the latest until the thread's own
 * first one: the content at the window's start is never missing, even
 * when the window opens with the gate (-w 0) before the thread has read
 * (a busy machine). Nothing runs between it and the gate. */
static int reader_ready(void *priv, unsigned ntasks, const int *pid,
			const int *tid, char *msg, size_t len)
{
	struct cgs_statread *sr = priv;
	pthread_condattr_t ca;
	ssize_t n;
	int rc;

	(void)tid;
	rc = cgs_stat_locate(pid[0], sr->file, sr->target, sr->cg, &sr->where,
			     msg, len);
	if (rc)
		return rc;
	n = cgs_stat_read(sr->where.path, &sr->latest, &sr->latest_cap);
	if (n < 0)
		return cgs_errf(msg, len, (int)n, "reading %s: %s", sr->where.path,
				strerror((int)-n));
	sr->latest_done = cgs_now_ns();
	rc = choose_cpu(sr, ntasks);
	if (rc)
		return rc;
	/* timed waits on CLOCK_MONOTONIC, the clock of the samples */
	if (pthread_condattr_init(&ca))
		return cgs_errf(msg, len, -ENOMEM, "cannot make the reader's condition variable");
	sr->cv_ready = !pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) &&
		       !pthread_cond_init(&sr->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (!sr->cv_ready)
		return cgs_errf(msg, len, -ENOMEM, "cannot make the reader's condition variable");
	rc = -pthread_create(&sr->th, NULL, reader_main, sr);
	if (rc)
		return cgs_errf(msg, len, rc, "cannot start the reader thread: %s",
				strerror(-rc));
	sr->started = true;
	pthread_mutex_lock(&sr->mu);
	while (!sr->running)
		pthread_cond_wait(&sr->cv, &sr->mu);
	rc = sr->bind_rc;
	pthread_mutex_unlock(&sr->mu);
	if (rc) {
		reader_stop(sr);
		return cgs_errf(msg, len, rc, "cannot bind the reader to CPU %d: %s",
				sr->cpu, strerror(-rc));
	}
	return 0;
}

/* Sample @s was taken: the reads since the last one make interval s. */
static void reader_sample(void *priv, unsigned s, int64_t t_ns,
			  enum res_phase ph, bool window_start)
{
	struct cgs_statread *sr = priv;
	struct cgs_sr_interval *iv;
	struct res_hist *done;
	char *text = NULL;
	int64_t age = 0;

	if (sr_intervals_grow(sr, s + 1))
		return;
	pthread_mutex_lock(&sr->mu);
	done = sr->cur;
	sr->cur = sr->spare;
	sr->spare = done;
	iv = &sr->iv[s];
	iv->errors = sr->cur_errors;
	iv->missed = sr->cur_missed;
	iv->bytes = sr->cur_bytes;
	sr->cur_errors = sr->cur_missed = sr->cur_bytes = 0;
	if ((window_start || ph == RES_PHASE_MEASURE) && sr->latest_done) {
		text = strdup(sr->latest);
		age = cgs_now_ns() - sr->latest_done;
	}
	pthread_mutex_unlock(&sr->mu);

	iv->t_ns = t_ns;
	iv->phase = ph;
	if (!s) {
		/* reads before the gate opened belong to no interval */
		iv->errors = iv->missed = iv->bytes = 0;
		res_hist_reset(done);
	}
	res_hist_summarise(done, &iv->sum);
	if (ph == RES_PHASE_MEASURE) {
		res_hist_merge(sr->point, done);
		sr->measured_ns += t_ns - sr->last_t_ns;
		sr->m_errors += iv->errors;
		sr->m_missed += iv->missed;
		sr->m_bytes += iv->bytes;
	}
	res_hist_reset(done);
	sr->last_t_ns = t_ns;
	sr->nsamples = s + 1;
	if (text) {
		sr_content_keep(sr, window_start ? 0 : 1, text, t_ns - age);
		free(text);
	}
}

static void reader_finish(void *priv, struct res_point *p)
{
	struct cgs_statread *sr = priv;

	reader_stop(sr);
	sr_add_json(sr, p);
}

static bool reader_wanted(const struct cgs_obs_ctx *ctx)
{
	const struct cgs_sr_opts *o = ctx->opts;

	return o->hz > 0;
}

static int reader_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		      void **priv)
{
	const struct cgs_sr_opts *o = ctx->opts;
	struct cgs_statread *sr = calloc(1, sizeof(*sr));
	const char *late;

	if (!sr || sr_alloc(sr)) {
		free(sr);
		return -ENOMEM;
	}
	sr->topo = ctx->env->topo;
	sr->places = ctx->env->places;
	sr->cg = pt->cg;
	sr->hz = o->hz;
	sr->cpu_asked = (int)o->cpu;
	sr->file = (enum cgs_stat_file)o->file;
	sr->target = (enum cgs_stat_target)o->target;
	late = getenv("CGSCALE_TEST_SR_LATE_MS");
	if (late)
		sr->late_ns = strtoll(late, NULL, 10) * 1000000;
	*priv = sr;
	return 0;
}

static void reader_free(void *priv)
{
	struct cgs_statread *sr = priv;

	if (!sr)
		return;
	reader_stop(sr);
	if (sr->cv_ready)
		pthread_cond_destroy(&sr->cv);
	sr_free(sr);
	free(sr);
}

/* --stat-reader-cpu names a CPU of this machine. */
static int reader_check(struct cgs_obs_ctx *ctx, char *err, size_t errlen)
{
	const struct cgs_sr_opts *o = ctx->opts;

	return sr_check_cpu((int)o->cpu, ctx->env->topo, err, errlen);
}

/* --stat-reader-file is in a hierarchy of our cgroups'. */
static int reader_preflight(struct cgs_obs_ctx *ctx, const struct cgs_cgrun *c,
			    char *err, size_t errlen)
{
	const struct cgs_sr_opts *o = ctx->opts;

	return o->hz ? sr_check_layouts(c, o->file, -1, err, errlen) : 0;
}

static const struct cgs_opt reader_optdefs[] = {
	OPT_INT("stat-reader", 0, struct cgs_sr_opts, hz, .def = "0", .min = 0,
		.max = 100000, .metavar = "HZ",
		.help = "a reader thread outside the tasks reads a cgroup stats file HZ times a second and reports each read's latency (0: off)"),
	OPT_INT_OR("stat-reader-cpu", 0, struct cgs_sr_opts, cpu, .def = "auto",
		.min = 0, .max = CGS_CPU_MAX, .keys = cgs_cpu_auto_keys,
		.metavar = "CPU", .bad = " is not a CPU number or auto",
		.help = "CPU the reader is bound to; auto: the last CPU no task is bound to"),
	OPT_ENUM("stat-reader-file", 0, struct cgs_sr_opts, file,
		.def = "memory.stat", .choices = cgs_stat_file_names,
		.help = "the file the reader reads"),
	OPT_ENUM("stat-reader-target", 0, struct cgs_sr_opts, target,
		.def = "top", .choices = cgs_stat_target_names,
		.help = "whose file: the tasks' cgroup, level 1 of cgscale's cgroups (covers the subtree), or their parent"),
};

const struct cgs_obs_def stat_reader_observer = {
	.name = "stat reader",
	.opts = reader_optdefs,
	.nopts = ARRAY_SIZE(reader_optdefs),
	.opts_size = sizeof(struct cgs_sr_opts),
	.check = reader_check,
	.preflight = reader_preflight,
	.wanted = reader_wanted,
	.new = reader_new,
	.free = reader_free,
	.ready = reader_ready,
	.sample = reader_sample,
	.write = reader_finish,
	.table_rows = cgs_statread_print_rows,
};
