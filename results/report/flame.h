/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flame.h - flame graphs in the pages: one per point of a report
 * (all its ok runs merged) and a differential one per point and side of a
 * comparison (results/report/flame.c, results/report/flame_diff.c). Self-contained SVG
 * written by us: each frame's name, samples and % in a <title> for hover,
 * frames too narrow to label left blank; one inline script per page
 * (results/report/flame_js.c) adds search and click-to-zoom, nothing
 * fetched.
 */
#ifndef CGS_REPORT_FLAME_H
#define CGS_REPORT_FLAME_H

#include <stdio.h>

#include "lib/flametree.h"
#include "results/compare/model.h"
#include "results/report/document.h"

struct cmp_profile;
struct json_object;

/*
 * The SVG of @root's flame graph. With @base (the same kind of tree of
 * the baseline), a differential one: @root's shape, each frame coloured
 * by its change against the same path in @base (red grew, blue shrank,
 * deeper the more; the change is also in the label and the title, so grey
 * scale reads it). When both trees were merged with weights (their ns is
 * set: cgs_ftree_merge) the change is of the time per op, and a frame
 * whose change is within 2 sampling errors stays neutral; else it is of
 * the share of the samples.
 */
void rpt_flame_svg(FILE *out, const struct cgs_ftnode *root,
		   const struct cgs_ftnode *base);

/* The page's script of the flame graphs, once per page (flame_js.c). */
void rpt_flame_script(struct rpt_doc *d);

/* Add a profile's folded stacks to @root. 0 or -ENOMEM. */
int rpt_flame_add(struct cgs_ftnode *root, struct json_object *prof);

/* The report's figure of group @g's profile, when its runs have one. */
void rpt_flame_group(struct rpt_doc *d, const struct rpt_group *g);

/* A run's profile section: samples, mode, the top symbols. */
void rpt_profile_section(FILE *out, struct json_object *prof,
			 const char *caption);

/* compare --html: per point and side with profiles, the differential
 * flame graph and the table of the biggest changes with verdicts. */
void rpt_flame_compare(struct rpt_doc *d, const struct cmp_result *r,
		       const struct cmp_profile *p);

#endif
