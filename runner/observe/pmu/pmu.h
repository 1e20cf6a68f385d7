/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pmu.h - per-task perf counters (`-e/--events`): event names encoded by
 * libpfm4, checked on the runner itself before anything runs, then one
 * counter group per task, opened while the tasks wait at the gate,
 * enabled when the measured window opens and read with one read() per
 * task at every sample instant. The point's "perf" section holds the
 * raw counts per task and interval, totals, per-op figures and derived
 * metrics (IPC, CPI, cache-miss %, branch-miss %). See results/SCHEMA.md.
 */
#ifndef CGS_PMU_H
#define CGS_PMU_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results/model/perf_metric.h"
#include "results/model/result.h"

#define PMU_MAX_EVENTS 64

/* One event of -e, as given and as libpfm4 encodes it. */
struct pmu_event {
	char *name;                  /* as given, e.g. "cycles:u" */
	char *pfm;                   /* libpfm4's canonical string */
	struct perf_event_attr attr; /* what perf_event_open gets */
	bool plm_given;              /* :u/:k chose the privilege levels */
	bool user_only;              /* fell back to user-mode counting */
	int err;                     /* 0: counts here, else -errno */
	char *reason;                /* why it cannot count, when err */
};

/* The events of one run. */
struct pmu_set {
	unsigned n;
	struct pmu_event *ev;
	bool require;                /* --require-events */
	char *note;                  /* run-wide note (user-only fallback) */
};

/*
 * Parse -e @list ("none", "default", or names in libpfm4 syntax separated
 * by commas; "default" may be mixed with names) and encode every event,
 * counting user and kernel mode unless :u/:k say otherwise. Repeated names
 * count once. 0, or -EINVAL with a one-line message in @err.
 */
int pmu_set_parse(struct pmu_set *s, const char *list, char *err,
		  size_t errlen);

/*
 * Open every event on the runner itself to learn what this machine and
 * user can count: fills ev->err/reason, falls back to user-mode counting
 * when perf_event_paranoid forbids kernel counting, and checks that the
 * counted events fit in one group. With s->require, an event that cannot
 * count is an error: -EOPNOTSUPP with @err. Else 0.
 */
int pmu_set_probe(struct pmu_set *s, char *err, size_t errlen);

/* Say on stderr what will not count, and the user-only fallback. */
void pmu_set_report(const struct pmu_set *s);

/* Events that count here. */
unsigned pmu_set_counted(const struct pmu_set *s);

/*
 * Make room for @max_tasks x counted events open files: raise
 * RLIMIT_NOFILE when needed, or -EMFILE with the number and the limit.
 */
int pmu_set_nofile(const struct pmu_set *s, unsigned max_tasks, char *err,
		   size_t errlen);

void pmu_set_free(struct pmu_set *s);

/* Index of a counted hardware/software event of @type/@config whose
 * privilege levels are those of @like (NULL: any), or -1. */
int pmu_set_find(const struct pmu_set *s, uint32_t type, uint64_t config,
		 const struct pmu_event *like);

/* `cgscale events [PATTERN]` (runner/cmd/events.c): the PMUs libpfm4
 * detects and their events whose name matches @pattern (NULL: all) on
 * stdout. Returns the exit status: 0, or 1 when libpfm4 does not
 * initialize. */
int pmu_list_events(const char *pattern);

/* The observer of one point is pmu.c's pmu_observer (observer.h). */

/* ---- arithmetic and the "perf" section (pmu_report.c), table lines
 * (pmu_table.c) ---- */

/*
 * A count scaled for multiplexing: raw x enabled / running. NAN when the
 * counter was enabled but never ran; *scaled says whether it was scaled.
 */
double pmu_scale(uint64_t raw, uint64_t enabled, uint64_t running,
		 bool *scaled);

/*
 * The derived metrics of @s (results/model/perf_metric.h) from its per-event totals (@total, NAN when
 * not counted), per-op figures (@per_op) and the measured @elapsed_s;
 * NAN where an input is missing. Each metric's inputs must have the
 * same privilege levels (cycles:u with instructions:u, not instructions).
 * Returns the event each metric belongs to in @on (or -1), for the table.
 */
void pmu_derive(const struct pmu_set *s, const double *total,
		const double *per_op, double elapsed_s,
		double out[RES_NPERF], int on[RES_NPERF]);

/*
 * Build the point's "perf" section from the cumulative group reads:
 * cum[(task * nsamples + sample) * (n + 2) + k], k = 0 time_enabled,
 * 1 time_running, 2 + e event e; @terr[task * n + e] is 0 or the -errno
 * that kept the event from opening for that task; @nread samples were
 * read; @enabled_at is the sample where counting started.
 */
struct pmu_section {
	const struct pmu_set *set;
	const struct res_point *p;
	unsigned ntasks, nsamples, nread, enabled_at;
	const uint64_t *cum;
	const int *terr;
	const int *target;          /* pid or tid counted, per task */
	const char *failure;        /* a read or open failure, or NULL */
};
struct json_object *pmu_section_json(const struct pmu_section *ps);

/* The table lines of the ok runs of one (test, mode, tasks). */
void pmu_print_rows(const struct res_file *f, const char *test,
		    const char *mode, unsigned tasks, const char *layout,
		    FILE *out);

#endif
