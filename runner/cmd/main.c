/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - the cgscale command: dispatch to a subcommand of the command
 * table (commands.h). Each subcommand returns the process exit status
 * itself (lib/exit.h).
 */
#include <stdio.h>
#include <string.h>

#include "lib/exit.h"
#include "lib/util.h"
#include "lib/version.h"
#include "runner/cmd/cmd.h"
#include "runner/cmd/gendoc.h"

int main(int argc, char **argv)
{
	const struct cgs_cmdtab *t = &cgs_cmdtab;
	const struct cgs_command *c;

	if (argc < 2) {
		cgs_cmd_top_usage(t, stderr);
		return CGS_EXIT_BADINPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		cgs_cmd_top_usage(t, stdout);
		return CGS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cgscale %s (git %s)\n", CGS_VERSION, CGS_GIT);
		return CGS_EXIT_OK;
	}
	/* hidden: what `make` generates the man pages and completion with */
	if (!strcmp(argv[1], "--gen-man") && argc == 3)
		return cgs_gen_man(argv[2], t, stdout);
	if (!strcmp(argv[1], "--gen-completion") && argc == 3)
		return cgs_gen_completion(argv[2], t, stdout);
	c = cgs_cmd_find(t, argv[1]);
	if (c)
		return c->fn(c, argc - 1, argv + 1);
	cgs_err("unknown command '%s'; see 'cgscale --help'", argv[1]);
	return CGS_EXIT_BADINPUT;
}
