/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg.h - cgroup-setup: build, use and remove the nested cgroups a cgscale
 * point runs in, on cgroup v1, v2 or a v1/v2 hybrid, on top of libcgroup
 * 2.0.2 (Debian 12). The shape, drawn for --cgroup-depth 3:
 *
 *   PARENT                       --cgroup-parent (default: our own cgroup)
 *   `- cgscale-PID-RAND-SEQ      level 1, knobs "1:..."
 *      `- cgscale-l2             level 2
 *         `- cgscale-l3          level 3 = the leaf, all tasks (shared)
 *         `- cgscale-t0 .. tN-1  or one leaf per task (per-task)
 *
 * The same path is made in every hierarchy the tree needs: the memory
 * controller's always, plus the hierarchy of each knob's controller. Every
 * cgroup we make carries the "cgscale-" name prefix and the marker xattr
 * trusted.cgscale ("pid=N start=T ..."), and only cgroups with both are
 * ever removed. The run holds a flock on the top cgroup of each tree for
 * as long as it lives, and every worker records itself in its leaf
 * (trusted.cgscale.procs): a cgroup is a live run's when its lock is held
 * or its marker's pid still runs, and the only processes cgscale ever
 * kills in a cgroup are those it recorded as its own.
 *
 * Every function returns 0 or -errno. libcgroup's positive ECG* codes are
 * translated in cg_lib.c and never leave this module; messages go in the
 * caller's @err buffer, with cgroup_strerror() text where libcgroup failed.
 */
#ifndef CG_H
#define CG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CG_PREFIX "cgscale-"
#define CG_MARKER "trusted.cgscale"
#define CG_PROCS "trusted.cgscale.procs"   /* "PID:START ..." of its workers */
#define CG_MAX_HIER 16      /* mounted hierarchies we track */
#define CG_MAX_DEPTH 16     /* --cgroup-depth */
#define CG_MAX_KNOBS 32     /* --cgroup-set */
#define CG_NAME_MAX 64      /* one path component from the user */

/* ---- layout: which hierarchies are mounted where (cg_layout.c) ---- */

enum cg_kind { CG_NONE, CG_PURE_V1, CG_PURE_V2, CG_HYBRID };

struct cg_hier {
	int version;                /* 1 or 2 */
	char mount[PATH_MAX];       /* mount point */
	char mroot[PATH_MAX];       /* the cgroup mounted there (mountinfo
				       root; "/" unless bind-mounted) */
	char ctrls[256];            /* controllers, comma-separated; v2: the
				       mount root's cgroup.controllers */
	char self[PATH_MAX];        /* our cgroup, relative to the mount
				       ("/" = its root); "" = not visible */
	bool readonly;              /* mounted ro */
};

struct cg_layout {
	enum cg_kind kind;
	unsigned n;
	struct cg_hier h[CG_MAX_HIER];
};

/*
 * Fill @l from the text of /proc/self/mountinfo and /proc/self/cgroup, and
 * @v2_ctrls, the cgroup.controllers of the cgroup2 mount's root (NULL when
 * there is none). Duplicate mounts of one hierarchy count once. Pure, for
 * unit tests. Returns 0 or -EINVAL with @err.
 */
int cg_layout_parse(const char *mountinfo, const char *self_cgroup,
		    const char *v2_ctrls, struct cg_layout *l, char *err,
		    size_t errlen);

/* The same, from this process's /proc files. */
int cg_layout_detect(struct cg_layout *l, char *err, size_t errlen);

/* The index of the hierarchy holding controller @ctrl, or -ENOENT. */
int cg_layout_find(const struct cg_layout *l, const char *ctrl);

/* "none", "v1", "v2", "hybrid". */
const char *cg_kind_name(enum cg_kind k);

/* Does comma-separated @list hold @word? */
bool cg_list_has(const char *list, const char *word);

/*
 * The cgroup of a process in hierarchy @h of @l, from the text of its
 * /proc/PID/cgroup, relative to the mount. 0, or -ENOENT when absent.
 */
int cg_proc_path(const struct cg_layout *l, unsigned h, const char *text,
		 char *out, size_t len);

/* ---- names and knobs (cg_knob.c) ---- */

/* One component: [A-Za-z0-9._-], not "." or "..", 1..CG_NAME_MAX chars. */
bool cg_name_ok(const char *name);

