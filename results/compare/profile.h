/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - the profiles of two sides compared, in two units.
 *
 * In time per op (profile_ns.c, what the text, JSON and HTML show): each
 * function's self and children time per op is its share of the tasks'
 * samples x the tasks' CPU time per op (user + sys), one value per run,
 * with the sampling error of the share (binomial) propagated. The rows of
 * a point are ranked by |change in ns/op|, one row per function; their
 * self times add up to the CPU time per op, so the listed rows say how
 * much of the CPU time's change they explain. A verdict is on the ns/op,
 * never on the share: a function whose share falls only because another
 * one grew (diluted) keeps its time per op and is not SHRANK.
 *
 * In shares (profile.c, LKP's perf-profile.* lines of --format lkp): each
 * symbol's self and children share and LKP's call traces, in percentage
 * points of change.
 *
 * Both use the CI, p-value, Benjamini-Hochberg q and verdict machinery of
 * every other metric on the per-run values. Only keys at or above a floor
 * on either side are listed. Verdicts are GREW / SHRANK / NO_CHANGE /
 * INCONCLUSIVE; they explain the headline and never change compare's
 * exit status.
 */
#ifndef CGS_COMPARE_PROFILE_H
#define CGS_COMPARE_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "results/compare/model.h"

#define CMP_PROF_FLOOR 0.5        /* % of samples, on either side */
#define CMP_PROF_THRESHOLD 0.2    /* percentage points */
#define CMP_PROF_TRACE_DEPTH 5    /* frames in a call trace, as LKP */
#define CMP_PROF_ROWS 10          /* functions shown and summed per point */
#define CMP_PNS_TOP_MAX 64        /* most rows cmp_profile_top_ns returns */

enum cmp_prof_kind { CMP_PROF_SELF, CMP_PROF_CHILDREN, CMP_PROF_CALLTRACE };

struct cmp_prof_row {
	unsigned group, side;         /* r->groups[group], side >= 1 */
	enum cmp_prof_kind kind;
	char *sym;                    /* symbol, or the call trace a.b.c */
	size_t na, nb;                /* runs with a profile */
	double mean_a, mean_b;        /* % of samples */
	double cov_a, cov_b;          /* their CoV across runs, %, or NAN */
	struct cmp_delta d;           /* pct, lo, hi in percentage points */
	const char *verdict;          /* GREW, SHRANK, NO_CHANGE, INCONCLUSIVE */
};

/* ---- in time per op ---- */

/* One run's CPU time per op (user + sys) with the variance of its
 * measurement, its parts, and a task's wall time per op. */
struct cmp_run_cpu {
	double cpu, var, user, sys, wall;   /* ns/op; var in (ns/op)^2 */
	const char *src;                    /* where the CPU time comes from */
};

/* Run @p's CPU time per op: the account's schedstat run time (ns) where
 * it has one, else cputime's utime + stime (clock ticks: var is their
 * rounding). false when the run has neither. */
bool cmp_profile_run_cpu(const struct res_point *p, struct cmp_run_cpu *c);

/* The column the rows are ranked by (--profile-rank). */
enum cmp_pns_rank { CMP_PNS_BY_SELF, CMP_PNS_BY_CHILDREN };

/* One side's figures of one function or call path: means over its runs. */
struct cmp_pns_val {
	double self, children;         /* ns/op; self NAN for a call path */
	double self_se, children_se;   /* the sampling error of those means */
	double self_pct, children_pct; /* share of the samples, % */
};

struct cmp_pns_row {
	char *sym;                     /* a function, or a call path a;b;c */
	bool path;                     /* a call path (--profile-calltraces) */
	bool kernel;
	struct cmp_pns_val a, b;       /* the base side, the new side */
	/* B - A in ns/op: CI, p, q, verdict (pct, lo, hi hold ns/op here) */
	struct cmp_delta dself, dchildren;
	const char *vself, *vchildren; /* GREW, SHRANK, NO_CHANGE, INCONCLUSIVE */
};

/* One point and new side. */
struct cmp_pns_point {
	unsigned group, side;          /* r->groups[group], side >= 1 */
	size_t na, nb;                 /* runs with a profile and a CPU time */
	size_t nocpu_a, nocpu_b;       /* profiled runs without a CPU time */
	double cpu_a, cpu_b;           /* user + sys ns/op, means over the runs */
	double cpu_se_a, cpu_se_b;     /* its measurement error (clock ticks) */
	double user_a, user_b, sys_a, sys_b;
	double wall_a, wall_b;         /* wall ns/op of a task */
	double samples_a, samples_b;   /* samples received, all runs */
	const char *cpu_src;           /* where the CPU time comes from */
	double threshold_ns;           /* T: --profile-threshold % of cpu_a */
	char skew[1024];               /* the skew warning (lib/irqsite.h), or "" */
	struct cmp_pns_row *rows;      /* functions by |change|, then paths */
	size_t n, nfunc;               /* rows; of them functions (first) */
};

struct cmp_prof_opts {
	double floor, threshold;       /* % of samples; pp (% of CPU time) */
	enum cmp_pns_rank rank;
	bool calltraces;               /* call-path rows too */
	unsigned rows;                 /* functions shown and summed */
};

struct cmp_profile {
	double floor, threshold;
	struct cmp_prof_row *rows;    /* shares: by group, side, then |change| */
	size_t n;
	unsigned groups_with_profile;
	struct cmp_prof_opts o;
	struct cmp_pns_point *pts;    /* in time per op, by group and side */
	size_t npts;
};

extern const char *const cmp_prof_kind_names[];  /* self, children, calltrace */
extern const char *const cmp_pns_rank_names[];   /* self, children */

/* The default options: CMP_PROF_FLOOR, CMP_PROF_THRESHOLD, by self, no
 * call paths, CMP_PROF_ROWS rows. */
void cmp_prof_opts_default(struct cmp_prof_opts *o);

/*
 * Compare the "profile" sections of every common group of @r (analysed),
 * in shares and in time per op (results/compare/profile_ns.c). 0 (also
 * when no side has a profile: p->n == 0) or -ENOMEM.
 */
int cmp_profile_analyse_opts(const struct cmp_result *r,
			     const struct cmp_prof_opts *o, struct cmp_profile *p);
/* The same with the default options but @floor and @threshold. */
int cmp_profile_analyse(const struct cmp_result *r, double floor,
			double threshold, struct cmp_profile *p);
void cmp_profile_free(struct cmp_profile *p);

/* Point @group, new side @side in time per op, or NULL when its runs
 * have no profile with a CPU time per op. */
const struct cmp_pns_point *cmp_profile_point_ns(const struct cmp_profile *p,
						 unsigned group, unsigned side);

/* What the first rows of a point explain. */
struct cmp_pns_top {
	const struct cmp_pns_point *pt;
	const struct cmp_pns_row *row[CMP_PNS_TOP_MAX];
	size_t n;
	double explained_ns;           /* sum of the rows' change of self time */
	double explained_se;           /* its sampling error */
	double cpu_change_ns;          /* cpu_b - cpu_a: what all self times add to */
	double wall_change_ns;         /* wall_b - wall_a */
};

/*
 * The first @max functions (at most CMP_PNS_TOP_MAX) of point @group, new
 * side @side, by |change in ns/op| of the rank column, and the sum of
 * their change of self time against the change of the CPU time per op
 * (for "where the time went": "these 6 functions: +431 of +459 ns/op").
 * 0, or -ENOENT when that point has no profile in time per op.
 */
int cmp_profile_top_ns(const struct cmp_profile *p, unsigned group,
		       unsigned side, size_t max, struct cmp_pns_top *t);

/* results/compare/profile_ns_fmt.c: point @pt's explaining line
 * ("these N functions' self time: ...") for @t, on @out, after @lead. */
void cmp_pns_explain(const struct cmp_result *r, const struct cmp_pns_top *t,
		     const char *lead, FILE *out);

/* results/compare/profile_fmt.c: the rows, in text or in LKP's names. */
void cmp_profile_print(const struct cmp_result *r, const struct cmp_profile *p,
		       enum cmp_format f, FILE *out);

/* results/compare/profile_fmt.c: group @group's rows as LKP's perf-profile.*
 * lines in results/compare/lkp.c's columns (one change and value per new side). */
void cmp_profile_lkp_group(const struct cmp_result *r, const struct cmp_profile *p,
			   unsigned group, FILE *out);

/* results/compare/profile_fmt.c: the share rows as a JSON array
 * (--format json's "profile"). */
struct json_object *cmp_profile_json(const struct cmp_result *r,
				     const struct cmp_profile *p);

/* results/compare/profile_ns_fmt.c: the points in time per op with their
 * rows (--format json's "profile_ns"), and their text. */
struct json_object *cmp_profile_ns_json(const struct cmp_result *r,
					const struct cmp_profile *p);
void cmp_profile_ns_print(const struct cmp_result *r, const struct cmp_profile *p,
			  FILE *out);

/* Whether run @p's profile counts in group @g: ok, profiled, in @g, and
 * not disturbed (unless --keep-disturbed), as compare's own runs. */
bool cmp_profile_run_used(const struct cmp_result *r, const struct res_point *p,
			  const struct cmp_group *g);

/* A point's profile section, or NULL. */
struct json_object *cmp_point_profile(const struct res_point *p);
/* The sampling event of the baseline's first profiled point ("cpu-clock",
 * "cycles"...), or NULL when none was profiled. */
const char *cmp_profile_event(const struct cmp_result *r);

/* The array @key of a profile section, or NULL when absent or not one. */
struct json_object *cmp_profile_array(struct json_object *prof, const char *key);

struct cgs_stacks;
/* Add the section's folded stacks to @s, skipping malformed entries (a
 * result file is input). 0 or -ENOMEM. */
int cmp_profile_folded(struct json_object *prof, struct cgs_stacks *s);

#endif
