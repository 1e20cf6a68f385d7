/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.c - `cgscale events [PATTERN]`: the perf events libpfm4 knows
 * here, for run -e (runner/observe/pmu/pmu_events.c lists them).
 */
#include <stdio.h>

#include "runner/cmd/cmd.h"
#include "runner/observe/pmu/pmu.h"

static const char help_head[] =
	"usage: cgscale events [PATTERN]\n"
	"List the PMUs libpfm4 detects here and their events whose name (PMU::EVENT)\n"
	"contains PATTERN (case-insensitive; *, ? and [] glob), with whether the kernel\n"
	"counts each one per task for this user, and their unit masks. Use the names\n"
	"with 'cgscale run -e'.\n";

static const char help_tail[] =
	"\nexit status:\n"
	"  0  listed\n"
	"  1  libpfm4 does not initialise here\n"
	"  2  bad usage\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-events(1) - hand-written; SYNOPSIS, the first paragraph and\n"
	".\\\" EXIT STATUS are generated from the --help text. No options.\n"
	".TH CGSCALE\\-EVENTS 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-events \\- list the perf events libpfm4 knows here\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	"Give the names to\n"
	".B cgscale run \\-e\n"
	"as a comma list; the generic perf:: events also go by their lowercase\n"
	"names (cycles, instructions:u, page\\-faults), and an event takes a unit\n"
	"mask after a colon (EVENT:UMASK).\n"
	"Where the machine has no hardware PMU (many virtual machines), only the\n"
	"generic perf:: names and software events count, and the list says so.\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale events cycles\n"
	"cgscale run \\-e cycles,instructions:u,page\\-faults page_fault1\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-run (1),\n"
	".BR perf_event_open (2)\n";

static int cmd_events(const struct cgs_command *self, int argc, char **argv)
{
	struct cgs_optset set;
	int first = 0, status = cgs_cmd_open(self, &set, NULL, argc, argv, &first);

	if (status >= 0)
		return status;
	if (argc - first > 1) {
		cgs_cmd_help(self, &set, 1, stderr);
		return CGS_EXIT_BADINPUT;
	}
	return pmu_list_events(first < argc ? argv[first] : NULL);
}

const struct cgs_command cgs_cmd_events = {
	.name = "events",
	.summary = "list the perf events libpfm4 knows here (for run -e)",
	.fn = cmd_events,
	.help_head = help_head,
	.help_tail = help_tail,
	.man = man,
};
