/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - the profiles of two sides compared: every symbol's
 * self and children share of the samples, and LKP's call traces, one value
 * per run, as percentage points of change with the CI, p-value,
 * Benjamini-Hochberg q and verdict machinery of every other metric. Only
 * keys at or above a floor on either side are listed, largest change
 * first. Verdicts are GREW / SHRANK / NO_CHANGE / INCONCLUSIVE; they
 * explain the headline and never change compare's exit status.
 */
#ifndef CGS_COMPARE_PROFILE_H
#define CGS_COMPARE_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "results/compare/compare.h"

#define CMP_PROF_FLOOR 0.5        /* % of samples, on either side */
#define CMP_PROF_THRESHOLD 0.2    /* percentage points */
#define CMP_PROF_TRACE_DEPTH 5    /* frames in a call trace, as LKP */

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

struct cmp_profile {
	double floor, threshold;
	struct cmp_prof_row *rows;    /* by group, side, then |change| */
	size_t n;
	unsigned groups_with_profile;
};

extern const char *const cmp_prof_kind_names[];  /* self, children, calltrace */

/*
 * Compare the "profile" sections of every common group of @r (analysed).
 * 0 (also when no side has a profile: p->n == 0) or -ENOMEM.
 */
int cmp_profile_analyse(const struct cmp_result *r, double floor,
			double threshold, struct cmp_profile *p);
void cmp_profile_free(struct cmp_profile *p);

/* results/compare/profile_fmt.c: the rows, in text or in LKP's names. */
void cmp_profile_print(const struct cmp_result *r, const struct cmp_profile *p,
		       enum cmp_format f, FILE *out);

/* results/compare/profile_fmt.c: group @group's rows as LKP's perf-profile.*
 * lines in results/compare/lkp.c's columns (one change and value per new side). */
void cmp_profile_lkp_group(const struct cmp_result *r, const struct cmp_profile *p,
			   unsigned group, FILE *out);

/* results/compare/profile_fmt.c: the rows as a JSON array (--format json). */
struct json_object *cmp_profile_json(const struct cmp_result *r,
				     const struct cmp_profile *p);

/* Whether run @p's profile counts in group @g: ok, profiled, in @g, and
 * not disturbed (unless --keep-disturbed), as compare's own runs. */
bool cmp_profile_run_used(const struct cmp_result *r, const struct res_point *p,
			  const struct cmp_group *g);

/* A point's profile section, or NULL. */
struct json_object *cmp_point_profile(const struct res_point *p);

/* The array @key of a profile section, or NULL when absent or not one. */
struct json_object *cmp_profile_array(struct json_object *prof, const char *key);

struct cgs_stacks;
/* Add the section's folded stacks to @s, skipping malformed entries (a
 * result file is input). 0 or -ENOMEM. */
int cmp_profile_folded(struct json_object *prof, struct cgs_stacks *s);

#endif
