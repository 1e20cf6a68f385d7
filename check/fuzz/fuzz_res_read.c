/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_res_read.c - libFuzzer harness for the result reader and for what
 * compare does with whatever the reader accepts: read the input as a
 * result file (res_read_buf); if it is accepted, compare it with itself
 * (grouping, summaries from the samples, environment diff, statistics)
 * and print every output format to /dev/null. Any crash, leak or
 * undefined behaviour is a bug. Built by `make fuzz` (clang), or replayed
 * over the corpus by check/fuzz/replay.c where clang is missing.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmp_result r = { 0 };
	char err[1024];
	int rc;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	cmp_opts_default(&r.o);
	r.o.resamples = 100;
	r.sides = calloc(2, sizeof(*r.sides));
	if (!r.sides)
		return 0;
	r.nsides = 2;
	for (unsigned s = 0; s < 2; s++) {
		struct cmp_side *side = &r.sides[s];

		snprintf(side->label, sizeof(side->label), "%c", 'A' + s);
		side->arg = strdup("fuzz");
		side->name = strdup("fuzz");
		side->files = calloc(1, sizeof(*side->files));
		if (!side->arg || !side->name || !side->files)
			goto out;
		side->files[0].path = strdup("fuzz.json");
		side->nfiles = 1;
		rc = res_read_buf("fuzz.json", (const char *)data, size,
				  &side->files[0].res, err, sizeof(err));
		if (rc)
			goto out;
	}
	rc = cmp_analyse(&r, err, sizeof(err));
	if (!rc && devnull)
		for (int f = 0; f <= CMP_FMT_JSON; f++)
			cmp_print(&r, f, devnull);
out:
	cmp_result_free(&r);
	return 0;
}
