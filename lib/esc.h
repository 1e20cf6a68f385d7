/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * esc.h - the one escaping of strings of outside origin (paths, option
 * values, strings read from result files) before they reach a terminal
 * or a text output: nothing in them can move the cursor, recolour, retitle
 * or clear the screen, or start a line of its own.
 *
 * Escaped: C0 controls as \n, \t, \r or \xNN; DEL as \x7f; C1 controls
 * (U+0080..U+009F, as UTF-8) and bytes that are not valid UTF-8 as \xNN
 * per byte. Valid UTF-8 text, a backslash included, passes as it is (the
 * escape is for reading, not a reversible encoding).
 */
#ifndef CGS_ESC_H
#define CGS_ESC_H

#include <stddef.h>
#include <stdio.h>

/* Keep newlines and tabs: for a whole text that has lines of its own
 * (a table), where the strings inside were escaped already. */
#define CGS_ESC_KEEP_LINES 1u

/* Write @n bytes of @s to @out, escaped. 0 or -EIO. */
int cgs_esc_write(FILE *out, const char *s, size_t n, unsigned flags);

/* @s escaped into @buf (always NUL-terminated when @len > 0, cut before
 * an escape or a character that does not fit); returns @buf, so that it
 * can be a printf argument. A NULL @s gives "". */
const char *cgs_esc(const char *s, char *buf, size_t len);

/* @s escaped, in a new string (free() it); NULL without memory. */
char *cgs_esc_dup(const char *s);

/* Does @s hold anything cgs_esc would change? */
int cgs_esc_needed(const char *s);

/*
 * A text output that shows strings from outside (show, compare): write
 * it into ->f of cgs_esc_open, then cgs_esc_close writes it all to @out
 * with CGS_ESC_KEEP_LINES, so that no string inside can drive the
 * terminal even where a printing site did not escape it itself.
 */
struct cgs_esc_buf {
	FILE *f;
	char *buf;
	size_t len;
};
int cgs_esc_open(struct cgs_esc_buf *b);
/* 0, -ENOMEM or -EIO; frees the buffer either way. */
int cgs_esc_close(struct cgs_esc_buf *b, FILE *out);

#endif
