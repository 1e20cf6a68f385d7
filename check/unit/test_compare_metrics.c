/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_metrics.c - compare's metrics other than ops/s on
 * synthetic result files (synth.h): fairness (the slowest task), the
 * perf counters, the stat reader's latency percentiles and the
 * workloads' aux counters; every row of the table whole, and each
 * observer's row read from the dotted path it names.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "check/unit/cmp_fixture.h"
#include "check/unit/synth.h"

/* Index and row of a metric in the set of files without aux counters,
 * which is what analyse() gives for synth.h's files. */
static size_t metric_index(const char *name)
{
	struct cmp_mset ms;
	int m;

	cmp_mset_init(&ms);
	m = cmp_mset_find(&ms, name);
	assert_true(m >= 0);
	return (size_t)m;
}

static struct cmp_metric metric_at(size_t m)
{
	struct cmp_mset ms;

	cmp_mset_init(&ms);
	assert_true(m < ms.n);
	return ms.m[m];
}

static void test_fairness_metric(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };
	size_t m;

	m = metric_index("min_task_ops");
	put(f, "a.json", (struct synth){ .runs = 8, .cov = 0.3, .seed = 40 });
	put(f, "b.json", (struct synth){ .runs = 8, .cov = 0.3, .seed = 41, .slow = 0.3 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	/* one task 30% slower: the slowest task regresses, BH-significant */
	assert_int_equal(cmp_delta_of(&r, &r.groups[0], 1, m)->verdict, CMP_REGRESSION);
	assert_true(cmp_delta_of(&r, &r.groups[0], 1, m)->q < 0.05);
	cmp_result_free(&r);
}

/* A lower-is-better metric read from the perf section by its path. */
static void test_perf_metric(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };
	const struct cmp_delta *d;
	size_t m;

	m = metric_index("path_length");
	assert_int_equal(metric_at(m).dir, -1);
	put(f, "a.json", (struct synth){ .runs = 6, .cov = 0.3, .seed = 70, .path_length = 1500 });
	put(f, "b.json", (struct synth){ .runs = 6, .cov = 0.3, .seed = 71, .shift = -10,
					 .path_length = 1500 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	d = cmp_delta_of(&r, &r.groups[0], 1, m);
	assert_true(d->valid);
	/* 11% more instructions per op: a plain +11%, above +T, worse */
	assert_true(d->pct > 9 && d->pct < 13);
	assert_true(d->lo > 5);
	assert_int_equal(d->verdict, CMP_REGRESSION);
	assert_string_equal(cmp_effect(d), "worse");
	cmp_result_free(&r);
	/* files without a perf section simply lack the metric */
	put(f, "c.json", (struct synth){ .runs = 6, .cov = 0.3, .seed = 72 });
	memset(&r, 0, sizeof(r));
	analyse(&r, path(f, "a.json"), path(f, "c.json"), 2);
	assert_false(cmp_delta_of(&r, &r.groups[0], 1, m)->valid);
	cmp_result_free(&r);
}

/*
 * Stats-reader latencies: lower is better, and p99 is judged against the
 * tail threshold (10%), not the primary one (2%).
 */
static void test_latency_metrics(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };
	size_t ops = metric_index("per_task_ops"), p50 = metric_index("stat_p50");
	size_t p99 = metric_index("stat_p99");
	const struct cmp_delta *d;

	assert_int_equal(metric_at(p99).dir, -1);
	assert_int_equal(metric_at(p99).cls, CMP_TAIL);
	assert_int_equal(metric_at(p50).cls, CMP_SECONDARY);
	/* ops/s -6%: reads take 6.4% longer */
	put(f, "a.json", (struct synth){ .runs = 8, .cov = 0.2, .seed = 80, .p99_ns = 60000 });
	put(f, "b.json", (struct synth){ .runs = 8, .cov = 0.2, .seed = 81, .shift = -6,
					 .p99_ns = 60000 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	assert_int_equal(cmp_delta_of(&r, &r.groups[0], 1, ops)->verdict, CMP_REGRESSION);
	d = cmp_delta_of(&r, &r.groups[0], 1, p99);
	assert_true(d->valid);
	assert_true(d->pct > 5.5 && d->pct < 7.5);   /* up 6.4%: slower */
	/* within the 10% tail threshold: no regression called on p99 */
	assert_int_not_equal(d->verdict, CMP_REGRESSION);
	/* but beyond the 5% secondary one for the median */
	assert_int_equal(cmp_delta_of(&r, &r.groups[0], 1, p50)->verdict, CMP_REGRESSION);
	cmp_result_free(&r);
	/* -20%: reads take 25% longer, a tail regression too */
	put(f, "c.json", (struct synth){ .runs = 8, .cov = 0.2, .seed = 82, .shift = -20,
					 .p99_ns = 60000 });
	memset(&r, 0, sizeof(r));
	analyse(&r, path(f, "a.json"), path(f, "c.json"), 2);
	assert_int_equal(cmp_delta_of(&r, &r.groups[0], 1, p99)->verdict, CMP_REGRESSION);
	cmp_result_free(&r);
}

/* The workloads' own figures come from their aux counters, by name:
 * aux.NAME per task, in the unit the result gives, whatever the names. */
static void test_aux_metrics(void **state)
{
	const char *names[] = { "tx_bytes", "rx_bytes" }, *units[] = { "Mbit/s", "Mbit/s" };
	const char *pnames[] = { "passes" }, *punits[] = { "bogo-ops/s" };
	const double scales[] = { 8e-6, 8e-6 }, pscale[] = { 0.25 };
	struct res_point p = { 0 }, q = { 0 };
	struct cmp_mset ms;
	int rx, tx, passes;

	(void)state;
	assert_int_equal(res_point_alloc(&p, 2, 1), 0);
	p.tasks = 2;
	assert_int_equal(res_point_set_aux(&p, 2, names, units, scales), 0);
	p.sum.aux_task_rate[0] = 111;
	p.sum.aux_task_rate[1] = 24000;
	assert_int_equal(res_point_alloc(&q, 2, 1), 0);
	q.tasks = 2;
	assert_int_equal(res_point_set_aux(&q, 1, pnames, punits, pscale), 0);
	q.sum.aux_task_rate[0] = 40;
	cmp_mset_init(&ms);
	assert_int_equal(cmp_mset_find(&ms, "aux.rx_bytes"), -1);
	assert_int_equal(cmp_mset_add_point(&ms, &p), 0);
	assert_int_equal(cmp_mset_add_point(&ms, &q), 0);
	assert_int_equal(cmp_mset_add_point(&ms, &p), 0);   /* each name once */
	tx = cmp_mset_find(&ms, "aux.tx_bytes");
	rx = cmp_mset_find(&ms, "aux.rx_bytes");
	passes = cmp_mset_find(&ms, "aux.passes");
	assert_true(tx >= 0 && rx == tx + 1 && passes == rx + 1);
	/* where the base table marks them: after scalability */
	assert_int_equal(tx, cmp_mset_find(&ms, "scalability") + 1);
	assert_int_equal(ms.n, cmp_nbase_metrics - 1 + 3);
	assert_string_equal(ms.m[rx].unit, "Mbit/s");
	assert_string_equal(ms.m[passes].unit, "bogo-ops/s");
	assert_int_equal(ms.m[rx].dir, +1);
	assert_int_equal(ms.m[rx].cls, CMP_SECONDARY);
	assert_float_equal(cmp_metric_value(&ms.m[rx], &p), 24000, 1e-9);
	assert_float_equal(cmp_metric_value(&ms.m[tx], &p), 111, 1e-9);
	assert_true(isnan(cmp_metric_value(&ms.m[passes], &p)));
	assert_float_equal(cmp_metric_value(&ms.m[passes], &q), 40, 1e-9);
	assert_true(isnan(cmp_metric_value(&ms.m[rx], &q)));
	res_point_free(&p);
	res_point_free(&q);
}

/* @v at the dotted @path of a new object: "a.b" gives {"a": {"b": v}}. */
static struct json_object *at_path(const char *path, struct json_object *v)
{
	struct json_object *root = json_object_new_object(), *o = root;
	char buf[128], *save, *tok, *next;

	snprintf(buf, sizeof(buf), "%s", path);
	buf[strcspn(buf, "|")] = 0;    /* "a.b|0": the key is b */
	for (tok = strtok_r(buf, ".", &save); tok; tok = next) {
		struct json_object *c;

		next = strtok_r(NULL, ".", &save);
		c = next ? json_object_new_object() : v;
		json_object_object_add(o, tok, c);
		o = c;
	}
	return root;
}

/*
 * Every row of the table is whole, and a row that names a dotted path is
 * all it takes for a metric of a point's extra section (an observer's):
 * the number at that path is the value; absent, or not a number, NAN.
 */
static void test_rows_read_their_path(void **state)
{
	unsigned markers = 0;

	(void)state;
	for (size_t b = 0; b < cmp_nbase_metrics; b++) {
		const struct cmp_metric *m = &cmp_base_metrics[b];
		struct res_point p = { 0 };

		if (!m->name) {
			markers++;
			continue;
		}
		assert_non_null(m->unit);
		assert_non_null(m->desc);
		assert_true(m->dir == 1 || m->dir == -1);
		assert_true(m->cls < CMP_NCLASS);
		assert_true(!m->get != !m->extra_path);   /* one source */
		for (size_t c = 0; c < b; c++)
			if (cmp_base_metrics[c].name && !strcmp(cmp_base_metrics[c].name, m->name))
				fail_msg("metric '%s' twice", m->name);
		if (!m->extra_path)
			continue;
		assert_true(isnan(cmp_metric_value(m, &p)));
		p.extra = at_path(m->extra_path, json_object_new_double(1234.5 + b));
		if (cmp_metric_value(m, &p) != 1234.5 + b)
			fail_msg("metric '%s' does not read %s", m->name, m->extra_path);
		json_object_put(p.extra);
		p.extra = at_path(m->extra_path, json_object_new_string("12"));
		assert_true(isnan(cmp_metric_value(m, &p)));
		json_object_put(p.extra);
	}
	assert_int_equal(markers, 1);   /* where the aux counters go */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fairness_metric, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perf_metric, setup, teardown),
		cmocka_unit_test_setup_teardown(test_latency_metrics, setup, teardown),
		cmocka_unit_test(test_aux_metrics),
		cmocka_unit_test(test_rows_read_their_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
