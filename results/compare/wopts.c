/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wopts.c - a point's workload options as one canonical string,
 * the part of compare's grouping key (and of the workload.options field)
 * that says how the workload was set up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/model.h"

/* Workload options as "k=v,k=v", keys sorted, so that key order in the
 * file never splits a group. */
char *cmp_canon_wopts(struct json_object *o)
{
	const char *keys[64];
	char *out = strdup("");
	unsigned n = 0;

	if (!out || !json_object_is_type(o, json_type_object))
		return out;
	json_object_object_foreach(o, k, v) {
		(void)v;
		if (n < 64)
			keys[n++] = k;
	}
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			if (strcmp(keys[j], keys[i]) < 0) {
				const char *t = keys[i];

				keys[i] = keys[j];
				keys[j] = t;
			}
	for (unsigned i = 0; out && i < n; i++) {
		struct json_object *v = json_object_object_get(o, keys[i]);
		const char *s = json_object_is_type(v, json_type_string) ?
			json_object_get_string(v) :
			json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
		char *next;

		if (asprintf(&next, "%s%s%s=%s", out, i ? "," : "", keys[i], s) < 0)
			next = NULL;
		free(out);
		out = next;
	}
	return out;
}
