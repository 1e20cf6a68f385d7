/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linelog.c - the append-only line journal of linelog.h: one write() and
 * one fsync() a line, cut back on failure; a record lock marks a live writer.
 * The journal is created through its directory's fd (lib/safefile.h): a
 * link, FIFO or device planted at its name is refused, never followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/linelog.h"
#include "lib/safefile.h"

int cgs_linelog_adopt(int fd)
{
	struct flock whole = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1)
		return -EINVAL;
	if (fcntl(fd, F_SETLK, &whole))
		return errno == EAGAIN || errno == EACCES ? -EBUSY : -errno;
	return ftruncate(fd, 0) ? -errno : 0;
}

/* An existing @name: only a regular file with one link, never followed,
 * never a FIFO waited on. */
static int open_existing(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK |
			O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno;
	if (fcntl(fd, F_SETFL, O_APPEND)) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

int cgs_linelog_create_at(int dirfd, const char *name)
{
	int fd = cgs_create_at(dirfd, name, O_WRONLY | O_APPEND, 0644), rc;

	if (fd == -EEXIST)
		fd = open_existing(dirfd, name);
	if (fd < 0)
		return fd;
	rc = cgs_linelog_adopt(fd);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int cgs_linelog_create(const char *path)
{
	char name[NAME_MAX + 1];
	int dirfd = cgs_open_parent(path, name, sizeof(name)), fd;

	if (dirfd < 0)
		return dirfd;
	fd = cgs_linelog_create_at(dirfd, name);
	close(dirfd);
	return fd;
}

int cgs_linelog_append(int fd, const char *line, size_t len)
{
	off_t at = lseek(fd, 0, SEEK_END);
	ssize_t w;
	int rc = 0;

	if (at < 0)
		return -errno;
	do
		w = write(fd, line, len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		rc = -errno;
	else if ((size_t)w != len)
		rc = -ENOSPC;
	else if (fsync(fd))
		rc = -errno;
	if (rc && ftruncate(fd, at) == 0)
		fsync(fd);
	return rc;
}

int cgs_linelog_idle(const char *path)
{
	struct flock whole = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else if (fcntl(fd, F_GETLK, &whole))
		rc = -errno;
	else if (whole.l_type != F_UNLCK)
		rc = -EBUSY;
	close(fd);
	return rc;
}

int cgs_linelog_lines(const char *buf, size_t len, size_t *torn,
		      int (*fn)(const char *line, size_t len, unsigned lineno,
				void *arg), void *arg)
{
	size_t at = 0;
	unsigned lineno = 0;
	int rc = 0;

	*torn = 0;
	while (!rc && at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);

		if (!nl) {
			*torn = len - at;
			break;
		}
		rc = fn(buf + at, (size_t)(nl - (buf + at)), ++lineno, arg);
		at = (size_t)(nl - buf) + 1;
	}
	return rc;
}
