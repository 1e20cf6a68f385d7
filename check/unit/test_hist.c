/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_hist.c - the latency histogram: bucket edges (contiguous, exact
 * below 128 ns, at most 1/64 wide), percentiles of known distributions
 * against the exact sorted values (within 1/128, so within the promised
 * 1%, from 100 ns to 10 s), merging, and the JSON round trip.
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

#include "results/stats/hist.h"
#include "lib/macros.h"

#define N 200000

/* xorshift64*: deterministic, so a failure can be reproduced */
static uint64_t rng(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double unit(uint64_t *s)
{
	return ((double)(rng(s) >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct res_hist *new_hist(void)
{
	struct res_hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

static void t_edges(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 128; v++) {
		assert_int_equal(res_hist_index(v), v);
		assert_int_equal(res_hist_width(v), 1);
	}
	assert_int_equal(res_hist_index(128), 128);
	assert_int_equal(res_hist_index(129), 128);
	assert_int_equal(res_hist_index(130), 129);
	assert_int_equal(res_hist_lower(128), 128);
	assert_int_equal(res_hist_width(128), 2);
	assert_int_equal(res_hist_index(255), 191);
	assert_int_equal(res_hist_index(256), 192);
	assert_int_equal(res_hist_width(192), 4);
	assert_int_equal(res_hist_index(UINT64_MAX), RES_HIST_NBUCKETS - 1);
	for (unsigned i = 0; i < RES_HIST_NBUCKETS; i++) {
		uint64_t lo = res_hist_lower(i), w = res_hist_width(i);

		assert_int_equal(res_hist_index(lo), i);
		assert_int_equal(res_hist_index(lo + w - 1), i);
		if (i + 1 < RES_HIST_NBUCKETS)
			assert_int_equal(lo + w, res_hist_lower(i + 1));
		if (i >= 128)
			assert_true((double)w / (double)lo <= 1.0 / RES_HIST_SUB);
	}
}

/* The middle of v's bucket, what a percentile reports, is within 1/128 of
 * every value from 100 ns to 10 s. */
static void t_bucket_error(void **state)
{
	double worst = 0;

	(void)state;
	for (double x = 100; x <= 1e10; x *= 1.0007) {
		uint64_t v = (uint64_t)x;
		unsigned i = res_hist_index(v);
		double mid = (double)(res_hist_lower(i) + res_hist_width(i) / 2);
		double e = fabs(mid - (double)v) / (double)v;

		if (e > worst)
			worst = e;
	}
	assert_true(worst <= RES_HIST_MAX_REL_ERR);
	assert_true(worst > 0.5 * RES_HIST_MAX_REL_ERR);   /* the bound is tight */
	assert_true(RES_HIST_MAX_REL_ERR < 0.01);
}

/* Record @v[n] and check each percentile against the exact one. */
static void check_percentiles(uint64_t *v, size_t n, const char *what)
{
	static const double qs[] = { 0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };
	struct res_hist *h = new_hist();
	struct res_hist_summary s;

	for (size_t i = 0; i < n; i++)
		res_hist_record(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h->count, n);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	for (size_t k = 0; k < ARRAY_SIZE(qs); k++) {
		uint64_t rank = (uint64_t)ceil(qs[k] / 100.0 * (double)n);
		uint64_t exact = v[rank ? rank - 1 : 0];
		uint64_t got = res_hist_percentile(h, qs[k]);
		double e = fabs((double)got - (double)exact) / (double)exact;

		if (e > RES_HIST_MAX_REL_ERR)
			fail_msg("%s: p%g is %llu, exact %llu (error %.4f%%)", what,
				 qs[k], (unsigned long long)got,
				 (unsigned long long)exact, 100 * e);
	}
	res_hist_summarise(h, &s);
	assert_true(s.min <= s.p50 && s.p50 <= s.p90 && s.p90 <= s.p99 &&
		    s.p99 <= s.p999 && s.p999 <= s.max);
	free(h);
}

static void t_distributions(void **state)
{
	uint64_t *v = calloc(N, sizeof(*v)), seed = 0x9e3779b97f4a7c15ULL;

	(void)state;
	assert_non_null(v);
	/* log-uniform over the whole promised range, 100 ns .. 10 s */
	for (size_t i = 0; i < N; i++)
		v[i] = (uint64_t)(100.0 * pow(1e8, unit(&seed)));
	check_percentiles(v, N, "log-uniform 100 ns..10 s");
	/* exponential, mean 50 us, plus 100 ns */
	for (size_t i = 0; i < N; i++)
		v[i] = 100 + (uint64_t)(-50000.0 * log(unit(&seed)));
	check_percentiles(v, N, "exponential");
	/* log-normal around 20 us with a heavy tail */
	for (size_t i = 0; i < N; i++) {
		double z = sqrt(-2 * log(unit(&seed))) * cos(2 * M_PI * unit(&seed));

		v[i] = (uint64_t)(20000.0 * exp(1.5 * z)) + 100;
	}
	check_percentiles(v, N, "log-normal");
	/* uniform 1..1000 ns: mostly in the exact range */
	for (size_t i = 0; i < N; i++)
		v[i] = 1 + rng(&seed) % 1000;
	check_percentiles(v, N, "uniform 1..1000 ns");
	/* two modes far apart: 1% at 5 ms, the rest at 3 us */
	for (size_t i = 0; i < N; i++)
		v[i] = i % 100 ? 3000 + rng(&seed) % 100 : 5000000 + rng(&seed) % 10000;
	check_percentiles(v, N, "bimodal");
	free(v);
}

/* Known closed forms: 1..100000 once each. */
static void t_known(void **state)
{
	struct res_hist *h = new_hist();
	struct res_hist_summary s;

	(void)state;
	for (uint64_t x = 1; x <= 100000; x++)
		res_hist_record(h, x);
	res_hist_summarise(h, &s);
	assert_int_equal(s.count, 100000);
	assert_int_equal(s.min, 1);
	assert_int_equal(s.max, 100000);
	assert_true(fabs((double)s.p50 - 50000) <= 50000 * RES_HIST_MAX_REL_ERR);
	assert_true(fabs((double)s.p90 - 90000) <= 90000 * RES_HIST_MAX_REL_ERR);
	assert_true(fabs((double)s.p99 - 99000) <= 99000 * RES_HIST_MAX_REL_ERR);
	assert_true(fabs((double)s.p999 - 99900) <= 99900 * RES_HIST_MAX_REL_ERR);
	assert_true(fabs(s.mean - 50000.5) < 1e-6);
	/* one value: every percentile is that value exactly (clamped) */
	res_hist_reset(h);
	res_hist_record(h, 123456789);
	for (double q = 0; q <= 100; q += 12.5)
		assert_int_equal(res_hist_percentile(h, q), 123456789);
	/* empty */
	res_hist_reset(h);
	res_hist_summarise(h, &s);
	assert_int_equal(s.count, 0);
	assert_int_equal(res_hist_percentile(h, 50), 0);
	free(h);
}

static void t_merge(void **state)
{
	struct res_hist *a = new_hist(), *b = new_hist(), *all = new_hist(),
			*e = new_hist();
	uint64_t seed = 42;

	(void)state;
	for (int i = 0; i < 50000; i++) {
		uint64_t v = (uint64_t)(100.0 * pow(1e8, unit(&seed)));

		res_hist_record(i % 3 ? a : b, v);
		res_hist_record(all, v);
	}
	res_hist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	/* merging an empty one changes nothing; into an empty one copies */
	res_hist_merge(a, e);
	assert_memory_equal(a, all, sizeof(*a));
	res_hist_merge(e, all);
	assert_memory_equal(e, all, sizeof(*e));
	/* min of the merge is the smaller min even when dst had one */
	res_hist_reset(a);
	res_hist_reset(b);
	res_hist_record(a, 500);
	res_hist_record(b, 7);
	res_hist_record(b, 9000);
	res_hist_merge(a, b);
	assert_int_equal(a->min, 7);
	assert_int_equal(a->max, 9000);
	assert_int_equal(a->count, 3);
	free(a);
	free(b);
	free(all);
	free(e);
}

static void t_json(void **state)
{
	struct res_hist *h = new_hist(), *back = new_hist();
	struct json_object *j, *bk, *s;
	uint64_t seed = 7;
	char err[256];

	(void)state;
	for (int i = 0; i < 10000; i++)
		res_hist_record(h, (uint64_t)(-30000.0 * log(unit(&seed))));
	j = res_hist_to_json(h);
	/* through text, as a result file would */
	bk = json_tokener_parse(json_object_to_json_string(j));
	assert_non_null(bk);
	assert_int_equal(res_hist_from_json(bk, back, err, sizeof(err)), 0);
	assert_memory_equal(h, back, sizeof(*h));
	json_object_put(bk);
	/* a bucket whose edges are not edges is refused */
	bk = json_tokener_parse("{\"sub_buckets\":64,\"count\":1,\"min\":300,\"max\":300,"
				"\"sum\":300,\"buckets\":[[300,305,1]]}");
	assert_int_equal(res_hist_from_json(bk, back, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "edges"));
	json_object_put(bk);
	/* counts that do not add up are refused */
	bk = json_tokener_parse("{\"sub_buckets\":64,\"count\":2,\"min\":300,\"max\":300,"
				"\"sum\":300,\"buckets\":[[300,304,1]]}");
	assert_int_equal(res_hist_from_json(bk, back, err, sizeof(err)), -EINVAL);
	json_object_put(bk);
	/* another layout is refused, not misread */
	bk = json_tokener_parse("{\"sub_buckets\":128,\"count\":0,\"min\":0,\"max\":0,"
				"\"sum\":0,\"buckets\":[]}");
	assert_int_equal(res_hist_from_json(bk, back, err, sizeof(err)), -EINVAL);
	json_object_put(bk);
	/* the summary of an empty histogram has nulls, not zeros */
	res_hist_reset(h);
	{
		struct res_hist_summary sm;

		res_hist_summarise(h, &sm);
		s = res_hist_summary_json(&sm);
		assert_true(json_object_object_get_ex(s, "p99_ns", &bk));
		assert_null(bk);
		json_object_put(s);
	}
	json_object_put(j);
	free(h);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_edges),
		cmocka_unit_test(t_bucket_error),
		cmocka_unit_test(t_distributions),
		cmocka_unit_test(t_known),
		cmocka_unit_test(t_merge),
		cmocka_unit_test(t_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
