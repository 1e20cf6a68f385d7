/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sections.c - for the observers' table_rows hooks: the sections of the
 * ok runs of one point (test, mode, task count, layout) in a result file.
 */
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "runner/cgroups/cgrun.h"
#include "runner/observe/observer.h"

unsigned cgs_obs_sections(const struct res_file *f, const char *path, const char *test,
			  const char *mode, unsigned tasks, const char *layout,
			  struct json_object **out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < f->npoints && n < max; i++) {
		const struct res_point *p = &f->points[i];
		struct json_object *s = p->extra ? cgs_jpath(p->extra, path) : NULL;
		const char *pl = cgs_point_layout(p);

		if (s && !strcmp(p->test, test) && !strcmp(p->mode, mode) &&
		    p->tasks == tasks && p->status == RES_OK &&
		    (pl == layout || (pl && layout && !strcmp(pl, layout))))
			out[n++] = s;
	}
	return n;
}
