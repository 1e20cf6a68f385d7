/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result.h - the in-memory model of one result file, its JSON writer and
 * reader, and the per-point summary arithmetic. results/SCHEMA.md is the
 * documentation of the file format; keep the two in step.
 *
 * Samples are stored per point as columns: t_ns[s] is the CLOCK_MONOTONIC
 * time of sample s since the start gate opened, phase[s] labels it, and
 * ops[task * nsamples + s] is the task's ops in the interval that ends at
 * sample s (sample 0 is the start, with no interval before it).
 */
#ifndef CGS_RES_H
#define CGS_RES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/limits.h"

struct json_object;

#define RES_SCHEMA_VERSION 1
#define RES_MAX_DEPTH 64   /* JSON nesting the reader accepts */
#define RES_MAX_T_NS 1000000000000000000LL  /* 31 years of samples */

enum res_phase { RES_PHASE_START, RES_PHASE_WARMUP, RES_PHASE_MEASURE };
extern const char *const res_phase_names[];

/* The outcome of a point or a task; RES_NONE: not decided yet (written as
 * null). "stopped": a task that never reached an outcome because the
 * point was stopped; "interrupted": a point cut short by a signal. */
enum res_status {
	RES_NONE, RES_OK, RES_FAILED, RES_SKIPPED, RES_STOPPED, RES_INTERRUPTED,
	RES_NSTATUS
};
extern const char *const res_status_names[RES_NSTATUS];   /* [RES_NONE] NULL */

/* The status named @s, or -EINVAL. */
int res_status_parse(const char *s);

struct res_task {
	int index;
	int pid, tid;
	char *cpuset;            /* bound place as a list "0-1"; NULL: unbound */
	int cpu_start, cpu_end;  /* sched_getcpu() before and after the loop */
	bool migrated;           /* cpu_end != cpu_start */
	uint64_t ops;            /* the task's total over its whole loop */
	int64_t minflt, majflt;  /* getrusage(RUSAGE_THREAD) over the loop */
	enum res_status status;  /* ok, failed, skipped, stopped */
	char *error;             /* why, when not ok */
	uint64_t aux[CGS_MAX_AUX];   /* aux totals over the whole loop */
};

struct res_summary {
	uint64_t ops;                  /* measured ops, all tasks */
	double elapsed_s;              /* measured time */
	double total_ops_per_sec;
	double per_task_ops_per_sec;   /* LKP's per_process_ops/per_thread_ops */
	double min_task_ops_per_sec, max_task_ops_per_sec;
	double task_cov_pct;           /* spread across tasks */
	double interval_cov_pct;       /* spread across measured intervals */
	double idle_pct, iowait_pct, steal_pct;  /* /proc/stat, same window */
	double scalability;            /* ops(N) / (N x ops(1)); NAN if none */
	double aux_rate[CGS_MAX_AUX];  /* all tasks, in the aux's rate unit */
	double aux_task_rate[CGS_MAX_AUX];  /* per task, same unit */
};

struct res_point {
	unsigned seq;            /* order in which the points ran */
	char *test, *mode;       /* mode: "process" or "thread" */
	unsigned tasks;
	unsigned run;            /* repetition, 0-based */
	enum res_status status;  /* ok, failed, skipped (interrupted) */
	char *reason;            /* why, when not ok */
	char *started_at;        /* ISO 8601, UTC */
	char *placement;
	unsigned places;         /* 0 when unbound */
	bool oversubscribed;     /* more tasks than places */
	double warmup_s, duration_s, interval_s;
	double sampler_lag_ms;   /* the latest any sample was taken */
	unsigned ntasks;
	struct res_task *task;
	unsigned nsamples;
	int64_t *t_ns;
	enum res_phase *phase;
	uint64_t *ops;           /* ntasks x nsamples interval deltas */
	double *idle_pct, *iowait_pct, *steal_pct;  /* per interval; [0] NAN */
	unsigned naux;           /* auxiliary counters, e.g. bytes received */
	char *aux_name[CGS_MAX_AUX], *aux_unit[CGS_MAX_AUX];
	double aux_scale[CGS_MAX_AUX];  /* aux_unit per (count/s) */
	uint64_t *aux[CGS_MAX_AUX];     /* each ntasks x nsamples, like ops */
	struct res_summary sum;
	struct json_object *wopts;   /* the workload's options */
	struct json_object *extra;   /* sections owned by other modules */
};

struct res_file {
	int schema_version;
	char *tool_version, *git;
	bool complete;           /* false: interrupted, see interrupted */
	char *interrupted;       /* what was interrupted, or NULL */
	char *start_time, *end_time;
	struct json_object *command_line;  /* array of strings */
	struct json_object *kernel, *machine, *environment, *options;
	struct json_object *invocation;  /* {id, index, of, series}; NULL: older */
	struct json_object *sections;    /* observers' declared sections
					  * (results/model/sections.h); NULL: none */
	unsigned npoints;
	struct res_point *points;
};

