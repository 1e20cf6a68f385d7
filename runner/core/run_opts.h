/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_opts.h - the effective options of one `cgscale run` as one plain
 * struct, filled by the option table of runner/run/opts.c (each observer
 * keeps its own options, runner/observe/observer.h). It sits in the
 * bottom room of the runner so that every part of a run (the cgroups, the
 * observers, the points) reads the options it needs from it, and none of
 * them needs the run's whole state (runner/run/run.h).
 */
#ifndef CGS_RUN_OPTS_H
#define CGS_RUN_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/opt.h"

enum cgs_mode { CGS_MODE_PROCESS, CGS_MODE_THREAD, CGS_MODE_BOTH };

#define CGS_RUNS_AUTO (-1)             /* --runs auto */

struct cgs_run_opts {
	char *tasks;
	int mode;
	int placement;
	int64_t warmup_ns, duration_ns, interval_ns;
	int64_t runs_asked;              /* --runs: N, or CGS_RUNS_AUTO */
	int64_t runs;                    /* the count: N, or --max-runs with auto */
	bool runs_auto;                  /* autoruns.c */
	int64_t max_runs, max_time_ns;
	int64_t invocations;             /* invoke.c: --invocations K */
	double threshold_pct;            /* --threshold T, % */
	char *output;
	char *csv_dir;                   /* --csv-dir: one CSV per test */
	char *tmpdir;
	bool csv, quiet, aslr, fail_fast;
	int sampler_priority;            /* sched_prio.h: rt or normal */
	int task_process;                /* runner/run/image.h: plain or runner */
	int64_t sampler_cpu;             /* sampler_cpu.h: a CPU, CGS_SCPU_AUTO or _NONE */
	int64_t cpustat_interval_ns;     /* /proc/stat at most this often */
	bool dry_run;                    /* dryrun.c: print the plan only */
	char *topology;                  /* topo_desc.h: NULL = this machine */
	char *governor;
	char *cgroup_depth;              /* cgrun.c: --cgroup-* */
	char *cgroup_parent;
	struct cgs_strlist cgroup_set;
	int cgroup_leaf;
};

extern const char *const cgs_mode_names[];

#endif
