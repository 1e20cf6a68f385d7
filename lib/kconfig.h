/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kconfig.h - a kernel's configuration as a result records it: a hash of
 * the whole .config and the values of the options that change mm and
 * cgroup costs (PREEMPT*, MEMCG*, CGROUP*, TRANSPARENT_HUGEPAGE*, NUMA*,
 * LRU_GEN*, SLUB*, HZ*, and the debug options such as DEBUG_VM, KASAN,
 * LOCKDEP, PROVE_LOCKING). Read by the runner (the running kernel's) and
 * by `cgscale ab` (the kernel it boots); compare diffs what it records.
 */
#ifndef CGS_KCONFIG_H
#define CGS_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/* The object recorded for the .config text @text (@len bytes): "hash"
 * ("fnv1a64:HEX" of its CONFIG_ lines, comments and blank lines left
 * out), "options" ({"CONFIG_X": "y"|"m"|"n"|value} for the options that
 * matter; a debug option, or PREEMPT_RT and a few more, absent from
 * the file is "n") and "source"
 * (@source). NULL when out of memory. */
struct json_object *cgs_kconfig_parse(const char *text, size_t len,
				      const char *source);

/* Read the configuration file @path (gzip-compressed when its first bytes
 * say so, as /proc/config.gz: unpacked by gzip -dc) into a malloc'd,
 * NUL-terminated *@text. 0 or -errno. */
int cgs_kconfig_read(const char *path, char **text, size_t *len);

/* The running kernel's: /proc/config.gz, else /boot/config-RELEASE; the
 * parsed object, or {"source": null, "unreadable": "why"}. */
struct json_object *cgs_kconfig_running(const char *release);

/* Is CONFIG_@name (with or without the CONFIG_ prefix) one of the debug
 * options whose presence on one side only invalidates a comparison of
 * costs? */
bool cgs_kconfig_is_debug(const char *name);

#endif
