/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_recover.c - what `cgscale recover` (runner/cmd/recover.c) and the
 * next run into the same output do with a dead run's journal: read it
 * (each bad line named, results/model/journal_lines.c), follow it to the
 * fallback place when the run moved it there, and turn it into a result
 * marked "complete": false, unless a result of the same run id holds its
 * points already (a kill after the final rename): then only remove it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/linelog.h"
#include "lib/util.h"
#include "results/model/result.h"
#include "runner/run/fallback.h"
#include "runner/run/journal_keep.h"
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

/* Read the dead journal @journal: 0, or -errno with @err. */
static int read_journal(const char *journal, struct res_file *f,
			struct res_journal_info *info, char *err, size_t errlen)
{
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
	rc = res_journal_read(journal, buf, len, f, info, err, errlen);
	free(buf);
	return rc;
}

/* The output of @journal: the journal's name without .partial. */
static void stem_of(const char *journal, char *out, size_t len)
{
	size_t n = strlen(journal), sl = strlen(SUFFIX);

	if (n > sl && !strcmp(journal + n - sl, SUFFIX))
		n -= sl;
	snprintf(out, len, "%.*s", (int)n, journal);
}

/* The journal that the run of @journal moved to the fallback place, when
 * @journal is the older copy left beside the output: 1 with its path in
 * @twin, -EBUSY when that run still runs, else 0. */
static int find_twin(const char *journal, const struct res_file *f,
		     const struct res_journal_info *info, char *twin, size_t len)
{
	char dir[PATH_MAX], name[NAME_MAX + 1], stem[PATH_MAX];
	struct stat a, b;
	int rc;

	stem_of(journal, stem, sizeof(stem));
	if (cgs_fallback_path(dir, sizeof(dir)) ||
	    cgs_fallback_name(*info->output ? info->output : stem, res_run_id(f),
			      name, sizeof(name)) ||
	    snprintf(twin, len, "%s/%s", dir, name) >= (int)len ||
	    lstat(twin, &a) || !S_ISREG(a.st_mode) || stat(journal, &b) ||
	    (a.st_dev == b.st_dev && a.st_ino == b.st_ino))
		return 0;
	rc = cgs_linelog_idle(twin);
	return rc == -EBUSY ? rc : !rc;
}

/* Add @out and the <stem>-recovered[-N].json beside it that exist to @v. */
static void add_names(char **v, size_t *n, size_t max, const char *out)
{
	char stem[PATH_MAX], name[PATH_MAX + 32];
	size_t len = strlen(out);

	if (!*out || *n >= max)
		return;
	v[(*n)++] = strdup(out);
	snprintf(stem, sizeof(stem), "%.*s", (int)(len > 5 && !strcmp(out + len - 5, ".json") ?
						    len - 5 : len), out);
	for (int k = 1; k < 1000 && *n < max; k++) {
		if (k == 1)
			snprintf(name, sizeof(name), "%s-recovered.json", stem);
		else
			snprintf(name, sizeof(name), "%s-recovered-%d.json", stem, k);
		if (access(name, F_OK))
			break;
		v[(*n)++] = strdup(name);
	}
}

/* Whether a result of the run of @src already holds its points: the one
 * asked for, the output it was for, its own name, or their -recovered
 * names. 1 with the name in @found, else 0. */
static int already_there(const char *src, const char *want, const struct res_file *f,
			 const struct res_journal_info *info, char *found, size_t len)
{
	char *v[64] = { 0 }, stem[PATH_MAX];
	size_t n = 0;
	int rc;

	if (!res_run_id(f))
		return 0;
	stem_of(src, stem, sizeof(stem));
	add_names(v, &n, 64, want ? want : "");
	add_names(v, &n, 64, stem);
	add_names(v, &n, 64, info->output);
	rc = cgs_rj_finished(res_run_id(f), f->npoints, v, n, found, len);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	return rc;
}

/* Whether @path's directory exists and can be written to. */
static bool dir_writable(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	return !access(*dir ? dir : "/", W_OK);
}

/* Whether the journal @src lies in the fallback place. */
static bool in_fallback(const char *src)
{
	char dir[PATH_MAX], fb[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	const char *slash = strrchr(src, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - src) : 1, slash ? src : ".");
	return !cgs_fallback_path(fb, sizeof(fb)) && realpath(*dir ? dir : "/", a) &&
	       realpath(fb, b) && !strcmp(a, b);
}

/* The name of the result of @src: @want; else, for `cgscale recover`
 * (no @avoid) of a journal in the fallback place, the output it was for
 * when it is free, in a directory that is there; else its own stem or a
 * -recovered name beside it (recovered_name). */
static int result_name(const char *src, const char *avoid, const char *want,
		       const struct res_journal_info *info, char *out, size_t len)
{
	if (want) {
		snprintf(out, len, "%s", want);
		return 0;
	}
	if (!avoid && *info->output && in_fallback(src) &&
	    access(info->output, F_OK) && dir_writable(info->output)) {
		snprintf(out, len, "%s", info->output);
		return 0;
	}
	return recovered_name(src, avoid, out, len);
}

int cgs_rj_recover(const char *journal, const char *avoid, const char *want,
		   struct cgs_rj_recovered *rv, char *err, size_t errlen)
{
	struct res_journal_info info;
	struct res_file f;
	char twin[PATH_MAX + 16] = "";
	const char *src = journal;
	int rc;

	memset(rv, 0, sizeof(*rv));
	rc = read_journal(journal, &f, &info, err, errlen);
	if (rc)
		return rc;
	rc = find_twin(journal, &f, &info, twin, sizeof(twin));
	if (rc) {
		res_file_free(&f);
		res_journal_info_free(&info);
	}
	if (rc == -EBUSY)
		return cgs_errf(err, errlen, rc, "%s is an older copy of the journal of a cgscale run still running (its journal is now %s); wait for it to end or stop it",
				journal, twin);
	if (rc) {
		cgs_warn("%s is an older copy of its run's journal: the run moved it to %s, which holds more; that one is recovered",
			 journal, twin);
		src = twin;
		rc = read_journal(src, &f, &info, err, errlen);
		if (rc)
			return rc;
	}
	cgs_rj_name_bad(src, &info);
	rv->npoints = f.npoints;
	rv->already = already_there(src, want, &f, &info, rv->out, sizeof(rv->out));
	if (!rv->already) {
		res_file_scalability(&f);
		if (result_name(src, avoid, want, &info, rv->out, sizeof(rv->out)))
			rc = cgs_errf(err, errlen, -EINVAL, "%s: no free name to recover it into; give one with -o",
				      src);
		else
			rc = res_write_file(&f, rv->out, err, errlen);
	}
	res_file_free(&f);
	res_journal_info_free(&info);
	if (!rc) {
		unlink(src);
		if (src != journal)
			unlink(journal);
	}
	return rc;
}
