/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sampling.c - the sampling arithmetic: the schedule of instants,
 * /proc/stat percentages (of the machine and of the CPUs a run may use),
 * and the per-point summary, whose rates divide
 * by the real elapsed time of the measured intervals only.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "runner/point/point.h"

#define S 1000000000LL

static void t_schedule(void **state)
{
	int64_t at[32];
	enum res_phase ph[32];
	unsigned n;

	(void)state;
	/* warm-up 2 s, measure 5 s, every second */
	n = cgs_schedule(2 * S, 5 * S, S, at, ph);
	assert_int_equal(n, 8);
	assert_int_equal(cgs_schedule(2 * S, 5 * S, S, NULL, NULL), n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(at[i], (int64_t)i * S);
	assert_int_equal(ph[0], RES_PHASE_START);
	assert_int_equal(ph[1], RES_PHASE_WARMUP);
	assert_int_equal(ph[2], RES_PHASE_WARMUP);
	assert_int_equal(ph[3], RES_PHASE_MEASURE);
	assert_int_equal(ph[7], RES_PHASE_MEASURE);

	/* intervals that do not divide: each phase still ends exactly */
	n = cgs_schedule(S / 2, 1 * S + S / 4, 400000000, at, ph);
	/* 0 | 0.4 0.5 | 0.9 1.3 1.7 1.75 */
	assert_int_equal(n, 7);
	assert_int_equal(at[1], 400000000);
	assert_int_equal(at[2], 500000000);
	assert_int_equal(ph[2], RES_PHASE_WARMUP);
	assert_int_equal(at[3], 900000000);
	assert_int_equal(at[6], 1750000000);
	assert_int_equal(ph[6], RES_PHASE_MEASURE);

	/* no warm-up: the start sample opens the window */
	n = cgs_schedule(0, S, S / 10, at, ph);
	assert_int_equal(n, 11);
	assert_int_equal(ph[1], RES_PHASE_MEASURE);
}

static void t_due(void **state)
{
	int64_t at[16];
	enum res_phase ph[16];
	unsigned n = cgs_schedule(S / 2, S, S / 4, at, ph);
	const int64_t t0 = 1000 * S;

	(void)state;
	/* 0 | .25 .5 | .75 1 1.25 1.5 */
	assert_int_equal(n, 7);
	assert_int_equal(cgs_sample_due(at, ph, 1, t0, 0), t0 + S / 4);
	assert_int_equal(cgs_sample_due(at, ph, 2, t0, 0), t0 + S / 2);
	/* window opened on time: the plan holds */
	assert_int_equal(cgs_sample_due(at, ph, 3, t0, t0 + S / 2), t0 + 3 * S / 4);
	assert_int_equal(cgs_sample_due(at, ph, 6, t0, t0 + S / 2), t0 + 3 * S / 2);
	/* the window-opening sample came 1 s late: the whole measurement
	 * shifts, it is never shortened */
	assert_int_equal(cgs_sample_due(at, ph, 3, t0, t0 + 3 * S / 2), t0 + 7 * S / 4);
	assert_int_equal(cgs_sample_due(at, ph, 6, t0, t0 + 3 * S / 2), t0 + 5 * S / 2);
	/* no warm-up: the start opens the window */
	n = cgs_schedule(0, S, S / 2, at, ph);
	assert_int_equal(cgs_sample_due(at, ph, 2, t0, t0), t0 + S);
}

static void t_cpustat(void **state)
{
	struct cgs_cpustat a, b;
	double idle, iowait, steal;

	(void)state;
	assert_int_equal(cgs_cpustat_parse("cpu  100 0 50 800 10 0 5 35 0 0\n", &a), 0);
	assert_int_equal(a.total, 1000);
	assert_int_equal(a.idle, 800);
	assert_int_equal(a.iowait, 10);
	assert_int_equal(a.steal, 35);
	assert_int_equal(cgs_cpustat_parse("cpu  200 0 100 1300 10 0 5 85 0 0\n", &b), 0);
	cgs_cpustat_pct(&a, &b, &idle, &iowait, &steal);
	/* total +700: idle +500, steal +50 */
	assert_float_equal(idle, 100.0 * 500 / 700, 1e-9);
	assert_float_equal(iowait, 0, 1e-9);
	assert_float_equal(steal, 100.0 * 50 / 700, 1e-9);
	cgs_cpustat_pct(&a, &a, &idle, &iowait, &steal);
	assert_true(isnan(idle));
	assert_int_equal(cgs_cpustat_parse("intr 1 2 3", &a), -EINVAL);
}

/*
 * The idle of the CPUs a run may use, from the per-CPU lines: CPU 0 is
 * busy with someone else's work (no idle), CPU 1, the run's, is half
 * idle. The machine's line says 25% idle; CPU 1's lines say 50%, CPU 0's
 * 0%. An offline CPU (no line) is left out, a line cut at the end of
 * what was read is not counted, nothing past the CPU lines is parsed.
 */
static const char stat_a[] =
	"cpu  1000 0 0 1000 0 0 0 0 0 0\n"
	"cpu0 1000 0 0 0 0 0 0 0 0 0\n"
	"cpu1 0 0 0 1000 0 0 0 0 0 0\n"
	"intr 12345 1 2 3\n"
	"cpu7 5 5 5 5\n";
static const char stat_b[] =
	"cpu  2300 0 0 1500 0 0 0 200 0 0\n"
	"cpu0 2000 0 0 0 0 0 0 0 0 0\n"
	"cpu1 300 0 0 1500 0 0 0 200 0 0\n"
	"intr 23456 1 2 3\n";

static double idle_of(const char *cpus)
{
	hwloc_bitmap_t set = NULL;
	struct cgs_cpustat a, b;
	double idle, iowait, steal;
	unsigned found;

	if (cpus) {
		set = hwloc_bitmap_alloc();
		assert_int_equal(hwloc_bitmap_list_sscanf(set, cpus), 0);
	}
	assert_int_equal(cgs_cpustat_parse_cpus(stat_a, set, &a, &found), 0);
	assert_int_equal(found, cpus ? (unsigned)hwloc_bitmap_weight(set) : 1);
	assert_int_equal(cgs_cpustat_parse_cpus(stat_b, set, &b, &found), 0);
	cgs_cpustat_pct(&a, &b, &idle, &iowait, &steal);
	hwloc_bitmap_free(set);
	return idle;
}

static void t_cpustat_cpus(void **state)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	struct cgs_cpustat c;
	unsigned found;

	(void)state;
	assert_float_equal(idle_of(NULL), 100.0 * 500 / 2000, 1e-9);  /* machine */
	assert_float_equal(idle_of("1"), 100.0 * 500 / 1000, 1e-9);   /* the run's */
	assert_float_equal(idle_of("0"), 0, 1e-9);
	assert_float_equal(idle_of("0-1"), 100.0 * 500 / 2000, 1e-9);
	/* CPU 1's steal is its own: 200 of its 1000 */
	assert_int_equal(hwloc_bitmap_list_sscanf(set, "1"), 0);
	assert_int_equal(cgs_cpustat_parse_cpus(stat_b, set, &c, &found), 0);
	assert_int_equal(c.total, 2000);
	assert_int_equal(c.steal, 200);
	/* CPU 3 is offline (no line): CPUs 1,3 read as CPU 1 */
	assert_int_equal(hwloc_bitmap_list_sscanf(set, "1,3"), 0);
	assert_int_equal(cgs_cpustat_parse_cpus(stat_b, set, &c, &found), 0);
	assert_int_equal(found, 1);
	assert_int_equal(c.idle, 1500);
	/* cpu7 after intr is not a CPU line; none of the set: -ENOENT */
	assert_int_equal(hwloc_bitmap_list_sscanf(set, "7"), 0);
	assert_int_equal(cgs_cpustat_parse_cpus(stat_a, set, &c, &found), -ENOENT);
	assert_int_equal(found, 0);
	/* a read that ends inside CPU 1's line: only CPU 0's counts */
	assert_int_equal(hwloc_bitmap_list_sscanf(set, "0-1"), 0);
	assert_int_equal(cgs_cpustat_parse_cpus("cpu  1 0 0 1 0\ncpu0 1 0 0 0 0\ncpu1 0 0 0 1",
						set, &c, &found), 0);
	assert_int_equal(found, 1);
	assert_int_equal(c.total, 1);
	/* the machine's line is not "cpu0" */
	assert_int_equal(cgs_cpustat_parse("cpu0 1 2 3 4\n", &c), -EINVAL);
	hwloc_bitmap_free(set);
}

