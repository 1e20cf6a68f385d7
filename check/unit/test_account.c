/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_account.c - the account of an op's time (runner/observe/account.h)
 * on fixed readings: the schedstat parser, one task's four parts adding
 * up to the window exactly, the user/sys split by the ticks' ratio (and
 * by all tasks' ratio for a task without a tick of its own), the figures
 * per op over all tasks (wall = tasks x window / ops, which is 1e9 / the
 * per-task ops/s), the spreads across tasks, and the JSON keys that
 * compare's metrics read.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "lib/procstat.h"
#include "runner/observe/account.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6 * (1 + fabs((double)(b))))

static void t_schedstat_parse(void **state)
{
	uint64_t run, wait;

	(void)state;
	assert_int_equal(cgs_schedstat_parse("255206 2077719 2\n", &run, &wait), 0);
	assert_true(run == 255206 && wait == 2077719);
	assert_int_equal(cgs_schedstat_parse("12 34", &run, &wait), 0);
	assert_true(run == 12 && wait == 34);
	assert_int_equal(cgs_schedstat_parse("", &run, &wait), -EINVAL);
	assert_int_equal(cgs_schedstat_parse("x y z", &run, &wait), -EINVAL);
}

/* /proc/PID/task/TID/sched's sleep time, under each kernel's name */
static void t_procsched_sleep(void **state)
{
	uint64_t ns = 0;

	(void)state;
	assert_int_equal(cgs_procsched_sleep("cc1 (42, #threads: 1)\n---\n"
		"se.exec_start                                :      12659222.594958\n"
		"sum_sleep_runtime                            :          1234.500001\n"
		"sum_block_runtime                            :            10.000000\n", &ns), 0);
	assert_true(ns == 1234500001ULL);
	assert_int_equal(cgs_procsched_sleep("se.statistics.sum_sleep_runtime : 0.000042\n", &ns), 0);
	assert_true(ns == 42);
	assert_int_equal(cgs_procsched_sleep("stats.sum_sleep_runtime : 7.000000\n", &ns), 0);
	assert_true(ns == 7000000);
	/* no schedstats: none of it; a look-alike name is not it */
	assert_int_equal(cgs_procsched_sleep("se.sum_exec_runtime : 2.519684\n"
		"sum_sleep_runtime_x : 1.000000\n", &ns), -ENOENT);
	assert_int_equal(cgs_procsched_sleep("sum_sleep_runtime : x\n", &ns), -EINVAL);
}

/* A task that ran 600 ms (3 user ticks for 1 sys), waited 300 ms on a
 * run queue, in a 1 s window, doing 1000 ops. */
static const struct cgs_acct_task one = {
	.ops = 1000,
	.at = { { .run_ns = 5000000, .wait_ns = 7000000, .utime = 10, .stime = 20 },
		{ .run_ns = 605000000, .wait_ns = 307000000, .utime = 55, .stime = 35 } },
};

static void t_task_parts(void **state)
{
	double part[CGS_ACCT_NPART], sum = 0;

	(void)state;
	assert_true(cgs_acct_task_parts(&one, 1e9, 0.5, part));
	NEAR(part[CGS_ACCT_USER], 450e6);      /* 45 of 60 ticks */
	NEAR(part[CGS_ACCT_SYS], 150e6);
	NEAR(part[CGS_ACCT_RUNQ], 300e6);
	NEAR(part[CGS_ACCT_BLOCKED], 100e6);
	for (int k = 0; k < CGS_ACCT_NPART; k++)
		sum += part[k];
	NEAR(sum, 1e9);                        /* the window, exactly */
}

static void t_calc_one(void **state)
{
	struct cgs_acct a;
	double sum = 0;

	(void)state;
	cgs_acct_calc(&one, 1, 1e9, &a);
	assert_int_equal(a.ntasks, 1);
	assert_true(a.ops == 1000);
	NEAR(a.wall_ns_per_op, 1e6);           /* 1 s / 1000 ops */
	NEAR(a.part_ns_per_op[CGS_ACCT_USER], 450e3);
	NEAR(a.part_ns_per_op[CGS_ACCT_SYS], 150e3);
	NEAR(a.part_ns_per_op[CGS_ACCT_RUNQ], 300e3);
	NEAR(a.part_ns_per_op[CGS_ACCT_BLOCKED], 100e3);
	for (int k = 0; k < CGS_ACCT_NPART; k++)
		sum += a.part_ns_per_op[k];
	NEAR(sum, a.wall_ns_per_op);
	NEAR(a.on_cpu_pct, 60);
	assert_int_equal(a.unsplit, 0);
	assert_int_equal(a.wall.n, 1);
	assert_true(isnan(a.wall.sd));          /* one task: no spread */
}

