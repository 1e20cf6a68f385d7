/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.c - the `cgscale export` command line: pick the format, load
 * every input before writing anything, then write the table (export.c) or
 * the LKP stats (results/compare/lkp_stats.c) to stdout; or a profile's folded stacks
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
#include "results/compare/model.h"
#include "results/compare/lkp_stats.h"
#include "results/export/export.h"
#include "results/export/folded.h"
#include "runner/core/tasklist.h"
#include "runner/cmd/cmd.h"

struct exp_opts {
	bool tsv, folded, keep_disturbed;
	int format, weight;
	int64_t lkp_baseline;
	char *point, *out_dir;
};

static const struct cgs_opt export_opts[] = {
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
	OPT_INT("lkp-baseline", 0, struct exp_opts, lkp_baseline, .def = "0", .min = 0,
		.max = CGS_MAX_TASKS, .metavar = "N",
		.help = "lkp-stats: the N-task points are the scalability baseline that LKP's program adds: they give only N.processes/N.threads and scalability (0: none)"),
	OPT_BOOL("keep-disturbed", 0, struct exp_opts, keep_disturbed,
		.help = "lkp-stats: keep the disturbed runs in the means (left out by default, as compare leaves them out; disturbed_runs counts them)"),
	OPT_ENUM("weight", 0, struct exp_opts, weight, .def = "samples",
		.choices = exp_folded_weight_names,
		.help = "--folded: each stack's samples, or its time per op in ns (samples / the run's samples x the run's CPU time per op, runs averaged; for difffolded.pl)"),
};

static const char help_head[] =
	"usage: cgscale export [--format tsv|csv|json-lines|lkp-stats] FILE|DIR...\n"
	"       cgscale export --folded [--point TEST:MODE:TASKS[:LAYOUT]] [--out-dir DIR]\n"
	"              [--weight samples|ns-per-op] FILE|DIR...\n"
	"Write every observation of the result files as one tidy long table, one row\n"
	"per value that exists, with the columns: file test mode tasks cgroup options\n"
	"run status scope task interval phase t_s metric unit value disturbed. scope\n"
	"'point' rows are the whole point (per run, or per interval when interval is\n"
	"set); scope 'task' rows are one task in one interval. disturbed is true on the\n"
	"rows of a run compare leaves out. results/SCHEMA.md lists them all.\n"
	"Every input is loaded before anything is written.\n"
	"lkp-stats prints the key: value lines of LKP's cgscale program (one test).\n"
	"\n"
	"With --folded: the collapsed stacks of a point run with --profile\n"
	"(\"frame;frame count\"), the runs merged, for flamegraph.pl, inferno or\n"
	"speedscope; with --weight ns-per-op each stack's time per op instead\n"
	"(\"frame;frame 12.345\"), for difffolded.pl.\n";

static const char help_tail[] =
	"\nexit status:\n"
	"  0  written\n"
	"  2  bad usage or an unreadable input (nothing written)\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-export(1) - hand-written text; SYNOPSIS, DESCRIPTION, OPTIONS\n"
	".\\\" and EXIT STATUS are generated from the --help text and the option table\n"
	".\\\" at build time.\n"
	".TH CGSCALE\\-EXPORT 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-export \\- write result files as one tidy long table for R, pandas, gnuplot\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	"SCHEMA.md is installed with the documentation (see\n"
	".BR cgscale (1),\n"
	"FILES).\n"
	".SH OPTIONS\n"
	"@OPTIONS@\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale export base.json new.json > all.tsv\n"
	"cgscale export \\-\\-format csv results/runs/ > all.csv\n"
	"cgscale export \\-\\-folded \\-\\-point page_fault1:process:4 prof.json | flamegraph.pl > fg.svg\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-show (1),\n"
	".BR cgscale\\-compare (1)\n";

/* What the options say together, before any input is read: "" when they
 * agree, else the message in @err. */
static void check_opts(const struct exp_opts *o, int nargs, char *err, size_t errlen)
{
	if (o->tsv && o->format != EXP_TSV)
		snprintf(err, errlen, "--tsv and --format %s disagree: give one",
			 exp_format_names[o->format]);
	else if (nargs <= 0)
		snprintf(err, errlen, "give one or more result files or directories");
	else if (o->folded && o->tsv)
		snprintf(err, errlen, "--tsv and --folded disagree: give one");
	else if (!o->folded && (o->point || o->out_dir))
		snprintf(err, errlen, "--point and --out-dir go with --folded");
	else if (o->lkp_baseline && (o->folded || o->format != EXP_LKP_STATS))
		snprintf(err, errlen, "--lkp-baseline goes with --format lkp-stats");
	else if (o->keep_disturbed && (o->folded || o->format != EXP_LKP_STATS))
		snprintf(err, errlen, "--keep-disturbed goes with --format lkp-stats (the table marks each run's disturbed)");
	else if (!o->folded && o->weight != EXP_FOLDED_SAMPLES)
		snprintf(err, errlen, "--weight goes with --folded");
}

/* The table or LKP stats of @args on stdout; every input is read before
 * a line is written. 0 or -errno with @err. */
static int write_table(const struct exp_opts *o, int nargs, char **args,
		       char *err, size_t errlen)
{
	struct cmp_side *sides = calloc((size_t)nargs, sizeof(*sides));
	unsigned n = 0;
	int rc = 0;

	if (!sides)
		return cgs_errf(err, errlen, -ENOMEM, "out of memory");
	for (int a = 0; a < nargs && !rc; a++, n++)
		rc = cmp_side_load(&sides[n], args[a], err, errlen);
	if (rc)
		goto out;
	if (o->format == EXP_LKP_STATS)
		rc = cmp_lkp_stats(stdout, sides, n, (unsigned)o->lkp_baseline,
					 o->keep_disturbed, err, errlen);
	else
		rc = exp_write_table(stdout, (enum exp_format)o->format, sides, n);
	if (!rc && fflush(stdout))
		rc = -EIO;
	if (rc == -EIO)
		snprintf(err, errlen, "cannot write the output");
	else if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
out:
	for (unsigned i = 0; i < n; i++)
		cmp_side_free(&sides[i]);
	free(sides);
	return rc;
}

static int cmd_export(const struct cgs_command *self, int argc, char **argv)
{
	struct exp_opts o = { 0 };
	struct cgs_optset set;
	int first = 0, rc, status;
	char err[1024] = "";

	status = cgs_cmd_open(self, &set, &o, argc, argv, &first);
	if (status >= 0)
		goto out;
	status = CGS_EXIT_BADINPUT;
	check_opts(&o, argc - first, err, sizeof(err));
	if (*err)
		goto out;
	if (o.folded)
		rc = exp_write_folded(argc - first, argv + first, o.point, o.out_dir,
				      (enum exp_folded_weight)o.weight, err, sizeof(err));
	else
		rc = write_table(&o, argc - first, argv + first, err, sizeof(err));
	status = rc || fflush(stdout) ? CGS_EXIT_BADINPUT : CGS_EXIT_OK;
out:
	if (status && *err)
		cgs_errs("export", "%s", err);
	cgs_opt_free(&set);
	return status;
}

const struct cgs_command cgs_cmd_export = {
	.name = "export",
	.summary = "write result files as a tidy table (tsv, csv, json-lines) or LKP stats",
	.fn = cmd_export,
	.opts = { "export options", export_opts, ARRAY_SIZE(export_opts), NULL },
	.help_head = help_head,
	.help_tail = help_tail,
	.err_who = "export",
	.man = man,
	.complete_args = "-f",
};