/*
 * A cgroup path as /proc/self/cgroup writes it: "/" or "/a/b" (a leading
 * slash is optional), every component cg_name_ok. Writes the normalised
 * form ("/a/b") to @out. 0 or -EINVAL with @err.
 */
int cg_path_check(const char *path, char *out, size_t len, char *err,
		  size_t errlen);

struct cg_knob {
	unsigned level;             /* 1 = top of our hierarchy */
	char ctrl[32];              /* "memory" */
	char name[96];              /* "memory.min" */
	char value[100];            /* as given, e.g. "1G" (libcgroup keeps
				       at most 99 characters) */
};

/* Parse "LEVEL:KNOB=VALUE". 0 or -EINVAL with @err. */
int cg_knob_parse(const char *spec, struct cg_knob *k, char *err,
		  size_t errlen);

/*
 * The cgroup version a knob file exists on: 1, 2, or 0 when it is the
 * same on both or unknown here. *@other: the nearest file of the other
 * version, or NULL.
 */
int cg_knob_version(const char *name, const char **other);

/*
 * Check @k against @l: its controller is mounted, and on the version its
 * name exists on ("memory.min needs cgroup v2; this system mounts memory
 * on v1"). 0, -ENODEV or -EINVAL with @err.
 */
int cg_knob_check(const struct cg_layout *l, const struct cg_knob *k,
		  char *err, size_t errlen);

/*
 * Does knob @name, written as @written, read back (@read, as the file
 * shows it) as the same value? Each family's equivalences are in
 * cg_readback.c: whole pages and "no limit" for byte limits, the same set
 * for CPU lists, more words after the value written (cpu.max). 1 the
 * same; 0 not, with @why saying what it reads back as and what to give.
 * @page: the page size in bytes.
 */
int cg_knob_same(const char *name, const char *written, const char *read,
		 uint64_t page, char *why, size_t len);

/* ---- libcgroup boundary (cg_lib.c) ---- */

/* cgroup_init(); 0 or -errno with cgroup_strerror's text in @err. */
int cg_lib_init(char *err, size_t errlen);

/* libcgroup's version of @ctrl (1, 2) or -ENOENT. */
int cg_lib_version(const char *ctrl);

/* libcgroup's mount point of @ctrl. */
int cg_lib_mount(const char *ctrl, char *out, size_t len);

/* Create cgroup @rel (relative to the mount of the controllers in
 * comma-separated @ctrls, all of one hierarchy). Never reuses one that
 * exists: -EEXIST. */
int cg_lib_create(const char *ctrls, const char *rel, char *err, size_t errlen);

/* Write @n knobs (name, value) to @rel in one fresh struct cgroup, so
 * nothing else is rewritten. */
int cg_lib_set(const char *ctrl, const char *rel, unsigned n,
	       const char *const *names, const char *const *values,
	       char *err, size_t errlen);

/* Move process @pid into @rel ("/" = the hierarchy root). */
int cg_lib_attach(const char *ctrl, const char *rel, pid_t pid, char *err,
		  size_t errlen);

/* Remove empty cgroup @rel: -EBUSY while it holds tasks or children. */
int cg_lib_remove(const char *ctrl, const char *rel, char *err,
		  size_t errlen);

/* Read file @file of @rel into @buf (whole, NUL-terminated). */
int cg_lib_read(const char *ctrl, const char *rel, const char *file,
		char *buf, size_t len);

/* "key value" lines (memory.stat, memory.events), at most CG_KV_MAX. */
#define CG_KV_MAX 160
struct cg_kv {
	unsigned n;
	char key[CG_KV_MAX][48];
	int64_t val[CG_KV_MAX];
};

/* Parse "key value\n" text into @kv (lines that do not parse are
 * skipped). */
void cg_kv_parse(const char *text, struct cg_kv *kv);

/* memory.stat of @rel through libcgroup's stat iterator. */
int cg_lib_stat(const char *ctrl, const char *rel, struct cg_kv *kv);

/* The value of @key in @kv, or -ENOENT. */
int cg_kv_get(const struct cg_kv *kv, const char *key, int64_t *v);

/* ---- ownership: locks and recorded processes (cg_own.c) ---- */

/* What a marker says: who made the cgroup, and what it enabled in the
 * parent (v2). */
