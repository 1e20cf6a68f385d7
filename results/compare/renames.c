/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * renames.c - the one table of kernel functions on the page-fault, LRU,
 * rmap, charge and allocation paths that were renamed between the
 * kernels cgscale's users compare (6.1 to 6.12 and on), old name first.
 * Only functions that kept their role: a rename that also moved work
 * (a split, a merge) is not a pair.
 */
#include <stddef.h>
#include <string.h>

#include "lib/macros.h"
#include "results/compare/renames.h"

static const struct {
	const char *old, *new_;
} renames[] = {
	{ "do_set_pte", "set_pte_range" },
	{ "__mod_lruvec_page_state", "__lruvec_stat_mod_folio" },
	{ "page_add_new_anon_rmap", "folio_add_new_anon_rmap" },
	{ "page_add_file_rmap", "folio_add_file_rmap_ptes" },
	{ "page_remove_rmap", "folio_remove_rmap_ptes" },
	{ "lru_cache_add", "folio_add_lru" },
	{ "shmem_getpage_gfp", "shmem_get_folio_gfp" },
	{ "__alloc_pages", "__alloc_pages_noprof" },
	{ "alloc_pages_mpol", "alloc_pages_mpol_noprof" },
	{ "vma_alloc_folio", "vma_alloc_folio_noprof" },
	{ "free_unref_page", "free_frozen_pages" },
};

const char *cmp_rename_other(const char *sym)
{
	for (size_t i = 0; i < ARRAY_SIZE(renames); i++) {
		if (!strcmp(sym, renames[i].old))
			return renames[i].new_;
		if (!strcmp(sym, renames[i].new_))
			return renames[i].old;
	}
	return NULL;
}

const char cmp_rename_skip[] = "";

const char *cmp_rename_pair(const char *sym, bool (*has)(void *arg, int side, const char *name),
			    void *arg)
{
	const char *other = cmp_rename_other(sym);
	bool a, b, ao, bo;

	if (!other)
		return NULL;
	a = has(arg, 0, sym);
	b = has(arg, 1, sym);
	ao = has(arg, 0, other);
	bo = has(arg, 1, other);
	if (a && !ao && bo && !b)
		return other;
	return !a && ao && b && !bo ? cmp_rename_skip : NULL;
}
