/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm_initrd.c - the initramfs of `cgscale ab`, written as a newc cpio
 * directly (no staging directory): busybox, this cgscale (and its plain
 * image, runner/image/), the libraries
 * ldd names for both, the init below, the kernel's config (which the
 * guest's run reads as /boot/config-RELEASE), the run's arguments and
 * the --modules tree. The init sends "rc: N" and the result between
 * "=== result" and "=== end" on ttyS1, then powers off.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/safefile.h"
#include "lib/util.h"
#include "runner/ab/vm.h"
#include "runner/run/image.h"

static const char init_sh[] =
	"#!/bin/busybox sh\n"
	"# PID 1 of a cgscale ab boot: mount, run, reply on ttyS1, power off\n"
	"/bin/busybox mkdir -p /proc /sys /dev /tmp /boot\n"
	"/bin/busybox mount -t proc proc /proc\n"
	"/bin/busybox --install -s /bin\n"
	"export PATH=/bin\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev\n"
	"mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm && mount -t tmpfs tmpfs /tmp\n"
	"cg=$(sed -n 's/.*cgab_cgroup=\\([a-z0-9]*\\).*/\\1/p' /proc/cmdline)\n"
	"if [ \"$cg\" = v1 ]; then\n"
	"  mount -t tmpfs cgroup /sys/fs/cgroup\n"
	"  for c in memory cpu,cpuacct cpuset pids; do\n"
	"    mkdir -p /sys/fs/cgroup/$c && mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c\n"
	"  done\n"
	"else\n"
	"  mount -t cgroup2 cgroup2 /sys/fs/cgroup\n"
	"fi\n"
	"[ -f /ab/config ] && cp /ab/config /boot/config-$(uname -r)\n"
	"stty -F /dev/ttyS1 115200 2>/dev/null\n"
	"exec 3>/dev/ttyS1\n"
	"echo \"kernel: $(uname -r)\" >&3\n"
	"IFS='\n'\n"
	"set -- $(cat /ab/args)\n"
	"unset IFS\n"
	"cd /tmp\n"
	"echo \"cgscale-ab: cgscale run $*\"\n"
	"cgscale run -o /tmp/ab-result.json \"$@\" </dev/null >/dev/console 2>&1\n"
	"echo \"rc: $?\" >&3\n"
	"if [ -s /tmp/ab-result.json ]; then\n"
	"  echo '=== result' >&3; cat /tmp/ab-result.json >&3; echo >&3; echo '=== end' >&3\n"
	"fi\n"
	"echo '=== done' >&3\n"
	"stty -F /dev/ttyS1 115200 2>/dev/null\n"
	"exec 3>&-  # the last close of a serial port waits until all is sent\n"
	"sync\n"
	"sleep 2\n"
	"poweroff -f\n";

struct cpio {
	FILE *f;
	unsigned ino;
};

static int put_hdr(struct cpio *c, const char *name, unsigned mode, size_t size)
{
	size_t nl = strlen(name) + 1;
	static const char zeros[4];

	if (fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		    ++c->ino, mode, 0u, 0u, 1u, 0u, size, 0u, 0u, 0u, 0u, nl, 0u) < 0 ||
	    fwrite(name, 1, nl, c->f) != nl)
		return -EIO;
	fwrite(zeros, 1, (4 - (110 + nl) % 4) % 4, c->f);
	return 0;
}

static int put_data(struct cpio *c, const char *name, unsigned mode, const char *d, size_t n)
{
	static const char zeros[4];
	int rc = put_hdr(c, name, mode, n);

	if (!rc && n && fwrite(d, 1, n, c->f) != n)
		rc = -EIO;
	fwrite(zeros, 1, (4 - n % 4) % 4, c->f);
	return rc;
}

/* The directories of @name that came before, then @name from @src. */
static int put_file(struct cpio *c, const char *name, const char *src)
{
	char buf[PATH_MAX];
	struct stat st;
	char *d = NULL;
	size_t n = 0, cap = 0;
	FILE *in;
	int rc = 0;

	for (const char *s = strchr(name + 1, '/'); s; s = strchr(s + 1, '/')) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(s - name), name);
		rc = put_hdr(c, buf, 040755, 0);  /* repeated dirs are harmless */
	}
	in = fopen(src, "re");
	if (!in || fstat(fileno(in), &st)) {
		rc = -errno;
		goto out;
	}
	cap = (size_t)st.st_size;
	d = malloc(cap ? cap : 1);
	if (!d) {
		rc = -ENOMEM;
		goto out;
	}
	n = fread(d, 1, cap, in);
	rc = n == cap ? put_data(c, name, 0100000 | (st.st_mode & 0777), d, n) : -EIO;
out:
	if (in)
		fclose(in);
	free(d);
	return rc;
}

