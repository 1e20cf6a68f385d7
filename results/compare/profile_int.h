/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_int.h - what the profile comparison's files share inside
 * results/compare/: one run's profile loaded as sample counts per key,
 * the bootstrap of a difference of means, the seed of one key, and the
 * share analysis of profile.c that profile_ns.c runs first.
 */
#ifndef CGS_COMPARE_PROFILE_INT_H
#define CGS_COMPARE_PROFILE_INT_H

#include <stdint.h>

#include "lib/folded.h"
#include "results/compare/profile.h"

/* One run's profile: key ("self.x", "children.x", "calltrace.a.b") ->
 * samples, out of @recv; the names of its kernel symbols; its point. */
struct cmp_prof_run {
	struct cgs_stacks keys, kernel;
	double recv;
	const struct res_point *p;
};

/* The profiles of side @s's runs in group @g that compare uses. 0 or
 * -ENOMEM; free with cmp_prof_runs_free even on failure. */
int cmp_prof_side_runs(const struct cmp_result *r, const struct cmp_group *g,
		       unsigned s, struct cmp_prof_run **out, size_t *n);
void cmp_prof_runs_free(struct cmp_prof_run *v, size_t n);

/* The samples of @key in run @r (0 when it does not list it). */
double cmp_prof_count(const struct cmp_prof_run *r, const char *key);

/* The mean of @n values, NAN for none. */
double cmp_prof_mean(const double *v, size_t n);

/* Bootstrap CI of mean(b) - mean(a), its tails widened to Student's t
 * for small samples; NAN with fewer than 2 values a side. 0 or -ENOMEM. */
int cmp_prof_boot_diff(const double *a, size_t na, const double *b, size_t nb,
		       const struct cmp_opts *o, uint64_t seed, double *lo, double *hi);

/* The bootstrap seed of @key in group @gi, side @s: --seed, the point,
 * the key and the side, so that outputs repeat. */
uint64_t cmp_prof_seed(const struct cmp_result *r, unsigned gi, unsigned s,
		       const char *key);

/* cmp_judge writes its threshold as "T%": make it "T@unit" (" pp"). */
void cmp_prof_units(char *why, size_t len, double t, const char *unit);

/* GREW, SHRANK, NO_CHANGE or INCONCLUSIVE for a verdict of cmp_judge
 * (a metric whose higher is "better": up is GREW). */
const char *cmp_prof_verdict_name(enum cmp_verdict v);

/* The share rows of every common group into @p (profile.c). */
int cmp_prof_share_analyse(const struct cmp_result *r, struct cmp_profile *p);

#endif
