/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folded.c - `cgscale export --folded`: a point's collapsed stacks
 * from the "profile" sections of result files, in the format
 * flamegraph.pl, inferno and speedscope read ("frame;frame count").
 * The runs of the point are merged on stdout, or with --out-dir each run
 * of each profiled point is its own new file there, created O_EXCL through
 * the directory's fd (lib/safefile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/folded.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "results/compare/compare.h"
#include "results/compare/profile.h"
#include "results/export/folded.h"

/* Does @p match "TEST:MODE:TASKS[:LAYOUT]" (NULL matches all)? */
static bool point_match(const struct res_point *p, const char *spec)
{
	char test[128], mode[32], layout[1024] = "";
	unsigned tasks;
	int n;

	if (!spec)
		return true;
	n = sscanf(spec, "%127[^:]:%31[^:]:%u:%1023[^\n]", test, mode, &tasks, layout);
	return n >= 3 && !strcmp(test, p->test) && !strcmp(mode, p->mode) &&
	       tasks == p->tasks && (n < 4 || !strcmp(layout, cmp_point_layout(p)));
}

/* @s to the new file @name in @dirfd (O_EXCL|O_NOFOLLOW: an existing
 * name, a planted link included, is refused); removed when it fails. */
static int write_new(int dirfd, const char *name, const char *path,
		     struct cgs_stacks *s, char *err, size_t errlen)
{
	int fd = cgs_create_at(dirfd, name, O_WRONLY, 0644);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (fd < 0)
		return cgs_errf(err, errlen, fd, "cannot create %s: %s", path, strerror(-fd));
	if (!f) {
		close(fd);
		unlinkat(dirfd, name, 0);
		return cgs_errf(err, errlen, -ENOMEM, "cannot write %s: out of memory", path);
	}
	cgs_stacks_sort(s);
	cgs_stacks_write(s, f);
	if (ferror(f) | fclose(f)) {
		unlinkat(dirfd, name, 0);
		return cgs_errf(err, errlen, -EIO, "cannot write %s", path);
	}
	printf("%s\n", path);
	return 0;
}

/* One run to DIR/TEST-MODE-TASKS[-LAYOUT]-runN.folded. */
static int write_run(int dirfd, const char *dir, const struct res_point *p,
		     struct json_object *prof, char *err, size_t errlen)
{
	struct cgs_stacks s = { 0 };
	char path[PATH_MAX], name[NAME_MAX + 1], lay[256];
	const char *l = cmp_point_layout(p);
	int rc = cmp_profile_folded(prof, &s);

	snprintf(lay, sizeof(lay), "%s", strcmp(l, "none") ? l : "");
	for (char *c = lay; *c; c++)
		if (*c == ' ' || *c == '/' || *c == '=' || *c == ':')
			*c = *c == '=' ? '_' : '-';
	if (snprintf(name, sizeof(name), "%s-%s-%u%s%s-run%u.folded", p->test, p->mode,
		     p->tasks, *lay ? "-" : "", lay, p->run + 1) >= (int)sizeof(name))
		rc = rc ? rc : cgs_errf(err, errlen, -ENAMETOOLONG, "--out-dir: the name for %s is too long",
					p->test);
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '-';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!rc)
		rc = write_new(dirfd, name, path, &s, err, errlen);
	cgs_stacks_free(&s);
	return rc;
}

int exp_write_folded(int nargs, char **args, const char *point,
		     const char *out_dir, char *err, size_t errlen)
{
	struct cgs_stacks merged = { 0 };
	char first[1200] = "";
	unsigned found = 0;
	int rc = 0, dirfd = -1;

	if (out_dir) {
		dirfd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0)
			return cgs_errf(err, errlen, -ENOENT, "--out-dir %s is not a directory; create it first",
					out_dir);
	}
	for (int a = 0; !rc && a < nargs; a++) {
		struct cmp_side s = { 0 };

		rc = cmp_side_load(&s, args[a], err, errlen);
		for (unsigned f = 0; !rc && f < s.nfiles; f++)
			for (unsigned i = 0; !rc && i < s.files[f].res.npoints; i++) {
				const struct res_point *p = &s.files[f].res.points[i];
				struct json_object *prof = cmp_point_profile(p);
				char key[1200];

				if (!prof || p->status != RES_OK ||
				    !point_match(p, point))
					continue;
				snprintf(key, sizeof(key), "%s:%s:%u:%s", p->test, p->mode,
					 p->tasks, cmp_point_layout(p));
				if (!out_dir && *first && strcmp(first, key)) {
					rc = cgs_errf(err, errlen, -EINVAL,
						      "more than one profiled point (%s, %s); choose one with --point TEST:MODE:TASKS[:LAYOUT], or use --out-dir",
						      first, key);
					break;
				}
				snprintf(first, sizeof(first), "%s", key);
				found++;
				rc = out_dir ? write_run(dirfd, out_dir, p, prof, err, errlen)
					     : cmp_profile_folded(prof, &merged);
			}
		cmp_side_free(&s);
	}
	if (!rc && !found)
		rc = cgs_errf(err, errlen, -ENODATA, "no ok point with a profile%s%s (run with --profile)",
			      point ? " matches --point " : "", point ? point : "");
	if (!rc && !out_dir) {
		cgs_stacks_sort(&merged);
		cgs_stacks_write(&merged, stdout);
	}
	cgs_stacks_free(&merged);
	if (dirfd >= 0)
		close(dirfd);
	return rc;
}
