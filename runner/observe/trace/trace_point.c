/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_point.c - the --trace observer (observer.h). When all tasks wait
 * at the gate it opens every supported tracepoint on every CPU (pid -1:
 * system-wide), one ring buffer per CPU shared by its events
 * (PERF_EVENT_IOC_SET_OUTPUT), timestamps on CLOCK_MONOTONIC like the
 * samples; it enables them at the sample that opens the measured window,
 * drains the rings at every sample after it and at the end, and writes
 * extra.trace. The own cgroups are the point's: the tasks' memory cgroup
 * and its ancestors up to level 1 of cgscale's tree (or the tasks' own
 * cgroup without a tree), by directory inode number (= cgroup id).
 * The lock tracepoints have rings of their own (trace_locks.c).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/util.h"
#include "runner/cgroups/statpath.h"
#include "runner/observe/trace/trace_calc.h"
#include "lib/macros.h"
#include "runner/observe/observer.h"
#include "runner/observe/trace/trace.h"
#include "runner/observe/trace/trace_locks.h"

#define RING_PAGES 128            /* data pages per CPU: 512 KiB */
#define HOLD_BACK_NS 20000000     /* records this recent wait a drain */

struct ring {
	int fd[CGS_TP_NKIND];         /* -1: not open */
	void *base;                   /* NULL: no ring */
	size_t size;                  /* of the data part */
};

struct cgs_tracept {
	const struct cgs_trace *t;
	struct ring *ring;
	int nring;
	size_t page;
	struct cgs_tpcalc *calc;
	struct cgs_tpev *ev;          /* decoded, not yet processed */
	size_t nev, cap;
	int64_t w0, w1;               /* monotonic; 0: not yet */
	bool enabled;
	const struct cgs_cgview *cg;
	uint64_t own[32];
	unsigned nown;
	char err[256];
	struct cgs_locks *locks;      /* --trace locks; NULL: not open */
	char lock_err[256];
};

static void note(struct cgs_tracept *tp, const char *fmt, const char *a, int e)
{
	if (!tp->err[0])
		snprintf(tp->err, sizeof(tp->err), fmt, a, strerror(e));
}

static int open_cpu(struct cgs_tracept *tp, int cpu, struct ring *r)
{
	int lead = -1;

	for (int k = 0; k < CGS_TP_NKIND; k++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_TRACEPOINT, .size = sizeof(a),
			.config = (uint64_t)tp->t->tp[k].id, .sample_period = 1,
			.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
			.disabled = 1, .use_clockid = 1, .clockid = CLOCK_MONOTONIC,
		};

		r->fd[k] = -1;
		if (!tp->t->tp[k].supported || cgs_tp_is_lock(k))
			continue;
		r->fd[k] = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1,
					PERF_FLAG_FD_CLOEXEC);
		if (r->fd[k] < 0)
			return -errno;
		if (lead < 0) {
			lead = r->fd[k];
			r->size = RING_PAGES * tp->page;
			r->base = mmap(NULL, r->size + tp->page, PROT_READ | PROT_WRITE,
				       MAP_SHARED, lead, 0);
			if (r->base == MAP_FAILED) {
				r->base = NULL;
				return -errno;
			}
		} else if (ioctl(r->fd[k], PERF_EVENT_IOC_SET_OUTPUT, lead)) {
			return -errno;
		}
	}
	return 0;
}

/* The point's cgroups, from task 0's memory cgroup, as inode numbers. */
static void own_ids(struct cgs_tracept *tp, int pid)
{
	const struct cgs_cgview *cg = tp->cg;
	struct cgs_stat_where w;
	char msg[256], dir[PATH_MAX];
	unsigned levels = cg && cg->depth ? cg->depth : 1;
	struct stat st;

	if (cgs_stat_locate(pid, CGS_SF_MEMORY_STAT, CGS_ST_LEAF, cg, &w,
			    msg, sizeof(msg)))
		return;
	snprintf(dir, sizeof(dir), "%s", w.path);
	for (unsigned i = 0; i <= levels && tp->nown < 32; i++) {
		char *slash = strrchr(dir, '/');

		if (!slash)
			break;
		*slash = 0;                  /* the file's dir, then its parents */
		if (i < levels && !stat(dir, &st)) {
			bool seen = false;

			for (unsigned k = 0; k < tp->nown; k++)
				seen |= tp->own[k] == (uint64_t)st.st_ino;
			if (!seen)
				tp->own[tp->nown++] = st.st_ino;
		}
	}
}

