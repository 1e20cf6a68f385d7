/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv_out.c - `run --csv` and `--csv-dir`: will-it-scale's runtest.py CSV,
 * which LKP's programs/will-it-scale/parse reads. One CSV holds one test in
 * one cgroup layout: several blocks in one stream would be merged by that
 * parser into the same <N>.processes keys, so --csv refuses them and
 * --csv-dir writes one file per block instead (DIR/TEST.csv, or
 * DIR/TEST.LAYOUT.csv with several layouts), each by rename.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/cgroups/cgrun.h"
#include "runner/run/run.h"

static unsigned nblocks(const struct cgs_run *r)
{
	unsigned nl = r->cg && r->cg->nlayouts ? r->cg->nlayouts : 1;

	return r->ntests * nl;
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
	return 0;
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

static int write_block(const struct cgs_run *r, unsigned b, const char *path)
{
	char tmp[PATH_MAX];
	FILE *f = NULL;
	int rc = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	cgs_print_csv_block(r, b, f);
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int cgs_csv_write(const struct cgs_run *r, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int rc = 0;

	for (unsigned b = 0; b < nblocks(r) && !rc; b++) {
		rc = block_path(r, b, path, sizeof(path));
		if (!rc)
			rc = write_block(r, b, path);
		if (rc)
			return cgs_errf(err, errlen, rc, "--csv-dir: cannot write %s: %s (the results "
					"are in the JSON file)", path, strerror(-rc));
		cgs_info("CSV of %s in %s", r->tests[b / (nblocks(r) / r->ntests)]->name,
			path);
	}
	return rc;
}
