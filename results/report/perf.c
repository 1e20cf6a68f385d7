/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.c - a point's perf counters (its "perf" section, see
 * results/SCHEMA.md) as the summary a kernel developer reads: one row per
 * event of -e with its count, count per op (instructions per op is LKP's
 * path-length), per second, time running and scaling, or why it did not
 * count; then the derived metrics and any note or failure. Every field is
 * optional here: whatever is missing shows as "-", and a section of
 * another shape falls back to the generic tables.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "results/model/perf_metric.h"
#include "results/report/document.h"
#include "results/report/sections.h"
#include "lib/json.h"
#include "lib/macros.h"

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v = cgs_jget(o, k);

	return v && json_object_is_type(v, json_type_string) ?
		json_object_get_string(v) : NULL;
}

/* A count: whole numbers as they are, small ratios with 3 significant
 * figures more. */
static void td_count(FILE *out, double v)
{
	if (!isfinite(v))
		fprintf(out, "<td class=\"n\">-</td>");
	else if (fabs(v) >= 100 || v == floor(v))
		fprintf(out, "<td class=\"n\">%.0f</td>", v);
	else
		fprintf(out, "<td class=\"n\">%.4g</td>", v);
}

static void event_row(FILE *out, const char *name, struct json_object *ev,
		      struct json_object *tot)
{
	struct json_object *sup = cgs_jget(ev, "supported");
	const char *reason = str(ev, "reason");
	bool counted = tot != NULL;
	struct json_object *sc = cgs_jget(tot, "scaled");

	fprintf(out, "<tr>");
	rpt_td(out, name);
	rpt_td(out, str(ev, "counting") ? str(ev, "counting") : "");
	if (!counted) {
		fprintf(out, "<td colspan=\"6\">not counted: ");
		rpt_html_puts(out, reason ? reason : sup && !json_object_get_boolean(sup) ?
			      "not supported here" : "no task counted it");
		fprintf(out, "</td>");
	} else {
		td_count(out, cgs_jget_num(tot, "count"));
		td_count(out, cgs_jget_num(tot, "per_op"));
		td_count(out, cgs_jget_num(tot, "per_sec"));
		rpt_td_num(out, cgs_jget_num(tot, "running_pct"), 1);
		rpt_td(out, sc ? (json_object_get_boolean(sc) ? "yes" : "no") : "-");
		td_count(out, cgs_jget_num(tot, "tasks"));
	}
	fprintf(out, "</tr>\n");
}

static void metrics(FILE *out, struct json_object *m)
{
	if (!m || !json_object_is_type(m, json_type_object) ||
	    !json_object_object_length(m))
		return;
	fprintf(out, "<table>\n<caption>Derived metrics</caption>\n");
	json_object_object_foreach(m, k, v) {
		const struct res_perf_metric *pm = res_perf_find(k);
		const char *what = pm ? pm->what : k;
		char buf[64];

		rpt_json_text(v, buf, sizeof(buf));
		fprintf(out, "<tr><th class=\"mono\">");
		rpt_html_puts(out, k);
		fprintf(out, "</th><td class=\"n\">");
		rpt_html_puts(out, buf);
		fprintf(out, "</td>");
		rpt_td(out, what);
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n");
}

void rpt_perf_section(FILE *out, struct json_object *perf, const char *caption)
{
	static const char *const head[] = {
		"event", "counting", "count", "per op", "per second", "running %",
		"scaled", "tasks",
	};
	struct json_object *events = cgs_jget(perf, "events"), *totals = cgs_jget(perf, "totals");
	const char *note = str(perf, "note"), *failure = str(perf, "failure");

	if (!perf || !json_object_is_type(perf, json_type_object) ||
	    (!totals && !events)) {
		rpt_json_tables(out, perf, caption);
		return;
	}
	if (note) {
		fprintf(out, "<p class=\"info\">");
		rpt_html_puts(out, note);
		fprintf(out, "</p>\n");
	}
	if (failure) {
		fprintf(out, "<p class=\"warn\">");
		rpt_html_puts(out, failure);
		fprintf(out, "</p>\n");
	}
	fprintf(out, "<table>\n<caption>");
	rpt_html_puts(out, caption);
	rpt_html_printf(out, ": the measured %.3g s, all tasks", cgs_jget_num(perf, "elapsed_s"));
	fprintf(out, "</caption>\n<tr>");
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		rpt_th(out, head[i]);
	fprintf(out, "</tr>\n");
	if (events && json_object_is_type(events, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(events); i++) {
			struct json_object *ev = json_object_array_get_idx(events, i);
			const char *name = str(ev, "name");

			if (name)
				event_row(out, name, ev, cgs_jget(totals, name));
		}
	} else if (json_object_is_type(totals, json_type_object)) {
		json_object_object_foreach(totals, k, v)
			event_row(out, k, NULL, v);
	}
	fprintf(out, "</table>\n");
	metrics(out, cgs_jget(perf, "metrics"));
	fprintf(out, "<p class=\"note\">Per task and per interval counts are in the "
		     "result file (<code>perf.tasks</code>).</p>\n");
}
