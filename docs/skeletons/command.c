/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * command.c - the skeleton of a subcommand: copy it to runner/cmd/NAME.c,
 * rename skeleton to NAME (cgs_cmd_NAME), and add CGS_COMMAND(NAME) to
 * runner/cmd/commands.h. It builds as it is and a test runs it
 * (check/unit/test_skeletons.c). Everything else follows from the row
 * at the end: dispatch, cgscale --help, the man page cgscale-NAME(1)
 * (made from the very text --help prints, lib/helpman.h), the bash and
 * zsh completion; the work itself lives in its room, not here.
 */
#include <stdbool.h>
#include <stdio.h>

#include "lib/exit.h"
#include "lib/macros.h"          /* ARRAY_SIZE */
#include "runner/cmd/cmd.h"

/* The command's options, one field each; its table fills them. */
struct skeleton_cli {
	bool loud;
	char *name;              /* owned by the struct: cgs_opt_free frees it */
};

static const struct cgs_opt skeleton_opts[] = {
	OPT_BOOL("loud", 'l', struct skeleton_cli, loud, .help = "say it in capitals"),
	OPT_STRING("name", 'n', struct skeleton_cli, name, .metavar = "WHO", .def = "world",
		   .help = "whom to greet"),
};

/* --help: a usage line, then paragraphs; `name:` headings and `  TERM
 * text` lists become the page's sections and lists. */
static const char help_head[] =
	"usage: cgscale skeleton [-l] [-n WHO]\n"
	"Greet WHO: the skeleton of a subcommand.\n";

static const char help_tail[] =
	"\nexit status:\n"
	"  0  greeted\n"
	"  2  bad usage\n";

/* The page, roff, with the generated parts as markers. */
static const char man[] =
	".TH CGSCALE\\-SKELETON 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-skeleton \\- the skeleton of a subcommand\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".SH OPTIONS\n"
	"@OPTIONS@\n"
	"@HELP_TAIL@\n";

/* The work, in the command's room (here: one line). */
static int greet(const struct skeleton_cli *cli, FILE *out)
{
	fprintf(out, cli->loud ? "HELLO, %s\n" : "hello, %s\n", cli->name);
	return CGS_EXIT_OK;
}

static int cmd_skeleton(const struct cgs_command *self, int argc, char **argv)
{
	struct skeleton_cli cli = { 0 };
	struct cgs_optset set;
	int first = 0, status = cgs_cmd_open(self, &set, &cli, argc, argv, &first);

	if (status < 0 && first < argc) {      /* it takes no arguments */
		fprintf(stderr, "cgscale skeleton: unexpected argument '%s'; see --help\n", argv[first]);
		status = CGS_EXIT_BADINPUT;
	}
	if (status < 0)    /* -1: parsed, go on; else the exit status */
		status = greet(&cli, stdout);
	cgs_opt_free(&set);
	return status;
}

const struct cgs_command cgs_cmd_skeleton = {
	.name = "skeleton",
	.summary = "greet someone (the skeleton of a subcommand)",
	.fn = cmd_skeleton,
	.opts = { "skeleton options", skeleton_opts, ARRAY_SIZE(skeleton_opts), NULL },
	.help_head = help_head,
	.help_tail = help_tail,
	.man = man,
};
