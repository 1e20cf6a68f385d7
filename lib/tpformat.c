/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpformat.c - the tracefs format parser of tpformat.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tpformat.h"

int cgs_tpformat_field(const char *format, const char *name,
		       struct cgs_tpfield *f)
{
	size_t nl = strlen(name);

	for (const char *s = strstr(format, "field:"); s; s = strstr(s + 1, "field:")) {
		const char *semi = strchr(s, ';'), *w = semi, *br;
		int off, size, sgn;

		if (!semi)
			break;
		/* the declaration's last word is the name, maybe with [N] */
		while (w > s + 6 && w[-1] != ' ' && w[-1] != '\t' && w[-1] != '*')
			w--;
		br = memchr(w, '[', (size_t)(semi - w));
		if ((size_t)((br ? br : semi) - w) != nl || memcmp(w, name, nl))
			continue;
		if (br)    /* an array is no scalar */
			return -EINVAL;
		if (sscanf(semi + 1, " offset:%d; size:%d; signed:%d;", &off, &size, &sgn) != 3)
			return -EINVAL;
		if (off < 0 || (size != 1 && size != 2 && size != 4 && size != 8))
			return -EINVAL;
		f->offset = off;
		f->size = size;
		f->is_signed = sgn != 0;
		return 0;
	}
	return -ENOENT;
}

int64_t cgs_tpfield_get(const struct cgs_tpfield *f, const void *raw,
			size_t len)
{
	const unsigned char *p = (const unsigned char *)raw + f->offset;

	if ((size_t)f->offset + (size_t)f->size > len)
		return 0;
	switch (f->size) {
	case 1: { uint8_t v; memcpy(&v, p, 1); return f->is_signed ? (int8_t)v : v; }
	case 2: { uint16_t v; memcpy(&v, p, 2); return f->is_signed ? (int16_t)v : v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return f->is_signed ? (int32_t)v : (int64_t)v; }
	default: { int64_t v; memcpy(&v, p, 8); return v; }
	}
}

int cgs_cpulist_last(const char *list)
{
	const char *s = list;
	long last = -1;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -EINVAL;
			s = end;
		}
		if (b > last)
			last = b;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return last < 0 || last > 1 << 20 ? -EINVAL : (int)last;
}
