/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.c - the one walk of a results directory: every *.json file under
 * a directory, depth first, in name order, hidden entries skipped (so the
 * writers' temporary files never count), at most CGS_WALK_MAX_DEPTH
 * levels deep. An LKP result root (a directory holding CGS_WALK_LKP_DIR,
 * where LKP's cgscale program writes its result, beside LKP's own *.json
 * stats) is read through that folder only, and in LKP's directory of
 * runs (0/ 1/ ... and its avg.json) only the runs.
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

/* Whether @dir is an LKP result root: it holds CGS_WALK_LKP_DIR/. */
static bool lkp_root(const char *dir)
{
	struct stat st;
	char *p = NULL;
	bool yes;

	if (asprintf(&p, "%s/" CGS_WALK_LKP_DIR, dir) < 0)
		return false;
	yes = !stat(p, &st) && S_ISDIR(st.st_mode);
	free(p);
	return yes;
}

/* Whether one of @dir's @n entries is an LKP result root: then @dir is
 * LKP's collection of runs (0/ 1/ ... beside its avg.json, matrix.json). */
static bool lkp_runs(const char *dir, struct dirent **ents, int n)
{
	bool yes = false;

	for (int i = 0; i < n && !yes; i++) {
		char *p = NULL;

		if (ents[i]->d_name[0] == '.' ||
		    asprintf(&p, "%s/%s", dir, ents[i]->d_name) < 0)
			continue;
		yes = lkp_root(p);
		free(p);
	}
	return yes;
}

static int walk(const char *dir, unsigned depth, cgs_walk_fn fn, void *arg,
		char *err, size_t errlen)
{
	struct dirent **ents = NULL;
	bool runs;
	int n, rc = 0;

	if (depth > CGS_WALK_MAX_DEPTH) {
		snprintf(err, errlen, "%s: directories nested too deep (more than %d levels)",
			 dir, CGS_WALK_MAX_DEPTH);
		return -ELOOP;
	}
	if (lkp_root(dir)) {
		char *p = NULL;

		if (asprintf(&p, "%s/" CGS_WALK_LKP_DIR, dir) < 0)
			return -ENOMEM;
		rc = walk(p, depth + 1, fn, arg, err, errlen);
		free(p);
		return rc;
	}
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read the directory: %s", dir,
			 strerror(errno));
		return rc;
	}
	runs = lkp_runs(dir, ents, n);
	for (int i = 0; i < n; i++) {
		char *path = NULL;
		struct stat st;

		if (!rc && ents[i]->d_name[0] != '.' &&
		    asprintf(&path, "%s/%s", dir, ents[i]->d_name) < 0) {
			path = NULL;
			rc = -ENOMEM;
		}
		if (path && !stat(path, &st)) {
			if (S_ISDIR(st.st_mode) && (!runs || lkp_root(path)))
				rc = walk(path, depth + 1, fn, arg, err, errlen);
			else if (S_ISREG(st.st_mode) && !runs && json_name(ents[i]->d_name))
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
