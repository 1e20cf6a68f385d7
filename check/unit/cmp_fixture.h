/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp_fixture.h - what the compare unit tests share: a temporary folder
 * per test (setup/teardown), synthetic result files in it (put), and an
 * in-process analysis of two of them (analyse). Header-only, for tests;
 * include after cmocka.h.
 */
#ifndef CGS_CMP_FIXTURE_H
#define CGS_CMP_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare/model.h"
#include "check/unit/cmp_two.h"
#include "check/unit/synth.h"

struct fixture {
	char dir[64];
};

static inline int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/cgs-cmp-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static inline int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static inline const char *path(struct fixture *f, const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", f->dir, name);
	return buf[k];
}

static inline void put(struct fixture *f, const char *name, struct synth s)
{
	if (!s.tasks)
		s.tasks = 2;
	if (!s.mean)
		s.mean = 1e6;
	assert_int_equal(synth_write(path(f, name), &s), 0);
}

/* Analyse two files in-process, for a look at the verdicts. */
static inline void analyse(struct cmp_result *r, const char *a, const char *b, double t)
{
	cmp_opts_default(&r->o);
	r->o.threshold[CMP_PRIMARY] = t;
	cmp_analyse_two(r, a, b);
}

#endif
