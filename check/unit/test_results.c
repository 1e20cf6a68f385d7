/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_results.c - the JSON result file: a full round trip through the
 * writer and the reader (every figure survives, NaN as null included),
 * the atomic write, and the reader's one-line errors on bad input.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "results/model/result.h"

struct tmp {
	char dir[64];
	char path[128];
};

static int mk(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));

	strcpy(t->dir, "/tmp/cgs-test-XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	snprintf(t->path, sizeof(t->path), "%s/r.json", t->dir);
	*state = t;
	return 0;
}

static int rm(void **state)
{
	struct tmp *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->dir);
	if (system(cmd))
		return -1;
	free(t);
	return 0;
}

/* Samples of point @k: times, phases, CPU shares, ops, auxiliary counts. */
static void build_samples(struct res_point *p, unsigned k)
{
	const char *names[] = { "tx_bytes", "rx_bytes" };
	const char *units[] = { "Mbit/s", "Mbit/s" };
	const double scales[] = { 8e-6, 8e-6 };

	for (unsigned s = 0; s < 3; s++) {
		p->t_ns[s] = 123456789LL * s + k;
		p->phase[s] = (enum res_phase)s;
		p->idle_pct[s] = s ? 12.5 * s : NAN;
		p->iowait_pct[s] = s ? 0.25 : NAN;
		p->steal_pct[s] = s ? 1.0 / 3 : NAN;
		for (unsigned i = 0; i < 2; i++)
			p->ops[i * 3 + s] = (uint64_t)1e12 + 1000 * i + s;
	}
	if (k)
		assert_int_equal(res_point_set_aux(p, 2, names, units, scales), 0);
	for (unsigned a = 0; a < p->naux; a++)
		for (unsigned x = 0; x < 6; x++)
			p->aux[a][x] = 7 * a + x;
}

static void build_tasks(struct res_point *p)
{
	for (unsigned i = 0; i < 2; i++) {
		struct res_task *t = &p->task[i];

		t->pid = 100 + i;
		t->tid = 200 + i;
		t->cpuset = strdup(i ? "1" : "0");
		t->cpu_start = i;
		t->cpu_end = 1;
		t->migrated = !i;
		t->ops = 987654321012ULL + i;
		t->minflt = 5000 + i;
		t->majflt = i;
		t->status = RES_OK;
		t->aux[0] = t->aux[1] = 42 + i;
	}
}

/* Point @k of the file: 0 ok, 1 failed with auxiliary counters. */
static void build_point(struct res_file *f, unsigned k)
{
	struct res_point *p = res_file_add_point(f);

	assert_int_equal(res_point_alloc(p, 2, 3), 0);
	p->seq = k;
	p->test = strdup(k ? "sendfile" : "page_fault1");
	p->mode = strdup("thread");
	p->tasks = 2;
	p->run = k;
	p->status = k ? RES_FAILED : RES_OK;
	p->reason = k ? strdup("task 1 (pid 9): recv: \"Connection reset\"\n") : NULL;
	p->started_at = strdup("2026-11-30T16:00:01Z");
	p->placement = strdup("cores");
	p->places = 2;
	p->oversubscribed = k;
	p->warmup_s = 0.5;
	p->duration_s = 1.25;
	p->interval_s = 0.1;
	p->sampler_lag_ms = 12.5 * k;
	build_samples(p, k);
	build_tasks(p);
	res_point_summarise(p);
	p->sum.scalability = k ? NAN : 0.875;
	p->wopts = json_tokener_parse("{\"msg-size\":10240}");
	p->extra = json_tokener_parse("{\"perf\":{\"events\":[\"cycles\"]}}");
}

static void build(struct res_file *f)
{
	memset(f, 0, sizeof(*f));
	f->schema_version = RES_SCHEMA_VERSION;
	f->tool_version = strdup("0.1.0");
	f->git = strdup("abc1234");
	f->complete = true;
	f->start_time = strdup("2026-11-30T16:00:00Z");
	f->end_time = strdup("2026-11-30T16:01:00Z");
	f->command_line = json_tokener_parse("[\"cgscale\",\"run\",\"-t\",\"2\"]");
	f->kernel = json_tokener_parse("{\"release\":\"6.18.0\",\"cmdline\":\"quiet \\\"x\\\"\"}");
	f->machine = json_tokener_parse("{\"cpu_model\":\"Xeon\",\"topology\":{\"pus\":2}}");
	f->environment = json_tokener_parse("{\"tmpdir\":{\"fstype\":\"tmpfs\"}}");
	f->options = json_tokener_parse("{\"tasks\":\"2\",\"runs\":1}");
	for (unsigned k = 0; k < 2; k++)
		build_point(f, k);
}

