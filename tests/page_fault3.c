/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * page_fault3 - separate file shared mapping page fault (will-it-scale).
 *
 * Each task maps its own 128 MiB sparse file in --tmpdir MAP_SHARED and
 * writes one byte per page: a write fault plus page_mkwrite on the file's
 * filesystem; after the first pass the page cache stays populated.
 * One op = one page touched. Knobs: --tmpdir (use a tmpfs: ext4's large
 * folios map several pages per fault, so ops would not equal faults),
 * --pf3-spin NS (a fixed per-op slowdown for calibration, tests/spin.h).
 */
#include <stddef.h>
#include <sys/mman.h>

#include "tests/page_fault_file.h"
#include "tests/spin.h"

static int pf3_loop(struct cgs_task *t)
{
	return pf_file_loop(t, MAP_SHARED);
}

static const struct cgs_opt pf3_optdefs[] = { CGS_SPIN_OPT("pf3-spin") };

const struct cgs_workload page_fault3_workload = {
	.name = "page_fault3",
	.desc = "Separate file shared mapping page fault",
	.unit = "page touched",
	.setup = pf_file_setup,
	.loop = pf3_loop,
	.teardown = pf_file_teardown,
	.opts = pf3_optdefs,
	.nopts = 1,
	.opts_size = sizeof(struct cgs_spin_opts),
	.tmpdir_bytes = pf_file_tmpdir_bytes,
};
