/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tasklist.h - the -t/--tasks parser: a number, a list "1,2,4", a range
 * "1-8", a percentage "50%" of the CPUs the run may use (rounded down, at
 * least 1, as LKP's nr_task), "all", or "sweep" (1, then one LLC's cores,
 * one package's, one NUMA node's, all cores, all PUs). Items combine with
 * commas; the result is sorted and without duplicates.
 */
#ifndef CGS_TASKLIST_H
#define CGS_TASKLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/core/topo.h"

#define CGS_MAX_TASKS 16384

struct cgs_tasklist {
	unsigned n;
	unsigned *v;     /* ascending, unique */
	bool sweep;      /* "sweep" was used */
};

/* Returns 0, or -EINVAL with a one-line message in @err. */
int cgs_tasklist_parse(const char *s, const struct cgs_topo *topo,
		       struct cgs_tasklist *out, char *err, size_t errlen);
void cgs_tasklist_free(struct cgs_tasklist *l);

#endif
