/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lock_calc.c - the records of `--trace locks` decoded and turned into
 * figures (trace_locks.h); pure, unit-tested on fixed sample buffers.
 *
 * A wait is one thread's contention_begin on a lock to its
 * contention_end on the same lock. A mutex or rwsem may say begin twice
 * for one wait (once when it starts to spin, again when it goes to
 * sleep): a begin on the lock the thread already waits for is the same
 * wait. An interrupt may contend for another lock while its thread spins
 * (same thread id): waits nest, up to LK_DEPTH deep. An end without its
 * begin (the wait began before the window) is "unpaired"; a begin whose
 * end never came before the window closed is "unfinished"; neither is
 * counted. Waits are counted for everyone and for the measured tasks
 * (by thread id), per lock by name, at most LK_NLOCK names (the rest as
 * one "[other]").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/pidmap.h"
#include "results/stats/hist.h"
#include "runner/observe/trace/trace_locks.h"

#define LK_NLOCK 256       /* names kept; more go to "[other]" */
#define LK_NADDR 8         /* distinct addresses counted per name */
#define LK_DEPTH 4         /* nested waits of one thread */
#define LK_NTID 4096       /* threads waiting at once, by tid % LK_NTID */
#define LK_TOP 20          /* locks listed in the section */
#define LK_TOP_METRIC 8    /* locks given to compare as metrics */

struct lk_lock {
	char name[CGS_LOCK_NAME_MAX];
	enum cgs_lock_by by;
	unsigned flags;
	uint64_t addr[LK_NADDR];
	unsigned naddr;
	bool more_addr;
	uint64_t waits[2], wait_ns[2];     /* [0] everyone, [1] the tasks */
	struct res_hist *hist;             /* everyone's waits on it */
};

struct lk_wait {
	uint64_t addr;
	int64_t t0;
	int lock;                          /* index into locks */
};

struct lk_thread {
	int tid;                           /* 0: free */
	unsigned depth;
	struct lk_wait w[LK_DEPTH];
};

struct cgs_lockcalc {
	struct cgs_pidmap tasks;
	int64_t w0, w1;
	struct lk_lock *lock;              /* LK_NLOCK + 1: the last is [other] */
	unsigned nlock;
	struct lk_thread *th;              /* LK_NTID */
	uint64_t waits[2], wait_ns[2], unpaired, lost, nested_drop, evicted;
	struct res_hist hist[2];
};

struct cgs_lockcalc *cgs_lockcalc_new(const int *tids, unsigned n)
{
	struct cgs_lockcalc *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->lock = calloc(LK_NLOCK + 1, sizeof(*c->lock));
	c->th = calloc(LK_NTID, sizeof(*c->th));
	if (!c->lock || !c->th || cgs_pidmap_build(&c->tasks, tids, n)) {
		cgs_lockcalc_free(c);
		return NULL;
	}
	snprintf(c->lock[LK_NLOCK].name, CGS_LOCK_NAME_MAX, "[other]");
	c->w1 = INT64_MAX;
	res_hist_reset(&c->hist[0]);
	res_hist_reset(&c->hist[1]);
	return c;
}

void cgs_lockcalc_free(struct cgs_lockcalc *c)
{
	if (!c)
		return;
	for (unsigned i = 0; c->lock && i <= LK_NLOCK; i++)
		free(c->lock[i].hist);
	free(c->lock);
	free(c->th);
	cgs_pidmap_free(&c->tasks);
	free(c);
}

void cgs_lockcalc_window(struct cgs_lockcalc *c, int64_t start_ns, int64_t end_ns)
{
	c->w0 = start_ns;
	c->w1 = end_ns;
}

void cgs_lockcalc_lost(struct cgs_lockcalc *c, uint64_t n)
{
	c->lost += n;
}

/* The lock named by begin record @e (a new one, or [other] when full). */
static int lock_of(struct cgs_lockcalc *c, const struct cgs_lockev *e)
{
	struct lk_lock *l;
	unsigned i;

	for (i = 0; i < c->nlock && strcmp(c->lock[i].name, e->name); i++)
		;
	if (i == c->nlock) {
		if (c->nlock == LK_NLOCK)
			i = LK_NLOCK;
		else
			c->nlock++;
	}
	l = &c->lock[i];
	if (!l->waits[0] && !l->naddr && i < LK_NLOCK) {
		snprintf(l->name, sizeof(l->name), "%s", e->name);
		l->by = e->by;
		l->flags = e->flags;
	}
	for (unsigned a = 0; a < l->naddr; a++)
		if (l->addr[a] == e->addr)
			return (int)i;
	if (l->naddr < LK_NADDR)
		l->addr[l->naddr++] = e->addr;
	else
		l->more_addr = true;
	return (int)i;
}

