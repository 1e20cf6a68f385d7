/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.h - the state of one `cgscale run` invocation, passed explicitly to
 * every part of it: the effective options, the tests and their options,
 * the topology and places, the governor, and the results being built.
 */
#ifndef CGS_RUN_H
#define CGS_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results/model/result.h"
#include "tests/workload.h"
#include "runner/run/env.h"
#include "runner/run/run_journal.h"
#include "lib/opt.h"
#include "runner/observe/observer.h"
#include "runner/core/sched_prio.h"
#include "runner/core/tasklist.h"
#include "runner/core/topo.h"
#include "runner/core/run_opts.h"

struct cgs_cgrun;

extern const struct cgs_opt cgs_run_optdefs[];
extern const size_t cgs_run_noptdefs;

struct cgs_run {
	struct cgs_run_opts o;
	void *wopts[64];                 /* per registry entry */
	const struct cgs_opt *wopt_given[64];  /* its first knob on the command
						* line (cgs_run_note_given) */
	const struct cgs_workload *tests[64];
	unsigned ntests;
	struct cgs_topo topo;
	struct cgs_tasklist tasks;
	struct cgs_places places;
	char tmpdir[PATH_MAX];
	bool tmp_fresh;                  /* tmpdir is a tmpfs of the run's own (freshtmp.h) */
	uint64_t tmp_size;               /* its size */
	char tmp_why[600];               /* why not, when --tmpdir was not given */
	char image[PATH_MAX];            /* image.h: the plain image, or "": */
	char image_why[PATH_MAX + 200];  /* why the tasks run in the runner's */
	char outpath[PATH_MAX];
	bool out_is_default;             /* results/runs/<stamp>/: ours to create */
	bool out_in_dir;                 /* -o DIR: the file name is ours to choose */
	struct cgs_rjournal journal;     /* run_journal.c: <outpath>.partial */
	struct cgs_governor gov;
	struct res_file res;
	int sigfd;
	int argc;
	char **argv;
	bool aslr_off;                   /* tasks run without ASLR */
	unsigned npoints_planned, npoints_done;
	int64_t started_ns;
	struct cgs_sampler_prio sprio;   /* what the sampler runs at */
	struct cgs_cgrun *cg;            /* cgrun.h: layouts, cgroups */
	unsigned inv_index, inv_of;      /* invoke.h: this invocation, i of K */
	char inv_series[33];             /* the series id of --invocations */
	struct cgs_obs_env obs_env;      /* what the observers see of the run */
	struct cgs_obs_run obs;          /* observer.h: their options and state */
};

/* The most option sets of `run`: its own in pieces, each observer's, each
 * workload's. */
#define CGS_RUN_MAX_SETS (CGS_MAX_OBS * 2 + 2 + 64)

/* runner/run/opts.c: allocate each workload's and observer's options
 * struct, put the option sets of `run` (its own, then each workload's with
 * knobs) into @sets (*nsets of them, at most CGS_RUN_MAX_SETS) and fill in
 * the defaults. 0, -ENOMEM, or -EINVAL when a default does not parse (an
 * internal error, said in @err). */
int cgs_run_optsets(struct cgs_run *r, struct cgs_optset *sets, size_t *nsets,
		    char *err, size_t errlen);
/* The sets of `run`'s own options: its table with each observer's rows
 * at their place (observer.h opts_after), the first titled "run options";
 * bases in @r (NULL: none, for the docs). Returns how many. */
size_t cgs_run_own_optsets(struct cgs_run *r, struct cgs_optset *sets);
/* After parsing: which workloads' knobs the command line gave, so that
 * a knob of a test that is not run is refused (cgs_run_validate). */
void cgs_run_note_given(struct cgs_run *r, const struct cgs_optset *sets,
			const struct cgs_opt *const *given, size_t nsets);
/* Free what cgs_run_optsets allocated and parsing put in @sets. */
void cgs_run_optsets_free(struct cgs_run *r, struct cgs_optset *sets, size_t nsets);
/* Can this box run test @t of @r with its options (its supported hook)?
 * 0, or -EOPNOTSUPP with the reason in @why: its points will be skipped. */
int cgs_run_test_supported(const struct cgs_run *r, unsigned t, char *why, size_t len);

/* Check the registry and the option tables; 0 or -EINVAL with @err. */
int cgs_run_check_registry(char *err, size_t errlen);
/* Check all input; 0 or -errno with a one-line message in @err. */
int cgs_run_validate(struct cgs_run *r, int argc, char **argv, int first,
		     char *err, size_t errlen);

/* A fresh state for `cgscale run` (runner/cmd/run.c) with its argv, for
 * the re-exec and the result's header; NULL without memory. Free it with
 * cgs_run_free, which frees the option sets @sets of its options too. */
struct cgs_run *cgs_run_new(int argc, char **argv);
void cgs_run_free(struct cgs_run *r, struct cgs_optset *sets, size_t nsets);

/* `cgscale run`, its options parsed into @r (cgs_run_optsets) and the
 * tests in argv[first..argc): check all input, run every point, write the
 * result. Returns the exit status (lib/exit.h). */
int cgs_run_main(struct cgs_run *r, int argc, char **argv, int first);

/* Run every point of @r in order (runner/run/points.c). 0, -EINTR with *@signo
 * when a signal stopped the run, or -errno. */
int cgs_run_all(struct cgs_run *r, int *signo);

/* output.c: the table, the CSV and the progress line. */
void cgs_print_table(const struct cgs_run *r, FILE *out);
/* will-it-scale's runtest.py CSV of one block: one test in one cgroup
 * layout, b = test * nlayouts + layout (output.c). */
void cgs_print_csv_block(const struct cgs_run *r, unsigned b, FILE *out);
/* --csv and --csv-dir (csv_out.c): refuse --csv with more than one block,
 * check the directory; then print the one block or write one file per
 * block. 0 or -errno with @err set. */
int cgs_csv_validate(const struct cgs_run *r, char *err, size_t errlen);
int cgs_csv_write(const struct cgs_run *r, char *err, size_t errlen);
void cgs_progress(const struct cgs_run *r, const struct res_point *p,
		  int64_t point_elapsed_ns);
void cgs_progress_done(const struct cgs_run *r);

#endif
