/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile.c - creating files safely as root (safefile.h): O_EXCL and
 * O_NOFOLLOW through a directory fd, random locked temporary names,
 * rename only over a regular file or nothing, devices and FIFOs written
 * in place, and the sweep of dead writers' temporary files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/safedir.h"
#include "lib/safefile.h"
#include "lib/sigstop.h"

#define FIFO_WAIT_MS 10000    /* how long a FIFO output waits for a reader */
#define FIFO_STEP_MS 50

#define TEMP_TAG ".cgs-"
#define RAND_LEN 12
#define NAME_ROOM 200          /* of NAME kept in ".NAME.cgs-PID-RR..." */
#define STALE_S (60 * 60)      /* unlocked this long: dead, whatever its pid */

enum { OUT_ATOMIC, OUT_IN_PLACE, OUT_IN_PLACE_LINK };

int cgs_create_at(int dirfd, const char *name, int flags, mode_t mode)
{
	int fd;

	if (!cgs_name_ok(name))
		return -EINVAL;
	fd = openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | flags, mode);
	return fd < 0 ? -errno : fd;
}

int cgs_open_parent(const char *path, char *name, size_t len)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX];
	int fd;

	if (!*base)
		return -EISDIR;
	if (!cgs_name_ok(base))
		return strlen(base) > NAME_MAX ? -ENAMETOOLONG : -EINVAL;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path + (slash == path)),
			  path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(name, len, "%s", base);
	return fd;
}

int cgs_reopen_dir(int dirfd, const char *path)
{
	char name[NAME_MAX + 1];
	int fd = cgs_open_parent(path, name, sizeof(name));
	struct stat a, b;

	if (fd >= 0 && !fstat(fd, &a) && !fstat(dirfd, &b) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return fd;
	if (fd >= 0)
		close(fd);
	return -ESTALE;
}

/* The temporary file, locked, with @mode (umask aside: a result is
 * meant to be read). */
static int make_temp(struct cgs_out *o, mode_t mode)
{
	char rnd[RAND_LEN + 1];
	int fd = -EEXIST;

	for (int k = 0; k < 100 && fd == -EEXIST; k++) {
		cgs_rand_chars(rnd, RAND_LEN);
		snprintf(o->tmp, sizeof(o->tmp), ".%.*s" TEMP_TAG "%d-%s", NAME_ROOM, o->name,
			 (int)getpid(), rnd);
		fd = cgs_create_at(o->dirfd, o->tmp, O_RDWR, 0600);
	}
	if (fd < 0) {
		o->tmp[0] = 0;
		return fd;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) || fchmod(fd, mode)) {
		int rc = -errno;

		unlinkat(o->dirfd, o->tmp, 0);
		o->tmp[0] = 0;
		close(fd);
		return rc;
	}
	o->fd = fd;
	return 0;
}

/* A link we follow: ours or root's, to a device, FIFO or socket. */
static int link_rule(int dirfd, const char *name, const struct stat *lst)
{
	struct stat t;

	if (lst->st_uid != geteuid() && lst->st_uid != 0)
		return -ELOOP;
	if (fstatat(dirfd, name, &t, 0))
		return -ELOOP;
	if (S_ISCHR(t.st_mode) || S_ISFIFO(t.st_mode) || S_ISSOCK(t.st_mode))
		return OUT_IN_PLACE_LINK;
	return -ELOOP;
}

/* What is at the final name now: OUT_* or -errno. */
static int classify(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? OUT_ATOMIC : -errno;
	if (S_ISREG(st.st_mode))
		return OUT_ATOMIC;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return OUT_IN_PLACE;
	if (S_ISLNK(st.st_mode))
		return link_rule(dirfd, name, &st);
	return -EINVAL;
}

int cgs_out_in_place(int dirfd, const char *name)
{
	int rc;

	if (!cgs_name_ok(name))
		return -EINVAL;
	rc = classify(dirfd, name);
	return rc < 0 ? rc : rc != OUT_ATOMIC;
}


/* Open the device or FIFO itself; -EAGAIN when it changed meanwhile.
 * O_NONBLOCK for the open: a FIFO with no reader is waited for at most
 * FIFO_WAIT_MS, in steps that a pending INT, TERM or HUP ends, then
 * -ENXIO; never an open() that waits with the run's signals blocked. */
static int open_in_place(struct cgs_out *o, int follow)
{
	int fd, fl;
	struct stat st;

	for (int waited = 0;; waited += FIFO_STEP_MS) {
		fd = openat(o->dirfd, o->name, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK |
			    (follow ? 0 : O_NOFOLLOW));
		if (fd >= 0 || errno != ENXIO || waited >= FIFO_WAIT_MS || cgs_stop_pending())
			break;
		usleep(FIFO_STEP_MS * 1000);
	}
	if (fd < 0)
		return errno == ELOOP && !follow ? -EAGAIN : -errno;
	if (fstat(fd, &st) || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
		close(fd);
		return -EAGAIN;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		fl = -errno;
		close(fd);
		return fl;
	}
	o->fd = fd;
	o->in_place = 1;
	return 0;
}

