/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_lines.c - the journal of a run in progress (see results/model/result.h and
 * SCHEMA.md, "The journal"): the header line and the point lines it is
 * made of, and the reader that turns a dead run's journal into a normal
 * result marked incomplete. A torn or garbled line is dropped and counted,
 * never a reason to lose the lines around it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/linelog.h"
#include "results/model/result.h"

#define JOURNAL_KEY "cgscale_journal"

static char *line_of(struct json_object *o)
{
	char *s = NULL;

	if (!o || asprintf(&s, "%s\n", json_object_to_json_string_ext(o,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		s = NULL;
	json_object_put(o);
	return s;
}

char *res_journal_header(const struct res_file *f)
{
	struct res_file h = *f;
	struct json_object *o;

	h.npoints = 0;
	h.points = NULL;
	o = res_to_json(&h);
	if (o)
		json_object_object_add(o, JOURNAL_KEY, json_object_new_int(1));
	return line_of(o);
}

char *res_journal_point(const struct res_point *p)
{
	return line_of(res_point_to_json(p));
}

struct jr {
	struct json_object *root, *points;
	struct res_journal_info *info;
	char *err;
	size_t errlen;
};

static struct json_object *parse_line(const char *line, size_t len)
{
	struct json_tokener *tok = json_tokener_new_ex(RES_MAX_DEPTH);
	struct json_object *o;

	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (o && (json_tokener_get_error(tok) != json_tokener_success ||
		  json_tokener_get_parse_end(tok) != len)) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

static int one_line(const char *line, size_t len, unsigned lineno, void *arg)
{
	struct jr *j = arg;
	struct json_object *o = len < (1u << 30) ? parse_line(line, len) : NULL;
	struct json_object *mark;

	if (lineno == 1) {
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, JOURNAL_KEY, &mark) ||
		    !json_object_object_get_ex(o, "points", &j->points) ||
		    !json_object_is_type(j->points, json_type_array)) {
			json_object_put(o);
			snprintf(j->err, j->errlen, "not a cgscale journal (its first line is no journal header)");
			return -EINVAL;
		}
		json_object_object_del(o, JOURNAL_KEY);
		j->root = o;
		return 0;
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		if (!j->info->dropped++)
			j->info->first_dropped = lineno;
		return 0;
	}
	j->info->points++;
	return json_object_array_add(j->points, o) ? -ENOMEM : 0;
}

int res_journal_read(const char *name, const char *buf, size_t len,
		     struct res_file *f, struct res_journal_info *info,
		     char *err, size_t errlen)
{
	struct jr j = { .info = info, .err = err, .errlen = errlen };
	struct json_object *intr;
	char inner[400];
	int rc;

	memset(f, 0, sizeof(*f));
	memset(info, 0, sizeof(*info));
	rc = cgs_linelog_lines(buf, len, &info->torn, one_line, &j);
	if (!rc && !j.root) {
		snprintf(err, errlen, "not a cgscale journal (no complete header line)");
		rc = -EINVAL;
	}
	if (rc) {
		snprintf(inner, sizeof(inner), "%s", err);
		snprintf(err, errlen, "%s: %s", name, inner);
		goto out;
	}
	json_object_object_add(j.root, "complete", json_object_new_boolean(0));
	if (!json_object_object_get_ex(j.root, "interrupted", &intr) ||
	    !json_object_is_type(intr, json_type_string))
		json_object_object_add(j.root, "interrupted", json_object_new_string(
			"the run stopped before its end; its points were recovered from its journal"));
	rc = res_from_json(j.root, f, inner, sizeof(inner));
	if (rc) {
		snprintf(err, errlen, "%s: %s", name, inner);
		res_file_free(f);
	}
out:
	json_object_put(j.root);
	return rc;
}
