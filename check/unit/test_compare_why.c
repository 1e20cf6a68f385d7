/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_why.c - what compare makes of the account, the counters
 * and the lock totals, on fixed numbers: a change of x10 or more written
 * as a ratio; a counter absent from its section read as 0 ("|0"), and
 * one that is 0 on both sides not compared; a counter that appeared
 * judged on the runs alone; a part of the wall judged as a share of it;
 * a percentile that fell while its total rose not an improvement; the
 * ranking of the block's lists; and the block of a made-up comparison
 * (a user-time injection of +500 ns/op with reclaim counters appearing
 * and the rstat lock held 70 times longer in all, in shorter holds).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "check/unit/cmp_fixture.h"
#include "results/compare/fmt.h"
#include "results/compare/why.h"

static void t_ratio_format(void **state)
{
	struct cmp_delta d = { .valid = true, .from_zero = true };
	char b[32];

	(void)state;
	assert_string_equal(cmp_fmt_pct(b, sizeof(b), 78700), "x788");
	assert_string_equal(cmp_fmt_pct(b, sizeof(b), 393809.61), "x3939");
	assert_string_equal(cmp_fmt_pct(b, sizeof(b), 900), "x10.0");
	assert_string_equal(cmp_fmt_pct(b, sizeof(b), 6900), "x70.0");
	assert_string_equal(cmp_fmt_pct(b, sizeof(b), 899.5), "+899.50%");
	assert_string_equal(cmp_fmt_pct(b, sizeof(b), -99.5), "-99.50%");
	assert_string_equal(cmp_fmt_pct(b, sizeof(b), 1.234), "+1.23%");
	assert_string_equal(cmp_fmt_pct(b, sizeof(b), NAN), "-");
	assert_string_equal(cmp_fmt_change(b, sizeof(b), &d), "from 0");
	d.from_zero = false;
	d.pct = 78700;
	assert_string_equal(cmp_fmt_change(b, sizeof(b), &d), "x788");
}

static const struct cmp_metric *metric(const char *name)
{
	for (size_t b = 0; b < cmp_nbase_metrics; b++)
		if (cmp_base_metrics[b].name && !strcmp(cmp_base_metrics[b].name, name))
			return &cmp_base_metrics[b];
	fail_msg("no metric %s", name);
	return NULL;
}

/* "|0": absent from a section that is there is 0; no section, NAN. */
static void t_absent_is_zero(void **state)
{
	struct res_point p = { 0 };
	const struct cmp_metric *m = metric("proc-vmstat.pgscan_file.per_op");

	(void)state;
	p.extra = json_tokener_parse("{\"vmstat\": {\"per_op\": {\"pgfault\": 1.5}}}");
	assert_true(cmp_metric_value(m, &p) == 0);
	assert_true(cmp_metric_value(metric("proc-vmstat.pgfault.per_op"), &p) == 1.5);
	json_object_put(p.extra);
	p.extra = json_tokener_parse("{\"vmstat\": {\"error\": \"x\"}}");
	assert_true(isnan(cmp_metric_value(m, &p)));
	json_object_put(p.extra);
	p.extra = json_tokener_parse("{\"vmstat\": {\"per_op\": {\"allocstall_normal\": 0.25,"
				     " \"allocstall_movable\": 0.5}}}");
	assert_true(cmp_metric_value(metric("proc-vmstat.allocstall.per_op"), &p) == 0.75);
	json_object_put(p.extra);
	p.extra = json_tokener_parse("{\"cgroup\": {\"layout\": \"depth=0\"}}");
	assert_true(isnan(cmp_metric_value(metric("memcg.failcnt.per_op"), &p)));
	json_object_put(p.extra);
}

/* Cells of @n values each. */
static void cells(struct cmp_cell *a, struct cmp_cell *b, const double *va,
		  const double *vb, size_t n)
{
	static unsigned inv[16];

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	a->v[0] = (double *)va;
	b->v[0] = (double *)vb;
	a->inv[0] = b->inv[0] = inv;
	a->n[0] = b->n[0] = n;
	st_describe(va, n, &a->d[0]);
	st_describe(vb, n, &b->d[0]);
}

