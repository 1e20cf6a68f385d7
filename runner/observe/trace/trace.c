/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.c - --trace: the sets, and resolving them once per run (trace.h).
 *
 * tracefs is read where it is mounted; where it is not, a child process
 * enters a mount namespace of its own, mounts tracefs there, reads the
 * ids and formats into shared memory and exits: the mount goes with its
 * namespace, so nothing is left mounted whatever happens to the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/observe/trace/trace.h"
#include "runner/observe/trace/trace_locks.h"
#include "lib/util.h"
#include "lib/pdeath.h"

const char *const cgs_trace_set_names[] = { "memcg-flush", "locks", NULL };

const char *const cgs_tp_names[CGS_TP_NKIND] = {
	[CGS_TP_MEMCG_FLUSH] = "memcg:memcg_flush_stats",
	[CGS_TP_RSTAT_LOCKED] = "cgroup:cgroup_rstat_locked",
	[CGS_TP_RSTAT_UNLOCK] = "cgroup:cgroup_rstat_unlock",
	[CGS_TP_RSTAT_CONTENDED] = "cgroup:cgroup_rstat_lock_contended",
	[CGS_TP_LOCK_BEGIN] = "lock:contention_begin",
	[CGS_TP_LOCK_END] = "lock:contention_end",
};

/* The fields each kind needs, by enum cgs_tp_field; NULL: none. */
static const char *const tp_fields[CGS_TP_NKIND][CGS_F_N] = {
	[CGS_TP_MEMCG_FLUSH] = { "common_pid", "id", "stats_updates", "force", "needs_flush" },
	[CGS_TP_RSTAT_LOCKED] = { "common_pid", "id", "cpu", "contended", NULL },
	[CGS_TP_RSTAT_UNLOCK] = { "common_pid", "id", "cpu", "contended", NULL },
	[CGS_TP_RSTAT_CONTENDED] = { "common_pid", "id", "cpu", "contended", NULL },
	[CGS_TP_LOCK_BEGIN] = { "common_pid", "lock_addr", "flags", NULL, NULL },
	[CGS_TP_LOCK_END] = { "common_pid", "lock_addr", "ret", NULL, NULL },
};

bool cgs_trace_set_uses(unsigned s, enum cgs_tp_kind k)
{
	if (k >= CGS_TP_NKIND)
		return false;
	return s == 0 ? !cgs_tp_is_lock(k) : s == 1 && cgs_tp_is_lock(k);
}

/* Root, or CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set. */
static bool may_trace(void)
{
	char buf[4096], *s;
	unsigned long long eff;

	if (geteuid() == 0)
		return true;
	if (cgs_read_file("/proc/self/status", buf, sizeof(buf)) < 0 ||
	    !(s = strstr(buf, "CapEff:")) || sscanf(s + 7, "%llx", &eff) != 1)
		return false;
	return (eff >> 38 & 1) || (eff >> 21 & 1);
}

/* Where tracefs is mounted ("" when nowhere), from mountinfo. */
static void tracefs_mounted(char *dir, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mnt[1024], fstype[64];

	dir[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %1023s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s", fstype) != 1)
			continue;
		if (!strcmp(fstype, "tracefs")) {
			snprintf(dir, len, "%s", mnt);
			break;
		}
		if (!strcmp(fstype, "debugfs") && !dir[0])
			snprintf(dir, len, "%s/tracing", mnt);
	}
	if (f)
		fclose(f);
}

