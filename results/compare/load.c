/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.c - collect the result files of one side: the argument is
 * a file, or a directory searched recursively (sorted by name, hidden
 * entries skipped, so the runner's temporary files never count) for files
 * whose names end in .json (lib/walk.c). Knob: MAX_FILES.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/walk.h"
#include "results/compare/model.h"

#define MAX_FILES 100000

struct paths {
	char **v;
	unsigned n;
};

static int paths_add(struct paths *p, const char *path)
{
	char **v;

	if (p->n >= MAX_FILES)
		return -E2BIG;
	v = realloc(p->v, (p->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->v = v;
	if (!(p->v[p->n] = strdup(path)))
		return -ENOMEM;
	p->n++;
	return 0;
}

static int add_path(const char *path, void *arg, char *err, size_t errlen)
{
	int rc = paths_add(arg, path);

	if (rc == -E2BIG)
		snprintf(err, errlen, "more than %d result files", MAX_FILES);
	return rc;
}

static void side_name(struct cmp_side *s, const char *arg)
{
	const char *base;
	size_t len = strlen(arg);

	while (len > 1 && arg[len - 1] == '/')
		len--;
	base = arg;
	for (size_t i = 0; i < len; i++)
		if (arg[i] == '/' && i + 1 < len)
			base = arg + i + 1;
	len -= base - arg;
	if (len > 5 && !strncmp(base + len - 5, ".json", 5))
		len -= 5;
	s->name = strndup(base, len);
}

int cmp_side_load(struct cmp_side *s, const char *arg, char *err,
		  size_t errlen)
{
	struct paths p = { 0 };
	struct stat st;
	int rc = 0;

	if (errlen)
		err[0] = 0;
	s->arg = strdup(arg);
	side_name(s, arg);
	if (!s->arg || !s->name)
		return -ENOMEM;
	if (stat(arg, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read: %s", arg, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode))
		rc = cgs_walk_json(arg, add_path, &p, err, errlen);
	else
		rc = paths_add(&p, arg);
	if (rc)
		goto out;
	if (!p.n) {
		rc = -ENOENT;
		snprintf(err, errlen, "%s: no result files (*.json) in this directory", arg);
		goto out;
	}
	s->files = calloc(p.n, sizeof(*s->files));
	if (!s->files) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < p.n && !rc; i++) {
		s->files[i].path = p.v[i];
		p.v[i] = NULL;
		s->nfiles++;
		rc = res_read_file(s->files[i].path, &s->files[i].res, err, errlen);
	}
out:
	for (unsigned i = 0; i < p.n; i++)
		free(p.v[i]);
	free(p.v);
	if (rc == -ENOMEM && !*err)
		snprintf(err, errlen, "%s: out of memory", arg);
	return rc;
}

void cmp_side_free(struct cmp_side *s)
{
	for (unsigned i = 0; i < s->nfiles; i++) {
		free(s->files[i].path);
		res_file_free(&s->files[i].res);
	}
	free(s->files);
	for (unsigned i = 0; i < s->ninv; i++)
		free(s->inv_ids[i]);
	free(s->inv_ids);
	free(s->arg);
	free(s->name);
	memset(s, 0, sizeof(*s));
}