/* ops of @task in the interval ending at sample @s. */
static inline uint64_t res_ops(const struct res_point *p, unsigned task,
			       unsigned s)
{
	return p->ops[(size_t)task * p->nsamples + s];
}

/* Allocate a point's task and sample arrays, zeroed. 0 or -ENOMEM. */
int res_point_alloc(struct res_point *p, unsigned ntasks, unsigned nsamples);
void res_point_free(struct res_point *p);

/* Declare the point's aux counters (after res_point_alloc). 0/-ENOMEM */
int res_point_set_aux(struct res_point *p, unsigned naux,
		      const char *const *names, const char *const *units,
		      const double *scales);
void res_file_free(struct res_file *f);

/* Keep only the first @n samples (a point that ended early). */
void res_point_truncate(struct res_point *p, unsigned n);

/* Add a zeroed point at the end of @f; NULL on ENOMEM. */
struct res_point *res_file_add_point(struct res_file *f);

/*
 * Compute p->sum from the samples: rates divide by the real elapsed time
 * of the measured intervals. Leaves sum.scalability alone.
 */
void res_point_summarise(struct res_point *p);

/* Fill sum.scalability of every ok point from the N=1 point of the same
 * test, mode and run. */
void res_file_scalability(struct res_file *f);

/* Sample mean and CoV (%, sample stddev / mean) of @n values. */
double res_mean(const double *v, size_t n);
double res_cov_pct(const double *v, size_t n);

/* Build the JSON document; NULL on ENOMEM. */
struct json_object *res_to_json(const struct res_file *f);
/* One point as it appears in "points". */
struct json_object *res_point_to_json(const struct res_point *p);

/*
 * results/model/journal_lines.c: the journal of a run in progress, one record a
 * line (lib/linelog.h frames each with its checksum): the header (the
 * result without points, "cgscale_journal": 2, the output it is for), written
 * twice so that one damaged copy loses nothing, then each point as it
 * finished. Records have no '\n'; NULL on ENOMEM.
 */
char *res_journal_header(const struct res_file *f, const char *output);
char *res_journal_point(const struct res_point *p);

/* The run id of @f (its invocation.id), which its journal's lines are
 * checksummed with; NULL for a file of an older runner. */
const char *res_run_id(const struct res_file *f);

#define RES_JOURNAL_MAX_BAD 32
/* What res_journal_read found besides the points. */
struct res_journal_info {
	unsigned points;         /* points recovered */
	unsigned nbad;           /* complete lines dropped (damaged, not a
				  * point, a repeated point) */
	unsigned *bad_line;      /* the line number of each of them */
	struct {
		unsigned line;   /* from 1 */
		char why[160];
	} bad[RES_JOURNAL_MAX_BAD];   /* the first nbad of them */
	unsigned split;          /* lines that held two (a damaged '\n') */
	unsigned split_line;     /* the first of them */
	bool checksums;          /* false: an older journal, without them */
	char output[PATH_MAX];   /* the output it was for ("": not said) */
	size_t torn;             /* bytes of a torn last line, dropped */
};

/*
 * Turn a journal's text into a result marked "complete": false, holding
 * every good point line: a line that is damaged (its checksum), not JSON,
 * not a valid point, or a point already seen (its seq) is dropped and
 * named in @info, never a reason to lose the others. 0 (free @info with
 * res_journal_info_free), or -EINVAL with @err when neither of the first
 * two lines is a valid journal header; -ENOMEM.
 */
int res_journal_read(const char *name, const char *buf, size_t len,
		     struct res_file *f, struct res_journal_info *info,
		     char *err, size_t errlen);
/* Free what res_journal_read allocated in @info. */
void res_journal_info_free(struct res_journal_info *info);

/*
 * Write @f to @path: a temporary name in the same directory, fsync, then
 * rename, so a reader never sees half a file (lib/safefile.h: never over
 * a link or device; a device or FIFO is written in place). 0 or -errno
 * (@err says). res_write_file_at: in the open directory @dirfd (< 0:
 * @path's own), @path's last part being the name.
 */
int res_write_file(const struct res_file *f, const char *path, char *err,
		   size_t errlen);
int res_write_file_at(const struct res_file *f, int dirfd, const char *path,
		      char *err, size_t errlen);

/*
 * Read a result file. Returns 0, or -errno with a one-line message in
 * @err naming the file and what is wrong: -ENOENT/-EACCES (unreadable),
 * -EINVAL (not JSON, not a cgscale result, a field missing or of the wrong
 * type), -EPROTONOSUPPORT (a newer schema_version).
 */
int res_read_file(const char *path, struct res_file *f, char *err,
		  size_t errlen);
/* The same from a buffer; @name only labels the messages. */
int res_read_buf(const char *name, const char *buf, size_t len,
		 struct res_file *f, char *err, size_t errlen);
int res_from_json(struct json_object *root, struct res_file *f, char *err,
		  size_t errlen);

#endif
