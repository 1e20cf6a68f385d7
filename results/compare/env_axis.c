/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * env_axis.c - why the inputs cannot be compared (r->problem, exit 3),
 * written piece by piece, and the check that an --axis given on the
 * command line has something that differs along it (env.c's diff calls
 * both).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "results/compare/model.h"

void cmp_problem(struct cmp_result *r, const char *fmt, ...)
{
	size_t n = strlen(r->problem);
	va_list ap;

	if (n + 8 >= sizeof(r->problem))
		return;
	va_start(ap, fmt);
	vsnprintf(r->problem + n, sizeof(r->problem) - n, fmt, ap);
	va_end(ap);
}

/* An --axis given on the command line along which nothing differs (the
 * same kernel release, version and config on both sides of --axis
 * kernel): an A/A, which must not pass for a comparison (exit 3). */
int cmp_env_axis_differs(struct cmp_result *r)
{
	bool differs = false;

	if (!r->o.axis_given)
		return 0;
	for (unsigned i = 0; i < r->nenv; i++)
		differs |= r->env[i].axis && r->env[i].differs;
	if (differs)
		return 0;
	cmp_problem(r, "nothing differs between the sides along --axis %s: ", r->o.axis);
	/* the telling fields first: kernel.release, kernel.config.hash */
	for (unsigned pass = 0, k = 0; pass < 2 && !(pass && k); pass++)
		for (unsigned i = 0; i < r->nenv && k < 3; i++) {
			const char *f = r->env[i].field;
			bool main = strchr(f, '.') == strrchr(f, '.') ||
				    !strcmp(f, "kernel.config.hash");

			if (r->env[i].axis && r->env[i].val[0] && main != pass)
				cmp_problem(r, "%s%s '%.60s'", k++ ? ", " : "", f, r->env[i].val[0]);
		}
	cmp_problem(r, " on every side; compare two different kernels (or layouts, or options), or leave --axis out for an A/A control");
	return -EXDEV;
}
