/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gendoc.h - the documentation generated from the command table (cmd.h):
 * the man pages and the shell completion (see gendoc.c).
 */
#ifndef CGS_GENDOC_H
#define CGS_GENDOC_H

#include <stdio.h>

#include "runner/cmd/cmd.h"

/*
 * Write the man page @page of @t to @out: "cgscale" (t->man) or
 * "cgscale-COMMAND" (that command's man), its lines @OPTIONS@, @COMMANDS@,
 * @SEEALSO@ and @WORKLOADS@ generated and @VERSION@ replaced. "--list"
 * writes the names of every page instead, one a line. Returns the exit
 * status: 0, or 2 for an unknown page.
 */
int cgs_gen_man(const char *page, const struct cgs_cmdtab *t, FILE *out);

/* Write the completion script for @shell ("bash"). Returns the exit
 * status: 0, or 2 for a shell it cannot write for. */
int cgs_gen_completion(const char *shell, const struct cgs_cmdtab *t, FILE *out);

#endif
