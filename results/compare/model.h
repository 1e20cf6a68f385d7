/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h - the data model of results/compare/, shared by every file of
 * it (compare.c is one of them: the analysis), and by `show`, `export`
 * and the report: `cgscale compare` loads the sides (a
 * result file or a directory of them each), diff their environments,
 * group the runs by point, compute per-metric statistics and verdicts,
 * and print them in one of several formats. results/COMPARE.md explains
 * the output, the statistics and the exit codes.
 *
 * The metrics are one const table (cmp_base_metrics[], results/compare/metrics.c):
 * a new metric is one line, either with an extractor function or with a
 * dotted path to a number in a point's extra sections (e.g. "perf.ipc").
 * A comparison's own set (struct cmp_mset) adds one "aux.NAME" metric per
 * aux counter its inputs have, named and with the unit the results give.
 */
#ifndef CGS_COMPARE_MODEL_H
#define CGS_COMPARE_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/exit.h"
#include "lib/opt.h"
#include "results/stats/boot2.h"
#include "results/model/result.h"
#include "results/model/sections.h"
#include "results/stats/stats.h"

struct json_object;

/* Exit statuses of compare (see --help and COMPARE.md): the values of
 * lib/exit.h, under the names of what compare means by them. */
#define CMP_EXIT_OK CGS_EXIT_OK
#define CMP_EXIT_REGRESSION CGS_EXIT_FAIL
#define CMP_EXIT_BADINPUT CGS_EXIT_BADINPUT
#define CMP_EXIT_INCOMPARABLE CGS_EXIT_INCOMPARABLE
#define CMP_EXIT_INCONCLUSIVE CGS_EXIT_INCONCLUSIVE
#define CMP_EXIT_BISECT_SKIP CGS_EXIT_BISECT_SKIP
#define CMP_EXIT_BISECT_ABORT CGS_EXIT_BISECT_ABORT

#define CMP_MAX_METRICS 128
#define CMP_MAX_DECL 24     /* metrics the files' sections declare (declared.c) */
#define CMP_MAX_FAMILY 16   /* rows of NAME families (family.c) in one set */
#define CMP_MAX_SIDES 26
#define CMP_MIN_CLEAN 3   /* clean runs a side needs when some were disturbed */
/* The method of a delta's interval (results/compare/inv.c). */
enum cmp_ci { CMP_CI_NONE, CMP_CI_RANK, CMP_CI_WELCH_LOG };

enum cmp_class { CMP_PRIMARY, CMP_SECONDARY, CMP_TAIL, CMP_NCLASS };
extern const char *const cmp_class_names[];

enum cmp_verdict {
	CMP_NO_CHANGE, CMP_IMPROVEMENT, CMP_REGRESSION, CMP_NOISY,
	CMP_INCONCLUSIVE, CMP_NVERDICT
};
extern const char *const cmp_verdict_names[];

struct cmp_metric {
	const char *name;         /* e.g. "per_task_ops" */
	const char *unit;         /* e.g. "ops/s" */
	const char *desc;
	int dir;                  /* +1 higher is better, -1 lower is better */
	enum cmp_class cls;       /* picks the default threshold */
	/* the value of one run, NAN when absent; NULL: use extra_path */
	double (*get)(const struct res_point *p);
	const char *extra_path;   /* dotted path to a number in p->extra */
	const char *aux;          /* an aux counter's name: its rate per task */
};
/* The metrics every comparison has; the row with a NULL name marks where
 * the aux counters' metrics go. A path ending in "|0" reads a key that is
 * absent from a section that is there as 0 (a counter that did not
 * move). A count per op (unit "/op") that is 0 on every run of both
 * sides is not compared. */
extern const struct cmp_metric cmp_base_metrics[];
extern const size_t cmp_nbase_metrics;

/* Rules between two metrics of a point (results/compare/metrics.c),
 * applied once every verdict of the point is known (compare.c):
 * cmp_part_rules: @metric is a part of @of (user time of the wall time):
 *   its verdict is on its change as a share of @of's baseline mean, so a
 *   near-zero part that doubles is no regression (cmp_judge_part);
 * cmp_cap_rules: @metric is a percentile of a distribution whose total
 *   per op is @of: a percentile that fell while the total rose is no
 *   IMPROVEMENT (cmp_judge_cap). */
