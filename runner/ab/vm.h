/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm.h - the VM plumbing of `cgscale ab`: a kernel to boot (a bzImage, an
 * ELF vmlinux or a Debian linux-image package, checked before any boot),
 * its initramfs (busybox, this cgscale and its libraries, an init that
 * runs `cgscale run` and sends the result on the second serial port), and
 * one bounded qemu boot whose process is ours alone to kill.
 */
#ifndef CGS_VM_H
#define CGS_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>

struct json_object;

struct cgs_vm_kernel {
	char label[16];       /* "A" */
	char *path;           /* as given */
	char *image;          /* what qemu boots (inside tmpdir for a .deb) */
	char *config;         /* its .config, or NULL when none was found */
	char *cmdline;        /* this side's command line (cmdline=), or NULL */
	const char *kind;     /* "bzImage", "ELF vmlinux", "Debian package" */
	char *tmpdir;         /* the unpacked package; removed by close */
};

/* "A=PATH[,config=FILE][,cmdline=ARGS]" into @k (cmdline= last: it
 * may hold commas): the file is opened and checked (bzImage
 * header and size, ELF header and segments), a .deb unpacked with
 * dpkg-deb -x into a temporary directory. 0, or -EINVAL/-ENOENT with a
 * one-line message naming the problem and the fix. */
int cgs_vm_kernel_open(struct cgs_vm_kernel *k, const char *spec, char *err,
		       size_t errlen);
void cgs_vm_kernel_close(struct cgs_vm_kernel *k);

/* 1 when @a and @b boot the same image (the same file, or the same
 * bytes) with the same command line of their own: an A/A. */
int cgs_vm_same_boot(const struct cgs_vm_kernel *a, const struct cgs_vm_kernel *b);

/* Run @argv (argv[0] looked up in PATH) with stdin from /dev/null and
 * stdout to @out_fd (-1: /dev/null), stderr to @err_fd (-1: /dev/null),
 * no signal blocked; its exit status, or -errno when it could not be
 * started, or -EINTR when SIGINT or SIGTERM came (blocked, pending) while
 * it ran: then it is ended (SIGTERM) and reaped first. */
int cgs_vm_exec(char *const argv[], int out_fd, int err_fd);

/* Write the initramfs for @k into @out: busybox, @self (this cgscale),
 * the libraries both need, the init, @k's config, the modules of
 * @modules (NULL: none) under /lib/modules, and @args, the arguments of
 * `cgscale run`, one per line. 0 or -errno with @err. */
int cgs_vm_initrd(const char *out, const char *self, const struct cgs_vm_kernel *k,
		  const char *modules, char *const args[], int nargs, char *err,
		  size_t errlen);

/* The machine every boot gets. */
struct cgs_vm_spec {
	int64_t cpus;             /* -smp cpus (from the topology when given) */
	int64_t mem;              /* bytes */
	const char *topology;     /* "pack:2 numa:1 core:2 pu:1", or NULL */
	const char *cgroup;       /* "v2" or "v1" */
	const char *cmdline;      /* more kernel arguments, or NULL */
	int64_t timeout_ns;       /* of one boot */
	bool kvm;                 /* else TCG */
	/* parsed from topology */
	unsigned sockets, nodes_per_socket, cores, threads;
};

/* KVM when /dev/kvm can be opened and the CPU shows vmx or svm. */
bool cgs_vm_can_kvm(void);

/* Check and parse s->topology against s->cpus; 0 or -EINVAL with @err. */
int cgs_vm_topology(struct cgs_vm_spec *s, char *err, size_t errlen);

/* How a boot ended. */
enum cgs_vm_end { CGS_VM_OK, CGS_VM_NORESULT, CGS_VM_TIMEOUT, CGS_VM_QEMU,
		  CGS_VM_SIGNAL, CGS_VM_ENDED, CGS_VM_UNMET };
extern const char *const cgs_vm_end_names[];

/* What the caller shows while a boot runs (on a terminal). */
typedef void (*cgs_vm_progress)(void *arg, double elapsed_s, const char *last_line);

/*
 * Boot @k with @initrd on @s: the console into @console, the guest's
 * reply (ttyS1) into @reply. Waits at most s->timeout_ns; SIGINT/SIGTERM
 * must be blocked by the caller and end the boot (CGS_VM_SIGNAL, with the
 * signal in *@signo). The qemu process is killed when it outlives the
 * boot, and waited for. 0 with *@end set, or -errno.
 */
int cgs_vm_boot(const struct cgs_vm_spec *s, const struct cgs_vm_kernel *k,
		const char *initrd, const char *console, const char *reply,
		cgs_vm_progress progress, void *arg, enum cgs_vm_end *end,
		int *signo);

/* The qemu arguments of @s (into @argv, at most @max; strings in @buf of
 * @blen): how many, or -E2BIG. */
int cgs_vm_qemu_args(const struct cgs_vm_spec *s, const struct cgs_vm_kernel *k,
		     const char *initrd, const char *console, const char *reply,
		     char **argv, int max, char *buf, size_t blen);

/* The last @n non-empty lines of @path, joined by newlines, into @buf:
 * each as a terminal shows it (after its last '\r'), and the first
 * "Kernel panic - not syncing" line first when the tail left it out. */
void cgs_vm_tail(const char *path, unsigned n, char *buf, size_t len);

/* The result the guest sent in its reply file @path, between "=== result"
 * and the next "=== " line (the result is one line of any length), parsed;
 * NULL when there is none or it does not parse. */
struct json_object *cgs_vm_reply_result(const char *path);

/* The exit status of the guest's run in the reply @path ("rc: N"), or
 * -1 when it sent none. */
int cgs_vm_reply_rc(const char *path);

#endif
