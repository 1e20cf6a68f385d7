/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flametree.h - folded stacks as a tree of frames, the shape a flame
 * graph draws: each node is one frame reached by one path from the root,
 * with its inclusive sample count. Children keep the order of their
 * names, as flamegraph.pl sorts them, so two trees of the same stacks
 * are drawn alike; a path can be looked up in another tree (the base of
 * a differential flame graph). Trees of single runs can be merged with a
 * weight per sample (a run's ns/op per sample), so that each frame also
 * has a time per op and the binomial variance of it.
 */
#ifndef CGS_FLAMETREE_H
#define CGS_FLAMETREE_H

#include <stddef.h>
#include <stdint.h>

struct cgs_ftnode {
	char *name;                 /* NULL at the root */
	uint64_t total;             /* samples here and below */
	double ns, var;             /* merged: weighted samples, their variance */
	struct cgs_ftnode *kid;     /* sorted by name */
	size_t nkid, cap;
};

/* Add @count samples of @stack ("a;b;c", root first). 0 or -ENOMEM. */
int cgs_ftree_add(struct cgs_ftnode *root, const char *stack, uint64_t count);

/* Add the tree @src of one run to @dst: each node's samples, its
 * samples x @w to ns and w^2 n (1 - n/N) to var (N: @src's samples), the
 * variance of a binomial share's time. 0 or -ENOMEM. */
int cgs_ftree_merge(struct cgs_ftnode *dst, const struct cgs_ftnode *src, double w);

/* The child of @n named @name, or NULL. */
const struct cgs_ftnode *cgs_ftree_child(const struct cgs_ftnode *n,
					 const char *name);

/* Levels below the root (0 for an empty tree). */
unsigned cgs_ftree_depth(const struct cgs_ftnode *n);

/* Free what @root holds (not @root itself). */
void cgs_ftree_free(struct cgs_ftnode *root);

#endif
