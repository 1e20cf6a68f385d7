/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - `cgscale report [options] RESULT...`: load result files
 * (or directories of them), build the page (results/report*.c), draw its
 * charts with gnuplot when it can be run, and write the page atomically.
 * It lives with the runner because it names each test from the workload
 * registry ("one op = one page touched"). Knobs: -o, --title, --gnuplot,
 * --no-charts. Exit 0 written; 1 written but some charts failed; 2 bad
 * input or an unwritable output, with nothing written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/document.h"
#include "tests/workload.h"
#include "lib/opt.h"
#include "lib/util.h"
#include "runner/run/run.h"
#include "lib/macros.h"
#include "runner/cmd/cmd.h"

struct rpt_cli {
	char *output, *title, *gnuplot;
	bool no_charts;
};

#define RC struct rpt_cli
static const struct cgs_opt report_opts[] = {
	OPT_STRING("output", 'o', RC, output, .def = "report.html",
		.metavar = "FILE",
		.help = "the page to write, a directory to put report.html in, or - for stdout"),
	OPT_STRING("title", 0, RC, title, .metavar = "TEXT",
		.help = "the page's title (default: cgscale report: the tests)"),
	OPT_STRING("gnuplot", 0, RC, gnuplot, .def = "gnuplot",
		.metavar = "PROG",
		.help = "the gnuplot that draws the charts (Debian package gnuplot-nox)"),
	OPT_BOOL("no-charts", 0, RC, no_charts,
		.help = "tables only: do not run gnuplot"),
};

static const char help_head[] =
	"usage: cgscale report [options] RESULT...\n"
	"Write one self-contained HTML page (inline SVG, no script, no network)\n"
	"from result files or directories of them (searched for *.json): the\n"
	"environment, per test the scalability curve, per point the ops/s of each\n"
	"task and total ops/s over time, perf counter and cgroup sections, and the\n"
	"table behind every chart. Charts need gnuplot; without it the page has the\n"
	"tables and says so.\n";

static const char help_tail[] =
	"\nexit status:\n"
	"  0  written\n"
	"  1  written, but some charts failed\n"
	"  2  bad input or an unwritable output (nothing written)\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-report(1) - hand-written text; SYNOPSIS, DESCRIPTION, OPTIONS\n"
	".\\\" and EXIT STATUS are generated from the --help text and the option table\n"
	".\\\" at build time.\n"
	".TH CGSCALE\\-REPORT 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-report \\- write an HTML page with charts and tables of result files\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	"gnuplot is the Debian package gnuplot\\-nox.\n"
	".SH OPTIONS\n"
	"@OPTIONS@\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale report \\-o report.html results/runs/\n"
	"cgscale report \\-\\-no\\-charts \\-o \\- base.json > tables.html\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-run (1),\n"
	".BR cgscale\\-compare (1),\n"
	".BR gnuplot (1)\n";

static void default_title(const struct rpt_input *in, unsigned n, char *buf,
			  size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "cgscale report:");
	unsigned shown = 0;

	for (unsigned i = 0; i < n; i++)
		for (unsigned p = 0; p < in[i].res.npoints && o < len; p++) {
			const char *t = in[i].res.points[p].test;

			if (!t || strstr(buf + 15, t) || shown == 6)
				continue;
			o += (size_t)snprintf(buf + o, len - o, "%s %s",
					      shown ? "," : "", t);
			shown++;
		}
}

/* The registry's description of @test, for its heading; NULL if unknown. */
static const char *describe(const char *test, char *buf, size_t len)
{
	const struct cgs_workload *w = cgs_workload_find(test);

	if (!w)
		return NULL;
	snprintf(buf, len, "%s; one op = one %s.", w->desc, w->unit);
	return buf;
}

/* Build the page of the @n inputs @in and write it to @path (NULL:
 * stdout), its charts drawn unless --no-charts: the exit status. */
static int write_report(const struct rpt_cli *cli, const struct rpt_input *in,
			unsigned n, const char *path)
{
	struct rpt_doc doc = { 0 };
	char err[1024], title[512];
	int rc, status = CGS_EXIT_FAIL;

	if (cli->title)
		snprintf(title, sizeof(title), "%s", cli->title);
	else
		default_title(in, n, title, sizeof(title));
	if (rpt_doc_init(&doc, title) || rpt_build_runs(&doc, in, n, describe)) {
		fprintf(stderr, "cgscale: out of memory building the report\n");
		goto out;
	}
	rc = rpt_doc_write(&doc, path, cli->no_charts ? NULL : cli->gnuplot, err,
			   sizeof(err));
	if (rc == -ENOENT)
		cgs_err("%s: no charts, tables only; install the Debian "
			"package gnuplot-nox for the charts", err);
	else if (rc == -EIO)
		cgs_err("%s", err);
	else if (rc) {
		cgs_err("%s", err);
		status = CGS_EXIT_BADINPUT;
		goto out;
	}
	if (path)
		cgs_info("report in %s", path);
	status = rc == -EIO ? CGS_EXIT_FAIL : CGS_EXIT_OK;
out:
	rpt_doc_free(&doc);
	return status;
}

/* Load the inputs @args into *@in, *@n of them; 0 or -errno, said. */
static int load(int nargs, char **args, struct rpt_input **in, unsigned *n)
{
	char err[1024];
	unsigned npoints = 0;

	for (int i = 0; i < nargs; i++)
		if (rpt_load(args[i], in, n, err, sizeof(err))) {
			cgs_err("%s", err);
			return -EINVAL;
		}
	for (unsigned i = 0; i < *n; i++)
		npoints += (*in)[i].res.npoints;
	if (!npoints) {
		cgs_err("report: no points in %s%s (a run interrupted during its first point?); nothing to report, nothing written",
			args[0], nargs > 1 ? " and the others" : "");
		return -ENODATA;
	}
	return 0;
}

static int cmd_report(const struct cgs_command *self, int argc, char **argv)
{
	struct rpt_cli cli = { 0 };
	struct cgs_optset set;
	struct rpt_input *in = NULL;
	char err[1024], *path = NULL;
	unsigned n = 0;
	int first = 0, status;

	status = cgs_cmd_open(self, &set, &cli, argc, argv, &first);
	if (status >= 0)
		goto out;
	status = CGS_EXIT_BADINPUT;
	if (first >= argc) {
		fprintf(stderr, "cgscale: report: no result given; name result files "
			"or directories (see 'cgscale report --help')\n");
		goto out;
	}
	if (strcmp(cli.output, "-") && !(path = rpt_output_path("-o", cli.output, err, sizeof(err)))) {
		cgs_err("%s", err);
		goto out;
	}
	if (!load(argc - first, argv + first, &in, &n))
		status = write_report(&cli, in, n, path);
out:
	free(path);
	rpt_inputs_free(in, n);
	cgs_opt_free(&set);
	return status;
}

const struct cgs_command cgs_cmd_report = {
	.name = "report",
	.summary = "write an HTML page with charts and tables of result files",
	.fn = cmd_report,
	.opts = { "report options", report_opts, ARRAY_SIZE(report_opts), NULL },
	.help_head = help_head,
	.help_tail = help_tail,
	.man = man,
	.complete_args = "-f",
};
