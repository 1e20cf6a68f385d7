/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remap.h - the pieces of the remap workload that unit tests call: the
 * pass orders, one mlock + remap_file_pages + munlock step, and the
 * verification that every page holds the data its order says.
 */
#ifndef CGS_REMAP_H
#define CGS_REMAP_H

#include <stddef.h>
#include <stdint.h>

#define REMAP_PAGES 512

/* The four passes of one stress-ng bogo-op, in its order. */
enum remap_pass {
	REMAP_REVERSE,    /* page i gets pgoff n-1-i */
	REMAP_RANDOM,     /* the identity, naively shuffled (not Fisher-Yates) */
	REMAP_ALL_TO_1,   /* every page gets pgoff 0 */
	REMAP_FORWARD,    /* page i gets pgoff i: the identity again */
	REMAP_NPASSES,
};

extern const char *const remap_pass_names[];

/* Fill @order[@n] for @pass; REMAP_RANDOM draws from *@rng (xorshift32,
 * not 0). */
void remap_order(enum remap_pass pass, uint16_t *order, size_t n,
		 uint32_t *rng);

/* Write the tag i into the first two bytes of page i (and fault it in). */
void remap_tag(void *base, size_t pgsize, size_t n);

/*
 * One op on the page at @addr: mlock, remap_file_pages to @pgoff, munlock.
 * A failed remap is retried once unlocked, as stress-ng does. Returns 0, or
 * -errno with *@call naming the call that failed.
 */
int remap_page(void *addr, size_t pgsize, uint16_t pgoff, const char **call);

/*
 * Check that page i holds tag order[i] for every page. Returns 0, or -EIO
 * with the first bad page in *@bad and what it held in *@got.
 */
int remap_verify(const void *base, size_t pgsize, const uint16_t *order,
		 size_t n, size_t *bad, uint16_t *got);

#endif
