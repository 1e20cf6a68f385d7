/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.c - what a run prints: the table of points on stdout (runs of a
 * point averaged), will-it-scale's runtest.py CSV with --csv, and the
 * progress line on stderr when it is a terminal.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "runner/cgroups/cgrun.h"
#include "runner/point/point.h"
#include "runner/run/run.h"
#include "results/model/disturb.h"

/* The runs of one (test, mode, tasks), summed up for the table. */
struct agg {
	const char *test, *mode;
	unsigned tasks, ok, runs, migrated;
	double *total;           /* one per ok run */
	double per_task, min_task, max_task, icov, idle, steal, scal;
	unsigned nscal, nicov;
	double lag_ms, interval_ms;
	bool oversub;
	const struct res_point *first_ok;   /* for aux names and units */
	double aux[CGS_MAX_AUX], aux_task[CGS_MAX_AUX];
	const char *bad_status, *bad_reason;
	const char *layout;      /* extra.cgroup.layout; NULL: none */
	unsigned cg_flagged;     /* points with OOM/limit/throttle events */
	unsigned disturbed;      /* ok runs marked disturbed (disturb.h) */
	unsigned silent, silent_runs;  /* most tasks that did no op in a
					* run's window; runs with any */
	char why[256];           /* the first one's reasons */
};

static bool same_layout(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool cg_flagged(const struct res_point *p)
{
	struct json_object *cg, *f;

	return p->extra && json_object_object_get_ex(p->extra, "cgroup", &cg) &&
	       json_object_object_get_ex(cg, "flagged", &f) &&
	       json_object_get_boolean(f);
}

static void agg_point(struct agg *a, const struct res_point *p)
{
	unsigned silent;

	a->runs++;
	for (unsigned i = 0; i < p->ntasks; i++)
		a->migrated += p->task[i].migrated;
	a->oversub |= p->oversubscribed;
	a->cg_flagged += cg_flagged(p);
	if (res_disturbed(p, a->disturbed ? NULL : a->why,
			  a->disturbed ? 0 : sizeof(a->why)) > 0)
		a->disturbed++;
	if (p->sampler_lag_ms > a->lag_ms)
		a->lag_ms = p->sampler_lag_ms;
	a->interval_ms = p->interval_s * 1e3;
	if (p->status != RES_OK) {
		a->bad_status = res_status_names[p->status];
		a->bad_reason = p->reason;
		return;
	}
	a->total[a->ok] = p->sum.total_ops_per_sec;
	silent = res_silent_tasks(p);
	a->silent_runs += silent > 0;
	if (silent > a->silent)
		a->silent = silent;
	if (!a->first_ok)
		a->first_ok = p;
	for (unsigned k = 0; k < p->naux; k++) {
		a->aux[k] += p->sum.aux_rate[k];
		a->aux_task[k] += p->sum.aux_task_rate[k];
	}
	if (!a->ok || p->sum.min_task_ops_per_sec < a->min_task)
		a->min_task = p->sum.min_task_ops_per_sec;
	if (p->sum.max_task_ops_per_sec > a->max_task)
		a->max_task = p->sum.max_task_ops_per_sec;
	a->per_task += p->sum.per_task_ops_per_sec;
	if (!isnan(p->sum.interval_cov_pct)) {
		a->icov += p->sum.interval_cov_pct;
		a->nicov++;
	}
	a->idle += isnan(p->sum.idle_pct) ? 0 : p->sum.idle_pct;
	a->steal += isnan(p->sum.steal_pct) ? 0 : p->sum.steal_pct;
	if (!isnan(p->sum.scalability)) {
		a->scal += p->sum.scalability;
		a->nscal++;
	}
	a->ok++;
}

/* Aggregate points in the order they first appear. Returns the count,
 * or 0 with *out NULL when out of memory. Free with agg_free(). */
static unsigned aggregate(const struct res_file *f, struct agg **outp)
{
	struct agg *out = calloc(f->npoints + 1, sizeof(*out));
	unsigned n = 0, max = f->npoints;

	*outp = out;
	if (!out)
		return 0;

	for (unsigned i = 0; i < f->npoints; i++) {
		const struct res_point *p = &f->points[i];
		unsigned k;

		for (k = 0; k < n; k++)
			if (!strcmp(out[k].test, p->test) &&
			    !strcmp(out[k].mode, p->mode) && out[k].tasks == p->tasks &&
			    same_layout(out[k].layout, cgs_point_layout(p)))
				break;
		if (k == n) {
			if (n == max)
				continue;
			out[n].total = calloc(f->npoints, sizeof(double));
			if (!out[n].total)
				continue;
			out[n].test = p->test;
			out[n].mode = p->mode;
			out[n].tasks = p->tasks;
			out[n].layout = cgs_point_layout(p);
			n++;
		}
		agg_point(&out[k], p);
	}
	return n;
}

static void agg_free(struct agg *a, unsigned n)
{
	for (unsigned i = 0; a && i < n; i++)
		free(a[i].total);
	free(a);
}

static void fmt_num(double v, char *buf, size_t len, const char *fmtstr)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmtstr, v);
}

