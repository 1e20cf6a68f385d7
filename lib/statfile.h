/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statfile.h - the cgroup statistics files (memory.stat, cgroup.stat,
 * cpu.stat, memory.numa_stat): their names, the targets a reader names,
 * reading one whole with open + pread from offset 0, and parsing what was
 * read. Finding a target's file is the runner's (runner/cgroups/statpath.h).
 */
#ifndef CGS_LIB_STATFILE_H
#define CGS_LIB_STATFILE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

struct json_object;

enum cgs_stat_file {
	CGS_SF_MEMORY_STAT,      /* memory.stat, v1 or v2 */
	CGS_SF_CGROUP_STAT,      /* cgroup.stat, v2 only */
	CGS_SF_CPU_STAT,         /* cpu.stat: v2 core file, v1 cpu controller */
	CGS_SF_NUMA_STAT,        /* memory.numa_stat, v1 or v2 */
};
extern const char *const cgs_stat_file_names[];     /* NULL-terminated */

enum cgs_stat_target { CGS_ST_LEAF, CGS_ST_TOP, CGS_ST_PARENT };
extern const char *const cgs_stat_target_names[];   /* NULL-terminated */

/*
 * The cgroups cgscale made for a point, as far as the readers need them:
 * how deep, and in which hierarchies (a controller of each, e.g.
 * "memory,cpu"; on v2 all controllers share one). depth 0: none.
 */
struct cgs_cgview {
	unsigned depth;
	const char *ctrls;
};

/* Where a target's file is. */
struct cgs_stat_where {
	char path[PATH_MAX];     /* the file */
	char cgroup[PATH_MAX];   /* its cgroup, as /proc/PID/cgroup names it */
	int version;             /* of its hierarchy: 1 or 2 */
	char how[256];           /* how the target was resolved, for results */
};

/*
 * One complete read: open @path, pread from offset 0 until end of file
 * into *@buf (grown as needed, *@cap its size), close. The text is
 * NUL-terminated. Returns its length or -errno.
 */
ssize_t cgs_stat_read(const char *path, char **buf, size_t *cap);

/*
 * Parse a statistics file's text into an object. "key N" lines give
 * key: N; lines of "name=N" fields (numa_stat) give key: {name: N, ...}
 * under the line's first word. Other lines are left out.
 */
struct json_object *cgs_stat_parse(const char *text);

#endif
