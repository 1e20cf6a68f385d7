/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * point.h - run one point (test, mode, task count): start the tasks,
 * release them together, sample every task's counter at timed instants,
 * stop them cooperatively and collect them. Also the sampling schedule
 * and the /proc/stat arithmetic, which are pure and unit-tested. The
 * idle, iowait and steal figures are of the CPUs the run may use
 * (cpustat.c), so that load outside them does not read as foreign load.
 */
#ifndef CGS_POINT_H
#define CGS_POINT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/util.h"
#include "results/model/result.h"
#include "tests/workload.h"
#include "runner/core/sched_prio.h"
#include "runner/point/task.h"
#include "runner/core/topo.h"

#define CGS_MAX_SAMPLES 200000

/* The hooks a point calls on each of its observers, in this order. */
/* All tasks wait at the gate; pid[i]/tid[i] per task. Returns 0 or
 * -errno with @msg: the point then fails with that reason. */
typedef int cgs_obs_ready_fn(void *priv, unsigned ntasks, const int *pid,
			     const int *tid, char *msg, size_t len);
/* Sample @s was just taken at @t_ns, of phase @ph. @window_start is true
 * at the sample that opens the measured window (the start or the last
 * warm-up sample): enable measurement-only counters there. */
typedef void cgs_obs_sample_fn(void *priv, unsigned s, int64_t t_ns,
			       enum res_phase ph, bool window_start);
/* The sampling ended (its last sample @s, at @t_ns, closes the measured
 * window when of phase RES_PHASE_MEASURE); the tasks have not been
 * stopped yet. For what is costly to read at every sample. */
typedef void cgs_obs_window_end_fn(void *priv, unsigned s, int64_t t_ns,
				   enum res_phase ph);
/* The tasks are gone: add sections to p->extra. Also called when the
 * point failed; p->nsamples says how far it got. */
typedef void cgs_obs_write_fn(void *priv, struct res_point *p);

/*
 * Something that watches a point from the runner: perf counters, cgroup
 * statistics, a stats reader. Every hook is optional.
 */
struct cgs_observer {
	const char *name;
	void *priv;
	cgs_obs_ready_fn *ready;
	cgs_obs_sample_fn *sample;
	cgs_obs_window_end_fn *window_end;
	cgs_obs_write_fn *finish;
};

struct cgs_point_spec {
	const struct cgs_workload *w;
	const void *wopts;
	const char *tmpdir;
	uint64_t fresh_tmp_bytes;          /* >0: a tmpfs of this size over /dev/shm
					    * in each worker's own namespace (lib/freshtmp.h) */
	bool threads;
	unsigned ntasks;
	const struct cgs_topo *topo;
	const struct cgs_places *places;
	int64_t warmup_ns, duration_ns, interval_ns;
	int64_t ready_timeout_ns;   /* for setup, before the gate */
	int64_t stop_timeout_ns;    /* for tasks to leave after stop */
	int sigfd;                  /* signalfd for SIGINT/SIGTERM, or -1 */
	/* groups of tasks, one worker each; ngroups == 0: one group of all */
	unsigned ngroups;
	const struct cgs_group *groups;
	cgs_group_enter_fn enter;   /* run in each worker first; may be NULL */
	void *enter_arg;
	struct cgs_observer *obs;   /* nobs observers */
	unsigned nobs;
	/* called after each sample, e.g. for a progress line; may be NULL */
	void (*tick)(void *arg, int64_t elapsed_ns);
	void *tick_arg;
	const struct cgs_cgview *cg;  /* the point's cgroups, or NULL: none */
	const char *image;          /* the plain image the workers exec (task.h) */
	const char *image_why;      /* image NULL: why the tasks run in the runner's */
	cgs_stat_locate_fn locate;  /* how a worker finds the workload's stat file */
	const struct cgs_sampler_prio *sprio;  /* sampling and stop; NULL: as is */
	int sampler_cpu;            /* sampler_cpu.h: CGS_SCPU_AUTO, _NONE or a CPU */
	int64_t cpustat_interval_ns;  /* /proc/stat at most this often; 0: every sample */
};

/*
 * Run one point into @p, whose test/mode/tasks the caller has set. The
 * outcome is in p->status ("ok", "failed", "skipped"). Returns 0, -EINTR
 * when a signal (*signo) interrupted it, or -errno when the runner itself
 * could not work (no memory, no fork).
 */
int cgs_point_run(const struct cgs_point_spec *spec, struct res_point *p,
		  int *signo);

/*
 * The sample instants, in ns after the gate opens: 0 (start), then every
 * interval through the warm-up, ending exactly at its end, then every
 * interval through the measurement, ending exactly at its end. With
 * @at == NULL only counts. Returns the number of instants.
 */
unsigned cgs_schedule(int64_t warmup, int64_t duration, int64_t interval,
		      int64_t *at, enum res_phase *phase);

/*
 * When planned sample @s is due, in CLOCK_MONOTONIC ns: warm-up instants
 * count from the gate (@t0); measurement instants count from the real time
 * of the sample that opened the window (@window_start, 0 while unknown),
 * so a late warm-up sample never shortens the measurement.
 */
int64_t cgs_sample_due(const int64_t *plan, const enum res_phase *phase,
		       unsigned s, int64_t t0, int64_t window_start);

/* Sleep until @when (monotonic ns) unless a signal arrives first on
 * signalfd @sigfd (-1: none): then -EINTR with its number in *@signo. */
int cgs_wait_until(int64_t when, int sigfd, int *signo);

/* One reading of /proc/stat, in jiffies: the machine's line, or the sum
 * of the lines of some CPUs. */
struct cgs_cpustat {
	uint64_t total, idle, iowait, steal;
};

/* Parse "cpu  user nice system idle iowait irq softirq steal ...". */
int cgs_cpustat_parse(const char *line, struct cgs_cpustat *out);

/* From the text of /proc/stat, the sum of the "cpuN ..." lines of the CPUs
 * in @cpus (os indexes), or with @cpus NULL the machine's first line;
 * *@found: how many lines went in (an offline CPU has none). Only whole
 * lines count. 0, -ENOENT when none of @cpus has one, -EINVAL. */
int cgs_cpustat_parse_cpus(const char *text, hwloc_const_bitmap_t cpus,
			   struct cgs_cpustat *out, unsigned *found);

/* Percentages of the interval between two readings; NAN when empty. */
void cgs_cpustat_pct(const struct cgs_cpustat *a, const struct cgs_cpustat *b,
		     double *idle, double *iowait, double *steal);

/*
 * /proc/stat in spans: read at the measured window's edges and at most
 * every @every ns between them (the kernel formats a line per CPU and a
 * count per interrupt for each read: costly on a big machine at a short
 * --interval). The samples since the last read get that span's
 * percentages, so the window's time-weighted mean is unchanged.
 */
struct cgs_cpustat_span {
	bool have;                  /* prev holds a reading */
	struct cgs_cpustat prev;
	int64_t prev_ns;
	unsigned prev_k;            /* the sample of that reading */
};

/* Is a read due at a sample taken at @now? Always at an @edge. */
bool cgs_cpustat_due(const struct cgs_cpustat_span *cs, int64_t now,
		     int64_t every, bool edge);

/* The reading @cur, at sample @k taken at @now: samples prev_k+1..k of
 * @idle, @iowait and @steal get its percentages. */
void cgs_cpustat_span_fill(struct cgs_cpustat_span *cs, const struct cgs_cpustat *cur,
			   int64_t now, unsigned k, double *idle, double *iowait,
			   double *steal);

#endif
