/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * autoruns.c - `run -r auto` (autoruns.h): after each round, the clean
 * runs of each point (test, mode, tasks, cgroup layout) give the
 * half-width compare's interval (the Hodges-Lehmann rank interval) would
 * have for an A/A pair with this noise (results/stats/robust.h); the runs
 * stop when every point is at most T/2, at --max-runs, or when another
 * round would pass --max-time. Knobs: AUTO_MIN_RUNS, AUTO_LEVEL.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "runner/run/autoruns.h"
#include "runner/run/run.h"
#include "lib/util.h"
#include "results/compare/model.h"
#include "results/model/disturb.h"
#include "results/stats/robust.h"

#define AUTO_MIN_RUNS 4   /* compare's rank interval needs 4 a side at 95% */
#define AUTO_LEVEL 0.95

int cgs_auto_validate(struct cgs_run *r, char *err, size_t errlen)
{
	struct cgs_run_opts *o = &r->o;

	if (!(o->threshold_pct > 0))
		return cgs_errf(err, errlen, -EINVAL,
				"--threshold '%g': give the practical threshold T in %% above 0, e.g. 2",
				o->threshold_pct);
	o->runs_auto = o->runs_asked == CGS_RUNS_AUTO;
	o->runs = o->runs_auto ? o->max_runs : o->runs_asked;
	if (o->runs_auto && o->max_runs < AUTO_MIN_RUNS)
		return cgs_errf(err, errlen, -EINVAL,
				"--max-runs %lld: -r auto needs at least %d runs a point; give --max-runs %d or more",
				(long long)o->max_runs, AUTO_MIN_RUNS, AUTO_MIN_RUNS);
	return 0;
}

static bool same_point(const struct res_point *a, const struct res_point *b)
{
	return a->tasks == b->tasks && !strcmp(a->test, b->test) &&
	       !strcmp(a->mode, b->mode) &&
	       !strcmp(cmp_point_layout(a), cmp_point_layout(b));
}

/* The clean values of the primary metric of @p's point into @v. */
static size_t clean_values(const struct res_file *f, const struct res_point *p,
			   double *v)
{
	size_t n = 0;
	char why[8];

	for (unsigned i = 0; i < f->npoints; i++) {
		const struct res_point *q = &f->points[i];
		double x;

		if (!same_point(p, q) || q->status != RES_OK ||
		    res_disturbed(q, why, sizeof(why)) > 0)
			continue;
		x = cmp_metric_value(&cmp_base_metrics[0], q);
		if (isfinite(x))
			v[n++] = x;
	}
	return n;
}

/* One point's line in options.runs_auto.points; true when at target. */
static bool point_state(const struct cgs_run *r, const struct res_point *p,
			double *v, struct json_object *pts)
{
	struct json_object *o = json_object_new_object();
	size_t n = clean_values(&r->res, p, v);
	double hw = NAN, target = r->o.threshold_pct / 2;
	struct st_desc d = { 0 };
	char name[256];

	if (st_predicted_half_width(v, n, AUTO_LEVEL, &hw) ||
	    st_describe(v, n, &d))
		hw = NAN;
	snprintf(name, sizeof(name), "%s %s tasks=%u cgroup=%s", p->test, p->mode,
		 p->tasks, cmp_point_layout(p));
	json_object_object_add(o, "point", json_object_new_string(name));
	json_object_object_add(o, "clean_runs", json_object_new_int64((int64_t)n));
	json_object_object_add(o, "cov_pct", isfinite(d.cov_pct) ?
			       json_object_new_double(d.cov_pct) : NULL);
	json_object_object_add(o, "half_width_pct", isfinite(hw) ?
			       json_object_new_double(hw) : NULL);
	json_object_object_add(o, "reached", json_object_new_boolean(hw <= target));
	json_object_object_add(o, "runs_needed", json_object_new_int64(
		st_runs_for_half_width(d.cov_pct, target, AUTO_LEVEL)));
	json_object_array_add(pts, o);
	return hw <= target;
}

static void say(const struct cgs_run *r, struct json_object *pts, const char *stop,
		unsigned nruns)
{
	size_t n = json_object_array_length(pts);

	fprintf(stderr, "cgscale: -r auto stopped after %u runs: %s (target: CI half-width <= %g%%, T/2)\n",
		nruns, stop, r->o.threshold_pct / 2);
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(pts, i), *x;
		bool ok = json_object_object_get_ex(o, "reached", &x) &&
			  json_object_get_boolean(x);
		double hw = json_object_object_get_ex(o, "half_width_pct", &x) && x ?
			    json_object_get_double(x) : NAN;

		json_object_object_get_ex(o, "runs_needed", &x);
		fprintf(stderr, "  %-48s %s: half-width %.2f%%%s",
			json_object_get_string(json_object_object_get(o, "point")),
			ok ? "reached" : "not reached", hw, ok ? "\n" : "");
		if (!ok && json_object_get_int(x) > 0)
			fprintf(stderr, "; about %d clean runs would reach it\n",
				json_object_get_int(x));
		else if (!ok)
			fprintf(stderr, "; no practical run count reaches it at this noise\n");
	}
}

bool cgs_auto_done(struct cgs_run *r, unsigned nruns)
{
	struct json_object *o = json_object_new_object(), *pts = json_object_new_array();
	double *v = calloc(r->res.npoints + 1, sizeof(*v));
	double elapsed = (cgs_now_ns() - r->started_ns) / 1e9;
	bool all = v != NULL;
	const char *stop = NULL;

	if (res_disturb_mark(&r->res))
		all = false;
	for (unsigned i = 0; v && i < r->res.npoints; i++) {
		const struct res_point *p = &r->res.points[i];
		bool first = true;

		for (unsigned k = 0; k < i; k++)
			first &= !same_point(&r->res.points[k], p);
		if (first)
			all &= point_state(r, p, v, pts);
	}
	free(v);
	if (nruns >= AUTO_MIN_RUNS && all)
		stop = "every point reached the target";
	else if (nruns >= r->o.max_runs)
		stop = "--max-runs reached";
	else if (r->o.max_time_ns &&
		 (elapsed + elapsed / nruns) * 1e9 > (double)r->o.max_time_ns)
		stop = "--max-time reached (another round would pass it)";
	json_object_object_add(o, "threshold_pct", json_object_new_double(r->o.threshold_pct));
	json_object_object_add(o, "target_half_width_pct",
			       json_object_new_double(r->o.threshold_pct / 2));
	json_object_object_add(o, "max_runs", json_object_new_int64(r->o.max_runs));
	json_object_object_add(o, "max_time_s", json_object_new_double(r->o.max_time_ns / 1e9));
	json_object_object_add(o, "runs_done", json_object_new_int64(nruns));
	json_object_object_add(o, "elapsed_s", json_object_new_double(elapsed));
	json_object_object_add(o, "stop_reason", json_object_new_string(
		stop ? stop : "not stopped: interrupted"));
	json_object_object_add(o, "points", pts);
	json_object_object_add(r->res.options, "runs_auto", o);
	if (stop)
		say(r, pts, stop, nruns);
	return stop != NULL;
}
