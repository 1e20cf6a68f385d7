/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_locks.c - the rings of `--trace locks` for one point
 * (trace_locks.h), driven by trace_point.c: on every CPU, system-wide,
 * contention_begin with its kernel callchain (at most CGS_LOCK_MAX_STACK
 * frames, no user stack) and contention_end sharing one ring
 * (PERF_EVENT_IOC_SET_OUTPUT), both with the sample layout of
 * cgs_lockev_decode (end asks for no callchain, so its chain is empty),
 * timestamps on CLOCK_MONOTONIC like the samples. Drained at every
 * sample instant; the records are counted in time order across the CPUs
 * (a sleeping waiter may end on another CPU), holding back the last
 * HOLD_BACK_NS, which another CPU's ring may not have given yet. And the
 * lines under a point's row in run's table.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/perf_ring.h"
#include "runner/cgroups/cgrun.h"
#include "runner/observe/trace/trace_locks.h"
#include "runner/observe/observer.h"

#define LOCK_RING_PAGES 256         /* per CPU, 1 MiB; halved if refused */

struct cgs_locks {
	const struct cgs_trace *t;
	int ncpu;
	int (*fd)[2];                   /* per CPU: begin, end; -1 not open */
	struct cgs_perf_ring *ring;
	struct cgs_lockcalc *calc;
	struct cgs_lockev *ev;          /* decoded, not yet counted */
	size_t nev, cap;
	bool malformed;
};

bool cgs_locks_wanted(const struct cgs_trace *t)
{
	return t->tp[CGS_TP_LOCK_BEGIN].wanted && t->tp[CGS_TP_LOCK_END].wanted;
}

static int open_one(const struct cgs_trace *t, int k, int cpu)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT, .size = sizeof(a),
		.config = (uint64_t)t->tp[k].id, .sample_period = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW,
		.disabled = 1, .use_clockid = 1, .clockid = CLOCK_MONOTONIC,
		.exclude_callchain_user = 1,
		.exclude_callchain_kernel = k == CGS_TP_LOCK_END,
		.sample_max_stack = CGS_LOCK_MAX_STACK,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int open_cpu(struct cgs_locks *l, int c)
{
	int rc;

	for (int i = 0; i < 2; i++) {
		rc = open_one(l->t, i ? CGS_TP_LOCK_END : CGS_TP_LOCK_BEGIN, c);
		if (rc < 0)
			return rc;
		l->fd[c][i] = rc;
	}
	rc = cgs_perf_ring_map(&l->ring[c], l->fd[c][0], LOCK_RING_PAGES);
	if (!rc && ioctl(l->fd[c][1], PERF_EVENT_IOC_SET_OUTPUT, l->fd[c][0]))
		rc = -errno;
	return rc;
}

int cgs_locks_open(const struct cgs_trace *t, const int *tid, unsigned n,
		   struct cgs_locks **out, char *err, size_t errlen)
{
	struct cgs_locks *l = calloc(1, sizeof(*l));
	int rc = 0;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	l->t = t;
	l->ncpu = t->last_cpu + 1;
	l->fd = malloc((size_t)l->ncpu * sizeof(*l->fd));
	l->ring = calloc((size_t)l->ncpu, sizeof(*l->ring));
	l->calc = cgs_lockcalc_new(tid, n);
	if (!l->fd || !l->ring || !l->calc) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (int c = 0; c < l->ncpu; c++)
		l->fd[c][0] = l->fd[c][1] = -1;
	for (int c = 0; c < l->ncpu; c++) {
		rc = open_cpu(l, c);
		if (rc == -ENODEV || rc == -EINVAL) {
			rc = 0;           /* an offline CPU: nothing runs there */
			continue;
		}
		if (rc) {
			snprintf(err, errlen, "opening lock:contention_begin/_end on CPU %d: %s",
				 c, strerror(-rc));
			goto fail;
		}
	}
	*out = l;
	return 0;
fail:
	cgs_locks_free(l);
	return rc;
}

