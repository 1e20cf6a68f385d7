/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm_boot.c - one boot of `cgscale ab`: KVM or TCG, -smp and -numa from
 * an hwloc-style description ("pack:2 numa:1 core:2 pu:1"), the console
 * and the guest's reply in files, a time limit, and the qemu process
 * (its pid recorded) killed and reaped when it outlives the boot.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/pdeath.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "runner/ab/vm.h"

const char *const cgs_vm_end_names[] = {
	"ok", "no result (the kernel did not boot, panicked or the run failed)",
	"timed out", "qemu failed", "interrupted",
	"qemu was ended from outside (a signal cgscale did not send)",
	"the guest could not give what the run asked (its result is in logs/, not compared)",
};

bool cgs_vm_can_kvm(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[4096];
	bool flags = false;
	int fd;

	while (f && !flags && fgets(line, sizeof(line), f))
		flags = !strncmp(line, "flags", 5) && (strstr(line, " vmx") || strstr(line, " svm"));
	if (f)
		fclose(f);
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	return flags && fd >= 0;
}

int cgs_vm_topology(struct cgs_vm_spec *s, char *err, size_t errlen)
{
	char *copy, *save, *tok;
	int rc = 0;

	s->sockets = s->nodes_per_socket = s->threads = 1;
	s->cores = (unsigned)s->cpus;
	if (!s->topology)
		return 0;
	s->cores = 1;
	copy = strdup(s->topology);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, " ", &save); tok && !rc; tok = strtok_r(NULL, " ", &save)) {
		char name[32];
		unsigned n;

		if (sscanf(tok, "%31[a-z0-9]:%u", name, &n) != 2 || !n || n > 1024)
			rc = -EINVAL;
		else if (!strcmp(name, "pack") || !strcmp(name, "package") || !strcmp(name, "socket"))
			s->sockets = n;
		else if (!strcmp(name, "numa") || !strcmp(name, "node"))
			s->nodes_per_socket = n;
		else if (!strcmp(name, "core"))
			s->cores = n;
		else if (!strcmp(name, "pu") || !strcmp(name, "thread"))
			s->threads = n;
		else if (strncmp(name, "l", 1))   /* caches: not a qemu knob */
			rc = -EINVAL;
	}
	free(copy);
	if (rc)
		return cgs_errf(err, errlen, rc, "--vm-topology '%s': give \"pack:P numa:N core:C pu:T\" (counts per parent, as hwloc's synthetic descriptions)",
				s->topology);
	s->cpus = (int64_t)s->sockets * s->nodes_per_socket * s->cores * s->threads;
	if (s->cpus > 1024)
		return cgs_errf(err, errlen, -EINVAL, "--vm-topology '%s' makes %lld CPUs; at most 1024", s->topology, (long long)s->cpus);
	return 0;
}

#define ADD(...) do { \
	int n_ = snprintf(buf + used, blen - used, __VA_ARGS__); \
	if (n_ < 0 || (size_t)n_ >= blen - used || argc + 1 >= max) \
		return -E2BIG; \
	argv[argc++] = buf + used; \
	used += (size_t)n_ + 1; \
} while (0)

