/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt.h - helpers the human formats of `cgscale compare` share
 * (results/compare/fmt_util.c), and the lkp and mmtests printers.
 */
#ifndef CGS_COMPARE_FMT_H
#define CGS_COMPARE_FMT_H

#include <stdbool.h>
#include <stdio.h>

#include "results/compare/model.h"

/* "-" for NAN; whole above 100, else 4 significant digits. */
const char *cmp_fmt_num(char *buf, size_t len, double v);
/* A signed change: whole from 100, one decimal from 1, else 3 digits. */
const char *cmp_fmt_delta(char *buf, size_t len, double v);
/* A change of this many % or more is written as a ratio: +78700% is
 * "x788", never a percentage in the hundreds of thousands. */
#define CMP_RATIO_FROM_PCT 900.0
/* "+1.23%", "x788" from CMP_RATIO_FROM_PCT up, "-" for NAN. */
const char *cmp_fmt_pct(char *buf, size_t len, double v);
/* @d's change: cmp_fmt_pct of its %, or "from 0" (d->from_zero). */
const char *cmp_fmt_change(char *buf, size_t len, const struct cmp_delta *d);
/* "1.23", "-" for NAN. */
const char *cmp_fmt_cov(char *buf, size_t len, double v);
const char *cmp_fmt_pval(char *buf, size_t len, double p);
/* p (primary) or BH q (others) below alpha. */
bool cmp_fmt_significant(const struct cmp_result *r, const struct cmp_delta *d,
			 const struct cmp_metric *m);
void cmp_fmt_header(const struct cmp_result *r, FILE *out, const char *lead);
/* The environment differences and the axis; @md: as a markdown table. */
void cmp_fmt_env(const struct cmp_result *r, FILE *out, bool md);
void cmp_fmt_notes(const struct cmp_result *r, FILE *out, const char *lead);
void cmp_fmt_totals(const struct cmp_result *r, FILE *out, const char *lead);
/* Failed runs (fail:runs) and too few runs for the primary metric. */
void cmp_fmt_point_notes(const struct cmp_result *r, const struct cmp_group *g,
			 FILE *out, const char *lead);

/* LKP's ncompare layout (results/compare/lkp.c) and mmtests' compare-kernels
 * layout (results/compare/mmtests.c). */
void cmp_print_lkp(const struct cmp_result *r, FILE *out);
void cmp_print_mmtests(const struct cmp_result *r, FILE *out);

#endif