struct cg_marker {
	pid_t pid;
	unsigned long long start;    /* /proc/PID/stat starttime */
	unsigned long long pidns;    /* inode of its pid namespace */
	char enabled[128];           /* "parent_enabled=", comma-separated */
};

/* Processes a run started, each with its start time (cg_proc_start), so
 * that a pid used again by another process is not taken for one of them. */
struct cg_own {
	unsigned n, cap;
	pid_t *pid;
	unsigned long long *start;
};

/* Add @pid (started at @start; 0: read it now). 0 or -ENOMEM. */
int cg_own_add(struct cg_own *o, pid_t pid, unsigned long long start);

/* Is @pid one of @o, and still the process that was recorded? */
bool cg_own_has(const struct cg_own *o, pid_t pid);

/* Add the "PID:START ..." list @text; -EINVAL on anything else. */
int cg_own_parse(struct cg_own *o, const char *text);

/* Add the processes recorded in cgroup dir @full (CG_PROCS); 0 when it
 * has no record. */
int cg_own_read(struct cg_own *o, const char *full);

/* Record process @pid as cgscale's own in cgroup dir @full. 0 or -errno. */
int cg_own_record(const char *full, pid_t pid);

void cg_own_free(struct cg_own *o);

/* Take a lock on cgroup dir @full, held while this process or a child
 * that inherits it lives: the fd, or -errno. */
int cg_lock(const char *full);

/* Whose is the cgroup dir @full marked @m: CG_LIVE (its lock is held, or
 * the marker's pid still runs), CG_UNKNOWN (made in another pid namespace:
 * it may run), or CG_GONE, when *@lockfd holds its lock for the caller to
 * close once done with it. */
enum cg_life { CG_GONE, CG_LIVE, CG_UNKNOWN };
enum cg_life cg_owner_state(const char *full, const struct cg_marker *m,
			    int *lockfd);

/* Told of each process that cgscale did not start and found in a cgroup
 * it removes (@from): moved to @to, or left there (@to NULL) for @why. */
typedef void cg_stray_fn(void *arg, const char *from, pid_t pid,
			 const char *comm, const char *to, const char *why);

/*
 * Empty cgroup dir @full (of cgroup version @version) before it is
 * removed. Processes in @own are the run's: they get @ns to leave, then
 * SIGKILL. Any other is moved to the first of @to[0], @to[1] (cgroup
 * dirs, NULL: none) that takes it, each told to @stray; one that no
 * cgroup takes stays, and so does the cgroup. With @kill_all (cleanup
 * --force) every process is the run's. 0, or -EBUSY when processes stay.
 */
struct cg_evict {
	const struct cg_own *own;
	bool kill_all;
	const char *to[2];
	cg_stray_fn *stray;
	void *arg;
};
int cg_drain(const char *full, int version, int64_t ns,
	     const struct cg_evict *ev);

/* ---- a tree: the cgroups of one point (cg_tree.c) ---- */

/* What the user asked for, for one layout. */
struct cg_spec {
	unsigned depth;              /* >= 1 */
	bool per_task;
	unsigned nleaves;            /* 1 for shared */
	const char *parent;          /* normalised cgroup path, NULL = ours */
	unsigned nknobs;
	const struct cg_knob *knobs;
	char id[64];                 /* "cgscale-PID-RAND-SEQ", unique */
};

/* One hierarchy the tree lives in. */
struct cg_thier {
	unsigned hi;                 /* index into the layout */
	int version;
	char ctrl[32];               /* a controller of it, for libcgroup */
	char need[256];              /* the controllers the tree uses there */
	char parent[PATH_MAX];       /* relative to the mount */
	char enabled[256];           /* v2: what we enabled in the parent */
	char runner_from[PATH_MAX];  /* v2: where the runner was moved from */
	char runner_leaf[PATH_MAX];  /* v2: its leaf of our own, or "" */
	int runner_lock;             /* v2: our lock on it, or -1 */
};

struct cg_tree {
	const struct cg_layout *lay;
	struct cg_spec spec;
	unsigned nh;
	struct cg_thier h[CG_MAX_HIER];
	/* the cgroups, top first, the leaves last: rel[i] is the same below
	 * every hierarchy's parent; made[h][i] says we created it */
	unsigned nnodes, first_leaf;
	char (*rel)[PATH_MAX];
	unsigned *level;             /* 1..depth per node */
	bool (*made)[CG_MAX_HIER];
	char marker[160];            /* xattr value */
	int64_t wait_ns;             /* how long to wait for tasks to leave */
	int lock[CG_MAX_HIER];       /* our flock on node 0, per hierarchy; -1 */
	struct cg_own own;           /* the tasks, recorded at the gate */
	cg_stray_fn *stray;          /* told of each process moved out; NULL */
	void *stray_arg;
};

