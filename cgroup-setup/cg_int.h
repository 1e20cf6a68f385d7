/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_int.h - what the files of cgroup-setup/ share among themselves.
 */
#ifndef CG_INT_H
#define CG_INT_H

#include <errno.h>
#include <string.h>

#include "cgroup-setup/cg.h"

/* Copy @src into @dst of @len bytes; -ENAMETOOLONG (and "") if it does
 * not fit. (snprintf("%s") into a smaller buffer trips gcc's
 * -Wformat-truncation.) */
static inline int cg_copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len) {
		if (len)
			dst[0] = 0;
		return -ENAMETOOLONG;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

/* Set the marker xattr on @full. 0 or -errno with @err. */
int cg_mark(const char *full, const char *value, char *err, size_t errlen);

/*
 * v2: make the parent of tree hierarchy @h able to hold our cgroups with
 * h->need enabled: check each controller is available there, and enable
 * the missing ones in its cgroup.subtree_control, after moving the runner
 * into a leaf of its own when it lives there. Records what it did in @h.
 */
int cg_v2_prepare(struct cg_tree *t, struct cg_thier *h, char *err,
		  size_t errlen);

/* Undo cg_v2_prepare once our cgroups are gone. */
int cg_v2_restore(struct cg_tree *t, struct cg_thier *h, char *err,
		  size_t errlen);

/* cg_procs.c: the processes in cgroup dir @full, as "pid (comm)" lists:
 * those recorded in @own in @ours, any other in @foreign. Returns how
 * many are foreign, or -errno. */
int cg_procs_sort(const char *full, const struct cg_own *own, char *ours,
		  size_t olen, char *foreign, size_t flen);

#endif