/* Two tasks: one with ticks (1 user : 3 sys), one that ran without a
 * tick of its own (split as all tasks together: 1:3), at different
 * rates. */
static void t_calc_two(void **state)
{
	struct cgs_acct_task t[2] = {
		{ .ops = 400, .at = { { 0, 0, 0, 0 }, { 800, 100, 1, 3 } } },
		{ .ops = 100, .at = { { 50, 50, 7, 7 }, { 250, 350, 7, 7 } } },
	};
	struct cgs_acct a;
	double sum = 0;

	(void)state;
	cgs_acct_calc(t, 2, 1000, &a);
	assert_int_equal(a.unsplit, 1);
	assert_true(a.ops == 500);
	/* all time over all ops: 2 x 1000 ns / 500 ops */
	NEAR(a.wall_ns_per_op, 4);
	/* user: 800/4 + 200/4 = 250 ns; sys 750; runq 100 + 300; blocked
	 * 100 + 500 */
	NEAR(a.part_ns_per_op[CGS_ACCT_USER], 250.0 / 500);
	NEAR(a.part_ns_per_op[CGS_ACCT_SYS], 750.0 / 500);
	NEAR(a.part_ns_per_op[CGS_ACCT_RUNQ], 400.0 / 500);
	NEAR(a.part_ns_per_op[CGS_ACCT_BLOCKED], 600.0 / 500);
	for (int k = 0; k < CGS_ACCT_NPART; k++)
		sum += a.part_ns_per_op[k];
	NEAR(sum, a.wall_ns_per_op);
	/* per task: wall 2.5 and 10 ns/op */
	assert_int_equal(a.wall.n, 2);
	NEAR(a.wall.mean, 6.25);
	NEAR(a.wall.min, 2.5);
	NEAR(a.wall.max, 10);
	NEAR(a.wall.sd, sqrt(2 * 3.75 * 3.75));
	NEAR(a.part[CGS_ACCT_RUNQ].min, 0.25);  /* 100 / 400 */
	assert_true(isnan(a.sleep_ns_per_op));    /* not read */
	t[0].sleep = t[1].sleep = true;
	t[0].at[1].sleep_ns = 90;
	t[1].at[0].sleep_ns = 10;
	t[1].at[1].sleep_ns = 510;
	cgs_acct_calc(t, 2, 1000, &a);
	NEAR(a.sleep_ns_per_op, 590.0 / 500);     /* beside the remainder's 600 */
	t[1].sleep = false;                        /* one task unread: none */
	cgs_acct_calc(t, 2, 1000, &a);
	assert_true(isnan(a.sleep_ns_per_op));
	NEAR(a.part[CGS_ACCT_RUNQ].max, 3);     /* 300 / 100 */
	NEAR(a.on_cpu_pct, 50);
}

/* A task without ops counts in the times, not in the spreads; a counter
 * that went back (a reused task) counts 0. */
static void t_calc_edge(void **state)
{
	struct cgs_acct_task t[2] = {
		{ .ops = 0, .at = { { 0, 0, 0, 0 }, { 100, 0, 0, 1 } } },
		{ .ops = 10, .at = { { 500, 500, 5, 5 }, { 400, 600, 5, 6 } } },
	};
	struct cgs_acct a;

	(void)state;
	cgs_acct_calc(t, 2, 1000, &a);
	assert_int_equal(a.wall.n, 1);
	NEAR(a.part_ns_per_op[CGS_ACCT_SYS], 100.0 / 10);
	NEAR(a.part_ns_per_op[CGS_ACCT_RUNQ], 100.0 / 10);
	NEAR(a.wall_ns_per_op, 200);
	cgs_acct_calc(t, 0, 1000, &a);
	assert_true(isnan(a.wall_ns_per_op) && isnan(a.part_ns_per_op[0]));
}

