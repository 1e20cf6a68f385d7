/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helpman.h - the plain text of a --help as roff, so that a command's man
 * page is made from the very text its --help prints and holds every line
 * of it. The text keeps to a few shapes, which --help's readers see as
 * they are and the page turns into its own:
 *
 *   usage: cgscale CMD [options] ARG...   the synopsis (the first line,
 *          cgscale CMD --other ...        and the lines under it that
 *                                         start with seven spaces)
 *   name:                                 a heading: lowercase, alone on
 *                                         its line, ending with ':'
 *     TERM    text ...                    a tagged item: two spaces, one
 *             more text ...               word, two or more spaces; the
 *                                         lines indented deeper go on
 *     text ...                            an indented paragraph
 *   text ...                              a paragraph; an empty line ends it
 *
 * Runs of spaces inside a line are one space on the page.
 */
#ifndef CGS_HELPMAN_H
#define CGS_HELPMAN_H

#include <stdio.h>

/* The usage lines at the top of @text as the lines of a SYNOPSIS, in the
 * fonts of man-pages(7): literal words bold, placeholders italic; left
 * adjusted. */
void cgs_help_synopsis(const char *text, FILE *out);

/* Everything of @text but its usage lines as roff: paragraphs, ".SH" for
 * a heading (upper case), ".TP" for a tagged item, ".IP" for an indented
 * paragraph. A paragraph that follows something else starts with ".PP". */
void cgs_help_man(const char *text, FILE *out);

#endif
