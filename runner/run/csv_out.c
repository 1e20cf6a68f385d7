/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv_out.c - `run --csv` and `--csv-dir`: will-it-scale's runtest.py CSV,
 * which LKP's programs/will-it-scale/parse reads. One CSV holds one test in
 * one cgroup layout: several blocks in one stream would be merged by that
 * parser into the same <N>.processes keys, so --csv refuses them and
 * --csv-dir writes one file per block instead (DIR/TEST.csv, or
 * DIR/TEST.LAYOUT.csv with several layouts), each by rename from a random
 * O_EXCL name (lib/safefile.h), never through a link planted in DIR.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outpath.h"
#include "lib/util.h"
#include "runner/cgroups/cgrun.h"
#include "runner/run/run.h"

static unsigned nblocks(const struct cgs_run *r)
{
	unsigned nl = r->cg && r->cg->nlayouts ? r->cg->nlayouts : 1;

	return r->ntests * nl;
}

/* DIR/TEST[.LAYOUT].csv, the layout's spaces as '_'. */
static int block_path(const struct cgs_run *r, unsigned b, char *buf, size_t len)
{
	unsigned nl = r->cg && r->cg->nlayouts ? r->cg->nlayouts : 1;
	const char *layout = nl > 1 ? r->cg->L[b % nl].name : NULL;
	int n = snprintf(buf, len, "%s/%s%s%s.csv", r->o.csv_dir, r->tests[b / nl]->name,
			 layout ? "." : "", layout ? layout : "");
	char *base = buf + strlen(r->o.csv_dir) + 1;

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	for (char *c = base; *c; c++)
		if (*c == ' ' || *c == '/')
			*c = '_';
	return 0;
}

/* A link, directory or block device at a CSV's name is refused before
 * the first point, not after the last (lib/safefile.h's rules). */
static int check_names(const struct cgs_run *r, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int rc = 0;

	for (unsigned b = 0; b < nblocks(r) && !rc; b++) {
		rc = block_path(r, b, path, sizeof(path));
		rc = rc ? cgs_errf(err, errlen, rc, "--csv-dir: the path %s... is too long", r->o.csv_dir)
			: cgs_check_out_kind("--csv-dir", path, err, errlen);
	}
	return rc;
}

int cgs_csv_validate(const struct cgs_run *r, char *err, size_t errlen)
{
	struct stat st;

	if (r->o.csv && nblocks(r) > 1)
		return cgs_errf(err, errlen, -EINVAL,
				"--csv prints one will-it-scale table, and LKP's parser would merge %u "
				"(%u tests x %u cgroup layouts) into the same keys; give --csv-dir DIR "
				"for one file each, or run one test and layout", nblocks(r), r->ntests,
				nblocks(r) / (r->ntests ? r->ntests : 1));
	if (!r->o.csv_dir)
		return 0;
	if (stat(r->o.csv_dir, &st) || !S_ISDIR(st.st_mode))
		return cgs_errf(err, errlen, -ENOTDIR, "--csv-dir %s is not a directory; create it first",
				r->o.csv_dir);
	if (access(r->o.csv_dir, W_OK | X_OK))
		return cgs_errf(err, errlen, -EACCES, "--csv-dir %s is not writable; choose another directory",
				r->o.csv_dir);
	return check_names(r, err, errlen);
}

/* One block, built in memory, then written by lib/safefile.h's rules:
 * a random O_EXCL temporary name in DIR (opened once), renamed only over
 * a regular file or nothing. */
static int write_block(const struct cgs_run *r, unsigned b, int dirfd,
		       const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0;

	if (!f)
		return cgs_errf(err, errlen, -ENOMEM, "--csv-dir: out of memory");
	cgs_print_csv_block(r, b, f);
	if (ferror(f))
		rc = -ENOMEM;
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc)
		cgs_errf(err, errlen, rc, "--csv-dir: out of memory");
	else
		rc = cgs_write_atomic_at(dirfd, path, buf, len, err, errlen);
	free(buf);
	return rc;
}

int cgs_csv_write(const struct cgs_run *r, char *err, size_t errlen)
{
	int dirfd = open(r->o.csv_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char path[PATH_MAX], why[PATH_MAX + 512];
	int rc = dirfd < 0 ? -errno : 0;

	if (rc)
		return cgs_errf(err, errlen, rc, "--csv-dir %s: %s (the results are in the JSON file)",
				r->o.csv_dir, strerror(-rc));
	for (unsigned b = 0; b < nblocks(r) && !rc; b++) {
		rc = block_path(r, b, path, sizeof(path));
		if (rc)
			snprintf(why, sizeof(why), "%s: %s", path, strerror(-rc));
		else
			rc = write_block(r, b, dirfd, path, why, sizeof(why));
		if (rc)
			break;
		fprintf(stderr, "cgscale: CSV of %s in %s\n", r->tests[b / (nblocks(r) / r->ntests)]->name,
			path);
	}
	close(dirfd);
	if (rc)
		return cgs_errf(err, errlen, rc, "--csv-dir: %s (the results are in the JSON file)", why);
	return 0;
}
