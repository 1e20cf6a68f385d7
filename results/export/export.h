/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.h - `cgscale export`: the result files as one tidy long table
 * (TSV, CSV, JSON lines; export.c) or as LKP's `key: value` stats
 * (results/compare/lkp_stats.c). results/SCHEMA.md documents the columns and the keys.
 */
#ifndef CGS_EXPORT_H
#define CGS_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "results/compare/model.h"

enum exp_format { EXP_TSV, EXP_CSV, EXP_JSONL, EXP_LKP_STATS };
extern const char *const exp_format_names[];

/* The workload options of @p as JSON text; "{}" when it has none. */
const char *exp_wopts_text(const struct res_point *p);

/* Every observation of the sides' files as one table, the disturbed runs
 * of a file the runner did not check marked first. 0, -ENOMEM or -EIO. */
int exp_write_table(FILE *out, enum exp_format fmt, struct cmp_side *sides,
		    unsigned nsides);


#endif
