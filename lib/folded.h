/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folded.h - collapsed ("folded") stacks: "root;caller;leaf count", the
 * format flamegraph.pl, inferno and speedscope read. A set of stacks with
 * counts; bounding it to the stacks that cover a share of the samples
 * (the rest summed as "[other]"); the per-symbol self and children counts
 * of `perf report`; LKP's call-trace keys; parsing folded text.
 */
#ifndef CGS_FOLDED_H
#define CGS_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CGS_FOLDED_OTHER "[other]"

struct cgs_stack {
	char *stack;        /* frames root first, joined by ';' */
	uint64_t count;
};

/* A set of stacks, each once, with a hash index. */
struct cgs_stacks {
	struct cgs_stack *v;
	size_t n, cap;
	size_t *slot;       /* hash slots: index + 1, 0 = empty */
	size_t nslots;
	uint64_t total;
};

/* Add @count samples of @stack. 0 or -ENOMEM. */
int cgs_stacks_add(struct cgs_stacks *s, const char *stack, uint64_t count);

/* The entry of @stack, or NULL (not after sorting). */
struct cgs_stack *cgs_stacks_find(const struct cgs_stacks *s, const char *stack);

/* Add every line "stack count" of folded text @text. 0, -ENOMEM, or
 * -EINVAL at the first line that is not folded (*bad_line, from 1). */
int cgs_stacks_parse(struct cgs_stacks *s, const char *text, size_t *bad_line);

/* Sort by count, largest first, then by stack; the index is dropped, so
 * add nothing after. */
void cgs_stacks_sort(struct cgs_stacks *s);

/*
 * After sorting: keep the fewest stacks that cover @share (0..1) of the
 * samples and at most @max of them, the rest summed into one "[other]"
 * stack. The total is unchanged. 0 or -ENOMEM.
 */
int cgs_stacks_bound(struct cgs_stacks *s, double share, size_t max);

/* Write "stack count" lines. */
void cgs_stacks_write(const struct cgs_stacks *s, FILE *out);

void cgs_stacks_free(struct cgs_stacks *s);

/* Per symbol: samples where it is the leaf (self) and samples where it
 * is anywhere in the stack (children, once per sample as perf does). */
struct cgs_symcount {
	char *name;
	uint64_t self, children;
};

struct cgs_symcounts {
	struct cgs_symcount *v;
	size_t n;
};

/* The symbols of @s, sorted by children then self, largest first. */
int cgs_stacks_symbols(const struct cgs_stacks *s, struct cgs_symcounts *out);

/*
 * LKP's call traces: for every frame, that frame and up to @depth - 1 of
 * its callers, leaf first, joined by '.', counted once per sample (the
 * keys of perf-profile.calltrace.cycles-pp.*). Returned as a stack set.
 */
int cgs_stacks_calltraces(const struct cgs_stacks *s, unsigned depth,
			  struct cgs_stacks *out);

void cgs_symcounts_free(struct cgs_symcounts *c);

#endif
