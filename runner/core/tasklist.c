/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tasklist.c - parse -t/--tasks into a sorted, unique list of task
 * counts. Percentages and "all" count the PUs the run may use (topo.h);
 * "sweep" follows the topology (see tasklist.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/core/tasklist.h"
#include "lib/util.h"
#include "lib/macros.h"

static int tl_add(struct cgs_tasklist *l, unsigned v)
{
	unsigned *nv;

	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return 0;
	nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	l->v = nv;
	l->v[l->n++] = v;
	return 0;
}

/* A whole number 1..CGS_MAX_TASKS made of digits only; -1 if not. */
static long tl_number(const char *s, size_t len)
{
	long v = 0;

	if (!len || len > 6)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int tl_sweep(struct cgs_tasklist *l, const struct cgs_topo *topo)
{
	const unsigned steps[] = {
		1, topo->llc_cores, topo->package_cores, topo->numa_cores,
		topo->cores, topo->pus,
	};
	int rc = 0;

	for (size_t i = 0; !rc && i < ARRAY_SIZE(steps); i++)
		if (steps[i])
			rc = tl_add(l, steps[i]);
	l->sweep = true;
	return rc;
}

/* One comma-separated item. */
static int tl_item(struct cgs_tasklist *l, const char *s, size_t len,
		   const struct cgs_topo *topo, char *err, size_t errlen)
{
	const char *dash = memchr(s, '-', len);
	long a, b;

	if (len == 3 && !strncmp(s, "all", 3))
		return tl_add(l, topo->pus);
	if (len == 5 && !strncmp(s, "sweep", 5))
		return tl_sweep(l, topo);
	if (len && s[len - 1] == '%') {
		a = tl_number(s, len - 1);
		if (a < 1 || a > 1000)
			return cgs_errf(err, errlen, -EINVAL,
				      "-t: '%.*s' is not a percentage from 1%% to 1000%%",
				      (int)len, s);
		b = a * (long)topo->pus / 100;
		return tl_add(l, b < 1 ? 1 : (unsigned)b);
	}
	if (dash) {
		a = tl_number(s, dash - s);
		b = tl_number(dash + 1, len - (dash + 1 - s));
		if (a < 1 || b < 1 || a > b || b > CGS_MAX_TASKS)
			return cgs_errf(err, errlen, -EINVAL,
				      "-t: '%.*s' is not a range such as 1-8 (from 1 up to %d)",
				      (int)len, s, CGS_MAX_TASKS);
		for (long v = a; v <= b; v++) {
			int rc = tl_add(l, (unsigned)v);

			if (rc)
				return rc;
		}
		return 0;
	}
	a = tl_number(s, len);
	if (a < 1 || a > CGS_MAX_TASKS)
		return cgs_errf(err, errlen, -EINVAL,
			      "-t: '%.*s' is not a task count; use N (1-%d), a list 1,2,4, a range 1-8, 50%%, all or sweep",
			      (int)len, s, CGS_MAX_TASKS);
	return tl_add(l, (unsigned)a);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

int cgs_tasklist_parse(const char *s, const struct cgs_topo *topo,
		       struct cgs_tasklist *out, char *err, size_t errlen)
{
	const char *p = s;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!s || !*s)
		return cgs_errf(err, errlen, -EINVAL, "-t: empty task list; use e.g. -t 1,all");
	while (!rc) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		rc = tl_item(out, p, len, topo, err, errlen);
		if (!comma)
			break;
		p = comma + 1;
	}
	if (rc) {
		cgs_tasklist_free(out);
		return rc;
	}
	qsort(out->v, out->n, sizeof(*out->v), cmp_unsigned);
	return 0;
}

void cgs_tasklist_free(struct cgs_tasklist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