int cgs_out_begin_at(struct cgs_out *o, int dirfd, const char *name,
		     mode_t mode)
{
	int rc = -EAGAIN;

	o->fd = o->dirfd = -1;
	o->tmp[0] = o->name[0] = 0;
	o->in_place = 0;
	if (!cgs_name_ok(name))
		return strlen(name) > NAME_MAX ? -ENAMETOOLONG : -EINVAL;
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (o->dirfd < 0)
		return -errno;
	for (int k = 0; k < 3 && rc == -EAGAIN; k++) {
		rc = classify(o->dirfd, o->name);
		if (rc == OUT_IN_PLACE || rc == OUT_IN_PLACE_LINK) {
			rc = open_in_place(o, rc == OUT_IN_PLACE_LINK);
		} else if (rc == OUT_ATOMIC) {
			cgs_sweep_temps(o->dirfd);
			rc = make_temp(o, mode);
		}
	}
	if (rc) {
		close(o->dirfd);
		o->dirfd = -1;
	}
	return rc;
}

int cgs_out_begin(struct cgs_out *o, const char *path, mode_t mode)
{
	char name[NAME_MAX + 1];
	int dirfd = cgs_open_parent(path, name, sizeof(name)), rc;

	o->fd = o->dirfd = -1;
	o->tmp[0] = o->name[0] = 0;
	o->in_place = 0;
	if (dirfd < 0)
		return dirfd;
	rc = cgs_out_begin_at(o, dirfd, name, mode);
	close(dirfd);
	return rc;
}

int cgs_out_write(struct cgs_out *o, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(o->fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* renameat over a regular file or nothing, never anything else. */
static int rename_into_place(struct cgs_out *o)
{
	for (int k = 0; k < 3; k++) {
		struct stat st;
		int absent = fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) != 0;

		if (absent && errno != ENOENT)
			return -errno;
		if (!absent && S_ISLNK(st.st_mode))
			return -ELOOP;
		if (!absent && S_ISDIR(st.st_mode))
			return -EISDIR;
		if (!absent && !S_ISREG(st.st_mode))
			return -EINVAL;
		if (!absent ? !renameat(o->dirfd, o->tmp, o->dirfd, o->name)
			    : !renameat2(o->dirfd, o->tmp, o->dirfd, o->name, RENAME_NOREPLACE))
			return 0;
		if (absent && errno == EINVAL &&
		    !renameat(o->dirfd, o->tmp, o->dirfd, o->name))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* fsync, where the file can be synced at all (a device or FIFO: no). */
static int sync_fd(int fd, int in_place)
{
	if (!fsync(fd))
		return 0;
	if (in_place && (errno == EINVAL || errno == EROFS || errno == ENOTSUP))
		return 0;
	return -errno;
}

int cgs_out_commit(struct cgs_out *o)
{
	int rc = sync_fd(o->fd, o->in_place);

	if (!rc && !o->in_place)
		rc = rename_into_place(o);
	if (!rc && !o->in_place) {
		o->tmp[0] = 0;
		if (fsync(o->dirfd) && errno != EINVAL)
			rc = -errno;
	}
	if (close(o->fd) && !rc && errno != EINTR)
		rc = -errno;
	o->fd = -1;
	cgs_out_abort(o);
	return rc;
}

void cgs_out_abort(struct cgs_out *o)
{
	if (o->tmp[0] && o->dirfd >= 0)
		unlinkat(o->dirfd, o->tmp, 0);
	o->tmp[0] = 0;
	if (o->fd >= 0)
		close(o->fd);
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->fd = o->dirfd = -1;
}

/* The writer pid of a temporary name, or -1 when @name is not one. */
static long temp_pid(const char *name)
{
	const char *tag = NULL, *p;
	char *end;
	long pid;

	if (name[0] != '.')
		return -1;
	for (p = strstr(name + 1, TEMP_TAG); p; p = strstr(p + 1, TEMP_TAG))
		tag = p;
	if (!tag || tag == name + 1)
		return -1;
	p = tag + strlen(TEMP_TAG);
	if (*p < '1' || *p > '9')
		return -1;
	pid = strtol(p, &end, 10);
	if (*end != '-' || pid <= 0 || pid > INT_MAX || strlen(end + 1) != RAND_LEN)
		return -1;
	for (p = end + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			return -1;
	return pid;
}

int cgs_is_our_temp(const char *name)
{
	return temp_pid(name) > 0;
}

/* Is the writer of @name (not locking it) gone? */
static int writer_dead(const char *name, const struct stat *st)
{
	pid_t pid = (pid_t)temp_pid(name);

	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	return time(NULL) - st->st_mtime > STALE_S;
}

/* Remove @name when it is a dead writer's temporary file: 1 removed, 0 kept. */
static int sweep_one(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st, now;
	int gone = 0;

	if (fd < 0)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    !flock(fd, LOCK_EX | LOCK_NB) && writer_dead(name, &st) &&
	    !fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) &&
	    now.st_ino == st.st_ino && now.st_dev == st.st_dev)
		gone = !unlinkat(dirfd, name, 0);
	close(fd);
	return gone;
}

int cgs_sweep_temps(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), n = 0;
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(d)))
		if (cgs_is_our_temp(e->d_name) &&
		    (e->d_type == DT_REG || e->d_type == DT_UNKNOWN))
			n += sweep_one(dirfd, e->d_name);
	closedir(d);
	return n;
}

const char *cgs_out_why(int rc)
{
	switch (rc) {
	case -ELOOP:
		return "it is a symbolic link that cgscale does not follow (only links of yours or root's to a device or FIFO are); give the path it points to";
	case -EISDIR:
		return "it is a directory";
	case -EINVAL:
		return "it is a block device or another special file, which cgscale neither writes into nor replaces";
	default:
		return strerror(-rc);
	}
}
