/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sections.c - an observer's declared section (sections.h) to JSON and,
 * from a result file, back, checked: what a file declares becomes a
 * column of compare's text, an LKP key and a row of the report, so only
 * plain names and paths inside the section pass.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "results/model/sections.h"

static const char *const classes[] = { "primary", "secondary", "tail-latency" };

struct json_object *res_section_decl_json(const struct res_section_decl *d)
{
	struct json_object *o = json_object_new_object(), *ms = json_object_new_array(),
			   *vs = json_object_new_array();

	if (!o || !ms || !vs) {
		json_object_put(o);
		json_object_put(ms);
		json_object_put(vs);
		return NULL;
	}
	cgs_jadd(o, "title", json_object_new_string(d->title));
	for (size_t i = 0; i < d->nmetrics; i++) {
		const struct res_metric_decl *m = &d->metrics[i];
		struct json_object *e = json_object_new_object();

		cgs_jadd(e, "name", json_object_new_string(m->name));
		cgs_jadd(e, "unit", json_object_new_string(m->unit));
		cgs_jadd(e, "desc", json_object_new_string(m->desc));
		cgs_jadd(e, "better", json_object_new_string(m->dir > 0 ? "higher" : "lower"));
		cgs_jadd(e, "class", json_object_new_string(m->cls));
		cgs_jadd(e, "path", json_object_new_string(m->path));
		json_object_array_add(ms, e);
	}
	for (size_t i = 0; i < d->nview; i++) {
		struct json_object *e = json_object_new_object();

		cgs_jadd(e, "label", json_object_new_string(d->view[i].label));
		cgs_jadd(e, "path", json_object_new_string(d->view[i].path));
		cgs_jadd(e, "unit", json_object_new_string(d->view[i].unit));
		json_object_array_add(vs, e);
	}
	cgs_jadd(o, "metrics", ms);
	cgs_jadd(o, "view", vs);
	return o;
}

/* Every character of @s is in @set (or printable, @set NULL), and @s is
 * 1..@max bytes long. */
static bool plain(const char *s, const char *set, size_t max)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n > max)
		return false;
	for (; *s; s++)
		if (set ? !strchr(set, *s) : (*s < 0x20 || *s == 0x7f))
			return false;
	return true;
}

#define NAME_SET "abcdefghijklmnopqrstuvwxyz0123456789_.-"

/* The string member @k of @o, checked by plain(); NULL with @why set. */
static const char *member(struct json_object *o, const char *k, const char *set,
			  size_t max, char *why, size_t len)
{
	const char *s = cgs_jpath_str(o, k);

	if (!plain(s, set, max)) {
		snprintf(why, len, "%s: %s", k, s ? "too long, or a character it may not have" :
			 "missing, or not a string");
		return NULL;
	}
	return s;
}

/* @path lies in section @key: "KEY." and more. */
static bool in_section(const char *path, const char *key)
{
	size_t n = strlen(key);

	return !strncmp(path, key, n) && path[n] == '.' && path[n + 1];
}

int res_metric_decl_parse(struct json_object *m, const char *key,
			  struct res_metric_decl *out, char *why, size_t len)
{
	const char *better;

	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(m, json_type_object))
		return snprintf(why, len, "a metric that is not an object"), -EINVAL;
	if (!(out->name = member(m, "name", NAME_SET, RES_DECL_NAME_MAX, why, len)) ||
	    !(out->unit = member(m, "unit", NULL, RES_DECL_UNIT_MAX, why, len)) ||
	    !(out->desc = member(m, "desc", NULL, RES_DECL_DESC_MAX, why, len)) ||
	    !(better = member(m, "better", NULL, 8, why, len)) ||
	    !(out->cls = member(m, "class", NULL, 16, why, len)) ||
	    !(out->path = member(m, "path", NAME_SET "|", RES_DECL_PATH_MAX, why, len)))
		return -EINVAL;
	if (out->name[0] < 'a' || out->name[0] > 'z')
		return snprintf(why, len, "name %s: not a letter first", out->name), -EINVAL;
	if (strcmp(better, "higher") && strcmp(better, "lower"))
		return snprintf(why, len, "better: %s, not higher or lower", better), -EINVAL;
	out->dir = strcmp(better, "higher") ? -1 : 1;
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(out->cls, classes[i]))
			return in_section(out->path, key) ? 0 :
			       (snprintf(why, len, "path %s: outside section %s", out->path, key), -EINVAL);
	return snprintf(why, len, "class %s: not primary, secondary or tail-latency", out->cls), -EINVAL;
}

int res_view_decl_parse(struct json_object *v, const char *key,
			struct res_view_decl *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(v, json_type_object))
		return snprintf(why, len, "a view row that is not an object"), -EINVAL;
	if (!(out->label = member(v, "label", NULL, RES_DECL_DESC_MAX, why, len)) ||
	    !(out->unit = member(v, "unit", NULL, RES_DECL_UNIT_MAX, why, len)) ||
	    !(out->path = member(v, "path", NAME_SET, RES_DECL_PATH_MAX, why, len)))
		return -EINVAL;
	if (!in_section(out->path, key))
		return snprintf(why, len, "path %s: outside section %s", out->path, key), -EINVAL;
	return 0;
}
