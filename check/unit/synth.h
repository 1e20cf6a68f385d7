/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * synth.h - synthetic result files for the compare tests: each run is one
 * point whose tasks each do exactly a chosen ops/s in every measured
 * interval, so the per-run value (per_task_ops) is known exactly. The
 * value of run i is mean * (1 + shift/100) * (1 + cov/100 * z_i), z_i
 * standard normal from a seeded generator. Header-only, for tests.
 */
#ifndef CGS_SYNTH_H
#define CGS_SYNTH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/model/result.h"
#include "results/stats/stats.h"

struct synth {
	const char *test, *mode, *layout, *kernel, *thp, *cmdline;
	unsigned tasks, runs;
	double mean, cov, shift;   /* ops/s per task, %, % */
	double slow;               /* task 1 runs this fraction slower */
	double path_length;        /* perf.metrics.path_length; 0: none */
	double p99_ns;             /* stat_reader.summary.p99_ns at mean; 0: none */
	uint64_t seed;
	const char *status;        /* of every point; NULL: "ok" */
	/* more sections of a run whose per-task ops/s is @value; NULL: none */
	void (*more)(struct json_object *extra, double value, const void *arg);
	const void *more_arg;
};

static inline double synth_normal(struct st_rng *r)
{
	double u = (st_rng_next(r) >> 11) * 0x1.0p-53 + 0x1.0p-54;
	double v = (st_rng_next(r) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static inline struct json_object *synth_header(const struct synth *s,
					       const char *section)
{
	struct json_object *o = json_object_new_object();

	if (!strcmp(section, "kernel")) {
		struct json_object *thp = json_object_new_object();

		json_object_object_add(o, "release", json_object_new_string(
			s->kernel ? s->kernel : "6.1.0-synthetic"));
		json_object_object_add(o, "version", json_object_new_string("#1 SMP"));
		json_object_object_add(o, "cmdline", json_object_new_string(
			s->cmdline ? s->cmdline : "BOOT_IMAGE=/vmlinuz root=/dev/vda ro"));
		json_object_object_add(thp, "enabled", json_object_new_string(
			s->thp ? s->thp : "always [madvise] never"));
		json_object_object_add(o, "thp", thp);
	} else if (!strcmp(section, "machine")) {
		json_object_object_add(o, "hostname", json_object_new_string("synth"));
		json_object_object_add(o, "cpu_model", json_object_new_string("Synthetic CPU"));
		json_object_object_add(o, "online_cpus", json_object_new_int(2));
	} else if (!strcmp(section, "options")) {
		json_object_object_add(o, "placement", json_object_new_string("cores"));
		json_object_object_add(o, "duration", json_object_new_double(3));
	}
	return o;
}

/* Fill one point: 1 start sample and 3 measured seconds. */
static inline int synth_point(struct res_file *f, const struct synth *s,
			      unsigned run, double value)
{
	struct res_point *p = res_file_add_point(f);

	if (!p || res_point_alloc(p, s->tasks, 4))
		return -1;
	p->seq = run;
	p->run = run;
	p->test = strdup(s->test ? s->test : "page_fault3");
	p->mode = strdup(s->mode ? s->mode : "process");
	p->tasks = s->tasks;
	p->status = s->status ? (enum res_status)res_status_parse(s->status) : RES_OK;
	if (s->status && strcmp(s->status, "ok"))
		p->reason = strdup("synthetic failure");
	p->wopts = json_object_new_object();
	p->extra = json_object_new_object();
	if (s->layout) {
		struct json_object *cg = json_object_new_object();

		json_object_object_add(cg, "layout", json_object_new_string(s->layout));
		json_object_object_add(p->extra, "cgroup", cg);
	}
	if (s->path_length > 0) {
		struct json_object *perf = json_object_new_object();
		struct json_object *m = json_object_new_object();

		/* instructions per op rise as ops/s fall */
		json_object_object_add(m, "path_length", json_object_new_double(
			s->path_length * s->mean / value));
		json_object_object_add(perf, "metrics", m);
		json_object_object_add(p->extra, "perf", perf);
	}
	if (s->p99_ns > 0) {
		struct json_object *sr = json_object_new_object();
		struct json_object *sum = json_object_new_object();

		/* a read waits longer as the update side slows down */
		json_object_object_add(sum, "p50_ns", json_object_new_double(
			s->p99_ns / 2 * s->mean / value));
		json_object_object_add(sum, "p99_ns", json_object_new_double(
			s->p99_ns * s->mean / value));
		json_object_object_add(sr, "summary", sum);
		json_object_object_add(p->extra, "stat_reader", sr);
	}
	if (s->more)
		s->more(p->extra, value, s->more_arg);
	for (unsigned k = 0; k < 4; k++) {
		p->t_ns[k] = (int64_t)k * 1000000000;
		p->phase[k] = k ? RES_PHASE_MEASURE : RES_PHASE_START;
		for (unsigned i = 0; k && i < s->tasks; i++)
			p->ops[(size_t)i * 4 + k] =
				(uint64_t)llround(value * (i == 1 ? 1 - s->slow : 1));
	}
	for (unsigned i = 0; i < s->tasks; i++)
		p->task[i].status = RES_OK;
	res_point_summarise(p);
	return 0;
}

/* The head of a synthetic result file: version, commit and @s's kernel,
 * machine (with @cpus online CPUs when above 0), environment and options. */
static inline void synth_file_head(struct res_file *f, const struct synth *s, int cpus)
{
	f->schema_version = 1;
	f->tool_version = strdup("0.1.0");
	f->git = strdup("synthetic");
	f->complete = true;
	f->kernel = synth_header(s, "kernel");
	f->machine = synth_header(s, "machine");
	if (cpus > 0)
		json_object_object_add(f->machine, "online_cpus", json_object_new_int(cpus));
	f->environment = synth_header(s, "environment");
	f->options = synth_header(s, "options");
}

/* Write @s->runs runs to @path. Returns 0, or -1. */
static inline int synth_write(const char *path, const struct synth *s)
{
	struct res_file f = { 0 };
	struct st_rng r;
	char err[512];
	int rc = 0;

	st_rng_seed(&r, s->seed);
	synth_file_head(&f, s, 0);
	for (unsigned run = 0; !rc && run < s->runs; run++)
		rc = synth_point(&f, s, run, s->mean * (1 + s->shift / 100) *
				 (1 + s->cov / 100 * synth_normal(&r)));
	if (!rc && res_write_file(&f, path, err, sizeof(err))) {
		fprintf(stderr, "synth: %s\n", err);
		rc = -1;
	}
	res_file_free(&f);
	return rc;
}

#endif
