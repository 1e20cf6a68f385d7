/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symtab.h - address to function name: the kernel's from /proc/kallsyms
 * (text symbols; each runs to the next one), and an ELF file's from its
 * symbol table through libelf (functions with their sizes), shifted by
 * the load bias. A table is sorted by address and looked up by bisection.
 */
#ifndef CGS_SYMTAB_H
#define CGS_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cgs_sym {
	uint64_t addr;
	uint64_t size;      /* 0: up to the next symbol */
	char *name;
};

struct cgs_symtab {
	struct cgs_sym *v;
	size_t n, cap;
	bool hidden;        /* kallsyms listed only zero addresses */
};

/*
 * Load the text symbols of a kallsyms-format file (@path, normally
 * /proc/kallsyms). When every address reads as 0 (kptr_restrict, not
 * root) the table stays empty and t->hidden is set. 0 or -errno.
 */
int cgs_symtab_load_kallsyms(struct cgs_symtab *t, const char *path);

/* Add the function symbols of ELF file @path (.symtab, else .dynsym),
 * at their address + @bias. 0 or -errno (-ENOEXEC: not ELF). */
int cgs_symtab_load_elf(struct cgs_symtab *t, const char *path,
			uint64_t bias);

/* The same for ELF file @path as mapped in a process from file offset 0
 * at @start (a line of /proc/PID/maps): the bias is taken from its
 * first loadable segment (0 for a fixed-address program). */
int cgs_symtab_load_elf_mapped(struct cgs_symtab *t, const char *path, uint64_t start);

/* The same from an ELF image of @size bytes in memory (the vDSO), only
 * the names that start with @prefix when it is not NULL. 0 or -errno. */
int cgs_symtab_load_elf_image(struct cgs_symtab *t, const void *image, size_t size,
			      uint64_t bias, const char *prefix);

/* Sort after loading; lookups need it. */
void cgs_symtab_sort(struct cgs_symtab *t);

/* The function holding @addr, or NULL. */
const char *cgs_symtab_lookup(const struct cgs_symtab *t, uint64_t addr);

void cgs_symtab_free(struct cgs_symtab *t);

#endif
