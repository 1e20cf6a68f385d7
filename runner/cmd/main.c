/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - the cgscale command: dispatch to a subcommand from one table.
 * Each subcommand returns the process exit status itself.
 */
#include <stdio.h>
#include <string.h>

#include "results/compare/compare.h"
#include "runner/cmd/gendoc.h"
#include "runner/run/run_journal.h"
#include "runner/observe/pmu.h"
#include "runner/run/run.h"
#include "lib/util.h"
#include "lib/version.h"
#include "lib/macros.h"

static const struct cgs_cmd cgs_cmds[] = {
	{ "run", cgs_cmd_run, "run workloads and write a result file" },
	{ "list", cgs_cmd_list, "list the workloads, what one op is, and their knobs" },
	{ "events", pmu_cmd_events, "list the perf events libpfm4 knows here (for run -e)" },
	{ "compare", cmp_cmd_compare, "compare result files: statistics, verdicts, CI exit codes" },
	{ "show", cmp_cmd_show, "print the summary of result files" },
	{ "export", cmp_cmd_export, "write result files as a tidy table (tsv, csv, json-lines) or LKP stats" },
	{ "cgroup", cgs_cmd_cgroup, "show the cgroups a run would create, or clean up a killed run's" },
	{ "report", cgs_cmd_report, "write an HTML page with charts and tables of result files" },
	{ "recover", cgs_cmd_recover, "turn the journal of a run that did not finish into a result" },
};
#define NCMDS (ARRAY_SIZE(cgs_cmds))

static void usage(FILE *out)
{
	fprintf(out, "usage: cgscale COMMAND [options] [args]\n\n"
		     "A will-it-scale style microbenchmark suite for the Linux memory-management\n"
		     "and memory-cgroup paths.\n\ncommands:\n");
	for (size_t i = 0; i < NCMDS; i++)
		fprintf(out, "  %-10s %s\n", cgs_cmds[i].name, cgs_cmds[i].help);
	fprintf(out, "\n'cgscale COMMAND --help' explains a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cgscale %s (git %s)\n", CGS_VERSION, CGS_GIT);
		return 0;
	}
	/* hidden: what `make` generates the man pages and completion with */
	if (!strcmp(argv[1], "--gen-man") && argc == 3)
		return cgs_gen_man(argv[2], cgs_cmds, NCMDS, stdin, stdout);
	if (!strcmp(argv[1], "--gen-completion") && argc == 3)
		return cgs_gen_completion(argv[2], cgs_cmds, NCMDS, stdout);
	for (size_t i = 0; i < NCMDS; i++)
		if (!strcmp(argv[1], cgs_cmds[i].name))
			return cgs_cmds[i].fn(argc - 1, argv + 1);
	cgs_err("unknown command '%s'; see 'cgscale --help'", argv[1]);
	return 2;
}
