/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helpman.c - a --help text as roff: its usage lines as a synopsis, the
 * rest as paragraphs, headings and tagged lists (the shapes are listed in
 * helpman.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "lib/helpman.h"

/* @n bytes of @s as roff text: runs of spaces as one, backslashes and
 * hyphens escaped, and when it starts a line (@bol), a leading '.' or
 * '\'' made harmless. */
static void put_span(const char *s, size_t n, bool bol, FILE *out)
{
	if (bol && n && (*s == '.' || *s == '\''))
		fputs("\\&", out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == ' ' && i + 1 < n && s[i + 1] == ' ')
			continue;
		if (s[i] == '\\')
			fputs("\\e", out);
		else if (s[i] == '-')
			fputs("\\-", out);
		else
			fputc(s[i], out);
	}
}

static bool is_usage(const char *l, size_t n)
{
	return (n > 7 && !strncmp(l, "usage: ", 7)) ||
	       (n > 15 && !strncmp(l, "       cgscale ", 15));
}

static bool is_heading(const char *l, size_t n)
{
	if (n < 2 || !islower((unsigned char)l[0]) || l[n - 1] != ':')
		return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (!islower((unsigned char)l[i]) && !isdigit((unsigned char)l[i]) &&
		    !strchr(" _-", l[i]))
			return false;
	return true;
}

static size_t indent_of(const char *l, size_t n)
{
	size_t i = 0;

	while (i < n && l[i] == ' ')
		i++;
	return i;
}

/* "  TERM  text": the length of TERM, else 0. */
static size_t item_term(const char *l, size_t n)
{
	size_t j = 2;

	if (indent_of(l, n) != 2)
		return 0;
	while (j < n && l[j] != ' ')
		j++;
	return j + 2 < n && l[j + 1] == ' ' ? j - 2 : 0;
}

/* One synopsis line: the command's words and the options bold, the
 * placeholders (upper case, or lower case not after an option) italic. */
static void synopsis_line(const char *l, size_t n, FILE *out)
{
	bool lead = true, lit = false;
	size_t i = indent_of(l, n), j;

	if (!strncmp(l, "usage: ", 7))
		i = 7;
	while (i < n) {
		if (l[i] == ' ') {
			fputc(' ', out);
			i += indent_of(l + i, n - i);
			continue;
		}
		for (j = i; j < n && !strchr(" []|=:,.", l[j]); j++)
			;
		if (lead)
			for (size_t k = i; k < j && lead; k++)
				lead = islower((unsigned char)l[k]) || isdigit((unsigned char)l[k]);
		if (j == i) {  /* punctuation: roman */
			lead = false;
			lit = lit && l[i] != '[' && l[i] != ']';
			put_span(l + i, 1, false, out);
			i++;
			continue;
		}
		lit = lit || l[i] == '-';
		fputs(lead || (lit && !isupper((unsigned char)l[i])) ? "\\fB" : "\\fI", out);
		put_span(l + i, j - i, false, out);
		fputs("\\fR", out);
		i = j;
	}
	fputs("\n", out);
}

void cgs_help_synopsis(const char *text, FILE *out)
{
	bool first = true;

	fputs(".ad l\n", out);  /* no stretched blanks between its words */
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);

		if (!is_usage(text, n))
			break;
		if (!first)
			fputs(".br\n", out);
		synopsis_line(text, n, out);
		first = false;
		text += n + (nl != NULL);
	}
	fputs(".ad\n", out);
}

enum blk { B_NONE, B_PARA, B_ITEM, B_IND };

/* The roff of line @l (@n bytes, not empty) after the block @cur and,
 * when @gap, an empty line; the block it is in. */
static enum blk man_line(const char *l, size_t n, enum blk cur, bool gap, FILE *out)
{
	size_t ind = indent_of(l, n), term = item_term(l, n);

	if (is_heading(l, n)) {
		fputs(".SH ", out);
		for (size_t i = 0; i + 1 < n; i++)
			fputc(l[i] == '-' ? '-' : toupper((unsigned char)l[i]), out);
		fputs("\n", out);
		return B_NONE;
	}
	if (term) {
		fputs(".TP\n\\fB", out);
		put_span(l + 2, term, false, out);
		fputs("\\fR\n", out);
		ind = 2 + term + indent_of(l + 2 + term, n - 2 - term);
		put_span(l + ind, n - ind, true, out);
		fputs("\n", out);
		return B_ITEM;
	}
	if (ind && !gap && (cur == B_ITEM || cur == B_IND)) {
		put_span(l + ind, n - ind, true, out);  /* it goes on */
		fputs("\n", out);
		return cur;
	}
	if (ind)
		fputs(".IP \"\" 4\n", out);
	else if (gap || cur == B_ITEM || cur == B_IND)
		fputs(".PP\n", out);
	put_span(l + ind, n - ind, true, out);
	fputs("\n", out);
	return ind ? B_IND : B_PARA;
}

void cgs_help_man(const char *text, FILE *out)
{
	enum blk cur = B_NONE;
	bool gap = false, usage = false;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		const char *l = text;

		text += n + (nl != NULL);
		if (cur == B_NONE && !gap && is_usage(l, n)) {
			usage = true;
			continue;
		}
		if (!n) {
			gap = !usage || cur != B_NONE;  /* not the one after the usage */
			continue;
		}
		usage = false;
		cur = man_line(l, n, cur, gap, out);
		gap = false;
	}
}
