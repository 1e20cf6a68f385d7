/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup.c - a point's cgroup section (results/SCHEMA.md, "cgroup")
 * as a reader wants it: the layout, a warning when the point was
 * throttled or OOM-killed or its tree not removed, the tree per
 * hierarchy, the knobs and what was read back, the memory events and
 * peaks (in MiB, the bytes in the tooltip), and memory.stat before, after and the change over the measured
 * window (folded: it is long). Every field is optional; a section of
 * another shape falls back to the generic tables.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "results/report/document.h"
#include "results/report/sections.h"
#include "lib/json.h"
#include "lib/macros.h"

static size_t len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ?
		json_object_array_length(a) : 0;
}

static void td_json(FILE *out, struct json_object *v)
{
	char buf[512];

	rpt_json_text(v, buf, sizeof(buf));
	rpt_td(out, buf);
}

/* A byte count for people, the exact count in its tooltip; another
 * value as it is. */
static void td_bytes(FILE *out, struct json_object *v)
{
	if (v && (json_object_is_type(v, json_type_int) ||
		  json_object_is_type(v, json_type_double)))
		rpt_td_bytes(out, json_object_get_double(v));
	else
		td_json(out, v);
}

static void warnings(FILE *out, struct json_object *cg)
{
	struct json_object *flags = cgs_jget(cg, "flags"), *removed = cgs_jget(cg, "removed");
	const char *err = json_object_get_string(cgs_jget(cg, "error"));

	if (len(flags)) {
		fprintf(out, "<p class=\"warn\">This point was throttled or OOM-killed: "
			     "do not average it in.");
		for (size_t i = 0; i < len(flags); i++) {
			fprintf(out, "<br/>");
			rpt_html_puts(out, json_object_get_string(
				json_object_array_get_idx(flags, i)));
		}
		fprintf(out, "</p>\n");
	}
	if (err) {
		fprintf(out, "<p class=\"warn\">The cgroup tree could not be made: ");
		rpt_html_puts(out, err);
		fprintf(out, "</p>\n");
	}
	if (removed && !json_object_get_boolean(removed)) {
		fprintf(out, "<p class=\"warn\">The tree was not removed (");
		rpt_html_puts(out, json_object_get_string(cgs_jget(cg, "cleanup_error")));
		fprintf(out, "): run <code>cgscale cgroup cleanup</code>.</p>\n");
	}
}

/* One row per level of each hierarchy: its cgroups, the first few named. */
static void tree(FILE *out, struct json_object *cg)
{
	struct json_object *h = cgs_jget(cg, "hierarchies");

	if (!len(h))
		return;
	fprintf(out, "<table>\n<caption>The tree</caption>\n<tr><th>hierarchy</th>"
		     "<th>level</th><th>cgroups</th></tr>\n");
	for (size_t i = 0; i < len(h); i++) {
		struct json_object *e = json_object_array_get_idx(h, i);
		struct json_object *levels = cgs_jget(e, "levels");
		char name[256];

		snprintf(name, sizeof(name), "v%s %s (%s)",
			 json_object_get_string(cgs_jget(e, "version")),
			 json_object_get_string(cgs_jget(e, "mount")),
			 json_object_get_string(cgs_jget(e, "controllers")));
		fprintf(out, "<tr><td>");
		rpt_html_puts(out, name);
		fprintf(out, "</td><td class=\"n\">parent</td>");
		td_json(out, cgs_jget(e, "parent"));
		fprintf(out, "</tr>\n");
		for (size_t l = 0; l < len(levels); l++) {
			struct json_object *paths = json_object_array_get_idx(levels, l);

			fprintf(out, "<tr><td></td><td class=\"n\">%zu</td><td class=\"mono\">",
				l + 1);
			for (size_t p = 0; p < len(paths) && p < 3; p++) {
				fprintf(out, "%s", p ? "<br/>" : "");
				rpt_html_puts(out, json_object_get_string(
					json_object_array_get_idx(paths, p)));
			}
			if (len(paths) > 3)
				fprintf(out, "<br/>(%zu cgroups in all)", len(paths));
			fprintf(out, "</td></tr>\n");
		}
	}
	fprintf(out, "</table>\n");
}