struct cmp_rule {
	const char *metric, *of;
};
extern const struct cmp_rule cmp_part_rules[], cmp_cap_rules[];
extern const size_t cmp_npart_rules, cmp_ncap_rules;

/* The metrics of one comparison: the base table with the marker replaced
 * by one "aux.NAME" row per aux counter name of the inputs, in the order
 * first seen. Names and units point into the inputs (or aux_name). */
struct cmp_mset {
	struct cmp_metric m[CMP_MAX_METRICS];
	size_t n;
	unsigned naux;
	char aux_name[CMP_MAX_METRICS][72];   /* "aux.NAME" */
	const char *aux_src[CMP_MAX_METRICS], *aux_unit[CMP_MAX_METRICS];
	/* a family row ("lock_wait.NAME", extra_path an object of numbers)
	 * is followed by one row per key its inputs' objects hold */
	unsigned nfam;
	unsigned fam_base[CMP_MAX_FAMILY];    /* the family's base row */
	char fam_name[CMP_MAX_FAMILY][128];   /* "lock_wait.KEY" */
	char fam_path[CMP_MAX_FAMILY][256];   /* "PATH/KEY": KEY is one key */
	/* the metrics the files' sections declare (results/model/sections.h),
	 * after every other row; the first file to declare a name wins */
	unsigned ndecl;
	struct cmp_decl {
		char name[RES_DECL_NAME_MAX + 1], unit[RES_DECL_UNIT_MAX + 1];
		char desc[RES_DECL_DESC_MAX + 1], path[RES_DECL_PATH_MAX + 1];
		int dir;
		enum cmp_class cls;
	} decl[CMP_MAX_DECL];
	unsigned ndecl_refused;               /* declared, but not taken: why below */
	char decl_why[200];                   /* the first refusal's reason */
};

/* ---- declared.c ---- */

/* Take the metrics that @f's sections declare into @ms (checked, see
 * results/model/sections.h; a name of @base, a family of it, aux.* or an
 * earlier declaration is not taken again). Call mset's assembly after. */
void cmp_decl_add_file(struct cmp_mset *ms, const struct res_file *f,
		       const struct cmp_metric *base, size_t nbase);
/* Append the declared rows to ms->m at *@n. */
void cmp_decl_expand(struct cmp_mset *ms, size_t *n);

/* ---- family.c ---- */

/* Is @name a family row ("PREFIX.NAME")? Its prefix length, else 0. */
size_t cmp_family_prefix(const char *name);
/* Is @name one of the @n rows of @base, or a member of one of its
 * families ("lock_wait.KEY" of "lock_wait.NAME")? */
bool cmp_base_has(const struct cmp_metric *base, size_t n, const char *name);
/* Add the keys of @p's objects for the family rows of table @base (the
 * first CMP_MAX_FAMILY in all; the objects list the most telling first). */
void cmp_family_add_point(struct cmp_mset *ms, const struct res_point *p,
			  const struct cmp_metric *base, size_t nbase);
/* After row @b of @base in @ms->m (at *@n), its family's rows. */
void cmp_family_expand(struct cmp_mset *ms, const struct cmp_metric *base, size_t b,
		       size_t *n);

/* @ms as the base table alone, then with the aux counters of @f's points
 * added. cmp_mset_add fails with -E2BIG when CMP_MAX_METRICS would not
 * hold them. */
void cmp_mset_init(struct cmp_mset *ms);
int cmp_mset_add(struct cmp_mset *ms, const struct res_file *f);
int cmp_mset_add_point(struct cmp_mset *ms, const struct res_point *p);

/* The index of the metric named @name in @ms, or -1. */
int cmp_mset_find(const struct cmp_mset *ms, const char *name);

/* @r->ms from @r's inputs, then @r->o.metric_off from --metrics
 * (@r->o.metrics), whose aux.NAME entries can be checked only now: an
 * unknown one is an error said in @err. Called first by cmp_analyse. */
struct cmp_result;
int cmp_mset_build(struct cmp_result *r, char *err, size_t errlen);

/* A metric's value for one point, NAN when absent. */
double cmp_metric_value(const struct cmp_metric *m, const struct res_point *p);

enum cmp_format { CMP_FMT_TEXT, CMP_FMT_LKP, CMP_FMT_MMTESTS, CMP_FMT_MARKDOWN,
		  CMP_FMT_JSON };
extern const char *const cmp_format_names[];

