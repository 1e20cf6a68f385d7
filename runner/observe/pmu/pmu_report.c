/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pmu_report.c - from a point's group reads to its "perf" section: raw
 * counts, time_enabled and time_running per task and interval; totals,
 * per-op figures and derived metrics over the measured window. The
 * arithmetic (multiplexing scale, derived metrics) is pure and
 * unit-tested; pmu_table.c prints the section.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "runner/observe/pmu/pmu.h"
#include "lib/macros.h"

double pmu_scale(uint64_t raw, uint64_t enabled, uint64_t running, bool *scaled)
{
	*scaled = false;
	if (!running)
		return enabled ? NAN : (double)raw;
	if (running >= enabled)
		return (double)raw;
	*scaled = true;
	return (double)raw * ((double)enabled / (double)running);
}

/* A ratio: the first numerator counted with a denominator counted alike. */
static void derive_ratio(const struct pmu_set *s, const struct res_perf_metric *pm,
			 const double *total, double *out, int *on)
{
	for (unsigned n = 0; n < s->n; n++) {
		const struct perf_event_attr *a = &s->ev[n].attr;
		int d;

		if (s->ev[n].err || a->type != pm->type || a->config != pm->num ||
		    !isfinite(total[n]))
			continue;
		d = pmu_set_find(s, pm->type, pm->den, &s->ev[n]);
		if (d < 0 || !isfinite(total[d]) || total[d] <= 0)
			continue;
		*out = pm->scale * total[n] / total[d];
		*on = (int)n;
		return;
	}
}

void pmu_derive(const struct pmu_set *s, const double *total,
		const double *per_op, double elapsed_s,
		double out[RES_NPERF], int on[RES_NPERF])
{
	for (int m = 0; m < RES_NPERF; m++) {
		const struct res_perf_metric *pm = &res_perf_metrics[m];
		int e;

		out[m] = NAN;
		on[m] = -1;
		switch (pm->how) {
		case RES_PERF_RATIO:
			derive_ratio(s, pm, total, &out[m], &on[m]);
			break;
		case RES_PERF_CLOCK:
			e = pmu_set_find(s, pm->type, pm->num, NULL);
			if (e >= 0 && isfinite(total[e]) && elapsed_s > 0) {
				out[m] = total[e] / 1e9 / elapsed_s;
				on[m] = e;
			}
			break;
		case RES_PERF_PER_OP:
			e = pmu_set_find(s, pm->type, pm->num, NULL);
			if (e >= 0 && isfinite(per_op[e]))
				out[m] = per_op[e];
			break;
		}
	}
}

static const char *modes_of(const struct perf_event_attr *a)
{
	if (!a->exclude_user && !a->exclude_kernel)
		return "user+kernel";
	return a->exclude_kernel ? "user" : "kernel";
}

static struct json_object *events_json(const struct pmu_set *s)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned e = 0; e < s->n; e++) {
		const struct pmu_event *ev = &s->ev[e];
		struct json_object *o = json_object_new_object();

