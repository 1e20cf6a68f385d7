/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * declared.c - a point's section drawn as the view its observer declared
 * in the result file (results/model/sections.h): a table of the declared
 * rows (label, the number at the row's path, unit), then the section
 * whole. The rows are input: each is checked before it is drawn, and
 * every string is escaped.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "results/model/sections.h"
#include "results/report/document.h"
#include "results/report/sections.h"

/* The declared section @key of @decls when it has a non-empty view. */
static struct json_object *view_of(struct json_object *decls, const char *key)
{
	struct json_object *sec = NULL, *view = NULL;

	if (!decls || !json_object_object_get_ex(decls, key, &sec) ||
	    !json_object_object_get_ex(sec, "view", &view) ||
	    !json_object_is_type(view, json_type_array) || !json_object_array_length(view))
		return NULL;
	return sec;
}

const char *rpt_declared_title(struct json_object *decls, const char *key)
{
	struct json_object *sec = view_of(decls, key);
	const char *t = sec ? cgs_jpath_str(sec, "title") : NULL;

	return sec ? (t && *t ? t : key) : NULL;
}

void rpt_declared_view(FILE *out, struct json_object *extra, const char *key,
		       struct json_object *decls, const char *caption)
{
	static const char *const head[] = { "", "value", "unit" };
	struct json_object *sec = view_of(decls, key), *view, *v;

	if (!sec || !json_object_object_get_ex(sec, "view", &view))
		return;
	fprintf(out, "<table>\n");
	rpt_table_head(out, head, 3);
	for (size_t i = 0; i < json_object_array_length(view); i++) {
		struct res_view_decl row;
		char why[160];

		if (res_view_decl_parse(json_object_array_get_idx(view, i), key, &row,
					why, sizeof(why)))
			continue;
		fprintf(out, "<tr>");
		rpt_td(out, row.label);
		rpt_td_num(out, cgs_jpath_num(extra, row.path), 3);
		rpt_td(out, row.unit);
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n");
	if (json_object_object_get_ex(extra, key, &v))
		rpt_json_tables(out, v, caption);
}
