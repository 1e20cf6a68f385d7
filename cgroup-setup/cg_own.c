/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_own.c - what makes a cgroup, or a process in it, cgscale's own, by
 * proof rather than by name: the marker names the runner that made the
 * cgroup (pid, start time, pid namespace); a run holds a flock on the top
 * cgroup of each tree for as long as it (or a child of it) lives; a
 * worker records itself ("PID:START") in its leaf's CG_PROCS xattr, and
 * the runner records its tasks at the gate. Pid and start time together
 * name one process: a pid used again later is someone else.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cgroup-setup/cg.h"
#include "cgroup-setup/cg_int.h"
#include "lib/util.h"

/* Start time of @pid in clock ticks since boot (0 when unknown), and in
 * *@state its state letter ('Z' for a zombie: it ran, and is gone). */
static unsigned long long proc_stat(pid_t pid, char *state)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;

	*state = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (cgs_read_file(path, buf, sizeof(buf)))
		return 0;
	/* comm may hold spaces and ')': fields restart after the last ')' */
	p = strrchr(buf, ')');
	if (p && p[1] == ' ')
		*state = p[2];
	/* field 22 (starttime) is the 20th after the ')' */
	for (int f = 0; p && f < 20; f++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtoull(p + 1, NULL, 10);
	return v;
}

unsigned long long cg_proc_start(pid_t pid)
{
	char state;

	return proc_stat(pid, &state);
}

bool cg_owner_alive(pid_t pid, unsigned long long start)
{
	char state;

	/* a zombie (its parent has not reaped it yet) holds no cgroup */
	return pid > 0 && start && proc_stat(pid, &state) == start && state != 'Z' &&
	       state != 'X';
}

/* The inode of our pid namespace: a pid means something only there. */
static unsigned long long pidns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) ? 0 : (unsigned long long)st.st_ino;
}

int cg_marker_value(char *out, size_t len, const char *extra)
{
	pid_t self = getpid();
	int n = snprintf(out, len, "cgscale pid=%d start=%llu pidns=%llu%s%s",
			 (int)self, cg_proc_start(self), pidns(),
			 extra && *extra ? " " : "", extra ? extra : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int cg_marker_parse(const char *v, struct cg_marker *m)
{
	const char *e;
	int p;

	memset(m, 0, sizeof(*m));
	if (sscanf(v, "cgscale pid=%d start=%llu", &p, &m->start) != 2 || p <= 0)
		return -EINVAL;
	m->pid = p;
	e = strstr(v, " pidns=");
	if (e)
		m->pidns = strtoull(e + 7, NULL, 10);
	e = strstr(v, " parent_enabled=");
	if (e)
		snprintf(m->enabled, sizeof(m->enabled), "%.*s",
			 (int)strcspn(e + 16, " "), e + 16);
	return 0;
}

int cg_marker_owner(const struct cg_marker *m)
{
	if (m->pidns && m->pidns != pidns())
		return -1;
	return cg_owner_alive(m->pid, m->start) ? 1 : 0;
}

int cg_own_add(struct cg_own *o, pid_t pid, unsigned long long start)
{
	if (pid <= 0)
		return -EINVAL;
	if (!start)
		start = cg_proc_start(pid);
	if (o->n == o->cap) {
		unsigned cap = o->cap ? 2 * o->cap : 16;
		pid_t *p = realloc(o->pid, cap * sizeof(*p));
		unsigned long long *s;

		if (!p)
			return -ENOMEM;
		o->pid = p;
		s = realloc(o->start, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		o->start = s;
		o->cap = cap;
	}
	o->pid[o->n] = pid;
	o->start[o->n++] = start;
	return 0;
}

bool cg_own_has(const struct cg_own *o, pid_t pid)
{
	/* looked up only for the few processes still in a cgroup being
	 * removed: a scan will do */
	for (unsigned i = 0; o && i < o->n; i++)
		if (o->pid[i] == pid)
			return o->start[i] && cg_proc_start(pid) == o->start[i];
	return false;
}

int cg_own_parse(struct cg_own *o, const char *text)
{
	const char *p = text;

	while (*p) {
		char *end;
		long pid;
		unsigned long long start;
		int rc;

		p += strspn(p, " \n");
		if (!*p)
			break;
		pid = strtol(p, &end, 10);
		if (end == p || *end != ':' || pid <= 0 || pid > 0x3fffffff)
			return -EINVAL;
		p = end + 1;
		start = strtoull(p, &end, 10);
		if (end == p || !start || (*end && *end != ' ' && *end != '\n'))
			return -EINVAL;
		p = end;
		rc = cg_own_add(o, (pid_t)pid, start);
		if (rc)
			return rc;
	}
	return 0;
}

int cg_own_read(struct cg_own *o, const char *full)
{
	char v[4096];
	ssize_t n = getxattr(full, CG_PROCS, v, sizeof(v) - 1);

	if (n < 0)
		return errno == ENODATA || errno == ENOTSUP || errno == ENOENT ? 0 : -errno;
	v[n] = 0;
	return cg_own_parse(o, v);
}

int cg_own_record(const char *full, pid_t pid)
{
	char v[4096];
	ssize_t n = getxattr(full, CG_PROCS, v, sizeof(v) - 1);
	size_t len;
	int k;

	if (n < 0 && errno != ENODATA)
		return -errno;
	len = n < 0 ? 0 : (size_t)n;
	k = snprintf(v + len, sizeof(v) - len, "%s%d:%llu", len ? " " : "", (int)pid,
		     cg_proc_start(pid));
	if (k < 0 || (size_t)k >= sizeof(v) - len)
		return -E2BIG;
	return setxattr(full, CG_PROCS, v, len + (size_t)k, 0) ? -errno : 0;
}

void cg_own_free(struct cg_own *o)
{
	free(o->pid);
	free(o->start);
	memset(o, 0, sizeof(*o));
}

int cg_lock(const char *full)
{
	int fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

enum cg_life cg_owner_state(const char *full, const struct cg_marker *m,
			    int *lockfd)
{
	int fd = cg_lock(full), owner;

	*lockfd = -1;
	if (fd == -EWOULDBLOCK)
		return CG_LIVE;
	owner = cg_marker_owner(m);
	if (owner) {
		if (fd >= 0)
			close(fd);
		return owner > 0 ? CG_LIVE : CG_UNKNOWN;
	}
	/* a directory we cannot open to lock is gone, or not ours to judge
	 * by the lock; the marker has spoken */
	*lockfd = fd;
	return CG_GONE;
}