		cgs_jadd(o, "name", json_object_new_string(ev->name));
		cgs_jadd(o, "pfm", json_object_new_string(ev->pfm));
		cgs_jadd(o, "type", json_object_new_int((int)ev->attr.type));
		cgs_jadd(o, "config", json_object_new_uint64(ev->attr.config));
		cgs_jadd(o, "config1", json_object_new_uint64(ev->attr.config1));
		cgs_jadd(o, "counting", json_object_new_string(modes_of(&ev->attr)));
		cgs_jadd(o, "user_only_fallback", json_object_new_boolean(ev->user_only));
		cgs_jadd(o, "supported", json_object_new_boolean(!ev->err));
		if (ev->err) {
			cgs_jadd(o, "errno", json_object_new_string(strerrorname_np(-ev->err)));
			cgs_jadd(o, "reason", json_object_new_string(ev->reason ? ev->reason : ""));
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

/* Reading k of task @i at sample @s, minus the one before (0 at s = 0). */
static uint64_t delta(const struct pmu_section *ps, unsigned i, unsigned s,
		      unsigned k)
{
	size_t w = ps->set->n + 2;
	const uint64_t *r = ps->cum + ((size_t)i * ps->nsamples + s) * w;

	return s ? r[k] - r[k - w] : r[k];
}

static bool measured(const struct pmu_section *ps, unsigned s)
{
	return s < ps->nread && s > ps->enabled_at &&
	       ps->p->phase[s] == RES_PHASE_MEASURE;
}

static struct json_object *series(const struct pmu_section *ps, unsigned i,
				  unsigned k)
{
	struct json_object *a = json_object_new_array_ext((int)ps->nread);

	for (unsigned s = 0; s < ps->nread; s++)
		json_object_array_add(a, json_object_new_uint64(delta(ps, i, s, k)));
	return a;
}

/* Task @i's section, with its measured totals of event @e in raw/en/run. */
static struct json_object *task_json(const struct pmu_section *ps, unsigned i)
{
	const struct pmu_set *s = ps->set;
	struct json_object *o = json_object_new_object();
	struct json_object *counts = json_object_new_object();
	struct json_object *tot = json_object_new_object();
	struct json_object *nc = json_object_new_object();
	uint64_t en = 0, run = 0;

	for (unsigned t = 0; t < ps->nread; t++)
		if (measured(ps, t)) {
			en += delta(ps, i, t, 0);
			run += delta(ps, i, t, 1);
		}
	cgs_jadd(o, "index", json_object_new_int((int)i));
	cgs_jadd(o, "target", json_object_new_int(ps->target[i]));
	cgs_jadd(o, "time_enabled_ns", series(ps, i, 0));
	cgs_jadd(o, "time_running_ns", series(ps, i, 1));
	for (unsigned e = 0; e < s->n; e++) {
		int err = ps->terr[(size_t)i * s->n + e];
		struct json_object *t;
		uint64_t raw = 0;
		bool scaled;
		double c;

		if (err) {
			cgs_jadd(nc, s->ev[e].name, json_object_new_string(
				s->ev[e].err && s->ev[e].reason ? s->ev[e].reason
								: strerror(-err)));
			continue;
		}
		cgs_jadd(counts, s->ev[e].name, series(ps, i, 2 + e));
		for (unsigned t2 = 0; t2 < ps->nread; t2++)
			if (measured(ps, t2))
				raw += delta(ps, i, t2, 2 + e);
		c = pmu_scale(raw, en, run, &scaled);
		t = json_object_new_object();
		cgs_jadd(t, "count", cgs_jnum(c));
		cgs_jadd(t, "raw", json_object_new_uint64(raw));
		cgs_jadd(t, "scaled", json_object_new_boolean(scaled));
		cgs_jadd(tot, s->ev[e].name, t);
	}
	cgs_jadd(o, "counts", counts);
	cgs_jadd(o, "not_counted", nc);
	cgs_jadd(o, "measured_time_enabled_ns", json_object_new_uint64(en));
	cgs_jadd(o, "measured_time_running_ns", json_object_new_uint64(run));
	cgs_jadd(o, "totals", tot);
	return o;
}

/* Measured ops of task @i. */
static double task_ops(const struct pmu_section *ps, unsigned i)
{
	double ops = 0;

	for (unsigned s = 0; s < ps->nread; s++)
		if (measured(ps, s))
			ops += (double)res_ops(ps->p, i, s);
	return ops;
}

/* One event over the tasks that counted it, in the measured window. */
struct ev_total {
	double count, ops, en, run;
	unsigned tasks;
	bool scaled;
};

static void ev_total(const struct pmu_section *ps, unsigned e,
		     struct ev_total *t)
{
	const struct pmu_set *s = ps->set;

	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < ps->ntasks; i++) {
		uint64_t raw = 0, en = 0, run = 0;
		bool sc;

		if (ps->terr[(size_t)i * s->n + e])
			continue;
		for (unsigned k = 0; k < ps->nread; k++)
			if (measured(ps, k)) {
				raw += delta(ps, i, k, 2 + e);
				en += delta(ps, i, k, 0);
				run += delta(ps, i, k, 1);
			}
		t->count += pmu_scale(raw, en, run, &sc);
		t->scaled |= sc;
		t->ops += task_ops(ps, i);
		t->en += (double)en;
		t->run += (double)run;
		t->tasks++;
	}
	if (!t->tasks)
		t->count = NAN;
}

/* Totals over the tasks that counted each event, and the metrics. */
static void totals_json(const struct pmu_section *ps, struct json_object *sec,
			double elapsed)
{
	const struct pmu_set *s = ps->set;
	struct json_object *tot = json_object_new_object();
	struct json_object *met = json_object_new_object();
	struct ev_total *t = calloc(s->n + 1, sizeof(*t));
	double *total = calloc(s->n + 1, sizeof(double));
	double *per_op = calloc(s->n + 1, sizeof(double));
	double m[RES_NPERF];
	int on[RES_NPERF];

	if (!t || !total || !per_op)
		goto out;
	for (unsigned e = 0; e < s->n; e++) {
		ev_total(ps, e, &t[e]);
		total[e] = t[e].count;
		per_op[e] = t[e].ops > 0 ? t[e].count / t[e].ops : NAN;
	}
	pmu_derive(s, total, per_op, elapsed, m, on);
	for (unsigned e = 0; e < s->n; e++) {
		struct json_object *o;

		if (!t[e].tasks)
			continue;
		o = json_object_new_object();
		cgs_jadd(o, "count", cgs_jnum(total[e]));
		cgs_jadd(o, "scaled", json_object_new_boolean(t[e].scaled));
		cgs_jadd(o, "running_pct", cgs_jnum(t[e].en > 0 ? 100 * t[e].run / t[e].en : NAN));
		cgs_jadd(o, "tasks", json_object_new_int((int)t[e].tasks));
		cgs_jadd(o, "ops", json_object_new_double(t[e].ops));
		cgs_jadd(o, "per_op", cgs_jnum(per_op[e]));
		cgs_jadd(o, "per_sec", cgs_jnum(elapsed > 0 ? total[e] / elapsed : NAN));
		for (int k = 0; k < RES_NPERF; k++)
			if (on[k] == (int)e && isfinite(m[k]))
				cgs_jadd(o, "metric", json_object_new_string(res_perf_metrics[k].name));
		cgs_jadd(tot, s->ev[e].name, o);
	}
	for (int k = 0; k < RES_NPERF; k++)
		if (isfinite(m[k]))
			cgs_jadd(met, res_perf_metrics[k].name, json_object_new_double(m[k]));
out:
	cgs_jadd(sec, "totals", tot);
	cgs_jadd(sec, "metrics", met);
	free(t);
	free(total);
	free(per_op);
}

struct json_object *pmu_section_json(const struct pmu_section *ps)
{
	struct json_object *sec = json_object_new_object();
	struct json_object *tasks = json_object_new_array();
	double elapsed = 0;

	if (!sec || !tasks) {
		json_object_put(sec);
		json_object_put(tasks);
		return NULL;
	}
	for (unsigned s = 1; s < ps->nread; s++)
		if (measured(ps, s))
			elapsed += (ps->p->t_ns[s] - ps->p->t_ns[s - 1]) / 1e9;
	cgs_jadd(sec, "events", events_json(ps->set));
	if (ps->set->note)
		cgs_jadd(sec, "note", json_object_new_string(ps->set->note));
	if (ps->failure)
		cgs_jadd(sec, "failure", json_object_new_string(ps->failure));
	cgs_jadd(sec, "enabled_at_sample", json_object_new_int((int)ps->enabled_at));
	cgs_jadd(sec, "elapsed_s", json_object_new_double(elapsed));
	for (unsigned i = 0; i < ps->ntasks; i++)
		json_object_array_add(tasks, task_json(ps, i));
	cgs_jadd(sec, "tasks", tasks);
	totals_json(ps, sec, elapsed);
	return sec;
}
