/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optdoc.h - an option table as documentation: the OPTIONS part of a man
 * page (roff) and the bash and zsh completion of its options and values. The
 * pages and the completion are generated from the same tables that drive
 * parsing and --help, so they cannot drift from them.
 */
#ifndef CGS_OPTDOC_H
#define CGS_OPTDOC_H

#include <stdio.h>

#include "lib/opt.h"

/* Write @s as roff text: backslashes and hyphens escaped, and a leading
 * '.' or '\'' made harmless. */
void cgs_roff_puts(const char *s, FILE *out);

/* One .TP paragraph per option of @set, under ".SS title" if it has one:
 * short and long name, value placeholder, help, choices and default. */
void cgs_opt_man(const struct cgs_optset *set, FILE *out);

/* The words a shell offers for @set's options: " --name -x" each. */
void cgs_opt_words(const struct cgs_optset *set, FILE *out);

/*
 * The options of @set whose values come from elsewhere than the table:
 * @values, "NAME=KIND" lines (NULL: none), KIND "events" (a comma list of
 * the names `cgscale events` prints here, by the generated function
 * _cgscale_events) or "none" (nothing to offer).
 *
 * bash `case "$prev" in` arms for the options of @set that take a value
 * (an optional one only after '=', when the completion split the word
 * there: $split is true): enum choices, file names for PATH/FILE, directories for
 * DIR, commands for PROG, @values' kinds, and nothing (an empty reply)
 * for any other value. The script has $cur, $prev, $words and $split.
 */
void cgs_opt_bash_values(const struct cgs_optset *set, const char *values, FILE *out);

/*
 * zsh _arguments specs of @set, one a line ending in " \\": the short and
 * long name, a short description (the help up to its first ';', ':' or
 * " ("), the value's placeholder and how it completes (as for bash; "events"
 * is _cgscale_events); a repeatable option may come again, the others once.
 */
void cgs_opt_zsh_specs(const struct cgs_optset *set, const char *values, FILE *out);

#endif