static void print_row(const struct agg *a, bool layouts, FILE *out)
{
	unsigned n = a->ok;
	double mean = n ? res_mean(a->total, n) : NAN;
	char tot[24], per[24], mn[24], mx[24], icov[16], rcov[16], idle[16],
	     steal[16], notes[512] = "";

	fmt_num(mean, tot, sizeof(tot), "%.0f");
	fmt_num(n ? a->per_task / n : NAN, per, sizeof(per), "%.0f");
	fmt_num(n ? a->min_task : NAN, mn, sizeof(mn), "%.0f");
	fmt_num(n ? a->max_task : NAN, mx, sizeof(mx), "%.0f");
	fmt_num(a->nicov ? a->icov / a->nicov : NAN, icov, sizeof(icov), "%.1f");
	fmt_num(n > 1 ? res_cov_pct(a->total, n) : NAN, rcov, sizeof(rcov), "%.1f");
	fmt_num(n ? a->idle / n : NAN, idle, sizeof(idle), "%.1f");
	fmt_num(n ? a->steal / n : NAN, steal, sizeof(steal), "%.1f");
	if (layouts)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "cgroup %s; ", a->layout ? a->layout : "none");
	if (a->cg_flagged)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "%u run(s) with cgroup memory events (see extra.cgroup.flags); ",
			 a->cg_flagged);
	if (a->nscal && a->tasks > 1)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "scalability %.2f; ", a->scal / a->nscal);
	if (a->silent)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "%u task%s did no op in the window (in %u of %u runs); ",
			 a->silent, a->silent > 1 ? "s" : "", a->silent_runs, a->runs);
	if (a->oversub)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "oversubscribed; ");
	if (a->lag_ms > a->interval_ms / 4)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "sampler late by up to %.0f ms (busy machine?); ", a->lag_ms);
	if (a->migrated)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "%u task(s) migrated; ", a->migrated);
	if (a->disturbed)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "%u of %u runs disturbed (compare leaves them out), e.g. %s; ",
			 a->disturbed, a->runs, a->why);
	if (a->bad_status)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
			 "%u of %u runs %s: %s; ", a->runs - a->ok, a->runs,
			 a->bad_status, a->bad_reason ? a->bad_reason : "");
	if (*notes)
		notes[strlen(notes) - 2] = 0;
	fprintf(out, "  %-8s %5u %4u/%-4u %14s %14s %12s %12s %6s %6s %6s %6s  %s\n",
		a->mode, a->tasks, a->ok, a->runs, tot, per, mn, mx, icov, rcov,
		idle, steal, notes);
	/* the workload's own counters, as rates in their units */
	for (unsigned k = 0; n && a->first_ok && k < a->first_ok->naux; k++)
		fprintf(out, "  %-8s %5s %9s %14.1f %14.1f  %s (%s: total, per task)\n",
			"", "", "", a->aux[k] / n, a->aux_task[k] / n,
			a->first_ok->aux_unit[k], a->first_ok->aux_name[k]);
}

