/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safedir.c - directories walked, made and removed through directory
 * descriptors, names removed or moved through the descriptor they were
 * checked in, and files with no name (safedir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/safedir.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

int cgs_name_ok(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..") &&
	       strlen(name) <= NAME_MAX;
}

/* The clock where getrandom fails: a name only needs to be hard to guess,
 * O_EXCL (or mkdir) makes it safe. */
void cgs_rand_chars(char *out, size_t n)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[32];
	struct timespec ts;

	if (n > sizeof(r))
		n = sizeof(r);
	if (getrandom(r, n, GRND_NONBLOCK) != (ssize_t)n) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (size_t i = 0; i < n; i++)
			r[i] = (unsigned char)((unsigned long)ts.tv_nsec >> (i % 8 * 4)) ^
			       (unsigned char)(getpid() >> (i % 4 * 8));
	}
	for (size_t i = 0; i < n; i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
	out[n] = 0;
}

static int trusted(int fd, int flags)
{
	struct stat st;

	if (!(flags & CGS_DIR_TRUSTED))
		return 0;
	if (fstat(fd, &st))
		return -errno;
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return -EPERM;
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return -EPERM;
	return 0;
}

static int walk(int start, const char *path, int flags, mode_t mode, int *links);

/* The link @name in @dfd, followed by the rule: its directory's fd. */
static int follow(int dfd, const char *name, int flags, mode_t mode, int *links)
{
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISLNK(st.st_mode))
		return -ENOTDIR;
	if ((st.st_uid != geteuid() && st.st_uid != 0) || ++*links > CGS_DIR_MAX_LINKS)
		return -ELOOP;
	n = readlinkat(dfd, name, target, sizeof(target));
	if (n < 0)
		return -errno;
	if (n == (ssize_t)sizeof(target))
		return -ENAMETOOLONG;
	target[n] = 0;
	/* what a link names is not made: as mkdir -p, which stops there */
	return walk(dfd, target, flags & ~CGS_DIR_CREATE, mode, links);
}

/* One component @name of a walk from @dfd: its fd. */
static int step(int dfd, const char *name, int flags, mode_t mode, int *links)
{
	int fd = openat(dfd, name, DIR_FLAGS), rc;

	if (fd < 0 && errno == ENOENT && (flags & CGS_DIR_CREATE)) {
		if (mkdirat(dfd, name, mode) && errno != EEXIST)
			return -errno;
		fd = openat(dfd, name, DIR_FLAGS);
	}
	if (fd < 0)
		return errno == ELOOP || errno == ENOTDIR ?
		       follow(dfd, name, flags, mode, links) : -errno;
	rc = trusted(fd, flags);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

static int walk(int start, const char *path, int flags, mode_t mode, int *links)
{
	char copy[PATH_MAX], *save = NULL, *part;
	int cur, next;

	if (snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return -ENAMETOOLONG;
	if (!*path)
		return -ENOENT;
	cur = path[0] == '/' ? open("/", DIR_FLAGS) : openat(start, ".", DIR_FLAGS);
	if (cur < 0)
		return -errno;
	next = path[0] == '/' ? trusted(cur, flags) : 0;
	for (part = strtok_r(copy, "/", &save); !next && part;
	     part = strtok_r(NULL, "/", &save)) {
		if (!strcmp(part, "."))
			continue;
		next = step(cur, part, flags, mode, links);
		close(cur);
		if (next < 0)
			return next;
		cur = next;
		next = 0;
	}
	if (next) {
		close(cur);
		return next;
	}
	return cur;
}

int cgs_open_dir(const char *path, int flags, mode_t mode)
{
	int links = 0;

	return walk(AT_FDCWD, path, flags, mode, &links);
}

int cgs_mkdir_at(int dirfd, const char *name, mode_t mode, int excl)
{
	int fd;

	if (!cgs_name_ok(name))
		return -EINVAL;
	if (mkdirat(dirfd, name, mode) && (excl || errno != EEXIST))
		return -errno;
	fd = openat(dirfd, name, DIR_FLAGS);
	return fd < 0 ? -errno : fd;
}

int cgs_mkdtemp_at(int dirfd, const char *prefix, char *name, size_t len)
{
	char rnd[13];
	int fd;

	for (int i = 0; i < 100; i++) {
		cgs_rand_chars(rnd, 12);
		if (snprintf(name, len, "%s%s", prefix, rnd) >= (int)len)
			return -ENAMETOOLONG;
		if (!cgs_name_ok(name))
			return -EINVAL;
		if (!mkdirat(dirfd, name, 0700)) {
			fd = openat(dirfd, name, DIR_FLAGS);
			return fd < 0 ? -errno : fd;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int cgs_unlink_at(int dirfd, const char *name, const struct stat *was)
{
	struct stat st;

	if (!cgs_name_ok(name))
		return -EINVAL;
	if (was && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (was && (st.st_dev != was->st_dev || st.st_ino != was->st_ino))
		return -ESTALE;
	return unlinkat(dirfd, name, 0) ? -errno : 0;
}

int cgs_rmdir_at(int dirfd, const char *name)
{
	if (!cgs_name_ok(name))
		return -EINVAL;
	return unlinkat(dirfd, name, AT_REMOVEDIR) ? -errno : 0;
}

int cgs_move_at(int fromfd, const char *from, int tofd, const char *to)
{
	if (!cgs_name_ok(from) || !cgs_name_ok(to))
		return -EINVAL;
	return renameat2(fromfd, from, tofd, to, RENAME_NOREPLACE) ? -errno : 0;
}

int cgs_anon_file_at(int dirfd, int flags)
{
	char name[32] = ".cgscale-anon-";
	int fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC | flags, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd < 0 ? -errno : fd;
	for (int i = 0; i < 100; i++) {
		cgs_rand_chars(name + 14, 12);
		fd = openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC | flags,
			    0600);
		if (fd >= 0) {
			unlinkat(dirfd, name, 0);
			return fd;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}
