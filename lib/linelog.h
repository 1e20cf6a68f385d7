/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linelog.h - an append-only line journal: each record is one line, put
 * down with one write() and fsync()ed, so that after a crash the file holds
 * every record appended before it, and at worst a torn last line. Each line
 * carries a CRC-32 of its record (zlib's crc32, started from a string of the
 * writer's choice, such as a run id), so a reader can tell a damaged line,
 * or one from another journal, from a good one:
 *
 *     {"crc32":"<8 lowercase hex digits>","rec":<the record>}\n
 *
 * The writer holds a POSIX record lock on the file (per process: forked
 * children do not hold it), so a reader can tell a live journal from a
 * dead one.
 */
#ifndef CGS_LINELOG_H
#define CGS_LINELOG_H

#include <stddef.h>
#include <stdint.h>

/* Create @name in @dirfd for appending (O_EXCL|O_NOFOLLOW), or truncate
 * an existing regular file with one link, and lock it. Returns the fd, or
 * -errno: -EBUSY when another process holds the lock, -ELOOP for a
 * symbolic link, -EINVAL for anything but a regular file (a FIFO, a
 * device, a hard link to another file). */
int cgs_linelog_create_at(int dirfd, const char *name);

/* The same for @path (its directory opened once). */
int cgs_linelog_create(const char *path);

/* Lock @fd (a regular file just created with O_EXCL, e.g. the claim of a
 * name) as a journal and empty it: 0, -EBUSY or -errno. */
int cgs_linelog_adopt(int fd);

/* The key of the lines' checksums for @id (0 for NULL or ""). */
uint32_t cgs_linelog_key(const char *id);

/* Append the record @rec (@len bytes, no '\n' in it) as one framed line,
 * in one write. On failure the file is cut back to where it was, so no
 * torn line is left behind. 0 or -errno (-ENOSPC for a short write). */
int cgs_linelog_write(int fd, const char *rec, size_t len, uint32_t key);

/* fsync @fd: 0 or -errno. A line written before a failed sync stays in
 * the file: its checksum tells a reader later whether it is whole. */
int cgs_linelog_sync(int fd);

/* cgs_linelog_write, then cgs_linelog_sync: 0 or the first -errno. */
int cgs_linelog_append(int fd, const char *rec, size_t len, uint32_t key);

/* The record of one line (without its '\n'): 1 with *@rec and *@reclen set
 * when the line is framed and its checksum (with @key) matches; 0 when it
 * is not framed (a line of an older journal, without checksums: *@rec is
 * the whole line); -EBADMSG when it is framed but damaged. */
int cgs_linelog_unframe(const char *line, size_t len, uint32_t key,
			const char **rec, size_t *reclen);

/* Where a frame starts inside @line, after the '}' that ends one and one
 * byte more: a line whose '\n' was damaged, run into the next one. The
 * offset, or 0 when there is none. */
size_t cgs_linelog_inner_frame(const char *line, size_t len);

/* 0 when @path exists and no process holds its lock, -EBUSY when one does,
 * or -errno (-ENOENT: no journal; -ELOOP: a symbolic link, never followed;
 * -EINVAL: not a regular file). */
int cgs_linelog_idle(const char *path);

/* Call @fn(line, len, lineno, arg) for each complete line of @buf (len
 * without the '\n'; lineno from 1); stop at the first non-zero return and
 * return it. *@torn is the size of a last line without its '\n' (0: none). */
int cgs_linelog_lines(const char *buf, size_t len, size_t *torn,
		      int (*fn)(const char *line, size_t len, unsigned lineno,
				void *arg), void *arg);

#endif
