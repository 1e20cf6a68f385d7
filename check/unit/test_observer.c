/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_observer.c - the observer registry (runner/observe/observer.h)
 * with a list of the test's own: a toy observer sees its hooks called in
 * order around a real short point of a toy workload; a point gets the
 * observers wanted or named by its workload, those before_cgroup before
 * the cgroup observer; observers' option rows go where opts_after says;
 * the start-up check refuses a bad record and passes the real list.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "lib/macros.h"
#include "runner/core/sampler_cpu.h"
#include "runner/observe/observer.h"
#include "runner/point/point.h"
#include "runner/run/run.h"

/* What the toy saw, in order: one letter a hook. */
struct log {
	char seen[4096];
	size_t n;
	unsigned ntasks;              /* as new saw the point */
	unsigned samples, windows;    /* samples seen; window_start flags */
};

static void said(struct log *l, char c)
{
	if (l->n + 1 < sizeof(l->seen))
		l->seen[l->n++] = c;
}

static int toy_check(struct cgs_obs_ctx *ctx, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	said(ctx->state, 'c');
	return 0;
}

static bool toy_wanted(const struct cgs_obs_ctx *ctx)
{
	(void)ctx;
	return true;
}

static bool toy_unwanted(const struct cgs_obs_ctx *ctx)
{
	(void)ctx;
	return false;
}

static int toy_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		   void **priv)
{
	struct log *l = ctx->state;

	if (l) {
		said(l, 'n');
		l->ntasks = pt->ntasks;
	}
	*priv = l;
	return 0;
}

static void toy_free(void *priv)
{
	if (priv)
		said(priv, 'f');
}

static int toy_ready(void *priv, unsigned ntasks, const int *pid, const int *tid,
		     char *msg, size_t len)
{
	(void)msg;
	(void)len;
	assert_int_equal(ntasks, 1);
	assert_true(pid[0] > 0 && tid[0] > 0);
	said(priv, 'r');
	return 0;
}

static void toy_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
		       bool window_start)
{
	struct log *l = priv;

	(void)t_ns;
	(void)ph;
	assert_int_equal(s, l->samples);
	l->samples++;
	l->windows += window_start;
	said(l, 's');
}

static void toy_window_end(void *priv, unsigned s, int64_t t_ns, enum res_phase ph)
{
	(void)s;
	(void)t_ns;
	assert_int_equal(ph, RES_PHASE_MEASURE);
	said(priv, 'e');
}

static void toy_write(void *priv, struct res_point *p)
{
	if (!p->extra)
		p->extra = json_object_new_object();
	json_object_object_add(p->extra, "toy", json_object_new_int(1));
	said(priv, 'w');
}

struct toy_opts {
	int64_t level;
};

static const struct cgs_opt toy_optdefs[] = {
	OPT_INT("toy-level", 0, struct toy_opts, level, .def = "1", .min = 0,
		.max = 9,
		.help = "how much the toy watches"),
};

static const struct cgs_obs_def toy_observer = {
	.name = "toy",
	.opts = toy_optdefs,
	.nopts = ARRAY_SIZE(toy_optdefs),
	.opts_size = sizeof(struct toy_opts),
	.check = toy_check,
	.wanted = toy_wanted,
	.new = toy_new,
	.free = toy_free,
	.ready = toy_ready,
	.sample = toy_sample,
	.window_end = toy_window_end,
	.write = toy_write,
};

/* The test's own list: one observer. */
static const struct cgs_obs_def *const toy_list[] = { &toy_observer };

static int spin_loop(struct cgs_task *t)
{
	while (!cgs_stop(t))
		cgs_add(t, 1);
	return 0;
}

static const struct cgs_workload toy_workload = {
	.name = "toy", .desc = "count", .unit = "op", .loop = spin_loop,
};

/* A real point of one thread: the hooks come in order, once each but
 * sample, and the section is written. */
