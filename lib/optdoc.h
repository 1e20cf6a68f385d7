/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optdoc.h - an option table as documentation: the OPTIONS part of a man
 * page (roff) and the bash completion of its options and values. The
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
 * bash `case "$prev" in` arms for the options of @set that take a separate
 * value (an optional one goes after '=', in the same word):
 * enum choices, file names for PATH/FILE, directories for DIR, commands
 * for PROG, and nothing (an empty reply) for any other value.
 */
void cgs_opt_bash_values(const struct cgs_optset *set, FILE *out);

#endif