static double jget(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x = NULL;

	if (!json_object_object_get_ex(o, a, &x))
		return NAN;
	if (b && !json_object_object_get_ex(x, b, &x))
		return NAN;
	return json_object_get_double(x);
}

static void t_json(void **state)
{
	struct json_object *o = json_object_new_object(), *sp = NULL;
	struct cgs_acct a;

	(void)state;
	cgs_acct_calc(&one, 1, 1e9, &a);
	cgs_acct_json(&a, o);
	NEAR(jget(o, "wall_ns_per_op", NULL), 1e6);
	NEAR(jget(o, "user_ns_per_op", NULL), 450e3);
	NEAR(jget(o, "sys_ns_per_op", NULL), 150e3);
	NEAR(jget(o, "runq_ns_per_op", NULL), 300e3);
	NEAR(jget(o, "blocked_ns_per_op", NULL), 100e3);
	NEAR(jget(o, "elapsed_s", NULL), 1);
	assert_true(json_object_object_get_ex(o, "task_spread", &sp));
	NEAR(jget(sp, "user_ns_per_op", "mean"), 450e3);
	json_object_put(o);
}

/* A config object with @n options, as lib/kconfig.h records them. */
static struct json_object *kc(const char *const *kv, size_t n)
{
	struct json_object *o = json_object_new_object(), *opt = json_object_new_object();

	for (size_t i = 0; i + 1 < n; i += 2)
		json_object_object_add(opt, kv[i], json_object_new_string(kv[i + 1]));
	json_object_object_add(o, "options", opt);
	return o;
}

static void t_clock(void **state)
{
	static const char *const tick[] = { "CONFIG_TICK_CPU_ACCOUNTING", "y", "CONFIG_HZ", "250" };
	static const char *const gen[] = { "CONFIG_VIRT_CPU_ACCOUNTING_GEN", "y", "CONFIG_HZ", "1000" };
	static const char *const native[] = { "CONFIG_VIRT_CPU_ACCOUNTING_NATIVE", "y", "CONFIG_HZ", "100" };
	struct json_object *o;
	struct cgs_acct_clock c;

	(void)state;
	o = kc(tick, 4);
	cgs_acct_clock_of(o, &c);
	assert_string_equal(c.by, "ticks");
	assert_non_null(strstr(c.config, "CONFIG_TICK_CPU_ACCOUNTING=y, CONFIG_HZ=250"));
	NEAR(c.hz, 250);
	json_object_put(o);
	o = kc(gen, 4);
	cgs_acct_clock_of(o, &c);
	assert_string_equal(c.by, "ticks");
	assert_non_null(strstr(c.config, "nohz_full"));
	NEAR(c.hz, 1000);
	json_object_put(o);
	o = kc(native, 4);
	cgs_acct_clock_of(o, &c);
	assert_string_equal(c.by, "exact");
	json_object_put(o);
	cgs_acct_clock_of(NULL, &c);
	assert_string_equal(c.by, "unknown");
	assert_true(isnan(c.hz));
}

/* The split's sampling error: a share p of n ticks is p +- sqrt(p(1-p)/n)
 * of the CPU time per op. One task, 1000 ops of 450 us user and 150 us
 * sys: 0.6 s of CPU = 150 ticks at 250 Hz, p = 0.75. */
static void t_split(void **state)
{
	static const char *const tick[] = { "CONFIG_TICK_CPU_ACCOUNTING", "y", "CONFIG_HZ", "250" };
	static const char *const native[] = { "CONFIG_VIRT_CPU_ACCOUNTING_NATIVE", "y", "CONFIG_HZ", "250" };
	struct json_object *k = kc(tick, 4), *o;
	struct cgs_acct_clock c;
	struct cgs_acct a;

	(void)state;
	cgs_acct_calc(&one, 1, 1e9, &a);
	cgs_acct_clock_of(k, &c);
	o = cgs_acct_split_json(&a, &c);
	NEAR(jget(o, "ticks", NULL), 150);
	NEAR(jget(o, "user_se_ns_per_op", NULL), 600e3 * sqrt(0.75 * 0.25 / 150));
	json_object_put(o);
	json_object_put(k);
	/* exact accounting: no sampling error */
	k = kc(native, 4);
	cgs_acct_clock_of(k, &c);
	o = cgs_acct_split_json(&a, &c);
	NEAR(jget(o, "user_se_ns_per_op", NULL), 0);
	json_object_put(o);
	json_object_put(k);
	/* no HZ known: no error figure, never a made-up one */
	cgs_acct_clock_of(NULL, &c);
	o = cgs_acct_split_json(&a, &c);
	{
		struct json_object *v = (struct json_object *)1;

		assert_true(json_object_object_get_ex(o, "user_se_ns_per_op", &v));
		assert_null(v);
	}
	json_object_put(o);
}

