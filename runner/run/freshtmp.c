/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freshtmp.c - the run's own tmpfs for the tasks' files, the default
 * when no --tmpdir is given. The runner moves into a mount namespace of
 * its own (its tasks are its children and share it), makes every mount
 * there private, and mounts a new tmpfs, sized for the run, over
 * /dev/shm in it. The box's /dev/shm, long used by every other program,
 * is neither touched nor measured; no one outside the run sees the new
 * one, and the kernel drops it with the namespace however the run ends
 * (SIGKILL and crashes included): nothing is created on the box, so
 * nothing can be left behind. Where it cannot be done (not root, no
 * mount namespaces, a path the run writes or stands in under /dev/shm),
 * the caller keeps the shared default and says why.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/run/freshtmp.h"

#define SHM "/dev/shm"
#define TMPFS_MAGIC_ 0x01021994

/* @path, or the folder it would be made in, is /dev/shm or under it. */
static bool under_shm(const char *path)
{
	char buf[PATH_MAX], real[PATH_MAX], *slash;

	if (!path || !*path)
		return false;
	snprintf(buf, sizeof(buf), "%s", path);
	while (!realpath(buf, real)) {       /* not there yet: its folder */
		slash = strrchr(buf, '/');
		if (!slash || slash == buf)
			return false;
		*slash = 0;
	}
	return !strncmp(real, SHM, strlen(SHM)) && (!real[strlen(SHM)] || real[strlen(SHM)] == '/');
}

uint64_t cgs_fresh_tmpfs_size(uint64_t need)
{
	uint64_t mib = 1 << 20, size = need + 16 * mib;

	return (size + mib - 1) / mib * mib;
}

int cgs_fresh_tmpfs(const char *const *keep, size_t nkeep, uint64_t bytes, char *path,
		    size_t plen, char *why, size_t wlen)
{
	char opts[64], cwd[PATH_MAX];
	struct statfs sf;
	int rc = 0;

	why[0] = 0;
	if (geteuid())
		return cgs_errf(why, wlen, -EPERM, "not root: a tmpfs of the run's own needs a mount namespace");
	if (statfs(SHM, &sf) || sf.f_type != TMPFS_MAGIC_)
		return cgs_errf(why, wlen, -ENOENT, "%s is not a tmpfs here", SHM);
	for (size_t i = 0; i < nkeep; i++)
		if (under_shm(keep[i]))
			return cgs_errf(why, wlen, -EBUSY, "%s is under %s, which the run's own tmpfs would hide from it",
					keep[i], SHM);
	if (getcwd(cwd, sizeof(cwd)) && under_shm(cwd))
		return cgs_errf(why, wlen, -EBUSY, "the working directory %s is under %s", cwd, SHM);
	if (unshare(CLONE_NEWNS))
		return cgs_errf(why, wlen, -errno, "no mount namespace of its own: unshare: %s", strerror(errno));
	/* from here on only this run's namespace changes */
	snprintf(opts, sizeof(opts), "size=%llu,mode=1777", (unsigned long long)bytes);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		rc = cgs_errf(why, wlen, -errno, "making the run's mounts private: %s", strerror(errno));
	else if (mount("cgscale-tmp", SHM, "tmpfs", MS_NOSUID | MS_NODEV, opts))
		rc = cgs_errf(why, wlen, -errno, "mount -t tmpfs -o %s on %s: %s", opts, SHM, strerror(errno));
	if (!rc)
		snprintf(path, plen, "%s", SHM);
	return rc;
}
