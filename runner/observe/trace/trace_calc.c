/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_calc.c - the memcg-flush records of a point turned into figures
 * (trace.h), pure so it is unit-tested on made-up records.
 *
 * Counts: memcg_flush_stats records (calls of mem_cgroup_flush_stats;
 * needs_flush says whether enough updates were pending to flush), all of
 * them and those of the point's own cgroups (the record's id is the
 * cgroup id, the inode number of its directory).
 *
 * The rstat lock: a task's locked record opens a hold (and closes a wait
 * its lock_contended record opened), its unlock record closes it; the
 * lock is held with interrupts off, so both come from the same task
 * without a switch. Recent kernels take the lock once per CPU of a flush
 * (the record's cpu field counts up to the last possible CPU); a flush is
 * one task's run of acquisitions from a cpu field that does not follow
 * the last one to the unlock of the last CPU (or of cpu -1: the whole
 * flush at once, on kernels that lock once). A flush's hold and wait are
 * the sums over its acquisitions. Flushes not finished when the window
 * closes are not counted.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "results/stats/hist.h"
#include "runner/observe/trace/trace_calc.h"

#define TP_NPID 64          /* tasks tracked at once; the oldest is reused */
#define TP_NOWN 64

struct tp_task {
	int pid;                 /* 0: free */
	int64_t used;            /* last record, for reuse */
	int64_t contended_t, locked_t;
	bool in_flush;
	int last_cpu;
	uint64_t id;
	uint64_t hold, wait;     /* of the flush so far */
};

struct cgs_tpcalc {
	int last_cpu;
	uint64_t own[TP_NOWN];
	unsigned nown;
	int64_t w0, w1;
	/* memcg_flush_stats: [0] all, [1] own */
	uint64_t calls[2], needed[2], forced[2];
	int64_t updates[2];
	/* the rstat lock */
	uint64_t locked[2], contended, flushes, lost;
	struct res_hist hold, wait, fhold, fwait;
	struct tp_task task[TP_NPID];
};

struct cgs_tpcalc *cgs_tpcalc_new(int last_cpu)
{
	struct cgs_tpcalc *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->last_cpu = last_cpu;
	c->w1 = INT64_MAX;
	res_hist_reset(&c->hold);
	res_hist_reset(&c->wait);
	res_hist_reset(&c->fhold);
	res_hist_reset(&c->fwait);
	return c;
}

void cgs_tpcalc_free(struct cgs_tpcalc *c)
{
	free(c);
}

void cgs_tpcalc_own(struct cgs_tpcalc *c, const uint64_t *ids, unsigned n)
{
	for (unsigned i = 0; i < n && c->nown < TP_NOWN; i++)
		c->own[c->nown++] = ids[i];
}

void cgs_tpcalc_window(struct cgs_tpcalc *c, int64_t start_ns, int64_t end_ns)
{
	c->w0 = start_ns;
	c->w1 = end_ns;
}

void cgs_tpcalc_lost(struct cgs_tpcalc *c, uint64_t n)
{
	c->lost += n;
}

static bool is_own(const struct cgs_tpcalc *c, uint64_t id)
{
	for (unsigned i = 0; i < c->nown; i++)
		if (c->own[i] == id)
			return true;
	return false;
}

static struct tp_task *task_of(struct cgs_tpcalc *c, int pid, int64_t t)
{
	struct tp_task *old = &c->task[0];

	for (int i = 0; i < TP_NPID; i++) {
		if (c->task[i].pid == pid) {
			c->task[i].used = t;
			return &c->task[i];
		}
		if (c->task[i].used < old->used)
			old = &c->task[i];
	}
	memset(old, 0, sizeof(*old));
	old->pid = pid;
	old->used = t;
	return old;
}

static void flush_end(struct cgs_tpcalc *c, struct tp_task *k)
{
	res_hist_record(&c->fhold, k->hold);
	res_hist_record(&c->fwait, k->wait);
	c->flushes++;
	k->in_flush = false;
}

static void on_locked(struct cgs_tpcalc *c, struct tp_task *k,
		      const struct cgs_tpev *e)
{
	int cpu = (int)e->a;

	if (!k->in_flush || cpu < 0 || cpu <= k->last_cpu || e->id != k->id) {
		k->in_flush = true;      /* an unfinished one is dropped */
		k->hold = k->wait = 0;
		k->id = e->id;
	}
	k->last_cpu = cpu;
	k->locked_t = e->t_ns;
	c->locked[0]++;
	c->locked[1] += is_own(c, e->id);
	if (k->contended_t) {
		uint64_t w = (uint64_t)(e->t_ns - k->contended_t);

		res_hist_record(&c->wait, w);
		k->wait += w;
		k->contended_t = 0;
	}
}

static void on_unlock(struct cgs_tpcalc *c, struct tp_task *k,
		      const struct cgs_tpev *e)
{
	int cpu = (int)e->a;

	if (!k->locked_t)
		return;             /* locked before the window */
	res_hist_record(&c->hold, (uint64_t)(e->t_ns - k->locked_t));
	k->hold += (uint64_t)(e->t_ns - k->locked_t);
	k->locked_t = 0;
	if (k->in_flush && (cpu < 0 || cpu >= c->last_cpu))
		flush_end(c, k);
}

void cgs_tpcalc_add(struct cgs_tpcalc *c, const struct cgs_tpev *e)
{
	struct tp_task *k;
	int own;

	if (e->t_ns < c->w0 || e->t_ns > c->w1)
		return;
	own = is_own(c, e->id);
	switch (e->kind) {
	case CGS_TP_MEMCG_FLUSH:
		for (int i = 0; i <= own; i++) {
			c->calls[i]++;
			c->needed[i] += e->c;
			c->forced[i] += e->b;
			c->updates[i] += e->a;
		}
		return;
	case CGS_TP_RSTAT_CONTENDED:
		c->contended++;
		k = task_of(c, e->pid, e->t_ns);
		k->contended_t = e->t_ns;
		return;
	case CGS_TP_RSTAT_LOCKED:
		on_locked(c, task_of(c, e->pid, e->t_ns), e);
		return;
	case CGS_TP_RSTAT_UNLOCK:
		on_unlock(c, task_of(c, e->pid, e->t_ns), e);
		return;
	default:
		return;
	}
}

static double rate(double n, double d)
{
	return d > 0 ? n / d : NAN;
}

/* {"all": n, "own": n} with rates of the own count. */
static struct json_object *counts(const uint64_t v[2], double el, uint64_t ops,
				  uint64_t reads)
{
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "all", json_object_new_uint64(v[0]));
	cgs_jadd(o, "own", json_object_new_uint64(v[1]));
	cgs_jadd(o, "all_per_sec", cgs_jnum(rate((double)v[0], el)));
	cgs_jadd(o, "own_per_sec", cgs_jnum(rate((double)v[1], el)));
	cgs_jadd(o, "own_per_op", cgs_jnum(rate((double)v[1], (double)ops)));
	cgs_jadd(o, "own_per_read", cgs_jnum(rate((double)v[1], (double)reads)));
	return o;
}