static void same_json(struct json_object *a, struct json_object *b)
{
	const char *x = json_object_to_json_string(a), *y = json_object_to_json_string(b);

	if (strcmp(x, y))
		fail_msg("JSON differs:\n%s\n%s", x, y);
}

static void same_num(double a, double b)
{
	if (isnan(a) || isnan(b))
		assert_true(isnan(a) && isnan(b));
	else
		assert_true(a == b);   /* exact: %.17g round-trips */
}

static void same_samples(const struct res_point *p, const struct res_point *q)
{
	for (unsigned s = 0; s < p->nsamples; s++) {
		assert_int_equal(p->t_ns[s], q->t_ns[s]);
		assert_int_equal(p->phase[s], q->phase[s]);
		same_num(p->idle_pct[s], q->idle_pct[s]);
		same_num(p->iowait_pct[s], q->iowait_pct[s]);
		same_num(p->steal_pct[s], q->steal_pct[s]);
		for (unsigned i = 0; i < 2; i++)
			assert_int_equal(res_ops(p, i, s), res_ops(q, i, s));
	}
}

static void same_aux(const struct res_point *p, const struct res_point *q)
{
	for (unsigned x = 0; x < p->naux; x++) {
		assert_string_equal(p->aux_name[x], q->aux_name[x]);
		assert_string_equal(p->aux_unit[x], q->aux_unit[x]);
		same_num(p->aux_scale[x], q->aux_scale[x]);
		assert_memory_equal(p->aux[x], q->aux[x], 6 * sizeof(uint64_t));
		same_num(p->sum.aux_rate[x], q->sum.aux_rate[x]);
		same_num(p->sum.aux_task_rate[x], q->sum.aux_task_rate[x]);
	}
}

static void same_tasks(const struct res_point *p, const struct res_point *q)
{
	for (unsigned i = 0; i < 2; i++) {
		struct res_task *t = &p->task[i], *u = &q->task[i];

		assert_int_equal(t->pid, u->pid);
		assert_int_equal(t->tid, u->tid);
		assert_string_equal(t->cpuset, u->cpuset);
		assert_int_equal(t->cpu_start, u->cpu_start);
		assert_int_equal(t->cpu_end, u->cpu_end);
		assert_int_equal(t->migrated, u->migrated);
		assert_int_equal(t->ops, u->ops);
		assert_int_equal(t->minflt, u->minflt);
		assert_int_equal(t->majflt, u->majflt);
		assert_int_equal(t->status, u->status);
		for (unsigned x = 0; x < p->naux; x++)
			assert_int_equal(t->aux[x], u->aux[x]);
	}
}

static void same_summary(const struct res_summary *ps,
			 const struct res_summary *qs)
{
	assert_int_equal(ps->ops, qs->ops);
	same_num(ps->elapsed_s, qs->elapsed_s);
	same_num(ps->total_ops_per_sec, qs->total_ops_per_sec);
	same_num(ps->per_task_ops_per_sec, qs->per_task_ops_per_sec);
	same_num(ps->min_task_ops_per_sec, qs->min_task_ops_per_sec);
	same_num(ps->max_task_ops_per_sec, qs->max_task_ops_per_sec);
	same_num(ps->task_cov_pct, qs->task_cov_pct);
	same_num(ps->interval_cov_pct, qs->interval_cov_pct);
	same_num(ps->idle_pct, qs->idle_pct);
	same_num(ps->steal_pct, qs->steal_pct);
	same_num(ps->scalability, qs->scalability);
}

/* Point @q as read back is point @p as written. */
static void same_point(const struct res_point *p, const struct res_point *q)
{
	assert_string_equal(p->test, q->test);
	assert_string_equal(p->mode, q->mode);
	assert_int_equal(p->status, q->status);
	if (p->reason)
		assert_string_equal(p->reason, q->reason);
	else
		assert_null(q->reason);
	assert_int_equal(p->tasks, q->tasks);
	assert_int_equal(p->run, q->run);
	assert_int_equal(p->seq, q->seq);
	assert_int_equal(p->places, q->places);
	assert_int_equal(p->oversubscribed, q->oversubscribed);
	same_num(p->warmup_s, q->warmup_s);
	same_num(p->duration_s, q->duration_s);
	same_num(p->interval_s, q->interval_s);
	same_num(p->sampler_lag_ms, q->sampler_lag_ms);
	assert_int_equal(p->nsamples, q->nsamples);
	same_samples(p, q);
	assert_int_equal(p->naux, q->naux);
	same_aux(p, q);
	same_tasks(p, q);
	same_summary(&p->sum, &q->sum);
	same_json(p->wopts, q->wopts);
	same_json(p->extra, q->extra);
}

