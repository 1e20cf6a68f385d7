/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.c - the one walk of a results directory: every *.json file under
 * a directory, depth first, in name order, hidden entries skipped (so the
 * writers' temporary files never count), at most CGS_WALK_MAX_DEPTH
 * levels deep.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/walk.h"

static bool json_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && !strcmp(name + n - 5, ".json");
}

static int walk(const char *dir, unsigned depth, cgs_walk_fn fn, void *arg,
		char *err, size_t errlen)
{
	struct dirent **ents = NULL;
	int n, rc = 0;

	if (depth > CGS_WALK_MAX_DEPTH) {
		snprintf(err, errlen, "%s: directories nested too deep (more than %d levels)",
			 dir, CGS_WALK_MAX_DEPTH);
		return -ELOOP;
	}
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read the directory: %s", dir,
			 strerror(errno));
		return rc;
	}
	for (int i = 0; i < n; i++) {
		char *path = NULL;
		struct stat st;

		if (!rc && ents[i]->d_name[0] != '.' &&
		    asprintf(&path, "%s/%s", dir, ents[i]->d_name) < 0) {
			path = NULL;
			rc = -ENOMEM;
		}
		if (path && !stat(path, &st)) {
			if (S_ISDIR(st.st_mode))
				rc = walk(path, depth + 1, fn, arg, err, errlen);
			else if (S_ISREG(st.st_mode) && json_name(ents[i]->d_name))
				rc = fn(path, arg, err, errlen);
		}
		free(path);
		free(ents[i]);
	}
	free(ents);
	return rc;
}

int cgs_walk_json(const char *dir, cgs_walk_fn fn, void *arg, char *err,
		  size_t errlen)
{
	return walk(dir, 0, fn, arg, err, errlen);
}