static struct json_object *hist(const struct res_hist *h)
{
	struct res_hist_summary s;

	res_hist_summarise(h, &s);
	return res_hist_summary_json(&s);
}

struct json_object *cgs_tpcalc_json(const struct cgs_tpcalc *c,
				    const struct cgs_trace *t, double el,
				    uint64_t ops, uint64_t reads)
{
	struct json_object *o = json_object_new_object(), *f = NULL, *l = NULL;

	if (t->tp[CGS_TP_MEMCG_FLUSH].supported) {
		f = json_object_new_object();
		cgs_jadd(f, "calls", counts(c->calls, el, ops, reads));
		cgs_jadd(f, "flushed", counts(c->needed, el, ops, reads));
		cgs_jadd(f, "forced", counts(c->forced, el, ops, reads));
		cgs_jadd(f, "own_stats_updates_mean",
			 cgs_jnum(rate((double)c->updates[1], (double)c->calls[1])));
	}
	if (t->tp[CGS_TP_RSTAT_LOCKED].supported && t->tp[CGS_TP_RSTAT_UNLOCK].supported) {
		l = json_object_new_object();
		cgs_jadd(l, "acquisitions", counts(c->locked, el, ops, reads));
		cgs_jadd(l, "flushes", json_object_new_uint64(c->flushes));
		cgs_jadd(l, "flushes_per_sec", cgs_jnum(rate((double)c->flushes, el)));
		cgs_jadd(l, "flushes_per_op", cgs_jnum(rate((double)c->flushes, (double)ops)));
		cgs_jadd(l, "flushes_per_read", cgs_jnum(rate((double)c->flushes, (double)reads)));
		cgs_jadd(l, "hold_per_flush", hist(&c->fhold));
		cgs_jadd(l, "hold_per_acquisition", hist(&c->hold));
		/* the totals, which the percentiles can hide: more, shorter
		 * holds lower the median while the lock is held longer */
		cgs_jadd(l, "hold_ns", json_object_new_uint64(c->hold.sum));
		cgs_jadd(l, "hold_ns_per_sec", cgs_jnum(rate((double)c->hold.sum, el)));
		cgs_jadd(l, "hold_ns_per_op", cgs_jnum(rate((double)c->hold.sum, (double)ops)));
		if (t->tp[CGS_TP_RSTAT_CONTENDED].supported) {
			cgs_jadd(l, "wait_ns", json_object_new_uint64(c->wait.sum));
			cgs_jadd(l, "wait_ns_per_sec", cgs_jnum(rate((double)c->wait.sum, el)));
			cgs_jadd(l, "wait_ns_per_op", cgs_jnum(rate((double)c->wait.sum, (double)ops)));
			cgs_jadd(l, "contended", json_object_new_uint64(c->contended));
			cgs_jadd(l, "wait_per_flush", hist(&c->fwait));
			cgs_jadd(l, "wait_per_contended", hist(&c->wait));
		}
	}
	cgs_jadd(o, "flush", f);
	cgs_jadd(o, "rstat_lock", l);
	cgs_jadd(o, "lost_records", json_object_new_uint64(c->lost));
	return o;
}
