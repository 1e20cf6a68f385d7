/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lkp_names.c - cgscale's figures under their LKP stat names
 * (results/compare/lkp_names.h): the one place that says which key a
 * metric, a memory.stat field or a profile share has in LKP.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/model.h"
#include "results/compare/lkp_names.h"

void cmp_lkp_key(const char *name, const char *mode, bool both, char *buf,
		 size_t len)
{
	bool thread = !strcmp(mode, "thread");

	if (!strcmp(name, "per_task_ops"))
		snprintf(buf, len, "%s", thread ? "per_thread_ops" : "per_process_ops");
	else if (!strcmp(name, "scalability"))   /* will-it-scale's is process mode's */
		snprintf(buf, len, "%s", thread && both ? "thread.scalability" : "scalability");
	else if (!both)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s.%s", thread ? "thread" : "process", name);
}

void cmp_lkp_profile_key(const char *kind, const char *event, const char *sym,
			 char *buf, size_t len)
{
	int n = snprintf(buf, len, "perf-profile.%s.", kind);

	/* a result file is input: a key stays one word of LKP's names */
	for (; *event && n >= 0 && (size_t)n + 1 < len; event++)
		buf[n++] = *event == ':' ? '-' : isalnum((unsigned char)*event) ||
			   *event == '-' || *event == '_' ? *event : '_';
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ".%s", sym);
}

const char *cmp_lkp_profile_event(struct json_object *prof)
{
	struct json_object *e;

	if (prof && json_object_object_get_ex(prof, "event", &e) &&
	    json_object_is_type(e, json_type_string) && *json_object_get_string(e))
		return json_object_get_string(e);
	return "cpu-clock";
}

bool cmp_lkp_both_modes(const struct cmp_result *r, const struct cmp_group *g)
{
	for (unsigned i = 0; i < r->ngroups; i++)
		if (!strcmp(r->groups[i].test, g->test) && strcmp(r->groups[i].mode, g->mode))
			return true;
	return false;
}
