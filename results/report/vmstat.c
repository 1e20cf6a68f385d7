/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmstat.c - a point's "vmstat" section (results/SCHEMA.md) as the
 * evidence table of an LKP report: the notable /proc/vmstat counters that
 * changed over the measured window (page faults, page allocations and
 * frees, NUMA hits, THP and memcg-charge counters, workingset), each with
 * its delta, rate per second and per op; the count of the other keys
 * that changed. A section of another shape falls back to the generic
 * tables.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "results/report/document.h"
#include "results/report/sections.h"
#include "lib/macros.h"

/* Is /proc/vmstat key @k one the report shows? */
bool rpt_vmstat_notable(const char *k)
{
	static const char *const exact[] = { "pgfault", "pgmajfault", "pgfree",
					     "numa_hit", "numa_miss", "numa_local",
					     "pgactivate", "pgdeactivate" };
	static const char *const prefix[] = { "pgalloc_", "thp_", "workingset_",
					      "pgscan", "pgsteal" };

	for (size_t i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(k, exact[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(prefix); i++)
		if (!strncmp(k, prefix[i], strlen(prefix[i])))
			return true;
	return strstr(k, "memcg") || strstr(k, "charge");
}

static double num_at(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	if (o && json_object_object_get_ex(o, k, &v) && v &&
	    (json_object_is_type(v, json_type_double) ||
	     json_object_is_type(v, json_type_int)))
		return json_object_get_double(v);
	return NAN;
}

void rpt_vmstat_section(FILE *out, struct json_object *vm, const char *caption)
{
	static const char *const head[] = { "counter", "delta", "per second", "per op" };
	struct json_object *d = rpt_json_path(vm, "delta");
	struct json_object *ps = rpt_json_path(vm, "per_sec");
	struct json_object *po = rpt_json_path(vm, "per_op");
	unsigned shown = 0, other = 0;

	if (!d || !json_object_is_type(d, json_type_object)) {
		rpt_json_tables(out, vm, caption);
		return;
	}
	rpt_table_head(out, head, 4);
	json_object_object_foreach(d, k, v) {
		char name[160];

		(void)v;
		if (!rpt_vmstat_notable(k)) {
			other++;
			continue;
		}
		snprintf(name, sizeof(name), "proc-vmstat.%s", k);
		fprintf(out, "<tr>");
		rpt_td(out, name);
		rpt_td_num(out, num_at(d, k), 0);
		rpt_td_num(out, num_at(ps, k), 1);
		rpt_td_num(out, num_at(po, k), 4);
		fprintf(out, "</tr>\n");
		shown++;
	}
	fprintf(out, "</table>\n<p>");
	rpt_html_printf(out, "%u notable counters changed over the measured window "
			"(%.3g s, system-wide); %u other keys changed too (see the result file).",
			shown, num_at(vm, "elapsed_s"), other);
	fprintf(out, "</p>\n");
}
