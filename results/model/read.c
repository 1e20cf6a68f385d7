/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read.c - read a result file back into the model, checking every
 * field it uses. Bad input never crashes: it gets one line that names the
 * file, the field and what is wrong (see results/model/result.h for the return codes).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/model/result.h"
#include "results/model/read.h"

static int read_task(struct json_object *o, const struct res_point *p,
		     struct res_task *t, struct rd *r)
{
	struct json_object *aux;
	int rc = 0;

	if (!json_object_is_type(o, json_type_object))
		return rd_fail(r, "a task entry is not an object");
	t->index = (int)rd_range(o, "index", true, 0, 1000000, r, &rc);
	t->pid = (int)rd_int(o, "pid", false, r, &rc);
	t->tid = (int)rd_int(o, "tid", false, r, &rc);
	t->cpuset = rd_str(o, "cpuset", false, r, &rc);
	t->cpu_start = (int)rd_int(o, "cpu_start", false, r, &rc);
	t->cpu_end = (int)rd_int(o, "cpu_end", false, r, &rc);
	t->migrated = rd_bool(o, "migrated", r, &rc);
	t->ops = (uint64_t)rd_range(o, "ops", false, 0, INT64_MAX, r, &rc);
	t->minflt = rd_int(o, "minflt", false, r, &rc);
	t->majflt = rd_int(o, "majflt", false, r, &rc);
	t->status = rd_status(o, r, &rc);
	t->error = rd_str(o, "error", false, r, &rc);
	aux = rd_field(o, "aux", json_type_object, false, r, &rc);
	for (unsigned k = 0; aux && !rc && k < p->naux; k++)
		t->aux[k] = (uint64_t)rd_range(aux, p->aux_name[k], false, 0, INT64_MAX, r, &rc);
	return rc;
}

/* Per-task rows of interval counts, @n per row, into @out. */
static int read_rows(struct json_object *rows, unsigned ntasks, unsigned n,
		     uint64_t *out, const char *what, struct rd *r)
{
	int rc = 0;

	if (!json_object_is_type(rows, json_type_array) ||
	    json_object_array_length(rows) != ntasks)
		return rd_fail(r, "%s should have one row per task (%u)", what, ntasks);
	for (unsigned i = 0; !rc && i < ntasks; i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);

		if (!json_object_is_type(row, json_type_array) ||
		    json_object_array_length(row) != n)
			return rd_fail(r, "%s[%u] is not an array of %u counts", what, i, n);
		for (unsigned k = 0; !rc && k < n; k++)
			out[(size_t)i * n + k] =
				rd_u64(json_object_array_get_idx(row, k), r, &rc, what);
	}
	return rc;
}

/* The aux counters a point declares, then their sample rows. */
static int read_aux(struct json_object *o, struct res_point *p, struct rd *r)
{
	const char *names[CGS_MAX_AUX], *units[CGS_MAX_AUX];
	double scales[CGS_MAX_AUX];
	struct json_object *decl, *samples, *rows;
	unsigned n;
	int rc = 0;

	decl = rd_field(o, "aux_counters", json_type_array, false, r, &rc);
	if (!decl)
		return rc;
	n = (unsigned)json_object_array_length(decl);
	if (n > CGS_MAX_AUX)
		return rd_fail(r, "more than %d aux_counters", CGS_MAX_AUX);
	for (unsigned k = 0; k < n; k++) {
		struct json_object *a = json_object_array_get_idx(decl, k), *v;

		if (!json_object_is_type(a, json_type_object))
			return rd_fail(r, "aux_counters[%u] is not an object", k);
		v = rd_field(a, "name", json_type_string, true, r, &rc);
		names[k] = v ? json_object_get_string(v) : "";
		v = rd_field(a, "rate_unit", json_type_string, true, r, &rc);
		units[k] = v ? json_object_get_string(v) : "";
		scales[k] = rd_num(a, "rate_scale", r, &rc);
		if (rc)
			return rc;
	}
	rc = res_point_set_aux(p, n, names, units, scales);
	if (rc || !n)
		return rc;
	samples = rd_field(o, "samples", json_type_object, true, r, &rc);
	rows = samples ? rd_field(samples, "aux", json_type_object, true, r, &rc) : NULL;
	for (unsigned k = 0; rows && !rc && k < n; k++) {
		struct json_object *v = rd_field(rows, names[k], json_type_array, true, r, &rc);

		if (v)
			rc = read_rows(v, p->ntasks, p->nsamples, p->aux[k],
				       "samples.aux rows", r);
	}
	return rc;
}

static int read_pct(struct json_object *s, const char *k, double *out,
		    unsigned n, struct rd *r)
{
	int rc = 0;
	struct json_object *a = rd_field(s, k, json_type_array, false, r, &rc);

	if (!a)
		return rc;
	if (json_object_array_length(a) != n)
		return rd_fail(r, "samples.%s has %zu values, expected %u", k,
			       json_object_array_length(a), n);
	for (unsigned i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(a, i);

		if (!v)
			out[i] = NAN;
		else if (json_object_is_type(v, json_type_double) ||
			 json_object_is_type(v, json_type_int))
			out[i] = json_object_get_double(v);
		else
			return rd_fail(r, "samples.%s[%u] is not a number", k, i);
	}
	return 0;
}

