/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_page.h - what the files of the compare page share, in
 * results/report/compare_head.c: the page's top and environment diff, and the
 * table cells of a change; in compare_why.c, where the time went.
 */
#ifndef CGS_REPORT_CMP_H
#define CGS_REPORT_CMP_H

#include <stdio.h>

#include "results/compare/model.h"
#include "results/report/document.h"

/* The top of the page of @r (sides, settings, whether it can be
 * compared), the table of verdict counts, the notes and power warnings,
 * and the environment diff. */
void rpt_cmp_head(struct rpt_doc *d, const struct cmp_result *r);
void rpt_cmp_verdicts(FILE *o, const struct cmp_result *r);
void rpt_cmp_notes(FILE *o, const struct cmp_result *r);
void rpt_cmp_env(struct rpt_doc *d, const struct cmp_result *r);

/* "Where the time went" of every compared point (compare_why.c). */
void rpt_cmp_why(struct rpt_doc *d, const struct cmp_result *r);

void rpt_td_pct(FILE *o, double pct);   /* "+1.23", "x788", or "-" */
void rpt_td_p(FILE *o, double p);       /* "0.0123", "<0.0001" or "-" */

/* A verdict's cell, classed "v-regression" etc. for its colour. */
void rpt_td_verdict(FILE *o, enum cmp_verdict v);

#endif
