/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * page_fault_file.c - the shared loop of page_fault2 and page_fault3.
 *
 * One op = one page touched in a 128 MiB mapping of the task's own file.
 * will-it-scale creates the file with mkstemp, ftruncate (sparse) and
 * unlink; we do the same in setup, before the start gate. --pf2-spin and
 * --pf3-spin NS busy-wait NS ns per op, 64 ops at a time (tests/spin.h; 0,
 * the default, off).
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tests/page_fault_file.h"
#include "tests/spin.h"

int pf_file_setup(struct cgs_task *t)
{
	int fd = cgs_task_tmpfile(t, PF_FILE_MEMSIZE);

	if (fd < 0)
		return fd;
	t->priv = (void *)(intptr_t)fd;
	return 0;
}

uint64_t pf_file_tmpdir_bytes(const void *opts)
{
	(void)opts;
	return PF_FILE_MEMSIZE;
}

void pf_file_teardown(struct cgs_task *t)
{
	close((int)(intptr_t)t->priv);
}

int pf_file_loop(struct cgs_task *t, int map_flag)
{
	int fd = (int)(intptr_t)t->priv;
	long pgsize = sysconf(_SC_PAGESIZE);
	int64_t spin = cgs_spin_of(t->ctx->opts);

	while (!cgs_stop(t)) {
		char *c = mmap(NULL, PF_FILE_MEMSIZE, PROT_READ | PROT_WRITE,
			       map_flag, fd, 0);

		if (c == MAP_FAILED)
			return cgs_task_fail(t, -errno, "mmap of the 128 MiB file");
		for (long i = 0, n = 0; i < PF_FILE_MEMSIZE; i += pgsize, n++) {
			c[i] = 0;
			cgs_add(t, 1);
			cgs_spin_op(spin, (unsigned long)n);
			if (cgs_stop_in_pass(t, (unsigned long)n))
				break;
		}
		munmap(c, PF_FILE_MEMSIZE);
	}
	return 0;
}