static int read_samples(struct json_object *o, struct res_point *p,
			unsigned ntasks, struct rd *r)
{
	int rc = 0;
	struct json_object *s = rd_field(o, "samples", json_type_object, true, r, &rc);
	struct json_object *t, *ph, *ops;
	unsigned n;

	if (!s)
		return rc;
	t = rd_field(s, "t_ns", json_type_array, true, r, &rc);
	ph = rd_field(s, "phase", json_type_array, true, r, &rc);
	ops = rd_field(s, "ops", json_type_array, true, r, &rc);
	if (rc)
		return rc;
	n = (unsigned)json_object_array_length(t);
	if (json_object_array_length(ph) != n)
		return rd_fail(r, "samples.phase has %zu values, expected %u",
			       json_object_array_length(ph), n);
	if (res_point_alloc(p, ntasks, n))
		return -ENOMEM;
	for (unsigned k = 0; k < n; k++) {
		struct json_object *v = json_object_array_get_idx(ph, k);
		const char *name = v ? json_object_get_string(v) : "";
		int found = -1;

		uint64_t ns = rd_u64(json_object_array_get_idx(t, k), r, &rc,
				      "samples.t_ns[]");

		if (rc)
			return rc;
		/* differences of times are taken in int64_t: keep them sane */
		if (ns > RES_MAX_T_NS)
			return rd_fail(r, "samples.t_ns[%u] is not a time since the start", k);
		p->t_ns[k] = (int64_t)ns;
		for (int i = 0; res_phase_names[i]; i++)
			if (json_object_is_type(v, json_type_string) &&
			    !strcmp(name, res_phase_names[i]))
				found = i;
		if (found < 0)
			return rd_fail(r, "samples.phase[%u] is not start, warmup or measure", k);
		p->phase[k] = (enum res_phase)found;
		if (k && p->t_ns[k] <= p->t_ns[k - 1])
			return rd_fail(r, "samples.t_ns does not increase at %u", k);
	}
	if (!rc)
		rc = read_rows(ops, ntasks, n, p->ops, "samples.ops", r);
	if (!rc)
		rc = read_pct(s, "idle_pct", p->idle_pct, n, r);
	if (!rc)
		rc = read_pct(s, "iowait_pct", p->iowait_pct, n, r);
	if (!rc)
		rc = read_pct(s, "steal_pct", p->steal_pct, n, r);
	return rc;
}

static void read_summary(struct json_object *o, const struct res_point *p,
			 struct res_summary *s, struct rd *r, int *rc)
{
	struct json_object *v = rd_field(o, "summary", json_type_object, true, r, rc);
	struct json_object *aux;

	if (!v)
		return;
	s->ops = (uint64_t)rd_range(v, "ops", false, 0, INT64_MAX, r, rc);
	s->elapsed_s = rd_num(v, "elapsed_s", r, rc);
	s->total_ops_per_sec = rd_num(v, "total_ops_per_sec", r, rc);
	s->per_task_ops_per_sec = rd_num(v, "per_task_ops_per_sec", r, rc);
	s->min_task_ops_per_sec = rd_num(v, "min_task_ops_per_sec", r, rc);
	s->max_task_ops_per_sec = rd_num(v, "max_task_ops_per_sec", r, rc);
	s->task_cov_pct = rd_num(v, "task_cov_pct", r, rc);
	s->interval_cov_pct = rd_num(v, "interval_cov_pct", r, rc);
	s->idle_pct = rd_num(v, "idle_pct", r, rc);
	s->iowait_pct = rd_num(v, "iowait_pct", r, rc);
	s->steal_pct = rd_num(v, "steal_pct", r, rc);
	s->scalability = rd_num(v, "scalability", r, rc);
	aux = rd_field(v, "aux", json_type_object, false, r, rc);
	for (unsigned k = 0; k < p->naux; k++) {
		struct json_object *a = aux ? rd_field(aux, p->aux_name[k],
						    json_type_object, false, r, rc) : NULL;

		s->aux_rate[k] = a ? rd_num(a, "rate", r, rc) : NAN;
		s->aux_task_rate[k] = a ? rd_num(a, "per_task_rate", r, rc) : NAN;
	}
}

static const char *const point_keys[] = {
	"seq", "test", "mode", "tasks", "run", "status", "reason",
	"started_at", "placement", "timing", "workload_options",
	"tasks_detail", "samples", "summary", "aux_counters", NULL,
};