static void on_begin(struct cgs_lockcalc *c, const struct cgs_lockev *e)
{
	struct lk_thread *t = &c->th[(unsigned)e->tid % LK_NTID];

	if (t->tid != e->tid) {
		c->evicted += t->tid && t->depth;   /* another thread's wait lost */
		memset(t, 0, sizeof(*t));
		t->tid = e->tid;
	}
	if (t->depth && t->w[t->depth - 1].addr == e->addr)
		return;                 /* the same wait, spinning then sleeping */
	if (t->depth == LK_DEPTH) {
		c->nested_drop++;
		return;
	}
	t->w[t->depth++] = (struct lk_wait){ e->addr, e->t_ns, lock_of(c, e) };
}

static void count(struct cgs_lockcalc *c, struct lk_lock *l, bool task, uint64_t ns)
{
	for (int k = 0; k <= (int)task; k++) {
		c->waits[k]++;
		c->wait_ns[k] += ns;
		l->waits[k]++;
		l->wait_ns[k] += ns;
		res_hist_record(&c->hist[k], ns);
	}
	if (!l->hist && (l->hist = malloc(sizeof(*l->hist))))
		res_hist_reset(l->hist);
	if (l->hist)
		res_hist_record(l->hist, ns);
}

static void on_end(struct cgs_lockcalc *c, const struct cgs_lockev *e)
{
	struct lk_thread *t = &c->th[(unsigned)e->tid % LK_NTID];
	unsigned d;

	if (t->tid != e->tid) {
		c->unpaired++;
		return;
	}
	for (d = t->depth; d > 0 && t->w[d - 1].addr != e->addr; d--)
		;
	if (!d) {
		c->unpaired++;
		return;
	}
	struct lk_wait w = t->w[d - 1];

	memmove(&t->w[d - 1], &t->w[d], (t->depth - d) * sizeof(t->w[0]));
	t->depth--;
	if (e->t_ns >= w.t0)
		count(c, &c->lock[w.lock], cgs_pidmap_find(&c->tasks, e->tid) >= 0,
		      (uint64_t)(e->t_ns - w.t0));
}

void cgs_lockcalc_add(struct cgs_lockcalc *c, const struct cgs_lockev *e)
{
	if (e->t_ns < c->w0 || e->t_ns > c->w1 || e->tid <= 0)
		return;
	if (e->begin)
		on_begin(c, e);
	else
		on_end(c, e);
}

/* ---- decoding one sample of the lock rings ---- */

int cgs_lockev_decode(const struct cgs_trace *t, const struct cgs_locknames *n,
		      const struct perf_event_header *h, struct cgs_lockev *e)
{
	const unsigned char *b = (const unsigned char *)(h + 1), *end;
	uint64_t nr, ips[CGS_LOCK_MAX_STACK + 8];
	unsigned nips = 0;
	uint32_t pid, tid, cpu, size;
	uint16_t type;
	bool kernel = false;
	const struct cgs_tpfield *f;

	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + 32)
		return -EINVAL;
	end = (const unsigned char *)h + h->size;
	memset(e, 0, sizeof(*e));
	memcpy(&pid, b, 4);
	memcpy(&tid, b + 4, 4);
	memcpy(&e->t_ns, b + 8, 8);
	memcpy(&cpu, b + 16, 4);
	memcpy(&nr, b + 24, 8);
	b += 32;
	if (nr > (uint64_t)(end - b) / 8)
		return -EINVAL;
	for (uint64_t k = 0; k < nr; k++) {
		uint64_t ip;

		memcpy(&ip, b + 8 * k, 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
		else if (kernel && nips < sizeof(ips) / sizeof(ips[0]))
			ips[nips++] = ip;
	}
	b += 8 * nr;
	if (end - b < 4)
		return -EINVAL;
	memcpy(&size, b, 4);
	b += 4;
	if (size > (size_t)(end - b) || size < 2)
		return -EINVAL;
	memcpy(&type, b, 2);
	if (t->tp[CGS_TP_LOCK_BEGIN].supported && type == t->tp[CGS_TP_LOCK_BEGIN].id)
		e->begin = true;
	else if (!t->tp[CGS_TP_LOCK_END].supported || type != t->tp[CGS_TP_LOCK_END].id)
		return -ENOENT;
	f = t->tp[e->begin ? CGS_TP_LOCK_BEGIN : CGS_TP_LOCK_END].f;
	e->cpu = (int)cpu;
	e->tid = (int)cgs_tpfield_get(&f[CGS_F_PID], b, size);
	if (!e->tid)
		e->tid = (int)tid;
	(void)pid;
	e->addr = (uint64_t)cgs_tpfield_get(&f[CGS_F_ID], b, size);
	if (e->begin) {
		e->flags = (unsigned)cgs_tpfield_get(&f[CGS_F_A], b, size);
		e->by = cgs_lockname(n, e->addr, ips, nips, e->name, sizeof(e->name));
	} else {
		e->ret = (int)cgs_tpfield_get(&f[CGS_F_A], b, size);
	}
	return 0;
}

/* ---- the section ---- */

static double per(double n, double d)
{
	return d > 0 ? n / d : NAN;
}

