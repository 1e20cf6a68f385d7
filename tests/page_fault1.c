/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * page_fault1 - anonymous memory page faults (will-it-scale page_fault1).
 *
 * Each pass maps 128 MiB MAP_PRIVATE|MAP_ANONYMOUS, writes one byte per
 * page, then unmaps it. One op = one page touched, i.e. one minor fault
 * while THP is off for the mapping (THP is recorded in the results).
 * Knobs: --pf1-spin NS (tests/spin.h: busy-wait per op, in batches of 64;
 * 0, the default, is off); the mode decides whether tasks share an mm.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tests/spin.h"
#include "tests/workload.h"

#define PF1_MEMSIZE (128UL << 20)

static int pf1_loop(struct cgs_task *t)
{
	long pgsize = sysconf(_SC_PAGESIZE);
	int64_t spin = cgs_spin_of(t->ctx->opts);

	while (!cgs_stop(t)) {
		char *c = mmap(NULL, PF1_MEMSIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (c == MAP_FAILED)
			return cgs_task_fail(t, -errno, "mmap of 128 MiB anonymous memory");
		for (unsigned long i = 0, n = 0; i < PF1_MEMSIZE; i += pgsize, n++) {
			c[i] = 0;
			cgs_add(t, 1);
			cgs_spin_op(spin, n);
			if (cgs_stop_in_pass(t, n))
				break;
		}
		munmap(c, PF1_MEMSIZE);
	}
	return 0;
}

static const struct cgs_opt pf1_optdefs[] = { CGS_SPIN_OPT("pf1-spin") };

const struct cgs_workload page_fault1_workload = {
	.name = "page_fault1",
	.desc = "Anonymous memory page fault",
	.unit = "page touched",
	.loop = pf1_loop,
	.opts = pf1_optdefs,
	.nopts = 1,
	.opts_size = sizeof(struct cgs_spin_opts),
};
