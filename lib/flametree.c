/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flametree.c - folded stacks as a tree of frames (flametree.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/flametree.h"

/* The child named @name of @n, made when missing; NULL on ENOMEM. */
static struct cgs_ftnode *kid_of(struct cgs_ftnode *n, const char *name,
				 size_t len)
{
	size_t lo = 0, hi = n->nkid;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(n->kid[mid].name, name, len);

		if (!c && n->kid[mid].name[len])
			c = 1;
		if (!c)
			return &n->kid[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (n->nkid == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 4;
		struct cgs_ftnode *v = realloc(n->kid, cap * sizeof(*v));

		if (!v)
			return NULL;
		n->kid = v;
		n->cap = cap;
	}
	memmove(&n->kid[lo + 1], &n->kid[lo], (n->nkid - lo) * sizeof(*n->kid));
	memset(&n->kid[lo], 0, sizeof(*n->kid));
	n->kid[lo].name = strndup(name, len);
	if (!n->kid[lo].name) {
		memmove(&n->kid[lo], &n->kid[lo + 1], (n->nkid - lo) * sizeof(*n->kid));
		return NULL;
	}
	n->nkid++;
	return &n->kid[lo];
}

int cgs_ftree_add(struct cgs_ftnode *root, const char *stack, uint64_t count)
{
	struct cgs_ftnode *n = root;
	const char *p = stack;

	root->total += count;
	while (*p) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);

		if (len) {
			n = kid_of(n, p, len);
			if (!n)
				return -ENOMEM;
			n->total += count;
		}
		p += len + (semi != NULL);
	}
	return 0;
}

/* @src into @dst, the samples of @src's tree being @all. */
static int merge(struct cgs_ftnode *dst, const struct cgs_ftnode *src, double w,
		 double all)
{
	double n = (double)src->total;
	int rc = 0;

	dst->total += src->total;
	dst->ns += w * n;
	dst->var += all > 0 ? w * w * n * (1 - n / all) : 0;
	for (size_t i = 0; !rc && i < src->nkid; i++) {
		const struct cgs_ftnode *k = &src->kid[i];
		struct cgs_ftnode *d = kid_of(dst, k->name, strlen(k->name));

		rc = d ? merge(d, k, w, all) : -ENOMEM;
	}
	return rc;
}

int cgs_ftree_merge(struct cgs_ftnode *dst, const struct cgs_ftnode *src, double w)
{
	return merge(dst, src, w, (double)src->total);
}

const struct cgs_ftnode *cgs_ftree_child(const struct cgs_ftnode *n,
					 const char *name)
{
	size_t lo = 0, hi = n ? n->nkid : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(n->kid[mid].name, name);

		if (!c)
			return &n->kid[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

unsigned cgs_ftree_depth(const struct cgs_ftnode *n)
{
	unsigned most = 0;

	for (size_t i = 0; i < n->nkid; i++) {
		unsigned d = cgs_ftree_depth(&n->kid[i]);

		if (d > most)
			most = d;
	}
	return n->nkid ? most + 1 : 0;
}

void cgs_ftree_free(struct cgs_ftnode *root)
{
	for (size_t i = 0; i < root->nkid; i++)
		cgs_ftree_free(&root->kid[i]);
	free(root->kid);
	free(root->name);
	memset(root, 0, sizeof(*root));
}
