/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statread_int.h - the state of one point's stats observers, shared by
 * statread.c (the reader thread and the hooks) and statread_out.c (the
 * options, the JSON section and the table). Not for other modules.
 */
#ifndef CGS_STATREAD_INT_H
#define CGS_STATREAD_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "results/stats/hist.h"
#include "results/model/result.h"
#include "runner/cgroups/statpath.h"
#include "runner/core/topo.h"

/* What the reader saw in the interval ending at one sample. */
struct cgs_sr_interval {
	int64_t t_ns;
	enum res_phase phase;
	struct res_hist_summary sum;
	uint64_t errors, missed, bytes;
};

/* A parsed read of the file, with when it completed (ns after the gate). */
struct cgs_sr_content {
	struct json_object *values;
	int64_t t_ns;
};

struct cgs_statread {
	const struct cgs_topo *topo;
	const struct cgs_places *places;
	const struct cgs_cgview *cg;

	/* the reader: settings */
	int64_t hz;
	int cpu_asked;                /* -1: auto */
	enum cgs_stat_file file;
	enum cgs_stat_target target;
	/* resolved at ready */
	struct cgs_stat_where where;
	int cpu;                      /* -1: unbound */
	char cpu_note[128];
	hwloc_bitmap_t bind;          /* NULL: unbound */

	/* the thread and what it shares, under mu */
	pthread_t th;
	bool started, cv_ready;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop, running;
	int bind_rc;
	struct res_hist *cur;         /* reads completed since the last sample */
	uint64_t cur_errors, cur_missed, cur_bytes;
	char *latest;                 /* the text of the latest read */
	size_t latest_cap;
	int64_t latest_done;          /* CLOCK_MONOTONIC; 0: none yet */
	char first_error[256];

	/* the runner's side */
	struct res_hist *spare;       /* swapped with cur at each sample */
	struct res_hist *point;       /* the measured intervals, merged */
	struct cgs_sr_interval *iv;   /* per sample */
	unsigned niv, nsamples;
	int64_t last_t_ns, measured_ns;
	uint64_t m_errors, m_missed, m_bytes;
	struct cgs_sr_content content[2];   /* at the window's start, end */

	/* the stat_read workload's recorder */
	enum cgs_stat_file w_file;
	enum cgs_stat_target w_target;
	struct cgs_stat_where w_where;
	bool w_done;
	int w_rc;
	char w_err[512];
};

int sr_alloc(struct cgs_statread *sr);
void sr_free(struct cgs_statread *sr);
/* Room for @n intervals. 0 or -ENOMEM. */
int sr_intervals_grow(struct cgs_statread *sr, unsigned n);
/* Parse @text into content[@which] (0 start, 1 end), read at @t_ns. */
void sr_content_keep(struct cgs_statread *sr, int which, const char *text,
		     int64_t t_ns);
/* Add extra.stat_reader / extra.stat_read to @p. */
void sr_add_json(struct cgs_statread *sr, struct res_point *p);
void sr_add_where_json(struct cgs_statread *sr, struct res_point *p);

#endif
