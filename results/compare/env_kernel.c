/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * env_kernel.c - what the environment diff says about kernels and VMs:
 * the kernel's configuration options come first in the section, a debug
 * option (lib/kconfig.h) on one side only is a warning that the costs are
 * not comparable, results of a TCG guest are marked as never benchmark
 * numbers, and a side of `cgscale ab` boots with fewer results than it
 * planned names the boots missing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/kconfig.h"
#include "results/compare/model.h"

#define CFG "kernel.config."

/* An option's row: a side without the option has it unset (an option
 * its config cannot have), so it differs from one that has it; a row the
 * same on every side is kept in the JSON but not printed. */
static void option_row(struct cmp_envrow *e, unsigned nsides)
{
	const char *first = NULL;
	bool absent = false, same = true;

	if (strncmp(e->field, CFG "options.", strlen(CFG "options.")))
		return;
	for (unsigned s = 0; s < nsides; s++) {
		absent |= !e->val[s];
		if (e->val[s] && first && strcmp(first, e->val[s]))
			same = false;
		first = first ? first : e->val[s];
	}
	e->differs |= absent || !same;
	e->hidden |= !absent && same;
}

/* The rows under kernel.config first, the others after, each in order. */
static int config_first(struct cmp_result *r)
{
	struct cmp_envrow *v = malloc((r->nenv + 1) * sizeof(*v));
	unsigned n = 0;

	if (!v)
		return -ENOMEM;
	for (unsigned i = 0; i < r->nenv; i++)
		option_row(&r->env[i], r->nsides);
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < r->nenv; i++)
			if (!strncmp(r->env[i].field, CFG, strlen(CFG)) == !pass)
				v[n++] = r->env[i];
	memcpy(r->env, v, r->nenv * sizeof(*v));
	free(v);
	return 0;
}

static int debug_notes(struct cmp_result *r)
{
	const char *opts = CFG "options.";
	int rc = 0;

	for (unsigned i = 0; i < r->nenv && !rc; i++) {
		const struct cmp_envrow *e = &r->env[i];
		const char *name = e->field + strlen(opts);
		unsigned on = 0, known = 0;

		if (strncmp(e->field, opts, strlen(opts)) || !cgs_kconfig_is_debug(name))
			continue;
		for (unsigned s = 0; s < r->nsides; s++) {
			known += e->val[s] != NULL;
			on += e->val[s] && strcmp(e->val[s], "n");
		}
		if (on && on < known)
			rc = cmp_note(r, "%s is set on some sides only: a debug option changes the costs it measures, so their comparison is not valid; compare kernels built alike",
				      name);
	}
	return rc;
}

static const char *vm_str(const struct res_file *f, const char *key)
{
	struct json_object *vm, *v;

	if (!f->environment || !json_object_object_get_ex(f->environment, "vm", &vm) ||
	    !json_object_object_get_ex(vm, key, &v))
		return NULL;
	return json_object_get_string(v);
}

/* TCG results, and the boots `cgscale ab` planned but did not bring. */
static int vm_notes(struct cmp_result *r)
{
	bool tcg = false;
	int rc = 0;

	for (unsigned s = 0; s < r->nsides && !rc; s++) {
		const struct cmp_side *side = &r->sides[s];
		const char *planned = NULL;

		for (unsigned f = 0; f < side->nfiles; f++) {
			const char *a = vm_str(&side->files[f].res, "accel");

			tcg |= a && !strcmp(a, "tcg");
			planned = planned ? planned : vm_str(&side->files[f].res, "boots");
		}
		if (planned && (unsigned)atoi(planned) > side->nfiles)
			rc = cmp_note(r, "side %s (%s): %u of the %s boots planned gave a result; the missing boots are named in ab.json beside them",
				      side->label, side->name, side->nfiles, planned);
	}
	if (!rc && tcg)
		rc = cmp_note(r, "WARNING: results of a TCG (emulated) guest: TCG figures are for checking the flow, never for benchmark numbers");
	return rc;
}

int cmp_env_kernel(struct cmp_result *r)
{
	int rc = config_first(r);

	if (!rc)
		rc = debug_notes(r);
	if (!rc)
		rc = vm_notes(r);
	return rc;
}
