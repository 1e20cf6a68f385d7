/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_journal.c - the run's journal (<output>.partial): the output's name
 * claimed, the journal opened (a dead one there recovered first, by
 * journal_recover.c), each finished point appended at once (lib/linelog.c:
 * one checksummed line, one write, fsync), so a SIGKILL, an OOM kill of
 * the runner, a power cut or a failed final write loses no finished point;
 * a journal that cannot take a point moves to the fallback place
 * (journal_keep.c); removed once the result is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/linelog.h"
#include "lib/safedir.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "results/model/result.h"
#include "runner/run/journal_keep.h"
#include "runner/run/run_journal.h"

#define SUFFIX ".partial"

/* @path made absolute (from the current directory) into @out. */
static void abs_path(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX];
	int w;

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)))
		w = snprintf(out, len, "%s/%s", cwd, path);
	else
		w = snprintf(out, len, "%s", path);
	if (w < 0 || (size_t)w >= len)
		snprintf(out, len, "%s", path);     /* too long: as given */
}

static const char *jname(const struct cgs_rjournal *j)
{
	const char *slash = strrchr(j->path, '/');

	return slash ? slash + 1 : j->path;
}

/* The output's directory, opened once (the claim of -o DIR has it). */
static int open_dir(struct cgs_rjournal *j, const char *outpath, char *err,
		    size_t errlen)
{
	char name[NAME_MAX + 1];
	int fd;

	if (j->dirfd >= 0)
		return 0;
	fd = cgs_open_parent(outpath, name, sizeof(name));
	if (fd < 0)
		return cgs_errf(err, errlen, fd, "-o %s: cannot open its directory: %s; choose a writable path with -o",
				outpath, strerror(-fd));
	j->dirfd = fd;
	return 0;
}

/* Recover a dead journal at j->path, if there is one. */
static int recover_old(struct cgs_rjournal *j, const char *outpath, char *err,
		       size_t errlen)
{
	struct cgs_rj_recovered rv;
	struct stat st;
	int rc = cgs_linelog_idle(j->path);

	if (rc == -EBUSY)
		return cgs_errf(err, errlen, rc, "-o %s: another cgscale run is writing this output (its journal %s is in use); choose another -o",
				outpath, j->path);
	/* an empty journal holds no point: a run that died before its header */
	if (!rc && !fstatat(j->dirfd, jname(j), &st, AT_SYMLINK_NOFOLLOW) && st.st_size == 0)
		rc = -ENOENT;
	if (rc)
		return 0;
	rc = cgs_rj_recover(j->path, outpath, NULL, &rv, err, errlen);
	if (rc)
		return rc;
	if (rv.already)
		cgs_warn("an earlier run into %s left its journal behind, though its result %s holds all its %u point(s) (the same run id): the journal is removed%s%s%s",
			 outpath, rv.out, rv.npoints,
			 strcmp(rv.out, outpath) ? "" : "; this run's result will replace ",
			 strcmp(rv.out, outpath) ? "" : rv.out,
			 strcmp(rv.out, outpath) ? "" : " as -o asks: copy it now to keep it");
	else
		cgs_warn("an earlier run into %s did not finish: its %u finished point(s) are now in %s (\"complete\": false)",
			 outpath, rv.npoints, rv.out);
	return 0;
}

