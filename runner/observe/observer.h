/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * observer.h - what an observer is: one const record of hooks, filled
 * with designated initializers and listed once in runner/observe/list.h,
 * as a workload is in tests/. The runner checks every record at start-up
 * (cgs_obs_check) and drives them all the same way; it names none.
 *
 * Hook order, for one run:
 *   check(ctx)              every observer, once the options are parsed and
 *                           the topology is known (also before --dry-run)
 *   prepare(ctx)            every observer, before the first point
 *   preflight(ctx, cgroups) every observer, once the cgroup layouts are final
 *   per point, when wanted(ctx) or the point's workload names it:
 *     new(ctx, pt) -> ready -> sample ... -> window_end -> write -> free
 *   run_free(ctx)           every observer, at the end of the run
 * The point hooks (ready, sample, window_end, write) are those of struct
 * cgs_observer (runner/point/point.h), called with new's *priv.
 */
#ifndef CGS_OBSERVER_H
#define CGS_OBSERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/opt.h"
#include "results/model/result.h"
#include "results/model/sections.h"
#include "runner/core/run_opts.h"
#include "runner/core/tasklist.h"
#include "runner/core/topo.h"
#include "runner/point/point.h"
#include "tests/workload.h"

#define CGS_MAX_OBS 16

struct cgs_cgrun;

/* What every observer sees of the run; the runner fills it. */
struct cgs_obs_env {
	const struct cgs_run_opts *o;       /* the run's own options */
	const struct cgs_topo *topo;
	const struct cgs_places *places;    /* built after check */
	const struct cgs_tasklist *tasks;   /* the task counts */
	const struct cgs_workload *const *tests;   /* the run's tests */
	const unsigned *ntests;
	void *const *wopts;                 /* each workload's options, indexed
					     * like cgs_workloads[] */
};

/* One observer in one run. */
struct cgs_obs_ctx {
	const struct cgs_obs_def *def;
	const struct cgs_obs_env *env;
	const void *opts;                   /* its options struct, NULL: none */
	void *state;                        /* its own: check sets, run_free frees */
};

/* One point, as an observer's new sees it. */
struct cgs_obs_point {
	const struct cgs_workload *w;
	const void *wopts;                  /* the workload's options */
	bool threads;
	unsigned ntasks;
	const struct cgs_cgview *cg;        /* the point's cgroups, NULL: none */
};

struct cgs_obs_def {
	/* unique; the point's failure reason starts with it ("perf counters:
	 * ..."), and a workload names it (tests/workload.h .observer) */
	const char *name;
	/* its options (lib/opt.h), in a struct of opts_size bytes that the
	 * runner allocates and fills; shown in `run --help` after the run's
	 * option opts_after (NULL: after all of them), in list order */
	const struct cgs_opt *opts;
	size_t nopts;
	size_t opts_size;
	const char *opts_after;
	/* its hooks run before those of the point's cgroup observer
	 * (runner/cgroups/), so its section comes before "cgroup" in a
	 * point's extra */
	bool before_cgroup;

	/* Optional. Check the options (ctx->opts) against the topology and
	 * the task counts, and set up ctx->state. 0, or -errno with a
	 * one-line message in @err: bad input, the run exits 2. */
	int (*check)(struct cgs_obs_ctx *ctx, char *err, size_t errlen);
	/* Optional. Once before the first point (never in a dry run), in
	 * the process that runs the points: say what it found, load what is
	 * costly. */
	void (*prepare)(struct cgs_obs_ctx *ctx);
	/* Optional. After the cgroup layouts are final (@c, cgrun.h): the
	 * files it reads must be there. 0 or -errno with @err (exit 2). */
	int (*preflight)(struct cgs_obs_ctx *ctx, const struct cgs_cgrun *c,
			 char *err, size_t errlen);
	/* Optional. Free ctx->state, at the end of the run. */
	void (*run_free)(struct cgs_obs_ctx *ctx);

	/* Optional. Is it on for every point of this run? Asked after
	 * check. NULL: only for the points of workloads that name it. */
	bool (*wanted)(const struct cgs_obs_ctx *ctx);
	/* Required. Make its state for point @pt into *@priv, before the
	 * tasks start. 0 or -errno (the run stops). */
	int (*new)(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		   void **priv);
	/* Required. After the point, whatever happened: free @priv. */
	void (*free)(void *priv);

	/* The point hooks, as struct cgs_observer's (runner/point/point.h).
	 * ready (optional): all tasks wait at the gate; a failure fails the
	 * point. sample (optional): at every sample. window_end (optional):
	 * the sampling ended, the tasks still run. */
	cgs_obs_ready_fn *ready;
	cgs_obs_sample_fn *sample;
	cgs_obs_window_end_fn *window_end;
	/* Required. The tasks are gone (or the point failed: p->nsamples
	 * says how far it got): add its section to p->extra. */
	cgs_obs_write_fn *write;

