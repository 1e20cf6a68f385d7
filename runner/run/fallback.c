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

#include "lib/safedir.h"
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

/* The parent of @dir, made where missing (0700) and walked one
 * component at a time: every directory on the way is root's or ours and
 * writable by no one else unless sticky, and a link is followed only when
 * root or we own it (lib/safedir.h). A user's link at ~/.local/state, or
 * a directory of theirs on the way, never takes the journal elsewhere. */
static int open_parent(char *dir, char **leaf)
{
	char *slash = strrchr(dir, '/');
	int fd;

	if (!slash || !slash[1])
		return -EINVAL;
	*leaf = slash + 1;
	*slash = 0;
	fd = cgs_open_dir(*dir ? dir : "/", CGS_DIR_CREATE | CGS_DIR_TRUSTED, 0700);
	*slash = '/';
	return fd;
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
	if (pfd == -ELOOP || pfd == -EPERM)
		return cgs_errf(err, errlen, -EPERM, "the way to the fallback place %s passes a link or directory another user owns or can write: not used",
				buf);
	if (pfd < 0)
		return cgs_errf(err, errlen, pfd, "cannot make the fallback place %s: %s",
				buf, strerror(-pfd));
	fd = cgs_mkdir_at(pfd, leaf, 0700, 0);
	rc = fd < 0 ? fd : 0;
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
