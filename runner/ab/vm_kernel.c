/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm_kernel.c - the kernels `cgscale ab` boots:
 * "A=PATH[,config=FILE][,cmdline=ARGS]",
 * PATH a bzImage (its boot-protocol header and the size it declares), an
 * ELF vmlinux (its header and that every loadable segment is in the
 * file) or a Debian linux-image package (unpacked with dpkg-deb -x, its
 * vmlinuz and config taken). A kernel that cannot boot is refused here,
 * before the first boot. The config is the one given, the package's, or
 * config-VERSION / .config found beside the image. cmdline= is the
 * side's own kernel command line (after ab's --cmdline): the last part,
 * since kernel arguments may hold commas (isolcpus=1,2).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/pdeath.h"
#include "lib/sigstop.h"
#include "lib/util.h"
#include "runner/ab/vm.h"


int cgs_vm_exec(char *const argv[], int out_fd, int err_fd)
{
	const struct timespec step = { 0, 20 * 1000 * 1000 };
	pid_t parent = getpid(), pid;
	sigset_t none;
	int status;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		cgs_die_with_parent(parent);
		/* the helper ends on the signals that end ab, not inheriting
		 * ab's block of them */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(nul, 0);
		dup2(out_fd >= 0 ? out_fd : nul, 1);
		dup2(err_fd >= 0 ? err_fd : nul, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (cgs_stop_pending()) {     /* ours, by its pid: ended and reaped */
			kill(pid, SIGTERM);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return -EINTR;
		}
		nanosleep(&step, NULL);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The bzImage at @fd (@size bytes): 0 when whole, else -EINVAL. */
static int check_bzimage(int fd, off_t size, const char *path, char *err, size_t errlen)
{
	unsigned char h[0x260];
	unsigned setup;
	uint32_t syssize;

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return cgs_errf(err, errlen, -EINVAL, "%s: too short for a bzImage (%lld bytes); give a whole arch/x86/boot/bzImage, a vmlinux or a linux-image .deb",
				path, (long long)size);
	setup = h[0x1f1] ? h[0x1f1] : 4;
	memcpy(&syssize, h + 0x1f4, 4);
	if ((off_t)(setup + 1) * 512 + (off_t)syssize * 16 > size)
		return cgs_errf(err, errlen, -EINVAL, "%s: truncated bzImage: its header declares %lld bytes, the file has %lld; copy it again",
				path, (long long)(setup + 1) * 512 + (long long)syssize * 16,
				(long long)size);
	return 0;
}

/* The ELF vmlinux at @fd: 0 when its PT_LOAD segments are in the file. */
static int check_elf(int fd, off_t size, const char *path, char *err, size_t errlen)
{
	Elf64_Ehdr e;

	if (pread(fd, &e, sizeof(e), 0) != (ssize_t)sizeof(e) || e.e_ident[EI_CLASS] != ELFCLASS64 ||
	    e.e_machine != EM_X86_64 || e.e_phentsize != sizeof(Elf64_Phdr) || !e.e_phnum)
		return cgs_errf(err, errlen, -EINVAL, "%s: not an x86-64 ELF vmlinux with program headers; give the vmlinux of an x86_64 build, or its bzImage",
				path);
	for (unsigned i = 0; i < e.e_phnum; i++) {
		Elf64_Phdr p;

		if (pread(fd, &p, sizeof(p), (off_t)(e.e_phoff + i * sizeof(p))) != (ssize_t)sizeof(p))
			return cgs_errf(err, errlen, -EINVAL, "%s: truncated ELF (program headers cut); copy it again", path);
		if (p.p_type == PT_LOAD && (off_t)(p.p_offset + p.p_filesz) > size)
			return cgs_errf(err, errlen, -EINVAL, "%s: truncated ELF vmlinux: a segment ends at byte %llu, the file has %lld; copy it again",
					path, (unsigned long long)(p.p_offset + p.p_filesz), (long long)size);
	}
	return 0;
}

/* The first match of @pat, malloc'd, or NULL. */
static char *glob_one(const char *pat)
{
	glob_t g;
	char *r = NULL;

	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc)
		r = strdup(g.gl_pathv[0]);
	globfree(&g);
	return r;
}

static int unpack_deb(struct cgs_vm_kernel *k, char *err, size_t errlen)
{
	char tmpl[] = "/tmp/cgscale-ab-kernel.XXXXXX", pat[PATH_MAX];
	char *argv[] = { "dpkg-deb", "-x", k->path, tmpl, NULL };
	int rc;

	if (!mkdtemp(tmpl))
		return cgs_errf(err, errlen, -errno, "cannot create a directory in /tmp: %s", strerror(errno));
	k->tmpdir = strdup(tmpl);
	rc = cgs_vm_exec(argv, -1, -1);
	if (rc == -EINTR)
		return cgs_errf(err, errlen, rc, "%s: the unpacking was interrupted", k->path);
	if (rc)
		return cgs_errf(err, errlen, -EINVAL, "%s: %s; is it a whole linux-image .deb? (dpkg-deb is in the package dpkg)",
				k->path, rc < 0 ? "dpkg-deb cannot be run" : "dpkg-deb -x failed");
	snprintf(pat, sizeof(pat), "%s/boot/vmlinuz-*", tmpl);
	k->image = glob_one(pat);
	if (!k->image)
		return cgs_errf(err, errlen, -EINVAL, "%s: the package holds no boot/vmlinuz-*; give a linux-image package", k->path);
	snprintf(pat, sizeof(pat), "%s/boot/config-*", tmpl);
	if (!k->config)
		k->config = glob_one(pat);
	k->kind = "Debian package";
	return 0;
}

/* config-VERSION beside vmlinuz-VERSION, else .config beside the image or
 * three levels up (arch/x86/boot/bzImage in a build tree). */
static char *config_beside(const char *image)
{
	char *copy = strdup(image), *dir, *base, path[PATH_MAX * 2];
	const char *const up[] = { ".config", "../../../.config" };
	char *r = NULL;

	if (!copy)
		return NULL;
	dir = dirname(copy);
	base = strrchr(image, '/') ? strrchr(image, '/') + 1 : (char *)image;
	if (!strncmp(base, "vmlinuz-", 8) || !strncmp(base, "vmlinux-", 8)) {
		snprintf(path, sizeof(path), "%s/config-%s", dir, base + 8);
		if (!access(path, R_OK))
			r = strdup(path);
	}
	for (size_t i = 0; !r && i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, up[i]);
		if (!access(path, R_OK))
			r = strdup(path);
	}
	free(copy);
	return r;
}