/* Fill tp from the tracefs at @root. */
static void read_tp(const char *root, struct cgs_tp *tp, enum cgs_tp_kind k)
{
	char path[1300], buf[8192], group[64];
	const char *name = strchr(cgs_tp_names[k], ':') + 1;
	int rc;

	snprintf(group, sizeof(group), "%.*s",
		 (int)(name - 1 - cgs_tp_names[k]), cgs_tp_names[k]);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, group, name);
	rc = cgs_read_file(path, buf, sizeof(buf));
	tp->denied = rc == -EACCES || rc == -EPERM;
	if (rc < 0 || sscanf(buf, "%d", &tp->id) != 1) {
		snprintf(tp->reason, sizeof(tp->reason), rc == -ENOENT ?
			 "this kernel has no such tracepoint (no events/%s/%s in tracefs)" :
			 "cannot read its id in tracefs (events/%s/%s/id)", group, name);
		return;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, group, name);
	if (cgs_read_file(path, buf, sizeof(buf)) < 0) {
		snprintf(tp->reason, sizeof(tp->reason), "cannot read events/%s/%s/format",
			 group, name);
		return;
	}
	for (int i = 0; i < CGS_F_N; i++) {
		if (!tp_fields[k][i])
			continue;
		if (cgs_tpformat_field(buf, tp_fields[k][i], &tp->f[i])) {
			snprintf(tp->reason, sizeof(tp->reason),
				 "its record has no usable field '%s' on this kernel",
				 tp_fields[k][i]);
			return;
		}
	}
	tp->supported = true;
}

void cgs_trace_read_tracefs(const char *root, struct cgs_trace *t)
{
	for (int k = 0; k < CGS_TP_NKIND; k++)
		if (t->tp[k].wanted)
			read_tp(root, &t->tp[k], (enum cgs_tp_kind)k);
}

/* tracefs not mounted: read it from a private mount namespace. */
static int read_private(struct cgs_trace *t, char *err, size_t errlen)
{
	int st = 0, fd[2];
	char why[160] = "";
	pid_t parent, pid;

	if (pipe2(fd, O_CLOEXEC))
		return cgs_errf(err, errlen, -errno, "--trace: pipe: %s", strerror(errno));
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return cgs_errf(err, errlen, -errno, "--trace: fork: %s", strerror(errno));
	}
	if (!pid) {
		const char *step = "unshare(CLONE_NEWNS)";

		cgs_die_with_parent(parent);
		close(fd[0]);
		if (!unshare(CLONE_NEWNS) &&
		    (step = "making the mounts private",
		     !mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) &&
		    (step = "mount -t tracefs nodev /sys/kernel/tracing",
		     !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))) {
			cgs_trace_read_tracefs("/sys/kernel/tracing", t);
			_exit(0);
		}
		dprintf(fd[1], "%s: %s", step, strerror(errno));
		_exit(1);
	}
	close(fd[1]);
	if (read(fd[0], why, sizeof(why) - 1) < 0)
		why[0] = 0;
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return cgs_errf(err, errlen, -EPERM,
				"--trace: tracefs is not mounted and could not be mounted for the run (%s); mount it (mount -t tracefs nodev /sys/kernel/tracing) or run as root",
				why[0] ? why : "the helper failed");
	snprintf(t->tracefs, sizeof(t->tracefs),
		 "not mounted: read from a private mount namespace, nothing left mounted");
	return 0;
}

/* One trial open of each supported tracepoint on CPU 0. */
static int trial_open(struct cgs_trace *t, char *err, size_t errlen)
{
	for (int k = 0; k < CGS_TP_NKIND; k++) {
		struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT,
			.size = sizeof(a), .disabled = 1 };
		struct cgs_tp *tp = &t->tp[k];
		int fd;

		if (!tp->supported)
			continue;
		a.config = (uint64_t)tp->id;
		fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		if (errno == EACCES || errno == EPERM)
			return cgs_errf(err, errlen, -EPERM,
					"--trace: opening tracepoint %s was refused (%s); run as root or with CAP_PERFMON",
					tp->name, strerror(errno));
		tp->supported = false;
		snprintf(tp->reason, sizeof(tp->reason), "perf_event_open: %s",
			 strerror(errno));
	}
	return 0;
}

