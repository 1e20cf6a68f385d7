/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.c - `cgscale list`: the workloads of the registry (tests/list.h),
 * what one op of each is, and their knobs.
 */
#include <stdio.h>

#include "lib/util.h"
#include "runner/cmd/cmd.h"
#include "tests/workload.h"

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-list(1) - hand-written text; WORKLOADS is generated from the\n"
	".\\\" registry at build time.\n"
	".TH CGSCALE\\-LIST 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-list \\- list the workloads, what one op is, and their knobs\n"
	".SH SYNOPSIS\n"
	".B cgscale list\n"
	".SH DESCRIPTION\n"
	".B cgscale list\n"
	"prints every workload\n"
	".BR cgscale\\-run (1)\n"
	"knows: its name, what one counted operation is, a one\\-line description,\n"
	"and the options that belong to it.\n"
	"It takes no options.\n"
	".SH WORKLOADS\n"
	"The workloads of this version:\n"
	"@WORKLOADS@\n"
	".SH EXIT STATUS\n"
	"0.\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale list\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale (1),\n"
	".BR cgscale\\-run (1)\n";

static int cmd_list(const struct cgs_command *self, int argc, char **argv)
{
	(void)argv;
	/* it takes nothing, not even --help: its page says it all */
	if (argc > 1) {
		cgs_err("%s takes no arguments", self->name);
		return CGS_EXIT_BADINPUT;
	}
	printf("%-14s %-20s %s\n", "TEST", "ONE OP", "DESCRIPTION");
	for (size_t i = 0; i < cgs_nworkloads; i++) {
		const struct cgs_workload *w = cgs_workloads[i];

		printf("%-14s %-20s %s\n", w->name, w->unit, w->desc);
		for (size_t k = 0; k < w->nopts; k++)
			printf("%-14s   --%s: %s\n", "", w->opts[k].name, w->opts[k].help);
	}
	return CGS_EXIT_OK;
}

const struct cgs_command cgs_cmd_list = {
	.name = "list",
	.summary = "list the workloads, what one op is, and their knobs",
	.fn = cmd_list,
	.man = man,
};
