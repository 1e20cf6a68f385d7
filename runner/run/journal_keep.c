/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_keep.c - what keeps a run's points when the journal beside its
 * output fails (journal_keep.h): the journal's lines (the header twice,
 * then the points, checksummed with the run id), the move to the fallback
 * place (runner/run/fallback.h) with every point when the journal cannot
 * take one or is gone, what the run says about where its points are, the
 * finished result of the same run that makes a journal's recovery moot,
 * and the naming of a journal's bad lines.
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
#include "runner/run/fallback.h"
#include "runner/run/journal_keep.h"
#include "runner/run/run_journal.h"

int cgs_rj_put_header(int fd, const struct res_file *head, const char *output)
{
	char *rec = res_journal_header(head, output);
	int rc = rec ? cgs_linelog_write(fd, rec, strlen(rec), 0) : -ENOMEM;

	if (!rc)
		rc = cgs_linelog_write(fd, rec, strlen(rec), 0);
	free(rec);
	return rc;
}

int cgs_rj_put_points(int fd, uint32_t key, const struct res_file *f,
		      unsigned *done, int *sync)
{
	int rc = 0;

	*sync = 0;
	for (; *done < f->npoints; (*done)++) {
		char *rec = res_journal_point(&f->points[*done]);

		rc = rec ? cgs_linelog_write(fd, rec, strlen(rec), key) : -ENOMEM;
		free(rec);
		if (rc)
			return rc;
	}
	*sync = cgs_linelog_sync(fd);
	return 0;
}

const char *cgs_rj_path(const struct cgs_rjournal *j)
{
	return j->moved ? j->fbpath : j->path;
}

/* The name of <output>.partial in the output's directory. */
static const char *beside_name(const struct cgs_rjournal *j)
{
	const char *slash = strrchr(j->path, '/');

	return slash ? slash + 1 : j->path;
}