int cgs_vm_qemu_args(const struct cgs_vm_spec *s, const struct cgs_vm_kernel *k,
		     const char *initrd, const char *console, const char *reply,
		     char **argv, int max, char *buf, size_t blen)
{
	unsigned nodes = s->sockets * s->nodes_per_socket, per = (unsigned)s->cpus / nodes;
	long long mib = (long long)(s->mem >> 20) / nodes * nodes;
	size_t used = 0;
	int argc = 0;

	ADD("qemu-system-x86_64"); ADD("-accel"); ADD("%s", s->kvm ? "kvm" : "tcg");
	if (s->kvm) {
		ADD("-cpu"); ADD("host");
	}
	/* the guest's RAM touched on the host before the boot (prealloc): a
	 * page the guest first touches in the measured window would cost a
	 * host fault, so the sides' figures hung on which pages their
	 * allocator handed out (a kernel booted with init_on_free=1 zeroes
	 * all of its RAM at boot, and ran 20-120% faster than without) */
	ADD("-machine"); ADD("pc%s", nodes > 1 ? "" : ",memory-backend=m0");
	if (nodes == 1) {
		ADD("-object"); ADD("memory-backend-ram,id=m0,size=%lldM,prealloc=on", mib);
	}
	ADD("-nodefaults"); ADD("-display"); ADD("none");
	ADD("-no-reboot"); ADD("-m"); ADD("%lldM", mib);
	ADD("-smp"); ADD("cpus=%lld,sockets=%u,cores=%u,threads=%u", (long long)s->cpus,
			 s->sockets, s->nodes_per_socket * s->cores, s->threads);
	for (unsigned i = 0; nodes > 1 && i < nodes; i++) {
		ADD("-object"); ADD("memory-backend-ram,id=m%u,size=%lldM,prealloc=on", i, mib / nodes);
		ADD("-numa"); ADD("node,nodeid=%u,cpus=%u-%u,memdev=m%u", i, i * per, i * per + per - 1, i);
	}
	ADD("-serial"); ADD("file:%s", console); ADD("-serial"); ADD("file:%s", reply);
	ADD("-kernel"); ADD("%s", k->image); ADD("-initrd"); ADD("%s", initrd);
	/* ab's own, then --cmdline (both sides), then this side's cmdline= */
	ADD("-append"); ADD("console=ttyS0 panic=-1 quiet cgab_cgroup=%s cgab_accel=%s%s%s%s%s", s->cgroup,
			    s->kvm ? "kvm" : "tcg", s->cmdline ? " " : "", s->cmdline ? s->cmdline : "",
			    k->cmdline ? " " : "", k->cmdline ? k->cmdline : "");
	argv[argc] = NULL;
	return argc;
}

/* What a terminal shows of the console line @l (its end cut off): the
 * part after its last carriage return that holds more than blanks (the
 * guest's progress line rewrites itself with '\r'). */
static const char *shown_part(char *l)
{
	char *p;

	l[strcspn(l, "\n")] = 0;
	while ((p = strrchr(l, '\r'))) {
		if (p[1 + strspn(p + 1, " \t")])
			return p + 1;
		*p = 0;
	}
	return l;
}

void cgs_vm_tail(const char *path, unsigned n, char *buf, size_t len)
{
	char *lines[64] = { 0 }, *line = NULL, *panic = NULL;
	size_t cap = 0;
	unsigned at = 0;
	bool panic_in = false;
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	n = n > 64 ? 64 : n;
	while (f && getline(&line, &cap, f) >= 0) {
		const char *l = shown_part(line);

		if (!l[strspn(l, " \t")])
			continue;
		if (!panic && strstr(l, "Kernel panic - not syncing"))
			panic = strdup(l);
		free(lines[at]);
		lines[at] = strndup(l, 500);
		at = (at + 1) % n;
	}
	free(line);
	if (f)
		fclose(f);
	for (unsigned i = 0; i < n; i++)
		panic_in |= panic && lines[i] && strstr(lines[i], "Kernel panic - not syncing");
	/* the panic's reason, when the lines after it (a stack trace)
	 * pushed it out of the tail */
	if (panic && !panic_in)
		snprintf(buf, len, "%.500s\n...", panic);
	free(panic);
	for (unsigned i = 0; i < n; i++) {
		char *l = lines[(at + i) % n];

		if (l)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? "\n" : "", l);
		free(l);
	}
}

static pid_t spawn(char **argv, int out)
{
	pid_t parent = getpid(), pid = fork();
	sigset_t none;

	if (pid != 0)
		return pid;
	cgs_die_with_parent(parent);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int nul = open("/dev/null", O_RDONLY);

	dup2(nul, 0);
	if (out >= 0) {
		dup2(out, 1);
		dup2(out, 2);
	}
	execvp(argv[0], argv);
	_exit(127);
}

