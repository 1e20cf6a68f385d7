/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disturbed.c - the runs the runner marked disturbed
 * (results/model/disturb.h) as the report shows them: how many runs of a
 * group are, for the summary's notes (worded as `cgscale run` prints
 * them), and a run's "disturbed" section: its reasons, or that it ran
 * like its siblings.
 */
#include <stdio.h>

#include <json-c/json.h>

#include "results/model/disturb.h"
#include "results/report/document.h"
#include "results/report/sections.h"

unsigned rpt_disturbed_runs(const struct rpt_group *g, char *why, size_t len)
{
	unsigned n = 0;

	if (len)
		why[0] = 0;
	for (unsigned r = 0; r < g->nrun; r++)
		if (res_disturbed(g->run[r].p, n ? NULL : why, n ? 0 : len) > 0)
			n++;
	return n;
}

void rpt_disturbed_section(FILE *out, struct json_object *v, const char *caption)
{
	size_t n;

	if (!v || !json_object_is_type(v, json_type_array)) {
		rpt_json_tables(out, v, caption);
		return;
	}
	n = json_object_array_length(v);
	if (!n) {
		fprintf(out, "<p>");
		rpt_html_printf(out, "%s: not disturbed; its conditions were those of "
				"its sibling runs (results/COMPARE.md, \"Disturbed runs\", "
				"says what is checked).", caption);
		fprintf(out, "</p>\n");
		return;
	}
	fprintf(out, "<p class=\"warn\">");
	rpt_html_printf(out, "%s: disturbed, so compare leaves this run out "
			"(--keep-disturbed uses it):", caption);
	fprintf(out, "</p>\n<ul>\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<li>");
		rpt_html_puts(out, json_object_get_string(json_object_array_get_idx(v, i)));
		fprintf(out, "</li>\n");
	}
	fprintf(out, "</ul>\n");
}
