/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_procs.c - who is in a cgroup that a dead run left: its own workers
 * (comm "cgscale", or "cgs:..." as workers, tasks and partners name
 * themselves, whose parent is one of those or, orphaned, init), or
 * processes that someone moved there, which cleanup must not kill unless
 * told to (--force).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup-setup/cg_int.h"
#include "lib/util.h"

static int comm_of(long pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	return cgs_read_line(path, buf, len);
}

static long ppid_of(long pid)
{
	char path[64], buf[1024], *rp;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (cgs_read_line(path, buf, sizeof(buf)) || !(rp = strrchr(buf, ')')))
		return -1;
	return strtol(rp + 4, NULL, 10);     /* ") S PPID" */
}

static bool cgscale_comm(const char *comm)
{
	return !strcmp(comm, "cgscale") || !strncmp(comm, "cgs:", 4);
}

static bool a_worker(long pid, const char *comm)
{
	char pcomm[64];
	long pp = ppid_of(pid);

	if (!cgscale_comm(comm))
		return false;
	if (pp <= 1)
		return true;
	return !comm_of(pp, pcomm, sizeof(pcomm)) &&
	       (cgscale_comm(pcomm) || !strcmp(pcomm, "systemd") ||
		!strcmp(pcomm, "init"));
}

static void add(char *list, size_t len, long pid, const char *comm)
{
	size_t n = strlen(list);

	if (n < len)
		snprintf(list + n, len - n, "%s%ld (%s)", n ? ", " : "", pid, comm);
}

int cg_procs_sort(const char *full, char *ours, size_t olen, char *foreign,
		  size_t flen)
{
	char path[PATH_MAX + 32], *buf = malloc(65536), *p;
	int nforeign = 0, rc;

	*ours = *foreign = 0;
	if (!buf)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/cgroup.procs", full);
	rc = cgs_read_file(path, buf, 65536);
	for (p = buf; !rc && *p;) {
		char comm[64] = "?";
		long pid = strtol(p, &p, 10);

		while (*p == '\n')
			p++;
		if (pid <= 0)
			break;
		if (comm_of(pid, comm, sizeof(comm)))
			continue;          /* gone meanwhile */
		if (a_worker(pid, comm)) {
			add(ours, olen, pid, comm);
		} else {
			add(foreign, flen, pid, comm);
			nforeign++;
		}
	}
	free(buf);
	return rc ? rc : nforeign;
}
