/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pmu.c - the perf counter module without a PMU: -e parsing and
 * encoding through libpfm4 (names, modifiers, unknown names, default,
 * none), the multiplexing scale, the derived metrics, and the "perf"
 * section built from made-up group reads of a two-task point.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "runner/observe/pmu/pmu.h"

static void parse_ok(struct pmu_set *s, const char *list)
{
	char err[512] = "";
	int rc = pmu_set_parse(s, list, err, sizeof(err));

	if (rc)
		fail_msg("parsing '%s': %d %s", list, rc, err);
}

static void parse_bad(const char *list, const char *want)
{
	struct pmu_set s = { 0 };
	char err[512] = "";

	assert_int_equal(pmu_set_parse(&s, list, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("'%s': message '%s' lacks '%s'", list, err, want);
	pmu_set_free(&s);
}

static void test_parse_names(void **state)
{
	struct pmu_set s = { 0 };

	(void)state;
	parse_ok(&s, "cycles,page-faults,dTLB-load-misses,perf::PERF_COUNT_SW_TASK_CLOCK");
	assert_int_equal(s.n, 4);
	assert_string_equal(s.ev[0].name, "cycles");
	assert_int_equal(s.ev[0].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(s.ev[0].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_non_null(strstr(s.ev[0].pfm, "perf::PERF_COUNT_HW_CPU_CYCLES"));
	/* user and kernel by default, and that was not the user's choice */
	assert_false(s.ev[0].attr.exclude_user);
	assert_false(s.ev[0].attr.exclude_kernel);
	assert_false(s.ev[0].plm_given);
	assert_int_equal(s.ev[1].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(s.ev[1].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(s.ev[2].attr.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(s.ev[2].attr.config,
			 PERF_COUNT_HW_CACHE_DTLB | PERF_COUNT_HW_CACHE_OP_READ << 8 |
			 PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	assert_int_equal(s.ev[3].attr.config, PERF_COUNT_SW_TASK_CLOCK);
	/* nothing was probed: all "count" until pmu_set_probe says */
	assert_int_equal(pmu_set_counted(&s), 4);
	pmu_set_free(&s);
}

static void test_parse_modifiers(void **state)
{
	struct pmu_set s = { 0 };

	(void)state;
	parse_ok(&s, "cycles:u,instructions:k,page-faults:u:k");
	assert_int_equal(s.n, 3);
	assert_false(s.ev[0].attr.exclude_user);
	assert_true(s.ev[0].attr.exclude_kernel);
	assert_true(s.ev[0].plm_given);
	assert_non_null(strstr(s.ev[0].pfm, ":u=1:k=0"));
	assert_true(s.ev[1].attr.exclude_user);
	assert_false(s.ev[1].attr.exclude_kernel);
	assert_true(s.ev[1].plm_given);
	assert_false(s.ev[2].attr.exclude_user);
	assert_false(s.ev[2].attr.exclude_kernel);
	assert_true(s.ev[2].plm_given);
	pmu_set_free(&s);
}

static void test_parse_lists(void **state)
{
	struct pmu_set s = { 0 };
	static const char *const dfl[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branch-misses", "dTLB-load-misses", "page-faults",
		"context-switches", "cpu-migrations",
	};

	(void)state;
	parse_ok(&s, "none");
	assert_int_equal(s.n, 0);
	pmu_set_free(&s);
	parse_ok(&s, NULL);
	assert_int_equal(s.n, 0);
	pmu_set_free(&s);
	parse_ok(&s, "default");
	assert_int_equal(s.n, 9);
	for (unsigned i = 0; i < 9; i++)
		assert_string_equal(s.ev[i].name, dfl[i]);
	pmu_set_free(&s);
	/* repeats count once; default mixes with names */
	parse_ok(&s, "task-clock,default,cycles,task-clock");
	assert_int_equal(s.n, 10);
	assert_string_equal(s.ev[0].name, "task-clock");
	assert_string_equal(s.ev[1].name, "cycles");
	pmu_set_free(&s);
	/* spaces around names are not part of them */
	parse_ok(&s, " page-faults , task-clock");
	assert_int_equal(s.n, 2);
	assert_string_equal(s.ev[0].name, "page-faults");
	assert_string_equal(s.ev[1].name, "task-clock");
	pmu_set_free(&s);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_bad("nosuchevent", "event not found");
	parse_bad("nosuchevent", "cgscale events");
	parse_bad("page-faults,nosuchevent", "-e nosuchevent:");
	parse_bad("cycles:bogus", "invalid event attribute");
	parse_bad("none,cycles", "stands alone");
	parse_bad("cycles,,page-faults", "empty event name");
	parse_bad("cycles,", "empty event name");
	parse_bad("", "empty event name");
	parse_bad("cycles, ,page-faults", "empty event name");
}

static void test_scale(void **state)
{
	bool scaled = true;

	(void)state;
	assert_true(pmu_scale(1000, 5000, 5000, &scaled) == 1000);
	assert_false(scaled);
	/* ran a quarter of the time it was enabled: x4, marked */
	assert_true(pmu_scale(1000, 4000, 1000, &scaled) == 4000);
	assert_true(scaled);
	assert_true(fabs(pmu_scale(3, 10, 3, &scaled) - 10.0) < 1e-9);
	/* never enabled (before the window): the raw count, unscaled */
	assert_true(pmu_scale(0, 0, 0, &scaled) == 0);
	assert_false(scaled);
	/* enabled but never ran: no count at all */
	assert_true(isnan(pmu_scale(0, 1000, 0, &scaled)));
	/* big counts keep their precision */
	assert_true(pmu_scale(UINT64_C(1) << 52, 2, 1, &scaled) == 0x1p53);
}

static void test_derive(void **state)
{
	struct pmu_set s = { 0 };
	double m[RES_NPERF];
	int on[RES_NPERF];
	/* cycles instructions cache-refs cache-misses branch-misses branches task-clock */
	double total[] = { 4000, 1000, 200, 30, 25, 1000, 2e9 };
	double per_op[] = { 40, 10, 2, 0.3, 0.25, 10, 2e7 };

	(void)state;
	parse_ok(&s, "cycles,instructions,cache-references,cache-misses,branch-misses,branches,task-clock");
	pmu_derive(&s, total, per_op, 1.0, m, on);
	assert_true(fabs(m[RES_PERF_IPC] - 0.25) < 1e-12);
	assert_int_equal(on[RES_PERF_IPC], 1);
	assert_true(fabs(m[RES_PERF_CPI] - 4.0) < 1e-12);
	assert_int_equal(on[RES_PERF_CPI], 0);
	assert_true(fabs(m[RES_PERF_CACHE_MISS_PCT] - 15.0) < 1e-12);
	assert_int_equal(on[RES_PERF_CACHE_MISS_PCT], 3);
	assert_true(fabs(m[RES_PERF_BRANCH_MISS_PCT] - 2.5) < 1e-12);
	assert_int_equal(on[RES_PERF_BRANCH_MISS_PCT], 4);
	assert_true(fabs(m[RES_PERF_CPUS_UTILIZED] - 2.0) < 1e-12);
	assert_int_equal(on[RES_PERF_CPUS_UTILIZED], 6);
	assert_true(m[RES_PERF_PATH_LENGTH] == 10);
	/* an input the kernel refused: no metric from it */
	s.ev[0].err = -ENOENT;
	total[0] = NAN;
	pmu_derive(&s, total, per_op, 1.0, m, on);
	assert_true(isnan(m[RES_PERF_IPC]));
	assert_true(isnan(m[RES_PERF_CPI]));
	assert_int_equal(on[RES_PERF_IPC], -1);
	assert_true(fabs(m[RES_PERF_CACHE_MISS_PCT] - 15.0) < 1e-12);
	/* a zero denominator gives nothing, not infinity */
	total[2] = 0;
	pmu_derive(&s, total, per_op, 1.0, m, on);
	assert_true(isnan(m[RES_PERF_CACHE_MISS_PCT]));
	pmu_set_free(&s);
}

static void test_derive_levels(void **state)
{
	struct pmu_set s = { 0 };
	double m[RES_NPERF];
	int on[RES_NPERF];
	double total[] = { 4000, 1000, 3000, 900 };
	double per_op[] = { 4, 1, 3, 0.9 };

	(void)state;
	/* user-only cycles never pair with user+kernel instructions */
	parse_ok(&s, "cycles:u,instructions");
	pmu_derive(&s, total, per_op, 1.0, m, on);
	assert_true(isnan(m[RES_PERF_IPC]));
	assert_true(m[RES_PERF_PATH_LENGTH] == 1);
	pmu_set_free(&s);
	/* ... and find their like further on */
	parse_ok(&s, "cycles:u,instructions,cycles,instructions:u");
	pmu_derive(&s, total, per_op, 1.0, m, on);
	assert_true(fabs(m[RES_PERF_IPC] - 1000.0 / 3000) < 1e-12);
	assert_int_equal(on[RES_PERF_IPC], 1);
	assert_true(fabs(m[RES_PERF_CPI] - 4000.0 / 900) < 1e-12);
	assert_int_equal(on[RES_PERF_CPI], 0);
	pmu_set_free(&s);
}

static struct json_object *jget(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, "/", &save); k && o; k = strtok_r(NULL, "/", &save)) {
		struct json_object *v = NULL;

		if (json_object_is_type(o, json_type_array))
			v = json_object_array_get_idx(o, (size_t)atoi(k));
		else if (!json_object_object_get_ex(o, k, &v))
			v = NULL;
		o = v;
	}
	return o;
}

static double jd(struct json_object *o, const char *path)
{
	struct json_object *v = jget(o, path);

	if (!v)
		fail_msg("no %s", path);
	return json_object_get_double(v);
}

/*
 * Two tasks, samples: 0 start, 1 warm-up (counting enabled here), 2 and
 * 3 measured. Task 0 ran all the time; task 1's group ran half of it
 * (multiplexed), and "instructions" did not open for task 1.
 */
/* Two tasks over four samples: start, warmup and two measured, 0.5 s
 * apart; task 0 does 100 ops an interval, task 1 50. */
static void section_point(struct res_point *p)
{
	assert_int_equal(res_point_alloc(p, 2, 4), 0);
	p->phase[0] = RES_PHASE_START;
	p->phase[1] = RES_PHASE_WARMUP;
	p->phase[2] = p->phase[3] = RES_PHASE_MEASURE;
	for (unsigned t = 0; t < 4; t++)
		p->t_ns[t] = (int64_t)t * 500000000;
	for (unsigned t = 1; t < 4; t++) {
		p->ops[t] = 100;          /* task 0 */
		p->ops[4 + t] = 50;       /* task 1 */
	}
}

/* The tasks of test_section's section: deltas and scaled totals. */
static void section_tasks_ok(struct json_object *sec)
{
	/* per-interval deltas, aligned with the samples */
	assert_true(jd(sec, "tasks/0/counts/cycles/2") == 400);
	assert_true(jd(sec, "tasks/1/time_running_ns/3") == 500);
	assert_null(jget(sec, "tasks/1/counts/instructions"));
	assert_non_null(jget(sec, "tasks/1/not_counted/instructions"));
	/* task 1: 600 raw cycles running 1000 of 2000 ns: 1200, scaled */
	assert_true(jd(sec, "tasks/1/totals/cycles/count") == 1200);
	assert_true(jd(sec, "tasks/1/totals/cycles/raw") == 600);
	assert_true(json_object_get_boolean(jget(sec, "tasks/1/totals/cycles/scaled")));
	assert_false(json_object_get_boolean(jget(sec, "tasks/0/totals/cycles/scaled")));
}

/* The totals and derived metrics of test_section's section. */
static void section_totals_ok(struct json_object *sec)
{
	/* totals: cycles 800 + 1200 over 200 + 100 measured ops */
	assert_true(jd(sec, "totals/cycles/count") == 2000);
	assert_true(json_object_get_boolean(jget(sec, "totals/cycles/scaled")));
	assert_true(jd(sec, "totals/cycles/running_pct") == 75);
	assert_true(jd(sec, "totals/cycles/tasks") == 2);
	assert_true(fabs(jd(sec, "totals/cycles/per_op") - 2000.0 / 300) < 1e-9);
	/* instructions only from task 0: 200 over its 200 ops */
	assert_true(jd(sec, "totals/instructions/count") == 200);
	assert_true(jd(sec, "totals/instructions/tasks") == 1);
	assert_true(jd(sec, "totals/instructions/per_op") == 1);
	assert_true(fabs(jd(sec, "metrics/ipc") - 0.1) < 1e-12);
	assert_true(fabs(jd(sec, "metrics/cpi") - 10) < 1e-12);
	assert_true(jd(sec, "metrics/path_length") == 1);
	assert_string_equal(json_object_get_string(jget(sec, "totals/instructions/metric")), "ipc");
}

static void test_section(void **state)
{
	struct pmu_set s = { 0 };
	struct res_point p = { 0 };
	enum { W = 4 };  /* enabled, running, cycles, instructions */
	uint64_t cum[2 * 4 * W] = {
		/* task 0 */
		0, 0, 0, 0,   0, 0, 0, 0,
		1000, 1000, 400, 100,   2000, 2000, 800, 200,
		/* task 1 */
		0, 0, 0, 0,   0, 0, 0, 0,
		1000, 500, 300, 0,   2000, 1000, 600, 0,
	};
	int terr[4] = { 0, 0, 0, -ENOENT };
	int target[2] = { 101, 102 };
	struct pmu_section ps = {
		.set = &s, .p = &p, .ntasks = 2, .nsamples = 4, .nread = 4,
		.enabled_at = 1, .cum = cum, .terr = terr, .target = target,
	};
	struct json_object *sec;

	(void)state;
	parse_ok(&s, "cycles,instructions");
	section_point(&p);
	sec = pmu_section_json(&ps);
	assert_non_null(sec);
	assert_true(jd(sec, "elapsed_s") == 1.0);
	section_tasks_ok(sec);
	section_totals_ok(sec);
	json_object_put(sec);
	res_point_free(&p);
	pmu_set_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_names),
		cmocka_unit_test(test_parse_modifiers),
		cmocka_unit_test(test_parse_lists),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_derive_levels),
		cmocka_unit_test(test_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
