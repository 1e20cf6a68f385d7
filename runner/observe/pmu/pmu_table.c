/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pmu_table.c - the perf counter lines under a point's row of the table,
 * in perf stat's style: the total over the measured window (all tasks),
 * the per-op figure, and the derived metric of that event's line, or
 * "<not supported>" with the kernel's reason. Read from the points'
 * "perf" sections, so the lines are the same for a re-read result file;
 * with several runs, the mean of the ok runs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "runner/cgroups/cgrun.h"
#include "runner/observe/pmu/pmu.h"
#include "runner/observe/observer.h"

/* @v with thousands separators and @dec decimals, as perf stat prints. */
static void grouped(double v, int dec, char *buf, size_t len)
{
	char raw[64], *dot;
	size_t n, lead, o = 0;

	snprintf(raw, sizeof(raw), "%.*f", dec, v);
	dot = strchr(raw, '.');
	n = dot ? (size_t)(dot - raw) : strlen(raw);
	lead = raw[0] == '-';
	for (size_t i = 0; raw[i] && o + 2 < len; i++) {
		buf[o++] = raw[i];
		if (i >= lead && i + 1 < n && (n - i - 1) % 3 == 0)
			buf[o++] = ',';
	}
	buf[o] = 0;
}

/* Software clocks count nanoseconds: shown in msec, as perf stat does. */
static bool is_clock(struct json_object *ev)
{
	return cgs_jget_num(ev, "type") == PERF_TYPE_SOFTWARE &&
	       (cgs_jget_num(ev, "config") == PERF_COUNT_SW_TASK_CLOCK ||
		cgs_jget_num(ev, "config") == PERF_COUNT_SW_CPU_CLOCK);
}

/* The mean over @pts of one event's totals. Returns how many counted it. */
static unsigned mean_of(struct json_object *const *perf, unsigned n,
			const char *name, double *count, double *per_op,
			double *metric, const char **mname, double *running,
			bool *scaled, unsigned *tasks)
{
	unsigned k = 0;

	*count = *per_op = *metric = *running = 0;
	*scaled = false;
	*mname = NULL;
	for (unsigned i = 0; i < n; i++) {
		struct json_object *t = cgs_jget(cgs_jget(perf[i], "totals"), name);
		struct json_object *mn = cgs_jget(t, "metric");

		if (!t || !isfinite(cgs_jget_num(t, "count")))
			continue;
		*count += cgs_jget_num(t, "count");
		*per_op += cgs_jget_num(t, "per_op");
		*running += cgs_jget_num(t, "running_pct");
		*scaled |= cgs_jget(t, "scaled") && json_object_get_boolean(cgs_jget(t, "scaled"));
		*tasks = (unsigned)cgs_jget_num(t, "tasks");
		if (mn) {
			*mname = json_object_get_string(mn);
			*metric += cgs_jget_num(cgs_jget(perf[i], "metrics"), *mname);
		}
		k++;
	}
	if (k) {
		*count /= k;
		*per_op /= k;
		*metric /= k;
		*running /= k;
	}
	return k;
}

/* Why no task counted @name: a task's reason or the section's failure. */
static const char *why_not(struct json_object *perf, const char *name)
{
	struct json_object *tasks = cgs_jget(perf, "tasks");
	struct json_object *t0 = tasks ? json_object_array_get_idx(tasks, 0) : NULL;
	struct json_object *r = cgs_jget(cgs_jget(t0, "not_counted"), name);

	if (r)
		return json_object_get_string(r);
	r = cgs_jget(perf, "failure");
	return r ? json_object_get_string(r) : "the counters never ran";
}

static void print_event(struct json_object *const *perf, unsigned n,
			unsigned ntasks, struct json_object *ev, FILE *out)
{
	const char *name = json_object_get_string(cgs_jget(ev, "name"));
	struct json_object *sup = cgs_jget(ev, "supported");
	double count, per_op, metric, running;
	const struct res_perf_metric *pm;
	const char *mname;
	char cnt[48], pop[32], note[160] = "";
	unsigned tasks = 0;
	bool scaled, clock = is_clock(ev);

	if (sup && !json_object_get_boolean(sup)) {
		fprintf(out, "  %26s %-4s %-26s %s\n", "<not supported>", "", name,
			json_object_get_string(cgs_jget(ev, "reason")));
		return;
	}
	if (!mean_of(perf, n, name, &count, &per_op, &metric, &mname, &running,
		     &scaled, &tasks)) {
		fprintf(out, "  %26s %-4s %-26s %s\n", "<not counted>", "", name,
			why_not(perf[0], name));
		return;
	}
	grouped(clock ? count / 1e6 : count, clock ? 2 : 0, cnt, sizeof(cnt));
	if (isfinite(per_op))
		snprintf(pop, sizeof(pop), "%10.4g %s", per_op, clock ? "ns/op" : "/op");
	else
		snprintf(pop, sizeof(pop), "%10s %s", "-", clock ? "ns/op" : "/op");
	if (mname && (pm = res_perf_find(mname)) && pm->label)
		snprintf(note, sizeof(note), pm->label, metric);
	if (scaled)
		snprintf(note + strlen(note), sizeof(note) - strlen(note),
			 "%s(scaled: counting %.1f%% of the time)", *note ? "  " : "",
			 running);
	if (tasks < ntasks)
		snprintf(note + strlen(note), sizeof(note) - strlen(note),
			 "%s(in %u of %u tasks)", *note ? "  " : "", tasks, ntasks);
	fprintf(out, "  %26s %-4s %-26s %-16s %s\n", cnt, clock ? "msec" : "",
		name, pop, note);
}

void pmu_print_rows(const struct res_file *f, const char *test,
		    const char *mode, unsigned tasks, const char *layout,
		    FILE *out)
{
	struct json_object *perf[64], *events, *note;
	unsigned n = 0;

	n = cgs_obs_sections(f, "perf", test, mode, tasks, layout, perf, 64);
	if (!n || !(events = cgs_jget(perf[0], "events")))
		return;
	if ((note = cgs_jget(perf[0], "note")))
		fprintf(out, "  perf: %s\n", json_object_get_string(note));
	for (size_t e = 0; e < json_object_array_length(events); e++)
		print_event(perf, n, tasks, json_object_array_get_idx(events, e), out);
}