bool cgs_rj_still_there(const struct cgs_rjournal *j)
{
	struct stat a, b;
	int rc;

	if (j->fd < 0 || fstat(j->fd, &b))
		return false;
	if (j->moved || j->dirfd < 0)
		rc = stat(cgs_rj_path(j), &a);
	else
		rc = fstatat(j->dirfd, beside_name(j), &a, AT_SYMLINK_NOFOLLOW);
	return !rc && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void cgs_rj_drop_moved(struct cgs_rjournal *j)
{
	struct stat st, beside = { .st_dev = j->bdev, .st_ino = j->bino };
	char name[NAME_MAX + 1];
	int dfd;

	/* through the fallback place's directory, and only the file we wrote */
	if (!fstat(j->fd, &st) && (dfd = cgs_open_parent(j->fbpath, name, sizeof(name))) >= 0) {
		cgs_unlink_at(dfd, name, &st);
		close(dfd);
	}
	if (j->left_beside && j->dirfd >= 0)
		cgs_unlink_at(j->dirfd, beside_name(j), &beside);
	cgs_warn("the result holds every point: the journal in the fallback place, %s, is removed",
		 j->fbpath);
}

static const char *why_text(int why)
{
	return why == -ENOENT ? "it is gone: its directory was removed or moved away" : strerror(-why);
}

/* Create the fallback journal and fill it: its fd, or -errno with @err. */
static int fallback_fill(const struct cgs_rjournal *j, const struct res_file *f,
			 char *path, size_t len, unsigned *done, int *sync,
			 char *err, size_t errlen)
{
	char name[NAME_MAX + 1];
	int dfd = cgs_fallback_open(path, len, err, errlen), fd = -1, rc;

	if (dfd < 0)
		return dfd;
	rc = cgs_fallback_name(j->output, j->id, name, sizeof(name));
	if (rc) {
		close(dfd);
		return cgs_errf(err, errlen, rc, "no name for it in %s (%s)", path,
				rc == -EINVAL ? "the run has no id" : strerror(-rc));
	}
	fd = cgs_linelog_create_at(dfd, name);
	rc = fd < 0 ? fd : 0;
	if (!rc)
		rc = cgs_rj_put_header(fd, f, j->output);
	if (!rc)
		rc = cgs_rj_put_points(fd, j->key, f, done, sync);
	if (rc) {
		cgs_errf(err, errlen, rc, "cannot write %s/%s: %s", path, name, strerror(-rc));
		if (fd >= 0) {
			cgs_unlink_at(dfd, name, NULL);
			close(fd);
		}
		fd = rc;
	}
	close(dfd);
	if (fd >= 0 && strlen(path) + strlen(name) + 2 <= len)
		snprintf(path + strlen(path), len - strlen(path), "/%s", name);
	return fd;
}

int cgs_rj_move(struct cgs_rjournal *j, const struct res_file *f, int why)
{
	char path[PATH_MAX], err[PATH_MAX + 128];
	unsigned done = 0;
	int sync = 0, fd;

	if (!j->failed)
		j->failed = why;
	fd = fallback_fill(j, f, path, sizeof(path), &done, &sync, err, sizeof(err));
	if (fd < 0) {
		if (!j->warned)
			cgs_warn("cannot write the journal %s (%s), nor move it to the fallback place: %s; the points not in it are kept in memory and printed at the end",
				 j->path, why_text(why), err);
		j->warned = true;
		return fd;
	}
	/* the old journal is a part of the new one: remove it if it is
	 * still the file we wrote (never whatever took its name since) */
	if (cgs_rj_still_there(j) && cgs_unlink_at(j->dirfd, beside_name(j), NULL)) {
		struct stat st = { 0 };

		j->left_beside = !fstat(j->fd, &st);
		j->bdev = st.st_dev;
		j->bino = st.st_ino;
	}
	cgs_warn("cannot write the journal %s (%s): it moves to the fallback place with its %u point(s): %s%s%s; if this run dies, run 'cgscale recover %s'",
		 j->path, why_text(why), done, path, sync ? ", though the disk did not confirm it: " : "",
		 sync ? strerror(-sync) : "", path);
	close(j->fd);
	j->fd = fd;
	j->done = done;
	j->moved = true;
	j->warned = true;
	j->unsynced = sync;
	snprintf(j->fbpath, sizeof(j->fbpath), "%s", path);
	return 0;
}

void cgs_rj_say_kept(const struct cgs_rjournal *j, const char *outpath,
		     unsigned npoints, unsigned left)
{
	char moved[PATH_MAX + 160] = "", unsynced[128] = "";

	if (j->moved)
		snprintf(moved, sizeof(moved), " (the fallback place: the journal beside the output failed: %s)",
			 why_text(j->failed));
	if (j->unsynced)
		snprintf(unsynced, sizeof(unsynced), ", though the disk did not confirm every line (fsync: %s)",
			 strerror(-j->unsynced));
	if (j->fd < 0)
		cgs_err("the result file %s was not written, and it has no journal (it is written in place): the %u point(s) are only in the table above",
			outpath, npoints);
	else if (!left)
		cgs_err("the result file %s was not written; all %u point(s) are in the journal %s%s%s: run 'cgscale recover %s' once the problem is fixed",
			outpath, npoints, cgs_rj_path(j), moved, unsynced, cgs_rj_path(j));
	else
		cgs_err("the result file %s was not written; %u of %u point(s) are in the journal %s%s%s: run 'cgscale recover %s' once the problem is fixed; the other %u are only in the table above",
			outpath, npoints - left, npoints, cgs_rj_path(j), moved, unsynced,
			cgs_rj_path(j), left);
}

int cgs_rj_finished(const char *id, unsigned npoints, char *const *cand,
		    size_t n, char *found, size_t len)
{
	for (size_t i = 0; id && i < n; i++) {
		struct res_file g;
		struct stat st;
		char err[256];
		int same;

		if (!cand[i] || !*cand[i] || stat(cand[i], &st) || !S_ISREG(st.st_mode))
			continue;
		if (res_read_file(cand[i], &g, err, sizeof(err))) {
			res_file_free(&g);
			continue;
		}
		same = res_run_id(&g) && !strcmp(res_run_id(&g), id) && g.npoints >= npoints;
		res_file_free(&g);
		if (same) {
			snprintf(found, len, "%s", cand[i]);
			return 1;
		}
	}
	return 0;
}

/* "12, 15-17, 30" of @n line numbers, cut to fit @buf. */
static void ranges(const unsigned *v, unsigned n, char *buf, size_t len)
{
	size_t at = 0;

	*buf = 0;
	for (unsigned i = 0; i < n && at + 24 < len; i++) {
		unsigned k = i;

		while (k + 1 < n && v[k + 1] == v[k] + 1)
			k++;
		at += (size_t)snprintf(buf + at, len - at, k > i ? "%s%u-%u" : "%s%u",
				       at ? ", " : "", v[i], v[k]);
		i = k;
	}
	if (at + 24 >= len)
		snprintf(buf + at, len - at, ", ...");
}

void cgs_rj_name_bad(const char *journal, const struct res_journal_info *in)
{
	char more[1024];

	if (!in->checksums)
		cgs_warn("%s has no checksums (a journal of an older cgscale): its lines are checked as JSON and as points only",
			 journal);
	if (in->split)
		cgs_warn("%s: %u line(s) had a damaged end and held the next line too, the first line %u: each part was checked on its own",
			 journal, in->split, in->split_line);
	for (unsigned k = 0; k < in->nbad && k < RES_JOURNAL_MAX_BAD; k++)
		cgs_warn("%s: line %u dropped: %s", journal, in->bad[k].line, in->bad[k].why);
	if (in->nbad > RES_JOURNAL_MAX_BAD) {
		ranges(in->bad_line + RES_JOURNAL_MAX_BAD, in->nbad - RES_JOURNAL_MAX_BAD,
		       more, sizeof(more));
		cgs_warn("%s: %u more line(s) dropped: lines %s", journal,
			 in->nbad - RES_JOURNAL_MAX_BAD, more);
	}
	if (in->torn)
		cgs_warn("%s: dropped a torn last line (%zu bytes): the point being written when the run died",
			 journal, in->torn);
}
