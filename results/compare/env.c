/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * env.c - diff the environments of the sides, as mmtests prints
 * an environment header: every leaf of each file's kernel, machine,
 * environment and options objects becomes a dotted field, plus derived
 * ones (environment.governor.effective, cgroup.layout, tool.*).
 *
 * field_class[] says which fields are critical: a critical field that
 * differs between sides, or within one side, makes the inputs
 * incomparable (exit 3) unless it is the axis or --allow-env-diff is
 * given. Everything else is informational: printed, never fatal. A field
 * absent from some files (an older runner) is unknown, not a difference.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "results/compare/model.h"
#include "lib/macros.h"

static const struct {
	const char *pat;
	bool critical;
} field_class[] = {
	{ "kernel.release", true },
	{ "kernel.version", true },
	{ "kernel.machine", true },
	{ "kernel.cmdline", true },
	{ "kernel.config", true },         /* hash, source, options */        /* BOOT_IMAGE= and initrd= dropped */
	{ "kernel.thp", true },
	{ "kernel.numa_balancing", true },
	{ "machine.cpu_model", true },
	{ "machine.online_cpus", true },
	{ "machine.topology.this_system", false },
	{ "machine.topology", true },
	{ "environment.aslr", true },
	{ "environment.governor.effective", true },
	{ "environment.tmpdir.fstype", true },
	{ "environment.task_process.image", true },
	{ "options.placement", true },
	{ "options.warmup", true },
	{ "options.duration", true },
	{ "options.interval", true },
};

/* Fields that say how a run was asked to print, not what it measured:
 * kept in the JSON output, left out of the printed header. */
static const char *const hidden_fields[] = {
	"options.output", "options.quiet", "options.csv", "options.fail-fast",
	"options.tasks", "options.tasks_resolved", "options.mode", "options.runs",
	"options.max-runs", "options.max-time", "options.threshold",
	"options.invocations",
};

/* What --axis kernel and --axis cgroup stand for. */
static const char *const axis_kernel[] = { "kernel.release", "kernel.version",
					   "kernel.config", "kernel.cmdline", NULL };
static const char *const axis_cgroup[] = { "cgroup.layout", NULL };
static const char *const axis_workload[] = { "workload.options", NULL };

static bool under(const char *field, const char *pat)
{
	size_t n = strlen(pat);

	return !strncmp(field, pat, n) && (field[n] == 0 || field[n] == '.');
}

static bool is_critical(const char *field)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_class); i++)
		if (under(field, field_class[i].pat))
			return field_class[i].critical;
	return false;
}

static bool is_axis(const char *axis, const char *field)
{
	const char *const *list = !strcmp(axis, "kernel") ? axis_kernel :
				  !strcmp(axis, "cgroup") ? axis_cgroup :
				  !strcmp(axis, "workload") ? axis_workload : NULL;

	if (!list)
		return under(field, axis);
	for (int i = 0; list[i]; i++)
		if (under(field, list[i]))
			return true;
	return false;
}

struct kv {
	char *k, *v;
};

struct kvlist {
	struct kv *v;
	unsigned n;
};

