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
#include "lib/safedir.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "results/model/result.h"
#include "runner/run/fallback.h"
#include "runner/run/journal_keep.h"
#include "runner/run/run_journal.h"

#define SUFFIX ".partial"

/* A journal opened through its directory: the directory, the name and
 * the file's identity, so that it is removed there and only while the
 * name is still that file (a directory swapped for a link meanwhile
 * never makes us remove another file). */
struct jsrc {
	int dfd;
	char name[NAME_MAX + 1];
	struct stat st;
};

static int slurp(struct jsrc *js, char **buf, size_t *len)
{
	struct stat st;
	int fd = openat(js->dfd, js->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC),
	    rc = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		rc = -errno;
	else if ((js->st = st, !S_ISREG(st.st_mode)))
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

/* Read the dead journal @journal, opened through its directory (@js,
 * closed by the caller): 0, or -errno with @err. */
static int read_journal(const char *journal, struct jsrc *js, struct res_file *f,
			struct res_journal_info *info, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len;
	int rc = cgs_linelog_idle(journal);

	if (rc == -EBUSY)
		return cgs_errf(err, errlen, rc, "%s is the journal of a cgscale run still running; wait for it to end or stop it",
				journal);
	js->dfd = rc ? -1 : cgs_open_parent(journal, js->name, sizeof(js->name));
	if (!rc)
		rc = js->dfd < 0 ? js->dfd : slurp(js, &buf, &len);
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

/* Whether the journal @src lies in the fallback place: 1 when in a
 * place that is ours alone (reached through directories root's or ours,
 * the place our own with mode 0700, the journal our own), so that the
 * output it records was written by a run of ours; -EPERM when in a
 * fallback place someone else could have written (a journal planted
 * there names any output it likes); else 0. */
static int in_fallback(const char *src, const struct jsrc *js)
{
	char dir[PATH_MAX], fb[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	const char *slash = strrchr(src, '/');
	struct stat ds, fs;
	int fd;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - src) : 1, slash ? src : ".");
	if (cgs_fallback_path(fb, sizeof(fb)) || !realpath(*dir ? dir : "/", a) ||
	    !realpath(fb, b) || strcmp(a, b))
		return 0;
	fd = cgs_open_dir(fb, CGS_DIR_TRUSTED, 0);
	if (fd < 0 || fstat(fd, &fs) || fstat(js->dfd, &ds) || fs.st_dev != ds.st_dev ||
	    fs.st_ino != ds.st_ino || fs.st_uid != geteuid() || (fs.st_mode & 077) ||
	    js->st.st_uid != geteuid()) {
		if (fd >= 0)
			close(fd);
		return -EPERM;
	}
	close(fd);
	return 1;
}

/* The name of the result of @src: @want; else, for `cgscale recover`
 * (no @avoid) of a journal in the fallback place, the output it was for
 * when it is free, in a directory that is there; else its own stem or a
 * -recovered name beside it (recovered_name). */
static int result_name(const char *src, const struct jsrc *js, const char *avoid,
		       const char *want, const struct res_journal_info *info, char *out,
		       size_t len)
{
	int fb;

	if (want) {
		snprintf(out, len, "%s", want);
		return 0;
	}
	fb = avoid || !*info->output ? 0 : in_fallback(src, js);
	if (fb < 0)
		cgs_warn("%s is in a fallback place that is not this user's alone (owner or mode, or the journal's owner): the output it names, %s, is not trusted; it is recovered beside it",
			 src, info->output);
	if (fb > 0 && access(info->output, F_OK) && dir_writable(info->output)) {
		snprintf(out, len, "%s", info->output);
		return 0;
	}
	return recovered_name(src, avoid, out, len);
}

/* Read @journal into @js[0], or, when its run moved it to the fallback
 * place, the copy there (its path in @twin) into @js[1]: 0 with *src the
 * one read, or -errno with @err. */
static int load(const char *journal, char *twin, size_t tlen, struct jsrc js[2],
		const char **src, struct res_file *f, struct res_journal_info *info,
		char *err, size_t errlen)
{
	int rc = read_journal(journal, &js[0], f, info, err, errlen);

	*src = journal;
	if (rc)
		return rc;
	rc = find_twin(journal, f, info, twin, tlen);
	if (!rc)
		return 0;
	res_file_free(f);
	res_journal_info_free(info);
	if (rc == -EBUSY)
		return cgs_errf(err, errlen, rc, "%s is an older copy of the journal of a cgscale run still running (its journal is now %s); wait for it to end or stop it",
				journal, twin);
	cgs_warn("%s is an older copy of its run's journal: the run moved it to %s, which holds more; that one is recovered",
		 journal, twin);
	*src = twin;
	return read_journal(twin, &js[1], f, info, err, errlen);
}

int cgs_rj_recover(const char *journal, const char *avoid, const char *want,
		   struct cgs_rj_recovered *rv, char *err, size_t errlen)
{
	struct jsrc js[2] = { { .dfd = -1 }, { .dfd = -1 } };
	struct res_journal_info info;
	struct res_file f;
	char twin[PATH_MAX + 16] = "";
	const char *src;
	int rc;

	memset(rv, 0, sizeof(*rv));
	rc = load(journal, twin, sizeof(twin), js, &src, &f, &info, err, errlen);
	if (rc)
		goto out;
	cgs_rj_name_bad(src, &info);
	rv->npoints = f.npoints;
	rv->already = already_there(src, want, &f, &info, rv->out, sizeof(rv->out));
	if (!rv->already) {
		res_file_scalability(&f);
		if (result_name(src, &js[src != journal], avoid, want, &info, rv->out, sizeof(rv->out)))
			rc = cgs_errf(err, errlen, -EINVAL, "%s: no free name to recover it into; give one with -o",
				      src);
		else
			rc = res_write_file(&f, rv->out, err, errlen);
	}
	res_file_free(&f);
	res_journal_info_free(&info);
	/* through the directories they were read in, and only those files */
	for (int i = 1; !rc && i >= 0; i--)
		if (js[i].dfd >= 0)
			cgs_unlink_at(js[i].dfd, js[i].name, &js[i].st);
out:
	for (int i = 0; i < 2; i++)
		if (js[i].dfd >= 0)
			close(js[i].dfd);
	return rc;
}
