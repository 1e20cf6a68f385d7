/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why.h - "where the time went": the block at the top of each compared
 * point, for one new side against the baseline, in ns per op. The
 * headline change of the wall time per op; its split into user, sys,
 * run-queue and blocked time (the account, which adds up to the wall);
 * the functions whose time per op changed most; the counters per op
 * that changed most (vmstat, the leaves' memory.stat, the tree's limit
 * events, flushes); the lock time per op. Every figure is a mean of the
 * side's runs, as compare's metrics; the verdicts are the metrics'. The
 * block explains the headline and decides nothing of its own.
 */
#ifndef CGS_COMPARE_WHY_H
#define CGS_COMPARE_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/compare/model.h"

#define CMP_WHY_NPART 4         /* user, sys, run-queue, blocked */
#define CMP_WHY_MAX 5           /* rows of each ranked list */
#define CMP_WHY_MIN_PER_OP 0.01   /* a counter whose change per op is below this is not listed */

/* One line of the block: a metric, a part or a function. */
struct cmp_why_row {
	const char *name;             /* points into the result or its profile */
	const char *unit;
	double a, b, d;               /* the means, and b - a */
	double d_children;            /* a function's children time, b - a; NAN */
	const struct cmp_delta *delta;   /* its metric's, or NULL */
	const char *verdict;          /* a function's: the profile's (GREW, ...), or NULL */
	bool appears;                 /* 0 on every run of one side only: kept under
				       * the floor (1 THP fault in 512 ops is news) */
};

struct cmp_why {
	unsigned group, side;
	const struct cmp_delta *head;    /* the primary metric's (per_task_ops) */
	const char *head_name;
	double wall_a, wall_b, wall_d;   /* ns/op */
	bool wall_from_account;          /* else 1e9 / per-task ops/s */
	double ops_wall_d;               /* the runs' 1e9 / per-task ops/s, b - a:
					  * what the parts must add up to */
	bool have_parts;
	struct cmp_why_row part[CMP_WHY_NPART];
	double parts_d;                  /* their sum */
	/* how the kernel split user and sys (the runs' account.split): its
	 * config, and the user part's change's error from it (1 SE, the
	 * sides' mean errors together); NULL / NAN when no run says */
	const char *split_by, *split_config;
	double user_se;
	/* the profile's split (its user-mode samples), where every run has a
	 * profile: the user change, its error, and whether it is finer */
	bool have_prof_split, prof_preferred;
	double prof_user_d, prof_user_se;
	/* how many errors (the two splits' together) the profile's user
	 * change lies from the kernel's, NAN unknown; biased: over 3, so the
	 * samples are not spread as the CPU time is on this box */
	double prof_apart;
	bool prof_biased;
	/* the profile's functions (results/compare/profile.h) whose change
	 * of self ns/op holds across the runs (its CI excludes 0), by size;
	 * the rest summed: within noise, and, in a skewed profile, at
	 * interrupt-enable sites (their callers' time, lib/irqsite.h) */
	struct cmp_why_row fn[CMP_WHY_MAX];
	unsigned nfn;
	double fn_d;                     /* the listed functions' sum */
	double fn_more_d;                /* holding, past the first CMP_WHY_MAX */
	double fn_noise_d;               /* whose CI includes 0 */
	double fn_skew_d;                /* at interrupt-enable sites, skewed */
	unsigned nfn_noise;
	const char *fn_how;              /* NULL: no profile */
	const char *fn_event;            /* the profile's sampling event, or NULL */
	/* the point's own cgroups' counters (memcg.*, flushes), then the
	 * machine's (proc-vmstat.*: neighbours count too) */
	struct cmp_why_row ctr[CMP_WHY_MAX], sys_ctr[CMP_WHY_MAX];
	unsigned nctr, nsys_ctr;
	struct cmp_why_row lock[CMP_WHY_MAX];
	unsigned nlock;
	/* the work outside the tasks, per who (--profile-scope: who.*) */
	struct cmp_why_row who[CMP_WHY_MAX];
	unsigned nwho;
	/* the --stat-reader thread's own functions (stat_reader.fn.*) */
	struct cmp_why_row reader[CMP_WHY_MAX];
	unsigned nreader;
};

/* How the kernel split user and sys for @w's parts and what error that
 * gives their change, one line into @buf (names escaped); false when the
 * results do not say. */
bool cmp_why_split_text(const struct cmp_why *w, char *buf, size_t len);

/* The same for the profile's split, where every run was profiled. */
bool cmp_why_prof_split_text(const struct cmp_why *w, char *buf, size_t len);

/* The block of @group (common) for side @side (>= 1) of analysed @r. */
void cmp_why_point(const struct cmp_result *r, unsigned group, unsigned side,
		   struct cmp_why *w);

/* @rows without those whose |d| is below @min (but for those that
 * appeared or vanished on every run), sorted by |d| (times,
 * which add up to the headline) or, @by_ratio, by how many times they
 * grew or shrank (counts of different things: a counter that appeared
 * or vanished first), then |d|, then name; returns how many to list, at
 * most @max. Pure. */
size_t cmp_why_rank(struct cmp_why_row *rows, size_t n, size_t max, double min,
		    bool by_ratio);

/* The block as text, each line led by @lead (results/compare/why_fmt.c),
 * and as a JSON object. */
void cmp_why_print(const struct cmp_result *r, const struct cmp_why *w, FILE *out,
		   const char *lead);
struct json_object *cmp_why_json(const struct cmp_result *r, const struct cmp_why *w);

/* The blocks of every new side of group @g, for the text and the JSON. */
void cmp_why_print_group(const struct cmp_result *r, unsigned g, FILE *out,
			 const char *lead);
struct json_object *cmp_why_json_group(const struct cmp_result *r, unsigned g);

#endif
