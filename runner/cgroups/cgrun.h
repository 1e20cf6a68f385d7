/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgrun.h - nested cgroups in `cgscale run`: the --cgroup-* options
 * resolved into layouts (one per --cgroup-depth value, an axis of the
 * run), a fresh tree of cgroups per point (cgroup-setup/), the worker of
 * each leaf moved into it before it starts its tasks, and an observer
 * that writes the point's extra.cgroup section.
 */
#ifndef CGS_CGRUN_H
#define CGS_CGRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup-setup/cg.h"
#include "runner/point/point.h"
#include "runner/cgroups/statpath.h"
#include "runner/core/run_opts.h"
struct json_object;

#define CGS_CG_MAX_LAYOUTS 8

enum cgs_cg_leaf { CGS_CG_SHARED, CGS_CG_PER_TASK };
extern const char *const cgs_cg_leaf_names[];

struct cgs_cglayout {
	unsigned depth;
	char name[1024];     /* extra.cgroup.layout, e.g. "depth=3 leaf=shared" */
};

struct cgs_cgrun {
	struct cg_layout lay;
	bool detected;             /* lay is filled */
	bool lib_ready;            /* cg_lib_init() done */
	bool depth_default;        /* no --cgroup-depth given */
	bool per_task;
	bool has_parent;
	char parent[PATH_MAX];     /* normalised --cgroup-parent */
	unsigned nknobs;
	struct cg_knob knobs[CG_MAX_KNOBS];
	unsigned nlayouts;
	struct cgs_cglayout L[CGS_CG_MAX_LAYOUTS];
	char note[1024];           /* why the default depth is what it is */
	uint32_t rand;             /* makes our names unique per run */
	unsigned seq;              /* trees made so far */
	unsigned cleanup_failures; /* points whose cgroups stayed behind */
};

/* The layouts' order in run @run (0-based): forward in even runs,
 * backward in odd ones, so that with 2 layouts the runs go AB BA AB... */
unsigned cgs_cg_order(unsigned nlayouts, unsigned run, unsigned i);

/* Parse "0", "3" or "0,3" into @depths (at most @max, each 0..16, no
 * repeats). Returns the count, or -EINVAL with @err. */
int cgs_cg_parse_depths(const char *s, unsigned *depths, unsigned max,
			char *err, size_t errlen);

/* The layout string: "depth=0", or "depth=D leaf=L[ set=K:N=V]...",
 * listing only the knobs whose level exists at depth @depth. */
void cgs_cg_layout_name(unsigned depth, bool per_task, const struct cg_knob *k,
			unsigned nknobs, char *out, size_t len);

/*
 * Check the --cgroup-* options of @o (run after the task list and mode
 * are known) and resolve the layouts into a new *@out (set even on failure, for
 * cgs_cgrun_free); nothing is created. @dry (for
 * `cgroup show`): do not insist on root. Returns 0 or -errno with a
 * one-line message in @err.
 */
int cgs_cgrun_validate(const struct cgs_run_opts *o, bool dry, struct cgs_cgrun **out,
		       char *err, size_t errlen);

/*
 * Create and remove each layout's tree once, before any point runs, so
 * that a knob the kernel refuses is bad input, not a failed point. When
 * the depth is the default, a failure falls back to depth 0 with a note.
 * Needs SIGINT/SIGTERM blocked. 0 or -errno with @err.
 */
int cgs_cgrun_preflight(struct cgs_cgrun *c, char *err, size_t errlen);

/* The cgroup file systems of @l and the runner's place in each, on stdout. */
void cgs_cg_layout_print(const struct cg_layout *l);

/* The cgroups each layout of @cg would make, on stdout (plan_print.c); 0,
 * or 1 when one cannot be made here. */
int cgs_cg_plan_print(const struct cgs_cgrun *cg, unsigned maxtasks);

/* The run-level environment.cgroup section. */
struct json_object *cgs_cgrun_env_json(const struct cgs_cgrun *c);
/* Where depth 0's tasks ran (the runner's cgroup, or --cgroup-parent), and
 * how deep that is, into @buf; false when no layout is depth 0. */
bool cgs_cgrun_depth0_text(const struct cgs_cgrun *c, char *buf, size_t len);

void cgs_cgrun_free(struct cgs_cgrun *c);

/* One point's cgroups (cgrun_point.c). */
struct cgs_cgpoint;

/*
 * Before point @p (its seq set) of layout @li with @ntasks tasks: create
 * its tree and fill @spec's groups, enter hook and one observer in
 * obs[*nobs] (incremented). On failure the point cannot run: 0 is still
 * returned with *@out set, and p->status/reason say why. Returns -errno
 * only when the runner cannot go on (no memory).
 */
int cgs_cgpoint_begin(struct cgs_cgrun *c, unsigned li, unsigned ntasks,
		      struct res_point *p, struct cgs_point_spec *spec,
		      struct cgs_observer *obs, unsigned *nobs,
		      struct cgs_cgpoint **out);

/* The point's cgroups as the stats readers see them (runner/cgroups/statpath.h):
 * the depth, and in @ctrls (of @len) a controller of each hierarchy the
 * tree spans. */
void cgs_cgpoint_view(const struct cgs_cgpoint *cp, struct cgs_cgview *v,
		      char *ctrls, size_t len);

/* After the point: remove its tree, note the outcome in extra.cgroup.
 * Also for a failed or interrupted point. Frees @cp. */
void cgs_cgpoint_end(struct cgs_cgrun *c, struct cgs_cgpoint *cp,
		     struct res_point *p);

/* What cgrun_point.c hands to the JSON writer (cgrun_json.c). */
struct cgs_cgsnap {
	const struct cg_kv *gate, *before, *after;   /* per leaf, or NULL */
	bool after_at_end;          /* taken after the tasks stopped */
	const struct cg_kv *ev0, *ev1;               /* per node, or NULL */
	const struct cg_kv *evw0, *evw1;             /* at the window's edges */
	const int64_t *peak;        /* per node; -1 unknown */
	struct json_object *knobs;  /* taken over */
	int memh;                   /* tree hierarchy of memory */
	const char *error;          /* why the tree could not be made */
};

/* The knobs of @t read back from every cgroup of their level. */
struct json_object *cgs_cgpoint_knobs(const struct cg_tree *t);

/* Write p->extra.cgroup for layout @li; @t is NULL at depth 0 or when
 * the tree could not be made. */
void cgs_cgpoint_json(const struct cgs_cgrun *c, unsigned li,
		      const struct cg_tree *t, struct res_point *p,
		      const struct cgs_cgsnap *s);

/* extra.cgroup.layout of a point, or NULL. */
const char *cgs_point_layout(const struct res_point *p);

#endif
