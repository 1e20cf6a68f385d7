/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recover.c - `cgscale recover [-o FILE] JOURNAL`: turn the journal of a
 * run that did not finish (runner/run/run_journal.c) into a result marked
 * "complete": false.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/util.h"
#include "runner/cmd/cmd.h"
#include "runner/run/run_journal.h"

struct rcv_cli {
	char *output;
};

static const struct cgs_opt recover_opts[] = {
	OPT_STRING("output", 'o', struct rcv_cli, output, .metavar = "FILE",
		.help = "the result to write (default: the run's output, or <name>-recovered.json beside it when that exists)"),
};

static const char help_head[] =
	"usage: cgscale recover [options] JOURNAL\n"
	"Turn the journal of a run that did not finish (<output>.partial, left by a\n"
	"SIGKILL, an OOM kill, a power cut or a failed final write, or the one a run\n"
	"moved to the fallback place) into a normal result marked \"complete\": false,\n"
	"holding every point that finished. A torn, damaged (checksum) or wrong line,\n"
	"or a repeated point, is dropped and named by its line number; the others are\n"
	"kept. When a result of the same run (its run id) already holds the points,\n"
	"nothing is written. The journal is removed once done.\n";

static const char help_tail[] =
	"\nexit status: 0 written; 1 the write failed (the journal is kept); 2 bad\n"
	"input: no journal, not a journal, or one a running cgscale still writes.\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-recover(1) - hand-written text; OPTIONS is generated from the\n"
	".\\\" option table at build time.\n"
	".TH CGSCALE\\-RECOVER 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-recover \\- turn the journal of a run that did not finish into a result\n"
	".SH SYNOPSIS\n"
	".B cgscale recover\n"
	".RI [ options ]\n"
	".I JOURNAL\n"
	".SH DESCRIPTION\n"
	"While it runs,\n"
	".B cgscale run\n"
	"keeps a journal beside its output,\n"
	".IR output .partial,\n"
	"with every point that finished.\n"
	"When the run cannot write its result (SIGKILL, an OOM kill, a power cut,\n"
	"a failed final write) the journal stays behind;\n"
	".B cgscale recover\n"
	"turns it into a normal result file marked\n"
	".BR \"\\(dqcomplete\\(dq: false\" ,\n"
	"holding every point that finished.\n"
	"When the journal beside the output could not be written, the run moved it\n"
	"to the fallback place,\n"
	".IR $XDG_STATE_HOME /cgscale/\n"
	"(else\n"
	".IR ~/.local/state/cgscale/ ),\n"
	"and said so; its result goes to the output it was for.\n"
	"Each line carries a checksum: a torn, damaged or wrong line, or a point seen\n"
	"before, is dropped and named by its line number, and the other points are kept.\n"
	"When a result of the same run (the same run id) already holds every point (a\n"
	"kill after the final rename), nothing is written and the journal is removed.\n"
	"The journal is removed once the result is written.\n"
	".SH OPTIONS\n"
	"@OPTIONS@\n"
	".SH EXIT STATUS\n"
	"0 written; 1 the write failed (the journal is kept); 2 bad input: no\n"
	"journal, not a journal, or one a running cgscale still writes.\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale recover results/runs/20261201\\-0400/result.json.partial\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-run (1),\n"
	".BR cgscale\\-show (1)\n";

/* Recover the one journal of @args into -o or its default: the status. */
static int recover(const struct rcv_cli *cli, int nargs, char **args)
{
	struct cgs_rj_recovered rv;
	char err[1024];
	int rc;

	if (nargs != 1) {
		cgs_err("recover: name one journal (<output>.partial); see 'cgscale recover --help'");
		return CGS_EXIT_BADINPUT;
	}
	if (cli->output && !*cli->output) {
		cgs_err("recover -o '': give a file name");
		return CGS_EXIT_BADINPUT;
	}
	rc = cgs_rj_recover(args[0], NULL, cli->output, &rv, err, sizeof(err));
	if (rc)
		cgs_err("%s", err);
	else if (rv.already)
		fprintf(stderr, "cgscale: nothing to recover: %s holds all %u point(s) of this journal's run already (the same run id); the journal is removed\n",
			rv.out, rv.npoints);
	else
		fprintf(stderr, "cgscale: recovered %u point(s) into %s (\"complete\": false)\n",
			rv.npoints, rv.out);
	if (!rc)
		return CGS_EXIT_OK;
	return rc == -EBUSY || rc == -EINVAL || rc == -ENOENT ? CGS_EXIT_BADINPUT : CGS_EXIT_FAIL;
}

static int cmd_recover(const struct cgs_command *self, int argc, char **argv)
{
	struct rcv_cli cli = { 0 };
	struct cgs_optset set;
	int first = 0, status;

	status = cgs_cmd_open(self, &set, &cli, argc, argv, &first);
	if (status < 0)
		status = recover(&cli, argc - first, argv + first);
	cgs_opt_free(&set);
	return status;
}

const struct cgs_command cgs_cmd_recover = {
	.name = "recover",
	.summary = "turn the journal of a run that did not finish into a result",
	.fn = cmd_recover,
	.opts = { "recover options", recover_opts, ARRAY_SIZE(recover_opts), NULL },
	.help_head = help_head,
	.help_tail = help_tail,
	.man = man,
	.complete_args = "-f",
};