/* The hierarchies @spec needs, without touching anything: memory's plus
 * each knob's. 0 or -ENODEV/-EINVAL with @err. */
int cg_tree_plan(struct cg_tree *t, const struct cg_layout *l,
		 const struct cg_spec *spec, char *err, size_t errlen);

/*
 * Create every cgroup of the tree, top first, mark it and write its
 * knobs; on v2, first make the parent able to enable the controllers
 * (moving the runner into a leaf of its own when it lives there). On
 * failure, whatever was created is removed again. 0 or -errno with @err.
 */
int cg_tree_create(struct cg_tree *t, char *err, size_t errlen);

/*
 * Remove what cg_tree_create made, deepest first, waiting up to
 * t->wait_ns for the run's own processes to leave (then SIGKILL), moving
 * any other process to the parent (v2: or the runner's cgroup when the
 * parent cannot hold one), told to t->stray, and put the parent and the
 * runner back as they were. Safe to call twice. 0 or the first -errno
 * with @err.
 */
int cg_tree_destroy(struct cg_tree *t, char *err, size_t errlen);
void cg_tree_free(struct cg_tree *t);

/* Full path of node @i in tree hierarchy @h. */
int cg_tree_path(const struct cg_tree *t, unsigned h, unsigned i, char *out,
		 size_t len);

/* Relative path (from the mount) of node @i in tree hierarchy @h. */
int cg_tree_rel(const struct cg_tree *t, unsigned h, unsigned i, char *out,
		size_t len);

/* Move the calling process (a worker) into leaf @leaf of every hierarchy
 * and record it there as cgscale's own (CG_PROCS). */
int cg_tree_enter(const struct cg_tree *t, unsigned leaf, char *err,
		  size_t errlen);

/* Record task process @pid as the tree's own (at the gate; once per
 * process): killed if it does not leave; any process not recorded is
 * moved out, never killed. */
int cg_tree_own(struct cg_tree *t, pid_t pid);

/* The marker value for a cgroup made by this process. */
int cg_marker_value(char *out, size_t len, const char *extra);

/* ---- leftovers (cg_clean.c) ---- */

struct cg_clean_opts {
	bool dry_run;
	bool force;       /* also kill processes that cgscale did not record */
	int64_t wait_ns;
	/* called for each cgroup found: what was done ("removed", "would
	 * remove", "in use by pid N", or an error) */
	void (*report)(void *arg, const char *path, const char *what);
	void *arg;
};

/*
 * Find and remove cgroups left by cgscale runs that are gone: only
 * directories whose name starts with CG_PREFIX and that carry a CG_MARKER
 * whose pid no longer runs (or runs another program since) and whose lock
 * no one holds, at every depth: a live run's cgroup inside a dead one's
 * keeps both. Deepest first. Only the processes recorded in a cgroup
 * (CG_PROCS) are killed; one holding any other is kept unless @o->force.
 * Returns the number that could not be removed, or -errno.
 */
int cg_clean(const struct cg_layout *l, const struct cg_clean_opts *o,
	     char *err, size_t errlen);

/* The same among the direct children of cgroup dir @full of hierarchy
 * @hi only: what a run does under its parents before it starts. */
int cg_clean_children(const struct cg_layout *l, unsigned hi, const char *full,
		      const struct cg_clean_opts *o);

/* Parse a marker value. 0 or -EINVAL. */
int cg_marker_parse(const char *v, struct cg_marker *m);

/* Does the run that wrote @m still run: 1 yes, 0 no, -1 cannot tell (it
 * ran in another pid namespace). */
int cg_marker_owner(const struct cg_marker *m);

/* Is process @pid alive (not a zombie) with start time @start (from
 * /proc/PID/stat)? */
bool cg_owner_alive(pid_t pid, unsigned long long start);

/* Start time of @pid in clock ticks since boot; 0 when unknown. */
unsigned long long cg_proc_start(pid_t pid);

#endif
