/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gendoc.h - the command table of cgscale and the documentation generated
 * from it: man pages and shell completion (see gendoc.c).
 */
#ifndef CGS_GENDOC_H
#define CGS_GENDOC_H

#include <stddef.h>
#include <stdio.h>

struct cgs_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

/*
 * Copy the hand-written man page template @in to @out, replacing the lines
 * @OPTIONS@ (the page's option tables), @COMMANDS@ (the command table) and
 * @WORKLOADS@ (the registry), and @VERSION@ anywhere. @page is "cgscale"
 * or "cgscale-COMMAND". Returns the exit status: 0, or 2 for an unknown page.
 */
int cgs_gen_man(const char *page, const struct cgs_cmd *cmds, size_t ncmds,
		FILE *in, FILE *out);

/* Write the completion script for @shell ("bash"). Returns the exit
 * status: 0, or 2 for a shell it cannot write for. */
int cgs_gen_completion(const char *shell, const struct cgs_cmd *cmds,
		       size_t ncmds, FILE *out);

#endif