static void t_round_trip(void **state)
{
	struct tmp *tm = *state;
	struct res_file a, b;
	char err[512];

	build(&a);
	assert_int_equal(res_write_file(&a, tm->path, err, sizeof(err)), 0);
	assert_int_equal(res_read_file(tm->path, &b, err, sizeof(err)), 0);
	assert_string_equal(b.tool_version, "0.1.0");
	assert_string_equal(b.git, "abc1234");
	assert_true(b.complete);
	assert_null(b.interrupted);
	same_json(a.command_line, b.command_line);
	same_json(a.kernel, b.kernel);
	same_json(a.machine, b.machine);
	same_json(a.environment, b.environment);
	same_json(a.options, b.options);
	assert_int_equal(b.npoints, 2);
	for (unsigned k = 0; k < 2; k++)
		same_point(&a.points[k], &b.points[k]);
	res_file_free(&a);
	res_file_free(&b);
}

static void write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void write_str(const char *path, const char *text)
{
	write_text(path, text, strlen(text));
}

static void expect_error(const char *path, int rc, const char *needle)
{
	struct res_file f;
	char err[512] = "";

	assert_int_equal(res_read_file(path, &f, err, sizeof(err)), rc);
	if (!strstr(err, needle) || !strstr(err, path) || strchr(err, '\n'))
		fail_msg("message '%s' lacks '%s' or the path, or is not one line",
			 err, needle);
}

static void t_bad_input(void **state)
{
	struct tmp *tm = *state;
	struct res_file a;
	struct json_object *j;
	char err[512];
	const char *text;

	build(&a);
	assert_int_equal(res_write_file(&a, tm->path, err, sizeof(err)), 0);
	j = res_to_json(&a);
	text = json_object_to_json_string(j);
	/* truncated anywhere: an error, never a crash or a partial result */
	for (size_t cut = 1; cut < strlen(text); cut += 97) {
		write_text(tm->path, text, cut);
		expect_error(tm->path, -EINVAL, "JSON");
	}
	write_str(tm->path, "{\"hello\": 1}");
	expect_error(tm->path, -EINVAL, "not a cgscale result");
	write_str(tm->path, "[1,2]");
	expect_error(tm->path, -EINVAL, "not a cgscale result");
	write_str(tm->path, "{\"schema_version\": 99, \"tool\": {\"name\": \"cgscale\"}}");
	expect_error(tm->path, -EPROTONOSUPPORT, "newer");
	write_str(tm->path, "{\"schema_version\": 1, \"tool\": {\"name\": \"cgscale\"}, \"points\": [{\"test\": 3}]}");
	expect_error(tm->path, -EINVAL, "points[0]");
	expect_error("/nonexistent/x.json", -ENOENT, "cannot read");
	/* a status outside the names table */
	json_object_object_add(json_object_array_get_idx(
		json_object_object_get(j, "points"), 0), "status",
		json_object_new_string("fine"));
	write_str(tm->path, json_object_to_json_string(j));
	expect_error(tm->path, -EINVAL, "'status' is 'fine', not one of ok, failed");
	json_object_put(j);
	res_file_free(&a);
}

/* The status names table and its parser agree, both ways. */
static void t_status_names(void **state)
{
	(void)state;
	assert_null(res_status_names[RES_NONE]);
	for (int i = RES_NONE + 1; i < RES_NSTATUS; i++) {
		assert_non_null(res_status_names[i]);
		assert_int_equal(res_status_parse(res_status_names[i]), i);
	}
	assert_string_equal(res_status_names[RES_OK], "ok");
	assert_string_equal(res_status_names[RES_FAILED], "failed");
	assert_string_equal(res_status_names[RES_SKIPPED], "skipped");
	assert_int_equal(res_status_parse("OK"), -EINVAL);
	assert_int_equal(res_status_parse(NULL), -EINVAL);
}

static void t_atomic_write(void **state)
{
	struct tmp *tm = *state;
	struct res_file a;
	char err[512], bad[256];

	build(&a);
	snprintf(bad, sizeof(bad), "%s/missing/r.json", tm->dir);
	assert_int_equal(res_write_file(&a, bad, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "missing"));
	assert_int_equal(res_write_file(&a, tm->path, err, sizeof(err)), 0);
	/* nothing but the result is left in the directory */
	snprintf(bad, sizeof(bad), "test $(ls -A %s | wc -l) = 1", tm->dir);
	assert_int_equal(system(bad), 0);
	res_file_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_round_trip, mk, rm),
		cmocka_unit_test_setup_teardown(t_bad_input, mk, rm),
		cmocka_unit_test_setup_teardown(t_atomic_write, mk, rm),
		cmocka_unit_test(t_status_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
