/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.h - every result file (*.json) under a directory, in name order.
 */
#ifndef CGS_WALK_H
#define CGS_WALK_H

#include <stddef.h>

#define CGS_WALK_MAX_DEPTH 16
/* LKP's cgscale program writes its result here in LKP's result root
 * (integrations/lkp/programs/cgscale/run); the walk reads only it there. */
#define CGS_WALK_LKP_DIR "cgscale.results"

/* Called with each file's path; a non-zero return stops the walk. */
typedef int (*cgs_walk_fn)(const char *path, void *arg, char *err,
			   size_t errlen);

/*
 * Call @fn for every regular *.json file under @dir, depth first, sorted
 * by name, hidden entries skipped; in a directory that holds
 * CGS_WALK_LKP_DIR/ (an LKP result root), only the files under that, and
 * in one whose subdirectories are such roots (LKP's runs of a job beside
 * its avg.json), only those roots.
 * 0, @fn's result, or -errno with @err.
 */
int cgs_walk_json(const char *dir, cgs_walk_fn fn, void *arg, char *err,
		  size_t errlen);

#endif
