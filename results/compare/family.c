/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family.c - metric families: a row of the metric table named
 * "PREFIX.NAME" whose path leads to an object of numbers (the tasks' wait
 * per op by lock, {"__schedule": 11.0, ...}) stands for one metric per key
 * its inputs hold, "PREFIX.KEY", each read from that key (its path
 * "PATH/KEY": after a '/' the rest is one key, dots and all), in the order
 * first seen, CMP_MAX_FAMILY in one comparison at most. The row itself
 * reads no number (its path is an object), so it is never compared.
 */
#include <string.h>

#include <json-c/json.h>

#include "results/compare/model.h"

size_t cmp_family_prefix(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".NAME") ? n - 4 : 0;
}

bool cmp_base_has(const struct cmp_metric *base, size_t n, const char *name)
{
	for (size_t b = 0; b < n; b++) {
		size_t pre = base[b].name ? cmp_family_prefix(base[b].name) : 0;

		if (base[b].name && (!strcmp(base[b].name, name) ||
				     (pre && !strncmp(base[b].name, name, pre))))
			return true;
	}
	return false;
}

/* The object at row @m's path in @p's extra, or NULL. */
static struct json_object *family_obj(const struct cmp_metric *m,
				      const struct res_point *p)
{
	struct json_object *o = p->extra;
	char part[128];

	for (const char *s = m->extra_path; o && s && *s;) {
		size_t n = strcspn(s, ".|");

		snprintf(part, sizeof(part), "%.*s", (int)n, s);
		if (!json_object_object_get_ex(o, part, &o))
			return NULL;
		if (s[n] == '|')
			break;      /* "|0": absent keys read 0 (cmp_metric_value) */
		s += n + (s[n] == '.');
	}
	return o && json_object_is_type(o, json_type_object) ? o : NULL;
}

void cmp_family_add_point(struct cmp_mset *ms, const struct res_point *p,
			  const struct cmp_metric *base, size_t nbase)
{
	for (size_t b = 0; b < nbase; b++) {
		const struct cmp_metric *m = &base[b];
		struct json_object *o;
		size_t pre;

		if (!m->name || !m->extra_path || !(pre = cmp_family_prefix(m->name)) ||
		    !(o = family_obj(m, p)))
			continue;
		json_object_object_foreach(o, key, val) {
			unsigned k;

			(void)val;
			for (k = 0; k < ms->nfam &&
				    (ms->fam_base[k] != b || strcmp(ms->fam_name[k] + pre, key)); k++)
				;
			if (k < ms->nfam || ms->nfam == CMP_MAX_FAMILY ||
			    strlen(key) + pre >= sizeof(ms->fam_name[k]) ||
			    strlen(key) + strlen(m->extra_path) + 1 >= sizeof(ms->fam_path[k]))
				continue;
			ms->fam_base[k] = (unsigned)b;
			snprintf(ms->fam_name[k], sizeof(ms->fam_name[k]), "%.*s%s",
				 (int)pre, m->name, key);
			snprintf(ms->fam_path[k], sizeof(ms->fam_path[k]), "%.*s/%s%s",
				 (int)strcspn(m->extra_path, "|"), m->extra_path, key,
				 strchr(m->extra_path, '|') ? "|0" : "");
			ms->nfam++;
		}
	}
}

void cmp_family_expand(struct cmp_mset *ms, const struct cmp_metric *base, size_t b,
		       size_t *n)
{
	for (unsigned k = 0; k < ms->nfam; k++) {
		struct cmp_metric *mt;

		if (ms->fam_base[k] != b)
			continue;
		mt = &ms->m[(*n)++];
		*mt = base[b];
		mt->name = ms->fam_name[k];
		mt->extra_path = ms->fam_path[k];
	}
}
