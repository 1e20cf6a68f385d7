/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ab.c - `cgscale ab --kernel A=PATH --kernel B=PATH -o DIR -- RUN_ARGS`:
 * boot two kernels in turn in qemu (ABBA order, --boots of each), run
 * `cgscale run RUN_ARGS` in every boot, bring each result back as
 * DIR/A/A-1.json... (one invocation each), then `cgscale compare` A
 * against B with the boots as invocations. This file is the command
 * (options, help, page); what it does is in runner/ab/ (ab_run.c, the
 * VM plumbing vm*.c); docs/ab.md says how to read it.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/safedir.h"
#include "lib/util.h"
#include "runner/ab/ab.h"
#include "runner/cmd/cmd.h"



#define AO struct ab_cli
static const struct cgs_opt ab_opts[] = {
	OPT_STRLIST("kernel", 'k', AO, kernel, .metavar = "LABEL=PATH[,config=FILE][,cmdline=ARGS]",
		.help = "a kernel to boot; repeatable, twice (A and B): a bzImage, a vmlinux or a Debian linux-image .deb; its .config from config=, the package, or config-VERSION / .config beside it; cmdline= (last: it may hold commas) is this side's own kernel command line, after --cmdline"),
	OPT_INT("boots", 'n', AO, boots, .def = "4", .min = 1, .max = 100,
		.help = "boots of each kernel, in ABBA order; each is one invocation for compare"),
	OPT_INT("vm-cpus", 0, AO, cpus, .def = "2", .min = 1, .max = 1024,
		.help = "the guest's CPUs (--vm-topology sets them instead)"),
	OPT_SIZE("vm-mem", 0, AO, mem, .def = "1G", .min = 256 << 20, .max = INT64_MAX,
		.help = "the guest's memory, split evenly between its NUMA nodes"),
	OPT_STRING("vm-topology", 0, AO, topology, .metavar = "DESC",
		.help = "the guest's sockets, NUMA nodes, cores and threads, as \"pack:2 numa:1 core:2 pu:1\" (qemu -smp and -numa)"),
	OPT_ENUM("vm-cgroup", 0, AO, cgroup, .def = "v2", .choices = ab_cgroups,
		.help = "the guest's cgroup version: v2 at /sys/fs/cgroup, or v1 (memory, cpu,cpuacct, cpuset, pids)"),
	OPT_STRING("cmdline", 0, AO, cmdline, .metavar = "ARGS",
		.help = "more kernel command-line arguments, the same for both kernels (a side's own: --kernel A=PATH,cmdline=ARGS)"),
	OPT_BOOL("aa", 0, AO, aa,
		.help = "A and B are the same image with the same command line, on purpose: an A/A control (refused without it), compared along no axis; any verdict but SAME is then a false one"),
	OPT_STRING("modules", 0, AO, modules, .metavar = "DIR",
		.help = "a lib/modules/VERSION tree to put into the guest's /lib/modules"),
	OPT_DURATION("boot-timeout", 0, AO, timeout, .def = "600s", .min = 1000000000LL,
		.max = 86400000000000LL,
		.help = "the longest one boot may take, run included; a boot past it is killed and reported"),
	OPT_STRING("output", 'o', AO, output, .metavar = "DIR",
		.help = "where the results go (DIR/A/A-1.json...), the consoles (DIR/logs/) and ab.json; required"),
};