static int tp_ready(void *priv, unsigned ntasks, const int *pid,
		    const int *tid, char *msg, size_t len)
{
	struct cgs_tracept *tp = priv;
	int rc = 0;

	(void)msg;
	(void)len;
	if (cgs_locks_wanted(tp->t) && tp->t->tp[CGS_TP_LOCK_BEGIN].supported &&
	    tp->t->tp[CGS_TP_LOCK_END].supported)
		cgs_locks_open(tp->t, tid, ntasks, &tp->locks, tp->lock_err,
			       sizeof(tp->lock_err));
	for (unsigned i = 0; i < ntasks; i++)
		own_ids(tp, pid[i]);
	cgs_tpcalc_own(tp->calc, tp->own, tp->nown);
	tp->nring = tp->t->last_cpu + 1;
	tp->ring = calloc((size_t)tp->nring, sizeof(*tp->ring));
	if (!tp->ring)
		return -ENOMEM;
	for (int c = 0; c < tp->nring; c++) {
		for (int k = 0; k < CGS_TP_NKIND; k++)
			tp->ring[c].fd[k] = -1;
		rc = open_cpu(tp, c, &tp->ring[c]);
		if (rc == -ENODEV || rc == -EINVAL) {
			rc = 0;          /* an offline CPU: nothing runs there */
			continue;
		}
		if (rc) {
			char cpu[16];

			snprintf(cpu, sizeof(cpu), "%d", c);
			note(tp, "opening the tracepoints on CPU %s: %s", cpu, -rc);
			break;
		}
	}
	return 0;    /* the point runs; the section says what failed */
}

static void set_enabled(struct cgs_tracept *tp, bool on)
{
	for (int c = 0; c < tp->nring; c++)
		for (int k = 0; k < CGS_TP_NKIND; k++)
			if (tp->ring[c].fd[k] >= 0)
				ioctl(tp->ring[c].fd[k], on ? PERF_EVENT_IOC_ENABLE
							    : PERF_EVENT_IOC_DISABLE, 0);
	tp->enabled = on;
}

/* Decode one sample record's body: time, cpu, raw. */
static void decode(struct cgs_tracept *tp, const unsigned char *b, size_t n)
{
	struct cgs_tpev e = { 0 };
	uint32_t cpu, size;
	const unsigned char *raw;
	uint16_t type;
	int k;

	if (n < 20)
		return;
	memcpy(&e.t_ns, b, 8);
	memcpy(&cpu, b + 8, 4);
	memcpy(&size, b + 16, 4);
	raw = b + 20;
	if (size > n - 20 || size < 2)
		return;
	memcpy(&type, raw, 2);
	for (k = 0; k < CGS_TP_NKIND; k++)
		if (tp->t->tp[k].supported && tp->t->tp[k].id == type)
			break;
	if (k == CGS_TP_NKIND)
		return;
	const struct cgs_tpfield *f = tp->t->tp[k].f;
	e.cpu = (int)cpu;
	e.kind = (enum cgs_tp_kind)k;
	e.pid = (int)cgs_tpfield_get(&f[CGS_F_PID], raw, size);
	e.id = (uint64_t)cgs_tpfield_get(&f[CGS_F_ID], raw, size);
	e.a = cgs_tpfield_get(&f[CGS_F_A], raw, size);
	e.b = cgs_tpfield_get(&f[CGS_F_B], raw, size) != 0;
	if (k == CGS_TP_MEMCG_FLUSH)
		e.c = cgs_tpfield_get(&f[CGS_F_C], raw, size) != 0;
	if (tp->nev == tp->cap) {
		size_t cap = tp->cap ? 2 * tp->cap : 4096;
		struct cgs_tpev *v = realloc(tp->ev, cap * sizeof(*v));

		if (!v) {
			cgs_tpcalc_lost(tp->calc, 1);
			return;
		}
		tp->ev = v;
		tp->cap = cap;
	}
	tp->ev[tp->nev++] = e;
}