	/* Optional. Its lines under a point's row in run's table, from the
	 * result file (the ok runs of one test, mode, tasks and layout). */
	void (*table_rows)(const struct res_file *f, const char *test,
			   const char *mode, unsigned tasks, const char *layout,
			   FILE *out);
	/* Optional. Its lines under the whole table, once (what its rows'
	 * figures mean on this box), from the result file. */
	void (*table_notes)(const struct res_file *f, FILE *out);

	/* Optional. Can this box give what it records? 0, with a note on how
	 * in @why when there is one to say ("software events only: no
	 * hardware PMU"), or -EOPNOTSUPP with the reason. `cgscale list`
	 * shows it; check still refuses the options this box cannot meet
	 * (exit 2). NULL: it records anywhere. */
	int (*supported)(char *why, size_t len);

	/* Optional. What its section holds for compare and the report: its
	 * metrics (name, unit, better, path) and the report's view of it
	 * (results/model/sections.h). The run writes it into the result
	 * file, where compare judges the metrics and the report draws the
	 * view: no line of its own in results/. */
	const struct res_section_decl *section;
};

/* For a table_rows hook: the sections at dotted @path of the ok runs of
 * one test, mode, task count and layout of @f, at most @max into @out.
 * Returns how many. */
unsigned cgs_obs_sections(const struct res_file *f, const char *path, const char *test,
			  const char *mode, unsigned tasks, const char *layout,
			  struct json_object **out, unsigned max);

/* The observers, in their stable order (runner/observe/list.h). */
extern const struct cgs_obs_def *const cgs_observers[];
extern const size_t cgs_nobservers;

/*
 * Check the records of @list: a name, unique; new, free and write; an
 * options table that agrees with its size and parses; opts_after naming
 * a row of @run (the run's own options); no option name or letter used
 * twice among @run and the observers. 0 or -EINVAL with @err.
 */
int cgs_obs_check(const struct cgs_obs_def *const *list, size_t n,
		  const struct cgs_opt *run, size_t nrun, char *err, size_t errlen);
/* The record of @list named @name, or NULL. */
const struct cgs_obs_def *cgs_obs_find(const struct cgs_obs_def *const *list,
				       size_t n, const char *name);

/* The observers of one run. */
struct cgs_obs_run {
	const struct cgs_obs_def *const *list;
	size_t n;
	void *opts[CGS_MAX_OBS];             /* each one's options struct */
	struct cgs_obs_ctx ctx[CGS_MAX_OBS];
};

/* The declared sections of the observers of @or (those with .section),
 * as a result file's "sections" object; NULL when none declares one. */
struct json_object *cgs_obs_sections_json(const struct cgs_obs_run *or);

/* Start the run's observers from @list (at most CGS_MAX_OBS) and allocate
 * their options structs. 0 or -ENOMEM (or -E2BIG). */
int cgs_obs_run_init(struct cgs_obs_run *or, const struct cgs_obs_def *const *list,
		     size_t n, const struct cgs_obs_env *env);
/* The option sets of those placed after run option @after (NULL: at the
 * end) into @sets, in list order, with their structs as bases (@or NULL:
 * no bases, for the docs, of cgs_observers). Returns how many. */
size_t cgs_obs_optsets(const struct cgs_obs_run *or, const char *after,
		       struct cgs_optset *sets);
/* Each observer's check, prepare and preflight in list order; the first
 * error stops (0 or -errno with @err). */
int cgs_obs_run_check(struct cgs_obs_run *or, char *err, size_t errlen);
void cgs_obs_run_prepare(struct cgs_obs_run *or);
int cgs_obs_run_preflight(struct cgs_obs_run *or, const struct cgs_cgrun *c,
			  char *err, size_t errlen);
/* run_free of each, and the options structs. */
void cgs_obs_run_free(struct cgs_obs_run *or);

/* One point's observers, in the order their hooks are called. */
struct cgs_obs_live {
	struct cgs_observer obs[CGS_MAX_OBS + 1];
	const struct cgs_obs_def *def[CGS_MAX_OBS + 1];   /* NULL: not ours */
	unsigned n;
};

/*
 * Make the observers of point @pt into @live: each one wanted, or named
 * by the point's workload, in list order, those before_cgroup first, then
 * @cg (the point's cgroup observer, NULL: none), then the others. 0 or
 * -errno; @live is freed by cgs_obs_point_end in any case.
 */
int cgs_obs_point_begin(const struct cgs_obs_run *or, const struct cgs_obs_point *pt,
			const struct cgs_observer *cg, struct cgs_obs_live *live);
void cgs_obs_point_end(struct cgs_obs_live *live);

/* The observers' table lines for one row of run's table, in list order. */
/* Every observer's table_notes, in list order. */
void cgs_obs_table_notes(const struct cgs_obs_def *const *list, size_t n,
			 const struct res_file *f, FILE *out);
void cgs_obs_table_rows(const struct cgs_obs_def *const *list, size_t n,
			const struct res_file *f, const char *test, const char *mode,
			unsigned tasks, const char *layout, FILE *out);

#endif
