/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fallocate2 - separate file fallocate (will-it-scale fallocate2).
 *
 * Each task owns a file in --tmpdir; it fallocates 8 KiB at a time up to
 * 1 MiB, then ftruncates the file to 0 and starts again. One op = one
 * fallocate call (the truncate is part of every 128th op). On tmpfs this
 * is shmem_fallocate, as in the LKP reports; on a disk-backed directory it
 * measures the filesystem's discard path instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "tests/workload.h"

#define FA2_FILESIZE (1L << 20)
#define FA2_BUFLEN (FA2_FILESIZE / 128)

static int fa2_setup(struct cgs_task *t)
{
	int fd = cgs_task_tmpfile(t, 0);

	if (fd < 0)
		return fd;
	t->priv = (void *)(intptr_t)fd;
	return 0;
}

static void fa2_teardown(struct cgs_task *t)
{
	close((int)(intptr_t)t->priv);
}

static int fa2_loop(struct cgs_task *t)
{
	int fd = (int)(intptr_t)t->priv;
	off_t place = 0;

	while (!cgs_stop(t)) {
		if (fallocate(fd, 0, place, FA2_BUFLEN) && errno != EINTR)
			return cgs_task_fail(t, -errno, "fallocate at %lld",
					     (long long)place);
		place += FA2_BUFLEN;
		if (place >= FA2_FILESIZE) {
			if (ftruncate(fd, 0))
				return cgs_task_fail(t, -errno, "ftruncate to 0");
			place = 0;
		}
		cgs_add(t, 1);
	}
	return 0;
}

static uint64_t fa2_tmpdir_bytes(const void *opts)
{
	(void)opts;
	return FA2_FILESIZE;
}

const struct cgs_workload fallocate2_workload = {
	.name = "fallocate2",
	.desc = "Separate file fallocate",
	.unit = "fallocate call",
	.setup = fa2_setup,
	.loop = fa2_loop,
	.teardown = fa2_teardown,
	.tmpdir_bytes = fa2_tmpdir_bytes,
};
