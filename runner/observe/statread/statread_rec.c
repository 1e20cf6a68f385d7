/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statread_rec.c - the observer a workload that reads a statistics file
 * names in its struct (tests/workload.h .observer; stat_read does): it
 * records which file the point's tasks read, from the workload's
 * stat_file hook, into extra.stat_read (results/SCHEMA.md), and checks
 * before the run that the file is in a hierarchy of cgscale's cgroups.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "runner/observe/observer.h"
#include "runner/observe/statread/statread_int.h"

struct rec {
	const struct cgs_cgview *cg;
	enum cgs_stat_file file;
	enum cgs_stat_target target;
	struct cgs_stat_where where;
	bool done;
	int rc;
	char err[512];
};

/* All tasks wait at the gate: which file task 0 reads. */
static int rec_ready(void *priv, unsigned ntasks, const int *pid,
		     const int *tid, char *msg, size_t len)
{
	struct rec *r = priv;

	(void)ntasks;
	(void)tid;
	(void)msg;
	(void)len;
	r->rc = cgs_stat_locate(pid[0], r->file, r->target, r->cg, &r->where,
				r->err, sizeof(r->err));
	r->done = true;
	return 0;    /* the tasks themselves fail or skip when they cannot read */
}

static void rec_write(void *priv, struct res_point *p)
{
	struct rec *r = priv;
	struct json_object *o = json_object_new_object();

	if (!p->extra)
		p->extra = json_object_new_object();
	sr_add_where(o, r->file, r->target, &r->where, r->cg);
	cgs_jadd(o, "error", r->done && r->rc ? json_object_new_string(r->err) : NULL);
	json_object_object_add(p->extra, "stat_read", o);
}

static int rec_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		   void **priv)
{
	struct rec *r;

	(void)ctx;
	if (!pt->w->stat_file)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->cg = pt->cg;
	pt->w->stat_file(pt->wopts, &r->file, &r->target);
	*priv = r;
	return 0;
}

/* The file of the first test that names this observer: stat_read skips a
 * file this system lacks, but one outside our cgroups' hierarchies is a
 * mistake. */
static int rec_preflight(struct cgs_obs_ctx *ctx, const struct cgs_cgrun *c,
			 char *err, size_t errlen)
{
	const struct cgs_obs_env *e = ctx->env;

	for (unsigned t = 0; t < *e->ntests; t++) {
		const struct cgs_workload *w = e->tests[t];
		enum cgs_stat_file file;
		enum cgs_stat_target target;

		if (!w->observer || strcmp(w->observer, ctx->def->name) || !w->stat_file)
			continue;
		for (size_t i = 0; i < cgs_nworkloads; i++)
			if (cgs_workloads[i] == w) {
				w->stat_file(e->wopts[i], &file, &target);
				return sr_check_layouts(c, -1, (int)file, err, errlen);
			}
	}
	return 0;
}

const struct cgs_obs_def stat_read_observer = {
	.name = "stat_read",
	.preflight = rec_preflight,
	.new = rec_new,
	.free = free,
	.ready = rec_ready,
	.write = rec_write,
};
