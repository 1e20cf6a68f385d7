/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outpath.h - check an output file's path before any work is done: a
 * name, in an existing writable directory, short enough for the
 * filesystem (with room for the temporary name of an atomic write).
 */
#ifndef CGS_OUTPATH_H
#define CGS_OUTPATH_H

#include <stddef.h>

/* Room a name needs beyond itself: a run's "NAME.partial" journal (the
 * temporary names of lib/safefile.h shorten NAME to fit). */
#define CGS_OUT_NAME_EXTRA 8

/* 0, or -errno with a one-line message in @err naming @what (e.g. "-o"),
 * the path, the problem and the fix. An existing directory is refused:
 * the caller resolves directories first. */
int cgs_check_out_path(const char *what, const char *path, char *err,
		       size_t errlen);

/* Only the kind of file at @path: 0 when it may be written (nothing, a
 * regular file, a device or FIFO written in place), else -errno and a
 * message (a symbolic link not followed, a directory, a block device). */
int cgs_check_out_kind(const char *what, const char *path, char *err,
		       size_t errlen);

/* 1 when @path names what cgscale writes in place (a device, FIFO,
 * socket or terminal, or our link to one: lib/safefile.h), so nothing is
 * created in its directory; else 0. */
int cgs_out_path_in_place(const char *path);

/* Copy @dir to @buf without trailing slashes ("/" stays "/"). */
void cgs_trim_slashes(const char *dir, char *buf, size_t len);

#endif
