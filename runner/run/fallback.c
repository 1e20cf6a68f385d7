/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fallback.c - the fallback place of a run's journal (fallback.h): which
 * directory, made and opened safely, and the journal's name there.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/run/fallback.h"

int cgs_fallback_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int w;

	/* the XDG base directory spec: a relative path is to be ignored */
	if (xdg && xdg[0] == '/')
		w = snprintf(buf, len, "%s/cgscale", xdg);
	else if (home && home[0] == '/' && home[1])
		w = snprintf(buf, len, "%s/.local/state/cgscale", home);
	else
		w = snprintf(buf, len, "/var/tmp/cgscale-%u", (unsigned)geteuid());
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/* mkdir -p of @dir's parents (each made 0700), then open the parent. */
static int open_parent(char *dir, char **leaf)
{
	char *slash = strrchr(dir, '/');
	int fd;

	if (!slash || !slash[1])
		return -EINVAL;
	*leaf = slash + 1;
	for (char *p = strchr(dir + 1, '/'); p && p <= slash; p = strchr(p + 1, '/')) {
		*p = 0;
		if (mkdir(dir, 0700) && errno != EEXIST) {
			int rc = -errno;

			*p = '/';
			return rc;
		}
		*p = '/';
	}
	*slash = 0;
	fd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*slash = '/';
	return fd < 0 ? -errno : fd;
}

int cgs_fallback_open(char *buf, size_t len, char *err, size_t errlen)
{
	char *leaf;
	struct stat st;
	int pfd, fd, rc;

	rc = cgs_fallback_path(buf, len);
	if (rc)
		return cgs_errf(err, errlen, rc, "the fallback place's name is too long");
	pfd = open_parent(buf, &leaf);
	if (pfd < 0)
		return cgs_errf(err, errlen, pfd, "cannot make the fallback place %s: %s",
				buf, strerror(-pfd));
	if (mkdirat(pfd, leaf, 0700) && errno != EEXIST) {
		rc = -errno;
		close(pfd);
		return cgs_errf(err, errlen, rc, "cannot make the fallback place %s: %s",
				buf, strerror(-rc));
	}
	fd = openat(pfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	rc = fd < 0 ? -errno : 0;
	close(pfd);
	if (rc == -ELOOP || rc == -ENOTDIR)
		return cgs_errf(err, errlen, -ELOOP, "the fallback place %s is not a directory (a symbolic link?): not used",
				buf);
	if (rc)
		return cgs_errf(err, errlen, rc, "cannot open the fallback place %s: %s",
				buf, strerror(-rc));
	if (fstat(fd, &st))
		rc = -errno;
	else if (st.st_uid != geteuid())
		rc = cgs_errf(err, errlen, -EPERM, "the fallback place %s belongs to uid %u, not to this user: not used",
			      buf, (unsigned)st.st_uid);
	else if ((st.st_mode & 077) && fchmod(fd, 0700))
		rc = -errno;
	if (rc) {
		if (rc != -EPERM)
			cgs_errf(err, errlen, rc, "the fallback place %s: %s", buf, strerror(-rc));
		close(fd);
		return rc;
	}
	return fd;
}

int cgs_fallback_name(const char *output, const char *id, char *buf, size_t len)
{
	const char *base = strrchr(output, '/') ? strrchr(output, '/') + 1 : output;
	size_t n = strlen(base);
	int w;

	if (!id || strlen(id) < 16)
		return -EINVAL;
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	if (n > NAME_MAX - 30)          /* room for -<16 digits>.json.partial */
		n = NAME_MAX - 30;
	w = snprintf(buf, len, "%.*s-%.16s.json.partial", (int)n, base, id);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}