/* Everything in one CPU's ring, decoded into tp->ev. */
static void drain_ring(struct cgs_tracept *tp, struct ring *r)
{
	struct perf_event_mmap_page *m = r->base;
	const unsigned char *data = (const unsigned char *)r->base + tp->page;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = m->data_tail;
	unsigned char rec[65536];

	while (tail < head) {
		struct perf_event_header h;
		size_t off = tail % r->size, first;

		first = r->size - off < sizeof(h) ? r->size - off : sizeof(h);
		memcpy(&h, data + off, first);
		memcpy((char *)&h + first, data, sizeof(h) - first);
		if (h.size < sizeof(h))
			break;
		first = r->size - off < h.size ? r->size - off : h.size;
		memcpy(rec, data + off, first);
		memcpy(rec + first, data, h.size - first);
		if (h.type == PERF_RECORD_SAMPLE) {
			decode(tp, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost;

			memcpy(&lost, rec + sizeof(h) + 8, 8);
			cgs_tpcalc_lost(tp->calc, lost);
		}
		tail += h.size;
	}
	__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}

static int ev_cmp(const void *a, const void *b)
{
	const struct cgs_tpev *x = a, *y = b;

	return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

/* Drain every ring; process the records older than @upto in time order,
 * keep the newer ones (another CPU may still hold older ones). */
static void drain(struct cgs_tracept *tp, int64_t upto)
{
	size_t i;

	for (int c = 0; c < tp->nring; c++)
		if (tp->ring[c].base)
			drain_ring(tp, &tp->ring[c]);
	if (!tp->nev)
		return;        /* none yet (--trace locks alone: no ring here) */
	qsort(tp->ev, tp->nev, sizeof(*tp->ev), ev_cmp);
	for (i = 0; i < tp->nev && tp->ev[i].t_ns <= upto; i++)
		cgs_tpcalc_add(tp->calc, &tp->ev[i]);
	memmove(tp->ev, tp->ev + i, (tp->nev - i) * sizeof(*tp->ev));
	tp->nev -= i;
}

static void tp_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
		      bool window_start)
{
	struct cgs_tracept *tp = priv;
	int64_t now = cgs_now_ns();

	(void)s;
	(void)t_ns;
	if (!tp->ring)
		return;
	if (window_start) {
		tp->w0 = now;
		set_enabled(tp, true);
		if (tp->locks)
			cgs_locks_enable(tp->locks, true, now);
		cgs_tpcalc_window(tp->calc, now, INT64_MAX);
		return;
	}
	if (ph != RES_PHASE_MEASURE || !tp->w0)
		return;
	tp->w1 = now;
	drain(tp, now - HOLD_BACK_NS);
	if (tp->locks)
		cgs_locks_drain(tp->locks, now - HOLD_BACK_NS);
}

/* The stat reader's reads in the window, from its section; 0: none. */
static uint64_t reader_reads(const struct res_point *p)
{
	struct json_object *sr, *sum, *n;

	if (p->extra && json_object_object_get_ex(p->extra, "stat_reader", &sr) &&
	    json_object_object_get_ex(sr, "summary", &sum) &&
	    json_object_object_get_ex(sum, "count", &n))
		return (uint64_t)json_object_get_int64(n);
	return 0;
}

static struct json_object *events_json(const struct cgs_trace *t)
{
	struct json_object *a = json_object_new_array();

	for (int k = 0; k < CGS_TP_NKIND; k++) {
		struct json_object *e;

		if (!t->tp[k].wanted)
			continue;
		e = json_object_new_object();
		cgs_jadd(e, "name", json_object_new_string(t->tp[k].name));
		cgs_jadd(e, "supported", json_object_new_boolean(t->tp[k].supported));
		cgs_jadd(e, "reason", t->tp[k].supported ? NULL :
			 json_object_new_string(t->tp[k].reason));
		json_object_array_add(a, e);
	}
	return a;
}

static void tp_finish(void *priv, struct res_point *p)
{
	struct cgs_tracept *tp = priv;
	bool ok = p->status == RES_OK;
	struct json_object *o = json_object_new_object(), *ids;

	if (tp->locks)
		cgs_locks_enable(tp->locks, false, 0);
	if (tp->enabled) {
		set_enabled(tp, false);
		if (tp->w1) {
			cgs_tpcalc_window(tp->calc, tp->w0, tp->w1);
			drain(tp, INT64_MAX);
		}
	}
	if (!p->extra)
		p->extra = json_object_new_object();
	cgs_jadd(o, "sets", json_object_new_string(tp->t->sets));
	cgs_jadd(o, "tracefs", json_object_new_string(tp->t->tracefs));
	cgs_jadd(o, "events", events_json(tp->t));
	ids = json_object_new_array();
	for (unsigned i = 0; i < tp->nown; i++)
		json_object_array_add(ids, json_object_new_uint64(tp->own[i]));
	cgs_jadd(o, "own_cgroup_ids", ids);
	if (tp->w0 && tp->w1 && !tp->err[0]) {
		double el = (tp->w1 - tp->w0) / 1e9;
		struct json_object *fig = cgs_tpcalc_json(tp->calc, tp->t, el,
							  ok ? p->sum.ops : 0,
							  reader_reads(p));

		cgs_jadd(o, "elapsed_s", cgs_jnum(el));
		json_object_object_foreach(fig, k, v)
			cgs_jadd(o, k, cgs_jref(v));
		json_object_put(fig);
	}
	if (tp->locks && tp->w0 && tp->w1 && !tp->err[0])
		cgs_jadd(o, "locks", cgs_locks_json(tp->locks, tp->w0, tp->w1,
						    ok ? p->sum.ops : 0));
	else if (cgs_locks_wanted(tp->t) && (!tp->locks || !tp->w1))
		cgs_jadd(o, "locks", cgs_locks_unsupported(tp->t, tp->lock_err[0] ? tp->lock_err
			 : tp->locks ? "the measured window did not complete" : NULL));
	cgs_jadd(o, "error", tp->err[0] ? json_object_new_string(tp->err) :
		 tp->w1 ? NULL : json_object_new_string("the measured window did not complete"));
	json_object_object_add(p->extra, "trace", o);
}

static void tp_free(void *priv)
{
	struct cgs_tracept *tp = priv;

	if (!tp)
		return;
	for (int c = 0; tp->ring && c < tp->nring; c++) {
		for (int k = 0; k < CGS_TP_NKIND; k++)
			if (tp->ring[c].fd[k] >= 0)
				close(tp->ring[c].fd[k]);
		if (tp->ring[c].base)
			munmap(tp->ring[c].base, tp->ring[c].size + tp->page);
	}
	free(tp->ring);
	free(tp->ev);
	cgs_locks_free(tp->locks);
	cgs_tpcalc_free(tp->calc);
	free(tp);
}

static int tp_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		  void **priv)
{
	const struct cgs_trace *t = ctx->state;
	struct cgs_tracept *tp = calloc(1, sizeof(*tp));

	if (!tp)
		return -ENOMEM;
	tp->t = t;
	tp->cg = pt->cg;
	tp->page = (size_t)sysconf(_SC_PAGESIZE);
	tp->calc = cgs_tpcalc_new(t->last_cpu);
	if (!tp->calc) {
		free(tp);
		return -ENOMEM;
	}
	*priv = tp;
	return 0;
}

