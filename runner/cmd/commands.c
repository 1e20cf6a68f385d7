/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commands.c - the table of subcommands built from commands.h, the
 * binary's own page cgscale(1), and `cgscale --help` from it.
 */
#include <stdio.h>
#include <string.h>

#include "lib/macros.h"
#include "runner/cmd/cmd.h"

static const struct cgs_command *const commands[] = {
#define CGS_COMMAND(n) &cgs_cmd_##n,
#include "runner/cmd/commands.h"
#undef CGS_COMMAND
};

/* `cgscale --help` around the list of commands, and cgscale(1)'s
 * synopsis and first paragraph (lib/helpman.h). */
static const char top_help_head[] =
	"usage: cgscale COMMAND [options] [args]\n"
	"       cgscale --version\n"
	"       cgscale --help\n"
	"\n"
	"A will-it-scale style microbenchmark suite for the Linux memory-management\n"
	"and memory-cgroup paths.\n";

static const char top_help_tail[] =
	"\n'cgscale COMMAND --help' explains a command's options; each command has\n"
	"its manual page, cgscale-COMMAND(1).\n";

/* cgscale(1): hand-written text; the synopsis, the commands, their
 * summaries and pages and the workloads are generated (gendoc.c). */
static const char top_man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale(1) - hand-written text; the command list is generated from\n"
	".\\\" the command table by 'cgscale --gen-man cgscale' at build time.\n"
	".TH CGSCALE 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale \\- scalability microbenchmarks of Linux memory management and memory cgroups\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	".B cgscale\n"
	"runs will\\-it\\-scale style workloads (page faults, fallocate, statistics\n"
	"reads, sendfile, remap) at a series of task counts, as processes and as\n"
	"threads, optionally inside nested cgroups of its own, and writes every\n"
	"sample of every task to a JSON result file.\n"
	"Result files of two kernels (or two cgroup layouts) are then compared\n"
	"with statistics made for A/B tests, exported for R or pandas, or drawn\n"
	"into a self\\-contained HTML report.\n"
	"@HELP_TAIL@\n"
	".SH COMMANDS\n"
	"@COMMANDS@\n"
	".SH WORKLOADS\n"
	"@WORKLOADS@\n"
	".SH OPTIONS\n"
	".TP\n"
	".B \\-\\-version\n"
	"Print the version and the git commit it was built from, as the result\n"
	"files record them.\n"
	".TP\n"
	".BR \\-h \", \" \\-\\-help\n"
	"Print the list of commands.\n"
	".SH EXIT STATUS\n"
	"Every command follows one convention (lib/exit.h); each command's page\n"
	"says which of these it returns.\n"
	".TP\n.B 0\ndone\n"
	".TP\n.B 1\n"
	"it ran, but something failed: a point, a chart, a write, a cleanup;\n"
	"compare: at least one REGRESSION\n"
	".TP\n.B 2\n"
	"bad usage or bad input: a one\\-line message says what is wrong and how\n"
	"to fix it; nothing was run or written\n"
	".TP\n.B 3\ncompare: the inputs cannot be compared\n"
	".TP\n.B 4\ncompare \\-\\-fail\\-on\\-inconclusive: INCONCLUSIVE or NOISY verdicts\n"
	".TP\n.B 70\nan internal error (a broken table, no memory before anything ran)\n"
	".TP\n.B 125, 128\ncompare \\-\\-bisect: skip this commit; bad usage, which aborts git bisect run\n"
	".TP\n.B 128+N\n"
	"run: stopped by signal N (130 SIGINT, 143 SIGTERM); the finished points\n"
	"are kept\n"
	".SH EXAMPLES\n"
	"Measure anonymous page faults at 1, 2 and 4 tasks, three runs each:\n"
	".PP\n"
	".EX\n"
	"cgscale run \\-t 1,2,4 \\-r 3 \\-o base.json page_fault1\n"
	".EE\n"
	".PP\n"
	"Boot the other kernel, measure again, and compare:\n"
	".PP\n"
	".EX\n"
	"cgscale run \\-t 1,2,4 \\-r 3 \\-o new.json page_fault1\n"
	"cgscale compare base.json new.json\n"
	".EE\n"
	".PP\n"
	"Find the kernel commit that made it slower, each step built, booted in a\n"
	"virtual machine, measured and compared (see\n"
	".BR cgscale\\-compare (1)):\n"
	".PP\n"
	".EX\n"
	"git bisect run /usr/share/cgscale/kernel\\-bisect\\-step.sh base.json page_fault1\n"
	".EE\n"
	".SH FILES\n"
	"The Debian package installs the documentation under\n"
	".IR /usr/share/doc/cgscale/ ,\n"
	"the larger files compressed (read them with zless);\n"
	".B make install\n"
	"puts the same files, uncompressed, in\n"
	".IR PREFIX /share/doc/cgscale/\n"
	"(PREFIX is /usr/local unless given).\n"
	".TP\n"
	".I /usr/share/doc/cgscale/README.md.gz\n"
	"what cgscale measures, how to run and compare, LKP and CI\n"
	".TP\n"
	".I /usr/share/doc/cgscale/SCHEMA.md.gz\n"
	"the result file format\n"
	".TP\n"
	".I /usr/share/doc/cgscale/COMPARE.md.gz\n"
	"how compare decides: the statistics, the verdicts, the exit status\n"
	".TP\n"
	".I /usr/share/doc/cgscale/docs/\n"
	"the manual, one page a topic (*.md, the longer ones *.md.gz)\n"
	".TP\n"
	".I /usr/share/cgscale/kernel\\-bisect\\-step.sh\n"
	"one step of a kernel bisection: build, boot, measure, compare\n"
	".SH SEE ALSO\n"
	"@SEEALSO@\n";

const struct cgs_cmdtab cgs_cmdtab = {
	commands, ARRAY_SIZE(commands), top_man, top_help_head, top_help_tail,
};

const struct cgs_command *cgs_cmd_find(const struct cgs_cmdtab *t,
				       const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(name, t->cmds[i]->name))
			return t->cmds[i];
	return NULL;
}

void cgs_cmd_top_usage(const struct cgs_cmdtab *t, FILE *out)
{
	fputs(t->help_head ? t->help_head : "", out);
	fputs("\ncommands:\n", out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(out, "  %-10s %s\n", t->cmds[i]->name, t->cmds[i]->summary);
	fputs(t->help_tail ? t->help_tail : "", out);
}