int cgs_rj_open(struct cgs_rjournal *j, const char *outpath,
		const struct res_file *head, char *err, size_t errlen)
{
	const char *base = strrchr(outpath, '/') ? strrchr(outpath, '/') + 1 : outpath;
	int rc;

	j->done = 0;
	j->warned = j->fb_warned = j->moved = j->left_beside = false;
	j->failed = j->unsynced = 0;
	*j->fbpath = 0;
	if (snprintf(j->path, sizeof(j->path), "%s" SUFFIX, outpath) >= (int)sizeof(j->path))
		return cgs_errf(err, errlen, -ENAMETOOLONG, "-o %s: the name is too long", outpath);
	abs_path(outpath, j->output, sizeof(j->output));
	snprintf(j->id, sizeof(j->id), "%s", res_run_id(head) ? res_run_id(head) : "");
	j->key = cgs_linelog_key(j->id);
	if (j->fd < 0) {
		rc = open_dir(j, outpath, err, errlen);
		/* a device, FIFO or tty: written into, nothing made beside it */
		if (rc || cgs_out_in_place(j->dirfd, base) == 1)
			return rc;
		rc = recover_old(j, outpath, err, errlen);
		if (rc)
			return rc;
		rc = cgs_linelog_create_at(j->dirfd, jname(j));
		if (rc == -ELOOP || rc == -EINVAL)
			return cgs_errf(err, errlen, rc, "-o %s: the journal's name %s is %s, which cgscale never follows or replaces; remove it or choose another -o",
					outpath, j->path, rc == -ELOOP ? "a symbolic link" : "not a regular file");
		if (rc < 0)
			return cgs_errf(err, errlen, rc, "-o %s: cannot create the journal %s: %s; choose a writable path with -o",
					outpath, j->path, rc == -EBUSY ? "another cgscale run holds it" : strerror(-rc));
		j->fd = rc;
	}
	cgs_sweep_temps(j->dirfd);     /* what a killed run's final write left */
	rc = cgs_rj_put_header(j->fd, head, j->output);
	if (!rc)
		rc = cgs_linelog_sync(j->fd);
	if (rc) {
		cgs_rj_close(j, false);
		return cgs_errf(err, errlen, rc, "-o %s: cannot write the journal %s: %s; free some space or choose another -o",
				outpath, j->path, strerror(-rc));
	}
	return 0;
}

unsigned cgs_rj_flush(struct cgs_rjournal *j, const struct res_file *f)
{
	int rc = 0, sync = 0;

	if (j->fd >= 0)
		rc = cgs_rj_put_points(j->fd, j->key, f, &j->done, &sync);
	if (j->fd >= 0 && !rc && !cgs_rj_still_there(j))
		rc = -ENOENT;
	if (!rc && sync && j->moved) {
		/* the last place: its lines stay, the checksums judge them */
		if (!j->unsynced)
			cgs_warn("the disk does not confirm the lines of the journal %s (fsync: %s); they are kept, and recover checks each",
				 cgs_rj_path(j), strerror(-sync));
		j->unsynced = sync;
	} else if (!rc && sync) {
		rc = sync;
	}
	if (rc && !j->moved) {
		if (cgs_rj_move(j, f, rc) && sync)
			j->unsynced = sync;     /* its lines stayed */
	} else if (rc && !j->fb_warned) {
		j->fb_warned = true;
		cgs_warn("cannot append to the journal %s either (%s): the points not in it are kept in memory and printed at the end",
			 cgs_rj_path(j), strerror(-rc));
	}
	return f->npoints > j->done ? f->npoints - j->done : 0;
}

/* Remove the journal by its name only while the name is still ours. */
static void unlink_ours(const struct cgs_rjournal *j)
{
	struct stat a;

	if (!fstat(j->fd, &a))
		cgs_unlink_at(j->dirfd, jname(j), &a);
}

void cgs_rj_close(struct cgs_rjournal *j, bool keep)
{
	if (j->fd >= 0) {
		if (!keep && j->moved)
			cgs_rj_drop_moved(j);
		else if (!keep)
			unlink_ours(j);
		close(j->fd);
		j->fd = -1;
	}
	if (j->dirfd >= 0)
		close(j->dirfd);
	j->dirfd = -1;
}

void cgs_rj_unclaim(struct cgs_rjournal *j)
{
	struct stat st;

	if (j->fd >= 0 && !fstat(j->fd, &st) && st.st_size == 0)
		cgs_rj_close(j, false);
}

/* results/runs/<stamp>/result.json: the directory is the name, opened
 * at once (O_NOFOLLOW) and kept. */
