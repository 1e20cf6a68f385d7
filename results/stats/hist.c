/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist.c - the log-bucketed latency histogram of hist.h: bucket
 * arithmetic, percentiles, merging, and its JSON form.
 *
 * Bucket i < 128 holds exactly the value i. Above, the value's highest
 * set bit k (k >= 7) picks a block of 64 buckets, and the 6 bits below it
 * pick the bucket: index = (k - 6) x 64 + (v >> (k - 6)), width 2^(k-6).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "results/stats/hist.h"

unsigned res_hist_index(uint64_t v)
{
	unsigned k, shift;

	if (v < RES_HIST_LINEAR)
		return (unsigned)v;
	k = 63u - (unsigned)__builtin_clzll(v);
	shift = k - RES_HIST_SUB_BITS;
	return shift * RES_HIST_SUB + (unsigned)(v >> shift);
}

uint64_t res_hist_lower(unsigned i)
{
	unsigned shift;

	if (i < RES_HIST_LINEAR)
		return i;
	shift = i / RES_HIST_SUB - 1;
	return (uint64_t)((i % RES_HIST_SUB) + RES_HIST_SUB) << shift;
}

uint64_t res_hist_width(unsigned i)
{
	return i < RES_HIST_LINEAR ? 1 : (uint64_t)1 << (i / RES_HIST_SUB - 1);
}

void res_hist_reset(struct res_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void res_hist_record(struct res_hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	h->bucket[res_hist_index(v)]++;
}

void res_hist_merge(struct res_hist *dst, const struct res_hist *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (unsigned i = 0; i < RES_HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t res_hist_percentile(const struct res_hist *h, double q)
{
	uint64_t rank, seen = 0, v;

	if (!h->count)
		return 0;
	if (!(q > 0))
		return h->min;
	if (q >= 100)
		return h->max;
	rank = (uint64_t)ceil(q / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < RES_HIST_NBUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		v = res_hist_lower(i) + res_hist_width(i) / 2;
		return v < h->min ? h->min : v > h->max ? h->max : v;
	}
	return h->max;
}

void res_hist_summarise(const struct res_hist *h, struct res_hist_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!h->count)
		return;
	s->count = h->count;
	s->min = h->min;
	s->max = h->max;
	s->p50 = res_hist_percentile(h, 50);
	s->p90 = res_hist_percentile(h, 90);
	s->p99 = res_hist_percentile(h, 99);
	s->p999 = res_hist_percentile(h, 99.9);
	s->mean = (double)h->sum / (double)h->count;
}

static struct json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

struct json_object *res_hist_summary_json(const struct res_hist_summary *s)
{
	struct json_object *o = json_object_new_object();
	bool none = !s->count;

	json_object_object_add(o, "count", u64(s->count));
	json_object_object_add(o, "min_ns", none ? NULL : u64(s->min));
	json_object_object_add(o, "p50_ns", none ? NULL : u64(s->p50));
	json_object_object_add(o, "p90_ns", none ? NULL : u64(s->p90));
	json_object_object_add(o, "p99_ns", none ? NULL : u64(s->p99));
	json_object_object_add(o, "p99_9_ns", none ? NULL : u64(s->p999));
	json_object_object_add(o, "max_ns", none ? NULL : u64(s->max));
	json_object_object_add(o, "mean_ns", none ? NULL : json_object_new_double(s->mean));
	return o;
}

struct json_object *res_hist_to_json(const struct res_hist *h)
{
	struct json_object *o = json_object_new_object();
	struct json_object *b = json_object_new_array();

	json_object_object_add(o, "unit", json_object_new_string("ns"));
	json_object_object_add(o, "sub_buckets", json_object_new_int(RES_HIST_SUB));
	json_object_object_add(o, "exact_below", json_object_new_int(RES_HIST_LINEAR));
	json_object_object_add(o, "max_rel_error", json_object_new_double(RES_HIST_MAX_REL_ERR));
	json_object_object_add(o, "count", u64(h->count));
	json_object_object_add(o, "min", u64(h->min));
	json_object_object_add(o, "max", u64(h->max));
	json_object_object_add(o, "sum", u64(h->sum));
	for (unsigned i = 0; i < RES_HIST_NBUCKETS; i++) {
		struct json_object *e;

		if (!h->bucket[i])
			continue;
		e = json_object_new_array_ext(3);
		json_object_array_add(e, u64(res_hist_lower(i)));
		json_object_array_add(e, u64(res_hist_lower(i) + res_hist_width(i)));
		json_object_array_add(e, u64(h->bucket[i]));
		json_object_array_add(b, e);
	}
	json_object_object_add(o, "buckets", b);
	return o;
}

static int bad(char *err, size_t errlen, const char *what)
{
	if (err && errlen)
		snprintf(err, errlen, "latency histogram: %s", what);
	return -EINVAL;
}

static int get_u64(struct json_object *o, const char *k, uint64_t *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_int))
		return -EINVAL;
	*v = json_object_get_uint64(x);
	return 0;
}

int res_hist_from_json(struct json_object *j, struct res_hist *h, char *err,
		       size_t errlen)
{
	struct json_object *b, *sub;
	uint64_t total = 0;
	size_t n;

	res_hist_reset(h);
	if (!json_object_is_type(j, json_type_object))
		return bad(err, errlen, "not an object");
	if (!json_object_object_get_ex(j, "sub_buckets", &sub) ||
	    json_object_get_int(sub) != (int)RES_HIST_SUB)
		return bad(err, errlen, "sub_buckets is not 64 (another layout)");
	if (get_u64(j, "count", &h->count) || get_u64(j, "min", &h->min) ||
	    get_u64(j, "max", &h->max) || get_u64(j, "sum", &h->sum))
		return bad(err, errlen, "count, min, max or sum missing");
	if (!json_object_object_get_ex(j, "buckets", &b) ||
	    !json_object_is_type(b, json_type_array))
		return bad(err, errlen, "no buckets array");
	n = json_object_array_length(b);
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(b, k);
		uint64_t lo, c;
		unsigned i;

		if (!json_object_is_type(e, json_type_array) ||
		    json_object_array_length(e) != 3)
			return bad(err, errlen, "a bucket is not [lower, upper, count]");
		lo = json_object_get_uint64(json_object_array_get_idx(e, 0));
		c = json_object_get_uint64(json_object_array_get_idx(e, 2));
		i = res_hist_index(lo);
		if (res_hist_lower(i) != lo ||
		    lo + res_hist_width(i) !=
		    json_object_get_uint64(json_object_array_get_idx(e, 1)))
			return bad(err, errlen, "a bucket's edges are not bucket edges");
		h->bucket[i] += c;
		total += c;
	}
	if (total != h->count)
		return bad(err, errlen, "bucket counts do not add up to count");
	return 0;
}
