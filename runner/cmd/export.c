/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.c - the `cgscale export` command line: pick the format, load
 * every input before writing anything, then write the table (export.c) or
 * the LKP stats (results/export/lkp.c) to stdout; or a profile's folded stacks
 * (results/export/folded.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/util.h"
#include "results/compare/compare.h"
#include "results/export/export.h"
#include "results/export/folded.h"

struct exp_opts {
	bool tsv, folded;
	int format;
	char *point, *out_dir;
};

const struct cgs_opt cmp_export_optdefs[] = {
	OPT_ENUM("format", 'f', struct exp_opts, format, .def = "tsv",
		.choices = exp_format_names,
		.help = "tidy long table as TSV, CSV or JSON lines, or LKP's key: value stats"),
	OPT_BOOL("tsv", 0, struct exp_opts, tsv,
		.help = "the same as --format tsv"),
	OPT_BOOL("folded", 0, struct exp_opts, folded,
		.help = "instead: a profiled point's collapsed stacks (run --profile), runs merged, for flamegraph.pl, inferno, speedscope"),
	OPT_STRING("point", 0, struct exp_opts, point,
		.metavar = "TEST:MODE:TASKS[:LAYOUT]",
		.help = "--folded: the point, when the files hold several"),
	OPT_STRING("out-dir", 0, struct exp_opts, out_dir, .metavar = "DIR",
		.help = "--folded: one file per run and point in DIR instead (TEST-MODE-TASKS[-LAYOUT]-runN.folded)"),
};
const size_t cmp_export_noptdefs = ARRAY_SIZE(cmp_export_optdefs);

static void export_usage(const struct cgs_optset *set)
{
	printf("usage: cgscale export [--format tsv|csv|json-lines|lkp-stats] FILE|DIR...\n"
	       "Write every observation of the result files as one tidy long table, one row\n"
	       "per value that exists, with the columns: file test mode tasks cgroup options\n"
	       "run status scope task interval phase t_s metric unit value. scope 'point' rows\n"
	       "are the whole point (per run, or per interval when interval is set); scope\n"
	       "'task' rows are one task in one interval. results/SCHEMA.md lists them all.\n"
	       "lkp-stats prints the key: value lines of LKP's cgscale program (one test).\n"
	       "\n"
	       "       cgscale export --folded [--point TEST:MODE:TASKS[:LAYOUT]] [--out-dir DIR] FILE|DIR...\n"
	       "writes the collapsed stacks of a point run with --profile (\"frame;frame count\").\n");
	cgs_opt_help(set, stdout);
}

int cmp_cmd_export(int argc, char **argv)
{
	struct exp_opts o = { 0 };
	struct cgs_optset set = { "export options", cmp_export_optdefs,
				  cmp_export_noptdefs, &o };
	struct cmp_side *sides = NULL;
	int first = 0, rc, status = CMP_EXIT_BADINPUT;
	unsigned n = 0;
	char err[1024] = "";

	rc = cgs_opt_defaults(&set, err, sizeof(err));
	if (!rc)
		rc = cgs_opt_parse(&set, 1, argc, argv, &first, err, sizeof(err));
	if (rc == 1) {
		export_usage(&set);
		return 0;
	}
	if (!rc && o.tsv && o.format != EXP_TSV)
		snprintf(err, sizeof(err), "--tsv and --format %s disagree: give one",
			 exp_format_names[o.format]);
	else if (!rc && first >= argc)
		snprintf(err, sizeof(err), "give one or more result files or directories");
	else if (!rc && o.folded && o.tsv)
		snprintf(err, sizeof(err), "--tsv and --folded disagree: give one");
	else if (!rc && !o.folded && (o.point || o.out_dir))
		snprintf(err, sizeof(err), "--point and --out-dir go with --folded");
	if (rc || *err)
		goto out;
	if (o.folded) {
		rc = cmp_export_folded(argc - first, argv + first, o.point, o.out_dir,
				       err, sizeof(err));
		status = rc || fflush(stdout) ? CMP_EXIT_BADINPUT : 0;
		goto out;
	}
	sides = calloc((size_t)(argc - first), sizeof(*sides));
	if (!sides) {
		snprintf(err, sizeof(err), "out of memory");
		goto out;
	}
	/* every input is read before a line is written */
	for (int a = first; a < argc; a++, n++)
		if (cmp_side_load(&sides[n], argv[a], err, sizeof(err))) {
			n++;
			goto out;
		}
	if (o.format == EXP_LKP_STATS)
		rc = exp_write_lkp_stats(stdout, sides, n, err, sizeof(err));
	else
		rc = exp_write_table(stdout, (enum exp_format)o.format, sides, n);
	if (!rc && fflush(stdout))
		rc = -EIO;
	if (rc == -EIO)
		snprintf(err, sizeof(err), "cannot write the output");
	status = rc ? CMP_EXIT_BADINPUT : 0;
out:
	if (status && *err)
		cgs_errs("export", "%s", err);
	for (unsigned i = 0; i < n; i++)
		cmp_side_free(&sides[i]);
	free(sides);
	cgs_opt_free(&set);
	return status;
}