static void test_hooks_in_order(void **state)
{
	struct cgs_run_opts o = { 0 };
	struct cgs_topo topo;
	struct cgs_places places = { 0 };
	struct cgs_obs_env env = { .o = &o, .topo = &topo, .places = &places };
	struct cgs_obs_run or;
	struct cgs_obs_live live = { .n = 0 };
	struct cgs_obs_point pt = { .w = &toy_workload, .threads = true, .ntasks = 1 };
	struct res_point p = { 0 };
	struct log l = { .n = 0 };
	char err[256], want[4096];
	int signo = 0;

	(void)state;
	assert_int_equal(cgs_topo_load(&topo, NULL), 0);
	assert_int_equal(cgs_obs_run_init(&or, toy_list, ARRAY_SIZE(toy_list), &env), 0);
	or.ctx[0].state = &l;
	assert_int_equal(cgs_obs_run_check(&or, err, sizeof(err)), 0);
	assert_int_equal(cgs_obs_point_begin(&or, &pt, NULL, &live), 0);
	assert_int_equal(live.n, 1);
	assert_string_equal(live.obs[0].name, "toy");

	struct cgs_point_spec spec = {
		.w = &toy_workload, .tmpdir = "/tmp", .threads = true, .ntasks = 1,
		.topo = &topo, .places = &places, .warmup_ns = 20000000,
		.duration_ns = 60000000, .interval_ns = 20000000,
		.ready_timeout_ns = 10000000000LL, .stop_timeout_ns = 10000000000LL,
		.sigfd = -1, .obs = live.obs, .nobs = live.n,
		.sampler_cpu = CGS_SCPU_NONE,
	};
	p.tasks = 1;
	assert_int_equal(cgs_point_run(&spec, &p, &signo), 0);
	cgs_obs_point_end(&live);
	assert_int_equal(p.status, RES_OK);
	assert_true(p.nsamples >= 2);
	assert_int_equal(l.samples, p.nsamples);
	assert_int_equal(l.windows, 1);
	assert_int_equal(l.ntasks, 1);
	/* check, new, ready, a sample each, window_end, write, free */
	snprintf(want, sizeof(want), "cnr%.*sewf", (int)l.samples,
		 "ssssssssssssssssssssssssssssssssssssssss");
	l.seen[l.n] = 0;
	assert_string_equal(l.seen, want);
	assert_non_null(json_object_object_get(p.extra, "toy"));
	res_point_free(&p);
	cgs_obs_run_free(&or);
	cgs_topo_free(&topo);
}

static const struct cgs_obs_def early = { .name = "early", .before_cgroup = true,
	.wanted = toy_wanted, .new = toy_new, .free = toy_free, .write = toy_write };
static const struct cgs_obs_def off = { .name = "off", .wanted = toy_unwanted,
	.new = toy_new, .free = toy_free, .write = toy_write };
static const struct cgs_obs_def named = { .name = "named",
	.new = toy_new, .free = toy_free, .write = toy_write };
static const struct cgs_obs_def late = { .name = "late", .wanted = toy_wanted,
	.opts = toy_optdefs, .nopts = 1, .opts_size = sizeof(struct toy_opts),
	.opts_after = "tasks",
	.new = toy_new, .free = toy_free, .write = toy_write };

/* A point gets the wanted observers and the one its workload names, in
 * list order, the early one before the cgroup observer. */
static void test_point_order(void **state)
{
	static const struct cgs_obs_def *const list[] = { &late, &off, &named, &early };
	static const struct cgs_workload namer = {
		.name = "namer", .desc = "d", .unit = "op", .loop = spin_loop,
		.observer = "named",
	};
	struct cgs_obs_env env = { 0 };
	struct cgs_obs_run or;
	struct cgs_obs_live live;
	struct cgs_observer cg = { .name = "cgroup" };
	struct cgs_obs_point pt = { .w = &namer, .ntasks = 1 };
	const char *const order[] = { "early", "cgroup", "late", "named" };

	(void)state;
	assert_int_equal(cgs_obs_run_init(&or, list, ARRAY_SIZE(list), &env), 0);
	assert_int_equal(cgs_obs_point_begin(&or, &pt, &cg, &live), 0);
	assert_int_equal(live.n, ARRAY_SIZE(order));
	for (unsigned i = 0; i < live.n; i++)
		assert_string_equal(live.obs[i].name, order[i]);
	assert_null(live.def[1]);
	cgs_obs_point_end(&live);
	/* without the name, the workload gets only the wanted ones */
	pt.w = &toy_workload;
	assert_int_equal(cgs_obs_point_begin(&or, &pt, NULL, &live), 0);
	assert_int_equal(live.n, 2);
	assert_string_equal(live.obs[0].name, "early");
	assert_string_equal(live.obs[1].name, "late");
	cgs_obs_point_end(&live);
	cgs_obs_run_free(&or);
}

/* Option rows are placed after the run option they name, else last. */
static void test_optsets(void **state)
{
	static const struct cgs_obs_def *const list[] = { &toy_observer, &late };
	struct cgs_obs_env env = { 0 };
	struct cgs_obs_run or;
	struct cgs_optset sets[4];

	(void)state;
	assert_int_equal(cgs_obs_run_init(&or, list, ARRAY_SIZE(list), &env), 0);
	assert_int_equal(cgs_obs_optsets(&or, "tasks", sets), 1);
	assert_ptr_equal(sets[0].base, or.opts[1]);
	assert_int_equal(cgs_obs_optsets(&or, NULL, sets), 1);
	assert_ptr_equal(sets[0].opts, toy_optdefs);
	assert_ptr_equal(sets[0].base, or.opts[0]);
	assert_null(sets[0].title);
	assert_int_equal(cgs_obs_optsets(&or, "mode", sets), 0);
	cgs_obs_run_free(&or);
}

