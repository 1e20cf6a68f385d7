/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lkp_job.c - the LKP stats of every run of every side, for the job
 * block of `compare --format lkp`: each result file is one LKP run, and
 * its stats are what the LKP program's parse writes to that run's
 * stats.json (cmp_lkp_stats, with the 1-task baseline that run recorded
 * beside the file), so the block's keys and values are LKP's own and
 * `lkp ncompare` on the same roots lists the same rows.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/util.h"
#include "lib/walk.h"
#include "results/compare/model.h"
#include "results/compare/lkp_stats.h"

/* The baseline task count the LKP program recorded beside @path
 * (RESULT_ROOT/cgscale.results/baseline), 0 when none. */
static unsigned lkp_baseline(const char *path)
{
	char *copy = strdup(path), *dir, *bpath = NULL, line[32];
	unsigned b = 0;

	if (!copy)
		return 0;
	dir = dirname(copy);
	if (strcmp(strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir, CGS_WALK_LKP_DIR))
		goto out;
	if (asprintf(&bpath, "%s/baseline", dir) < 0) {
		bpath = NULL;
		goto out;
	}
	if (cgs_read_line(bpath, line, sizeof(line)) == 0 && sscanf(line, "%u", &b) != 1)
		b = 0;
out:
	free(bpath);
	free(copy);
	return b;
}

/* Append the `key: value` lines of @text to @stats (key -> [values]). */
static int add_lines(struct json_object *stats, char *text)
{
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		char *colon = strstr(l, ": ");
		struct json_object *a;

		if (!colon)
			continue;
		*colon = 0;
		if (!json_object_object_get_ex(stats, l, &a)) {
			a = json_object_new_array();
			if (!a || json_object_object_add(stats, l, a))
				return -ENOMEM;
		}
		if (json_object_array_add(a, json_object_new_double(strtod(colon + 2, NULL))))
			return -ENOMEM;
	}
	return 0;
}

/* The stats of file @f into @stats. -ENODATA: the file holds no LKP
 * job (several tests). */
static int file_stats(const struct cmp_result *r, struct cmp_file *f,
		      struct json_object *stats)
{
	struct cmp_side one = { .files = f, .nfiles = 1 };
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc;

	if (!mem)
		return -ENOMEM;
	rc = cmp_lkp_stats(mem, &one, 1, lkp_baseline(f->path), r->o.keep_disturbed,
			   err, sizeof(err));
	if (fclose(mem) && !rc)
		rc = -ENOMEM;
	if (rc == -EINVAL)
		rc = -ENODATA;
	else if (!rc)
		rc = add_lines(stats, text);
	else if (rc == -ENODATA)   /* no point ran ok: this run has no stats */
		rc = 0;
	free(text);
	return rc;
}

int cmp_lkp_job_stats(const struct cmp_result *r, struct json_object **per_side)
{
	int rc = 0;

	for (unsigned s = 0; s < r->nsides; s++)
		per_side[s] = NULL;
	for (unsigned s = 0; s < r->nsides && !rc; s++) {
		per_side[s] = json_object_new_object();
		if (!per_side[s])
			rc = -ENOMEM;
		for (unsigned f = 0; f < r->sides[s].nfiles && !rc; f++)
			rc = file_stats(r, &r->sides[s].files[f], per_side[s]);
	}
	if (rc)
		for (unsigned s = 0; s < r->nsides; s++) {
			json_object_put(per_side[s]);
			per_side[s] = NULL;
		}
	return rc;
}
