/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * point.c - the section of one (test, mode, tasks) in the report:
 * what the runs were (placement, timing, failures, disturbed runs), a bar per task of its
 * measured ops/s (an unfair split shows at a glance; above RPT_TASK_BARS
 * tasks their distribution, results/report/dist.c), total ops/s over
 * time per interval with the warm-up shaded (drift and disturbances
 * show), the tables behind both, the aux counters, and the sections other
 * modules added to the points (results/report/sections.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "results/model/disturb.h"
#include "results/report/document.h"
#include "results/report/sections.h"
#include "lib/macros.h"
#include "results/report/flame.h"

/* Its only user is here: results/report/run.c calls this file, never back. */
void rpt_run_label(const struct rpt_set *s, const struct rpt_run *r,
		   char *buf, size_t len)
{
	if (s->nin > 1)
		snprintf(buf, len, "file %u run %u", r->file + 1, r->p->run + 1);
	else
		snprintf(buf, len, "run %u", r->p->run + 1);
}

/* The first @max ok runs of @g. */
static unsigned ok_runs(const struct rpt_group *g, const struct rpt_run **v,
			unsigned max)
{
	unsigned n = 0;

	for (unsigned r = 0; r < g->nrun && n < max; r++)
		if (rpt_ok(g->run[r].p))
			v[n++] = &g->run[r];
	return n;
}

static void facts(struct rpt_doc *d, const struct rpt_set *s,
		  const struct rpt_group *g)
{
	const struct res_point *p = g->run[0].p;
	double lag = 0, fair = 0;
	unsigned migrated = 0, nfair = 0;
	bool over = false;
	FILE *o = d->out;

	for (unsigned r = 0; r < g->nrun; r++) {
		const struct res_point *q = g->run[r].p;

		lag = fmax(lag, q->sampler_lag_ms);
		over |= q->oversubscribed;
		for (unsigned i = 0; i < q->ntasks; i++)
			migrated += q->task[i].migrated;
		if (rpt_ok(q) && q->sum.max_task_ops_per_sec > 0) {
			fair += q->sum.min_task_ops_per_sec / q->sum.max_task_ops_per_sec;
			nfair++;
		}
	}
	fprintf(o, "<p class=\"facts\">");
	rpt_html_printf(o, "%u of %u runs ok; placement %s (%u places%s); warm-up "
			"%g s, measured %g s, sampled every %g s; latest sample %.1f ms "
			"late", g->nok, g->nrun, p->placement ? p->placement : "?",
			p->places, over ? ", OVERSUBSCRIBED" : "", p->warmup_s,
			p->duration_s, p->interval_s, lag);
	if (g->tasks > 1 && nfair)
		rpt_html_printf(o, "; slowest / fastest task: %.2f", fair / nfair);
	if (migrated)
		rpt_html_printf(o, "; %u tasks migrated between their first and "
				"last CPU", migrated);
	fprintf(o, ".</p>\n");
	for (unsigned r = 0; r < g->nrun; r++) {
		char label[64], why[1024];

		rpt_run_label(s, &g->run[r], label, sizeof(label));
		if (rpt_ok(g->run[r].p)) {
			if (res_disturbed(g->run[r].p, why, sizeof(why)) <= 0)
				continue;
			fprintf(o, "<p class=\"warn\">");
			rpt_html_printf(o, "%s disturbed (compare leaves it out): %s",
					label, why);
			fprintf(o, "</p>\n");
			continue;
		}
		fprintf(o, "<p class=\"warn\">");
		rpt_html_printf(o, "%s %s: %s", label, res_status_names[g->run[r].p->status],
				g->run[r].p->reason ? g->run[r].p->reason :
				"no reason recorded");
		fprintf(o, "</p>\n");
	}
}

static void task_table(struct rpt_doc *d, const struct rpt_set *s,
		       const struct rpt_run *const *v, unsigned n)
{
	FILE *o;
	static const char *const head[] = {
		"run", "task", "cpuset", "CPU at start", "CPU at end",
		"ops/s (measured)", "share of total %", "ops (whole loop)",
		"minor faults", "major faults", "status", "error",
	};

	rpt_figure_table(d);
	o = d->out;
	rpt_table_head(o, head, ARRAY_SIZE(head));
	for (unsigned r = 0; r < n; r++) {
		const struct res_point *p = v[r]->p;
		char label[64];

		rpt_run_label(s, v[r], label, sizeof(label));
		for (unsigned i = 0; i < p->ntasks; i++) {
			const struct res_task *t = &p->task[i];
			double rate = rpt_task_rate(p, i);

			fprintf(o, "<tr>");
			rpt_td(o, label);
			fprintf(o, "<td class=\"n\">%d</td>", t->index);
			rpt_td(o, t->cpuset ? t->cpuset : "unbound");
			fprintf(o, "<td class=\"n\">%d</td><td class=\"n\">%d%s</td>",
				t->cpu_start, t->cpu_end, t->migrated ? " (migrated)" : "");
			rpt_td_num(o, rate, 0);
			rpt_td_num(o, 100 * rate / p->sum.total_ops_per_sec, 1);
			fprintf(o, "<td class=\"n\">%llu</td><td class=\"n\">%lld</td>"
				   "<td class=\"n\">%lld</td>", (unsigned long long)t->ops,
				(long long)t->minflt, (long long)t->majflt);
			rpt_td(o, res_status_names[t->status]);
			rpt_td(o, t->error ? t->error : "");
			fprintf(o, "</tr>\n");
		}
	}
	fprintf(o, "</table>\n");
}

static void task_chart(struct rpt_doc *d, const struct rpt_set *s,
		       const struct rpt_group *g)
{
	const struct rpt_run *v[RPT_MAX_SERIES - 1];
	unsigned n = ok_runs(g, v, RPT_MAX_SERIES - 1), ntasks = 0;
	double sum = 0, w = 0.8 / (n ? n : 1);
	struct rpt_series *mean;
	struct rpt_chart *c;
	char title[512];
	unsigned cnt = 0;

	if (g->tasks > RPT_TASK_BARS) {
		char label[RPT_MAX_SERIES][64];

		for (unsigned r = 0; r < n; r++)
			rpt_run_label(s, v[r], label[r], sizeof(label[r]));
		rpt_task_dist(d, g, v, (const char (*)[64])label, n);
		return;
	}
	snprintf(title, sizeof(title), "%s, %s, %u task%s: ops/s of each task",
		 g->test, g->mode, g->tasks, g->tasks == 1 ? "" : "s");
	c = rpt_figure(d, title, 600, 340);
	if (!c)
		return;
	snprintf(c->x.label, sizeof(c->x.label), "task");
	snprintf(c->y.label, sizeof(c->y.label), "ops/s of one task (measured)");
	c->bar_width = w;
	for (unsigned r = 0; r < n; r++) {
		const struct res_point *p = v[r]->p;
		char label[64];
		struct rpt_series *b;

		rpt_run_label(s, v[r], label, sizeof(label));
		b = rpt_chart_series(c, n == 1 ? "ops/s" : label, RPT_BARS, r);
		if (!b)
			break;
		b->xoff = (r - (n - 1) / 2.0) * w;
		for (unsigned i = 0; i < p->ntasks; i++) {
			double rate = rpt_task_rate(p, i);

			rpt_series_add(b, i, rate, NAN, NAN);
			if (isfinite(rate)) {
				sum += rate;
				cnt++;
			}
		}
		if (p->ntasks > ntasks)
			ntasks = p->ntasks;
	}
	mean = rpt_chart_series(c, "mean of the tasks", RPT_REFERENCE, 6);
	if (mean && cnt) {
		rpt_series_add(mean, -0.45, sum / cnt, NAN, NAN);
		rpt_series_add(mean, ntasks - 0.55, sum / cnt, NAN, NAN);
	}
	rpt_chart_fit(c, RPT_AX_INT | RPT_AX_PAD, RPT_AX_ZERO);
	if (n < g->nok)
		fprintf(d->out, "<p class=\"note\">The first %u of %u runs are drawn.</p>\n",
			n, g->nok);
	task_table(d, s, v, n);
	rpt_figure_end(d);
}

static void time_table(struct rpt_doc *d, const struct rpt_set *s,
		       const struct rpt_run *const *v, unsigned n)
{
	FILE *o;
	static const char *const head[] = {
		"run", "sample", "time (s)", "phase", "interval (ms)", "total ops/s",
		"slowest task ops/s", "fastest task ops/s", "idle %", "steal %",
	};

	rpt_figure_table(d);
	o = d->out;
	rpt_table_head(o, head, ARRAY_SIZE(head));
	for (unsigned r = 0; r < n; r++) {
		const struct res_point *p = v[r]->p;
		char label[64];

		rpt_run_label(s, v[r], label, sizeof(label));
		for (unsigned k = 1; k < p->nsamples; k++) {
			double dt = (p->t_ns[k] - p->t_ns[k - 1]) / 1e9, tot = 0;
			double lo = INFINITY, hi = -INFINITY;

			for (unsigned i = 0; i < p->ntasks; i++) {
				double ops = (double)res_ops(p, i, k);

				tot += ops;
				lo = fmin(lo, ops);
				hi = fmax(hi, ops);
			}
			fprintf(o, "<tr>");
			rpt_td(o, label);
			fprintf(o, "<td class=\"n\">%u</td>", k);
			rpt_td_num(o, p->t_ns[k] / 1e9, 3);
			rpt_td(o, res_phase_names[p->phase[k]]);
			rpt_td_num(o, dt * 1e3, 1);
			rpt_td_num(o, dt > 0 ? tot / dt : NAN, 0);
			rpt_td_num(o, dt > 0 && p->ntasks ? lo / dt : NAN, 0);
			rpt_td_num(o, dt > 0 && p->ntasks ? hi / dt : NAN, 0);
			rpt_td_num(o, p->idle_pct[k], 1);
			rpt_td_num(o, p->steal_pct[k], 1);
			fprintf(o, "</tr>\n");
		}
	}
	fprintf(o, "</table>\n");
}

static void time_chart(struct rpt_doc *d, const struct rpt_set *s,
		       const struct rpt_group *g)
{
	const struct rpt_run *v[RPT_MAX_SERIES];
	unsigned n = ok_runs(g, v, RPT_MAX_SERIES);
	struct rpt_chart *c;
	double warm = 0;
	char title[512];

	snprintf(title, sizeof(title), "%s, %s, %u task%s: total ops/s over time",
		 g->test, g->mode, g->tasks, g->tasks == 1 ? "" : "s");
	c = rpt_figure(d, title, 600, 340);
	if (!c)
		return;
	snprintf(c->x.label, sizeof(c->x.label), "time since the start gate opened (s)");
	snprintf(c->y.label, sizeof(c->y.label), "total ops/s in each interval");
	for (unsigned r = 0; r < n; r++) {
		const struct res_point *p = v[r]->p;
		struct rpt_series *line;
		char label[64];

		rpt_run_label(s, v[r], label, sizeof(label));
		line = rpt_chart_series(c, n == 1 ? "total ops/s" : label, RPT_LINES, r);
		for (unsigned k = 1; line && k < p->nsamples; k++) {
			double t0 = p->t_ns[k - 1] / 1e9, t1 = p->t_ns[k] / 1e9, tot = 0;

			if (p->phase[k] == RES_PHASE_WARMUP)
				warm = fmax(warm, t1);
			if (!(t1 > t0))
				continue;
			for (unsigned i = 0; i < p->ntasks; i++)
				tot += (double)res_ops(p, i, k);
			rpt_series_add(line, t0, tot / (t1 - t0), NAN, NAN);
			rpt_series_add(line, t1, tot / (t1 - t0), NAN, NAN);
		}
	}
	if (warm > 0)
		rpt_chart_band(c, false, 0, warm, "warm-up");
	rpt_chart_fit(c, RPT_AX_ZERO | RPT_AX_TIGHT, RPT_AX_ZERO);   /* ends at the last sample */
	if (n < g->nok)
		fprintf(d->out, "<p class=\"note\">The first %u of %u runs are drawn.</p>\n",
			n, g->nok);
	time_table(d, s, v, n);
	rpt_figure_end(d);
}

static void aux_table(FILE *o, const struct rpt_group *g)
{
	const struct res_point *p0 = NULL;

	for (unsigned r = 0; r < g->nrun && !p0; r++)
		if (rpt_ok(g->run[r].p) && g->run[r].p->naux)
			p0 = g->run[r].p;
	if (!p0)
		return;
	fprintf(o, "<table>\n<caption>Auxiliary counters, mean of the ok runs</caption>\n<tr>");
	rpt_th(o, "counter");
	rpt_th(o, "unit");
	rpt_th(o, "all tasks");
	rpt_th(o, "per task");
	fprintf(o, "</tr>\n");
	for (unsigned k = 0; k < p0->naux; k++) {
		double sum = 0, per = 0;
		unsigned n = 0;

		for (unsigned r = 0; r < g->nrun; r++) {
			const struct res_point *p = g->run[r].p;

			if (!rpt_ok(p) || p->naux <= k)
				continue;
			sum += p->sum.aux_rate[k];
			per += p->sum.aux_task_rate[k];
			n++;
		}
		fprintf(o, "<tr>");
		rpt_td(o, p0->aux_name[k]);
		rpt_td(o, p0->aux_unit[k]);
		rpt_td_num(o, n ? sum / n : NAN, 3);
		rpt_td_num(o, n ? per / n : NAN, 3);
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</table>\n");
}

/* The sections other modules put in the points (results/report/sections.c). */
static void extras(struct rpt_doc *d, const struct rpt_set *s,
		   const struct rpt_group *g)
{
	int first = -1;   /* the first run with sections: unfolded */

	for (unsigned r = 0; r < g->nrun; r++) {
		const struct res_point *p = g->run[r].p;
		char label[64];

		if (!p->extra || !json_object_is_type(p->extra, json_type_object))
			continue;
		rpt_run_label(s, &g->run[r], label, sizeof(label));
		if (first < 0 && json_object_object_length(p->extra))
			first = (int)r;
		rpt_sections_write(d->out, p->extra, label, (int)r == first,
				   rpt_sections, rpt_nsections, s->in[g->run[r].file].res.sections);
	}
}

void rpt_group_section(struct rpt_doc *d, const struct rpt_set *s,
		       const struct rpt_group *g)
{
	fprintf(d->out, "<h3 id=\"%s\">", g->id);
	rpt_html_printf(d->out, "%s, %s, %u task%s", g->test, g->mode, g->tasks,
			g->tasks == 1 ? "" : "s");
	fprintf(d->out, "</h3>\n");
	facts(d, s, g);
	if (!g->nok)
		return;
	fprintf(d->out, "<div class=\"figs\">\n");
	task_chart(d, s, g);
	time_chart(d, s, g);
	fprintf(d->out, "</div>\n");
	rpt_flame_group(d, g);
	aux_table(d->out, g);
	extras(d, s, g);
}