struct tp_opts {
	char *sets;                   /* --trace SETS, NULL: off */
};

/* --trace: the sets, permissions, tracefs, a trial open. */
static int tp_check(struct cgs_obs_ctx *ctx, char *err, size_t errlen)
{
	const struct tp_opts *o = ctx->opts;
	struct cgs_trace *t = NULL;
	int rc;

	if (!o->sets)
		return 0;
	rc = cgs_trace_setup(o->sets, &t, err, errlen);
	ctx->state = t;
	return rc;
}

/* --trace locks: the symbols that name the locks, loaded once. */
static void tp_prepare(struct cgs_obs_ctx *ctx)
{
	struct cgs_trace *t = ctx->state;
	int rc;

	if (!t || !cgs_locks_wanted(t) || !t->tp[CGS_TP_LOCK_BEGIN].supported)
		return;
	/* CGSCALE_KALLSYMS: another kallsyms file, as for --profile */
	rc = cgs_locknames_load(getenv("CGSCALE_KALLSYMS") ? getenv("CGSCALE_KALLSYMS")
				: "/proc/kallsyms", &t->names);
	if (rc || !t->names)
		cgs_warn("--trace locks: %s", cgs_locknames_how(t->names));
}

static void tp_run_free(struct cgs_obs_ctx *ctx)
{
	cgs_trace_free(ctx->state);
	ctx->state = NULL;
}

static bool tp_wanted(const struct cgs_obs_ctx *ctx)
{
	return ctx->state != NULL;
}

static const struct cgs_opt tp_optdefs[] = {
	OPT_STRING("trace", 0, struct tp_opts, sets, .metavar = "SETS",
		.help = CGS_TRACE_HELP),
};

const struct cgs_obs_def trace_observer = {
	.name = "trace",
	.opts = tp_optdefs,
	.nopts = ARRAY_SIZE(tp_optdefs),
	.opts_size = sizeof(struct tp_opts),
	.check = tp_check,
	.supported = cgs_trace_supported,
	.prepare = tp_prepare,
	.run_free = tp_run_free,
	.wanted = tp_wanted,
	.new = tp_new,
	.free = tp_free,
	.ready = tp_ready,
	.sample = tp_sample,
	.write = tp_finish,
	.table_rows = cgs_locks_print_rows,
};
