/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safedir.h - the directory half of cgscale's one safe path for files
 * (lib/safefile.h is the file half): directories walked, made and
 * removed through directory descriptors, names removed or moved only
 * through the descriptor they were checked in, files with no name.
 * Nothing outside lib/safefile.c and lib/safedir.c calls mkdir, unlink,
 * rename, rmdir, creat, open with O_CREAT or fopen for writing:
 * check/files-lint.py fails `make check` on any that does.
 *
 * Links: a symbolic link on the way is followed only when it is owned by
 * our euid or by root (a link planted by another user never steers us),
 * and at most CGS_DIR_MAX_LINKS of them.
 * All return 0 (or an fd) or -errno unless said otherwise.
 */
#ifndef CGS_SAFEDIR_H
#define CGS_SAFEDIR_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define CGS_DIR_MAX_LINKS 8

enum {
	CGS_DIR_CREATE = 1,     /* make missing directories (with @mode) */
	CGS_DIR_TRUSTED = 2,    /* every directory on the way, / included, is
				 * owned by our euid or root and writable by
				 * no one else unless sticky (as /tmp) */
};

/* 1 when @name is one entry's name: not empty, no '/', not "." or "..",
 * at most NAME_MAX. */
int cgs_name_ok(const char *name);

/* @n (at most 32) random characters of [a-z0-9] and a NUL into @out. */
void cgs_rand_chars(char *out, size_t n);

/* Open the directory @path (relative to the working directory unless it
 * starts with '/') one component at a time with O_NOFOLLOW, by @flags
 * (CGS_DIR_*) and the link rule above: its fd. -ELOOP for a link we do
 * not follow, -EPERM for a directory CGS_DIR_TRUSTED refuses. */
int cgs_open_dir(const char *path, int flags, mode_t mode);

/* Make @name in @dirfd and open it with O_NOFOLLOW: its fd. An existing
 * directory is fine unless @excl (then -EEXIST). */
int cgs_mkdir_at(int dirfd, const char *name, mode_t mode, int excl);

/* Make a new directory @prefix + 12 random characters in @dirfd, 0700,
 * its name in @name: its fd. */
int cgs_mkdtemp_at(int dirfd, const char *prefix, char *name, size_t len);

/* Remove @name from @dirfd; when @was is given, only while the name is
 * still that file (device and inode), else -ESTALE. */
int cgs_unlink_at(int dirfd, const char *name, const struct stat *was);

/* Remove the empty directory @name from @dirfd. */
int cgs_rmdir_at(int dirfd, const char *name);

/* Move @from in @fromfd to @to in @tofd, never over anything
 * (RENAME_NOREPLACE: -EEXIST). */
int cgs_move_at(int fromfd, const char *from, int tofd, const char *to);

/* A file with no name in @dirfd (O_TMPFILE, else a random O_EXCL name
 * removed at once), opened O_RDWR|@flags: its fd. */
int cgs_anon_file_at(int dirfd, int flags);

#endif