struct cmp_opts {
	double threshold[CMP_NCLASS];  /* % per class */
	double max_cov;                /* %, NOISY above */
	double alpha;                  /* CI level is 1 - alpha */
	bool welch;                    /* Welch's t for p (MWU otherwise) */
	const char *axis;              /* "kernel", "cgroup" or a field */
	bool axis_given;               /* --axis on the command line: the
					* sides must differ along it */
	bool allow_env_diff;
	uint64_t seed;
	unsigned resamples;
	bool fail_on_inconclusive;     /* exit 4 when nothing is decided */
	bool bisect;                   /* git bisect run codes */
	bool keep_unmeasured;          /* show: a file without a measured
					* point is not an error */
	bool keep_disturbed;           /* use disturbed runs (disturb.h) */
	const char *metrics;           /* --metrics: compare only these */
	bool metric_off[CMP_MAX_METRICS];   /* set by cmp_analyse from it */
};

/* Fill @o with the documented defaults. */
void cmp_opts_default(struct cmp_opts *o);

struct cmp_file {
	char *path;
	struct res_file res;
};

struct cmp_side {
	char label[4];             /* "A", "B", ... */
	char *arg;                 /* the argument as given */
	char *name;                /* basename of arg, without .json */
	struct cmp_file *files;
	unsigned nfiles;
	char **inv_ids;            /* the invocations seen (results/compare/inv.c) */
	unsigned ninv;
};

/* Load every result file of @arg (a file, or a directory searched
 * recursively for *.json) into @s. 0 or -errno with @err set. */
int cmp_side_load(struct cmp_side *s, const char *arg, char *err,
		  size_t errlen);
void cmp_side_free(struct cmp_side *s);

/* One side's runs of one point. */
struct cmp_cell {
	unsigned runs, ok;            /* points seen / ok and measured */
	unsigned disturbed;           /* ok runs left out as disturbed */
	const char *fail_reason;      /* of one failed or skipped point */
	const char *layout;           /* the cgroup layout of these runs */
	double *v[CMP_MAX_METRICS];   /* one value per ok run */
	unsigned *inv[CMP_MAX_METRICS];  /* the invocation of each value */
	size_t n[CMP_MAX_METRICS];
	struct st_desc d[CMP_MAX_METRICS];
	double drift_pct;             /* mean within-run drift, NAN */
	unsigned ndrift;              /* runs with a drift figure */
};

/* One metric of one point, a non-baseline side against the baseline. */
struct cmp_delta {
	bool valid;                   /* values on both sides */
	double threshold;             /* T, % */
	int dir;                      /* the metric's: -1 lower is better, else higher */
	double pct, lo, hi;           /* % change of B against A and its CI,
				       * plain: + means the value went up */
	struct st_test mwu, welch;
	double p, q;                  /* p used (MWU or Welch); BH q or NAN */
	double min_p;                 /* best p these units can give (MWU) */
	unsigned units[2];            /* units of replication, base and new:
				       * runs, or invocations when two_level */
	unsigned needs;               /* units a side a decision needs at
				       * alpha when fewer were given; else 0 */
	enum cmp_ci ci;               /* how lo, hi were found */
	unsigned runs_needed;         /* per side, for T at the noise seen */
	double hl_pct, hl_lo, hl_hi;  /* Hodges-Lehmann shift, rank CI, plain */
	bool one_outlier;             /* a noisy side is quiet without its
				       * single most extreme run */
	bool by_rank;                 /* the verdict comes from the rank CI */
	bool two_level;               /* a side has several invocations: the
				       * units are the invocation means */
	struct st_vc vc[2];           /* base, new: between and within */
	enum cmp_verdict verdict;
	char why[120];                /* why this verdict, short */
	bool from_zero;               /* 0 on every run of the baseline, above
				       * 0 on every run of this side: no %,
				       * judged on the test alone */
	bool to_zero;                 /* the reverse: above 0 on every run of
				       * the baseline, 0 on every run here */
	bool sporadic;                /* 0 on some run of either side: BH
				       * within the sporadic family, and the
				       * p of an all-or-nothing one is
				       * Fisher's exact (COMPARE.md) */
	bool capped;                  /* a percentile whose total went the
				       * other way (cmp_judge_cap): no effect */
};

/* Benjamini-Hochberg q of the non-NULL @d (the non-primary metrics of
 * one point and side), within two families: the sporadic ones (0 on some
 * run, which alone can be all-or-nothing) and the rest. The family
 * follows from the pooled runs, not from which side a run is on, so each
 * family's false discovery rate stays at most alpha. 0 or -ENOMEM. */
