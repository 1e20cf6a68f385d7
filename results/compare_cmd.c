/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_cmd.c - `cgscale compare BASE NEW [NEW...]`: the option table,
 * loading the sides, the analysis, the output and the exit status.
 * Knobs: --threshold*, --max-cov, --alpha, --axis, --format, --junit,
 * --bisect, --fail-on-inconclusive (see usage() and COMPARE.md).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/opt.h"
#include "../lib/outpath.h"
#include "../lib/util.h"
#include "compare.h"
#include "compare_profile.h"
#include "report.h"

struct cmp_cli {
	char *threshold, *threshold2, *threshold3, *max_cov, *alpha;
	bool welch, allow_env_diff, fail_on_inconclusive, bisect, keep_disturbed;
	char *axis, *junit, *metrics;
	int format;
	int64_t seed, resamples;
	char *html;
	char *prof_floor, *prof_threshold;
};

#define CO(f) offsetof(struct cmp_cli, f)
const struct cgs_opt cmp_optdefs[] = {
	{ "threshold", 'T', CGS_OPT_STRING, CO(threshold), "2", 0, 0, NULL, "PCT",
	  "practical threshold T of the primary metric (ops/s): a verdict needs the whole CI beyond +-T" },
	{ "threshold-secondary", 0, CGS_OPT_STRING, CO(threshold2), "5", 0, 0, NULL, "PCT",
	  "T of the secondary metrics (fairness, scalability, perf counters)" },
	{ "threshold-tail", 0, CGS_OPT_STRING, CO(threshold3), "10", 0, 0, NULL, "PCT",
	  "T of the tail-latency metrics" },
	{ "max-cov", 0, CGS_OPT_STRING, CO(max_cov), "5", 0, 0, NULL, "PCT",
	  "NOISY when a side's runs vary more than this (coefficient of variation)" },
	{ "alpha", 0, CGS_OPT_STRING, CO(alpha), "0.05", 0, 0, NULL, "P",
	  "significance level; the CI is at 1-alpha (95%)" },
	{ "welch", 0, CGS_OPT_BOOL, CO(welch), NULL, 0, 0, NULL, NULL,
	  "also run Welch's t-test, and use its p instead of Mann-Whitney's" },
	{ "axis", 0, CGS_OPT_STRING, CO(axis), "kernel", 0, 0, NULL, "kernel|cgroup|workload|FIELD",
	  "what is compared; another critical field that differs stops the compare (exit 3)" },
	{ "allow-env-diff", 0, CGS_OPT_BOOL, CO(allow_env_diff), NULL, 0, 0, NULL, NULL,
	  "compare even when critical environment fields differ (printed as notes)" },
	{ "keep-disturbed", 0, CGS_OPT_BOOL, CO(keep_disturbed), NULL, 0, 0, NULL, NULL,
	  "use the runs marked disturbed too (left out and listed by default)" },
	{ "fail-on-inconclusive", 0, CGS_OPT_BOOL, CO(fail_on_inconclusive), NULL, 0, 0,
	  NULL, NULL, "exit 4 when nothing regressed but a verdict is INCONCLUSIVE or NOISY" },
	{ "bisect", 0, CGS_OPT_BOOL, CO(bisect), NULL, 0, 0, NULL, NULL,
	  "git bisect run codes: 0 good, 1 bad (REGRESSION), 125 skip (undecided or unusable input)" },
	{ "format", 'f', CGS_OPT_ENUM, CO(format), "text", 0, 0, cmp_format_names, NULL,
	  "output format" },
	{ "junit", 0, CGS_OPT_STRING, CO(junit), NULL, 0, 0, NULL, "FILE",
	  "also write a JUnit XML report: one case per point and metric, REGRESSION fails" },
	{ "metrics", 0, CGS_OPT_STRING, CO(metrics), NULL, 0, 0, NULL, "LIST",
	  "compare only these metrics (comma list; default all)" },
	{ "seed", 0, CGS_OPT_INT, CO(seed), "1", 0, INT64_MAX, NULL, NULL,
	  "seed of the bootstrap: the same inputs and seed give the same output" },
	{ "resamples", 0, CGS_OPT_INT, CO(resamples), "10000", 100, 1000000, NULL, NULL,
	  "bootstrap resamples per comparison" },
	{ "profile-floor", 0, CGS_OPT_STRING, CO(prof_floor), "0.5", 0, 0, NULL, "PCT",
	  "profiles (run --profile): list self/children/call-trace keys with at least this % of samples on a side" },
	{ "profile-threshold", 0, CGS_OPT_STRING, CO(prof_threshold), "0.2", 0, 0, NULL, "PP",
	  "profiles: GREW/SHRANK need the CI of the change beyond +-PP percentage points" },
	{ "html", 0, CGS_OPT_STRING, CO(html), NULL, 0, 0, NULL, "FILE",
	  "also write a self-contained HTML page (a directory gets report.html): charts of each change with its CI, the sides with each run, the environment diff" },
};
const size_t cmp_noptdefs = sizeof(cmp_optdefs) / sizeof(cmp_optdefs[0]);
#define NOPTS cmp_noptdefs

