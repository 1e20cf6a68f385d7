/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sections.c - the sections a point's "extra" may hold, as the report
 * draws them: one row per section key (its caption's title and the
 * function that writes it), and the loop that writes a point's sections
 * in the order the result file has them, each in its own <details>
 * (the first run's unfolded, but never a row marked folded: the harness's
 * own cost and the disturbance check are internals, shown on demand).
 * A key with no row is shown by its name as generic tables
 * (rpt_json_tables), or as the view its observer declared in the file
 * (declared.c). A section with a drawing of its own is one function in
 * its own file here and one row below.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "results/report/flame.h"
#include "results/report/document.h"
#include "results/report/sections.h"
#include "lib/macros.h"

const struct rpt_section rpt_sections[] = {
	{ .key = "perf", .title = "perf counters", .write = rpt_perf_section },
	{ .key = "cgroup", .title = "cgroup", .write = rpt_cgroup_section },
	{ .key = "profile", .title = "profile", .write = rpt_profile_section },
	{ .key = "vmstat", .title = "vmstat", .write = rpt_vmstat_section },
	{ .key = "disturbed", .title = "disturbance check",
	  .write = rpt_disturbed_section, .folded = true },
	{ .key = "harness", .title = "harness internals (cgscale's own cost)",
	  .write = rpt_json_tables, .folded = true },
};
const size_t rpt_nsections = ARRAY_SIZE(rpt_sections);

/* A key without a row: titled by the key, drawn as generic tables. */
static const struct rpt_section rpt_section_default = {
	.key = NULL, .title = NULL, .write = rpt_json_tables,
};

const struct rpt_section *rpt_section_find(const struct rpt_section *tab,
					   size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tab[i].key, key))
			return &tab[i];
	return &rpt_section_default;
}

void rpt_sections_write(FILE *out, struct json_object *extra, const char *label,
			bool open, const struct rpt_section *tab, size_t n,
			struct json_object *decls)
{
	char cap[256];

	if (!extra || !json_object_is_type(extra, json_type_object))
		return;
	json_object_object_foreach(extra, k, v) {
		const struct rpt_section *row = rpt_section_find(tab, n, k);
		/* no row here: the view its observer declared, if any */
		const char *dt = row->key ? NULL : rpt_declared_title(decls, k);

		snprintf(cap, sizeof(cap), "%s, %s", dt ? dt : row->title ? row->title : k, label);
		fprintf(out, "<details%s><summary>", open && !row->folded ?
			" open=\"open\"" : "");
		rpt_html_puts(out, cap);
		fprintf(out, "</summary>\n");
		if (dt)
			rpt_declared_view(out, extra, k, decls, cap);
		else
			row->write(out, v, cap);
		fprintf(out, "</details>\n");
	}
}