void cgs_print_table(const struct cgs_run *r, FILE *out)
{
	struct agg *aggs;
	unsigned n = aggregate(&r->res, &aggs);
	const char *last = "";
	char d0[PATH_MAX + 200];

	for (unsigned i = 0; i < n; i++) {
		const struct cgs_workload *w = cgs_workload_find(aggs[i].test);

		if (strcmp(last, aggs[i].test)) {
			fprintf(out, "\n%s: %s; one op = one %s\n", aggs[i].test,
				w ? w->desc : "", w ? w->unit : "op");
			fprintf(out, "  %-8s %5s %9s %14s %14s %12s %12s %6s %6s %6s %6s  %s\n",
				"mode", "tasks", "ok/runs", "total ops/s",
				"per-task ops/s", "min task", "max task", "icov%",
				"rcov%", "idle%", "steal%", "notes");
			last = aggs[i].test;
		}
		print_row(&aggs[i], r->cg && r->cg->nlayouts > 1, out);
		cgs_obs_table_rows(cgs_observers, cgs_nobservers, &r->res, aggs[i].test,
				   aggs[i].mode, aggs[i].tasks, aggs[i].layout, out);
	}
	agg_free(aggs, n);
	fprintf(out, "\nper-task ops/s is LKP's per_process_ops (process mode) or per_thread_ops (thread mode).\n"
		     "icov%%: spread of total ops/s across the measured intervals; rcov%%: across runs.\n");
	if (r->cg && cgs_cgrun_depth0_text(r->cg, d0, sizeof(d0)))
		fprintf(out, "%s.\n", d0);
	cgs_obs_table_notes(cgs_observers, cgs_nobservers, &r->res, out);
}

/* Mean total ops/s and idle % of the ok runs of one point, or 0. */
static void csv_cell(const struct res_file *f, const char *test, const char *layout,
		     const char *mode, unsigned tasks, double *ops, double *idle)
{
	unsigned n = 0;

	*ops = *idle = 0;
	for (unsigned i = 0; i < f->npoints; i++) {
		const struct res_point *p = &f->points[i];

		if (strcmp(p->test, test) || strcmp(p->mode, mode) ||
		    p->tasks != tasks || p->status != RES_OK ||
		    (layout && !same_layout(layout, cgs_point_layout(p))))
			continue;
		*ops += p->sum.total_ops_per_sec;
		*idle += isnan(p->sum.idle_pct) ? 0 : p->sum.idle_pct;
		n++;
	}
	if (n) {
		*ops /= n;
		*idle /= n;
	} else {
		*idle = 100;
	}
}

/* CSV block @b: test b / nlayouts in layout b % nlayouts (see run.h). */
void cgs_print_csv_block(const struct cgs_run *r, unsigned b, FILE *out)
{
	unsigned nl = r->cg && r->cg->nlayouts ? r->cg->nlayouts : 1;
	const char *test = r->tests[b / nl]->name;
	const char *layout = nl > 1 ? r->cg->L[b % nl].name : NULL;
	double p1, t1, idle, linear1 = 0;
	bool has_one = r->tasks.n && r->tasks.v[0] == 1;

	if (has_one) {
		csv_cell(&r->res, test, layout, "process", 1, &p1, &idle);
		csv_cell(&r->res, test, layout, "thread", 1, &t1, &idle);
		linear1 = p1 > t1 ? p1 : t1;
	}
	fprintf(out, "tasks,processes,processes_idle,threads,threads_idle,linear\n");
	fprintf(out, "0,0,100,0,100,0\n");
	for (unsigned k = 0; k < r->tasks.n; k++) {
		unsigned n = r->tasks.v[k];
		double po, pi, to, ti;

		csv_cell(&r->res, test, layout, "process", n, &po, &pi);
		csv_cell(&r->res, test, layout, "thread", n, &to, &ti);
		fprintf(out, "%u,%.0f,%.2f,%.0f,%.2f,%.0f\n", n, po, pi, to,
			ti, n * linear1);
	}
}

void cgs_progress(const struct cgs_run *r, const struct res_point *p,
		  int64_t elapsed)
{
	int64_t per = r->o.warmup_ns + r->o.duration_ns + 300000000;
	int64_t left = (int64_t)(r->npoints_planned - r->npoints_done - 1) * per +
		       (r->o.warmup_ns + r->o.duration_ns - elapsed);
	long secs = left > 0 ? (long)(left / 1000000000) : 0;

	if (!isatty(2) || r->o.quiet)
		return;
	fprintf(stderr, "\r\033[K[%u/%u] %s %s %u tasks, run %u/%lld, %s; %ld:%02ld left",
		r->npoints_done + 1, r->npoints_planned, p->test, p->mode,
		p->tasks, p->run + 1, (long long)r->o.runs,
		elapsed < r->o.warmup_ns ? "warming up" : "measuring",
		secs / 60, secs % 60);
	fflush(stderr);
}

void cgs_progress_done(const struct cgs_run *r)
{
	if (isatty(2) && !r->o.quiet && r->npoints_planned)
		fprintf(stderr, "\r\033[K");
}