#define LABEL_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-."

static int parse_spec(struct cgs_vm_kernel *k, const char *spec, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '='), *comma, *cmd;

	memset(k, 0, sizeof(*k));
	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(k->label) || !eq[1])
		return cgs_errf(err, errlen, -EINVAL, "--kernel '%s': give LABEL=PATH[,config=FILE][,cmdline=ARGS], e.g. A=arch/x86/boot/bzImage", spec);
	snprintf(k->label, sizeof(k->label), "%.*s", (int)(eq - spec), spec);
	/* the label names a directory and files under -o: a name, never a
	 * path (no '/', no "..", no leading dot or dash) */
	if (strspn(k->label, LABEL_CHARS) != strlen(k->label) || k->label[0] == '.' ||
	    k->label[0] == '-')
		return cgs_errf(err, errlen, -EINVAL, "--kernel '%.*s=...': the label names the results' folder under -o, so it takes only letters, digits, '_', '-' and '.' (not first), e.g. A or v6.18-rc1",
				(int)(eq - spec), spec);
	cmd = strstr(eq + 1, ",cmdline=");
	if (cmd && !cmd[9])
		return cgs_errf(err, errlen, -EINVAL, "--kernel '%s': cmdline= gives no argument; give e.g. cmdline=init_on_free=1, or leave it out", spec);
	k->cmdline = cmd ? strdup(cmd + 9) : NULL;
	comma = strstr(eq + 1, ",config=");
	if (comma && cmd && comma > cmd)
		comma = NULL;          /* inside the command line */
	k->path = strndup(eq + 1, (size_t)((comma ? comma : cmd ? cmd : eq + 1 + strlen(eq + 1)) - eq - 1));
	if (comma)
		k->config = strndup(comma + 8, (size_t)((cmd ? cmd : comma + strlen(comma)) - comma - 8));
	if (!k->path || !*k->path || (comma && (!k->config || !*k->config)))
		return cgs_errf(err, errlen, -EINVAL, "--kernel '%s': %s names no file", spec,
				k->path && *k->path ? "config=" : "the path");
	if (k->config && access(k->config, R_OK))
		return cgs_errf(err, errlen, -ENOENT, "--kernel %s: config %s: %s", k->label, k->config, strerror(errno));
	return 0;
}

