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
#include <sys/stat.h>
#include <unistd.h>

#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/outpath.h"
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
	"\nexit status:\n"
	"  0  written\n"
	"  1  the write failed (the journal is kept)\n"
	"  2  bad input: no journal, not a journal, one a running cgscale still writes,\n"
	"     or an output directory that cannot be written\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-recover(1) - hand-written text; SYNOPSIS, the first paragraph,\n"
	".\\\" OPTIONS and EXIT STATUS are generated from the --help text and the\n"
	".\\\" option table at build time.\n"
	".TH CGSCALE\\-RECOVER 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-recover \\- turn the journal of a run that did not finish into a result\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	"While it runs,\n"
	".B cgscale run\n"
	"keeps that journal beside its output,\n"
	".IR output .partial,\n"
	"with every point that finished; it is removed when the result is written.\n"
	"When the journal beside the output could not be written, the run moved it\n"
	"to the fallback place,\n"
	".IR $XDG_STATE_HOME /cgscale/\n"
	"(else\n"
	".IR ~/.local/state/cgscale/ ,\n"
	"else\n"
	".IR /var/tmp/cgscale\\-UID/ ),\n"
	"and said so; its result goes to the output it was for.\n"
	".SH OPTIONS\n"
	"@OPTIONS@\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale recover results/runs/20261201\\-0400/result.json.partial\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-run (1),\n"
	".BR cgscale\\-show (1)\n";

/* Where the result goes can be written: -o, else the journal's own
 * directory (its default is beside it). Bad input, before anything is
 * read: 0, or -errno said on stderr. */
static int check_target(const char *output, const char *journal)
{
	char err[1024], dir[PATH_MAX];
	const char *slash = strrchr(journal, '/');
	struct stat st;
	int rc;

	if (output) {
		rc = cgs_check_out_path("recover -o", output, err, sizeof(err));
		if (rc)
			cgs_err("%s", err);
		return rc;
	}
	if (stat(journal, &st))
		return 0;       /* cgs_rj_recover says what is wrong with it */
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - journal + (slash == journal)),
			 journal);
	if (!access(dir, W_OK))
		return 0;
	rc = -errno;
	cgs_err("recover %s: cannot write in %s (%s), where the result goes; give -o FILE in a writable directory",
		journal, dir, strerror(-rc));
	return rc;
}

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
	if (check_target(cli->output, args[0]))
		return CGS_EXIT_BADINPUT;
	rc = cgs_rj_recover(args[0], NULL, cli->output, &rv, err, sizeof(err));
	if (rc)
		cgs_err("%s", err);
	else if (rv.already)
		cgs_info("nothing to recover: %s holds all %u point(s) of this journal's run already (the same run id); the journal is removed",
			 rv.out, rv.npoints);
	else
		cgs_info("recovered %u point(s) into %s (\"complete\": false)",
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
