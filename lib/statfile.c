/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statfile.c - read and parse the cgroup statistics files of statfile.h.
 * One read = open + pread from offset 0 until end of file + close: what a
 * monitoring agent does, and what makes the kernel generate (and, for
 * memory.stat, flush) the statistics once per read.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/statfile.h"

const char *const cgs_stat_file_names[] = {
	"memory.stat", "cgroup.stat", "cpu.stat", "memory.numa_stat", NULL
};
const char *const cgs_stat_target_names[] = { "leaf", "top", "parent", NULL };

#define MAXF 40

/* Fields of a line, split on spaces; returns how many (at most MAXF). */
static unsigned split(const char *line, size_t len, const char **f, size_t *fl)
{
	unsigned n = 0;
	size_t i = 0;

	while (i < len && n < MAXF) {
		while (i < len && line[i] == ' ')
			i++;
		if (i >= len)
			break;
		f[n] = line + i;
		while (i < len && line[i] != ' ')
			i++;
		fl[n] = (size_t)(line + i - f[n]);
		n++;
	}
	return n;
}

ssize_t cgs_stat_read(const char *path, char **buf, size_t *cap)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	for (;;) {
		if (!*buf || *cap - len < 2) {
			size_t ncap = *cap ? 2 * *cap : 16384;
			char *nb = realloc(*buf, ncap);

			if (!nb) {
				close(fd);
				return -ENOMEM;
			}
			*buf = nb;
			*cap = ncap;
		}
		n = pread(fd, *buf + len, *cap - len - 1, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	(*buf)[len] = 0;
	return (ssize_t)len;
}

/* A whole signed decimal of @n characters? */
static bool parse_int(const char *s, size_t n, int64_t *v)
{
	char tmp[32], *end;

	if (!n || n >= sizeof(tmp))
		return false;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	errno = 0;
	*v = strtoll(tmp, &end, 10);
	return !errno && *end == 0 && (isdigit((unsigned char)tmp[0]) || tmp[0] == '-');
}

struct json_object *cgs_stat_parse(const char *text)
{
	struct json_object *o = json_object_new_object();

	for (const char *l = text; o && l && *l;) {
		const char *e = strchr(l, '\n'), *f[MAXF];
		size_t len = e ? (size_t)(e - l) : strlen(l), fl[MAXF];
		unsigned n = split(l, len, f, fl);
		struct json_object *sub;
		char key[128];
		const char *eq;
		int64_t v;

		l = e ? e + 1 : NULL;
		if (!n)
			continue;
		eq = memchr(f[0], '=', fl[0]);
		snprintf(key, sizeof(key), "%.*s", (int)(eq ? (size_t)(eq - f[0]) : fl[0]), f[0]);
		if (n == 2 && !eq && parse_int(f[1], fl[1], &v)) {
			json_object_object_add(o, key, json_object_new_int64(v));
			continue;
		}
		/* "anon N0=1 N1=2" (v2) or "total=3 N0=1 N1=2" (v1) */
		sub = json_object_new_object();
		for (unsigned i = eq ? 0 : 1; sub && i < n; i++) {
			const char *q = memchr(f[i], '=', fl[i]);
			char name[64];

			if (!q || !parse_int(q + 1, fl[i] - (size_t)(q + 1 - f[i]), &v)) {
				json_object_put(sub);
				sub = NULL;
				break;
			}
			snprintf(name, sizeof(name), "%.*s", (int)(q - f[i]), f[i]);
			json_object_object_add(sub, name, json_object_new_int64(v));
		}
		if (sub && json_object_object_length(sub))
			json_object_object_add(o, key, sub);
		else
			json_object_put(sub);
	}
	return o;
}
