/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - tables of JSON sections whose shape the report does not
 * know (cgroup layouts, sections of future modules, a perf section of an
 * unexpected shape): scalar members flattened into "key.subkey | value"
 * rows, objects or arrays of row objects as grids of their own; byte
 * counts (keys ending in _bytes) in KiB, MiB, GiB. Bounded
 * in depth, rows and columns; everything escaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/report/document.h"

static bool scalar(struct json_object *v)
{
	return !v || (!json_object_is_type(v, json_type_object) &&
		      !json_object_is_type(v, json_type_array));
}

void rpt_json_text(struct json_object *v, char *buf, size_t len)
{
	if (!v) {
		snprintf(buf, len, "-");
		return;
	}
	switch (json_object_get_type(v)) {
	case json_type_string:
		snprintf(buf, len, "%s", json_object_get_string(v));
		break;
	case json_type_double:
		snprintf(buf, len, "%.6g", json_object_get_double(v));
		break;
	case json_type_int:
		snprintf(buf, len, "%s", json_object_to_json_string(v));
		break;
	case json_type_boolean:
		snprintf(buf, len, "%s", json_object_get_boolean(v) ? "yes" : "no");
		break;
	case json_type_object:
		snprintf(buf, len, "{%d keys}", json_object_object_length(v));
		break;
	case json_type_array:
		snprintf(buf, len, "[%zu items]", json_object_array_length(v));
		break;
	default:
		snprintf(buf, len, "-");
		break;
	}
}

struct json_object *rpt_json_path(struct json_object *o, const char *path)
{
	char part[128];