/* The libraries ldd names for @bin. */
static int put_libs(struct cpio *c, const char *bin)
{
	char *argv[] = { "ldd", (char *)bin, NULL };
	char line[PATH_MAX + 64], lib[PATH_MAX];
	int fd = memfd_create("cgscale-ldd", MFD_CLOEXEC), rc;     /* no file at all */
	FILE *f;

	if (fd < 0)
		return -errno;
	rc = cgs_vm_exec(argv, fd, -1);
	lseek(fd, 0, SEEK_SET);
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	while (rc >= 0 && fgets(line, sizeof(line), f)) {
		char *arrow = strstr(line, "=> /");

		if (sscanf(arrow ? arrow + 3 : line, " %4095s", lib) == 1 && lib[0] == '/')
			rc = put_file(c, lib, lib);
	}
	fclose(f);
	return rc < 0 ? rc : 0;
}

static int put_tree(struct cpio *c, const char *dst, const char *src, int depth)
{
	DIR *d = opendir(src);
	struct dirent *e;
	int rc = d ? 0 : -errno;

	while (d && !rc && depth < 12 && (e = readdir(d))) {
		char s[PATH_MAX], t[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(s, sizeof(s), "%s/%s", src, e->d_name);
		snprintf(t, sizeof(t), "%s/%s", dst, e->d_name);
		if (stat(s, &st))
			continue;
		rc = S_ISDIR(st.st_mode) ? put_tree(c, t, s, depth + 1) :
		     S_ISREG(st.st_mode) ? put_file(c, t, s) : 0;
	}
	if (d)
		closedir(d);
	return rc;
}

/* The plain image beside it, as bin/cgscale-tasks, where this cgscale
 * has one: the tasks in the guest then run in it too. */
static int put_image(struct cpio *c)
{
	char img[PATH_MAX], why[PATH_MAX + 200];

	cgs_image_find(CGS_TASKS_PLAIN, img, sizeof(img), why, sizeof(why));
	return img[0] ? put_file(c, "bin/cgscale-tasks", img) : 0;
}

static int put_all(struct cpio *c, const char *self, const char *bb,
		   const struct cgs_vm_kernel *k, const char *modules,
		   char *const args[], int nargs)
{
	char *joined = NULL, *base;
	size_t n = 0;
	FILE *m = open_memstream(&joined, &n);
	int rc;

	if (!m)
		return -ENOMEM;
	for (int i = 0; i < nargs; i++)
		fprintf(m, "%s\n", args[i]);
	fclose(m);
	rc = put_data(c, "init", 0100755, init_sh, sizeof(init_sh) - 1);
	if (!rc)
		rc = put_hdr(c, "ab", 040755, 0);
	if (!rc)
		rc = put_data(c, "ab/args", 0100644, joined, n);
	free(joined);
	if (!rc)
		rc = put_file(c, "bin/busybox", bb);
	if (!rc)
		rc = put_file(c, "bin/cgscale", self);
	if (!rc)
		rc = put_image(c);
	if (!rc && k->config)
		rc = put_file(c, "ab/config", k->config);
	if (!rc)
		rc = put_libs(c, self);
	if (!rc)
		rc = put_libs(c, bb);
	if (!rc && modules) {
		base = strrchr(modules, '/');
		base = base && base[1] ? base + 1 : (char *)modules;
		char dst[PATH_MAX];

		snprintf(dst, sizeof(dst), "lib/modules/%s", base);
		rc = put_tree(c, dst, modules, 0);
	}
	if (!rc)
		rc = put_hdr(c, "TRAILER!!!", 0, 0);
	return rc;
}

/* busybox from PATH: a static one is best (busybox-static). */
static int find_busybox(char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *copy = strdup(path && *path ? path : "/usr/bin:/bin"), *save, *dir;
	int rc = -ENOENT;

	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && rc; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/busybox", dir);
		if (!access(out, X_OK))
			rc = 0;
	}
	free(copy);
	return rc;
}

int cgs_vm_initrd(const char *out, const char *self, const struct cgs_vm_kernel *k,
		  const char *modules, char *const args[], int nargs, char *err,
		  size_t errlen)
{
	struct cpio c = { 0 };
	char bb[PATH_MAX], name[NAME_MAX + 1];
	int rc, fd;

	if (find_busybox(bb, sizeof(bb)))
		return cgs_errf(err, errlen, -ENOENT, "no busybox in PATH: the guest's shell and tools; install busybox-static");
	/* a new file, never through a link or over what is there */
	rc = cgs_open_parent(out, name, sizeof(name));
	fd = rc < 0 ? rc : cgs_create_at(rc, name, O_WRONLY, 0600);
	if (rc >= 0)
		close(rc);
	errno = fd < 0 ? -fd : errno;
	c.f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!c.f) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return cgs_errf(err, errlen, rc, "%s: %s", out, strerror(-rc));
	}
	rc = put_all(&c, self, bb, k, modules, args, nargs);
	if (fclose(c.f) && !rc)
		rc = -EIO;
	if (rc)
		cgs_errf(err, errlen, rc, "the initramfs %s: %s", out, strerror(-rc));
	return rc;
}
