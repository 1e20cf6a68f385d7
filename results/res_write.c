/*
 * res_write.c - the result model as JSON (json-c), written atomically:
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

#include "res.h"

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *jnum(double d)
{
	return isfinite(d) ? json_object_new_double(d) : NULL;
}

static struct json_object *jget(struct json_object *o)
{
	return o ? json_object_get(o) : NULL;
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *task_json(const struct res_point *p,
				     const struct res_task *t)
{
	struct json_object *o = json_object_new_object();
	struct json_object *aux = json_object_new_object();

	add(o, "index", json_object_new_int(t->index));
	add(o, "pid", json_object_new_int(t->pid));
	add(o, "tid", json_object_new_int(t->tid));
	add(o, "cpuset", jstr(t->cpuset));
	add(o, "cpu_start", json_object_new_int(t->cpu_start));
	add(o, "cpu_end", json_object_new_int(t->cpu_end));
	add(o, "migrated", json_object_new_boolean(t->migrated));
	add(o, "ops", json_object_new_uint64(t->ops));
	add(o, "minflt", json_object_new_int64(t->minflt));
	add(o, "majflt", json_object_new_int64(t->majflt));
	add(o, "status", jstr(t->status));
	add(o, "error", jstr(t->error));
	for (unsigned k = 0; k < p->naux; k++)
		add(aux, p->aux_name[k], json_object_new_uint64(t->aux[k]));
	add(o, "aux", aux);
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
		json_object_array_add(a, jnum(v[s]));
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
	add(o, "t_ns", t);
	add(o, "phase", ph);
	add(o, "ops", rows_json(p, p->ops));
	for (unsigned k = 0; k < p->naux; k++)
		add(aux, p->aux_name[k], rows_json(p, p->aux[k]));
	add(o, "aux", aux);
	add(o, "idle_pct", pct_array(p->idle_pct, p->nsamples));
	add(o, "iowait_pct", pct_array(p->iowait_pct, p->nsamples));
	add(o, "steal_pct", pct_array(p->steal_pct, p->nsamples));
	return o;
}

static struct json_object *summary_json(const struct res_point *p,
					const struct res_summary *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *aux = json_object_new_object();

	add(o, "ops", json_object_new_uint64(s->ops));
	add(o, "elapsed_s", jnum(s->elapsed_s));
	add(o, "total_ops_per_sec", jnum(s->total_ops_per_sec));
	add(o, "per_task_ops_per_sec", jnum(s->per_task_ops_per_sec));
	add(o, "min_task_ops_per_sec", jnum(s->min_task_ops_per_sec));
	add(o, "max_task_ops_per_sec", jnum(s->max_task_ops_per_sec));
	add(o, "task_cov_pct", jnum(s->task_cov_pct));
	add(o, "interval_cov_pct", jnum(s->interval_cov_pct));
	add(o, "idle_pct", jnum(s->idle_pct));
	add(o, "iowait_pct", jnum(s->iowait_pct));
	add(o, "steal_pct", jnum(s->steal_pct));
	add(o, "scalability", jnum(s->scalability));
	for (unsigned k = 0; k < p->naux; k++) {
		struct json_object *a = json_object_new_object();

		add(a, "rate", jnum(s->aux_rate[k]));
		add(a, "per_task_rate", jnum(s->aux_task_rate[k]));
		add(a, "unit", jstr(p->aux_unit[k]));
		add(aux, p->aux_name[k], a);
	}
	add(o, "aux", aux);
	return o;
}

static struct json_object *point_json(const struct res_point *p)
{
	struct json_object *o = json_object_new_object();
	struct json_object *pl = json_object_new_object();
	struct json_object *tm = json_object_new_object();
	struct json_object *tasks = json_object_new_array_ext((int)p->ntasks);
	struct json_object *auxd = json_object_new_array();

	add(o, "seq", json_object_new_int((int)p->seq));
	add(o, "test", jstr(p->test));
	add(o, "mode", jstr(p->mode));
	add(o, "tasks", json_object_new_int((int)p->tasks));
	add(o, "run", json_object_new_int((int)p->run));
	add(o, "status", jstr(p->status));
	add(o, "reason", jstr(p->reason));
	add(o, "started_at", jstr(p->started_at));
	add(pl, "policy", jstr(p->placement));
	add(pl, "places", json_object_new_int((int)p->places));
	add(pl, "oversubscribed", json_object_new_boolean(p->oversubscribed));
	add(o, "placement", pl);
	add(tm, "warmup_s", jnum(p->warmup_s));
	add(tm, "duration_s", jnum(p->duration_s));
	add(tm, "interval_s", jnum(p->interval_s));
	add(tm, "sampler_lag_max_ms", jnum(p->sampler_lag_ms));
	add(o, "timing", tm);
	add(o, "workload_options", p->wopts ? jget(p->wopts)
					    : json_object_new_object());
	for (unsigned i = 0; i < p->ntasks; i++)
		json_object_array_add(tasks, task_json(p, &p->task[i]));
	for (unsigned k = 0; k < p->naux; k++) {
		struct json_object *a = json_object_new_object();

		add(a, "name", jstr(p->aux_name[k]));
		add(a, "rate_unit", jstr(p->aux_unit[k]));
		add(a, "rate_scale", jnum(p->aux_scale[k]));
		json_object_array_add(auxd, a);
	}
	add(o, "aux_counters", auxd);
	add(o, "tasks_detail", tasks);
	add(o, "samples", samples_json(p));
	add(o, "summary", summary_json(p, &p->sum));
	if (p->extra) {
		json_object_object_foreach(p->extra, k, v)
			if (!json_object_object_get_ex(o, k, NULL))
				add(o, k, jget(v));
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
	add(o, "schema_version", json_object_new_int(RES_SCHEMA_VERSION));
	add(tool, "name", json_object_new_string("cgscale"));
	add(tool, "version", jstr(f->tool_version));
	add(tool, "git", jstr(f->git));
	add(o, "tool", tool);
	add(o, "command_line", f->command_line ? jget(f->command_line)
					       : json_object_new_array());
	add(o, "complete", json_object_new_boolean(f->complete));
	add(o, "interrupted", jstr(f->interrupted));
	add(o, "start_time", jstr(f->start_time));
	add(o, "end_time", jstr(f->end_time));
	add(o, "kernel", f->kernel ? jget(f->kernel) : json_object_new_object());
	add(o, "machine", f->machine ? jget(f->machine) : json_object_new_object());
	add(o, "environment", f->environment ? jget(f->environment)
					     : json_object_new_object());
	add(o, "options", f->options ? jget(f->options) : json_object_new_object());
	for (unsigned i = 0; i < f->npoints; i++)
		json_object_array_add(pts, point_json(&f->points[i]));
	add(o, "points", pts);
	return o;
}

/*
 * Write @len bytes to @path atomically: a temporary name in the same
 * directory, fsync, rename; SIGINT/SIGTERM/SIGHUP are held meanwhile so
 * no temporary file is left. 0 or -errno, with @err saying what failed.
 */
