/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_journal.c - the run's journal (<output>.partial), and what
 * `cgscale recover` (runner/cmd/recover.c) does with a dead one.
 * A finished point is appended at once (lib/linelog.c: one write, fsync),
 * so a SIGKILL, an OOM kill of the runner, a power cut or a failed final
 * write loses no finished point: `cgscale recover` and the next run into
 * the same output turn the journal into a result marked "complete": false.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/linelog.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "results/model/result.h"
#include "runner/run/run_journal.h"

#define SUFFIX ".partial"

static int slurp(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else if (st.st_size >= (1LL << 31))
		rc = -EFBIG;
	if (rc)
		goto out;
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		rc = -ENOMEM;
		goto out;
	}
	while (*len < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + *len, (size_t)st.st_size - *len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n ? -errno : 0;
			break;
		}
		*len += (size_t)n;
	}
out:
	close(fd);
	return rc;
}

/* Where a journal's result goes: the output it was for when that is free
 * and not @avoid, else <stem>-recovered[-N].json beside it. */
static int recovered_name(const char *journal, const char *avoid, char *out,
			  size_t outlen)
{
	size_t n = strlen(journal), sl = strlen(SUFFIX);
	char stem[PATH_MAX];

	if (n > sl && !strcmp(journal + n - sl, SUFFIX))
		n -= sl;
	if (n >= sizeof(stem))
		return -ENAMETOOLONG;
	snprintf(stem, sizeof(stem), "%.*s", (int)n, journal);
	if (!avoid && access(stem, F_OK) && n != strlen(journal)) {
		snprintf(out, outlen, "%s", stem);
		return 0;
	}
	if (n > 5 && !strcmp(stem + n - 5, ".json"))
		stem[n - 5] = 0;
	for (int k = 1; k < 1000; k++) {
		int w = k == 1 ? snprintf(out, outlen, "%s-recovered.json", stem)
			       : snprintf(out, outlen, "%s-recovered-%d.json", stem, k);

		if (w >= (int)outlen)
			return -ENAMETOOLONG;
		if (access(out, F_OK) && (!avoid || strcmp(out, avoid)))
			return 0;
	}
	return -EEXIST;
}

int cgs_rj_recover(const char *journal, const char *avoid, char *out,
		   size_t outlen, unsigned *npoints, char *err, size_t errlen)
{
	struct res_journal_info info;
	struct res_file f;
	char *buf = NULL;
	size_t len;
	int rc = cgs_linelog_idle(journal);

	if (rc == -EBUSY)
		return cgs_errf(err, errlen, rc, "%s is the journal of a cgscale run still running; wait for it to end or stop it",
				journal);
	if (!rc)
		rc = slurp(journal, &buf, &len);
	if (rc) {
		free(buf);
		return cgs_errf(err, errlen, rc == -ENOMEM ? rc : -ENOENT,
				"cannot read the journal %s: %s", journal, strerror(-rc));
	}
	rc = res_journal_read(journal, buf, len, &f, &info, err, errlen);
	free(buf);
	if (rc)
		return rc;
	if (info.torn)
		cgs_warn("%s: dropped a torn last line (%zu bytes): the point being written when the run died",
			 journal, info.torn);
	if (info.dropped)
		cgs_warn("%s: dropped %u line(s) that are not JSON, the first at line %u",
			 journal, info.dropped, info.first_dropped);
	res_file_scalability(&f);
	if (!*out && recovered_name(journal, avoid, out, outlen)) {
		res_file_free(&f);
		return cgs_errf(err, errlen, -EINVAL, "%s: no free name to recover it into; give one with -o",
				journal);
	}
	rc = res_write_file(&f, out, err, errlen);
	*npoints = f.npoints;
	res_file_free(&f);
	if (!rc)
		unlink(journal);
	return rc;
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
	char old[PATH_MAX] = "";
	struct stat st;
	unsigned n = 0;
	int rc = cgs_linelog_idle(j->path);

	if (rc == -EBUSY)
		return cgs_errf(err, errlen, rc, "-o %s: another cgscale run is writing this output (its journal %s is in use); choose another -o",
				outpath, j->path);
	/* an empty journal holds no point: a run that died before its header */
	if (!rc && !fstatat(j->dirfd, jname(j), &st, AT_SYMLINK_NOFOLLOW) && st.st_size == 0)
		rc = -ENOENT;
	if (rc)
		return 0;
	rc = cgs_rj_recover(j->path, outpath, old, sizeof(old), &n, err, errlen);
	if (rc)
		return rc;
	cgs_warn("an earlier run into %s did not finish: its %u finished point(s) are now in %s (\"complete\": false)",
		 outpath, n, old);
	return 0;
}

