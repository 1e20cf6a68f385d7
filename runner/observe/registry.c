/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * registry.c - the table of observers built from list.h, the start-up
 * check of each record, and the loops that drive a list of them through
 * a run and through each point (observer.h). Any list will do: the
 * runner's is cgs_observers, a unit test brings its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/macros.h"
#include "lib/util.h"
#include "runner/observe/observer.h"

#define CGS_OBSERVER(n) extern const struct cgs_obs_def n##_observer;
#include "runner/observe/list.h"
#undef CGS_OBSERVER

const struct cgs_obs_def *const cgs_observers[] = {
#define CGS_OBSERVER(n) &n##_observer,
#include "runner/observe/list.h"
#undef CGS_OBSERVER
};
const size_t cgs_nobservers = ARRAY_SIZE(cgs_observers);

const struct cgs_obs_def *cgs_obs_find(const struct cgs_obs_def *const *list,
				       size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(list[i]->name, name))
			return list[i];
	return NULL;
}

/* Is option @o's name or letter one of @t's? */
static bool opt_clash(const struct cgs_opt *o, const struct cgs_opt *t, size_t nt)
{
	for (size_t i = 0; i < nt; i++)
		if (!strcmp(o->name, t[i].name) ||
		    (o->short_name && o->short_name == t[i].short_name))
			return true;
	return false;
}

/* The options of observer @k against the run's and those before it. */
static int check_opts(const struct cgs_obs_def *const *list, size_t k,
		      const struct cgs_opt *run, size_t nrun, char *err, size_t errlen)
{
	const struct cgs_obs_def *d = list[k];
	bool at = !d->opts_after;
	int rc;

	if ((d->nopts != 0) != (d->opts != NULL) || (d->nopts && !d->opts_size))
		return cgs_errf(err, errlen, -EINVAL,
				"observer '%s': options table and size disagree", d->name);
	for (size_t i = 0; !at && i < nrun; i++)
		at = !strcmp(run[i].name, d->opts_after);
	if (!at)
		return cgs_errf(err, errlen, -EINVAL, "observer '%s': opts_after --%s is no run option",
				d->name, d->opts_after);
	rc = d->nopts ? cgs_opt_check_table(d->opts, d->nopts, d->name, err, errlen) : 0;
	for (size_t i = 0; !rc && i < d->nopts; i++) {
		bool clash = opt_clash(&d->opts[i], run, nrun);

		for (size_t j = 0; !clash && j < k; j++)
			clash = opt_clash(&d->opts[i], list[j]->opts, list[j]->nopts);
		if (clash)
			return cgs_errf(err, errlen, -EINVAL,
					"observer '%s': --%s clashes with another option",
					d->name, d->opts[i].name);
	}
	return rc;
}

int cgs_obs_check(const struct cgs_obs_def *const *list, size_t n,
		  const struct cgs_opt *run, size_t nrun, char *err, size_t errlen)
{
	int rc = 0;

	if (n > CGS_MAX_OBS)
		return cgs_errf(err, errlen, -EINVAL, "more than %d observers", CGS_MAX_OBS);
	for (size_t k = 0; !rc && k < n; k++) {
		const struct cgs_obs_def *d = list[k];

		if (!d->name || !*d->name)
			return cgs_errf(err, errlen, -EINVAL, "observer %zu has no name", k);
		if (!d->new || !d->free || !d->write)
			return cgs_errf(err, errlen, -EINVAL,
					"observer '%s' lacks a new, free or write hook", d->name);
		if (cgs_obs_find(list, k, d->name))
			return cgs_errf(err, errlen, -EINVAL, "observer '%s' is listed twice",
					d->name);
		rc = check_opts(list, k, run, nrun, err, errlen);
	}
	return rc;
}

int cgs_obs_run_init(struct cgs_obs_run *or, const struct cgs_obs_def *const *list,
		     size_t n, const struct cgs_obs_env *env)
{
	memset(or, 0, sizeof(*or));
	if (n > CGS_MAX_OBS)
		return -E2BIG;
	or->list = list;
	or->n = n;
	for (size_t i = 0; i < n; i++) {
		if (list[i]->opts_size && !(or->opts[i] = calloc(1, list[i]->opts_size)))
			return -ENOMEM;
		or->ctx[i] = (struct cgs_obs_ctx){ .def = list[i], .env = env,
						   .opts = or->opts[i] };
	}
	return 0;
}

