/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linelog.c - the append-only line journal of linelog.h: one write() and
 * one fsync() a line, cut back on failure; a record lock marks a live writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "lib/linelog.h"

int cgs_linelog_create(const char *path)
{
	struct flock whole = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_APPEND, 0644);
	int rc;

	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_SETLK, &whole)) {
		rc = errno == EAGAIN || errno == EACCES ? -EBUSY : -errno;
		close(fd);
		return rc;
	}
	if (ftruncate(fd, 0)) {
		rc = -errno;
		close(fd);
		return rc;
	}
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
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_GETLK, &whole))
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
