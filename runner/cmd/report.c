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

#include "results/report/report.h"
#include "tests/workload.h"
#include "lib/opt.h"
#include "lib/util.h"
#include "runner/run/run.h"
#include "lib/macros.h"

struct rpt_cli {
	char *output, *title, *gnuplot;
	bool no_charts;
};

#define RC struct rpt_cli
const struct cgs_opt cgs_report_optdefs[] = {
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
const size_t cgs_report_noptdefs = ARRAY_SIZE(cgs_report_optdefs);
#define NOPTS cgs_report_noptdefs

static void usage(const struct cgs_optset *set, FILE *out)
{
	fprintf(out, "usage: cgscale report [options] RESULT...\n"
		     "Write one self-contained HTML page (inline SVG, no script, no network)\n"
		     "from result files or directories of them (searched for *.json): the\n"
		     "environment, per test the scalability curve, per point the ops/s of each\n"
		     "task and total ops/s over time, perf counter and cgroup sections, and the\n"
		     "table behind every chart. Charts need gnuplot; without it the page has the\n"
		     "tables and says so.\n");
	cgs_opt_help(set, out);
	fprintf(out, "\nexit status: 0 written; 1 written, but some charts failed; 2 bad input or\n"
		     "unwritable output (nothing written).\n");
}

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

int cgs_cmd_report(int argc, char **argv)
{
	struct rpt_cli cli = { 0 };
	struct cgs_optset set = { "report options", cgs_report_optdefs, cgs_report_noptdefs, &cli };
	struct rpt_input *in = NULL;
	struct rpt_doc doc = { 0 };
	char err[1024], title[512], *path = NULL;
	unsigned n = 0, npoints;
	int first, rc, status = 2;

	if (cgs_opt_defaults(&set, err, sizeof(err))) {
		fprintf(stderr, "cgscale: internal error: %s\n", err);
		return 70;
	}
	rc = cgs_opt_parse(&set, 1, argc, argv, &first, err, sizeof(err));
	if (rc == 1) {
		usage(&set, stdout);
		status = 0;
		goto out;
	}
	if (rc) {
		cgs_err("%s", err);
		goto out;
	}
	if (first >= argc) {
		fprintf(stderr, "cgscale: report: no result given; name result files "
			"or directories (see 'cgscale report --help')\n");
		goto out;
	}
	if (strcmp(cli.output, "-") && !(path = rpt_output_path("-o", cli.output, err, sizeof(err)))) {
		cgs_err("%s", err);
		goto out;
	}
	for (int i = first; i < argc; i++)
		if (rpt_load(argv[i], &in, &n, err, sizeof(err))) {
			cgs_err("%s", err);
			goto out;
		}
	npoints = 0;
	for (unsigned i = 0; i < n; i++)
		npoints += in[i].res.npoints;
	if (!npoints) {
		cgs_err("report: no points in %s%s (a run interrupted during its first point?); nothing to report, nothing written",
			argv[first], argc - first > 1 ? " and the others" : "");
		goto out;
	}
	status = 1;
	if (cli.title)
		snprintf(title, sizeof(title), "%s", cli.title);
	else
		default_title(in, n, title, sizeof(title));
	if (rpt_doc_init(&doc, title) || rpt_build_runs(&doc, in, n, describe)) {
		fprintf(stderr, "cgscale: out of memory building the report\n");
		goto out;
	}
	rc = rpt_doc_write(&doc, path, cli.no_charts ? NULL : cli.gnuplot, err,
			   sizeof(err));
	if (rc == -ENOENT)
		cgs_err("%s: no charts, tables only; install the Debian "
			"package gnuplot-nox for the charts", err);
	else if (rc == -EIO)
		cgs_err("%s", err);
	else if (rc) {
		cgs_err("%s", err);
		status = 2;
		goto out;
	}
	if (path)
		fprintf(stderr, "cgscale: report in %s\n", path);
	status = rc == -EIO ? 1 : 0;
out:
	free(path);
	rpt_doc_free(&doc);
	rpt_inputs_free(in, n);
	cgs_opt_free(&set);
	return status;
}