static void usage(const struct cgs_optset *set, FILE *out)
{
	fprintf(out, "usage: cgscale compare [options] BASE NEW [NEW...]\n"
		     "Compare result files side by side. Each side is a result file or a directory\n"
		     "of them (searched recursively for *.json): all the runs of that side. BASE is\n"
		     "the baseline; each NEW side gets its own columns. Runs are grouped by point\n"
		     "(test, mode, tasks, cgroup layout, workload options); one run is one value.\n"
		     "\nVerdicts per point and metric (+ is always better, CI of the %% change):\n"
		     "  REGRESSION    the CI lies entirely below -T\n"
		     "  IMPROVEMENT   the CI lies entirely above +T\n"
		     "  NOISY         a side's CoV is above --max-cov (and no REGRESSION/IMPROVEMENT)\n"
		     "  NO_CHANGE     the CI lies within +-T\n"
		     "  INCONCLUSIVE  anything else (too few runs, CI across +-T)\n"
		     "Secondary metrics also need a Benjamini-Hochberg q below --alpha.\n");
	cgs_opt_help(set, out);
	fprintf(out, "\nmetrics:\n");
	for (size_t m = 0; m < cmp_nmetrics; m++)
		fprintf(out, "  %-14s %-6s %-9s %s is better; %s\n", cmp_metrics[m].name,
			cmp_metrics[m].unit, cmp_class_names[cmp_metrics[m].cls],
			cmp_metrics[m].dir > 0 ? "higher" : "lower", cmp_metrics[m].desc);
	fprintf(out, "\nexit status:\n"
		     "  0  no REGRESSION\n"
		     "  1  at least one REGRESSION\n"
		     "  2  bad usage or unreadable input (corrupt, foreign or newer file, no measured point)\n"
		     "  3  incomparable inputs (a critical environment field differs, no point in common)\n"
		     "  4  no REGRESSION, but INCONCLUSIVE or NOISY verdicts, with --fail-on-inconclusive\n"
		     "  with --bisect: 0 good, 1 bad, 125 skip (undecided, unreadable or incomparable),\n"
		     "  128 bad usage (aborts git bisect run)\n"
		     "\nSee results/COMPARE.md for how to read the output and the statistics used.\n");
}

static int parse_num(const char *name, const char *s, double lo, double hi,
		     double *out, char *err, size_t errlen)
{
	char *end;

	*out = strtod(s, &end);
	if (end == s || *end || !isfinite(*out) || *out < lo || *out > hi)
		return cgs_errf(err, errlen, -EINVAL, "--%s: '%s' is not a number from %g to %g",
			   name, s, lo, hi);
	return 0;
}

static int parse_metrics(const char *list, struct cmp_opts *o, char *err,
			 size_t errlen)
{
	char *copy, *save, *tok;
	int rc = 0, n = 0;

	if (!list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (size_t m = 0; m < cmp_nmetrics; m++)
		o->metric_off[m] = true;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		size_t m;

		for (m = 0; m < cmp_nmetrics && strcmp(cmp_metrics[m].name, tok); m++)
			;
		if (m == cmp_nmetrics)
			rc = cgs_errf(err, errlen, -EINVAL, "--metrics: unknown metric '%s'; see --help", tok);
		else
			o->metric_off[m] = false;
		n++;
	}
	free(copy);
	if (!rc && !n)
		rc = cgs_errf(err, errlen, -EINVAL, "--metrics '%s' names no metric, so nothing would be compared; give a comma list (see --help)",
			      list);
	return rc;
}

static int to_opts(const struct cmp_cli *c, struct cmp_opts *o, char *err,
		   size_t errlen)
{
	int rc;

	cmp_opts_default(o);
	rc = parse_num("threshold", c->threshold, 0, 1000, &o->threshold[CMP_PRIMARY], err, errlen);
	if (!rc)
		rc = parse_num("threshold-secondary", c->threshold2, 0, 1000,
			       &o->threshold[CMP_SECONDARY], err, errlen);
	if (!rc)
		rc = parse_num("threshold-tail", c->threshold3, 0, 1000,
			       &o->threshold[CMP_TAIL], err, errlen);
	if (!rc)
		rc = parse_num("max-cov", c->max_cov, 0, 1e6, &o->max_cov, err, errlen);
	if (!rc)
		rc = parse_num("alpha", c->alpha, 1e-6, 0.5, &o->alpha, err, errlen);
	if (!rc && (!*c->axis || strchr(c->axis, ' ')))
		rc = cgs_errf(err, errlen, -EINVAL, "--axis '%s' is not a field name", c->axis);
	if (!rc)
		rc = parse_metrics(c->metrics, o, err, errlen);
	o->welch = c->welch;
	o->axis = c->axis;
	o->allow_env_diff = c->allow_env_diff;
	o->keep_disturbed = c->keep_disturbed;
	o->fail_on_inconclusive = c->fail_on_inconclusive;
	o->bisect = c->bisect;
	o->seed = (uint64_t)c->seed;
	o->resamples = (unsigned)c->resamples;
	return rc;
}