/* A struct for the rows of the tables below, which are only checked. */
struct toy_row_opts {
	char *s;
	int64_t n;
};

static void check_bad(const struct cgs_obs_def *const *list, size_t n,
		      const char *want)
{
	static const struct cgs_opt run[] = {
		OPT_STRING("tasks", 't', struct toy_row_opts, s, .def = "1",
			   .metavar = "LIST", .help = "task counts"),
	};
	char err[256] = "";

	assert_int_equal(cgs_obs_check(list, n, run, ARRAY_SIZE(run), err, sizeof(err)),
			 -EINVAL);
	if (!strstr(err, want))
		fail_msg("'%s' does not say '%s'", err, want);
}

/* The start-up check refuses each kind of bad record. */
static void test_check_rejects(void **state)
{
	static const struct cgs_opt clash_run[] = {
		OPT_INT("tasks", 0, struct toy_row_opts, n, .def = "1", .min = 0,
			.max = 9, .help = "clashes with run's"),
	};
	static const struct cgs_opt clash_letter[] = {
		OPT_INT("toy-t", 't', struct toy_row_opts, n, .def = "1", .min = 0,
			.max = 9, .help = "clashes with -t"),
	};
	static const struct cgs_obs_def noname = { .new = toy_new, .free = toy_free,
						   .write = toy_write };
	static const struct cgs_obs_def nowrite = { .name = "nowrite", .new = toy_new,
						    .free = toy_free };
	static const struct cgs_obs_def nonew = { .name = "nonew", .free = toy_free,
						  .write = toy_write };
	static const struct cgs_obs_def bad_run = { .name = "a", .opts = clash_run,
		.nopts = 1, .opts_size = 8, .new = toy_new, .free = toy_free,
		.write = toy_write };
	static const struct cgs_obs_def bad_letter = { .name = "b", .opts = clash_letter,
		.nopts = 1, .opts_size = 8, .new = toy_new, .free = toy_free,
		.write = toy_write };
	static const struct cgs_obs_def nosize = { .name = "c", .opts = toy_optdefs,
		.nopts = 1, .new = toy_new, .free = toy_free, .write = toy_write };
	static const struct cgs_obs_def badafter = { .name = "d", .opts = toy_optdefs,
		.nopts = 1, .opts_size = 8, .opts_after = "nosuch", .new = toy_new,
		.free = toy_free, .write = toy_write };
	const struct cgs_obs_def *l[2];

	(void)state;
	l[0] = &noname;
	check_bad(l, 1, "has no name");
	l[0] = &nowrite;
	check_bad(l, 1, "lacks a new, free or write hook");
	l[0] = &nonew;
	check_bad(l, 1, "lacks a new, free or write hook");
	l[0] = &toy_observer;
	l[1] = &toy_observer;
	check_bad(l, 2, "'toy' is listed twice");
	l[1] = &late;   /* both have --toy-level */
	check_bad(l, 2, "observer 'late': --toy-level clashes");
	l[0] = &bad_run;
	check_bad(l, 1, "--tasks clashes");
	l[0] = &bad_letter;
	check_bad(l, 1, "--toy-t clashes");
	l[0] = &nosize;
	check_bad(l, 1, "options table and size disagree");
	l[0] = &badafter;
	check_bad(l, 1, "opts_after --nosuch is no run option");
	l[0] = &toy_observer;
	assert_int_equal(cgs_obs_check(l, 1, NULL, 0, NULL, 0), 0);
}

/* The runner's own list passes, and run's check with it. */
static void test_real_list(void **state)
{
	char err[256] = "";

	(void)state;
	assert_true(cgs_nobservers >= 1 && cgs_nobservers <= CGS_MAX_OBS);
	assert_int_equal(cgs_obs_check(cgs_observers, cgs_nobservers, cgs_run_optdefs,
				       cgs_run_noptdefs, err, sizeof(err)), 0);
	assert_int_equal(cgs_run_check_registry(err, sizeof(err)), 0);
	assert_non_null(cgs_obs_find(cgs_observers, cgs_nobservers, "vmstat"));
	assert_null(cgs_obs_find(cgs_observers, cgs_nobservers, "nosuch"));
	/* every workload that names an observer names a listed one */
	for (size_t i = 0; i < cgs_nworkloads; i++)
		if (cgs_workloads[i]->observer)
			assert_non_null(cgs_obs_find(cgs_observers, cgs_nobservers,
						     cgs_workloads[i]->observer));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hooks_in_order),
		cmocka_unit_test(test_point_order),
		cmocka_unit_test(test_optsets),
		cmocka_unit_test(test_check_rejects),
		cmocka_unit_test(test_real_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