/* Wait for @pid until the deadline or a signal; kill it when it lives. */
static int wait_boot(pid_t pid, const struct cgs_vm_spec *s, const char *console,
		     cgs_vm_progress progress, void *arg, int *status, int *signo)
{
	int64_t t0 = cgs_now_ns(), tick = 0;
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		int sig;

		if (w == pid)
			return 0;
		if (cgs_now_ns() - t0 > s->timeout_ns)
			break;
		sig = sigtimedwait(&set, NULL, &ts);
		if (sig > 0) {
			*signo = sig;
			break;
		}
		if (progress && ++tick % 5 == 0) {
			char last[512];

			cgs_vm_tail(console, 1, last, sizeof(last));
			progress(arg, (double)(cgs_now_ns() - t0) / 1e9, last);
		}
	}
	kill(pid, SIGTERM);
	/* ours until reaped: SIGKILL only while waitpid has not taken it */
	for (int i = 0; i < 50; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return -ETIMEDOUT;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return -ETIMEDOUT;
}

int cgs_vm_boot(const struct cgs_vm_spec *s, const struct cgs_vm_kernel *k,
		const char *initrd, const char *console, const char *reply,
		cgs_vm_progress progress, void *arg, enum cgs_vm_end *end,
		int *signo)
{
	char buf[8192], *argv[96], log[4200], name[NAME_MAX + 1], tail[2048];
	int argc = cgs_vm_qemu_args(s, k, initrd, console, reply, argv, 96, buf, sizeof(buf));
	int status = 0, rc, dfd, out;
	pid_t pid;

	*signo = 0;
	if (argc < 0)
		return argc;
	/* qemu's own output, a new file beside the console (never through
	 * a link or over what is there) */
	snprintf(log, sizeof(log), "%s.qemu", console);
	dfd = cgs_open_parent(log, name, sizeof(name));
	out = dfd < 0 ? dfd : cgs_create_at(dfd, name, O_WRONLY, 0644);
	if (dfd >= 0)
		close(dfd);
	if (out < 0)
		return out;
	pid = spawn(argv, out);
	rc = pid < 0 ? -errno : 0;
	close(out);
	if (rc)
		return rc;
	rc = wait_boot(pid, s, console, progress, arg, &status, signo);
	cgs_vm_tail(log, 8, tail, sizeof(tail));
	if (rc == -ETIMEDOUT)
		*end = *signo ? CGS_VM_SIGNAL : CGS_VM_TIMEOUT;
	else if (WIFSIGNALED(status) || strstr(tail, "terminating on signal"))
		*end = CGS_VM_ENDED;     /* qemu exits 0 on a SIGTERM of another's */
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		*end = CGS_VM_QEMU;
	else
		*end = CGS_VM_OK;   /* the caller checks the reply */
	return 0;
}

struct json_object *cgs_vm_reply_result(const char *path)
{
	FILE *f = fopen(path, "re"), *m;
	char *text = NULL, *line = NULL;
	size_t n = 0, cap = 0;
	struct json_object *root = NULL;
	bool in = false;

	if (!f)
		return NULL;
	m = open_memstream(&text, &n);
	while (m && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\r\n")] = 0;
		if (!strncmp(line, "=== ", 4))
			in = !strcmp(line, "=== result");
		else if (in)
			fprintf(m, "%s\n", line);
	}
	free(line);
	fclose(f);
	if (m)
		fclose(m);
	if (n)
		root = json_tokener_parse(text);
	free(text);
	return root;
}

int cgs_vm_reply_rc(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[256];
	int rc = -1;

	while (f && rc < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "rc: %d", &rc) != 1)
			rc = -1;
	if (f)
		fclose(f);
	return rc;
}
