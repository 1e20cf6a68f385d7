/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pidmap.c - pid to index by binary search in a sorted copy (pidmap.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/pidmap.h"

static int cmp_ent(const void *a, const void *b)
{
	pid_t x = ((const struct cgs_pidmap_ent *)a)->pid;
	pid_t y = ((const struct cgs_pidmap_ent *)b)->pid;

	return (x > y) - (x < y);
}

int cgs_pidmap_build(struct cgs_pidmap *m, const pid_t *pids, unsigned n)
{
	m->n = 0;
	m->e = malloc((n ? n : 1) * sizeof(*m->e));
	if (!m->e)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		if (pids[i] > 0)
			m->e[m->n++] = (struct cgs_pidmap_ent){ pids[i], i };
	qsort(m->e, m->n, sizeof(*m->e), cmp_ent);
	return 0;
}

int cgs_pidmap_find(const struct cgs_pidmap *m, pid_t pid)
{
	struct cgs_pidmap_ent key = { pid, 0 }, *hit;

	if (!m->n)
		return -1;
	hit = bsearch(&key, m->e, m->n, sizeof(*m->e), cmp_ent);
	return hit ? (int)hit->idx : -1;
}

void cgs_pidmap_free(struct cgs_pidmap *m)
{
	free(m->e);
	m->e = NULL;
	m->n = 0;
}
