/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statread_int.h - the state of the stats reader of one point, shared by
 * statread.c (the reader thread and the hooks), statread_out.c (the
 * checks, the JSON section and the table) and statread_rec.c (the
 * stat_read workload's recorder). Not for other modules.
 */
#ifndef CGS_STATREAD_INT_H
#define CGS_STATREAD_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results/stats/hist.h"
#include "results/model/result.h"
#include "runner/cgroups/statpath.h"
#include "runner/core/topo.h"

struct cgs_cgrun;

/* The reader's options. */
struct cgs_sr_opts {
	int64_t hz;                   /* --stat-reader, 0: off */
	int64_t cpu;                  /* --stat-reader-cpu: a CPU or CGS_SCPU_AUTO */
	int file, target;             /* --stat-reader-file, -target */
};

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
	int64_t late_ns;              /* CGSCALE_TEST_SR_LATE_MS: first read delayed */
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

};

int sr_alloc(struct cgs_statread *sr);
void sr_free(struct cgs_statread *sr);
/* Room for @n intervals. 0 or -ENOMEM. */
int sr_intervals_grow(struct cgs_statread *sr, unsigned n);
/* Parse @text into content[@which] (0 start, 1 end), read at @t_ns. */
void sr_content_keep(struct cgs_statread *sr, int which, const char *text,
		     int64_t t_ns);
/* Add extra.stat_reader to @p. */
void sr_add_json(struct cgs_statread *sr, struct res_point *p);
/* Where the file was, into section @o: shared by stat_reader and
 * stat_read. */
void sr_add_where(struct json_object *o, enum cgs_stat_file f,
		  enum cgs_stat_target t, const struct cgs_stat_where *w,
		  const struct cgs_cgview *cg);

/* --stat-reader-cpu @cpu on @topo (after the topology is loaded). 0 or
 * -EINVAL with a one-line message in @err. */
int sr_check_cpu(int cpu, const struct cgs_topo *topo, char *err,
		 size_t errlen);
/*
 * After the cgroup layouts are final: the reader's file @rfile and the
 * stat_read workload's @wfile (each an enum cgs_stat_file, -1: none)
 * must live in a mounted hierarchy, and in one that holds the cgroups
 * cgscale makes (@c). 0 or -errno with @err.
 */
int sr_check_layouts(const struct cgs_cgrun *c, int rfile, int wfile, char *err,
		     size_t errlen);

/* The table line of the reader for the ok runs of one (test, mode,
 * tasks, cgroup layout; NULL: none recorded), their histograms merged,
 * after the point's own row. */
void cgs_statread_print_rows(const struct res_file *f, const char *test,
			     const char *mode, unsigned tasks, const char *layout,
			     FILE *out);

#endif
