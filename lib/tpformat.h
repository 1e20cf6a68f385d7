/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpformat.h - the text tracefs gives about a tracepoint: where a field
 * sits in the raw record (events/<group>/<name>/format), reading it from
 * a raw record, and the last CPU of a CPU list ("0-3,8"), as in
 * /sys/devices/system/cpu/possible. Pure, unit-tested on fixed texts.
 */
#ifndef CGS_TPFORMAT_H
#define CGS_TPFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cgs_tpfield {
	int offset, size;     /* bytes into the raw record; size 1, 2, 4 or 8 */
	bool is_signed;
};

/* Find "field:<type> @name;\toffset:N;\tsize:N;\tsigned:N;" in @format.
 * 0, -ENOENT when absent, -EINVAL when its size is not 1, 2, 4 or 8. */
int cgs_tpformat_field(const char *format, const char *name,
		       struct cgs_tpfield *f);

/* @f's value in the raw record @raw of @len bytes (native byte order),
 * sign-extended when signed; 0 when the record is too short. */
int64_t cgs_tpfield_get(const struct cgs_tpfield *f, const void *raw,
			size_t len);

/* The highest CPU of a list like "0-3,8-9"; -EINVAL when it is not one. */
int cgs_cpulist_last(const char *list);

#endif
