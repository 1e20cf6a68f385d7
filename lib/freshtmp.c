/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freshtmp.c - a tmpfs of a point's own for its tasks' files, the default
 * when no --tmpdir is given. Each worker of the point (the process that
 * starts its tasks, runner/point/task.c) moves into a mount namespace of
 * its own, makes every mount there private, and mounts a new tmpfs, sized
 * for the run, over /dev/shm in it; its tasks, its children or threads,
 * share it. The box's /dev/shm, long used by every other program, is
 * neither touched nor measured; no one outside sees the new one, and the
 * kernel drops it with the namespace however the point ends (SIGKILL
 * included): nothing is made on the box, so nothing can be left behind.
 * The runner itself stays in the box's namespace, so its output, journal
 * and everything it checks are what the user sees.
 */
#include <errno.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/freshtmp.h"
#include "lib/util.h"


bool cgs_is_tmpfs(const char *dir)
{
	struct statfs s;

	return dir && *dir && statfs(dir, &s) == 0 && s.f_type == TMPFS_MAGIC;
}

uint64_t cgs_fresh_tmpfs_size(uint64_t need)
{
	uint64_t mib = 1 << 20, size = need + 16 * mib;

	return (size + mib - 1) / mib * mib;
}

int cgs_fresh_tmpfs_enter(uint64_t bytes, char *why, size_t wlen)
{
	char opts[64];

	why[0] = 0;
	if (unshare(CLONE_NEWNS))
		return cgs_errf(why, wlen, -errno, "no mount namespace of its own: unshare: %s",
				strerror(errno));
	/* from here on only this namespace changes */
	snprintf(opts, sizeof(opts), "size=%llu,mode=1777", (unsigned long long)bytes);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return cgs_errf(why, wlen, -errno, "making the mounts private: %s", strerror(errno));
	if (mount("cgscale-tmp", CGS_FRESH_TMPDIR, "tmpfs", MS_NOSUID | MS_NODEV, opts))
		return cgs_errf(why, wlen, -errno, "mount -t tmpfs -o %s on %s: %s", opts,
				CGS_FRESH_TMPDIR, strerror(errno));
	return 0;
}

int cgs_fresh_tmpfs_check(char *why, size_t wlen)
{
	int st = 0, fd[2];
	ssize_t n;
	pid_t pid;

	why[0] = 0;
	if (geteuid())
		return cgs_errf(why, wlen, -EPERM, "not root: a tmpfs of the run's own needs a mount namespace");
	if (!cgs_is_tmpfs(CGS_FRESH_TMPDIR))
		return cgs_errf(why, wlen, -ENOENT, "%s is not a tmpfs here", CGS_FRESH_TMPDIR);
	if (pipe2(fd, O_CLOEXEC))
		return cgs_errf(why, wlen, -errno, "pipe: %s", strerror(errno));
	pid = fork();
	if (!pid) {          /* tried for real, in a child that ends at once */
		char w[512];
		int rc = cgs_fresh_tmpfs_enter(1 << 20, w, sizeof(w));

		if (rc && write(fd[1], w, strlen(w)) < 0)
			_exit(2);
		_exit(rc ? 1 : 0);
	}
	close(fd[1]);
	n = pid < 0 ? -1 : read(fd[0], why, wlen - 1);
	why[n > 0 ? n : 0] = 0;
	close(fd[0]);
	if (pid < 0)
		return cgs_errf(why, wlen, -errno, "fork: %s", strerror(errno));
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (!why[0])
		snprintf(why, wlen, "the trial mount failed");
	return -EPERM;
}
