/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload.c - the skeleton of a workload: copy it to tests/NAME.c,
 * rename skeleton to NAME, and add CGS_WORKLOAD(NAME) to tests/list.h.
 * It builds as it is and a test runs it (check/unit/test_skeletons.c), so
 * what it shows is what compiles. The contract is tests/workload.h.
 *
 * One op here is one getppid() call: the smallest system call, the
 * will-it-scale way (its getppid1).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/macros.h"          /* ARRAY_SIZE */
#include "tests/workload.h"

/* The workload's knobs, one field each; the runner allocates and fills
 * this struct from the table below and hands it over as t->ctx->opts. */
struct skeleton_opts {
	int64_t calls;           /* getppid() calls an op */
};

/* Typed rows of lib/opt.h: each becomes `cgscale run --skeleton-calls N`,
 * is checked against .min and .max before any work (bad input: exit 2),
 * and is recorded with every point. */
static const struct cgs_opt skeleton_optdefs[] = {
	OPT_INT("skeleton-calls", 0, struct skeleton_opts, calls, .def = "1", .min = 1, .max = 1000,
		.help = "getppid() calls one op of skeleton makes"),
};

/* Optional, in each task before the start gate: open files, map memory.
 * Return -EOPNOTSUPP (with cgs_task_fail's reason) to skip the point
 * where it cannot run. */
static int skeleton_setup(struct cgs_task *t)
{
	t->priv = NULL;
	return 0;
}

/* Required: the measured loop. Count each op with cgs_add(); return
 * when cgs_stop() says so (a loop whose pass is long looks inside the
 * pass too: cgs_stop_in_pass()). 0, or cgs_task_fail(t, -errno, why). */
static int skeleton_loop(struct cgs_task *t)
{
	const struct skeleton_opts *o = t->ctx->opts;

	while (!cgs_stop(t)) {
		for (int64_t i = 0; i < o->calls; i++)
			if (getppid() < 0)
				return cgs_task_fail(t, -errno, "getppid");
		cgs_add(t, 1);
	}
	return 0;
}

/* Optional, in each task after the loop: undo setup. */
static void skeleton_teardown(struct cgs_task *t)
{
	t->priv = NULL;
}

/* Optional: can this box run it, with @opts? 0, or -EOPNOTSUPP and why
 * (`cgscale list` shows it, and a run skips the points with it before
 * they start). getppid() is in every kernel; a workload that needs a
 * syscall, a controller or a file checks for it here. */
static int skeleton_supported(const void *opts, char *why, size_t len)
{
	(void)opts;
	if (syscall(SYS_getppid) < 0 && errno == ENOSYS) {
		snprintf(why, len, "getppid() is not in this kernel");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The one record; cgs_workload_check() (tests/registry.c) refuses one
 * that lacks what it needs, at start-up. */
const struct cgs_workload skeleton_workload = {
	.name = "skeleton",
	.desc = "getppid() in a loop (the skeleton of a workload)",
	.unit = "getppid() call",
	.opts = skeleton_optdefs,
	.nopts = ARRAY_SIZE(skeleton_optdefs),
	.opts_size = sizeof(struct skeleton_opts),
	.setup = skeleton_setup,
	.loop = skeleton_loop,
	.teardown = skeleton_teardown,
	.supported = skeleton_supported,
};