/*
 * /proc/stat in spans: a read is due at an edge, or once the interval has
 * passed; the samples since the last read share its percentages, so the
 * time-weighted mean over them is that of the whole span.
 */
static void t_cpustat_span(void **state)
{
	struct cgs_cpustat_span cs = { 0 };
	struct cgs_cpustat cur;
	double idle[8], iowait[8], steal[8];

	(void)state;
	for (int i = 0; i < 8; i++)
		idle[i] = iowait[i] = steal[i] = NAN;
	/* no first reading: never due */
	assert_false(cgs_cpustat_due(&cs, 5 * S, 0, true));
	assert_int_equal(cgs_cpustat_parse("cpu  100 0 0 900 0 0 0 0\n", &cs.prev), 0);
	cs.have = true;
	cs.prev_ns = 0;
	/* every second: not at 0.3 s or 0.6 s, at 1 s, always at an edge */
	assert_false(cgs_cpustat_due(&cs, S * 3 / 10, S, false));
	assert_false(cgs_cpustat_due(&cs, S * 6 / 10, S, false));
	assert_true(cgs_cpustat_due(&cs, S, S, false));
	assert_true(cgs_cpustat_due(&cs, S * 6 / 10, S, true));
	/* interval 0: at every sample */
	assert_true(cgs_cpustat_due(&cs, 1, 0, false));
	/* read at sample 3: samples 1-3 share its 40% idle */
	assert_int_equal(cgs_cpustat_parse("cpu  700 0 0 1300 0 0 0 0\n", &cur), 0);
	cgs_cpustat_span_fill(&cs, &cur, S, 3, idle, iowait, steal);
	assert_true(isnan(idle[0]));
	for (int k = 1; k <= 3; k++) {
		assert_float_equal(idle[k], 40.0, 1e-9);
		assert_float_equal(iowait[k], 0.0, 1e-9);
	}
	assert_true(isnan(idle[4]));
	assert_int_equal(cs.prev_k, 3);
	assert_true(cs.prev_ns == S);
	/* the next span covers 4-5 only */
	assert_false(cgs_cpustat_due(&cs, S + S / 2, S, false));
	assert_int_equal(cgs_cpustat_parse("cpu  700 0 0 1500 0 0 0 0\n", &cur), 0);
	cgs_cpustat_span_fill(&cs, &cur, 2 * S, 5, idle, iowait, steal);
	assert_float_equal(idle[3], 40.0, 1e-9);
	assert_float_equal(idle[4], 100.0, 1e-9);
	assert_float_equal(idle[5], 100.0, 1e-9);
	assert_true(isnan(idle[6]));
}