static struct json_object *hsum(const struct res_hist *h)
{
	struct res_hist_summary s;

	if (!h)
		return NULL;
	res_hist_summarise(h, &s);
	return res_hist_summary_json(&s);
}

static struct json_object *who_json(const struct cgs_lockcalc *c, int k, double el,
				    uint64_t ops)
{
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "waits", json_object_new_uint64(c->waits[k]));
	cgs_jadd(o, "wait_ns", json_object_new_uint64(c->wait_ns[k]));
	cgs_jadd(o, "waits_per_op", cgs_jnum(per((double)c->waits[k], (double)ops)));
	cgs_jadd(o, "wait_ns_per_op", cgs_jnum(per((double)c->wait_ns[k], (double)ops)));
	cgs_jadd(o, "waits_per_sec", cgs_jnum(per((double)c->waits[k], el)));
	cgs_jadd(o, "wait_us_per_sec", cgs_jnum(per((double)c->wait_ns[k] / 1e3, el)));
	cgs_jadd(o, "wait", hsum(&c->hist[k]));
	return o;
}

static struct json_object *lock_json(const struct lk_lock *l, uint64_t ops)
{
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "name", json_object_new_string(l->name));
	cgs_jadd(o, "named_by", json_object_new_string(cgs_lock_by_names[l->by]));
	cgs_jadd(o, "kind", json_object_new_string(cgs_lock_kind(l->flags)));
	cgs_jadd(o, "addresses", json_object_new_int((int)l->naddr));
	cgs_jadd(o, "more_addresses", json_object_new_boolean(l->more_addr));
	cgs_jadd(o, "task_waits", json_object_new_uint64(l->waits[1]));
	cgs_jadd(o, "task_wait_ns", json_object_new_uint64(l->wait_ns[1]));
	cgs_jadd(o, "wait_ns_per_op", cgs_jnum(per((double)l->wait_ns[1], (double)ops)));
	cgs_jadd(o, "waits", json_object_new_uint64(l->waits[0]));
	cgs_jadd(o, "wait_ns", json_object_new_uint64(l->wait_ns[0]));
	cgs_jadd(o, "all_wait_ns_per_op", cgs_jnum(per((double)l->wait_ns[0], (double)ops)));
	cgs_jadd(o, "wait", hsum(l->hist));
	return o;
}

/* The tasks' wait first, then everyone's, then the name. */
static int lock_cmp(const void *a, const void *b)
{
	const struct lk_lock *x = *(const struct lk_lock *const *)a;
	const struct lk_lock *y = *(const struct lk_lock *const *)b;

	if (x->wait_ns[1] != y->wait_ns[1])
		return x->wait_ns[1] > y->wait_ns[1] ? -1 : 1;
	if (x->wait_ns[0] != y->wait_ns[0])
		return x->wait_ns[0] > y->wait_ns[0] ? -1 : 1;
	return strcmp(x->name, y->name);
}

static unsigned unfinished(const struct cgs_lockcalc *c)
{
	unsigned n = 0;

	for (unsigned i = 0; i < LK_NTID; i++)
		n += c->th[i].tid ? c->th[i].depth : 0;
	return n;
}

struct json_object *cgs_lockcalc_json(const struct cgs_lockcalc *c, double el,
				      uint64_t ops)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	struct json_object *m = json_object_new_object();
	const struct lk_lock *v[LK_NLOCK + 1];
	unsigned n = 0;

	for (unsigned i = 0; i <= LK_NLOCK; i++)
		if (c->lock[i].waits[0])
			v[n++] = &c->lock[i];
	qsort(v, n, sizeof(v[0]), lock_cmp);
	for (unsigned i = 0; i < n && i < LK_TOP; i++)
		json_object_array_add(a, lock_json(v[i], ops));
	/* compare's lock_wait.NAME metrics: the tasks' top locks */
	for (unsigned i = 0, k = 0; i < n && k < LK_TOP_METRIC && v[i]->wait_ns[1]; i++)
		if (v[i] != &c->lock[LK_NLOCK] && ++k)    /* [other] is no lock */
			cgs_jadd(m, v[i]->name, cgs_jnum(per((double)v[i]->wait_ns[1], (double)ops)));
	cgs_jadd(o, "supported", json_object_new_boolean(true));
	cgs_jadd(o, "tasks", who_json(c, 1, el, ops));
	cgs_jadd(o, "all", who_json(c, 0, el, ops));
	cgs_jadd(o, "names", json_object_new_int((int)n));
	cgs_jadd(o, "by_lock", a);
	cgs_jadd(o, "wait_ns_per_op_by_lock", m);
	cgs_jadd(o, "unpaired", json_object_new_uint64(c->unpaired));
	cgs_jadd(o, "unfinished", json_object_new_uint64(unfinished(c) + c->evicted));
	cgs_jadd(o, "nested_dropped", json_object_new_uint64(c->nested_drop));
	cgs_jadd(o, "lost_records", json_object_new_uint64(c->lost));
	return o;
}
