/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - small helpers shared by the runner's files: reading and
 * writing one-line files (procfs, sysfs), time stamps, formatted strings.
 * All return 0 or -errno unless said otherwise.
 */
#ifndef CGS_UTIL_H
#define CGS_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Read the first line of @path into @buf, without its newline. */
int cgs_read_line(const char *path, char *buf, size_t len);

/* Read the whole (small) file @path into @buf, NUL-terminated. */
int cgs_read_file(const char *path, char *buf, size_t len);

/* Write @s to @path (sysfs style: one write, no newline added). */
int cgs_write_str(const char *path, const char *s);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t cgs_now_ns(void);

/* The current UTC time as ISO 8601 ("2026-11-30T16:06:43Z"). */
void cgs_iso8601_now(char *buf, size_t len);

/* The current local time as a directory-friendly stamp. */
void cgs_stamp_now(char *buf, size_t len);

/* Format a one-line message into @err (when not NULL) and return @rc
 * (a -errno): the one error formatter of every layer. */
int cgs_errf(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Write @len bytes to @path atomically by lib/safefile.h's rules: a random
 * O_EXCL temporary name in the same directory, fsync, rename only over a
 * regular file or nothing (a device, FIFO or tty is written in place);
 * SIGINT/SIGTERM/SIGHUP are held meanwhile so no temporary file is left.
 * 0 or -errno, with @err saying what failed.
 */
int cgs_write_atomic(const char *path, const char *data, size_t len,
		     char *err, size_t errlen);
/* The same in the open directory @dirfd (the last part of @path is the
 * name; the whole of it is for messages); @dirfd < 0: @path's own. */
int cgs_write_atomic_at(int dirfd, const char *path, const char *data,
			size_t len, char *err, size_t errlen);

/* asprintf that returns NULL on failure. */
char *cgs_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "cgscale: <message>" to stderr, with a newline. */
void cgs_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cgs_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same as "cgscale @who: <message>" (a subcommand's errors). Control
 * characters in any of them are shown escaped, never written raw. */
void cgs_errs(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
