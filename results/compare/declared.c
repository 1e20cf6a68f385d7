/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * declared.c - the compare metrics that a result file's observers
 * declare (its top-level "sections", results/model/sections.h): checked,
 * copied into the metric set after every built-in row, and read like any
 * other metric by their path in a point's extra. So an observer that
 * declares its metrics beside its hooks is judged by compare with no row
 * here, in files of a newer cgscale too.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/esc.h"
#include "results/compare/model.h"

/* Whether compare has a metric @name already (a row of @base, aux, a
 * family's or declared by an earlier file). */
static bool known(const struct cmp_mset *ms, const struct cmp_metric *base, size_t nbase,
		  const char *name)
{
	if (cmp_base_has(base, nbase, name) || !strncmp(name, "aux.", 4))
		return true;
	for (unsigned k = 0; k < ms->ndecl; k++)
		if (!strcmp(ms->decl[k].name, name))
			return true;
	return false;
}

static void refuse(struct cmp_mset *ms, const char *key, const char *why)
{
	char esc[160];

	if (!ms->ndecl_refused++)
		snprintf(ms->decl_why, sizeof(ms->decl_why), "section %s: %s",
			 cgs_esc(key, esc, sizeof(esc)), why);
}

static void take(struct cmp_mset *ms, const struct cmp_metric *base, size_t nbase,
		 const char *key, struct json_object *m)
{
	struct res_metric_decl d;
	struct cmp_decl *c;
	char why[160];

	if (res_metric_decl_parse(m, key, &d, why, sizeof(why)))
		return refuse(ms, key, why);
	if (known(ms, base, nbase, d.name))
		return;
	if (ms->ndecl == CMP_MAX_DECL)
		return refuse(ms, key, "more declared metrics than compare holds");
	c = &ms->decl[ms->ndecl++];
	snprintf(c->name, sizeof(c->name), "%s", d.name);
	snprintf(c->unit, sizeof(c->unit), "%s", d.unit);
	snprintf(c->desc, sizeof(c->desc), "%s", d.desc);
	snprintf(c->path, sizeof(c->path), "%s", d.path);
	c->dir = d.dir;
	/* the names res_metric_decl_parse takes */
	c->cls = !strcmp(d.cls, "primary") ? CMP_PRIMARY :
		 !strcmp(d.cls, "tail-latency") ? CMP_TAIL : CMP_SECONDARY;
}

void cmp_decl_add_file(struct cmp_mset *ms, const struct res_file *f,
		       const struct cmp_metric *base, size_t nbase)
{
	if (!f->sections)
		return;
	json_object_object_foreach(f->sections, key, sec) {
		struct json_object *ms_arr = NULL;

		if (!json_object_is_type(sec, json_type_object) ||
		    (json_object_object_get_ex(sec, "metrics", &ms_arr) &&
		     !json_object_is_type(ms_arr, json_type_array))) {
			refuse(ms, key, "not an object with an array of metrics");
			continue;
		}
		for (size_t i = 0; ms_arr && i < json_object_array_length(ms_arr); i++)
			take(ms, base, nbase, key, json_object_array_get_idx(ms_arr, i));
	}
}

void cmp_decl_expand(struct cmp_mset *ms, size_t *n)
{
	for (unsigned k = 0; k < ms->ndecl && *n < CMP_MAX_METRICS; k++) {
		const struct cmp_decl *c = &ms->decl[k];

		ms->m[(*n)++] = (struct cmp_metric){
			.name = c->name, .unit = c->unit, .desc = c->desc, .dir = c->dir,
			.cls = c->cls, .extra_path = c->path,
		};
	}
}
