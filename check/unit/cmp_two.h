/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp_two.h - for the unit tests of compare: load result files @a and @b
 * as sides A and B and analyse them in-process, with the options the
 * caller already set in r->o. Every step must succeed.
 */
#ifndef CGS_CMP_TWO_H
#define CGS_CMP_TWO_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare/model.h"

static inline void cmp_analyse_two(struct cmp_result *r, const char *a,
				   const char *b)
{
	char err[512];

	r->nsides = 2;
	r->sides = calloc(2, sizeof(*r->sides));
	assert_non_null(r->sides);
	strcpy(r->sides[0].label, "A");
	strcpy(r->sides[1].label, "B");
	assert_int_equal(cmp_side_load(&r->sides[0], a, err, sizeof(err)), 0);
	assert_int_equal(cmp_side_load(&r->sides[1], b, err, sizeof(err)), 0);
	assert_int_equal(cmp_analyse(r, err, sizeof(err)), 0);
}

/* The same with compare's default options, disturbed runs kept or left
 * out by @keep_disturbed; the two files must make one point. */
static inline void cmp_analyse_two_default(struct cmp_result *r, const char *a,
					   const char *b, bool keep_disturbed)
{
	memset(r, 0, sizeof(*r));
	cmp_opts_default(&r->o);
	r->o.keep_disturbed = keep_disturbed;
	cmp_analyse_two(r, a, b);
	assert_int_equal(r->ngroups, 1);
}

#endif
