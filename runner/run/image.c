/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image.c - which program the workers exec for the tasks (--task-process):
 * the plain image cgscale-tasks (runner/image/), found next to this binary
 * (a build tree) or in ../libexec/cgscale/ from it (installed), when it is
 * a regular file no one else may write and of this very build; else the
 * tasks run in the runner's own image, and the run says why.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/point/task.h"
#include "runner/run/image.h"

const char *const cgs_task_process_names[] = {
	[CGS_TASKS_PLAIN] = "plain",
	[CGS_TASKS_RUNNER] = "runner",
	NULL,
};

/* Ask @path for its build's signature: 0 when it is this build's. */
static int abi_matches(const char *path, char *why, size_t len)
{
	char want[64], got[128] = "";
	int p[2], st = 0;
	ssize_t n = 0;
	pid_t pid;

	cgs_image_abi(want, sizeof(want));
	if (pipe2(p, O_CLOEXEC))
		return snprintf(why, len, "pipe: %s", strerror(errno)), -errno;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		execl(path, "cgscale-tasks", "--abi", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	if (pid > 0)
		n = read(p[0], got, sizeof(got) - 1);
	close(p[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return snprintf(why, len, "%s --abi did not answer (exec: status %d)", path, st), -ENOEXEC;
	got[n > 0 ? n : 0] = 0;
	got[strcspn(got, "\n")] = 0;
	if (strcmp(got, want))
		return snprintf(why, len, "%s is of another build (%s; this is %s): run make", path, got, want), -ESTALE;
	return 0;
}

/* @path, when it is a usable image; else -errno with why. */
static int usable(const char *path, char *why, size_t len)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || access(path, X_OK))
		return snprintf(why, len, "%s is not an executable file", path), -EACCES;
	if ((st.st_mode & 022) || (st.st_uid && st.st_uid != geteuid()))
		return snprintf(why, len, "%s may be written by others than its owner or us; not exec'ed", path), -EPERM;
	return abi_matches(path, why, len);
}

void cgs_image_find(int choice, char *path, size_t plen, char *why, size_t wlen)
{
	static const char *const where[] = { "%s/cgscale-tasks", "%s/../libexec/cgscale/cgscale-tasks" };
	char exe[PATH_MAX], *slash;
	ssize_t n;

	path[0] = why[0] = 0;
	if (choice == CGS_TASKS_RUNNER) {
		snprintf(why, wlen, "--task-process runner");
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || !(slash = memchr(exe, '/', (size_t)n))) {
		snprintf(why, wlen, "this binary's path is unknown (/proc/self/exe)");
		return;
	}
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	for (size_t i = 0; i < 2; i++) {
		char cand[PATH_MAX + 48], err[PATH_MAX + 160] = "", real[PATH_MAX];
		int rc;

		snprintf(cand, sizeof(cand), where[i], exe);
		rc = usable(cand, err, sizeof(err));
		if (!rc && realpath(cand, real) &&
		    (size_t)snprintf(path, plen, "%s", real) < plen)
			return;
		path[0] = 0;
		if (rc != -ENOENT) {
			snprintf(why, wlen, "%s", err);
			return;
		}
	}
	snprintf(why, wlen, "no cgscale-tasks in %s or %s/../libexec/cgscale (make builds it)", exe, exe);
}