int cmp_bh_families(struct cmp_delta *const *d, size_t n);

struct cmp_group {
	char *test, *mode, *layout, *wopts;  /* layout: NULL with axis cgroup */
	unsigned tasks;
	struct cmp_cell *cell;        /* [nsides] */
	struct cmp_delta *delta;      /* [nsides * ms.n]; side 0 unused */
	bool common;                  /* the baseline and a new side have runs */
};

struct cmp_envrow {
	char *field;
	bool critical, axis, differs, mixed;
	bool hidden;                  /* never printed in text (options.output) */
	char **val;                   /* [nsides]; NULL: absent */
};

struct cmp_profile;

struct cmp_result {
	struct cmp_opts o;
	struct cmp_mset ms;           /* the metrics, set by cmp_analyse */
	struct cmp_side *sides;
	unsigned nsides;
	struct cmp_group *groups;
	unsigned ngroups;
	struct cmp_envrow *env;
	unsigned nenv;
	char **notes;                 /* warnings for the reader */
	unsigned nnotes;
	unsigned count[CMP_NVERDICT];
	char problem[1024];           /* why the inputs cannot be compared */
	const struct cmp_profile *prof;  /* results/compare/profile.h; NULL: none */
};

static inline struct cmp_delta *cmp_delta_of(const struct cmp_result *r,
					     const struct cmp_group *g,
					     unsigned side, unsigned metric)
{
	return &g->delta[side * r->ms.n + metric];
}

/* A point's workload options as "k=v,k=v", keys sorted, so that key
 * order never splits a group (results/compare/env.c); NULL on ENOMEM. */
char *cmp_canon_wopts(struct json_object *o);

/* The cgroup layout of a point: extra.cgroup.layout (or extra.cgroup when
 * it is a string), "none" when absent. */
const char *cmp_point_layout(const struct res_point *p);

/* Whether run @p counts in group @g: ok, in @g, and not disturbed
 * (unless --keep-disturbed), as the comparison's own values. */
bool cmp_run_used(const struct cmp_result *r, const struct res_point *p,
		  const struct cmp_group *g);

/* The group @p belongs to, or NULL (after cmp_analyse). */
struct cmp_group *cmp_group_of(const struct cmp_result *r,
			       const struct res_point *p);

/* The runs of file @f of side @s added to r's groups (results/compare/group.c),
 * with notes on an incomplete file or a summary that disagrees with its
 * samples. 0, -ENODATA with @err when no point was measured (and no
 * --keep-unmeasured), or -ENOMEM. Called by cmp_analyse. */
int cmp_add_file(struct cmp_result *r, unsigned s, struct cmp_file *f,
		 char *err, size_t errlen);

/* Append to r->problem (why the inputs cannot be compared), printf-like;
 * what does not fit is dropped. results/compare/env_axis.c */