/* Blocked is the remainder floored at 0, with the remainder and a bound
 * of 2 ticks per task over the ops; a note beyond the bound. */
static void t_blocked(void **state)
{
	static const char *const tick[] = { "CONFIG_TICK_CPU_ACCOUNTING", "y", "CONFIG_HZ", "250" };
	struct json_object *k = kc(tick, 4), *o = json_object_new_object(), *v;
	struct cgs_acct_clock c;
	struct cgs_acct a = { .ntasks = 2, .ops = 1000, .sleep_ns_per_op = NAN };
	const char *src;

	(void)state;
	cgs_acct_clock_of(k, &c);
	c.schedstats = -1;
	a.part_ns_per_op[CGS_ACCT_BLOCKED] = -5000;    /* within 2 x 4 ms x 2 / 1000 */
	cgs_acct_blocked_json(&a, &c, o);
	NEAR(jget(o, "blocked_ns_per_op", NULL), 0);
	NEAR(jget(o, "blocked_remainder_ns_per_op", NULL), -5000);
	NEAR(jget(o, "blocked_bound_ns_per_op", NULL), 2 * 4e6 * 2 / 1000);
	assert_false(json_object_object_get_ex(o, "blocked_note", &v));
	a.part_ns_per_op[CGS_ACCT_BLOCKED] = -20000;   /* beyond it: said */
	cgs_acct_blocked_json(&a, &c, o);
	NEAR(jget(o, "blocked_ns_per_op", NULL), 0);
	assert_true(json_object_object_get_ex(o, "blocked_note", &v));
	json_object_put(o);
	o = json_object_new_object();
	a.part_ns_per_op[CGS_ACCT_BLOCKED] = 700;      /* a real remainder: kept */
	cgs_acct_blocked_json(&a, &c, o);
	NEAR(jget(o, "blocked_ns_per_op", NULL), 700);
	src = json_object_get_string(json_object_object_get(o, "blocked_source"));
	assert_non_null(strstr(src, "CONFIG_SCHEDSTATS is off"));
	json_object_put(o);
	/* schedstats off: the source says how to turn it on */
	o = json_object_new_object();
	c.schedstats = 0;
	cgs_acct_blocked_json(&a, &c, o);
	src = json_object_get_string(json_object_object_get(o, "blocked_source"));
	assert_non_null(strstr(src, "sysctl kernel.sched_schedstats=1"));
	json_object_put(o);
	/* measured: the kernel's sleep time, the remainder its check */
	o = json_object_new_object();
	c.schedstats = 1;
	a.sleep_ns_per_op = 650;
	cgs_acct_blocked_json(&a, &c, o);
	NEAR(jget(o, "blocked_ns_per_op", NULL), 650);
	NEAR(jget(o, "blocked_remainder_ns_per_op", NULL), 700);
	NEAR(jget(o, "blocked_check_ns_per_op", NULL), 50);
	src = json_object_get_string(json_object_object_get(o, "blocked_source"));
	assert_non_null(strstr(src, "measured: each task's sum_sleep_runtime"));
	json_object_put(o);
	json_object_put(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_schedstat_parse),
		cmocka_unit_test(t_procsched_sleep),
		cmocka_unit_test(t_task_parts),
		cmocka_unit_test(t_calc_one),
		cmocka_unit_test(t_calc_two),
		cmocka_unit_test(t_calc_edge),
		cmocka_unit_test(t_json),
		cmocka_unit_test(t_clock),
		cmocka_unit_test(t_split),
		cmocka_unit_test(t_blocked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
