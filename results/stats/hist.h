/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist.h - a log-bucketed latency histogram in the spirit of HdrHistogram:
 * values (ns) below 128 are counted exactly; above, every power of two is
 * split into 64 equal sub-buckets, so a bucket is at most 1/64 of its lower
 * edge wide. A percentile is reported as the middle of its bucket, clamped
 * to the exact min and max, which is within 1/128 (0.78%) of the true value
 * for any value of the whole uint64 range (100 ns to 10 s included).
 *
 * Fixed size (RES_HIST_NBUCKETS counters), no allocation: record is a
 * bit scan and an increment. Merging is adding counters, so histograms of
 * intervals, points and runs merge without loss.
 */
#ifndef CGS_RES_HIST_H
#define CGS_RES_HIST_H

#include <stddef.h>
#include <stdint.h>

struct json_object;

#define RES_HIST_SUB_BITS 6
#define RES_HIST_SUB (1u << RES_HIST_SUB_BITS)          /* per power of 2 */
#define RES_HIST_LINEAR (2u * RES_HIST_SUB)             /* exact below */
#define RES_HIST_NBUCKETS ((65u - RES_HIST_SUB_BITS) * RES_HIST_SUB)
#define RES_HIST_MAX_REL_ERR (1.0 / (2.0 * RES_HIST_SUB))

struct res_hist {
	uint64_t count, min, max;
	uint64_t sum;                        /* for the mean; ns */
	uint64_t bucket[RES_HIST_NBUCKETS];
};

/* What is reported per point and per interval. All 0 when count is 0. */
struct res_hist_summary {
	uint64_t count, min, p50, p90, p99, p999, max;
	double mean;
};

/* The bucket holding @v, and the bucket's edges [lower, lower + width). */
unsigned res_hist_index(uint64_t v);
uint64_t res_hist_lower(unsigned i);
uint64_t res_hist_width(unsigned i);

void res_hist_reset(struct res_hist *h);
void res_hist_record(struct res_hist *h, uint64_t v);

/* Add @src's counts to @dst. */
void res_hist_merge(struct res_hist *dst, const struct res_hist *src);

/*
 * The @q-th percentile (0..100): the value of rank ceil(q/100 x count)
 * (at least 1) in sorted order, as the middle of its bucket clamped to
 * [min, max]; q = 0 gives min, q = 100 max. 0 when empty.
 */
uint64_t res_hist_percentile(const struct res_hist *h, double q);

void res_hist_summarise(const struct res_hist *h, struct res_hist_summary *s);

/* {"count", "min_ns", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "max_ns",
 * "mean_ns"}; mean is null when empty. */
struct json_object *res_hist_summary_json(const struct res_hist_summary *s);

/*
 * The whole histogram: {"unit": "ns", "sub_buckets": 64, "exact_below":
 * 128, "max_rel_error", "count", "min", "max", "sum", "buckets": [[lower,
 * upper, count], ...]} with only the non-empty buckets, upper exclusive.
 */
struct json_object *res_hist_to_json(const struct res_hist *h);

/* Read back what res_hist_to_json wrote. 0 or -EINVAL with @err. */
int res_hist_from_json(struct json_object *j, struct res_hist *h, char *err,
		       size_t errlen);

#endif