static bool wants_bisect(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--bisect"))
			return true;
	return false;
}

/* --html: the page, drawn by gnuplot when it can be run. 0 when written
 * (with or without charts), else -errno, said on stderr. */
static int write_html(const struct cmp_result *r, const char *path)
{
	char err[1024];
	int rc = rpt_write_compare(r, path, "gnuplot", err, sizeof(err));

	if (rc == -ENOENT)
		cgs_errs("compare", "%s: the HTML page has no charts, tables "
			"only; install the Debian package gnuplot-nox for them", err);
	else if (rc == -EIO)
		cgs_errs("compare", "HTML page: %s", err);
	else if (rc)
		cgs_errs("compare", "HTML page: %s", err);
	if (!rc || rc == -ENOENT || rc == -EIO)
		cgs_errs("compare", "HTML page in %s", path);
	return rc == -ENOENT || rc == -EIO ? 0 : rc;
}

int cmp_cmd_compare(int argc, char **argv)
{
	struct cmp_cli cli = { 0 };
	struct cgs_optset set = { "compare options", cmp_optdefs, NOPTS, &cli };
	struct cmp_result r = { 0 };
	struct cmp_profile prof = { 0 };
	double pfloor = 0, pthr = 0;
	bool bisect = wants_bisect(argc, argv);
	int status = bisect ? CMP_EXIT_BISECT_ABORT : CMP_EXIT_BADINPUT;
	int first = 0, rc, nsides;
	char err[1024] = "", *html = NULL;

	if (cgs_opt_check_table(cmp_optdefs, NOPTS, "compare", err, sizeof(err)) ||
	    cgs_opt_defaults(&set, err, sizeof(err))) {
		cgs_errs("compare", "internal error: %s", err);
		goto out;
	}
	rc = cgs_opt_parse(&set, 1, argc, argv, &first, err, sizeof(err));
	if (rc == 1) {
		usage(&set, stdout);
		status = 0;
		goto out;
	}
	if (!rc)
		rc = to_opts(&cli, &r.o, err, sizeof(err));
	if (!rc)
		rc = parse_num("profile-floor", cli.prof_floor, 0, 100, &pfloor, err, sizeof(err));
	if (!rc)
		rc = parse_num("profile-threshold", cli.prof_threshold, 0, 100, &pthr, err, sizeof(err));
	nsides = argc - first;
	if (!rc && nsides < 2)
		rc = cgs_errf(err, sizeof(err), -EINVAL, "give a baseline and at least one new side: cgscale compare BASE NEW [NEW...]");
	if (!rc && nsides > CMP_MAX_SIDES)
		rc = cgs_errf(err, sizeof(err), -EINVAL, "at most %d sides", CMP_MAX_SIDES);
	if (rc) {
		cgs_errs("compare", "%s", err);
		goto out;
	}
	if (cli.html && !(html = rpt_output_path("--html", cli.html, err, sizeof(err)))) {
		cgs_errs("compare", "%s", err);
		goto out;
	}
	if (cli.junit && cgs_check_out_path("--junit", cli.junit, err, sizeof(err))) {
		cgs_errs("compare", "%s", err);
		goto out;
	}
	/* from here on, bad input is a commit to skip when bisecting */
	status = bisect ? CMP_EXIT_BISECT_SKIP : CMP_EXIT_BADINPUT;
	r.sides = calloc(nsides, sizeof(*r.sides));
	if (!r.sides)
		goto out;
	for (int s = 0; s < nsides; s++) {
		r.nsides++;
		snprintf(r.sides[s].label, sizeof(r.sides[s].label), "%c", 'A' + s);
		if (cmp_side_load(&r.sides[s], argv[first + s], err, sizeof(err))) {
			cgs_errs("compare", "%s", *err ? err : "out of memory");
			goto out;
		}
	}
	rc = cmp_analyse(&r, err, sizeof(err));
	if (rc == -EXDEV) {
		cgs_errs("compare", "incomparable inputs: %s", r.problem);
		status = bisect ? CMP_EXIT_BISECT_SKIP : CMP_EXIT_INCOMPARABLE;
		if (html)   /* the page shows the environment diff: why */
			write_html(&r, html);
		goto out;
	}
	if (rc) {
		cgs_errs("compare", "%s", *err ? err : strerror(-rc));
		goto out;
	}
	if (cmp_profile_analyse(&r, pfloor, pthr, &prof)) {
		fprintf(stderr, "cgscale compare: out of memory comparing the profiles\n");
		goto out;
	}
	r.prof = &prof;
	if (cmp_print(&r, cli.format, stdout) || fflush(stdout)) {
		cgs_errs("compare", "cannot write the output: %s", strerror(errno));
		goto out;
	}
	if (cli.junit && cmp_write_junit(&r, cli.junit, err, sizeof(err))) {
		cgs_errs("compare", "%s", err);
		goto out;
	}
	if (html && write_html(&r, html))
		goto out;
	status = cmp_exit_status(&r);
out:
	free(html);
	cmp_profile_free(&prof);
	cmp_result_free(&r);
	cgs_opt_free(&set);
	return status;
}
