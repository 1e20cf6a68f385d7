/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_axis.c - what the report's charts draw: nice steps, axis
 * ranges and ticks (zero-based, integer, padded, tight, log2, degenerate
 * input), the tick labels with SI suffixes, will-it-scale's linear
 * reference, the headroom above the top value and end labels that never
 * sit on each other.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "results/report/document.h"
#include "lib/macros.h"

static bool is_nice(double step)
{
	double m = step / pow(10, floor(log10(step) + 1e-12));

	return fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 2.5) < 1e-9 ||
	       fabs(m - 5) < 1e-9;
}

static void nice_step(void **state)
{
	(void)state;
	assert_true(rpt_nice_step(10, 5) == 2);
	assert_true(fabs(rpt_nice_step(1, 5) - 0.2) < 1e-12);
	assert_true(rpt_nice_step(100, 4) == 25);
	assert_true(rpt_nice_step(7, 5) == 1);          /* 1.4: nearer 1 than 2 */
	assert_true(rpt_nice_step(163204, 5) == 25000); /* 32641: nearer 25k */
	assert_true(isnan(rpt_nice_step(0, 5)));
	assert_true(isnan(rpt_nice_step(-3, 5)));
	assert_true(isnan(rpt_nice_step(5, 0)));
	assert_true(isnan(rpt_nice_step(INFINITY, 5)));
	/* every span from 1e-3 to 1e9: a nice step within 1.42x of span/5 */
	for (double span = 1e-3; span < 1e9; span *= 1.37) {
		double st = rpt_nice_step(span, 5), raw = span / 5;

		assert_true(is_nice(st));
		assert_true(st / raw < 1.42 && raw / st < 1.42);
	}
}

/* Ticks are evenly spaced by a nice step, labelled, inside the range. */
static void check_axis(const struct rpt_axis *a, double lo, double hi)
{
	assert_true(a->nticks >= 2 && a->nticks <= RPT_MAX_TICKS);
	assert_true(is_nice(a->step));
	assert_true(a->min <= lo && a->max >= hi);
	for (unsigned i = 0; i < a->nticks; i++) {
		assert_true(a->tick[i] >= a->min - 1e-9 && a->tick[i] <= a->max + 1e-9);
		assert_true(a->tick_label[i][0] != 0);
		if (i)
			assert_true(fabs(a->tick[i] - a->tick[i - 1] - a->step) <
				    a->step * 1e-9);
	}
}

static void axis_zero_based(void **state)
{
	struct rpt_axis a;

	(void)state;
	assert_int_equal(rpt_axis_fit(&a, 163204, 274021, 6, RPT_AX_ZERO), 0);
	check_axis(&a, 0, 274021);
	assert_true(a.min == 0);
	assert_true(a.step == 50000);
	assert_true(a.max == 300000);
	assert_int_equal(a.nticks, 7);
	assert_string_equal(a.tick_label[0], "0");
	assert_string_equal(a.tick_label[1], "50k");
	assert_string_equal(a.tick_label[6], "300k");

	assert_int_equal(rpt_axis_fit(&a, 0, 163204, 6, RPT_AX_ZERO), 0);
	assert_true(a.step == 25000 && a.max == 175000);
	assert_string_equal(a.tick_label[7], "175k");
	/* a max on a tick is not pushed further */
	assert_int_equal(rpt_axis_fit(&a, 0, 1e6, 6, RPT_AX_ZERO), 0);
	assert_true(a.max == 1e6);
	assert_string_equal(a.tick_label[a.nticks - 1], "1M");
	assert_string_equal(a.tick_label[a.nticks - 2], "800k");
}