static void t_zero_and_from_zero(void **state)
{
	const double z[6] = { 0 }, up[6] = { 1.01, 0.99, 1.02, 1.0, 0.98, 1.03 };
	const double some[6] = { 0, 0.5, 1, 0.7, 0.2, 0.9 };
	const struct cmp_metric *m = metric("proc-vmstat.pgscan_file.per_op");
	struct cmp_opts o;
	struct cmp_cell a, b;
	struct cmp_delta d;

	(void)state;
	cmp_opts_default(&o);
	/* 0 on both sides: nothing happened, nothing compared */
	cells(&a, &b, z, z, 6);
	memset(&d, 0, sizeof(d));
	assert_int_equal(cmp_delta_cells(&a, &b, 0, m, &o, &d), 0);
	assert_false(d.valid);
	/* 0 on every run of A, above 0 on every run of B: it appeared */
	cells(&a, &b, z, up, 6);
	memset(&d, 0, sizeof(d));
	assert_int_equal(cmp_delta_cells(&a, &b, 0, m, &o, &d), 0);
	assert_true(d.valid && d.from_zero && isnan(d.pct));
	d.q = d.p;
	assert_true(d.p < 0.01);
	assert_int_equal(cmp_judge(&d, m->cls, a.d[0].cov_pct, b.d[0].cov_pct, 6, 6, &o),
			 CMP_REGRESSION);
	d.verdict = CMP_REGRESSION;
	assert_string_equal(cmp_effect(&d), "worse");
	/* not above 0 on every run of B: no ratio, no verdict */
	cells(&a, &b, z, some, 6);
	memset(&d, 0, sizeof(d));
	assert_int_equal(cmp_delta_cells(&a, &b, 0, m, &o, &d), 0);
	assert_true(d.valid && !d.from_zero);
	d.q = d.p;
	assert_int_equal(cmp_judge(&d, m->cls, a.d[0].cov_pct, b.d[0].cov_pct, 6, 6, &o),
			 CMP_INCONCLUSIVE);
}

static struct st_desc desc(double mean, double sd, double min, double max)
{
	return (struct st_desc){ .n = 6, .mean = mean, .sd = sd, .min = min, .max = max,
		.cov_pct = 100 * sd / mean };
}

/* A part of the wall is judged as a share of it. */
static void t_part_rule(void **state)
{
	struct cmp_opts o;
	struct st_desc a, b;
	struct cmp_delta d;

	(void)state;
	cmp_opts_default(&o);
	/* blocked 1 -> 3 ns/op (+200%) of a 4000 ns/op wall: no regression */
	d = (struct cmp_delta){ .valid = true, .threshold = 5, .dir = -1, .pct = 200,
		.lo = 150, .hi = 250, .p = 0.002, .q = 0.002, .verdict = CMP_REGRESSION };
	a = desc(1, 0.1, 0.9, 1.1);
	b = desc(3, 0.2, 2.8, 3.3);
	cmp_judge_part(&d, CMP_SECONDARY, &a, &b, 4000, &o);
	assert_int_equal(d.verdict, CMP_NO_CHANGE);
	assert_non_null(strstr(d.why, "of the wall time per op"));
	/* user 100 -> 600 ns/op of a 4000 ns/op wall: +12.5% of the wall */
	d = (struct cmp_delta){ .valid = true, .threshold = 5, .dir = -1, .pct = 500,
		.lo = 480, .hi = 520, .p = 0.002, .q = 0.002, .verdict = CMP_REGRESSION,
		.hl_pct = NAN, .hl_lo = NAN, .hl_hi = NAN };
	a = desc(100, 2, 97, 103);
	b = desc(600, 6, 592, 608);
	cmp_judge_part(&d, CMP_SECONDARY, &a, &b, 4000, &o);
	assert_int_equal(d.verdict, CMP_REGRESSION);
	assert_non_null(strstr(d.why, "as a share of the wall +12.50%"));
	/* sys 2000 -> 2060 (+3%, CI beyond 2%) of the same wall: +1.5% of it */
	d = (struct cmp_delta){ .valid = true, .threshold = 2, .dir = -1, .pct = 3,
		.lo = 2.5, .hi = 3.5, .p = 0.002, .q = 0.002, .verdict = CMP_REGRESSION,
		.hl_pct = NAN, .hl_lo = NAN, .hl_hi = NAN };
	a = desc(2000, 10, 1985, 2015);
	b = desc(2060, 10, 2045, 2075);
	cmp_judge_part(&d, CMP_SECONDARY, &a, &b, 4000, &o);
	assert_int_equal(d.verdict, CMP_NO_CHANGE);
}

