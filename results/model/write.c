/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * write.c - the result model as JSON (json-c), written atomically:
 * temporary file in the target directory, fsync, rename. NaN and infinity
 * become null, since JSON has no such numbers.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/util.h"
#include "results/model/result.h"

static struct json_object *task_json(const struct res_point *p,
				     const struct res_task *t)
{
	struct json_object *o = json_object_new_object();
	struct json_object *aux = json_object_new_object();

	cgs_jadd(o, "index", json_object_new_int(t->index));
	cgs_jadd(o, "pid", json_object_new_int(t->pid));
	cgs_jadd(o, "tid", json_object_new_int(t->tid));
	cgs_jadd(o, "cpuset", cgs_jstr(t->cpuset));
	cgs_jadd(o, "cpu_start", json_object_new_int(t->cpu_start));
	cgs_jadd(o, "cpu_end", json_object_new_int(t->cpu_end));
	cgs_jadd(o, "migrated", json_object_new_boolean(t->migrated));
	cgs_jadd(o, "ops", json_object_new_uint64(t->ops));
	cgs_jadd(o, "minflt", json_object_new_int64(t->minflt));
	cgs_jadd(o, "majflt", json_object_new_int64(t->majflt));
	cgs_jadd(o, "status", cgs_jstr(res_status_names[t->status]));
	cgs_jadd(o, "error", cgs_jstr(t->error));
	for (unsigned k = 0; k < p->naux; k++)
		cgs_jadd(aux, p->aux_name[k], json_object_new_uint64(t->aux[k]));
	cgs_jadd(o, "aux", aux);
	return o;
}

/* Rows of per-task interval counts: ops, or one aux counter. */
static struct json_object *rows_json(const struct res_point *p,
				     const uint64_t *v)
{
	struct json_object *rows = json_object_new_array_ext((int)p->ntasks);

	for (unsigned i = 0; i < p->ntasks; i++) {
		struct json_object *row = json_object_new_array_ext((int)p->nsamples);

		for (unsigned s = 0; s < p->nsamples; s++)
			json_object_array_add(row,
				json_object_new_uint64(v[(size_t)i * p->nsamples + s]));
		json_object_array_add(rows, row);
	}
	return rows;
}

static struct json_object *pct_array(const double *v, unsigned n)
{
	struct json_object *a = json_object_new_array_ext((int)n);

	for (unsigned s = 0; s < n; s++)
		json_object_array_add(a, cgs_jnum(v[s]));
	return a;
}

static struct json_object *samples_json(const struct res_point *p)
{
	struct json_object *o = json_object_new_object();
	struct json_object *t = json_object_new_array_ext((int)p->nsamples);
	struct json_object *ph = json_object_new_array_ext((int)p->nsamples);
	struct json_object *aux = json_object_new_object();

	for (unsigned s = 0; s < p->nsamples; s++) {
		json_object_array_add(t, json_object_new_int64(p->t_ns[s]));
		json_object_array_add(ph, json_object_new_string(
					      res_phase_names[p->phase[s]]));
	}
	cgs_jadd(o, "t_ns", t);
	cgs_jadd(o, "phase", ph);
	cgs_jadd(o, "ops", rows_json(p, p->ops));
	for (unsigned k = 0; k < p->naux; k++)
		cgs_jadd(aux, p->aux_name[k], rows_json(p, p->aux[k]));
	cgs_jadd(o, "aux", aux);
	cgs_jadd(o, "idle_pct", pct_array(p->idle_pct, p->nsamples));
	cgs_jadd(o, "iowait_pct", pct_array(p->iowait_pct, p->nsamples));
	cgs_jadd(o, "steal_pct", pct_array(p->steal_pct, p->nsamples));
	return o;
}

static struct json_object *summary_json(const struct res_point *p,
					const struct res_summary *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *aux = json_object_new_object();

	cgs_jadd(o, "ops", json_object_new_uint64(s->ops));
	cgs_jadd(o, "elapsed_s", cgs_jnum(s->elapsed_s));
	cgs_jadd(o, "total_ops_per_sec", cgs_jnum(s->total_ops_per_sec));
	cgs_jadd(o, "per_task_ops_per_sec", cgs_jnum(s->per_task_ops_per_sec));
	cgs_jadd(o, "min_task_ops_per_sec", cgs_jnum(s->min_task_ops_per_sec));
	cgs_jadd(o, "max_task_ops_per_sec", cgs_jnum(s->max_task_ops_per_sec));
	cgs_jadd(o, "task_cov_pct", cgs_jnum(s->task_cov_pct));
	cgs_jadd(o, "interval_cov_pct", cgs_jnum(s->interval_cov_pct));
	cgs_jadd(o, "idle_pct", cgs_jnum(s->idle_pct));
	cgs_jadd(o, "iowait_pct", cgs_jnum(s->iowait_pct));
	cgs_jadd(o, "steal_pct", cgs_jnum(s->steal_pct));
	cgs_jadd(o, "scalability", cgs_jnum(s->scalability));
	for (unsigned k = 0; k < p->naux; k++) {
		struct json_object *a = json_object_new_object();

		cgs_jadd(a, "rate", cgs_jnum(s->aux_rate[k]));
		cgs_jadd(a, "per_task_rate", cgs_jnum(s->aux_task_rate[k]));
		cgs_jadd(a, "unit", cgs_jstr(p->aux_unit[k]));
		cgs_jadd(aux, p->aux_name[k], a);
	}
	cgs_jadd(o, "aux", aux);
	return o;
}

