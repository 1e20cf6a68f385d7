/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - `cgscale run [options] TEST...`: its row, and the opening that
 * reads its options (its own, then each workload's knobs) before
 * runner/run/run.c runs the points.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"
#include "runner/cmd/cmd.h"
#include "runner/run/run.h"

static const char help_head[] =
	"usage: cgscale run [options] TEST...\n"
	"Run each TEST (see 'cgscale list') at every task count and mode.\n";

static const char help_tail[] =
	"\ntask counts:\n"
	"  N        N tasks; 50%: that share of the online CPUs (rounded down, at least\n"
	"           1, as LKP's nr_task); all: one task per CPU (hardware thread)\n"
	"  1,2,4    a list; 1-8: a range; items combine, sorted, each count once\n"
	"  sweep    a scalability curve along the topology: 1, one LLC's cores, one\n"
	"           package's, one NUMA node's, all cores, all CPUs (hardware threads)\n"
	"\nexit status:\n"
	"  0        all points ran (skipped points included)\n"
	"  1        a point failed\n"
	"  2        bad input: nothing was run or written\n"
	"  130/143  interrupted by SIGINT/SIGTERM; the points that finished are kept\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-run(1) - hand-written text; SYNOPSIS, the first paragraph,\n"
	".\\\" OPTIONS, WORKLOADS, TASK COUNTS and EXIT STATUS are generated from the\n"
	".\\\" --help text, the option tables and the registry at build time.\n"
	".TH CGSCALE\\-RUN 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-run \\- run workloads and write a result file\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	"Each task count of\n"
	".B \\-\\-tasks\n"
	"(see TASK COUNTS) in each mode of\n"
	".B \\-\\-mode\n"
	"is a\n"
	".IR point .\n"
	"Each point warms up, then is sampled every\n"
	".B \\-\\-interval\n"
	"for\n"
	".BR \\-\\-duration ;\n"
	"every task's operation count at every sample goes into the result file,\n"
	"together with the environment (kernel, CPU, topology, cgroup layout,\n"
	"the effective value of every option).\n"
	"With\n"
	".B \\-\\-runs\n"
	"every point repeats, interleaved, so that\n"
	".BR cgscale\\-compare (1)\n"
	"sees one value per run.\n"
	".PP\n"
	"Tasks are placed one per core (then one per hardware thread) by default,\n"
	"from the machine's hwloc topology.\n"
	"As root the tasks run by default in a cgroup of cgscale's own\n"
	".RB ( \\-\\-cgroup\\-depth ),\n"
	"made fresh per point and removed afterwards, also on failure and on a\n"
	"signal.\n"
	"SIGINT or SIGTERM stops the tasks between two samples and writes the\n"
	"completed points to the result file, marked incomplete.\n"
	".SH OPTIONS\n"
	"The options of a workload apply to that workload only; they are listed\n"
	"under its name.\n"
	"@OPTIONS@\n"
	".SH WORKLOADS\n"
	"@WORKLOADS@\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	"One short point, as a smoke test:\n"
	".PP\n"
	".EX\n"
	"cgscale run \\-w 0.1 \\-d 0.3 \\-i 0.1 \\-\\-cgroup\\-depth 0 page_fault1\n"
	".EE\n"
	".PP\n"
	"A scalability curve (\\-t sweep: 1 task, then one LLC's cores and so on up\n"
	"to every CPU), three interleaved runs, with perf counters:\n"
	".PP\n"
	".EX\n"
	"cgscale run \\-t sweep \\-r 3 \\-e default \\-o results/ page_fault1 page_fault2\n"
	".EE\n"
	".PP\n"
	"The same points with no cgroup of our own and inside three nested ones:\n"
	".PP\n"
	".EX\n"
	"cgscale run \\-\\-cgroup\\-depth 0,3 \\-r 4 page_fault1\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale (1),\n"
	".BR cgscale\\-list (1),\n"
	".BR cgscale\\-events (1),\n"
	".BR cgscale\\-cgroup (1),\n"
	".BR cgscale\\-compare (1)\n";

/* The page's and the completion's tables: run's, then each workload's. */
static size_t doc_sets(enum cgs_doc_use use, struct cgs_optset *sets, size_t max)
{
	size_t n = 0;

	(void)use;
	n += cgs_run_own_optsets(NULL, sets + n);
	for (size_t i = 0; i < cgs_nworkloads && n < max; i++)
		if (cgs_workloads[i]->nopts)
			sets[n++] = (struct cgs_optset){ cgs_workloads[i]->name,
				cgs_workloads[i]->opts, cgs_workloads[i]->nopts, NULL };
	return n;
}

/* The registry and the tables checked, their defaults in @r, argv parsed
 * against them: -1 to go on, else the exit status. */
static int open_run(const struct cgs_command *self, struct cgs_run *r,
		    struct cgs_optset *sets, size_t *nsets, int argc,
		    char **argv, int *first)
{
	const struct cgs_opt *given[CGS_RUN_MAX_SETS];
	char err[1024];
	int rc;

	if (cgs_run_check_registry(err, sizeof(err))) {
		cgs_err("internal error: %s", err);
		return CGS_EXIT_INTERNAL;
	}
	rc = cgs_run_optsets(r, sets, nsets, err, sizeof(err));
	if (rc == -EINVAL)
		cgs_err("internal error: %s", err);
	if (rc)
		return rc == -EINVAL ? CGS_EXIT_INTERNAL : CGS_EXIT_BADINPUT;
	rc = cgs_cmd_parse_given(self, sets, *nsets, argc, argv, first, given);
	if (rc < 0)
		cgs_run_note_given(r, sets, given, *nsets);
	return rc;
}

static int cmd_run(const struct cgs_command *self, int argc, char **argv)
{
	struct cgs_run *r = cgs_run_new(argc, argv);
	struct cgs_optset sets[CGS_RUN_MAX_SETS];
	size_t nsets = 0;
	int first = 0, status;

	if (!r)
		return CGS_EXIT_INTERNAL;
	status = open_run(self, r, sets, &nsets, argc, argv, &first);
	if (status < 0)
		status = cgs_run_main(r, argc, argv, first);
	cgs_run_free(r, sets, nsets);
	free(r);
	return status;
}

const struct cgs_command cgs_cmd_run = {
	.name = "run",
	.summary = "run workloads and write a result file",
	.fn = cmd_run,
	.doc_sets = doc_sets,
	.help_head = help_head,
	.help_tail = help_tail,
	.man = man,
	.complete_args = CGS_COMPLETE_WORKLOADS,
	.complete_values = CGS_COMPLETE_RUN_VALUES,
};
