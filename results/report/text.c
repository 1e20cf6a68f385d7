/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text.c - every string that goes into the report passes here: a
 * result file is data from anywhere (a test name, a kernel version, a
 * failure reason), so it is escaped for XHTML, or quoted for gnuplot, and
 * in both cases made valid UTF-8 with no control characters. The page
 * must stay well-formed and no string may become markup or a command.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/document.h"

#define REPLACEMENT 0xFFFD

/*
 * Decode one character of @s (not at its NUL): the number of bytes it
 * takes, with the code point in *cp; an invalid or truncated sequence
 * takes one byte and gives U+FFFD. Overlong forms, surrogates and code
 * points above U+10FFFF are invalid.
 */
static size_t utf8_next(const unsigned char *s, uint32_t *cp)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xBF;
	size_t n;
	uint32_t v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		v = c & 0x0F;
		if (c == 0xE0)
			lo = 0xA0;
		if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		v = c & 0x07;
		if (c == 0xF0)
			lo = 0x90;
		if (c == 0xF4)
			hi = 0x8F;
	} else {
		*cp = REPLACEMENT;
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		unsigned char b = s[i];

		if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF)) {
			*cp = REPLACEMENT;
			return 1;
		}
		v = (v << 6) | (b & 0x3F);
	}
	*cp = v;
	return n;
}

/* Characters a page must not hold: C0 controls but tab and newline, DEL,
 * C1 controls, and the non-characters XML forbids. */
static bool unwanted(uint32_t cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n') ||
	       (cp >= 0x7F && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF;
}

static size_t utf8_put(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

void rpt_html_puts(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char enc[4];

	while (p && *p) {
		uint32_t cp;

		p += utf8_next(p, &cp);
		if (unwanted(cp))
			cp = REPLACEMENT;
		switch (cp) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fwrite(enc, 1, utf8_put(cp, enc), out); break;
		}
	}
}

char *rpt_html_escape(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	rpt_html_puts(f, s);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void rpt_html_printf(FILE *out, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n >= 0)
		rpt_html_puts(out, s);
	free(s);
}

size_t rpt_gp_quote(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	if (len < 3) {
		if (len)
			buf[0] = 0;
		return 0;
	}
	buf[o++] = '\'';
	while (p && *p) {
		char enc[4];
		size_t k;
		uint32_t cp;

		p += utf8_next(p, &cp);
		if (unwanted(cp) || cp == '\n' || cp == '\t')
			cp = REPLACEMENT;
		if (cp == '\'') {
			enc[0] = enc[1] = '\'';
			k = 2;
		} else {
			k = utf8_put(cp, enc);
		}
		if (o + k + 2 > len)   /* room for the closing quote and NUL */
			break;
		memcpy(buf + o, enc, k);
		o += k;
	}
	buf[o++] = '\'';
	buf[o] = 0;
	return o;
}