static void axis_integer_and_pad(void **state)
{
	struct rpt_axis a;

	(void)state;
	/* tasks 1 and 2: whole ticks 0, 1, 2 and never 0.5 */
	assert_int_equal(rpt_axis_fit(&a, 1, 2, 8, RPT_AX_ZERO | RPT_AX_INT), 0);
	check_axis(&a, 0, 2);
	assert_int_equal(a.nticks, 3);
	assert_true(a.tick[1] == 1);
	/* a 256-CPU sweep: steps of 50, not 36.6 */
	assert_int_equal(rpt_axis_fit(&a, 1, 256, 8, RPT_AX_ZERO | RPT_AX_INT), 0);
	check_axis(&a, 0, 256);
	assert_true(a.step == 50 && a.max == 300);
	/* 2.5 is no step for whole numbers */
	assert_int_equal(rpt_axis_fit(&a, 0, 12, 6, RPT_AX_INT), 0);
	assert_true(a.step == 2);
	/* bars at 0..3: half a unit of room each side, ticks on the bars */
	assert_int_equal(rpt_axis_fit(&a, 0, 3, 8, RPT_AX_INT | RPT_AX_PAD), 0);
	assert_true(a.min == -0.5 && a.max == 3.5);
	assert_int_equal(a.nticks, 4);
	assert_true(a.tick[0] == 0 && a.tick[3] == 3);
	/* one task */
	assert_int_equal(rpt_axis_fit(&a, 0, 0, 8, RPT_AX_INT | RPT_AX_PAD), 0);
	assert_true(a.min < 0 && a.max > 0);
	assert_true(a.tick[0] == 0 || a.tick[0] == -1);
}

static void axis_degenerate(void **state)
{
	struct rpt_axis a;

	(void)state;
	/* all zero: 0..something, never below zero */
	assert_int_equal(rpt_axis_fit(&a, 0, 0, 6, RPT_AX_ZERO), 0);
	assert_true(a.min == 0 && a.max > 0);
	/* one value, not zero-based: around it */
	assert_int_equal(rpt_axis_fit(&a, 5, 5, 6, 0), 0);
	assert_true(a.min < 5 && a.max > 5);
	check_axis(&a, 5, 5);
	/* no data at all */
	assert_int_equal(rpt_axis_fit(&a, INFINITY, -INFINITY, 6, RPT_AX_ZERO), 0);
	assert_true(a.min == 0 && a.max == 1);
	assert_int_equal(rpt_axis_fit(&a, NAN, 3, 6, 0), 0);
	assert_true(a.min == 0 && a.max == 1);
	assert_int_equal(rpt_axis_fit(&a, 0, 1, 1, 0), -EINVAL);
	/* a negative range keeps a tick at 0 that reads "0", not "-0" */
	assert_int_equal(rpt_axis_fit(&a, -3, 7, 6, 0), 0);
	check_axis(&a, -3, 7);
	for (unsigned i = 0; i < a.nticks; i++)
		if (a.tick[i] == 0)
			assert_string_equal(a.tick_label[i], "0");
	/* far more ticks asked than fit: the step grows instead */
	assert_int_equal(rpt_axis_fit(&a, 0, 1e6, 1000, RPT_AX_ZERO), 0);
	check_axis(&a, 0, 1e6);
	/* a change of -12.5 %..+3 % */
	assert_int_equal(rpt_axis_fit(&a, -12.5, 3, 6, RPT_AX_ZERO), 0);
	check_axis(&a, -12.5, 3);
}

static void tick_labels(void **state)
{
	static const struct { double v, step; const char *want; } t[] = {
		{ 0, 25000, "0" }, { 1500000, 500000, "1.5M" }, { 1e6, 5e5, "1M" },
		{ 500000, 500000, "500k" }, { 175000, 25000, "175k" },
		{ 1250000, 250000, "1.25M" }, { 0.25, 0.05, "0.25" }, { 2.5, 2.5, "2.5" },
		{ -2000, 1000, "-2k" }, { 1.25e9, 2.5e8, "1.25G" }, { 7, 1, "7" },
		{ 3e12, 1e12, "3T" }, { 1e-17, 0.1, "0" }, { -1e-17, 0.1, "0" },
		{ 999, 1, "999" }, { 0.3, 0.1, "0.3" }, { 12.5, 2.5, "12.5" },
		{ NAN, 1, "-" }, { 40, 0, "40" },
	};
	char buf[24];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		rpt_fmt_tick(t[i].v, t[i].step, buf, sizeof(buf));
		assert_string_equal(buf, t[i].want);
	}
	rpt_fmt_tick(123456789, 1, buf, 6);   /* never overflows its buffer */
	assert_true(strlen(buf) < 6);
}