int cgs_rj_open(struct cgs_rjournal *j, const char *outpath,
		const struct res_file *head, char *err, size_t errlen)
{
	const char *base = strrchr(outpath, '/') ? strrchr(outpath, '/') + 1 : outpath;
	char *line;
	int rc;

	j->done = 0;
	j->warned = false;
	if (snprintf(j->path, sizeof(j->path), "%s" SUFFIX, outpath) >= (int)sizeof(j->path))
		return cgs_errf(err, errlen, -ENAMETOOLONG, "-o %s: the name is too long", outpath);
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
	line = res_journal_header(head);
	rc = line ? cgs_linelog_append(j->fd, line, strlen(line)) : -ENOMEM;
	free(line);
	if (rc) {
		cgs_rj_close(j, false);
		return cgs_errf(err, errlen, rc, "-o %s: cannot write the journal %s: %s; free some space or choose another -o",
				outpath, j->path, strerror(-rc));
	}
	return 0;
}

unsigned cgs_rj_flush(struct cgs_rjournal *j, const struct res_file *f)
{
	int rc = 0;

	while (j->fd >= 0 && !rc && j->done < f->npoints) {
		char *line = res_journal_point(&f->points[j->done]);

		rc = line ? cgs_linelog_append(j->fd, line, strlen(line)) : -ENOMEM;
		free(line);
		if (!rc)
			j->done++;
	}
	if (rc && !j->warned) {
		j->warned = true;
		cgs_warn("cannot append to the journal %s: %s; the points go on being kept in memory",
			 j->path, strerror(-rc));
	}
	return f->npoints > j->done ? f->npoints - j->done : 0;
}

/* Remove the journal by its name only while the name is still ours. */
static void unlink_ours(const struct cgs_rjournal *j)
{
	struct stat a, b;

	if (!fstat(j->fd, &a) && !fstatat(j->dirfd, jname(j), &b, AT_SYMLINK_NOFOLLOW) &&
	    a.st_ino == b.st_ino && a.st_dev == b.st_dev)
		unlinkat(j->dirfd, jname(j), 0);
}

void cgs_rj_close(struct cgs_rjournal *j, bool keep)
{
	if (j->fd >= 0) {
		if (!keep)
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
	char *slash = strrchr(base, '/');

	if (!slash)
		return cgs_errf(err, errlen, -EINVAL, "internal error: default output %s", base);
	*slash = 0;
	mkdir("results", 0755);
	mkdir("results/runs", 0755);
	for (int k = 1; k < 1000; k++) {
		char dir[PATH_MAX];

		if (k == 1)
			snprintf(dir, sizeof(dir), "%s", base);
		else
			snprintf(dir, sizeof(dir), "%s-%d", base, k);
		if (!mkdir(dir, 0755)) {
			if (snprintf(outpath, len, "%s/result.json", dir) >= (int)len)
				return cgs_errf(err, errlen, -ENAMETOOLONG, "the current directory's path is too long; give -o");
			j->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			return j->dirfd < 0 ? cgs_errf(err, errlen, -errno, "cannot open %s: %s; give a path with -o",
						       dir, strerror(errno)) : 0;
		}
		if (errno != EEXIST)
			return cgs_errf(err, errlen, -errno, "cannot create %s: %s; give a path with -o",
					dir, strerror(errno));
	}
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
		unlinkat(dirfd, jn, 0);
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
