/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile.h - how cgscale creates every file, safely as root in a
 * directory someone else can write: the directory is opened once and used
 * through openat; new files are O_CREAT|O_EXCL|O_NOFOLLOW; temporary names
 * are unpredictable; a result is renamed into place only over a regular
 * file or nothing; a character device, FIFO or terminal is written into,
 * never replaced.
 *
 * The rules (docs/running.md, "Writing files as root"):
 * - the final name may be missing or a regular file: the
 *   data goes to a temporary ".NAME.cgs-PID-RRRRRRRRRRRR" (RR: 12 random
 *   characters from getrandom), fsync, renameat over the name, fsync of
 *   the directory;
 * - a character device, FIFO or socket at the final name is written in
 *   place (O_NOFOLLOW, no O_TRUNC, nothing created or removed);
 * - a symbolic link at the final name is followed only when it is owned
 *   by our euid or by root and points at such a device or FIFO (as
 *   /dev/stdout does); any other link is refused with -ELOOP, so a link
 *   planted by another user never steers the write;
 * - a directory is refused with -EISDIR, a block device or anything else
 *   with -EINVAL;
 * - a writer holds flock(LOCK_EX) on its temporary file while it exists,
 *   so cgs_sweep_temps() (called by every cgs_out_begin) removes only the
 *   leftovers of dead writers: a regular file of ours by name, owned by
 *   our uid, not locked, and whose writer pid is gone (or unlocked for
 *   more than an hour, for a pid since reused).
 * All return 0 (or an fd) or -errno unless said otherwise.
 */
#ifndef CGS_SAFEFILE_H
#define CGS_SAFEFILE_H

#include <stddef.h>
#include <sys/types.h>

/* An output being written. */
struct cgs_out {
	int dirfd;                 /* the directory, opened once */
	int fd;                    /* the file being written */
	char name[256];            /* final name inside dirfd */
	char tmp[256];             /* temporary name, "" when written in place */
	int in_place;              /* 1: a char device, FIFO, socket or tty: written into, never replaced */
};

/* Open @path for an atomic write, by the rules above. @mode is the
 * result's mode (set with fchmod at commit). On failure nothing is left
 * and o->fd, o->dirfd are -1 (cgs_out_abort is then a no-op). 0 or -errno. */
int cgs_out_begin(struct cgs_out *o, const char *path, mode_t mode);

/* The same for @name inside the open directory @dirfd (dup'ed: the
 * caller keeps its own). @name must not hold a '/'. */
int cgs_out_begin_at(struct cgs_out *o, int dirfd, const char *name,
		     mode_t mode);

/* 1 when @name in @dirfd would be written in place (a device, FIFO or
 * socket, or our link to one), 0 when it would be replaced or created,
 * -errno when cgs_out_begin_at would refuse it. */
int cgs_out_in_place(int dirfd, const char *name);

/* Write all of @len bytes of @buf to o->fd (EINTR retried). */
int cgs_out_write(struct cgs_out *o, const void *buf, size_t len);

/* fsync, then rename into place only over a regular file or nothing
 * (never over a directory, device, FIFO or symlink), fsync the directory.
 * In place: just fsync/close. Closes everything; on failure the temp is
 * removed. 0 or -errno. */
int cgs_out_commit(struct cgs_out *o);

/* Remove the temp file (if any) and close. Safe to call twice. */
void cgs_out_abort(struct cgs_out *o);

/* Create @name in @dirfd: O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC|flags. fd or
 * -errno (-EEXIST when anything, a symlink included, has that name;
 * -EINVAL for a name with '/' or "."/".."). */
int cgs_create_at(int dirfd, const char *name, int flags, mode_t mode);

/* Open the directory part of @path (O_DIRECTORY) and copy its last part
 * to @name (NAME_MAX). The fd, or -errno (-EISDIR: @path ends in '/'). */
int cgs_open_parent(const char *path, char *name, size_t len);

/* The directory of @path, opened again, when it is still the directory
 * @dirfd was opened on (same device and inode: a mount of it, such as a
 * read-only bind over itself, then counts and is what is written to), else
 * -ESTALE (the directory was renamed, removed, or another mounted or
 * swapped in: a file written in the old one would not be where it is
 * said to be). An fd to close, or -errno. */
int cgs_reopen_dir(int dirfd, const char *path);

/* 1 when @name has the form of cgscale's temporary names
 * (".NAME.cgs-PID-RRRRRRRRRRRR"), else 0. */
int cgs_is_our_temp(const char *name);

/* Remove the temporary files of dead writers in @dirfd (the rules above).
 * How many were removed, or -errno. */
int cgs_sweep_temps(int dirfd);

/* A one-line reason for the -errno of cgs_out_begin/commit, for messages
 * ("is a symbolic link cgscale does not follow", ...). */
const char *cgs_out_why(int rc);

#endif
