/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_skeletons.c - the skeletons in docs/skeletons/ (a workload, an
 * observer, a subcommand) build, pass the start-up checks the real
 * records pass, and work: the skeleton workload and observer run a real
 * point together (ops counted, the observer's section written with the
 * window's samples), and the skeleton command parses its options, prints
 * its --help and refuses a bad option with exit 2. docs/extending.md
 * points at them instead of repeating code, so they cannot drift.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "lib/json.h"

#include "lib/macros.h"
#include "lib/opt.h"
#include "runner/cmd/cmd.h"
#include "runner/core/sampler_cpu.h"
#include "runner/observe/observer.h"
#include "runner/point/point.h"
#include "runner/run/run.h"

extern const struct cgs_workload skeleton_workload;
extern const struct cgs_obs_def skeleton_observer;
extern const struct cgs_command cgs_cmd_skeleton;

/* @defs' defaults into a new struct of @size (freed by the caller). */
static void *defaults(const struct cgs_opt *defs, size_t n, size_t size)
{
	void *base = test_calloc(1, size);
	struct cgs_optset set = { "t", defs, n, base };
	char err[256];

	assert_int_equal(cgs_opt_defaults(&set, err, sizeof(err)), 0);
	return base;
}

/* Each passes its start-up check, the observer beside the real ones
 * and the run's options (no name or letter taken twice). */
static void test_checks(void **state)
{
	const struct cgs_obs_def *list[CGS_MAX_OBS];
	char err[256];

	(void)state;
	assert_int_equal(cgs_workload_check(&skeleton_workload, err, sizeof(err)), 0);
	assert_true(cgs_nobservers < CGS_MAX_OBS);
	for (size_t i = 0; i < cgs_nobservers; i++)
		list[i] = cgs_observers[i];
	list[cgs_nobservers] = &skeleton_observer;
	assert_int_equal(cgs_obs_check(list, cgs_nobservers + 1, cgs_run_optdefs, cgs_run_noptdefs,
				       err, sizeof(err)), 0);
}

/* The observer's declared section: what the run writes into the result
 * file, and its metric as compare reads it from point @p. */
static void declared_metric_read(const struct cgs_obs_run *or, const struct res_point *p)
{
	struct json_object *decls = cgs_obs_sections_json(or), *sec, *m;
	struct res_metric_decl d;
	char why[160];

	assert_non_null(decls);
	assert_true(json_object_object_get_ex(decls, "skeleton", &sec));
	assert_true(json_object_object_get_ex(sec, "metrics", &m));
	assert_int_equal(res_metric_decl_parse(json_object_array_get_idx(m, 0), "skeleton",
					       &d, why, sizeof(why)), 0);
	assert_true(cgs_jpath_num(p->extra, d.path) >= 2);
	json_object_put(decls);
}

/* A real point of one thread: skeleton counted, the observer saw it. */
static void test_point(void **state)
{
	static const struct cgs_obs_def *const list[] = { &skeleton_observer };
	struct cgs_run_opts o = { 0 };
	struct cgs_topo topo;
	struct cgs_places places = { 0 };
	struct cgs_obs_env env = { .o = &o, .topo = &topo, .places = &places };
	struct cgs_obs_run or;
	struct cgs_obs_live live = { .n = 0 };
	void *wopts = defaults(skeleton_workload.opts, skeleton_workload.nopts,
			       skeleton_workload.opts_size);
	struct cgs_obs_point pt = { .w = &skeleton_workload, .wopts = wopts, .threads = true,
				    .ntasks = 1 };
	struct res_point p = { 0 };
	struct json_object *sec, *v;
	struct cgs_optset oset;
	char err[256];
	int signo = 0;

	(void)state;
	assert_int_equal(cgs_topo_load(&topo, NULL), 0);
	assert_int_equal(cgs_obs_run_init(&or, list, 1, &env), 0);
	oset = (struct cgs_optset){ "t", skeleton_observer.opts, skeleton_observer.nopts, or.opts[0] };
	assert_int_equal(cgs_opt_defaults(&oset, err, sizeof(err)), 0);
	assert_int_equal(cgs_obs_run_check(&or, err, sizeof(err)), 0);
	assert_int_equal(cgs_obs_point_begin(&or, &pt, NULL, &live), 0);
	assert_int_equal(live.n, 1);          /* wanted at the default level */

	struct cgs_point_spec spec = {
		.w = &skeleton_workload, .wopts = wopts, .tmpdir = "/tmp", .threads = true,
		.ntasks = 1, .topo = &topo, .places = &places, .warmup_ns = 20000000,
		.duration_ns = 60000000, .interval_ns = 20000000,
		.ready_timeout_ns = 10000000000LL, .stop_timeout_ns = 10000000000LL,
		.sigfd = -1, .obs = live.obs, .nobs = live.n, .sampler_cpu = CGS_SCPU_NONE,
	};
	p.tasks = 1;
	assert_int_equal(cgs_point_run(&spec, &p, &signo), 0);
	cgs_obs_point_end(&live);
	assert_int_equal(p.status, RES_OK);
	assert_true(p.sum.ops > 0);
	assert_true(json_object_object_get_ex(p.extra, "skeleton", &sec));
	assert_true(json_object_object_get_ex(sec, "samples", &v));
	assert_true(json_object_get_int(v) >= 2);
	assert_true(json_object_object_get_ex(sec, "level", &v));
	assert_int_equal(json_object_get_int(v), 1);
	declared_metric_read(&or, &p);
	res_point_free(&p);
	cgs_obs_run_free(&or);
	cgs_topo_free(&topo);
	test_free(wopts);
}

static int never_here(const void *opts, char *why, size_t len)
{
	(void)opts;
	snprintf(why, len, "not on this test's box");
	return -EOPNOTSUPP;
}

/* A workload whose supported hook says no: its point is SKIPPED with
 * the reason, and none of its hooks run. */
static void test_unsupported(void **state)
{
	struct cgs_workload w = skeleton_workload;
	struct cgs_topo topo;
	struct cgs_places places = { 0 };
	void *wopts = defaults(skeleton_workload.opts, skeleton_workload.nopts,
			       skeleton_workload.opts_size);
	struct res_point p = { .tasks = 1 };
	char why[64];
	int signo = 0;

	(void)state;
	w.supported = never_here;
	assert_int_equal(cgs_workload_supported(&skeleton_workload, wopts, why, sizeof(why)), 0);
	assert_int_equal(cgs_workload_supported(&w, NULL, why, sizeof(why)), -EOPNOTSUPP);
	assert_string_equal(why, "not on this test's box");
	assert_int_equal(cgs_topo_load(&topo, NULL), 0);
	struct cgs_point_spec spec = {
		.w = &w, .wopts = wopts, .tmpdir = "/tmp", .threads = true, .ntasks = 1,
		.topo = &topo, .places = &places, .warmup_ns = 20000000, .duration_ns = 60000000,
		.interval_ns = 20000000, .ready_timeout_ns = 10000000000LL,
		.stop_timeout_ns = 10000000000LL, .sigfd = -1, .sampler_cpu = CGS_SCPU_NONE,
	};
	assert_int_equal(cgs_point_run(&spec, &p, &signo), 0);
	assert_int_equal(p.status, RES_SKIPPED);
	assert_string_equal(p.reason, "not supported here: not on this test's box");
	assert_int_equal(p.sum.ops, 0);
	res_point_free(&p);
	cgs_topo_free(&topo);
	test_free(wopts);
}

/* Run the command with @args into @out (stdout), its exit status. */
static int run_cmd(char **args, int n, char *out, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(1), rc;
	size_t got;

	assert_non_null(f);
	fflush(stdout);
	dup2(fileno(f), 1);
	rc = cgs_cmd_skeleton.fn(&cgs_cmd_skeleton, n, args);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	got = fread(out, 1, len - 1, f);
	out[got] = 0;
	fclose(f);
	return rc;
}

static void test_command(void **state)
{
	char *plain[] = { "skeleton", NULL }, *loud[] = { "skeleton", "-l", "-n", "you", NULL };
	char *help[] = { "skeleton", "--help", NULL }, *bad[] = { "skeleton", "--nope", NULL };
	char out[4096];

	(void)state;
	assert_int_equal(run_cmd(plain, 1, out, sizeof(out)), 0);
	assert_string_equal(out, "hello, world\n");
	assert_int_equal(run_cmd(loud, 4, out, sizeof(out)), 0);
	assert_string_equal(out, "HELLO, you\n");
	assert_int_equal(run_cmd(help, 2, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "usage: cgscale skeleton"));
	assert_non_null(strstr(out, "--name"));
	assert_int_equal(run_cmd(bad, 2, out, sizeof(out)), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_point),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
