/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - the json-c helpers every layer uses: a number that is null
 * when not finite, a string that is null when NULL, adding a key, and
 * reading one: by its key, or by a dotted path. Nothing else in the tree
 * defines its own get() or num().
 */
#ifndef CGS_JSON_H
#define CGS_JSON_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

/* A double, or NULL (JSON null) when @d is NaN or infinite. */
static inline struct json_object *cgs_jnum(double d)
{
	return isfinite(d) ? json_object_new_double(d) : NULL;
}

/* A string, or NULL (JSON null) when @s is NULL. */
static inline struct json_object *cgs_jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* A new reference to @o, or NULL. */
static inline struct json_object *cgs_jref(struct json_object *o)
{
	return o ? json_object_get(o) : NULL;
}

/* Add @v under @k to @o (which takes the reference). */
static inline void cgs_jadd(struct json_object *o, const char *k,
			    struct json_object *v)
{
	json_object_object_add(o, k, v);
}

/* The value under the one key @k of the object @o (dots and all: a
 * function's name may hold them), or NULL when @o is no object or has
 * no such key. */
static inline struct json_object *cgs_jget(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	if (o && json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, k, &v);
	return v;
}

/* @v as a number, or NaN when it is none (missing, null, a string). */
static inline double cgs_jnum_of(struct json_object *v)
{
	return v && (json_object_is_type(v, json_type_double) ||
		     json_object_is_type(v, json_type_int)) ? json_object_get_double(v) : NAN;
}

/* The number under the one key @k of @o, or NaN. */
static inline double cgs_jget_num(struct json_object *o, const char *k)
{
	return cgs_jnum_of(cgs_jget(o, k));
}

/* The value at dotted @path ("a.b.c") under @o, or NULL when any part is
 * missing. Parts are at most 63 characters. */
static inline struct json_object *cgs_jpath(struct json_object *o, const char *path)
{
	char part[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		snprintf(part, sizeof(part), "%.*s", (int)n, path);
		if (!json_object_object_get_ex(o, part, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

/* The number at dotted @path under @o, or NaN when there is none. */
static inline double cgs_jpath_num(struct json_object *o, const char *path)
{
	return cgs_jnum_of(cgs_jpath(o, path));
}

/* The string at dotted @path under @o, or NULL when there is none. */
static inline const char *cgs_jpath_str(struct json_object *o, const char *path)
{
	struct json_object *v = cgs_jpath(o, path);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

#endif