	while (o && path && *path) {
		size_t n = strcspn(path, ".");

		if (!json_object_is_type(o, json_type_object) || n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = 0;
		if (!json_object_object_get_ex(o, part, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

static bool numeric(struct json_object *v)
{
	return v && (json_object_is_type(v, json_type_int) ||
		     json_object_is_type(v, json_type_double));
}

/* A value; a number under a key that ends in "_bytes" (peak_bytes,
 * file_bytes) for people, the exact count in its tooltip. */
static void cell(FILE *out, const char *key, struct json_object *v)
{
	size_t kl = strlen(key);
	char buf[1024];

	if (numeric(v) && kl >= 6 && !strcmp(key + kl - 6, "_bytes")) {
		rpt_td_bytes(out, json_object_get_double(v));
		return;
	}

	rpt_json_text(v, buf, sizeof(buf));
	fprintf(out, numeric(v) ? "<td class=\"n\">" : "<td>");
	rpt_html_puts(out, buf);
	fprintf(out, "</td>");
}

#define MAX_GRIDS 16
#define MAX_ROWS 64
#define MAX_COLS 24

struct grid_ref {
	char path[256];
	struct json_object *v;
};

/* Rows are objects (of an object or an array) with scalar members. */
static bool grid_like(struct json_object *v)
{
	bool any = false;

	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			struct json_object *e = json_object_array_get_idx(v, i);

			if (!e || !json_object_is_type(e, json_type_object))
				return false;
			any = true;
		}
		return any;
	}
	json_object_object_foreach(v, k, e) {
		(void)k;
		if (!e || !json_object_is_type(e, json_type_object))
			return false;
		any = true;
	}
	return any;
}

static void kv_rows(FILE *out, struct json_object *o, const char *prefix,
		    int depth, struct grid_ref *g, unsigned *ng)
{
	json_object_object_foreach(o, k, v) {
		char path[256], buf[1024];

		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", k);
		if (!scalar(v) && grid_like(v) && *ng < MAX_GRIDS) {
			snprintf(g[*ng].path, sizeof(g[0].path), "%s", path);
			g[(*ng)++].v = v;
			continue;
		}
		if (json_object_is_type(v, json_type_object) && depth < 4) {
			kv_rows(out, v, path, depth + 1, g, ng);
			continue;
		}
		fprintf(out, "<tr><th class=\"mono\">");
		rpt_html_puts(out, path);
		fprintf(out, "</th>");
		if (json_object_is_type(v, json_type_array) &&
		    json_object_array_length(v) <= 32) {
			size_t n = json_object_array_length(v), o2 = 0;

			buf[0] = 0;
			for (size_t i = 0; i < n && o2 < sizeof(buf) - 1; i++) {
				char one[256];

				rpt_json_text(json_object_array_get_idx(v, i), one,
					      sizeof(one));
				o2 += (size_t)snprintf(buf + o2, sizeof(buf) - o2, "%s%s",
						       i ? ", " : "", one);
			}
			fprintf(out, "<td>");
			rpt_html_puts(out, buf);
			fprintf(out, "</td>");
		} else {
			cell(out, k, v);
		}
		fprintf(out, "</tr>\n");
	}
}

/* The row objects of a grid, in order, with their names. */
static struct json_object *grid_row(struct json_object *v, size_t i,
				    char *name, size_t len)
{
	size_t k = 0;

	if (json_object_is_type(v, json_type_array)) {
		snprintf(name, len, "%zu", i);
		return json_object_array_get_idx(v, i);
	}
	json_object_object_foreach(v, key, e) {
		if (k++ == i) {
			snprintf(name, len, "%s", key);
			return e;
		}
	}
	return NULL;
}

static void grid(FILE *out, const struct grid_ref *g)
{
	size_t nrows = json_object_is_type(g->v, json_type_array) ?
		json_object_array_length(g->v) : (size_t)json_object_object_length(g->v);
	const char *col[MAX_COLS];
	unsigned ncol = 0;
	bool nested = false;
	char name[256];

	for (size_t i = 0; i < nrows && i < MAX_ROWS; i++) {
		struct json_object *r = grid_row(g->v, i, name, sizeof(name));

		json_object_object_foreach(r, k, v) {
			unsigned c;

			if (!scalar(v)) {
				nested = true;
				continue;
			}
			for (c = 0; c < ncol && strcmp(col[c], k); c++)
				;
			if (c == ncol && ncol < MAX_COLS)
				col[ncol++] = k;
		}
	}
	fprintf(out, "<table class=\"grid\">\n<caption class=\"mono\">");
	rpt_html_puts(out, g->path);
	fprintf(out, "</caption>\n<tr><th></th>");
	for (unsigned c = 0; c < ncol; c++) {
		fprintf(out, "<th>");
		rpt_html_puts(out, col[c]);
		fprintf(out, "</th>");
	}
	fprintf(out, "</tr>\n");
	for (size_t i = 0; i < nrows && i < MAX_ROWS; i++) {
		struct json_object *r = grid_row(g->v, i, name, sizeof(name)), *v;

		fprintf(out, "<tr><th class=\"mono\">");
		rpt_html_puts(out, name);
		fprintf(out, "</th>");
		for (unsigned c = 0; c < ncol; c++) {
			if (json_object_object_get_ex(r, col[c], &v))
				cell(out, col[c], v);
			else
				fprintf(out, "<td></td>");
		}
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n");
	if (nrows > MAX_ROWS || nested)
		rpt_html_printf(out, "(%s%s: see the result file)\n",
				nrows > MAX_ROWS ? "more rows" : "",
				nested ? (nrows > MAX_ROWS ? ", nested values" :
					  "nested values") : "");
}

void rpt_json_tables(FILE *out, struct json_object *obj, const char *caption)
{
	struct grid_ref g[MAX_GRIDS];
	unsigned ng = 0;
	char *rows = NULL;
	size_t len = 0;
	FILE *rf;

	if (!obj)
		return;
	if (scalar(obj)) {
		char buf[1024];

		rpt_json_text(obj, buf, sizeof(buf));
		fprintf(out, "<p>");
		rpt_html_puts(out, caption);
		fprintf(out, ": <span class=\"mono\">");
		rpt_html_puts(out, buf);
		fprintf(out, "</span></p>\n");
		return;
	}
	if (json_object_is_type(obj, json_type_array)) {
		if (grid_like(obj)) {
			snprintf(g[0].path, sizeof(g[0].path), "%s", caption);
			g[0].v = obj;
			grid(out, &g[0]);
		}
		return;
	}
	rf = open_memstream(&rows, &len);
	if (!rf)
		return;
	kv_rows(rf, obj, "", 0, g, &ng);
	if (fclose(rf)) {
		free(rows);
		return;
	}
	if (len) {
		fprintf(out, "<table>\n<caption>");
		rpt_html_puts(out, caption);
		fprintf(out, "</caption>\n%s</table>\n", rows);
	}
	free(rows);
	for (unsigned i = 0; i < ng; i++)
		grid(out, &g[i]);
}