int cgs_trace_parse_sets(const char *list, struct cgs_trace *t, char *err,
			 size_t errlen)
{
	const char *s = list;

	snprintf(t->sets, sizeof(t->sets), "%s", list);
	for (int k = 0; k < CGS_TP_NKIND; k++)
		snprintf(t->tp[k].name, sizeof(t->tp[k].name), "%s", cgs_tp_names[k]);
	if (!*list)
		return cgs_errf(err, errlen, -EINVAL,
				"--trace needs a set name: memcg-flush, locks");
	while (*s) {
		size_t n = strcspn(s, ",");
		int found = -1;

		for (int i = 0; cgs_trace_set_names[i]; i++)
			if (strlen(cgs_trace_set_names[i]) == n &&
			    !strncmp(s, cgs_trace_set_names[i], n))
				found = i;
		if (found < 0)
			return cgs_errf(err, errlen, -EINVAL,
					"--trace: unknown set '%.*s'; the sets are: memcg-flush, locks",
					(int)n, s);
		for (int k = 0; k < CGS_TP_NKIND; k++)
			t->tp[k].wanted |= cgs_trace_set_uses((unsigned)found,
							      (enum cgs_tp_kind)k);
		if (s[n] == ',' && !s[n + 1])
			return cgs_errf(err, errlen, -EINVAL,
					"--trace '%s': a trailing comma; give the sets as SET[,SET...], e.g. memcg-flush",
					list);
		s += n + (s[n] == ',');
	}
	return 0;
}

int cgs_trace_setup(const char *list, struct cgs_trace **out, char *err,
		    size_t errlen)
{
	struct cgs_trace *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char root[1100], buf[256];
	int rc;

	*out = NULL;
	if (t == MAP_FAILED)
		return cgs_errf(err, errlen, -ENOMEM, "--trace: out of memory");
	rc = cgs_trace_parse_sets(list, t, err, errlen);
	if (!rc && !may_trace())
		rc = cgs_errf(err, errlen, -EPERM,
			      "--trace needs root, or CAP_PERFMON and access to tracefs; run as root or leave --trace out");
	if (rc)
		goto fail;
	t->last_cpu = cgs_read_file("/sys/devices/system/cpu/possible", buf, sizeof(buf)) < 0
		      ? -1 : cgs_cpulist_last(buf);
	if (t->last_cpu < 0)
		t->last_cpu = (int)sysconf(_SC_NPROCESSORS_CONF) - 1;
	t->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	tracefs_mounted(root, sizeof(root));
	if (root[0]) {
		cgs_trace_read_tracefs(root, t);
		snprintf(t->tracefs, sizeof(t->tracefs), "mounted at %s", root);
	} else {
		rc = read_private(t, err, errlen);
	}
	for (int k = 0; !rc && k < CGS_TP_NKIND; k++)
		if (t->tp[k].denied)
			rc = cgs_errf(err, errlen, -EPERM,
				      "--trace: cannot read tracefs (%s, %s: permission denied); run as root or give access to tracefs",
				      t->tracefs, t->tp[k].name);
	if (!rc)
		rc = trial_open(t, err, errlen);
	if (!rc) {
		*out = t;
		return 0;
	}
fail:
	munmap(t, sizeof(*t));
	return rc;
}

void cgs_trace_free(struct cgs_trace *t)
{
	if (!t)
		return;
	cgs_locknames_free(t->names);
	munmap(t, sizeof(*t));
}

/* Every set, as --trace would resolve it: which tracepoints this kernel
 * and these rights give, with the first missing one's reason. */
int cgs_trace_supported(char *why, size_t len)
{
	struct cgs_trace *t = NULL;
	char all[128] = "", err[300];
	unsigned no = 0;
	int rc;

	for (unsigned s = 0; cgs_trace_set_names[s]; s++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", s ? "," : "",
			 cgs_trace_set_names[s]);
	rc = cgs_trace_setup(all, &t, err, sizeof(err));
	if (rc) {
		snprintf(why, len, "%s", err);
		cgs_trace_free(t);
		return -EOPNOTSUPP;
	}
	for (unsigned k = 0; k < CGS_TP_NKIND; k++)
		if (!t->tp[k].supported && !no++)
			snprintf(why, len, "%s: %s", cgs_tp_names[k], t->tp[k].reason);
	if (no > 1)
		snprintf(why + strlen(why), len - strlen(why), " (and %u more not here)", no - 1);
	cgs_trace_free(t);
	return no == CGS_TP_NKIND ? -EOPNOTSUPP : 0;
}
