/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.c - `cgscale list`: the workloads of the registry (tests/list.h),
 * what one op of each is, their knobs, and whether this box can run each
 * (their supported hooks, with the reason when not); then the observers
 * (runner/observe/list.h), what turns each on, and what this box lets it
 * record, as stress-ng says "unsupported" before it runs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "runner/cmd/cmd.h"
#include "runner/observe/observer.h"
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
	"knows: its name, what one counted operation is, whether this machine can\n"
	"run it (HERE: yes, or no and the reason on the next line), a one\\-line\n"
	"description, and the options that belong to it. Then every observer: what\n"
	"turns it on, whether this machine lets it record, and how or why not\n"
	"(no hardware PMU: software events only; no pressure stall information;\n"
	"the tracepoints this kernel lacks). A run skips the points of a workload\n"
	"this machine cannot run, with the same reason.\n"
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

static void list_workloads(void)
{
	printf("%-14s %-20s %-4s %s\n", "TEST", "ONE OP", "HERE", "DESCRIPTION");
	for (size_t i = 0; i < cgs_nworkloads; i++) {
		const struct cgs_workload *w = cgs_workloads[i];
		char why[256];
		int rc = cgs_workload_supported(w, NULL, why, sizeof(why));

		printf("%-14s %-20s %-4s %s\n", w->name, w->unit, rc ? "no" : "yes", w->desc);
		if (rc)
			printf("%-14s   not here: %s\n", "", rc == -EOPNOTSUPP ? why : strerror(-rc));
		for (size_t k = 0; k < w->nopts; k++)
			printf("%-14s   --%s: %s\n", "", w->opts[k].name, w->opts[k].help);
	}
}

/* What turns observer @d on: its first option, or the workloads that
 * name it. */
static const char *turned_on_by(const struct cgs_obs_def *d, char *buf, size_t len)
{
	if (d->nopts) {
		/* on by default, off by its --no-NAME */
		snprintf(buf, len, strncmp(d->opts[0].name, "no-", 3) ? "--%s" : "on (--%s)",
			 d->opts[0].name);
		return buf;
	}
	snprintf(buf, len, "(its tests)");
	for (size_t i = 0; i < cgs_nworkloads; i++)
		if (cgs_workloads[i]->observer && !strcmp(cgs_workloads[i]->observer, d->name))
			snprintf(buf, len, "(test %s)", cgs_workloads[i]->name);
	return buf;
}

static void list_observers(void)
{
	printf("\n%-14s %-20s %-4s %s\n", "OBSERVER", "TURNED ON BY", "HERE", "HOW, OR WHY NOT");
	for (size_t i = 0; i < cgs_nobservers; i++) {
		const struct cgs_obs_def *d = cgs_observers[i];
		char why[400] = "", on[64];
		int rc = d->supported ? d->supported(why, sizeof(why)) : 0;

		printf("%-14s %-20s %-4s %s\n", d->name, turned_on_by(d, on, sizeof(on)),
		       rc ? "no" : "yes", why);
	}
}

static int cmd_list(const struct cgs_command *self, int argc, char **argv)
{
	(void)argv;
	/* it takes nothing, not even --help: its page says it all */
	if (argc > 1) {
		cgs_err("%s takes no arguments", self->name);
		return CGS_EXIT_BADINPUT;
	}
	list_workloads();
	list_observers();
	return CGS_EXIT_OK;
}

const struct cgs_command cgs_cmd_list = {
	.name = "list",
	.summary = "list the workloads, what one op is, and their knobs",
	.fn = cmd_list,
	.man = man,
};