static int read_point(struct json_object *o, struct res_point *p, struct rd *r)
{
	struct json_object *pl, *tm, *td;
	int rc = 0;

	if (!json_object_is_type(o, json_type_object))
		return rd_fail(r, "not an object");
	p->seq = (unsigned)rd_range(o, "seq", false, 0, INT_MAX, r, &rc);
	p->test = rd_str(o, "test", true, r, &rc);
	p->mode = rd_str(o, "mode", true, r, &rc);
	p->tasks = (unsigned)rd_range(o, "tasks", true, 1, 1000000, r, &rc);
	p->run = (unsigned)rd_range(o, "run", false, 0, INT_MAX, r, &rc);
	p->status = rd_status(o, r, &rc);
	p->reason = rd_str(o, "reason", false, r, &rc);
	p->started_at = rd_str(o, "started_at", false, r, &rc);
	td = rd_field(o, "tasks_detail", json_type_array, true, r, &rc);
	if (rc)
		return rc;
	if (strcmp(p->mode, "process") && strcmp(p->mode, "thread"))
		return rd_fail(r, "'mode' is '%.40s', not process or thread", p->mode);
	if (json_object_array_length(td) > 1000000)
		return rd_fail(r, "'tasks_detail' is too long");
	if (p->status == RES_OK && json_object_array_length(td) != p->tasks)
		return rd_fail(r, "'tasks' is %u but tasks_detail lists %zu tasks", p->tasks,
			       json_object_array_length(td));
	rc = read_samples(o, p, (unsigned)json_object_array_length(td), r);
	if (!rc)
		rc = read_aux(o, p, r);
	for (unsigned i = 0; !rc && i < p->ntasks; i++)
		rc = read_task(json_object_array_get_idx(td, i), p, &p->task[i], r);
	if (rc)
		return rc;
	if ((pl = rd_field(o, "placement", json_type_object, false, r, &rc))) {
		p->placement = rd_str(pl, "policy", false, r, &rc);
		p->places = (unsigned)rd_range(pl, "places", false, 0, INT_MAX, r, &rc);
		p->oversubscribed = rd_bool(pl, "oversubscribed", r, &rc);
	}
	if ((tm = rd_field(o, "timing", json_type_object, false, r, &rc))) {
		p->warmup_s = rd_num(tm, "warmup_s", r, &rc);
		p->duration_s = rd_num(tm, "duration_s", r, &rc);
		p->interval_s = rd_num(tm, "interval_s", r, &rc);
		p->sampler_lag_ms = rd_num(tm, "sampler_lag_max_ms", r, &rc);
	}
	p->wopts = rd_keep(o, "workload_options", json_type_object, r, &rc);
	read_summary(o, p, &p->sum, r, &rc);
	if (rc)
		return rc;
	p->extra = json_object_new_object();
	json_object_object_foreach(o, k, v) {
		bool known = false;

		for (int i = 0; point_keys[i]; i++)
			known |= !strcmp(k, point_keys[i]);
		if (!known)
			json_object_object_add(p->extra, k, json_object_get(v));
	}
	return 0;
}

int res_from_json(struct json_object *root, struct res_file *f, char *err,
		  size_t errlen)
{
	struct rd r = { .err = err, .errlen = errlen };
	struct json_object *tool, *pts, *sv;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "schema_version", &sv))
		return rd_fail(&r, "not a cgscale result (no schema_version)");
	if (!json_object_is_type(sv, json_type_int))
		return rd_fail(&r, "schema_version is not a number");
	f->schema_version = json_object_get_int(sv);
	if (f->schema_version > RES_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "schema_version %d is newer than this cgscale reads (%d); use a newer cgscale",
			 f->schema_version, RES_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (f->schema_version < 1)
		return rd_fail(&r, "schema_version %d is not valid", f->schema_version);
	tool = rd_field(root, "tool", json_type_object, true, &r, &rc);
	if (tool) {
		struct json_object *name = NULL;

		if (!json_object_object_get_ex(tool, "name", &name) ||
		    !json_object_is_type(name, json_type_string) ||
		    strcmp(json_object_get_string(name), "cgscale"))
			return rd_fail(&r, "not a cgscale result (tool.name)");
		f->tool_version = rd_str(tool, "version", false, &r, &rc);
		f->git = rd_str(tool, "git", false, &r, &rc);
	}
	f->complete = rd_bool(root, "complete", &r, &rc);
	f->interrupted = rd_str(root, "interrupted", false, &r, &rc);
	f->start_time = rd_str(root, "start_time", false, &r, &rc);
	f->end_time = rd_str(root, "end_time", false, &r, &rc);
	f->command_line = rd_keep(root, "command_line", json_type_array, &r, &rc);
	f->kernel = rd_keep(root, "kernel", json_type_object, &r, &rc);
	f->machine = rd_keep(root, "machine", json_type_object, &r, &rc);
	f->environment = rd_keep(root, "environment", json_type_object, &r, &rc);
	f->options = rd_keep(root, "options", json_type_object, &r, &rc);
	f->invocation = rd_keep(root, "invocation", json_type_object, &r, &rc);
	f->sections = rd_keep(root, "sections", json_type_object, &r, &rc);
	pts = rd_field(root, "points", json_type_array, true, &r, &rc);
	for (size_t i = 0; !rc && i < json_object_array_length(pts); i++) {
		struct res_point *p = res_file_add_point(f);

		if (!p)
			return -ENOMEM;
		snprintf(r.where, sizeof(r.where), "points[%zu]", i);
		rc = read_point(json_object_array_get_idx(pts, i), p, &r);
	}
	return rc;
}
