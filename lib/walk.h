/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.h - every result file (*.json) under a directory, in name order.
 */
#ifndef CGS_WALK_H
#define CGS_WALK_H

#include <stddef.h>

#define CGS_WALK_MAX_DEPTH 16

/* Called with each file's path; a non-zero return stops the walk. */
typedef int (*cgs_walk_fn)(const char *path, void *arg, char *err,
			   size_t errlen);

/*
 * Call @fn for every regular *.json file under @dir, depth first, sorted
 * by name, hidden entries skipped. 0, @fn's result, or -errno with @err.
 */
int cgs_walk_json(const char *dir, cgs_walk_fn fn, void *arg, char *err,
		  size_t errlen);

#endif