int cgs_vm_kernel_open(struct cgs_vm_kernel *k, const char *spec, char *err, size_t errlen)
{
	unsigned char m[8] = { 0 }, hdrs[4] = { 0 };
	struct stat st;
	int fd, rc = parse_spec(k, spec, err, errlen);

	if (rc)
		return rc;
	/* O_NONBLOCK: a FIFO with no writer must not hang the open (with
	 * the signals that end the run blocked); only a regular file is read */
	fd = open(k->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		return cgs_errf(err, errlen, -ENOENT, "--kernel %s: %s: %s", k->label, k->path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		rc = cgs_errf(err, errlen, -EINVAL, "--kernel %s: %s is not a regular file; give a bzImage, a vmlinux or a linux-image .deb", k->label, k->path);
	else if (!st.st_size)
		rc = cgs_errf(err, errlen, -EINVAL, "--kernel %s: %s is empty; give a bzImage, a vmlinux or a linux-image .deb", k->label, k->path);
	else if (pread(fd, m, 8, 0) == 8 && !memcmp(m, "!<arch>\n", 8))
		rc = unpack_deb(k, err, errlen);
	else if (!memcmp(m, ELFMAG, SELFMAG))
		rc = check_elf(fd, st.st_size, k->path, err, errlen);
	else if (pread(fd, hdrs, 4, 0x202) == 4 && !memcmp(hdrs, "HdrS", 4))
		rc = check_bzimage(fd, st.st_size, k->path, err, errlen);
	else
		rc = cgs_errf(err, errlen, -EINVAL, "--kernel %s: %s is neither a bzImage (no HdrS header), an ELF vmlinux nor a .deb; give arch/x86/boot/bzImage or vmlinux",
			      k->label, k->path);
	close(fd);
	if (rc || k->image)
		return rc;
	k->kind = !memcmp(m, ELFMAG, SELFMAG) ? "ELF vmlinux" : "bzImage";
	k->image = strdup(k->path);
	if (!k->config)
		k->config = config_beside(k->path);
	return k->image ? 0 : -ENOMEM;
}

/* 1 when the files @a and @b are the same file or hold the same bytes. */
static int same_bytes(const char *a, const char *b)
{
	char x[65536], y[65536];
	struct stat sa, sb;
	int fa = -1, fb = -1, same = 0;
	ssize_t n;

	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
		return 1;
	if (sa.st_size != sb.st_size)
		return 0;
	fa = open(a, O_RDONLY | O_CLOEXEC);
	fb = open(b, O_RDONLY | O_CLOEXEC);
	if (fa < 0 || fb < 0)
		goto out;
	do {
		n = read(fa, x, sizeof(x));
		same = n >= 0 && read(fb, y, (size_t)(n > 0 ? n : 0)) == n && !memcmp(x, y, (size_t)(n > 0 ? n : 0));
	} while (same && n > 0);
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

int cgs_vm_same_boot(const struct cgs_vm_kernel *a, const struct cgs_vm_kernel *b)
{
	return !strcmp(a->cmdline ? a->cmdline : "", b->cmdline ? b->cmdline : "") &&
	       same_bytes(a->image, b->image);
}

void cgs_vm_kernel_close(struct cgs_vm_kernel *k)
{
	if (k->tmpdir) {
		char *argv[] = { "rm", "-rf", "--", k->tmpdir, NULL };

		cgs_vm_exec(argv, -1, -1);
	}
	free(k->tmpdir);
	free(k->path);
	free(k->image);
	free(k->config);
	free(k->cmdline);
	memset(k, 0, sizeof(*k));
}
