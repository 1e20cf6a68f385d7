/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * registry.c - the table of workloads built from list.h, look-up by name,
 * and the start-up check of each entry (fio's check_engine_ops idea).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tests/workload.h"

#define CGS_WORKLOAD(n) extern const struct cgs_workload n##_workload;
#include "tests/list.h"
#undef CGS_WORKLOAD

const struct cgs_workload *const cgs_workloads[] = {
#define CGS_WORKLOAD(n) &n##_workload,
#include "tests/list.h"
#include "lib/macros.h"
#undef CGS_WORKLOAD
};

const size_t cgs_nworkloads = ARRAY_SIZE(cgs_workloads);

const struct cgs_workload *cgs_workload_find(const char *name)
{
	for (size_t i = 0; i < cgs_nworkloads; i++)
		if (!strcmp(cgs_workloads[i]->name, name))
			return cgs_workloads[i];
	return NULL;
}

int cgs_workload_check(const struct cgs_workload *w, char *err, size_t errlen)
{
	const char *n = w->name ? w->name : "(unnamed)";

	if (!w->name || !*w->name)
		return cgs_errf(err, errlen, -EINVAL, "a workload has no name");
	for (const char *p = w->name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return cgs_errf(err, errlen, -EINVAL,
					  "workload '%s': name must be [a-z0-9_]", n);
	if (!w->desc || !*w->desc)
		return cgs_errf(err, errlen, -EINVAL, "workload '%s' has no description", n);
	if (!w->unit || !*w->unit)
		return cgs_errf(err, errlen, -EINVAL, "workload '%s' has no unit for one op", n);
	if (!w->loop)
		return cgs_errf(err, errlen, -EINVAL, "workload '%s' has no loop hook", n);
	if (w->naux > CGS_MAX_AUX || (w->naux && !w->aux))
		return cgs_errf(err, errlen, -EINVAL, "workload '%s': at most %d aux counters",
				  n, CGS_MAX_AUX);
	for (size_t i = 0; i < w->naux; i++)
		if (!w->aux[i].name || !w->aux[i].rate_unit || !(w->aux[i].rate_scale > 0))
			return cgs_errf(err, errlen, -EINVAL,
					  "workload '%s': aux counter %zu lacks a name, unit or scale",
					  n, i);
	if (w->cleanup && !w->prepare)
		return cgs_errf(err, errlen, -EINVAL,
				  "workload '%s' has cleanup without prepare", n);
	if ((w->nopts != 0) != (w->opts != NULL) ||
	    (w->nopts && !w->opts_size))
		return cgs_errf(err, errlen, -EINVAL,
				  "workload '%s': options table and size disagree", n);
	if (w->nopts)
		return cgs_opt_check_table(w->opts, w->nopts, w->name, err, errlen);
	return 0;
}

int cgs_workload_supported(const struct cgs_workload *w, const void *opts, char *why,
			   size_t len)
{
	struct cgs_optset set = { .opts = w->opts, .nopts = w->nopts };
	char err[200];
	int rc = 0;

	if (why && len)
		why[0] = 0;
	if (!w->supported)
		return 0;
	if (!opts && w->opts_size) {
		/* its defaults, as `cgscale list` shows it */
		if (!(set.base = calloc(1, w->opts_size)))
			return -ENOMEM;
		rc = cgs_opt_defaults(&set, err, sizeof(err));
		opts = set.base;
	}
	if (!rc)
		rc = w->supported(opts, why, len);
	if (set.base) {
		cgs_opt_free(&set);
		free(set.base);
	}
	return rc;
}