static int kv_add(struct kvlist *l, const char *k, const char *v)
{
	struct kv *n = realloc(l->v, (l->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	l->v = n;
	n[l->n].k = strdup(k);
	n[l->n].v = strdup(v ? v : "null");
	if (!n[l->n].k || !n[l->n].v) {
		free(n[l->n].k);
		free(n[l->n].v);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

static void kv_free(struct kvlist *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		free(l->v[i].k);
		free(l->v[i].v);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The command line without the tokens that name the boot files, nor
 * the ones `cgscale ab` adds to tell its guest what to do (cgab_*). */
static char *norm_cmdline(const char *s)
{
	char *out = calloc(1, strlen(s) + 1), *copy = strdup(s), *save, *tok;

	if (!out || !copy) {
		free(out);
		free(copy);
		return NULL;
	}
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (!strncmp(tok, "BOOT_IMAGE=", 11) || !strncmp(tok, "initrd=", 7) ||
		    !strncmp(tok, "cgab_", 5))
			continue;
		if (*out)
			strcat(out, " ");
		strcat(out, tok);
	}
	free(copy);
	return out;
}

static int flatten(struct kvlist *l, const char *prefix, struct json_object *o,
		   int depth)
{
	int rc = 0;

	if (depth > 8)
		return 0;
	if (!json_object_is_type(o, json_type_object)) {
		char num[32];
		const char *v = !o ? "null" : json_object_is_type(o, json_type_string) ?
			json_object_get_string(o) :
			json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);

		if (json_object_is_type(o, json_type_double)) {
			/* 0.1, not 0.10000000000000001 */
			snprintf(num, sizeof(num), "%.15g", json_object_get_double(o));
			v = num;
		}

		if (!strcmp(prefix, "kernel.cmdline") && o &&
		    json_object_is_type(o, json_type_string)) {
			char *n = norm_cmdline(v);

			rc = n ? kv_add(l, prefix, n) : -ENOMEM;
			free(n);
			return rc;
		}
		return kv_add(l, prefix, v);
	}
	json_object_object_foreach(o, k, v) {
		char *path;

		if (asprintf(&path, "%s.%s", prefix, k) < 0)
			return -ENOMEM;
		rc = flatten(l, path, v, depth + 1);
		free(path);
		if (rc)
			return rc;
	}
	return 0;
}

/* The workload options of a file's points, distinct, ';'-joined. */
static int file_wopts(const struct res_file *f, struct kvlist *l)
{
	char buf[1024] = "";
	int rc;

	for (unsigned i = 0; i < f->npoints; i++) {
		char *w = cmp_canon_wopts(f->points[i].wopts), *at;
		size_t n;

		if (!w)
			return -ENOMEM;
		if (!*w) {
			free(w);
			if (!(w = strdup("default")))
				return -ENOMEM;
		}
		n = strlen(w);
		for (at = strstr(buf, w); at; at = strstr(at + 1, w))
			if ((at == buf || at[-1] == ';') && (at[n] == ';' || !at[n]))
				break;
		if (!at)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 *buf ? ";" : "", w);
		free(w);
	}
	rc = kv_add(l, "workload.options", *buf ? buf : "default");
	return rc;
}

/* The cgroup layouts of a file's points, sorted and comma-joined. */
static int file_layouts(const struct res_file *f, struct kvlist *l)
{
	char buf[1024] = "";
	const char *seen[64];
	unsigned n = 0;

	for (unsigned i = 0; i < f->npoints && n < 64; i++) {
		const char *lay = cmp_point_layout(&f->points[i]);
		bool dup = false;

		for (unsigned k = 0; k < n; k++)
			dup |= !strcmp(seen[k], lay);
		if (!dup)
			seen[n++] = lay;
	}
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = i + 1; k < n; k++)
			if (strcmp(seen[k], seen[i]) < 0) {
				const char *t = seen[i];

				seen[i] = seen[k];
				seen[k] = t;
			}
	for (unsigned i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? "," : "", seen[i]);
	return kv_add(l, "cgroup.layout", n ? buf : "none");
}

static int file_fields(const struct res_file *f, struct kvlist *l)
{
	struct json_object *g = NULL, *req = NULL, *before = NULL;
	int rc;

	rc = kv_add(l, "tool.version", f->tool_version);
	if (!rc)
		rc = kv_add(l, "tool.git", f->git);
	if (!rc && f->kernel)
		rc = flatten(l, "kernel", f->kernel, 0);
	if (!rc && f->machine)
		rc = flatten(l, "machine", f->machine, 0);
	if (!rc && f->environment)
		rc = flatten(l, "environment", f->environment, 0);
	if (!rc && f->options)
		rc = flatten(l, "options", f->options, 0);
	if (!rc && f->environment &&
	    json_object_object_get_ex(f->environment, "governor", &g) &&
	    json_object_is_type(g, json_type_object)) {
		json_object_object_get_ex(g, "requested", &req);
		json_object_object_get_ex(g, "before", &before);
		rc = kv_add(l, "environment.governor.effective",
			    json_object_is_type(req, json_type_string) ?
			    json_object_get_string(req) :
			    json_object_is_type(before, json_type_string) ?
			    json_object_get_string(before) : "none (no cpufreq)");
	}
	if (!rc)
		rc = file_layouts(f, l);
	if (!rc)
		rc = file_wopts(f, l);
	return rc;
}

static struct cmp_envrow *row_find(struct cmp_result *r, const char *field)
{
	for (unsigned i = 0; i < r->nenv; i++)
		if (!strcmp(r->env[i].field, field))
			return &r->env[i];
	return NULL;
}

static int row_add(struct cmp_result *r, const char *field)
{
	struct cmp_envrow *v = realloc(r->env, (r->nenv + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	r->env = v;
	memset(&v[r->nenv], 0, sizeof(*v));
	v[r->nenv].field = strdup(field);
	v[r->nenv].val = calloc(r->nsides, sizeof(char *));
	if (!v[r->nenv].field || !v[r->nenv].val) {
		free(v[r->nenv].field);
		free(v[r->nenv].val);
		return -ENOMEM;
	}
	v[r->nenv].critical = is_critical(field);
	v[r->nenv].axis = is_axis(r->o.axis, field);
	for (size_t i = 0; i < ARRAY_SIZE(hidden_fields); i++)
		v[r->nenv].hidden |= !strcmp(field, hidden_fields[i]);
	/* what -r auto did (autoruns.c) */
	v[r->nenv].hidden |= !strncmp(field, "options.runs_auto.", 18);
	r->nenv++;
	return 0;
}

/* Is @v one of the " | "-joined values of @list? */
static bool has_value(const char *list, const char *v)
{
	size_t n = strlen(v);
	const char *s = list;

	for (;;) {
		if (!strncmp(s, v, n) && (s[n] == 0 || !strncmp(s + n, " | ", 3)))
			return true;
		s = strstr(s + 1, " | ");
		if (!s)
			return false;
		s += 3;
	}
}

/* Merge one file's value into the side's: a second distinct value makes
 * the side "mixed" (shown as "a | b"); cgroup.layout is a union instead. */
static int side_merge(struct cmp_envrow *row, unsigned s, const char *v)
{
	char *old = row->val[s], *n;
	bool layout = !strcmp(row->field, "cgroup.layout");

	if (!old)
		return (row->val[s] = strdup(v)) ? 0 : -ENOMEM;
	if (!strcmp(old, v))
		return 0;
	if (layout) {
		/* a union of comma lists; a side may sweep several layouts */
		char *copy = strdup(v), *save, *tok;

		if (!copy)
			return -ENOMEM;
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char pat[256];

			snprintf(pat, sizeof(pat), ",%s,", tok);
			n = NULL;
			if (asprintf(&n, ",%s,", row->val[s]) < 0) {
				free(copy);
				return -ENOMEM;
			}
			if (!strstr(n, pat)) {
				free(n);
				if (asprintf(&n, "%s,%s", row->val[s], tok) < 0) {
					free(copy);
					return -ENOMEM;
				}
				free(row->val[s]);
				row->val[s] = n;
			} else {
				free(n);
			}
		}
		free(copy);
		return 0;
	}
	if (has_value(old, v))
		return 0;
	if (asprintf(&n, "%s | %s", old, v) < 0)
		return -ENOMEM;
	free(old);
	row->val[s] = n;
	row->mixed = true;
	return 0;
}

static int collect(struct cmp_result *r)
{
	int rc = 0;

	for (unsigned s = 0; s < r->nsides && !rc; s++) {
		const struct cmp_side *side = &r->sides[s];

		for (unsigned f = 0; f < side->nfiles && !rc; f++) {
			struct kvlist l = { 0 };

			rc = file_fields(&side->files[f].res, &l);
			for (unsigned i = 0; !rc && i < l.n; i++) {
				struct cmp_envrow *row = row_find(r, l.v[i].k);

				if (!row) {
					rc = row_add(r, l.v[i].k);
					row = &r->env[r->nenv - 1];
				}
				if (!rc)
					rc = side_merge(row, s, l.v[i].v);
			}
			kv_free(&l);
		}
	}
	return rc;
}

int cmp_env_diff(struct cmp_result *r, char *err, size_t errlen)
{
	bool axis_known = false;
	unsigned nbad = 0;
	int rc = collect(r);

	if (!rc)
		rc = cmp_env_kernel(r);
	if (rc)
		return rc;
	for (unsigned i = 0; i < r->nenv; i++) {
		struct cmp_envrow *row = &r->env[i];
		const char *first = NULL;
		bool layout = !strcmp(row->field, "cgroup.layout") ||
			      !strcmp(row->field, "workload.options");
		int sep = row->field[0] == 'c' ? ',' : ';';

		axis_known |= row->axis;
		for (unsigned s = 0; s < r->nsides; s++) {
			if (!row->val[s])
				continue;
			if (first && strcmp(first, row->val[s]))
				row->differs = true;
			first = first ? first : row->val[s];
		}
		/* one side must not sweep the axis: a union of layouts is
		 * mixed only when the layout is what is compared */
		if (layout && row->axis)
			for (unsigned s = 0; s < r->nsides; s++)
				row->mixed |= row->val[s] && strchr(row->val[s], sep);
		if (layout && !row->axis)
			continue;  /* grouping keeps layouts apart */
		if (!(row->mixed && (row->critical || row->axis)) &&
		    !(row->differs && row->critical && !row->axis))
			continue;
		if (r->o.allow_env_diff) {
			rc = cmp_note(r, "%s %s (allowed by --allow-env-diff)",
				      row->field, row->mixed ? "varies within a side" : "differs");
		} else if (nbad++ < 3) {
			cmp_problem(r, "%s%s %s", nbad > 1 ? "; " : "", row->field,
				row->mixed ? "varies within a side" : "differs between the sides");
			for (unsigned s = 0; s < r->nsides; s++)
				cmp_problem(r, "%s %s '%.60s'", s ? "," : ":", r->sides[s].label,
					row->val[s] ? row->val[s] : "-");
		}
		if (rc)
			return rc;
	}
	if (!axis_known) {
		snprintf(err, errlen,
			 "--axis %s: no such field in the inputs; use kernel, cgroup, workload, or a field shown by 'cgscale show' such as machine.cpu_model",
			 r->o.axis);
		return -EINVAL;
	}
	if (nbad) {
		cmp_problem(r, "%s; compare like with like, make it the --axis, or pass --allow-env-diff",
			nbad > 3 ? " (and more)" : "");
		return -EXDEV;
	}
	return cmp_env_axis_differs(r);
}
