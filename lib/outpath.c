/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outpath.c - the output path check of outpath.h, shared by run, report,
 * compare --junit/--html and recover, so that a bad output is refused
 * with exit 2 before the first point or the first line of output, a
 * symbolic link or special file that lib/safefile.h would refuse included.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outpath.h"
#include "lib/safefile.h"
#include "lib/util.h"

void cgs_trim_slashes(const char *dir, char *buf, size_t len)
{
	size_t n;

	snprintf(buf, len, "%s", dir);
	for (n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = 0;
}

int cgs_check_out_kind(const char *what, const char *path, char *err,
		       size_t errlen)
{
	char name[NAME_MAX + 1];
	int dirfd = cgs_open_parent(path, name, sizeof(name)), rc;

	if (dirfd < 0)
		return 0;          /* said by cgs_check_out_path's own checks */
	rc = cgs_out_in_place(dirfd, name);
	close(dirfd);
	if (rc < 0)
		return cgs_errf(err, errlen, rc, "%s %s: %s", what, path, cgs_out_why(rc));
	return 0;
}

int cgs_out_path_in_place(const char *path)
{
	char name[NAME_MAX + 1];
	int dirfd = cgs_open_parent(path, name, sizeof(name)), rc;

	if (dirfd < 0)
		return 0;
	rc = cgs_out_in_place(dirfd, name);
	close(dirfd);
	return rc == 1;
}

int cgs_check_out_path(const char *what, const char *path, char *err,
		       size_t errlen)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX];
	struct stat st;
	long max;

	if (!*path)
		return cgs_errf(err, errlen, -EINVAL, "%s '': give a file name", what);
	if (strlen(path) + CGS_OUT_NAME_EXTRA >= PATH_MAX)
		return cgs_errf(err, errlen, -ENAMETOOLONG, "%s: the path is longer than PATH_MAX; choose a shorter one", what);
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return cgs_errf(err, errlen, -EISDIR, "%s %s is a directory; give a file name", what, path);
	if (!*base)
		return cgs_errf(err, errlen, -ENOENT, "%s %s: no such directory; create it or give a file name", what, path);
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path + (slash == path)), path);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return cgs_errf(err, errlen, -ENOENT, "%s %s: directory %s does not exist; create it or choose another path",
				what, path, dir);
	if (access(dir, W_OK))
		return cgs_errf(err, errlen, -EACCES, "%s %s: cannot write in %s (%s); choose a writable directory",
				what, path, dir, strerror(errno));
	max = pathconf(dir, _PC_NAME_MAX);
	if (max <= 0)
		max = NAME_MAX;
	if ((long)strlen(base) + CGS_OUT_NAME_EXTRA > max)
		return cgs_errf(err, errlen, -ENAMETOOLONG, "%s: the file name %.40s... is %zu characters; %s allows %ld here: choose a shorter name",
				what, base, strlen(base), dir, max - CGS_OUT_NAME_EXTRA);
	return cgs_check_out_kind(what, path, err, errlen);
}
