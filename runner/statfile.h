/*
 * statfile.h - the cgroup statistics files that the stat_read workload
 * and the concurrent reader (--stat-reader) read: which hierarchy each
 * file lives in, which cgroup a target (leaf, top, parent) names, reading
 * one whole with open + pread from offset 0, and parsing what was read.
 *
 * A target is found from a task's own cgroup (/proc/PID/cgroup), never
 * from names we expect: "leaf" is the task's cgroup, "top" the ancestor
 * depth-1 levels up (level 1 of what cgscale made), "parent" the one
 * depth levels up (where cgscale made them). Without cgroups of our own
 * (depth 0) all three are the task's cgroup, which is the runner's.
 */
#ifndef CGS_STATFILE_H
#define CGS_STATFILE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

struct cg_layout;
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
 * Can @file be read in layout @l for cgroups @cg (NULL: none)? Its
 * hierarchy must be mounted and, when cgscale makes cgroups, be one of
 * theirs. Returns the hierarchy's index, or -ENODEV/-EINVAL with @err.
 */
int cgs_stat_check(const struct cg_layout *l, enum cgs_stat_file file,
		   const struct cgs_cgview *cg, char *err, size_t errlen);

/*
 * Resolve @file at @target in layout @l (cgroup-setup/cg.h), from the
 * /proc/PID/cgroup text of a task. @cg may be NULL (depth 0). Pure, for
 * unit tests. 0 or -errno with a one-line message in @err.
 */
int cgs_stat_locate_in(const struct cg_layout *l, const char *proc_cgroup,
		       enum cgs_stat_file file, enum cgs_stat_target target,
		       const struct cgs_cgview *cg, struct cgs_stat_where *w,
		       char *err, size_t errlen);

/* The same for process @pid (0: ourselves), with the layout detected
 * from /proc; also checks that the file can be read. */
int cgs_stat_locate(pid_t pid, enum cgs_stat_file file,
		    enum cgs_stat_target target, const struct cgs_cgview *cg,
		    struct cgs_stat_where *w, char *err, size_t errlen);

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