static void categories(void **state)
{
	const char *l3[] = { "a, 1 task", "b%", NULL };
	const char *many[100];
	struct rpt_axis a;

	(void)state;
	assert_int_equal(rpt_axis_categories(&a, 3, l3, false), 0);
	assert_true(a.min == -0.5 && a.max == 2.5);
	assert_int_equal(a.nticks, 3);
	assert_true(a.tick[2] == 2);
	assert_string_equal(a.tick_label[0], "a, 1 task");
	assert_string_equal(a.tick_label[2], "");
	/* reversed: the first category at the top */
	assert_int_equal(rpt_axis_categories(&a, 3, l3, true), 0);
	assert_true(a.min == 2.5 && a.max == -0.5);
	/* more than fit: every k-th, still from the first */
	for (int i = 0; i < 100; i++)
		many[i] = "x";
	assert_int_equal(rpt_axis_categories(&a, 100, many, false), 0);
	assert_true(a.nticks <= RPT_MAX_TICKS && a.nticks >= 25);
	assert_true(a.tick[0] == 0 && a.tick[1] == 4);
	assert_true(a.max == 99.5);
	assert_int_equal(rpt_axis_categories(&a, 0, many, false), -EINVAL);
}

static void linear_reference(void **state)
{
	double tasks[] = { 1, 2, 4 }, ops[] = { 100, 150, 200 }, out[3];
	double t2[] = { 4, 1, 2 }, o2[] = { 200, 100, 150 };
	double t3[] = { 2, 4 }, o3[] = { 150, 200 };
	double z[] = { 0, 150, 200 };

	(void)state;
	assert_int_equal(rpt_linear(tasks, ops, 3, out), 0);
	assert_true(out[0] == 100 && out[1] == 200 && out[2] == 400);
	assert_int_equal(rpt_linear(t2, o2, 3, out), 0);   /* any order */
	assert_true(out[0] == 400 && out[1] == 100 && out[2] == 200);
	assert_int_equal(rpt_linear(t3, o3, 2, out), -ENOENT);  /* no N=1 */
	assert_true(isnan(out[0]) && isnan(out[1]));
	assert_int_equal(rpt_linear(tasks, z, 3, out), -ENOENT);  /* ops(1)=0 */
	assert_true(isnan(out[2]));
	assert_int_equal(rpt_linear(tasks, ops, 0, out), -ENOENT);
}

static void chart_fit(void **state)
{
	struct rpt_chart c = { 0 };
	struct rpt_series *s = rpt_chart_series(&c, "run 1", RPT_BARS, 0);

	(void)state;
	assert_non_null(s);
	s->xoff = -0.2;
	assert_int_equal(rpt_series_add(s, 0, 90, NAN, NAN), 0);
	assert_int_equal(rpt_series_add(s, 1, 310, NAN, NAN), 0);
	assert_int_equal(rpt_series_add(s, 2, NAN, NAN, NAN), 0);  /* ignored */
	rpt_chart_band(&c, true, -20, 400, "band");
	rpt_chart_fit(&c, RPT_AX_INT | RPT_AX_PAD, 0);
	assert_true(c.x.min <= -0.2 - 0.5 + 1e-9 && c.x.max >= 0.8 + 0.5 - 1e-9);
	assert_true(c.y.min <= -20 && c.y.max >= 400);   /* the band counts */
	for (unsigned i = 0; i < RPT_MAX_SERIES; i++)
		rpt_chart_series(&c, "more", RPT_LINES, i);
	assert_int_equal(c.nseries, RPT_MAX_SERIES);
	assert_null(rpt_chart_series(&c, "too many", RPT_LINES, 0));
	rpt_chart_free(&c);
}

/* Time axes end at the last sample; task axes start at the smallest
 * count and are log2 for a sweep. */
