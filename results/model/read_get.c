/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read_get.c - the typed, checked field getters of the result reader
 * (results/model/read.c): each names the field and what is wrong in one line.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/model/read.h"

int rd_fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	n = snprintf(r->err, r->errlen, "%s%s", r->where, *r->where ? ": " : "");
	if (n < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

struct json_object *rd_field(struct json_object *o, const char *k,
				 json_type type, bool required, struct rd *r,
				 int *rc)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v) || !v) {
		if (required)
			*rc = rd_fail(r, "'%s' is missing", k);
		return NULL;
	}
	if (json_object_get_type(v) != type &&
	    !(type == json_type_double && json_object_is_type(v, json_type_int))) {
		*rc = rd_fail(r, "'%s' should be %s, not %s", k,
			      json_type_to_name(type),
			      json_type_to_name(json_object_get_type(v)));
		return NULL;
	}
	return v;
}

char *rd_str(struct json_object *o, const char *k, bool required,
		     struct rd *r, int *rc)
{
	struct json_object *v = rd_field(o, k, json_type_string, required, r, rc);
	char *s;

	if (!v)
		return NULL;
	s = strdup(json_object_get_string(v));
	if (!s)
		*rc = -ENOMEM;
	return s;
}

/* json-c keeps numbers beyond INT64_MAX as uint64: no count of ours is. */
static bool beyond_int64(struct json_object *v)
{
	return json_object_get_int64(v) == INT64_MAX &&
	       json_object_get_uint64(v) > (uint64_t)INT64_MAX;
}

int64_t rd_int(struct json_object *o, const char *k, bool required,
		       struct rd *r, int *rc)
{
	struct json_object *v = rd_field(o, k, json_type_int, required, r, rc);

	if (v && beyond_int64(v)) {
		*rc = rd_fail(r, "'%s' is beyond 2^63, not a value cgscale writes", k);
		return 0;
	}
	return v ? json_object_get_int64(v) : 0;
}

/* A whole number in [min, max], or *rc set with the key and the range. */
int64_t rd_range(struct json_object *o, const char *k, bool required,
			 int64_t min, int64_t max, struct rd *r, int *rc)
{
	int64_t v = rd_int(o, k, required, r, rc);

	if (!*rc && (v < min || v > max)) {
		*rc = rd_fail(r, "'%s' is %lld, outside %lld..%lld", k, (long long)v,
			      (long long)min, (long long)max);
		return min;
	}
	return v;
}

uint64_t rd_u64(struct json_object *v, struct rd *r, int *rc,
			const char *what)
{
	if (!json_object_is_type(v, json_type_int)) {
		*rc = rd_fail(r, "%s should be a whole number", what);
		return 0;
	}
	if (json_object_get_int64(v) < 0 || beyond_int64(v)) {
		*rc = rd_fail(r, "%s is %s, not a count", what,
			      json_object_get_int64(v) < 0 ? "negative" : "beyond 2^63");
		return 0;
	}
	return json_object_get_uint64(v);
}

double rd_num(struct json_object *o, const char *k, struct rd *r,
		      int *rc)
{
	struct json_object *v = rd_field(o, k, json_type_double, false, r, rc);

	return v ? json_object_get_double(v) : NAN;
}

bool rd_bool(struct json_object *o, const char *k, struct rd *r,
		     int *rc)
{
	struct json_object *v = rd_field(o, k, json_type_boolean, false, r, rc);

	return v ? json_object_get_boolean(v) : false;
}

struct json_object *rd_keep(struct json_object *o, const char *k,
				json_type type, struct rd *r, int *rc)
{
	struct json_object *v = rd_field(o, k, type, false, r, rc);

	return v ? json_object_get(v) : NULL;
}

enum res_status rd_status(struct json_object *o, struct rd *r, int *rc)
{
	struct json_object *v = rd_field(o, "status", json_type_string, true, r, rc);
	int st;

	if (!v)
		return RES_NONE;
	st = res_status_parse(json_object_get_string(v));
	if (st < 0) {
		*rc = rd_fail(r, "'status' is '%s', not one of ok, failed, skipped, "
			      "stopped or interrupted", json_object_get_string(v));
		return RES_NONE;
	}
	return (enum res_status)st;
}
