/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_procs.c - the processes in a cgroup cgscale is about to remove:
 * those it recorded as its own (cg_own.c) leave or are killed; any other
 * (one a person moved there, or one that only calls itself "cgs:...") is
 * never killed: moved out to a cgroup that takes it, or left there with
 * its cgroup (cleanup --force kills it, as asked).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup-setup/cg_int.h"
#include "lib/util.h"

#define PROCS_MAX (1 << 18)   /* cgroup.procs read at most: 16384 pids fit */

static int comm_of(long pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	return cgs_read_line(path, buf, len);
}

static void add(char *list, size_t len, long pid, const char *comm)
{
	size_t n = strlen(list);

	if (n < len)
		snprintf(list + n, len - n, "%s%ld (%s)", n ? ", " : "", pid, comm);
}

/* The pids in cgroup dir @full, in a malloc'd 0-terminated array (NULL:
 * none readable, *@rc says why). */
static long *procs_of(const char *full, int *rc)
{
	char path[PATH_MAX + 32], *buf = malloc(PROCS_MAX), *p;
	long *v = NULL;
	size_t n = 0, cap = 0;

	*rc = -ENOMEM;
	if (!buf)
		return NULL;
	snprintf(path, sizeof(path), "%s/cgroup.procs", full);
	*rc = cgs_read_file(path, buf, PROCS_MAX);
	for (p = buf; !*rc;) {
		long pid = strtol(p, &p, 10);

		if (n == cap) {
			long *nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!nv) {
				*rc = -ENOMEM;
				break;
			}
			v = nv;
		}
		if (pid <= 0) {
			v[n] = 0;
			break;
		}
		v[n++] = pid;
		p += strspn(p, "\n");
	}
	free(buf);
	if (*rc) {
		free(v);
		return NULL;
	}
	return v;
}

int cg_procs_sort(const char *full, const struct cg_own *own, char *ours,
		  size_t olen, char *foreign, size_t flen)
{
	int nforeign = 0, rc;
	long *v = procs_of(full, &rc);

	*ours = *foreign = 0;
	for (size_t i = 0; v && v[i]; i++) {
		char comm[64] = "?";

		if (comm_of(v[i], comm, sizeof(comm)))
			continue;          /* gone meanwhile */
		if (cg_own_has(own, (pid_t)v[i])) {
			add(ours, olen, v[i], comm);
		} else {
			add(foreign, flen, v[i], comm);
			nforeign++;
		}
	}
	free(v);
	return v ? nforeign : rc;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Does cgroup dir @full (or, on v2, its subtree) hold a process? */
static bool populated(const char *full, int version)
{
	char path[PATH_MAX + 32], buf[4096];

	if (version == 2) {
		snprintf(path, sizeof(path), "%s/cgroup.events", full);
		if (!cgs_read_file(path, buf, sizeof(buf)))
			return !strstr(buf, "populated 0");
	}
	snprintf(path, sizeof(path), "%s/cgroup.procs", full);
	if (cgs_read_file(path, buf, sizeof(buf)))
		return false;   /* gone */
	return buf[0] != 0;
}

/* Move @pid, not ours, out of @full to the first cgroup of ev->to that
 * takes it. 0, or -errno when none does (it stays). */
static int move_out(const char *full, long pid, const struct cg_evict *ev)
{
	char comm[64] = "?", path[PATH_MAX + 32], num[24], why[160] = "no cgroup to move it to";
	int rc = -EBUSY;

	if (comm_of(pid, comm, sizeof(comm)))
		return 0;       /* gone */
	snprintf(num, sizeof(num), "%ld", pid);
	for (unsigned i = 0; i < 2 && rc; i++) {
		if (!ev->to[i])
			continue;
		snprintf(path, sizeof(path), "%s/cgroup.procs", ev->to[i]);
		rc = cgs_write_str(path, num);
		if (!rc && ev->stray)
			ev->stray(ev->arg, full, (pid_t)pid, comm, ev->to[i], NULL);
		else if (rc)
			snprintf(why, sizeof(why), "moving it to %s: %s", ev->to[i],
				 strerror(-rc));
	}
	if (rc == -ESRCH)
		return 0;       /* it ended meanwhile */
	if (rc && ev->stray)
		ev->stray(ev->arg, full, (pid_t)pid, comm, NULL, why);
	return rc;
}

/* One look at @full: move out what is not ours (@kill: and kill what is);
 * 1 while something of ours is left, 0 when nothing is, -EBUSY when a
 * process that is not ours could not be moved. */
static int sweep_procs(const char *full, const struct cg_evict *ev, bool kill_ours)
{
	long *v;
	int rc, ours = 0, stuck = 0;

	v = procs_of(full, &rc);
	if (!v)
		return 0;       /* gone */
	for (size_t i = 0; v[i]; i++) {
		if (ev->kill_all || cg_own_has(ev->own, (pid_t)v[i])) {
			ours = 1;
			if (kill_ours && v[i] > 1 && v[i] != getpid())
				kill((pid_t)v[i], SIGKILL);
		} else if (move_out(full, v[i], ev)) {
			stuck = 1;
		}
	}
	free(v);
	return stuck ? -EBUSY : ours;
}

int cg_drain(const char *full, int version, int64_t ns, const struct cg_evict *ev)
{
	char path[PATH_MAX + 32];
	int64_t deadline = cgs_now_ns() + ns;
	int rc;

	while ((rc = sweep_procs(full, ev, false)) > 0 && cgs_now_ns() < deadline)
		sleep_ms(10);
	if (rc < 0)
		return rc;
	if (!populated(full, version))
		return 0;
	/* ours that would not leave: killed. Everything, with kill_all:
	 * cgroup.kill (v2, 5.14+; write-only, so libcgroup, which opens
	 * control files O_RDWR, cannot write it), else SIGKILL each. */
	snprintf(path, sizeof(path), "%s/cgroup.kill", full);
	if (!ev->kill_all || version != 2 || cgs_write_str(path, "1"))
		rc = sweep_procs(full, ev, true);
	deadline = cgs_now_ns() + 2000000000LL;
	while (rc >= 0 && populated(full, version) && cgs_now_ns() < deadline) {
		sleep_ms(10);
		rc = sweep_procs(full, ev, false);
	}
	return populated(full, version) ? -EBUSY : 0;
}