static void tight_and_log2(void **state)
{
	struct rpt_axis a;
	unsigned two[] = { 2, 2, 4 }, sweep[] = { 1, 2, 4, 8, 16, 32, 64 };
	unsigned one[] = { 4, 4 }, near[] = { 1, 2, 4 };

	(void)state;
	assert_int_equal(rpt_axis_fit(&a, 0, 5.3, 8, RPT_AX_ZERO | RPT_AX_TIGHT), 0);
	assert_true(a.min == 0 && a.max == 5.3 && !a.log2);
	assert_true(a.nticks >= 2 && a.tick[a.nticks - 1] <= 5.3 && a.tick[0] == 0);
	assert_int_equal(rpt_axis_fit(&a, 2, 7, 8, RPT_AX_INT | RPT_AX_TIGHT), 0);
	assert_true(a.min == 2 && a.max == 7 && a.tick[0] == 2);
	assert_int_equal(rpt_axis_fit(&a, 1, 64, 8, RPT_AX_LOG2), 0);
	assert_true(a.log2 && a.min == 1 && a.max == 64 && a.nticks == 7);
	assert_true(a.tick[0] == 1 && a.tick[6] == 64 && !strcmp(a.tick_label[6], "64"));
	assert_int_equal(rpt_axis_fit(&a, 3, 100, 8, RPT_AX_LOG2), 0);
	assert_true(a.log2 && a.min == 3 && a.tick[0] == 4 && a.tick[a.nticks - 1] == 64);
	/* log2 needs lo > 0: a linear axis instead */
	assert_int_equal(rpt_axis_fit(&a, 0, 64, 8, RPT_AX_LOG2 | RPT_AX_INT), 0);
	assert_false(a.log2);

	assert_int_equal(rpt_task_axis_flags(sweep, 7), RPT_AX_LOG2);
	assert_int_equal(rpt_task_axis_flags(near, 3), RPT_AX_INT | RPT_AX_TIGHT);
	assert_int_equal(rpt_task_axis_flags(two, 3), RPT_AX_INT | RPT_AX_TIGHT);
	assert_int_equal(rpt_task_axis_flags(one, 2), RPT_AX_INT);
	assert_int_equal(rpt_axis_fit(&a, 4, 4, 8, RPT_AX_INT), 0);   /* one count */
	assert_true(a.min < 4 && a.max > 4);
}

/* Headroom above the top value; end labels never stacked on each other. */
static void headroom_and_labels(void **state)
{
	struct rpt_chart c = { 0 };
	struct rpt_series *p = rpt_chart_series(&c, "process linear", RPT_REFERENCE, 0);
	struct rpt_series *t = rpt_chart_series(&c, "thread linear", RPT_REFERENCE, 1);
	struct rpt_series *f = rpt_chart_series(&c, "far", RPT_REFERENCE, 2);
	double x, y;

	(void)state;
	p->label_end = t->label_end = f->label_end = true;
	rpt_series_add(p, 1, 100, NAN, NAN);
	rpt_series_add(p, 2, 1000, NAN, NAN);
	rpt_series_add(t, 1, 98, NAN, NAN);
	rpt_series_add(t, 2, 990, NAN, NAN);   /* 1% of the range below */
	rpt_series_add(f, 1, 50, NAN, NAN);
	rpt_series_add(f, 2, 400, NAN, NAN);   /* far from both */
	rpt_chart_fit(&c, RPT_AX_INT | RPT_AX_TIGHT, RPT_AX_ZERO);
	assert_true(c.y.max >= 1000 + 0.05 * (1000 - c.y.min));
	assert_true(rpt_end_label(&c, 0, &x, &y) && x == 2 && y == 1000);
	assert_true(rpt_end_label_offset(&c, 0) == 0.7);
	assert_true(rpt_end_label_offset(&c, 0) - rpt_end_label_offset(&c, 1) >= 1.0);
	assert_true(rpt_end_label_offset(&c, 2) == 0.7);
	t->label_end = false;
	assert_false(rpt_end_label(&c, 1, &x, &y));
	rpt_chart_free(&c);

	/* a top value on a tick multiple still gets room */
	p = rpt_chart_series(&c, "", RPT_LINES, 0);
	rpt_series_add(p, 0, 0, NAN, NAN);
	rpt_series_add(p, 1, 1000, NAN, NAN);
	rpt_chart_fit(&c, RPT_AX_ZERO, RPT_AX_ZERO);
	assert_true(c.y.max > 1000 * 1.05);
	rpt_chart_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tight_and_log2),
		cmocka_unit_test(headroom_and_labels),
		cmocka_unit_test(nice_step),
		cmocka_unit_test(axis_zero_based),
		cmocka_unit_test(axis_integer_and_pad),
		cmocka_unit_test(axis_degenerate),
		cmocka_unit_test(tick_labels),
		cmocka_unit_test(categories),
		cmocka_unit_test(linear_reference),
		cmocka_unit_test(chart_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
