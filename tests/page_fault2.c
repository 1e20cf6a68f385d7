/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * page_fault2 - separate file private mapping page fault (will-it-scale).
 *
 * Each task maps its own 128 MiB sparse file in --tmpdir MAP_PRIVATE and
 * writes one byte per page: a copy-on-write fault that reads the page
 * cache and allocates an anonymous copy. One op = one page touched.
 * Knobs: --tmpdir (tmpfs by default; its filesystem is recorded),
 * --pf2-spin NS (a fixed per-op slowdown for calibration, tests/spin.h).
 */
#include <stddef.h>
#include <sys/mman.h>

#include "tests/page_fault_file.h"
#include "tests/spin.h"

static int pf2_loop(struct cgs_task *t)
{
	return pf_file_loop(t, MAP_PRIVATE);
}

static const struct cgs_opt pf2_optdefs[] = { CGS_SPIN_OPT("pf2-spin") };

const struct cgs_workload page_fault2_workload = {
	.name = "page_fault2",
	.desc = "Separate file private mapping page fault",
	.unit = "page touched",
	.setup = pf_file_setup,
	.loop = pf2_loop,
	.teardown = pf_file_teardown,
	.opts = pf2_optdefs,
	.nopts = 1,
	.opts_size = sizeof(struct cgs_spin_opts),
	.tmpdir_bytes = pf_file_tmpdir_bytes,
};
