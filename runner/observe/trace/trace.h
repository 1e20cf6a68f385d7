/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.h - --trace SETS: kernel tracepoints counted and timed system-wide
 * during each point's measured window, through perf_event_open with
 * PERF_TYPE_TRACEPOINT (no BPF, no kprobes). Two sets: memcg-flush, the
 * memcg stats flushes (memcg:memcg_flush_stats) and the rstat lock
 * (cgroup:cgroup_rstat_locked, _unlock, _lock_contended), to tell what
 * flushing costs and who pays it; locks, every lock contention
 * (lock:contention_begin, _end; trace_locks.h), to tell which locks the
 * tasks waited on and for how long per op.
 *
 * trace.c resolves the sets once per run (ids and record layouts from
 * tracefs; privileges); trace_point.c is the observer (per-CPU
 * ring buffers drained at every sample instant); trace_calc.h turns the
 * records into counts and histograms and the extra.trace section.
 */
#ifndef CGS_TRACE_H
#define CGS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/tpformat.h"

struct json_object;
struct cgs_locknames;

/* The tracepoints cgscale knows how to read. */
enum cgs_tp_kind {
	CGS_TP_MEMCG_FLUSH,       /* memcg:memcg_flush_stats */
	CGS_TP_RSTAT_LOCKED,      /* cgroup:cgroup_rstat_locked */
	CGS_TP_RSTAT_UNLOCK,      /* cgroup:cgroup_rstat_unlock */
	CGS_TP_RSTAT_CONTENDED,   /* cgroup:cgroup_rstat_lock_contended */
	CGS_TP_LOCK_BEGIN,        /* lock:contention_begin (set locks) */
	CGS_TP_LOCK_END,          /* lock:contention_end */
	CGS_TP_NKIND
};

/* The lock tracepoints have rings of their own (trace_locks.c). */
static inline bool cgs_tp_is_lock(int k)
{
	return k == CGS_TP_LOCK_BEGIN || k == CGS_TP_LOCK_END;
}

/* The fields read from a record; which a kind needs is in trace.c. */
enum cgs_tp_field { CGS_F_PID, CGS_F_ID, CGS_F_A, CGS_F_B, CGS_F_C, CGS_F_N };

struct cgs_tp {
	char name[64];            /* "group:name" */
	bool wanted;              /* in a set the run asked for */
	bool supported;
	bool denied;              /* tracefs refused to let us read it */
	char reason[200];         /* why not, when not supported */
	int id;                   /* tracefs id: the raw record's common_type */
	struct cgs_tpfield f[CGS_F_N];
};

/* What a run resolved once: the tracepoints, the CPUs, how tracefs was
 * reached. Lives in shared memory while it is filled (trace.c). */
struct cgs_trace {
	char sets[128];           /* as given, e.g. "memcg-flush" */
	struct cgs_tp tp[CGS_TP_NKIND];
	int last_cpu;             /* highest possible CPU */
	int ncpus;                /* online CPUs opened, last_cpu + 1 at most */
	char tracefs[256];        /* how the ids were read, for results */
	struct cgs_locknames *names;  /* set locks: kallsyms, loaded at prepare */
};

/* The help of --trace (also the option table's): sets and tracepoints. */
#define CGS_TRACE_HELP \
	"tracepoint sets counted system-wide in the measured window (needs root or CAP_PERFMON): " \
	"memcg-flush = memcg:memcg_flush_stats, cgroup:cgroup_rstat_locked, " \
	"cgroup:cgroup_rstat_unlock, cgroup:cgroup_rstat_lock_contended; " \
	"locks = lock:contention_begin, lock:contention_end (wait per op by lock)"

/* The set names and their tracepoints, for tests and help. */
extern const char *const cgs_trace_set_names[];
extern const char *const cgs_tp_names[CGS_TP_NKIND];
/* Does set @s use tracepoint kind @k? */
bool cgs_trace_set_uses(unsigned s, enum cgs_tp_kind k);

/*
 * Resolve --trace @list before anything runs: known set names (else
 * -EINVAL), root or CAP_PERFMON (else -EPERM), tracefs (mounted, or
 * mounted in a private mount namespace of a child that reads it and
 * exits, so nothing stays mounted), ids and fields of every tracepoint
 * (a missing one is not supported, with the reason), and one trial open.
 * *@out is malloc'd; 0 or -errno with a one-line message in @err.
 */
int cgs_trace_setup(const char *list, struct cgs_trace **out, char *err,
		    size_t errlen);
void cgs_trace_free(struct cgs_trace *t);
/* The steps of setup, for tests: mark the tracepoints of the sets in
 * @list (-EINVAL with @err on an unknown one); fill the wanted ones
 * from the tracefs at @root (ids, fields; or why not supported). */
int cgs_trace_parse_sets(const char *list, struct cgs_trace *t, char *err,
			 size_t errlen);
void cgs_trace_read_tracefs(const char *root, struct cgs_trace *t);

/* Every set, as --trace would resolve it (cgs_trace_setup): 0 when this
 * kernel and these rights give some tracepoint, with the first missing
 * one and its reason in @why; -EOPNOTSUPP with the reason when none. */
int cgs_trace_supported(char *why, size_t len);

#endif
