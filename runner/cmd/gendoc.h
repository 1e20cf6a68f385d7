/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gendoc.h - the documentation generated from the command table (cmd.h):
 * the man pages (gendoc.c) and the shell completion (gencomp.c,
 * gencomp_zsh.c).
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

/* Write the completion script for @shell ("bash" or "zsh", gencomp.c).
 * Returns the exit status: 0, or 2 for a shell it cannot write for. */
int cgs_gen_completion(const char *shell, const struct cgs_cmdtab *t, FILE *out);

/* The zsh completion, a #compdef file (gencomp_zsh.c); 0 or 1. */
int cgs_gen_zsh(const struct cgs_cmdtab *t, FILE *out);

/* awk that turns `cgscale events` into the words -e completes: each event,
 * the lowercase alias of a generic perf:: one (perf::CYCLES: cycles), and
 * EVENT:UMASK. Both shells quote it in '...'. */
#define CGS_EVENTS_AWK \
	"/^Events/ { on = 1; next } !on { next } " \
	"/^  [^ ]/ { e = $1; print e; " \
	"if (e ~ /^perf::/ && e !~ /^perf::PERF_COUNT_/) print tolower(substr(e, 7)); next } " \
	"/^      :/ { print e $1 }"

#endif