static const char help_head[] =
	"usage: cgscale ab --kernel A=PATH --kernel B=PATH [options] -o DIR -- RUN_ARGS...\n"
	"Boot two kernels in turn in a VM (qemu; KVM where the host has it, else TCG),\n"
	"in ABBA order, --boots times each; run `cgscale run RUN_ARGS` in every boot\n"
	"from an initramfs made of this cgscale, busybox and their libraries; bring\n"
	"each result back as DIR/A/A-1.json, DIR/B/B-1.json, ... (each boot one\n"
	"invocation); then `cgscale compare --axis kernel --allow-env-diff DIR/A DIR/B`\n"
	"(the guests are alike, so what differs comes from the kernels), whose\n"
	"environment section names the CONFIG_ options that differ. One image\n"
	"booted two ways (A=IMG --kernel B=IMG,cmdline=ARGS) differs by its command\n"
	"line; the same image and line twice is refused unless --aa asks for an\n"
	"A/A control (compared along no axis). A kernel that fails to boot, panics\n"
	"or hangs is reported with its last console lines; the other boots are\n"
	"kept and compare says which are missing.\n";

static const char help_tail[] =
	"\nexit status:\n"
	"  the status of the compare (0 no REGRESSION, 1 REGRESSION, 3 incomparable...)\n"
	"  1    no compare: a side has no result; or a boot asked for is missing\n"
	"       (named on stderr and in ab.json), whatever the compare said\n"
	"  2    bad input, before the first boot (a kernel that cannot boot, no qemu,\n"
	"       an accidental A/A, an -o DIR that holds an ab already)\n"
	"  130  interrupted by SIGINT (143: SIGTERM); the results of the boots that\n"
	"       ended are kept, and ab.json and stderr say which never ran\n"
	"Under TCG (no KVM) the output and every result say: " TCG_WARNING ".\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-ab(1) - hand-written text; SYNOPSIS, the first paragraph,\n"
	".\\\" OPTIONS and EXIT STATUS are generated from the --help text and the\n"
	".\\\" option table at build time.\n"
	".TH CGSCALE\\-AB 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-ab \\- boot two kernels in a VM in turn, run the same points, compare them\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	"Every result records the guest kernel's configuration (kernel.config: a hash\n"
	"and the options that change mm and cgroup costs) and mm settings, and the VM\n"
	"(environment.vm: accel, CPUs, topology, memory, cgroup version).\n"
	".SH OPTIONS\n"
	"@OPTIONS@\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	"A patch author's recipe: build the kernel without and with the patch, then\n"
	".PP\n"
	".EX\n"
	"cgscale ab \\-\\-kernel A=base/arch/x86/boot/bzImage \\e\n"
	"           \\-\\-kernel B=patched/arch/x86/boot/bzImage \\e\n"
	"           \\-o ab/ \\-\\- \\-t 1,2 \\-d 5 \\-r 5 page_fault1\n"
	".EE\n"
	".PP\n"
	"and read the verdicts of the compare it prints (again: cgscale compare ab/A ab/B).\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-run (1),\n"
	".BR cgscale\\-compare (1),\n"
	".BR qemu\\-system\\-x86_64 (1)\n";

static int cmd_ab(const struct cgs_command *self, int argc, char **argv)
{
	struct ab_cli cli = { 0 };
	struct ab_state st = { .cli = &cli, .tty = isatty(2), .outfd = -1, .logsfd = -1, .tmpfd = -1 };
	struct cgs_optset set;
	sigset_t block, old;
	int first = 0, status;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	st.boots = json_object_new_array();
	status = cgs_cmd_open(self, &set, &cli, argc, argv, &first);
	if (status < 0)
		status = ab_prepare(&st, argc - first, argv + first);
	if (status < 0)
		status = ab_run(&st);
	status = ab_pending_stop(status);
	ab_state_free(&st);
	sigprocmask(SIG_SETMASK, &old, NULL);
	cgs_opt_free(&set);
	return status;
}

const struct cgs_command cgs_cmd_ab = {
	.name = "ab",
	.summary = "boot two kernels in a VM in turn, run the same points, compare them",
	.fn = cmd_ab,
	.opts = { "ab options", ab_opts, ARRAY_SIZE(ab_opts), NULL },
	.help_head = help_head,
	.help_tail = help_tail,
	.err_who = "ab",
	.man = man,
	.complete_args = NULL,
};
