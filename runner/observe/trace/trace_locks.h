/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_locks.h - `--trace locks`: every lock contention in the measured
 * window, from the tracepoints lock:contention_begin and
 * lock:contention_end (no BPF, no lockdep, no lock_stat), opened on every
 * CPU like the memcg-flush set. A wait is a task's begin to its end on
 * the same lock; its time goes to the lock, named from kallsyms when the
 * lock is a static object the kernel lists (CONFIG_KALLSYMS_ALL), else by
 * the contending function: the first frame of contention_begin's kernel
 * callchain that is not locking code itself. The point's trace.locks
 * section gives the waits of the measured tasks and of everyone, per op,
 * per lock and as a distribution (results/SCHEMA.md).
 *
 * lock_name.c names locks, lock_calc.c turns decoded records into the
 * figures (both pure, unit-tested on fixed records and sample buffers),
 * trace_locks.c owns the per-CPU rings that trace_point.c drives.
 */
#ifndef CGS_TRACE_LOCKS_H
#define CGS_TRACE_LOCKS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/model/result.h"
#include "runner/observe/trace/trace.h"

struct json_object;

/* ---- naming (lock_name.c) ---- */

enum cgs_lock_by { CGS_LOCK_BY_SYMBOL, CGS_LOCK_BY_CALLER, CGS_LOCK_BY_ADDRESS };
extern const char *const cgs_lock_by_names[];

/* Load the text and data symbols of kallsyms file @path (/proc/kallsyms).
 * 0 or -errno; *@out is set either way (empty tables on failure, so the
 * locks are named by address and the reason is in (*out)->why). */
int cgs_locknames_load(const char *path, struct cgs_locknames **out);
void cgs_locknames_free(struct cgs_locknames *n);
/* "kallsyms", "kallsyms (functions only: ...)" or why not, for results. */
const char *cgs_locknames_how(const struct cgs_locknames *n);

/* Is the kernel function at @ip locking code (spin, rw, mutex, rwsem,
 * the slow paths, the tracepoint's own frames)? */
bool cgs_lock_frame(const struct cgs_locknames *n, uint64_t ip);

/*
 * Name the lock at @addr contended from kernel callchain @ips (leaf
 * first, no context markers) into @buf: "symbol" or "symbol+0xOFF" for
 * a static object kallsyms lists, else the first frame of @ips that is
 * not locking code, else the address. @n may be NULL (addresses only).
 */
enum cgs_lock_by cgs_lockname(const struct cgs_locknames *n, uint64_t addr,
			      const uint64_t *ips, unsigned nips, char *buf,
			      size_t len);

/* The kind of lock from contention_begin's flags (LCB_F_*). */
const char *cgs_lock_kind(unsigned flags);

/* ---- one record (lock_calc.c) ---- */

#define CGS_LOCK_NAME_MAX 96
#define CGS_LOCK_MAX_STACK 16    /* kernel frames asked of contention_begin */

struct cgs_lockev {
	int64_t t_ns;             /* CLOCK_MONOTONIC */
	int cpu, tid;
	bool begin;               /* contention_begin; else _end */
	uint64_t addr;
	unsigned flags;           /* begin: LCB_F_* */
	int ret;                  /* end: 0, or -EINTR and such */
	enum cgs_lock_by by;      /* begin: how name was found */
	char name[CGS_LOCK_NAME_MAX];
};

/*
 * Decode one PERF_RECORD_SAMPLE of the lock rings (sample_type TID |
 * TIME | CPU | CALLCHAIN | RAW) into @e, naming the lock of a begin with
 * @n. 0; -ENOENT when it is no record of the lock tracepoints of @t;
 * -EINVAL when it is cut short.
 */
int cgs_lockev_decode(const struct cgs_trace *t, const struct cgs_locknames *n,
		      const struct perf_event_header *h, struct cgs_lockev *e);

/* ---- the figures (lock_calc.c) ---- */

struct cgs_lockcalc;

/* The measured tasks by thread id. NULL without memory. */
struct cgs_lockcalc *cgs_lockcalc_new(const int *tids, unsigned n);
void cgs_lockcalc_free(struct cgs_lockcalc *c);
/* The measured window; waits that end outside it are not counted. */
void cgs_lockcalc_window(struct cgs_lockcalc *c, int64_t start_ns, int64_t end_ns);
/* Records in time order. */
void cgs_lockcalc_add(struct cgs_lockcalc *c, const struct cgs_lockev *e);
void cgs_lockcalc_lost(struct cgs_lockcalc *c, uint64_t n);
/* The trace.locks object; @ops (0: none) scales the per-op figures. */
struct json_object *cgs_lockcalc_json(const struct cgs_lockcalc *c, double elapsed_s,
				      uint64_t ops);

/* ---- the rings of one point (trace_locks.c) ---- */

struct cgs_locks;

/* Are both lock tracepoints of @t wanted and supported? */
bool cgs_locks_wanted(const struct cgs_trace *t);
/* Open the rings on every CPU for tasks @tid[@n]; *@out NULL and the
 * reason in @err on failure (-errno). */
int cgs_locks_open(const struct cgs_trace *t, const int *tid, unsigned n,
		   struct cgs_locks **out, char *err, size_t errlen);
void cgs_locks_enable(struct cgs_locks *l, bool on, int64_t now_ns);
/* Drain every ring; count the records up to @upto_ns in time order. */
void cgs_locks_drain(struct cgs_locks *l, int64_t upto_ns);
/* The section (after the last drain); the window is [start, end]. */
struct json_object *cgs_locks_json(struct cgs_locks *l, int64_t start_ns,
				   int64_t end_ns, uint64_t ops);
void cgs_locks_free(struct cgs_locks *l);
/* trace.locks, or why not, for a point whose lock tracepoints are not
 * supported: {"supported": false, "reason": ...}. */
struct json_object *cgs_locks_unsupported(const struct cgs_trace *t, const char *why);

/* The lines under a row of run's table: waits per op, the top locks. */
void cgs_locks_print_rows(const struct res_file *f, const char *test,
			  const char *mode, unsigned tasks, const char *layout,
			  FILE *out);

#endif