/* Two tasks; the sampler woke late: the second interval lasted 1.2 s. */
static void t_summary(void **state)
{
	struct res_point p;
	const int64_t t[] = { 0, 500000000, 1500000000, 2700000000 };
	const enum res_phase ph[] = { RES_PHASE_START, RES_PHASE_WARMUP,
				      RES_PHASE_MEASURE, RES_PHASE_MEASURE };
	const uint64_t ops[2][4] = { { 0, 999, 1000, 1200 }, { 0, 999, 3000, 3600 } };
	const double idle[] = { NAN, 10, 20, 50 };

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(res_point_alloc(&p, 2, 4), 0);
	for (int s = 0; s < 4; s++) {
		p.t_ns[s] = t[s];
		p.phase[s] = ph[s];
		p.idle_pct[s] = idle[s];
		for (int i = 0; i < 2; i++)
			p.ops[i * 4 + s] = ops[i][s];
	}
	res_point_summarise(&p);
	/* measured: 1.0 s + 1.2 s; the warm-up's 1998 ops do not count */
	assert_int_equal(p.sum.ops, 1000 + 1200 + 3000 + 3600);
	assert_float_equal(p.sum.elapsed_s, 2.2, 1e-9);
	assert_float_equal(p.sum.total_ops_per_sec, 8800 / 2.2, 1e-6);
	assert_float_equal(p.sum.per_task_ops_per_sec, 4400 / 2.2, 1e-6);
	assert_float_equal(p.sum.min_task_ops_per_sec, 2200 / 2.2, 1e-6);
	assert_float_equal(p.sum.max_task_ops_per_sec, 6600 / 2.2, 1e-6);
	/* interval rates 4000/s and 4000/s: no spread */
	assert_float_equal(p.sum.interval_cov_pct, 0, 1e-9);
	/* idle weighted by time: (20 x 1.0 + 50 x 1.2) / 2.2 */
	assert_float_equal(p.sum.idle_pct, (20 + 60) / 2.2, 1e-9);
	/* task spread: 1000 and 3000 ops/s, sd 1414.2, mean 2000 */
	assert_float_equal(p.sum.task_cov_pct, 100 * sqrt(2e6) / 2000, 1e-6);
	res_point_free(&p);
}