static int claim_default(struct cgs_rjournal *j, char *outpath, size_t len,
			 char *base, char *err, size_t errlen)
{
	char *slash = strrchr(base, '/'), *stamp;
	int runs, rc = -EEXIST;

	if (!slash)
		return cgs_errf(err, errlen, -EINVAL, "internal error: default output %s", base);
	*slash = 0;
	stamp = strrchr(base, '/');
	if (!stamp)
		return cgs_errf(err, errlen, -EINVAL, "internal error: default output %s", base);
	*stamp++ = 0;
	runs = cgs_open_dir(base, CGS_DIR_CREATE, 0755);
	if (runs < 0)
		return cgs_errf(err, errlen, runs, "cannot create %s: %s; give a path with -o",
				base, strerror(-runs));
	for (int k = 1; k < 1000 && rc == -EEXIST; k++) {
		char dir[NAME_MAX + 1];

		if (k == 1)
			snprintf(dir, sizeof(dir), "%s", stamp);
		else
			snprintf(dir, sizeof(dir), "%s-%d", stamp, k);
		rc = cgs_mkdir_at(runs, dir, 0755, 1);
		if (rc >= 0) {
			j->dirfd = rc;
			rc = snprintf(outpath, len, "%s/%s/result.json", base, dir) >= (int)len ?
			     cgs_errf(err, errlen, -ENAMETOOLONG, "the current directory's path is too long; give -o") : 0;
			close(runs);
			return rc;
		}
	}
	close(runs);
	if (rc != -EEXIST)
		return cgs_errf(err, errlen, rc, "cannot create a directory in %s: %s; give a path with -o",
				base, strerror(-rc));
	return cgs_errf(err, errlen, -EEXIST, "no free directory name under results/runs; give a path with -o");
}

/* Claim <dir>/<base>[-k].json by creating its empty journal with O_EXCL
 * through the directory's fd, locked at once: atomic against a run that
 * picks a name in the same directory at the same moment, and the fd is
 * kept, so nothing swapped in at the name afterwards is ever opened. */
static int claim_name(struct cgs_rjournal *j, int dirfd, const char *name)
{
	char jn[NAME_MAX + 1];
	struct stat st;
	int fd, rc;

	if (snprintf(jn, sizeof(jn), "%s" SUFFIX, name) >= (int)sizeof(jn))
		return -ENAMETOOLONG;
	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -EEXIST;
	fd = cgs_create_at(dirfd, jn, O_WRONLY | O_APPEND, 0644);
	if (fd < 0)
		return fd;
	rc = cgs_linelog_adopt(fd);
	if (rc) {
		cgs_unlink_at(dirfd, jn, NULL);
		close(fd);
		return rc;
	}
	j->fd = fd;
	return 0;
}

static int claim_in_dir(struct cgs_rjournal *j, char *outpath, size_t len,
			char *base, char *err, size_t errlen)
{
	char name[NAME_MAX + 1];
	size_t n = strlen(base);
	int dirfd = cgs_open_parent(outpath, name, sizeof(name)), rc;

	if (dirfd < 0)
		return cgs_errf(err, errlen, dirfd, "-o: cannot open the directory of %s: %s; choose a writable directory",
				outpath, strerror(-dirfd));
	if (n > 5)
		base[n - 5] = 0;       /* <dir>/cgscale-<stamp>.json */
	for (int k = 1; k < 1000; k++) {
		int w = k == 1 ? snprintf(outpath, len, "%s.json", base)
			       : snprintf(outpath, len, "%s-%d.json", base, k);

		if (w >= (int)len) {
			close(dirfd);
			return cgs_errf(err, errlen, -ENAMETOOLONG, "-o: the path is too long");
		}
		rc = claim_name(j, dirfd, strrchr(outpath, '/') ? strrchr(outpath, '/') + 1 : outpath);
		if (!rc) {
			j->dirfd = dirfd;
			return 0;
		}
		if (rc != -EEXIST) {
			close(dirfd);
			return cgs_errf(err, errlen, rc, "-o: cannot create %s" SUFFIX ": %s; choose a writable directory",
					outpath, strerror(-rc));
		}
	}
	close(dirfd);
	return cgs_errf(err, errlen, -EEXIST, "no free result name in -o's directory; give a file name with -o");
}

/* Make the default output's directory, and pick a name no other run uses:
 * two runs started in the same second get two files. */
int cgs_rj_claim_output(struct cgs_rjournal *j, char *outpath, size_t len,
			bool is_default, bool in_dir, char *err, size_t errlen)
{
	char base[PATH_MAX];

	if (!is_default && !in_dir)
		return 0;
	snprintf(base, sizeof(base), "%s", outpath);
	return is_default ? claim_default(j, outpath, len, base, err, errlen)
			  : claim_in_dir(j, outpath, len, base, err, errlen);
}
