/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linelog.c - the append-only line journal of linelog.h: each record framed
 * with its CRC-32 in one line, one write() a line, cut back on a failed
 * write, fsync()ed; a record lock marks a live writer. The journal is
 * created through its directory's fd (lib/safefile.h): a link, FIFO or
 * device planted at its name is refused, never followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

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

#define FRAME_HEAD "{\"crc32\":\""
#define FRAME_MID "\",\"rec\":"
#define HEAD_LEN (sizeof(FRAME_HEAD) - 1)
#define MID_LEN (sizeof(FRAME_MID) - 1)
#define CRC_LEN 8
#define FRAME_LEN (HEAD_LEN + CRC_LEN + MID_LEN + 1)   /* + the closing '}' */

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

uint32_t cgs_linelog_key(const char *id)
{
	if (!id || !*id)
		return 0;
	return (uint32_t)crc32_z(0, (const unsigned char *)id, strlen(id));
}

static uint32_t crc_of(uint32_t key, const char *rec, size_t len)
{
	return (uint32_t)crc32_z(key, (const unsigned char *)rec, len);
}

int cgs_linelog_write(int fd, const char *rec, size_t len, uint32_t key)
{
	size_t n = len + FRAME_LEN + 1;
	char *line = malloc(n), crc[CRC_LEN + 1];
	off_t at = lseek(fd, 0, SEEK_END);
	ssize_t w;
	int rc = 0;

	if (!line)
		return -ENOMEM;
	if (at < 0) {
		free(line);
		return -errno;
	}
	snprintf(crc, sizeof(crc), "%08x", crc_of(key, rec, len));
	memcpy(line, FRAME_HEAD, HEAD_LEN);
	memcpy(line + HEAD_LEN, crc, CRC_LEN);
	memcpy(line + HEAD_LEN + CRC_LEN, FRAME_MID, MID_LEN);
	memcpy(line + HEAD_LEN + CRC_LEN + MID_LEN, rec, len);
	memcpy(line + n - 2, "}\n", 2);
	do
		w = write(fd, line, n);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		rc = -errno;
	else if ((size_t)w != n)
		rc = -ENOSPC;
	if (rc && ftruncate(fd, at) == 0)
		fsync(fd);
	free(line);
	return rc;
}

int cgs_linelog_sync(int fd)
{
	return fsync(fd) ? -errno : 0;
}

int cgs_linelog_append(int fd, const char *rec, size_t len, uint32_t key)
{
	int rc = cgs_linelog_write(fd, rec, len, key);

	return rc ? rc : cgs_linelog_sync(fd);
}

static int is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

int cgs_linelog_unframe(const char *line, size_t len, uint32_t key,
			const char **rec, size_t *reclen)
{
	char want[CRC_LEN + 1];

	if (len < HEAD_LEN || memcmp(line, FRAME_HEAD, HEAD_LEN)) {
		*rec = line;
		*reclen = len;
		return 0;
	}
	*rec = NULL;
	*reclen = 0;
	if (len < FRAME_LEN || !is_hex(line + HEAD_LEN, CRC_LEN) ||
	    memcmp(line + HEAD_LEN + CRC_LEN, FRAME_MID, MID_LEN) ||
	    line[len - 1] != '}')
		return -EBADMSG;
	snprintf(want, sizeof(want), "%08x", crc_of(key, line + FRAME_LEN - 1,
						     len - FRAME_LEN));
	if (memcmp(want, line + HEAD_LEN, CRC_LEN))
		return -EBADMSG;
	*rec = line + FRAME_LEN - 1;
	*reclen = len - FRAME_LEN;
	return 1;
}

size_t cgs_linelog_inner_frame(const char *line, size_t len)
{
	for (size_t at = HEAD_LEN + 2; at + HEAD_LEN <= len; at++) {
		const char *p = memchr(line + at, '{', len - at);

		if (!p)
			break;
		at = (size_t)(p - line);
		if (at + HEAD_LEN <= len && line[at - 2] == '}' &&
		    !memcmp(p, FRAME_HEAD, HEAD_LEN))
			return at;
	}
	return 0;
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