/* A percentile that fell while its total rose: no improvement. */
static void t_cap_rule(void **state)
{
	struct cmp_delta p50 = { .valid = true, .threshold = 5, .dir = -1, .pct = -86,
		.verdict = CMP_IMPROVEMENT };
	struct cmp_delta total = { .valid = true, .threshold = 5, .dir = -1, .pct = 6900,
		.verdict = CMP_REGRESSION };
	struct cmp_delta flat = { .valid = true, .threshold = 5, .dir = -1, .pct = 1,
		.verdict = CMP_NO_CHANGE };

	(void)state;
	cmp_judge_cap(&p50, &flat, "rstat_hold_per_op");
	assert_int_equal(p50.verdict, CMP_IMPROVEMENT);     /* the total held */
	cmp_judge_cap(&p50, &total, "rstat_hold_per_op");
	assert_int_equal(p50.verdict, CMP_INCONCLUSIVE);
	assert_non_null(strstr(p50.why, "rstat_hold_per_op rose x70.0"));
	/* undecided, but beyond T on the worse side, caps too */
	p50.verdict = CMP_IMPROVEMENT;
	total.verdict = CMP_INCONCLUSIVE;
	cmp_judge_cap(&p50, &total, "rstat_hold_per_op");
	assert_int_equal(p50.verdict, CMP_INCONCLUSIVE);
	/* a regression of the percentile is left alone */
	p50.verdict = CMP_REGRESSION;
	cmp_judge_cap(&p50, &total, "rstat_hold_per_op");
	assert_int_equal(p50.verdict, CMP_REGRESSION);
	/* every percentile of the table answers to a total of the table */
	for (size_t i = 0; i < cmp_ncap_rules; i++) {
		metric(cmp_cap_rules[i].metric);
		metric(cmp_cap_rules[i].of);
	}
	for (size_t i = 0; i < cmp_npart_rules; i++) {
		metric(cmp_part_rules[i].metric);
		metric(cmp_part_rules[i].of);
	}
}

static void t_rank(void **state)
{
	struct cmp_why_row t[] = {
		{ .name = "c", .d = -30 }, { .name = "a", .d = 480 }, { .name = "b", .d = 30 },
		{ .name = "tiny", .d = 0.01 }, { .name = "nan", .d = NAN },
		{ .name = "d", .d = 24 },
	};
	struct cmp_why_row c[] = {
		{ .name = "pgfault", .a = 5.7, .b = 2.0, .d = -3.7 },
		{ .name = "pgscan", .a = 0, .b = 1.03, .d = 1.03 },
		{ .name = "refault", .a = 0.001, .b = 1.0, .d = 0.999 },
		{ .name = "failcnt", .a = 0, .b = 0.18, .d = 0.18 },
		{ .name = "rare", .a = 0.001, .b = 0.003, .d = 0.002 },
		/* 0 on every run of the base, above on every new one: 1 THP
		 * fault in 512 ops is news, however few per op */
		{ .name = "thp", .a = 0, .b = 0.002, .d = 0.002, .appears = true },
	};

	(void)state;
	/* times: by |change|, ties by name, none below the floor */
	assert_int_equal(cmp_why_rank(t, 6, 3, 0.05, false), 3);
	assert_string_equal(t[0].name, "a");
	assert_string_equal(t[1].name, "b");
	assert_string_equal(t[2].name, "c");
	assert_string_equal(t[3].name, "d");
	/* counts: those that appeared first, then by how many times; below
	 * the floor only one that appeared on every run */
	assert_int_equal(cmp_why_rank(c, 6, 6, CMP_WHY_MIN_PER_OP, true), 5);
	assert_string_equal(c[0].name, "pgscan");
	assert_string_equal(c[1].name, "failcnt");
	assert_string_equal(c[2].name, "thp");
	assert_string_equal(c[3].name, "refault");
	assert_string_equal(c[4].name, "pgfault");
}

/* ---- a made-up comparison, through the whole analysis ---- */

struct side {
	double user, pgscan, refault, failcnt, hold_p50, hold_per_op;
	double reader;      /* the stat reader's vfs_read, ns/op; 0: no scope */
};