static void knobs(FILE *out, struct json_object *cg)
{
	struct json_object *k = cgs_jget(cg, "knobs");

	if (!len(k))
		return;
	fprintf(out, "<table>\n<caption>Knobs</caption>\n<tr><th>level</th><th>knob</th>"
		     "<th>value</th><th>read back</th></tr>\n");
	for (size_t i = 0; i < len(k); i++) {
		struct json_object *e = json_object_array_get_idx(k, i);

		fprintf(out, "<tr>");
		td_json(out, cgs_jget(e, "level"));
		td_json(out, cgs_jget(e, "knob"));
		td_json(out, cgs_jget(e, "value"));
		td_json(out, cgs_jget(e, "read_back"));
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n");
}

/* A memory event object as "failcnt 0, oom_kill 0". */
static void td_pairs(FILE *out, struct json_object *o)
{
	char buf[512];
	size_t n = 0;

	buf[0] = 0;
	if (o && json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v) {
			char one[128];

			rpt_json_text(v, one, sizeof(one));
			n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0,
					      "%s%s %s", n ? ", " : "", k, one);
		}
	}
	rpt_td(out, buf);
}

static void events(FILE *out, struct json_object *cg)
{
	struct json_object *ev = cgs_jget(cg, "events");

	if (!len(ev))
		return;
	fprintf(out, "<table>\n<caption>Memory events and peaks</caption>\n<tr>"
		     "<th>cgroup</th><th>level</th><th>after</th><th>change since the "
		     "gate</th><th>peak memory</th></tr>\n");
	for (size_t i = 0; i < len(ev) && i < 64; i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		fprintf(out, "<tr><td class=\"mono\">");
		rpt_html_puts(out, json_object_get_string(cgs_jget(e, "path")));
		fprintf(out, "</td>");
		td_json(out, cgs_jget(e, "level"));
		td_pairs(out, cgs_jget(e, "after"));
		td_pairs(out, cgs_jget(e, "delta"));
		td_bytes(out, cgs_jget(e, "peak_bytes"));
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n");
}

static void memory_stat(FILE *out, struct json_object *cg)
{
	static const char *const cols[] = { "before", "after", "delta",
					    "delta_since_gate" };
	struct json_object *ms = cgs_jget(cg, "memory_stat"), *keys = cgs_jget(ms, "after");

	if (!keys || !json_object_is_type(keys, json_type_object))
		return;
	fprintf(out, "<details><summary>memory.stat, summed over %s lea%s</summary>\n"
		     "<table>\n<tr><th>key</th>",
		json_object_get_string(cgs_jget(ms, "leaves")),
		json_object_get_int(cgs_jget(ms, "leaves")) == 1 ? "f" : "ves");
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
		rpt_th(out, cols[c]);
	fprintf(out, "</tr>\n");
	json_object_object_foreach(keys, k, v) {
		(void)v;
		fprintf(out, "<tr><th class=\"mono\">");
		rpt_html_puts(out, k);
		fprintf(out, "</th>");
		for (size_t c = 0; c < ARRAY_SIZE(cols); c++) {
			struct json_object *x = cgs_jget(cgs_jget(ms, cols[c]), k);

			if (x && (json_object_is_type(x, json_type_int) ||
				  json_object_is_type(x, json_type_double)))
				fprintf(out, "<td class=\"n\">%s</td>",
					json_object_to_json_string(x));
			else
				td_json(out, x);
		}
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n</details>\n");
}

void rpt_cgroup_section(FILE *out, struct json_object *cg, const char *caption)
{
	const char *layout = json_object_get_string(cgs_jget(cg, "layout"));

	if (!cg || !json_object_is_type(cg, json_type_object) || !layout) {
		rpt_json_tables(out, cg, caption);
		return;
	}
	fprintf(out, "<p>");
	rpt_html_printf(out, "%s: layout ", caption);
	fprintf(out, "<code>");
	rpt_html_puts(out, layout);
	fprintf(out, "</code>");
	for (size_t i = 0; i < len(cgs_jget(cg, "versions")); i++)
		rpt_html_printf(out, "%s v%s", i ? "," : ", cgroup",
				json_object_get_string(json_object_array_get_idx(
					cgs_jget(cg, "versions"), i)));
	fprintf(out, ".</p>\n");
	warnings(out, cg);
	if (cgs_jget(cg, "tasks_ran_in"))
		rpt_json_tables(out, cgs_jget(cg, "tasks_ran_in"), "the tasks ran in");
	tree(out, cg);
	knobs(out, cg);
	events(out, cg);
	if (cgs_jget(cg, "per_leaf"))
		rpt_json_tables(out, cgs_jget(cg, "per_leaf"), "per leaf, change over the window");
	memory_stat(out, cg);
}
