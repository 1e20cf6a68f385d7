/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - the json-c helpers every layer uses: a number that is null
 * when not finite, a string that is null when NULL, and adding a key.
 */
#ifndef CGS_JSON_H
#define CGS_JSON_H

#include <math.h>

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

#endif
