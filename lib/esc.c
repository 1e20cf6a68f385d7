/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * esc.c - the escaping of esc.h: one pass over the bytes, a UTF-8
 * sequence kept whole when it is valid and not a C1 control.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/esc.h"

/*
 * The length of the valid UTF-8 sequence at @s (at most @n bytes), or 0
 * when it is not one: overlong forms, surrogates, code points above
 * U+10FFFF and truncated sequences are not.
 */
static size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF;
	size_t len;
	uint32_t v;

	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		v = c & 0x0F;
		lo = c == 0xE0 ? 0xA0 : 0x80;
		hi = c == 0xED ? 0x9F : 0xBF;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		v = c & 0x07;
		lo = c == 0xF0 ? 0x90 : 0x80;
		hi = c == 0xF4 ? 0x8F : 0xBF;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xBF))
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

/*
 * The next piece of @s (@n bytes left): *@take bytes of input become
 * the returned text, @out when escaped (at most 4 bytes per input
 * byte plus NUL), else NULL: the input bytes themselves.
 */
static const char *piece(const unsigned char *s, size_t n, unsigned flags,
			 size_t *take, char out[17])
{
	uint32_t cp = 0;
	size_t len;

	*take = 1;
	if (*s == '\n' || *s == '\t') {
		if (flags & CGS_ESC_KEEP_LINES)
			return NULL;
		return *s == '\n' ? "\\n" : "\\t";
	}
	if (*s == '\r')
		return "\\r";
	if (*s < 0x20 || *s == 0x7f) {
		snprintf(out, 17, "\\x%02x", *s);
		return out;
	}
	if (*s < 0x80)
		return NULL;
	len = utf8_len(s, n, &cp);
	if (!len) {
		snprintf(out, 17, "\\x%02x", *s);
		return out;
	}
	*take = len;
	if (cp >= 0x80 && cp <= 0x9F) {
		snprintf(out, 17, "\\x%02x\\x%02x", s[0], s[1]);
		return out;
	}
	return NULL;
}

int cgs_esc_write(FILE *out, const char *s, size_t n, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, plain = 0;
	char buf[17];

	while (i < n) {
		size_t take;
		const char *e = piece(p + i, n - i, flags, &take, buf);

		if (!e) {
			i += take;
			continue;
		}
		if (i > plain && fwrite(p + plain, 1, i - plain, out) != i - plain)
			return -EIO;
		if (fputs(e, out) == EOF)
			return -EIO;
		i += take;
		plain = i;
	}
	if (n > plain && fwrite(p + plain, 1, n - plain, out) != n - plain)
		return -EIO;
	return 0;
}

const char *cgs_esc(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p), o = 0;
	char tmp[17];

	if (!len)
		return buf;
	for (size_t i = 0; i < n;) {
		size_t take;
		const char *e = piece(p + i, n - i, 0, &take, tmp);
		const char *src = e ? e : (const char *)p + i;
		size_t sl = e ? strlen(e) : take;

		if (o + sl >= len)
			break;
		memcpy(buf + o, src, sl);
		o += sl;
		i += take;
	}
	buf[o] = 0;
	return buf;
}

char *cgs_esc_dup(const char *s)
{
	size_t len = 4 * strlen(s ? s : "") + 1;
	char *buf = malloc(len);

	return buf ? (char *)cgs_esc(s, buf, len) : NULL;
}

int cgs_esc_needed(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p);
	char tmp[17];

	for (size_t i = 0; i < n;) {
		size_t take;

		if (piece(p + i, n - i, 0, &take, tmp))
			return 1;
		i += take;
	}
	return 0;
}

int cgs_esc_open(struct cgs_esc_buf *b)
{
	b->buf = NULL;
	b->len = 0;
	b->f = open_memstream(&b->buf, &b->len);
	return b->f ? 0 : -ENOMEM;
}

int cgs_esc_close(struct cgs_esc_buf *b, FILE *out)
{
	int rc = fclose(b->f) ? -ENOMEM : 0;

	if (!rc)
		rc = cgs_esc_write(out, b->buf, b->len, CGS_ESC_KEEP_LINES);
	free(b->buf);
	b->buf = NULL;
	b->f = NULL;
	return rc;
}