int res_write_atomic(const char *path, const char *data, size_t len,
		     char *err, size_t errlen)
{
	char *dcopy = strdup(path), *tmp = NULL;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	sigset_t hold, old;
	int fd = -1, rc = 0;

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigprocmask(SIG_BLOCK, &hold, &old);
	if (!dcopy || asprintf(&tmp, "%s/.%s.XXXXXX", dirname(dcopy), base) < 0) {
		tmp = NULL;
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create a file next to %s: %s", path,
			 strerror(errno));
		goto out;
	}
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			snprintf(err, errlen, "writing %s: %s", tmp, strerror(-rc));
			goto out;
		}
		off += (size_t)w;
	}
	if (fchmod(fd, 0644) || fsync(fd) || close(fd)) {
		rc = -errno;
		fd = -1;
		snprintf(err, errlen, "writing %s: %s", tmp, strerror(-rc));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path)) {
		rc = -errno;
		snprintf(err, errlen, "renaming %s to %s: %s", tmp, path,
			 strerror(-rc));
	}
out:
	if (fd >= 0)
		close(fd);
	if (rc && tmp)
		unlink(tmp);
	free(tmp);
	free(dcopy);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int res_write_file(const struct res_file *f, const char *path, char *err,
		   size_t errlen)
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
	rc = res_write_atomic(path, text, strlen(text), err, errlen);
	free(text);
	json_object_put(root);
	return rc;
}
