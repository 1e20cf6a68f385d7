/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.c - the opening every command shares (cmd.h): its --help from its
 * row, the parse of its options, one message and exit 2 for a bad one.
 */
#include <stdio.h>

#include "lib/util.h"
#include "runner/cmd/cmd.h"
#include "runner/run/run.h"

_Static_assert(CGS_CMD_MAX_DOC_SETS >= CGS_RUN_MAX_SETS + 2,
	       "run's tables and cleanup's beside them must fit");

size_t cgs_cmd_doc_sets(const struct cgs_command *c, enum cgs_doc_use use,
			struct cgs_optset *sets)
{
	if (c->doc_sets)
		return c->doc_sets(use, sets, CGS_CMD_MAX_DOC_SETS);
	if (!c->opts.nopts)
		return 0;
	sets[0] = c->opts;
	return 1;
}

void cgs_cmd_help(const struct cgs_command *c, const struct cgs_optset *sets,
		  size_t nsets, FILE *out)
{
	if (c->help_head)
		fputs(c->help_head, out);
	for (size_t i = 0; i < nsets && !c->help_omits_opts; i++)
		cgs_opt_help(&sets[i], out);
	if (c->help_more)
		c->help_more(out);
	if (c->help_tail)
		fputs(c->help_tail, out);
}

int cgs_cmd_parse(const struct cgs_command *c, struct cgs_optset *sets,
		  size_t nsets, int argc, char **argv, int *first)
{
	return cgs_cmd_parse_given(c, sets, nsets, argc, argv, first, NULL);
}

int cgs_cmd_parse_given(const struct cgs_command *c, struct cgs_optset *sets,
			size_t nsets, int argc, char **argv, int *first,
			const struct cgs_opt **given)
{
	char err[1024] = "";
	int rc = cgs_opt_parse_given(sets, nsets, argc, argv, first, given, err,
				     sizeof(err));

	if (rc == 1) {
		cgs_cmd_help(c, sets, nsets, stdout);
		return CGS_EXIT_OK;
	}
	if (rc) {
		cgs_errs(c->err_who, "%s", *err ? err : "out of memory");
		return CGS_EXIT_BADINPUT;
	}
	return -1;
}

int cgs_cmd_open(const struct cgs_command *c, struct cgs_optset *set,
		 void *base, int argc, char **argv, int *first)
{
	char err[1024] = "";

	*set = c->opts;
	set->base = base;
	if (cgs_opt_check_table(set->opts, set->nopts, c->name, err, sizeof(err)) ||
	    cgs_opt_defaults(set, err, sizeof(err))) {
		cgs_errs(c->err_who, "internal error: %s", err);
		return CGS_EXIT_INTERNAL;
	}
	return cgs_cmd_parse(c, set, 1, argc, argv, first);
}