static void add(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static struct json_object *obj(struct json_object *o, const char *k)
{
	struct json_object *c = json_object_new_object();

	json_object_object_add(o, k, c);
	return c;
}

/* A run at @value per-task ops/s: sys 2000, run-queue 1000 and blocked
 * 0.5 ns/op, user the rest of the wall. */
static void more(struct json_object *extra, double value, const void *arg)
{
	const struct side *s = arg;
	double wall = 1e9 / value;
	struct json_object *a = obj(extra, "account"), *v = obj(extra, "vmstat");
	struct json_object *vo = obj(v, "per_op"), *cg = obj(extra, "cgroup");
	struct json_object *ms = obj(obj(cg, "memory_stat"), "per_op");
	struct json_object *ev = obj(obj(cg, "events_window"), "per_op");
	struct json_object *rl = obj(obj(extra, "trace"), "rstat_lock");

	add(a, "wall_ns_per_op", wall);
	add(a, "sys_ns_per_op", 2000);
	add(a, "runq_ns_per_op", 1000);
	add(a, "blocked_ns_per_op", 0.5);
	add(a, "user_ns_per_op", wall - 3000.5);
	add(vo, "pgfault", 1.0);
	if (s->pgscan)
		add(vo, "pgscan_file", s->pgscan * wall / 4000);
	add(ms, "pgfault", 1.0);
	add(ms, "workingset_refault_file", s->refault * wall / 4000);
	add(ev, "failcnt", s->failcnt * wall / 4000);
	add(obj(rl, "hold_per_flush"), "p50_ns", s->hold_p50 * wall / 4000);
	add(rl, "hold_ns_per_op", s->hold_per_op * wall / 4000);
	add(rl, "hold_ns_per_sec", s->hold_per_op * value);
	if (s->reader) {
		struct json_object *sr = obj(obj(obj(extra, "profile_scope"), "who"), "stat_reader");

		add(sr, "ns_per_op", 2 * s->reader * wall / 4000);
		add(obj(sr, "self_ns_per_op"), "vfs_read", s->reader * wall / 4000);
	}
}

/* A change written as a % of 1000 or more ("+7775.00%") in @s. */
static bool big_pct(const char *s)
{
	for (; *s; s++) {
		size_t n = 0;

		if (*s != '+' && *s != '-')
			continue;
		while (s[1 + n] >= '0' && s[1 + n] <= '9')
			n++;
		if (n >= 4 && s[1 + n] == '.' && strchr(s + 1 + n, '%') == s + 4 + n)
			return true;
	}
	return false;
}

/* t_block's text: the block first, ratios, never a huge %. */
static void block_text(const struct cmp_result *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_int_equal(cmp_print(r, CMP_FMT_TEXT, out), 0);
	fclose(out);
	assert_non_null(strstr(text, "where the time went, B against A"));
	assert_true(strstr(text, "where the time went") < strstr(text, "per_task_ops (ops/s"));
	assert_non_null(strstr(text, "the four add up to +"));
	assert_non_null(strstr(text, " x7"));
	assert_false(big_pct(text));
	assert_non_null(strstr(text, "from 0"));
	free(text);
}

static void t_block(void **state)
{
	struct fixture *f = *state;
	const struct side a = { 100, 0, 0.001, 0, 18300, 30, 100 },
			  b = { 600, 1.03, 1.0, 0.18, 2500, 2100, 300 };
	struct cmp_result r = { 0 };
	struct cmp_why w;
	int m;

	/* the wall: 4000 ns/op (250000 ops/s) against 4500 */
	put(f, "a.json", (struct synth){ .runs = 6, .tasks = 1, .mean = 250000, .cov = 0.5,
		.seed = 1, .more = more, .more_arg = &a });
	put(f, "b.json", (struct synth){ .runs = 6, .tasks = 1, .mean = 1e9 / 4500, .cov = 0.5,
		.seed = 2, .more = more, .more_arg = &b });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	assert_int_equal(r.ngroups, 1);
	cmp_why_point(&r, 0, 1, &w);
	assert_true(w.wall_from_account && w.have_parts);
	assert_true(fabs(w.wall_d - 500) < 30);
	assert_true(fabs(w.parts_d - w.wall_d) < 1e-6 * w.wall_b);       /* they add up */
	assert_true(fabs(w.ops_wall_d - w.wall_d) < 0.01 * fabs(w.wall_d)); /* to ops/s */
	assert_string_equal(w.part[0].name, "user");
	assert_true(fabs(w.part[0].d - w.wall_d) < 1e-6 * w.wall_b);
	assert_int_equal(w.part[0].delta->verdict, CMP_REGRESSION);
	assert_int_equal(w.part[3].delta->verdict, CMP_NO_CHANGE);   /* blocked */
	assert_true(w.head && w.head->verdict == CMP_REGRESSION);
	/* own counters: the limit hits and the refaults; pgfault held */
	assert_int_equal(w.nctr, 2);
	assert_string_equal(w.ctr[0].name, "memcg.failcnt.per_op");
	assert_string_equal(w.ctr[1].name, "memcg.workingset_refault_file.per_op");
	assert_int_equal(w.nsys_ctr, 1);
	assert_string_equal(w.sys_ctr[0].name, "proc-vmstat.pgscan_file.per_op");
	assert_int_equal(w.nlock, 1);
	assert_string_equal(w.lock[0].name, "rstat_hold_per_op");
	/* the reader's functions, merged over the runs, in their own list */
	assert_int_equal(w.nreader, 1);
	assert_string_equal(w.reader[0].name, "stat_reader.fn.vfs_read");
	assert_true(fabs(w.reader[0].a - 100) < 5 && fabs(w.reader[0].b - 300 * 4500 / 4000.0) < 20);
	assert_int_equal(w.nwho, 1);
	assert_string_equal(w.who[0].name, "who.stat_reader");
	assert_int_equal(w.nfn, 0);
	assert_null(w.fn_how);
	/* the median hold fell 86% while the total rose x79: no improvement */
	m = cmp_mset_find(&r.ms, "rstat_hold_p50");
	assert_true(m >= 0);
	assert_true(cmp_delta_of(&r, &r.groups[0], 1, (size_t)m)->pct < -80);
	assert_int_equal(cmp_delta_of(&r, &r.groups[0], 1, (size_t)m)->verdict, CMP_INCONCLUSIVE);
	assert_string_equal(cmp_effect(cmp_delta_of(&r, &r.groups[0], 1, (size_t)m)), "-");
	block_text(&r);
	cmp_result_free(&r);
}

/* A counter that is 0 on every run of one side and above 0 on every run
 * of the other is decided at 4 a side: Fisher's exact p 2/70 = 0.029,
 * BH only among the counters that were 0 on some run (here it alone). */
static const struct cmp_delta *named(const struct cmp_result *r, const char *name)
{
	int m = cmp_mset_find(&r->ms, name);

	assert_true(m >= 0);
	return cmp_delta_of(r, &r->groups[0], 1, (size_t)m);
}

static void t_all_or_nothing(void **state)
{
	struct fixture *f = *state;
	const struct side a = { 100, 0, 0.001, 0, 18300, 30, 0 }, b = { 100, 0, 0.001, 0.153, 18300, 30, 0 };
	struct cmp_result r = { 0 };
	const struct cmp_delta *d;

	put(f, "a.json", (struct synth){ .runs = 4, .tasks = 1, .mean = 250000, .cov = 0.5,
		.seed = 1, .more = more, .more_arg = &a });
	put(f, "b.json", (struct synth){ .runs = 4, .tasks = 1, .mean = 250000, .cov = 0.5,
		.seed = 2, .more = more, .more_arg = &b });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	d = named(&r, "memcg.failcnt.per_op");
	assert_true(d->from_zero && d->sporadic);
	assert_true(fabs(d->p - 2.0 / 70) < 1e-9 && fabs(d->q - 2.0 / 70) < 1e-9);
	assert_int_equal(d->verdict, CMP_REGRESSION);
	assert_non_null(strstr(d->why, "Fisher"));
	/* the others are judged in their own family, as before */
	d = named(&r, "memcg.workingset_refault_file.per_op");
	assert_false(d->sporadic);
	cmp_result_free(&r);
	/* the reverse: it went away */
	memset(&r, 0, sizeof(r));
	analyse(&r, path(f, "b.json"), path(f, "a.json"), 2);
	d = named(&r, "memcg.failcnt.per_op");
	assert_true(d->to_zero && !d->from_zero);
	assert_int_equal(d->verdict, CMP_IMPROVEMENT);
	cmp_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ratio_format),
		cmocka_unit_test(t_absent_is_zero),
		cmocka_unit_test(t_zero_and_from_zero),
		cmocka_unit_test(t_part_rule),
		cmocka_unit_test(t_cap_rule),
		cmocka_unit_test(t_rank),
		cmocka_unit_test_setup_teardown(t_block, setup, teardown),
		cmocka_unit_test_setup_teardown(t_all_or_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
