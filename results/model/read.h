/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read.h - the result reader's field getters (results/model/read_get.c). Each takes
 * the object, the key, and the reader's place @r; on a missing required
 * field or a wrong type it sets *rc to -EINVAL with a message in r->err
 * and returns an empty value (NULL, 0, NAN, false).
 */
#ifndef CGS_RES_RD_H
#define CGS_RES_RD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "results/model/result.h"

/* Where we are in the document, for messages. */
struct rd {
	char *err;
	size_t errlen;
	char where[96];
};

/* Format "<where>: <message>" into r->err; returns -EINVAL. */
int rd_fail(struct rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* @k of @type (an int counts as a double), borrowed; NULL if absent. */
struct json_object *rd_field(struct json_object *o, const char *k,
			     json_type type, bool required, struct rd *r,
			     int *rc);
char *rd_str(struct json_object *o, const char *k, bool required,
	     struct rd *r, int *rc);           /* a copy to free */
int64_t rd_int(struct json_object *o, const char *k, bool required,
	       struct rd *r, int *rc);
/* A whole number in [@min, @max], or *rc set naming the key and range. */
int64_t rd_range(struct json_object *o, const char *k, bool required,
		 int64_t min, int64_t max, struct rd *r, int *rc);
/* @v itself as an unsigned whole number; @what names it in the message. */
uint64_t rd_u64(struct json_object *v, struct rd *r, int *rc,
		const char *what);
double rd_num(struct json_object *o, const char *k, struct rd *r, int *rc);
bool rd_bool(struct json_object *o, const char *k, struct rd *r, int *rc);
/* @k with a reference taken, for the model to keep; NULL if absent. */
struct json_object *rd_keep(struct json_object *o, const char *k,
			    json_type type, struct rd *r, int *rc);

/* The required "status" of @o, one of res_status_names. */
enum res_status rd_status(struct json_object *o, struct rd *r, int *rc);

#endif