static void t_truncate(void **state)
{
	struct res_point p;

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(res_point_alloc(&p, 3, 5), 0);
	for (int i = 0; i < 3; i++)
		for (int s = 0; s < 5; s++)
			p.ops[i * 5 + s] = 10 * i + s;
	res_point_truncate(&p, 2);
	assert_int_equal(p.nsamples, 2);
	for (int i = 0; i < 3; i++)
		for (int s = 0; s < 2; s++)
			assert_int_equal(res_ops(&p, i, s), 10 * i + s);
	res_point_free(&p);
}

static void t_scalability(void **state)
{
	struct res_file f;
	const unsigned tasks[] = { 1, 4, 4 };
	const char *mode[] = { "process", "process", "thread" };
	const double ops[] = { 100, 300, 380 };

	(void)state;
	memset(&f, 0, sizeof(f));
	for (int i = 0; i < 3; i++) {
		struct res_point *p = res_file_add_point(&f);

		p->test = strdup("x");
		p->mode = strdup(mode[i]);
		p->status = RES_OK;
		p->tasks = tasks[i];
		p->sum.total_ops_per_sec = ops[i];
	}
	res_file_scalability(&f);
	assert_float_equal(f.points[0].sum.scalability, 1.0, 1e-12);
	assert_float_equal(f.points[1].sum.scalability, 300.0 / 400, 1e-12);
	/* no thread-mode point with 1 task: no figure, not a guess */
	assert_true(isnan(f.points[2].sum.scalability));
	res_file_free(&f);
}

/* Runs and tests interleaved over many points: each point's reference is
 * the first ok N=1 point of its own test, mode and run; a failed N=1 point
 * is no reference. 3000 points also exercise the growing points array. */
static void t_scalability_runs(void **state)
{
	const char *tests[] = { "b", "a", "c" };
	struct res_file f;

	(void)state;
	memset(&f, 0, sizeof(f));
	for (unsigned run = 0; run < 500; run++)
		for (int t = 0; t < 3; t++)
			for (unsigned n = 1; n <= 2; n++) {
				struct res_point *p = res_file_add_point(&f);

				assert_non_null(p);
				p->test = strdup(tests[t]);
				p->mode = strdup("process");
				p->run = run;
				p->tasks = n;
				/* test c's N=1 point of odd runs failed */
				p->status = t == 2 && n == 1 && run % 2 ? RES_FAILED : RES_OK;
				p->sum.total_ops_per_sec = n == 1 ? 100.0 + run + t : 150.0 + run;
			}
	res_file_scalability(&f);
	assert_int_equal(f.npoints, 3000);
	for (unsigned i = 0; i < f.npoints; i++) {
		const struct res_point *p = &f.points[i];
		unsigned t = (i / 2) % 3, run = i / 6;

		if (p->tasks == 1 && p->status == RES_OK)
			assert_float_equal(p->sum.scalability, 1.0, 1e-12);
		else if (t == 2 && run % 2)
			assert_true(isnan(p->sum.scalability));
		else
			assert_float_equal(p->sum.scalability,
					   (150.0 + run) / (2 * (100.0 + run + t)), 1e-12);
	}
	res_file_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_scalability_runs),
		cmocka_unit_test(t_schedule),
		cmocka_unit_test(t_due),
		cmocka_unit_test(t_cpustat),
		cmocka_unit_test(t_cpustat_cpus),
		cmocka_unit_test(t_cpustat_span),
		cmocka_unit_test(t_summary),
		cmocka_unit_test(t_truncate),
		cmocka_unit_test(t_scalability),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