struct json_object *res_point_to_json(const struct res_point *p)
{
	struct json_object *o = json_object_new_object();
	struct json_object *pl = json_object_new_object();
	struct json_object *tm = json_object_new_object();
	struct json_object *tasks = json_object_new_array_ext((int)p->ntasks);
	struct json_object *auxd = json_object_new_array();

	cgs_jadd(o, "seq", json_object_new_int((int)p->seq));
	cgs_jadd(o, "test", cgs_jstr(p->test));
	cgs_jadd(o, "mode", cgs_jstr(p->mode));
	cgs_jadd(o, "tasks", json_object_new_int((int)p->tasks));
	cgs_jadd(o, "run", json_object_new_int((int)p->run));
	cgs_jadd(o, "status", cgs_jstr(res_status_names[p->status]));
	cgs_jadd(o, "reason", cgs_jstr(p->reason));
	cgs_jadd(o, "started_at", cgs_jstr(p->started_at));
	cgs_jadd(pl, "policy", cgs_jstr(p->placement));
	cgs_jadd(pl, "places", json_object_new_int((int)p->places));
	cgs_jadd(pl, "oversubscribed", json_object_new_boolean(p->oversubscribed));
	cgs_jadd(o, "placement", pl);
	cgs_jadd(tm, "warmup_s", cgs_jnum(p->warmup_s));
	cgs_jadd(tm, "duration_s", cgs_jnum(p->duration_s));
	cgs_jadd(tm, "interval_s", cgs_jnum(p->interval_s));
	cgs_jadd(tm, "sampler_lag_max_ms", cgs_jnum(p->sampler_lag_ms));
	cgs_jadd(o, "timing", tm);
	cgs_jadd(o, "workload_options", p->wopts ? cgs_jref(p->wopts)
					    : json_object_new_object());
	for (unsigned i = 0; i < p->ntasks; i++)
		json_object_array_add(tasks, task_json(p, &p->task[i]));
	for (unsigned k = 0; k < p->naux; k++) {
		struct json_object *a = json_object_new_object();

		cgs_jadd(a, "name", cgs_jstr(p->aux_name[k]));
		cgs_jadd(a, "rate_unit", cgs_jstr(p->aux_unit[k]));
		cgs_jadd(a, "rate_scale", cgs_jnum(p->aux_scale[k]));
		json_object_array_add(auxd, a);
	}
	cgs_jadd(o, "aux_counters", auxd);
	cgs_jadd(o, "tasks_detail", tasks);
	cgs_jadd(o, "samples", samples_json(p));
	cgs_jadd(o, "summary", summary_json(p, &p->sum));
	if (p->extra) {
		json_object_object_foreach(p->extra, k, v)
			if (!json_object_object_get_ex(o, k, NULL))
				cgs_jadd(o, k, cgs_jref(v));
	}
	return o;
}

struct json_object *res_to_json(const struct res_file *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *tool = json_object_new_object();
	struct json_object *pts = json_object_new_array_ext((int)f->npoints);

	if (!o || !tool || !pts) {
		json_object_put(o);
		json_object_put(tool);
		json_object_put(pts);
		return NULL;
	}
	cgs_jadd(o, "schema_version", json_object_new_int(RES_SCHEMA_VERSION));
	cgs_jadd(tool, "name", json_object_new_string("cgscale"));
	cgs_jadd(tool, "version", cgs_jstr(f->tool_version));
	cgs_jadd(tool, "git", cgs_jstr(f->git));
	cgs_jadd(o, "tool", tool);
	cgs_jadd(o, "command_line", f->command_line ? cgs_jref(f->command_line)
					       : json_object_new_array());
	cgs_jadd(o, "complete", json_object_new_boolean(f->complete));
	cgs_jadd(o, "interrupted", cgs_jstr(f->interrupted));
	cgs_jadd(o, "start_time", cgs_jstr(f->start_time));
	cgs_jadd(o, "end_time", cgs_jstr(f->end_time));
	cgs_jadd(o, "kernel", f->kernel ? cgs_jref(f->kernel) : json_object_new_object());
	cgs_jadd(o, "machine", f->machine ? cgs_jref(f->machine) : json_object_new_object());
	cgs_jadd(o, "environment", f->environment ? cgs_jref(f->environment)
					     : json_object_new_object());
	cgs_jadd(o, "options", f->options ? cgs_jref(f->options) : json_object_new_object());
	if (f->invocation)
		cgs_jadd(o, "invocation", cgs_jref(f->invocation));
	if (f->sections)
		cgs_jadd(o, "sections", cgs_jref(f->sections));
	for (unsigned i = 0; i < f->npoints; i++)
		json_object_array_add(pts, res_point_to_json(&f->points[i]));
	cgs_jadd(o, "points", pts);
	return o;
}

int res_write_file(const struct res_file *f, const char *path, char *err,
		   size_t errlen)
{
	return res_write_file_at(f, -1, path, err, errlen);
}

int res_write_file_at(const struct res_file *f, int dirfd, const char *path,
		      char *err, size_t errlen)
{
	struct json_object *root = res_to_json(f);
	char *text = NULL;
	int rc;

	if (!root || asprintf(&text, "%s\n", json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0) {
		json_object_put(root);
		snprintf(err, errlen, "%s: out of memory building JSON", path);
		return -ENOMEM;
	}
	rc = cgs_write_atomic_at(dirfd, path, text, strlen(text), err, errlen);
	free(text);
	json_object_put(root);
	return rc;
}