size_t cgs_obs_optsets(const struct cgs_obs_run *or, const char *after,
		       struct cgs_optset *sets)
{
	const struct cgs_obs_def *const *list = or ? or->list : cgs_observers;
	size_t n = or ? or->n : cgs_nobservers, k = 0;

	for (size_t i = 0; i < n; i++) {
		const char *at = list[i]->opts_after;

		if (!list[i]->nopts || (at != after && (!at || !after || strcmp(at, after))))
			continue;
		sets[k++] = (struct cgs_optset){ NULL, list[i]->opts, list[i]->nopts,
						 or ? or->opts[i] : NULL };
	}
	return k;
}

struct json_object *cgs_obs_sections_json(const struct cgs_obs_run *or)
{
	struct json_object *o = NULL;

	for (size_t i = 0; i < or->n; i++) {
		const struct res_section_decl *d = or->list[i]->section;

		if (!d)
			continue;
		if (!o && !(o = json_object_new_object()))
			return NULL;
		json_object_object_add(o, d->key, res_section_decl_json(d));
	}
	return o;
}

int cgs_obs_run_check(struct cgs_obs_run *or, char *err, size_t errlen)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < or->n; i++)
		if (or->list[i]->check)
			rc = or->list[i]->check(&or->ctx[i], err, errlen);
	return rc;
}

void cgs_obs_run_prepare(struct cgs_obs_run *or)
{
	for (size_t i = 0; i < or->n; i++)
		if (or->list[i]->prepare)
			or->list[i]->prepare(&or->ctx[i]);
}

int cgs_obs_run_preflight(struct cgs_obs_run *or, const struct cgs_cgrun *c,
			  char *err, size_t errlen)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < or->n; i++)
		if (or->list[i]->preflight)
			rc = or->list[i]->preflight(&or->ctx[i], c, err, errlen);
	return rc;
}

void cgs_obs_run_free(struct cgs_obs_run *or)
{
	for (size_t i = 0; i < or->n; i++) {
		if (or->list[i]->run_free)
			or->list[i]->run_free(&or->ctx[i]);
		free(or->opts[i]);
	}
	memset(or, 0, sizeof(*or));
}

/* Add @d's observer of point @pt to @live. */
static int live_add(struct cgs_obs_live *live, const struct cgs_obs_def *d,
		    const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt)
{
	void *priv = NULL;
	int rc;

	if (live->n >= ARRAY_SIZE(live->obs))
		return -E2BIG;
	rc = d->new(ctx, pt, &priv);
	if (rc)
		return rc;
	live->def[live->n] = d;
	live->obs[live->n++] = (struct cgs_observer){
		.name = d->name, .priv = priv, .ready = d->ready, .sample = d->sample,
		.window_end = d->window_end, .finish = d->write,
	};
	return 0;
}

int cgs_obs_point_begin(const struct cgs_obs_run *or, const struct cgs_obs_point *pt,
			const struct cgs_observer *cg, struct cgs_obs_live *live)
{
	int rc = 0;

	live->n = 0;
	for (int pass = 0; !rc && pass < 2; pass++) {
		if (pass && cg && live->n < ARRAY_SIZE(live->obs)) {
			live->def[live->n] = NULL;
			live->obs[live->n++] = *cg;
		}
		for (size_t i = 0; !rc && i < or->n; i++) {
			const struct cgs_obs_def *d = or->list[i];
			bool named = pt->w->observer && !strcmp(pt->w->observer, d->name);

			if (d->before_cgroup == !pass &&
			    (named || (d->wanted && d->wanted(&or->ctx[i]))))
				rc = live_add(live, d, &or->ctx[i], pt);
		}
	}
	return rc;
}

void cgs_obs_point_end(struct cgs_obs_live *live)
{
	for (unsigned i = 0; i < live->n; i++)
		if (live->def[i])
			live->def[i]->free(live->obs[i].priv);
	live->n = 0;
}

void cgs_obs_table_rows(const struct cgs_obs_def *const *list, size_t n,
			const struct res_file *f, const char *test, const char *mode,
			unsigned tasks, const char *layout, FILE *out)
{
	for (size_t i = 0; i < n; i++)
		if (list[i]->table_rows)
			list[i]->table_rows(f, test, mode, tasks, layout, out);
}

void cgs_obs_table_notes(const struct cgs_obs_def *const *list, size_t n,
			 const struct res_file *f, FILE *out)
{
	for (size_t i = 0; i < n; i++)
		if (list[i]->table_notes)
			list[i]->table_notes(f, out);
}
