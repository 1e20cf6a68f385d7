/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - `cgscale compare BASE NEW [NEW...]`: the option table,
 * loading the sides, the analysis, the output and the exit status.
 * Knobs: --threshold*, --max-cov, --alpha, --axis, --format, --junit,
 * --bisect, --fail-on-inconclusive (see --help and COMPARE.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/esc.h"
#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/outpath.h"
#include "lib/util.h"
#include "results/compare/model.h"
#include "results/compare/profile.h"
#include "results/report/document.h"
#include "runner/cmd/cmd.h"
#include "runner/observe/observer.h"

struct cmp_cli {
	double threshold, threshold2, threshold3, max_cov, alpha;
	bool welch, allow_env_diff, fail_on_inconclusive, bisect, keep_disturbed;
	char *axis, *junit, *metrics;
	int format;
	int64_t seed, resamples;
	char *html;
	double prof_floor, prof_threshold;
	int prof_rank;
	int64_t prof_rows;
	bool prof_calltraces;
};

#define CO struct cmp_cli
static const struct cgs_opt compare_opts[] = {
	OPT_NUMBER("threshold", 'T', CO, threshold, .def = "2", .dmin = 0,
		.dmax = 1000, .metavar = "PCT",
		.help = "practical threshold T of the primary metric (ops/s): a verdict needs the whole CI beyond +-T"),
	OPT_NUMBER("threshold-secondary", 0, CO, threshold2, .def = "5",
		.dmin = 0, .dmax = 1000, .metavar = "PCT",
		.help = "T of the secondary metrics (fairness, scalability, perf counters)"),
	OPT_NUMBER("threshold-tail", 0, CO, threshold3, .def = "10", .dmin = 0,
		.dmax = 1000, .metavar = "PCT",
		.help = "T of the tail-latency metrics"),
	OPT_NUMBER("max-cov", 0, CO, max_cov, .def = "5", .dmin = 0,
		.dmax = 1e6, .metavar = "PCT",
		.help = "NOISY when a side's runs vary more than this (coefficient of variation)"),
	OPT_NUMBER("alpha", 0, CO, alpha, .def = "0.05", .dmin = 1e-6,
		.dmax = 0.5, .metavar = "P",
		.help = "significance level; the CI is at 1-alpha (95%)"),
	OPT_BOOL("welch", 0, CO, welch,
		.help = "also run Welch's t-test, and use its p instead of Mann-Whitney's"),
	OPT_STRING("axis", 0, CO, axis,
		.metavar = "kernel|cgroup|workload|FIELD",
		.help = "what is compared (default kernel); another critical field that differs stops the compare (exit 3), and so does an --axis given along which nothing differs"),
	OPT_BOOL("allow-env-diff", 0, CO, allow_env_diff,
		.help = "compare even when critical environment fields differ (printed as notes)"),
	OPT_BOOL("keep-disturbed", 0, CO, keep_disturbed,
		.help = "use the runs marked disturbed too (left out and listed by default)"),
	OPT_BOOL("fail-on-inconclusive", 0, CO, fail_on_inconclusive,
		.help = "exit 4 when nothing regressed but a verdict is INCONCLUSIVE or NOISY"),
	OPT_BOOL("bisect", 0, CO, bisect,
		.help = "git bisect run codes: 0 good, 1 bad (REGRESSION), 125 skip (undecided or unusable input)"),
	OPT_ENUM("format", 'f', CO, format, .def = "text",
		.choices = cmp_format_names,
		.help = "output format"),
	OPT_STRING("junit", 0, CO, junit, .metavar = "FILE",
		.help = "also write a JUnit XML report: one case per point and metric, REGRESSION fails"),
	OPT_STRING("metrics", 0, CO, metrics, .metavar = "LIST",
		.help = "compare only these metrics (comma list; default all)"),
	OPT_INT("seed", 0, CO, seed, .def = "1", .min = 0, .max = INT64_MAX,
		.help = "seed of the profiles' bootstrap: the same inputs and seed give the same output"),
	OPT_INT("resamples", 0, CO, resamples, .def = "10000", .min = 100,
		.max = 1000000,
		.help = "bootstrap resamples per profile comparison"),
	OPT_NUMBER("profile-floor", 0, CO, prof_floor, .def = "0.5", .dmin = 0,
		.dmax = 100, .metavar = "PCT",
		.help = "profiles (run --profile): list the functions (call traces) with at least this % of samples on a side"),
	OPT_NUMBER("profile-threshold", 0, CO, prof_threshold, .def = "0.2",
		.dmin = 0, .dmax = 100, .metavar = "PP",
		.help = "profiles: GREW/SHRANK need the CI of the change in ns/op beyond +-PP% of the base's CPU time per op (of the share beyond +-PP pp in --format lkp)"),
	OPT_ENUM("profile-rank", 0, CO, prof_rank, .def = "self",
		.choices = cmp_pns_rank_names,
		.help = "profiles: rank the functions by the change of their self time per op (adds up to the CPU time) or their children time (with what they call)"),
	OPT_INT("profile-rows", 0, CO, prof_rows, .def = "10", .min = 1,
		.max = CMP_PNS_TOP_MAX, .metavar = "N",
		.help = "profiles: the functions shown per point, and summed against the CPU time's change"),
	OPT_BOOL("profile-calltraces", 0, CO, prof_calltraces,
		.help = "profiles: also rank the call paths (LKP's call traces of 5 frames) by their change in ns/op"),
	OPT_STRING("html", 0, CO, html, .metavar = "FILE",
		.help = "also write a self-contained HTML page (a directory gets report.html): charts of each change with its CI, the sides with each run, the environment diff"),
};

static const char help_head[] =
	"usage: cgscale compare [options] BASE NEW [NEW...]\n"
	"Compare result files side by side. Each side is a result file or a directory\n"
	"of them (searched recursively for *.json): all the runs of that side. BASE is\n"
	"the baseline; each NEW side gets its own columns. Runs are grouped by point\n"
	"(test, mode, tasks, cgroup layout, workload options); one run is one value.\n"
	"\nThe change is each NEW side's against BASE, plain:\n"
	"  " CMP_SIGN_LEGEND "\n"
	"Verdicts per point and metric (CI of the % change):\n"
	"  REGRESSION    the CI lies entirely beyond T on the worse side: below -T when\n"
	"                higher is better, above +T when lower is better\n"
	"  IMPROVEMENT   the CI lies entirely beyond T on the better side\n"
	"  NOISY         a side's CoV is above --max-cov (and no REGRESSION/IMPROVEMENT)\n"
	"  NO_CHANGE     the CI lies within +-T\n"
	"  INCONCLUSIVE  anything else: too few runs a side for a p below --alpha\n"
	"                (\"needs N runs a side\"), a CI across +-T, or a CI beyond it\n"
	"                with p >= --alpha\n"
	"REGRESSION and IMPROVEMENT also need the test's p below --alpha (the\n"
	"secondary metrics: the Benjamini-Hochberg q).\n"
	"results/COMPARE.md (installed with the documentation) says how to read the\n"
	"output and which statistics are used.\n";

static const char help_tail[] =
	"\nexit status:\n"
	"  0    no REGRESSION\n"
	"  1    at least one REGRESSION\n"
	"  2    bad usage or unreadable input (corrupt, foreign or newer file, no measured point)\n"
	"  3    incomparable inputs (a critical environment field differs, no point in common)\n"
	"  4    no REGRESSION, but INCONCLUSIVE or NOISY verdicts, with --fail-on-inconclusive\n"
	"With --bisect, the codes of git bisect run:\n"
	"  0    good: no REGRESSION, and every verdict decided\n"
	"  1    bad: a REGRESSION\n"
	"  125  skip: INCONCLUSIVE or NOISY verdicts, unreadable or incomparable input\n"
	"  128  bad usage, which aborts git bisect run\n"
	"A kernel bisection builds, boots and measures each commit before this\n"
	"compare; scripts/kernel-bisect-step.sh does it all (installed in\n"
	"/usr/share/cgscale/; see the EXAMPLES of cgscale-compare(1)).\n";

/* --help after the options: the metrics, from their table, in columns. */
static void help_metrics(FILE *out)
{
	const struct cmp_metric *t = cmp_base_metrics;
	int wn = 8, wu = 4, wc = 0;  /* "aux.NAME", "UNIT" */

	for (size_t m = 0; m < cmp_nbase_metrics; m++) {
		int n = t[m].name ? (int)strlen(t[m].name) : 0;
		int u = t[m].unit ? (int)strlen(t[m].unit) : 0;

		wn = n > wn ? n : wn;
		wu = u > wu ? u : wu;
	}
	for (int c = 0; c < CMP_NCLASS; c++)
		wc = (int)strlen(cmp_class_names[c]) > wc ? (int)strlen(cmp_class_names[c]) : wc;
	fprintf(out, "\nmetrics:\n"
		     "Each metric's name, unit, class (whose T applies: --threshold,\n"
		     "--threshold-secondary, --threshold-tail) and which way is better.\n");
	for (size_t m = 0; m < cmp_nbase_metrics; m++) {
		const struct cmp_metric *mt = &t[m];

		if (!mt->name)   /* where the inputs' aux counters go */
			fprintf(out, "  %-*s  %-*s  %-*s  higher is better; %s\n", wn, "aux.NAME",
				wu, "UNIT", wc, cmp_class_names[mt->cls],
				"each aux counter of the inputs per task, in the unit its result gives "
				"(sendfile's aux.rx_bytes, remap's aux.passes)");
		else
			fprintf(out, "  %-*s  %-*s  %-*s  %s is better; %s\n", wn, mt->name,
				wu, mt->unit, wc, cmp_class_names[mt->cls],
				mt->dir > 0 ? "higher" : "lower", mt->desc);
	}
	/* the metrics this cgscale's observers declare in their files */
	for (size_t i = 0; i < cgs_nobservers; i++) {
		const struct res_section_decl *d = cgs_observers[i]->section;

		for (size_t m = 0; d && m < d->nmetrics; m++)
			fprintf(out, "  %-*s  %-*s  %-*s  %s is better; %s (declared by --%s's section)\n",
				wn, d->metrics[m].name, wu, d->metrics[m].unit, wc, d->metrics[m].cls,
				d->metrics[m].dir > 0 ? "higher" : "lower", d->metrics[m].desc,
				cgs_observers[i]->nopts ? cgs_observers[i]->opts[0].name : d->key);
	}
	fprintf(out, "A file's observers may declare more (its \"sections\"): --metrics\n"
		     "takes those names too, checked once the inputs are read.\n");
}

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-compare(1) - hand-written text; SYNOPSIS, DESCRIPTION's first\n"
	".\\\" part, OPTIONS, METRICS and EXIT STATUS are generated from the --help\n"
	".\\\" text, the option table and the metrics table at build time.\n"
	".TH CGSCALE\\-COMPARE 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-compare \\- compare result files: statistics, verdicts, CI exit codes\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	"For every point and metric the change is that of the mean, with its\n"
	"confidence interval: the exact Hodges\\-Lehmann rank interval of the\n"
	"Mann\\-Whitney U test, exact for small samples; with \\-\\-welch, the Welch t\n"
	"interval of the log ratio; on the invocations' means when a side has\n"
	"several invocations.\n"
	"The secondary metrics get Benjamini\\-Hochberg q\\-values, so that the many\n"
	"of them do not raise the false discovery rate.\n"
	".SH OPTIONS\n"
	"@OPTIONS@\n"
	"@HELP_MORE@\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale compare base/ new/\n"
	"cgscale compare \\-\\-format json \\-\\-junit junit.xml base.json new.json\n"
	".EE\n"
	".PP\n"
	"A kernel bisection: measure the good kernel once, the way every step will\n"
	"(here built and booted with virtme\\-ng), then let git bisect run build,\n"
	"boot, measure and compare each commit; the script turns build failures\n"
	"and kernels that do not boot or measure into skips, and a REGRESSION of\n"
	"per_task_ops into bad:\n"
	".PP\n"
	".EX\n"
	"cd linux && git checkout v6.8\n"
	"/usr/share/cgscale/kernel\\-bisect\\-step.sh \\-\\-baseline ~/base.json page_fault2\n"
	"git bisect start v6.9 v6.8\n"
	"git bisect run /usr/share/cgscale/kernel\\-bisect\\-step.sh ~/base.json page_fault2\n"
	".EE\n"
	".PP\n"
	"On bare metal, where each step installs the kernel and reboots, run the\n"
	"script by hand after each boot with CGS_BISECT_BUILD=: CGS_BISECT_BOOT=\n"
	"and \\-\\-mark: it marks the commit good, bad or skip itself.\n"
	"Its header lists the variables (build and boot commands, run options).\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-run (1),\n"
	".BR cgscale\\-show (1),\n"
	".BR cgscale\\-report (1),\n"
	".BR git\\-bisect (1)\n";

/* Whether --metrics name @tok may be one that the inputs' sections
 * declare (checked by cmp_analyse once they are read): a name our
 * observers declare, or one whose first word ("zzz." of a newer
 * observer) no built-in metric has. */
static bool declared_later(const char *tok)
{
	size_t w = strcspn(tok, ".");

	for (size_t i = 0; i < cgs_nobservers; i++) {
		const struct res_section_decl *d = cgs_observers[i]->section;

		for (size_t m = 0; d && m < d->nmetrics; m++)
			if (!strcmp(d->metrics[m].name, tok))
				return true;
	}
	if (!tok[w])
		return false;
	for (size_t m = 0; m < cmp_nbase_metrics; m++)
		if (cmp_base_metrics[m].name && !strncmp(cmp_base_metrics[m].name, tok, w + 1))
			return false;
	return true;
}

/* --metrics: the names of the base table are checked here, before any
 * input is read; aux.NAME ones by cmp_analyse, once the inputs say which
 * exist. */
static int check_metrics(const char *list, char *err, size_t errlen)
{
	char *copy, *save, *tok;
	int rc = 0, n = 0;

	if (!list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		n++;
		if (!strncmp(tok, "aux.", 4) && tok[4])
			continue;
		if (!cmp_base_has(cmp_base_metrics, cmp_nbase_metrics, tok) && !declared_later(tok))
			rc = cgs_errf(err, errlen, -EINVAL, "--metrics: unknown metric '%s'; see --help", tok);
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
	int rc = 0;

	cmp_opts_default(o);
	o->threshold[CMP_PRIMARY] = c->threshold;
	o->threshold[CMP_SECONDARY] = c->threshold2;
	o->threshold[CMP_TAIL] = c->threshold3;
	o->max_cov = c->max_cov;
	o->alpha = c->alpha;
	if (c->axis && (!*c->axis || strchr(c->axis, ' ')))
		rc = cgs_errf(err, errlen, -EINVAL, "--axis '%s' is not a field name", c->axis);
	if (!rc)
		rc = check_metrics(c->metrics, err, errlen);
	o->metrics = c->metrics;
	o->welch = c->welch;
	o->axis = c->axis ? c->axis : "kernel";
	o->axis_given = c->axis != NULL;
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

/* Side i is @args[i], labelled A, B, ...; -errno, said on stderr. */
static int load_sides(struct cmp_result *r, int nsides, char **args)
{
	char err[1024] = "";

	r->sides = calloc(nsides, sizeof(*r->sides));
	if (!r->sides)
		return -ENOMEM;
	for (int s = 0; s < nsides; s++) {
		r->nsides++;
		snprintf(r->sides[s].label, sizeof(r->sides[s].label), "%c", 'A' + s);
		if (cmp_side_load(&r->sides[s], args[s], err, sizeof(err))) {
			cgs_errs("compare", "%s", *err ? err : "out of memory");
			return -EINVAL;
		}
	}
	return 0;
}

/* The output on stdout; the human formats escaped whole (lib/esc.h):
 * strings from result files drive no terminal. JSON is json-c's own. */
static int print_escaped(const struct cmp_result *r, int format)
{
	struct cgs_esc_buf b;
	int rc;

	if (format == CMP_FMT_JSON)
		return cmp_print(r, format, stdout) || fflush(stdout) ? -EIO : 0;
	if (cgs_esc_open(&b))
		return -ENOMEM;
	rc = cmp_print(r, format, b.f) ? -EIO : 0;
	if (cgs_esc_close(&b, stdout) || fflush(stdout))
		rc = -EIO;
	return rc;
}

/* The profiles' comparison, then the output, --junit and --html; -errno,
 * said on stderr. */
static int write_outputs(struct cmp_result *r, const struct cmp_cli *cli,
			 const char *html, struct cmp_profile *prof)
{
	struct cmp_prof_opts po;
	char err[1024] = "";

	cmp_prof_opts_default(&po);
	po.floor = cli->prof_floor;
	po.threshold = cli->prof_threshold;
	po.rank = (enum cmp_pns_rank)cli->prof_rank;
	po.rows = (unsigned)cli->prof_rows;
	po.calltraces = cli->prof_calltraces;
	if (cmp_profile_analyse_opts(r, &po, prof)) {
		fprintf(stderr, "cgscale compare: out of memory comparing the profiles\n");
		return -ENOMEM;
	}
	r->prof = prof;
	if (print_escaped(r, cli->format)) {
		cgs_errs("compare", "cannot write the output: %s", strerror(errno));
		return -EIO;
	}
	if (cli->junit && cmp_write_junit(r, cli->junit, err, sizeof(err))) {
		cgs_errs("compare", "%s", err);
		return -EIO;
	}
	if (html && write_html(r, html))
		return -EIO;
	return 0;
}

/* The options together and the sides' count, before any input is read;
 * the --html page's path into *@html. -1 to go on, else the exit status
 * (said on stderr). */
static int check_args(const struct cmp_cli *cli, struct cmp_result *r,
		      int nsides, char **html)
{
	char err[1024] = "";
	int rc = to_opts(cli, &r->o, err, sizeof(err));

	if (!rc && nsides < 2)
		rc = cgs_errf(err, sizeof(err), -EINVAL, "give a baseline and at least one new side: cgscale compare BASE NEW [NEW...]");
	if (!rc && nsides > CMP_MAX_SIDES)
		rc = cgs_errf(err, sizeof(err), -EINVAL, "at most %d sides", CMP_MAX_SIDES);
	if (!rc && cli->html && !(*html = rpt_output_path("--html", cli->html, err, sizeof(err))))
		rc = -EINVAL;
	if (!rc && cli->junit)
		rc = cgs_check_out_path("--junit", cli->junit, err, sizeof(err));
	if (!rc)
		return -1;
	cgs_errs("compare", "%s", err);
	return CGS_EXIT_BADINPUT;
}

/* Load the sides @args, compare them and write the outputs: the exit
 * status. Bad input from here on is a commit to skip when bisecting. */
static int compare(struct cmp_result *r, const struct cmp_cli *cli,
		   const char *html, int nsides, char **args, bool bisect)
{
	struct cmp_profile prof = { 0 };
	int status = bisect ? CGS_EXIT_BISECT_SKIP : CGS_EXIT_BADINPUT, rc;
	char err[1024] = "";

	if (load_sides(r, nsides, args))
		return status;
	rc = cmp_analyse(r, err, sizeof(err));
	if (rc == -EXDEV) {
		cgs_errs("compare", "incomparable inputs: %s", r->problem);
		if (html)   /* the page shows the environment diff: why */
			write_html(r, html);
		return bisect ? CGS_EXIT_BISECT_SKIP : CGS_EXIT_INCOMPARABLE;
	}
	if (rc)
		cgs_errs("compare", "%s", *err ? err : strerror(-rc));
	else if (!write_outputs(r, cli, html, &prof))
		status = cmp_exit_status(r);
	r->prof = NULL;
	cmp_profile_free(&prof);
	return status;
}

static int cmd_compare(const struct cgs_command *self, int argc, char **argv)
{
	struct cmp_cli cli = { 0 };
	struct cgs_optset set;
	struct cmp_result r = { 0 };
	bool bisect = wants_bisect(argc, argv);
	int first = 0, status;
	char *html = NULL;

	status = cgs_cmd_open(self, &set, &cli, argc, argv, &first);
	if (status < 0)
		status = check_args(&cli, &r, argc - first, &html);
	if (status == CGS_EXIT_BADINPUT && bisect)
		status = CGS_EXIT_BISECT_ABORT;
	if (status < 0)
		status = compare(&r, &cli, html, argc - first, argv + first, bisect);
	free(html);
	cmp_result_free(&r);
	cgs_opt_free(&set);
	return status;
}

const struct cgs_command cgs_cmd_compare = {
	.name = "compare",
	.summary = "compare result files: statistics, verdicts, CI exit codes",
	.fn = cmd_compare,
	.opts = { "compare options", compare_opts, ARRAY_SIZE(compare_opts), NULL },
	.help_head = help_head,
	.help_more = help_metrics,
	.help_tail = help_tail,
	.err_who = "compare",
	.man = man,
	.complete_args = "-f",
};