void cgs_locks_enable(struct cgs_locks *l, bool on, int64_t now_ns)
{
	for (int c = 0; c < l->ncpu; c++)
		for (int i = 0; i < 2; i++)
			if (l->fd[c][i] >= 0)
				ioctl(l->fd[c][i], on ? PERF_EVENT_IOC_ENABLE
						      : PERF_EVENT_IOC_DISABLE, 0);
	if (on)
		cgs_lockcalc_window(l->calc, now_ns, INT64_MAX);
}

static void on_record(const struct perf_event_header *h, void *arg)
{
	struct cgs_locks *l = arg;

	if (h->type == PERF_RECORD_LOST && h->size >= sizeof(*h) + 16) {
		cgs_lockcalc_lost(l->calc, ((const uint64_t *)(h + 1))[1]);
		return;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return;
	if (l->nev == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		struct cgs_lockev *v = realloc(l->ev, cap * sizeof(*v));

		if (!v) {
			cgs_lockcalc_lost(l->calc, 1);
			return;
		}
		l->ev = v;
		l->cap = cap;
	}
	if (!cgs_lockev_decode(l->t, l->t->names, h, &l->ev[l->nev]))
		l->nev++;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct cgs_lockev *x = a, *y = b;

	return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

void cgs_locks_drain(struct cgs_locks *l, int64_t upto)
{
	size_t i;

	for (int c = 0; c < l->ncpu; c++)
		if (cgs_perf_ring_drain(&l->ring[c], on_record, l) < 0)
			l->malformed = true;
	if (!l->nev)
		return;
	qsort(l->ev, l->nev, sizeof(*l->ev), ev_cmp);
	for (i = 0; i < l->nev && l->ev[i].t_ns <= upto; i++)
		cgs_lockcalc_add(l->calc, &l->ev[i]);
	memmove(l->ev, l->ev + i, (l->nev - i) * sizeof(*l->ev));
	l->nev -= i;
}

struct json_object *cgs_locks_json(struct cgs_locks *l, int64_t start_ns,
				   int64_t end_ns, uint64_t ops)
{
	struct json_object *o;

	cgs_lockcalc_window(l->calc, start_ns, end_ns);
	cgs_locks_drain(l, INT64_MAX);
	o = cgs_lockcalc_json(l->calc, (double)(end_ns - start_ns) / 1e9, ops);
	cgs_jadd(o, "naming", json_object_new_string(cgs_locknames_how(l->t->names)));
	if (l->malformed)
		cgs_jadd(o, "error", json_object_new_string(
				 "a ring held a malformed record; the records after it are missing"));
	return o;
}

struct json_object *cgs_locks_unsupported(const struct cgs_trace *t, const char *why)
{
	struct json_object *o = json_object_new_object();
	const struct cgs_tp *b = &t->tp[CGS_TP_LOCK_BEGIN], *e = &t->tp[CGS_TP_LOCK_END];

	cgs_jadd(o, "supported", json_object_new_boolean(false));
	cgs_jadd(o, "reason", json_object_new_string(
			 why ? why : !b->supported ? b->reason : e->reason));
	if (!why)
		cgs_jadd(o, "tracepoint", json_object_new_string(
				 !b->supported ? b->name : e->name));
	return o;
}

void cgs_locks_free(struct cgs_locks *l)
{
	if (!l)
		return;
	for (int c = 0; l->fd && l->ring && c < l->ncpu; c++) {
		cgs_perf_ring_unmap(&l->ring[c]);
		for (int i = 0; i < 2; i++)
			if (l->fd[c][i] >= 0)
				close(l->fd[c][i]);
	}
	free(l->fd);
	free(l->ring);
	free(l->ev);
	cgs_lockcalc_free(l->calc);
	free(l);
}

/* ---- table lines ---- */

struct toplock {
	const char *name, *kind, *by;
	double ns_per_op, waits, p50, max;   /* sums over the runs */
	unsigned seen;                       /* runs that list it */
};

/* Add the listed locks of one run to @t (@nt of them, @cap at most). */
static size_t add_locks(struct json_object *by, struct toplock *t, size_t nt,
			size_t cap)
{
	for (size_t i = 0; by && i < json_object_array_length(by); i++) {
		struct json_object *l = json_object_array_get_idx(by, i);
		const char *name = json_object_get_string(cgs_jpath(l, "name"));
		size_t j;

		for (j = 0; j < nt && strcmp(t[j].name, name); j++)
			;
		if (j == nt && nt == cap)
			continue;
		if (j == nt)
			t[nt++] = (struct toplock){ name, json_object_get_string(cgs_jpath(l, "kind")),
				json_object_get_string(cgs_jpath(l, "named_by")), 0, 0, 0, 0, 0 };
		t[j].ns_per_op += isfinite(cgs_jpath_num(l, "wait_ns_per_op")) ? cgs_jpath_num(l, "wait_ns_per_op") : 0;
		t[j].waits += cgs_jpath_num(l, "waits");
		t[j].seen++;
		t[j].p50 += cgs_jpath_num(l, "wait.p50_ns");
		if (cgs_jpath_num(l, "wait.max_ns") > t[j].max)
			t[j].max = cgs_jpath_num(l, "wait.max_ns");
	}
	return nt;
}

static int top_cmp(const void *a, const void *b)
{
	const struct toplock *x = a, *y = b;

	if (x->ns_per_op != y->ns_per_op)
		return x->ns_per_op > y->ns_per_op ? -1 : 1;
	return (x->waits < y->waits) - (x->waits > y->waits);
}

/* The runs' lines: the tasks' waits and everyone's (means over the
 * runs), then the top 3 locks by the tasks' wait per op. */
static void print_runs(struct json_object *const *lk, unsigned n, FILE *out)
{
	double w = 0, c = 0, cop = 0, p50 = 0, all = 0, allc = 0, lost = 0, max = 0;
	struct toplock t[64];
	size_t nt = 0;

	if (!json_object_get_boolean(cgs_jpath(lk[0], "supported"))) {
		fprintf(out, "  locks: <not supported> (%s)\n",
			json_object_get_string(cgs_jpath(lk[0], "reason")));
		return;
	}
	for (unsigned r = 0; r < n; r++) {
		w += cgs_jpath_num(lk[r], "tasks.wait_ns_per_op") / n;
		c += cgs_jpath_num(lk[r], "tasks.waits");
		cop += cgs_jpath_num(lk[r], "tasks.waits_per_op") / n;
		p50 += cgs_jpath_num(lk[r], "tasks.wait.p50_ns") / n;
		all += cgs_jpath_num(lk[r], "all.wait_us_per_sec") / n;
		allc += cgs_jpath_num(lk[r], "all.waits");
		lost += cgs_jpath_num(lk[r], "lost_records");
		if (cgs_jpath_num(lk[r], "tasks.wait.max_ns") > max)
			max = cgs_jpath_num(lk[r], "tasks.wait.max_ns");
		nt = add_locks(cgs_jpath(lk[r], "by_lock"), t, nt, 64);
	}
	if (c == 0) {    /* nothing to measure: say so, never "p50 nan" */
		fprintf(out, "  locks: the tasks never waited on a contended lock%s (0 waits: no contention to show); everyone %.1f us/s (%.0f waits)%s\n",
			n > 1 ? " in any run" : "", all, allc,
			lost > 0 ? "; records were lost: lower bounds" : "");
		return;
	}
	fprintf(out, "  locks: tasks waited %.1f ns/op (%.0f waits%s, %.3g/op, p50 %.0f ns, max %.0f ns); everyone %.1f us/s (%.0f waits)%s\n",
		w, c, n > 1 ? " in all runs" : "", cop, p50, max, all, allc,
		lost > 0 ? "; records were lost: lower bounds" : "");
	qsort(t, nt, sizeof(t[0]), top_cmp);
	for (size_t i = 0; i < nt && i < 3; i++)
		fprintf(out, "    %9.2f ns/op  %s (%s, by %s): %.0f waits, p50 %.0f ns, max %.0f ns\n",
			t[i].ns_per_op / n, t[i].name, t[i].kind, t[i].by, t[i].waits,
			t[i].p50 / t[i].seen, t[i].max);
}

void cgs_locks_print_rows(const struct res_file *f, const char *test,
			  const char *mode, unsigned tasks, const char *layout,
			  FILE *out)
{
	struct json_object *lk[64];
	unsigned n = 0;

	n = cgs_obs_sections(f, "trace.locks", test, mode, tasks, layout, lk, 64);
	if (n)
		print_runs(lk, n, out);
}
