/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symtab.c - symbol tables from kallsyms and from ELF files (symtab.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/symtab.h"

static int sym_add(struct cgs_symtab *t, uint64_t addr, uint64_t size,
		   const char *name)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		struct cgs_sym *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n].name = strdup(name);
	if (!t->v[t->n].name)
		return -ENOMEM;
	t->v[t->n].addr = addr;
	t->v[t->n].size = size;
	t->n++;
	return 0;
}

int cgs_symtab_load_kallsyms(struct cgs_symtab *t, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, seen = 0, nonzero = 0;
	int rc = 0;

	if (!f)
		return -errno;
	while (!rc && getline(&line, &cap, f) > 0) {
		uint64_t addr;
		char type, name[256];

		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		seen++;
		if (!addr)
			continue;
		nonzero++;
		rc = sym_add(t, addr, 0, name);
	}
	free(line);
	fclose(f);
	t->hidden = seen && !nonzero;
	if (!rc)
		cgs_symtab_sort(t);
	return rc;
}

/* The function symbols of one symbol section (named @prefix..., when
 * @prefix is not NULL). */
static int elf_section_syms(struct cgs_symtab *t, Elf *e, Elf_Scn *scn,
			    const GElf_Shdr *sh, uint64_t bias, const char *prefix)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	int rc = 0;

	for (size_t i = 0; d && !rc && i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    !s.st_value || s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (name && *name && (!prefix || !strncmp(name, prefix, strlen(prefix))))
			/* an ELF function's size is known: one of size 0
			 * (_init, _fini) covers its address only, not all up to
			 * the next symbol, or past the last one to the heap */
			rc = sym_add(t, s.st_value + bias, s.st_size ? s.st_size : 1, name);
	}
	return rc;
}

/* The symbols of the ELF @e (.symtab, else .dynsym). */
static int elf_syms(struct cgs_symtab *t, Elf *e, uint64_t bias, const char *prefix)
{
	Elf_Scn *scn = NULL, *sym = NULL, *dyn = NULL;
	GElf_Shdr sh, ssh = { 0 }, dsh = { 0 };
	int rc = 0;

	if (elf_kind(e) != ELF_K_ELF)
		return -ENOEXEC;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			sym = scn;
			ssh = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dsh = sh;
		}
	}
	if (sym)
		rc = elf_section_syms(t, e, sym, &ssh, bias, prefix);
	else if (dyn)
		rc = elf_section_syms(t, e, dyn, &dsh, bias, prefix);
	if (!rc)
		cgs_symtab_sort(t);
	return rc;
}

/* Where the first loadable segment (file offset 0) wants to be: what a
 * mapping of the file at offset 0 is biased against. */
static int first_load_vaddr(Elf *e, uint64_t *vaddr)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return -ENOEXEC;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
			*vaddr = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	}
	return -ENOEXEC;
}

/* The symbols of ELF file @path at @bias, or (@mapped) as mapped from
 * offset 0 at @bias. */
static int load_file(struct cgs_symtab *t, const char *path, uint64_t bias, bool mapped)
{
	uint64_t vaddr = 0;
	int fd, rc;
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	e = elf_begin(fd, ELF_C_READ, NULL);
	rc = !e || elf_kind(e) != ELF_K_ELF ? -ENOEXEC :
	     mapped ? first_load_vaddr(e, &vaddr) : 0;
	if (!rc)
		rc = elf_syms(t, e, bias - vaddr, NULL);
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

int cgs_symtab_load_elf(struct cgs_symtab *t, const char *path, uint64_t bias)
{
	return load_file(t, path, bias, false);
}

int cgs_symtab_load_elf_mapped(struct cgs_symtab *t, const char *path, uint64_t start)
{
	return load_file(t, path, start, true);
}

int cgs_symtab_load_elf_image(struct cgs_symtab *t, const void *image, size_t size,
			      uint64_t bias, const char *prefix)
{
	char *copy;
	int rc;
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	copy = malloc(size);     /* libelf takes a writable image */
	if (!copy)
		return -ENOMEM;
	memcpy(copy, image, size);
	e = elf_memory(copy, size);
	rc = e ? elf_syms(t, e, bias, prefix) : -ENOEXEC;
	if (e)
		elf_end(e);
	free(copy);
	return rc;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct cgs_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

void cgs_symtab_sort(struct cgs_symtab *t)
{
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), sym_cmp);
}

const char *cgs_symtab_lookup(const struct cgs_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	const struct cgs_sym *s;

	while (lo < hi) {           /* the first symbol above @addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &t->v[lo - 1];
	if (s->size && addr >= s->addr + s->size)
		return NULL;
	if (!s->size && lo == t->n)  /* past the last kernel symbol */
		return NULL;
	return s->name;
}

void cgs_symtab_free(struct cgs_symtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