void cmp_problem(struct cmp_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* 0, or -EXDEV with r->problem when an --axis given on the command line
 * has nothing that differs along it (an A/A passed off as a comparison). */
int cmp_env_axis_differs(struct cmp_result *r);

/* Add a formatted note to @r. 0 or -ENOMEM. */
int cmp_note(struct cmp_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The environment diff (results/compare/env.c): fill r->env, check the axis and
 * the critical fields. Returns 0, -EINVAL with @err for an unknown axis,
 * or -EXDEV with r->problem set when critical fields differ (and
 * --allow-env-diff was not given; with it they become notes).
 */
int cmp_env_diff(struct cmp_result *r, char *err, size_t errlen);

/* After the rows are collected (results/compare/env_kernel.c): the kernel
 * config's rows first, notes on a debug option of one side only, on TCG
 * results and on the boots of `cgscale ab` that are missing. 0 or -ENOMEM. */
int cmp_env_kernel(struct cmp_result *r);

/*
 * Group, describe and judge (compare.c). r->sides and r->o must be set.
 * Returns 0, -EXDEV with r->problem set when inputs cannot be compared
 * (environment, or no point in common), -ENODATA with @err naming the file
 * that has no measured point, -EINVAL (bad axis), or -ENOMEM.
 */
int cmp_analyse(struct cmp_result *r, char *err, size_t errlen);

void cmp_result_free(struct cmp_result *r);

/* The exit status for the verdicts in @r (0, 1, 4; 0, 1, 125 with
 * --bisect). */
int cmp_exit_status(const struct cmp_result *r);

/* The figures of metric @m (of class and direction @mt) of cell @b against
 * cell @a into @d: the % change, the declared test's p on the units of
 * replication, the interval and the Hodges-Lehmann shift, as compare
 * computes them for every point (compare.c). The cells' d[m] must be
 * described. 0 or -ENOMEM. */
int cmp_delta_cells(const struct cmp_cell *a, const struct cmp_cell *b,
		    size_t m, const struct cmp_metric *mt,
		    const struct cmp_opts *o, struct cmp_delta *d);

/* The verdict of @d from its interval, d->dir and the sides' noise
 * (pure): an interval beyond T on the metric's worse side (below -T when
 * higher is better, above +T when lower is better) is a REGRESSION. */
enum cmp_verdict cmp_judge(struct cmp_delta *d, enum cmp_class cls,
			   double cov_base, double cov_new, size_t nbase,
			   size_t nnew, const struct cmp_opts *o);

/* Rules of cmp_part_rules and cmp_cap_rules (judge.c), on a judged @d.
 * cmp_judge_part: @d of a part whose sides are @a and @b, of a whole whose
 * baseline mean is @whole: a part never above T% of @whole is NO_CHANGE;
 * else the verdict of its interval scaled to a share of @whole.
 * cmp_judge_cap: an IMPROVEMENT of @d becomes INCONCLUSIVE when @total
 * (the metric @total_name) went the worse way. */
void cmp_judge_part(struct cmp_delta *d, enum cmp_class cls, const struct st_desc *a,
		    const struct st_desc *b, double whole, const struct cmp_opts *o);
void cmp_judge_cap(struct cmp_delta *d, const struct cmp_delta *total,
		   const char *total_name);

/*
 * What the plain change of @d means for its metric (results/compare/judge.c),
 * the one vocabulary of every format: "worse" or "better" for a
 * REGRESSION or an IMPROVEMENT, and for a change beyond +-T that is not
 * decided (INCONCLUSIVE, NOISY) the side it lies on; "-" for a change
 * within +-T, a NO_CHANGE, or no change at all. The verdict says whether
 * it is decided.
 */
const char *cmp_effect(const struct cmp_delta *d);
/* The one-line legend of the change column, in the text, --help and HTML. */
#define CMP_SIGN_LEGEND \
	"+ means the value went up; better/worse says what that means for the metric"

/*
 * Invocations (results/compare/inv.c). cmp_inv_id: the index in @s of the
 * invocation of @f (its invocation.id, else its path: one file, one
 * invocation), added when new; 0 or -ENOMEM. cmp_inv_ci: the declared
 * test and the raw CI of metric @m on its units of replication: the runs,
 * or the invocation means when a side has 2 or more invocations
 * (d->two_level, d->vc): d->mwu, d->welch, d->p, d->min_p, d->units,
 * d->needs, and d->lo, d->hi by d->ci: the Hodges-Lehmann rank interval
 * of the units (Welch's t on their logs with --welch). cmp_inv_count: the distinct invocations of @n values.
 */
int cmp_inv_id(struct cmp_side *s, const struct cmp_file *f, unsigned *id);
int cmp_inv_ci(const struct cmp_cell *a, const struct cmp_cell *b, size_t m,
	       const struct cmp_opts *o, struct cmp_delta *d);
unsigned cmp_inv_count(const unsigned *inv, size_t n);
/* The text line on the invocations of @g's primary metric, side @s. */
void cmp_inv_print(const struct cmp_result *r, const struct cmp_group *g,
		   unsigned s, size_t m, FILE *out, const char *lead);
/* The invocation figures of @d for the JSON output (a new object). */
struct json_object *cmp_inv_json(const struct cmp_result *r,
				 const struct cmp_group *g, unsigned s, size_t m);

/* Output (results/compare/fmt.c, results/compare/json.c). 0 or -errno. */
int cmp_print(const struct cmp_result *r, enum cmp_format f, FILE *out);
int cmp_print_json(const struct cmp_result *r, FILE *out);
int cmp_write_junit(const struct cmp_result *r, const char *path, char *err,
		    size_t errlen);

/* Human name of a group: "page_fault3 process tasks=2". */
void cmp_group_name(const struct cmp_group *g, char *buf, size_t len);

#endif
