/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * observer.c - the skeleton of an observer: copy it to
 * runner/observe/NAME.c, rename skeleton to NAME, and add
 * CGS_OBSERVER(NAME) to runner/observe/list.h. It builds as it is and a
 * test runs it around a real point (check/unit/test_skeletons.c). The
 * contract is runner/observe/observer.h; runner/observe/edges.h reads a
 * counter file at the window's edges for an observer that only needs
 * the difference.
 *
 * This one counts the samples of the measured window and writes
 * {"skeleton": {"samples": N, "level": L}} into each point. Its section
 * declares one compare metric and a report view of one row (.section,
 * results/model/sections.h): the run writes them into the result file,
 * where compare judges skeleton.samples and the report draws the row,
 * with no line in results/.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/macros.h"
#include "runner/observe/observer.h"

struct skeleton_obs_opts {
	int64_t level;           /* 0: off */
};

static const struct cgs_opt skeleton_obs_optdefs[] = {
	OPT_INT("skeleton-level", 0, struct skeleton_obs_opts, level, .def = "1", .min = 0, .max = 9,
		.help = "how much the skeleton observer watches (0: off)"),
};

/* One point's state, made by new and freed by free. */
struct skeleton_point {
	int64_t level;
	unsigned samples;        /* in the measured window */
};

/* On for every point of the run when its option says so. */
static bool skeleton_wanted(const struct cgs_obs_ctx *ctx)
{
	const struct skeleton_obs_opts *o = ctx->opts;

	return o->level > 0;
}

static int skeleton_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
			void **priv)
{
	const struct skeleton_obs_opts *o = ctx->opts;
	struct skeleton_point *s = calloc(1, sizeof(*s));

	(void)pt;
	if (!s)
		return -ENOMEM;
	s->level = o->level;
	*priv = s;
	return 0;
}

static void skeleton_free(void *priv)
{
	free(priv);
}

/* At every sample, in the sampler: keep it short (no allocation, no
 * output); the measured window's samples are those of RES_PHASE_MEASURE. */
static void skeleton_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
			    bool window_start)
{
	struct skeleton_point *sp = priv;

	(void)s;
	(void)t_ns;
	(void)window_start;
	sp->samples += ph == RES_PHASE_MEASURE;
}

/* The tasks are gone: its section into the point. */
static void skeleton_write(void *priv, struct res_point *p)
{
	struct skeleton_point *sp = priv;
	struct json_object *sec = json_object_new_object();

	if (!p->extra)
		p->extra = json_object_new_object();
	cgs_jadd(sec, "samples", json_object_new_int((int)sp->samples));
	cgs_jadd(sec, "level", json_object_new_int64(sp->level));
	cgs_jadd(p->extra, "skeleton", sec);
}

/* What compare judges (higher is better here) and the report shows. */
static const struct res_metric_decl skeleton_metrics[] = {
	{ "skeleton.samples", "samples", "samples of the measured window", 1, "secondary",
	  "skeleton.samples" },
};

static const struct res_view_decl skeleton_view[] = {
	{ "samples seen", "skeleton.samples", "samples" },
};

static const struct res_section_decl skeleton_section = {
	.key = "skeleton", .title = "the skeleton observer",
	.metrics = skeleton_metrics, .nmetrics = ARRAY_SIZE(skeleton_metrics),
	.view = skeleton_view, .nview = ARRAY_SIZE(skeleton_view),
};

const struct cgs_obs_def skeleton_observer = {
	.name = "skeleton",
	.opts = skeleton_obs_optdefs,
	.nopts = ARRAY_SIZE(skeleton_obs_optdefs),
	.opts_size = sizeof(struct skeleton_obs_opts),
	.wanted = skeleton_wanted,
	.new = skeleton_new,
	.free = skeleton_free,
	.sample = skeleton_sample,
	.write = skeleton_write,
	.section = &skeleton_section,
};
