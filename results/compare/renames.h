/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * renames.h - kernel functions renamed between versions, so that the
 * profiles of two kernels pair the old name with the new one instead of
 * showing one as SHRANK to nothing and the other as GREW from nothing.
 */
#ifndef CGS_CMP_RENAMES_H
#define CGS_CMP_RENAMES_H

#include <stdbool.h>

/* The other name of @sym (the new for an old one, the old for a new
 * one), or NULL when @sym was not renamed. */
const char *cmp_rename_other(const char *sym);

/* What cmp_rename_pair() returns for a name whose pair is made by the
 * other name. */
extern const char cmp_rename_skip[];

/* The pairing of function @sym across the sides, where @has(@arg, side,
 * name) says whether side 0 (A) or 1 (B) has a name: where A has only
 * @sym and B only its other name, B's name; where A has only the other
 * name and B only @sym, cmp_rename_skip (A's name makes the pair); else
 * NULL (a row of its own). */
const char *cmp_rename_pair(const char *sym, bool (*has)(void *arg, int side, const char *name),
			    void *arg);

#endif
