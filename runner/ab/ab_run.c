/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ab_run.c - what `cgscale ab` (runner/cmd/ab.c, the command) does: its
 * output folders, the A/A check, each boot of each kernel in ABBA order
 * with its result brought back (vm_boot.c, ab_json.c), the compare of the
 * sides at the end, and the state's cleanup on every end.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/exit.h"
#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/safedir.h"
#include "lib/util.h"
#include "runner/ab/ab.h"
#include "runner/ab/vm.h"

const char *const ab_cgroups[] = { "v2", "v1", NULL };

/* A boot's progress: on a terminal, one line rewritten in place; in a
 * log (CI), a line every AB_NOTE_S seconds, so a long boot is not silent. */
#define AB_NOTE_S 30

static void progress(void *arg, double elapsed, const char *last)
{
	struct ab_state *st = arg;

	if (st->tty)
		fprintf(stderr, "\r\033[K[ab] boot %u/%u %s: %.0fs of %.0fs | %.60s", st->nth,
			st->total, st->name, elapsed, (double)st->cli->timeout / 1e9, last);
	else if (elapsed >= st->next_note) {
		fprintf(stderr, "[ab] boot %u/%u %s: %.0fs of %.0fs | %.100s\n", st->nth, st->total,
			st->name, elapsed, (double)st->cli->timeout / 1e9, last);
		st->next_note += AB_NOTE_S;
	}
}

/* -o and the folders in it, made and kept open (lib/safedir.h): a
 * folder per kernel, logs/, and a fresh folder of our own (.ab-RR...)
 * where the initramfs, consoles and replies are written, so that a name
 * planted in -o (a link to elsewhere) is never written through. An exit
 * status or -1. */
static int ab_dirs(struct ab_state *st)
{
	const struct ab_cli *c = st->cli;
	int fd;

	st->outfd = cgs_open_dir(c->output, CGS_DIR_CREATE, 0755);
	if (st->outfd < 0)
		return cgs_errs("ab", "cannot create %s: %s", c->output, strerror(-st->outfd)),
		       CGS_EXIT_BADINPUT;
	for (int i = 0; i < 2; i++) {
		fd = cgs_mkdir_at(st->outfd, st->k[i].label, 0755, 0);
		if (fd < 0)
			return cgs_errs("ab", "cannot create %s/%s: %s", c->output, st->k[i].label,
					strerror(-fd)), CGS_EXIT_BADINPUT;
		close(fd);
		if (!st->k[i].config)
			cgs_errs("ab", "warning: no .config for kernel %s (%s): its results record kernel.config only if it has /proc/config.gz; pass --kernel %s=PATH,config=FILE",
				 st->k[i].label, st->k[i].path, st->k[i].label);
	}
	st->logsfd = cgs_mkdir_at(st->outfd, "logs", 0755, 0);
	if (st->logsfd < 0)
		return cgs_errs("ab", "cannot create %s/logs: %s", c->output, strerror(-st->logsfd)),
		       CGS_EXIT_BADINPUT;
	st->tmpfd = cgs_mkdtemp_at(st->outfd, ".ab-", st->tmpname, sizeof(st->tmpname));
	if (st->tmpfd < 0) {
		st->tmpname[0] = 0;
		return cgs_errs("ab", "cannot create a temporary folder in %s: %s", c->output,
				strerror(-st->tmpfd)), CGS_EXIT_FAIL;
	}
	snprintf(st->tmpdir, sizeof(st->tmpdir), "%s/%s", c->output, st->tmpname);
	return -1;
}

/* The same image with the same command line on both sides is an A/A
 * control: refused unless --aa asks for one (and --aa with two different
 * sides is refused too). -1 to go on, else the exit status. */
static int ab_aa_check(const struct ab_state *st)
{
	const struct cgs_vm_kernel *a = &st->k[0], *b = &st->k[1];
	bool same = cgs_vm_same_boot(a, b);

	if (same && !st->cli->aa)
		return cgs_errs("ab", "--kernel %s and --kernel %s boot the same image (%s, %s) with the same command line: an A/A control, which can find no kernel effect; give %s another image or its own cmdline=ARGS, or add --aa to run an A/A control",
				a->label, b->label, a->path, b->path, b->label), CGS_EXIT_BADINPUT;
	if (!same && st->cli->aa)
		return cgs_errs("ab", "--aa: --kernel %s and --kernel %s differ (image or cmdline=), so this is no A/A control; leave --aa out to compare them",
				a->label, b->label), CGS_EXIT_BADINPUT;
	return -1;
}

/* Whether the ab.json at @path is from an interrupted ab. */
static bool ab_json_interrupted(const char *path)
{
	struct json_object *root = json_object_from_file(path), *v = NULL;
	bool yes = root && json_object_object_get_ex(root, "interrupted", &v) && v;

	json_object_put(root);
	return yes;
}

/* Checks and preparations before the first boot; an exit status or -1. */
int ab_prepare(struct ab_state *st, int nargs, char **args)
{
	const struct ab_cli *c = st->cli;
	char err[1024] = "", path[PATH_MAX * 2];
	char *qv[] = { "qemu-system-x86_64", "--version", NULL };
	ssize_t n;
	int rc;

	if (c->kernel.n != 2)
		return cgs_errs("ab", "give two kernels: --kernel A=PATH --kernel B=PATH"), CGS_EXIT_BADINPUT;
	if (!c->output || !*c->output)
		return cgs_errs("ab", "-o DIR is required: where the results go"), CGS_EXIT_BADINPUT;
	if (!nargs)
		return cgs_errs("ab", "give the arguments of cgscale run after --, e.g. -- -t 1 -d 2 -r 2 page_fault1"), CGS_EXIT_BADINPUT;
	for (int i = 0; i < nargs; i++)
		if (!strcmp(args[i], "-o") || !strncmp(args[i], "--output", 8) ||
		    !strncmp(args[i], "--invocations", 13))
			return cgs_errs("ab", "RUN_ARGS: leave out %s: ab names each boot's result, and the boots are the invocations", args[i]),
			       CGS_EXIT_BADINPUT;
	st->spec = (struct cgs_vm_spec){ .cpus = c->cpus, .mem = c->mem, .topology = c->topology,
		.cgroup = ab_cgroups[c->cgroup], .cmdline = c->cmdline, .timeout_ns = c->timeout };
	if (cgs_vm_topology(&st->spec, err, sizeof(err)))
		return cgs_errs("ab", "%s", err), CGS_EXIT_BADINPUT;
	for (int i = 0; i < 2; i++)
		if (cgs_vm_kernel_open(&st->k[i], c->kernel.v[i], err, sizeof(err)))
			return cgs_errs("ab", "%s", err), CGS_EXIT_BADINPUT;
	if (!strcmp(st->k[0].label, st->k[1].label))
		return cgs_errs("ab", "--kernel: the two labels are both '%s'; name them A and B", st->k[0].label),
		       CGS_EXIT_BADINPUT;
	rc = ab_aa_check(st);
	if (rc >= 0)
		return rc;
	if (cgs_vm_exec(qv, -1, -1))
		return cgs_errs("ab", "qemu-system-x86_64 cannot be run; install the Debian package qemu-system-x86"),
		       CGS_EXIT_BADINPUT;
	n = readlink("/proc/self/exe", st->self, sizeof(st->self) - 1);
	if (n <= 0)
		return cgs_errs("ab", "cannot find this cgscale: %s", strerror(errno)), CGS_EXIT_FAIL;
	st->self[n] = 0;
	snprintf(path, sizeof(path), "%s/ab.json", c->output);
	if (!access(path, F_OK))
		return cgs_errs("ab", "%s exists: %s; give another -o DIR (the results there are kept)",
				path, ab_json_interrupted(path) ? "an interrupted ab is there, whose boots that ended kept their results" :
				"a finished ab is there"), CGS_EXIT_BADINPUT;
	rc = ab_dirs(st);
	if (rc >= 0)
		return rc;
	for (int i = 0; i < 2; i++) {
		snprintf(st->initrd[i], sizeof(st->initrd[i]), "%s/initrd-%s.cpio", st->tmpdir, st->k[i].label);
		if (cgs_vm_initrd(st->initrd[i], st->self, &st->k[i], c->modules, args, nargs, err, sizeof(err)))
			return cgs_errs("ab", "%s", err), CGS_EXIT_FAIL;
	}
	st->spec.kvm = cgs_vm_can_kvm();
	return -1;
}

/* Move @name@ext from our folder to logs/ when @keep (never over what
 * is there), else remove it. */
static void keep_log(const struct ab_state *st, const char *name, const char *ext, bool keep)
{
	char f[NAME_MAX + 1];
	int rc;

	snprintf(f, sizeof(f), "%s%s", name, ext);
	rc = keep ? cgs_move_at(st->tmpfd, f, st->logsfd, f) : -ENOENT;
	if (rc && rc != -ENOENT)  /* never over what is there (a planted link) */
		cgs_errs("ab", "warning: cannot keep %s in %s/logs: %s", f, st->cli->output,
			 strerror(-rc));
	if (rc)
		cgs_unlink_at(st->tmpfd, f, NULL);
}

/* A boot's status, result and why in its record @b, and on stderr. */
static void say_boot(struct json_object *b, const char *name, int rc, enum cgs_vm_end end,
		     const char *unmet, const char *con, const char *tail, const char *out)
{
	char status[1400];

	snprintf(status, sizeof(status), "%s%s%s", rc ? strerror(-rc) : cgs_vm_end_names[end],
		 unmet ? ": " : "", unmet ? unmet : "");
	json_object_object_add(b, "status", json_object_new_string(status));
	json_object_object_add(b, "result", end == CGS_VM_OK ? json_object_new_string(out) : NULL);
	if (end == CGS_VM_UNMET) {
		json_object_object_add(b, "kept", json_object_new_string(out));
		fprintf(stderr, "[ab] %s: %s; kept in %s, not compared (the guest kernel's config decides what it can give)\n",
			name, status, out);
	} else if (end != CGS_VM_OK) {
		json_object_object_add(b, "console_tail", json_object_new_string(tail));
		fprintf(stderr, "[ab] %s: %s; the last lines of its console (%s):\n%s\n", name, status, con, tail);
	} else {
		fprintf(stderr, "[ab] %s: %s in %.0fs\n", name, out,
			json_object_get_double(json_object_object_get(b, "seconds")));
	}
}

/* Boot kernel @side once; 0, or the signal that ended it. */
static int ab_boot(struct ab_state *st, int side)
{
	const struct cgs_vm_kernel *k = &st->k[side];
	unsigned idx = ++st->done[side];
	char name[64], con[PATH_MAX], reply[PATH_MAX], out[PATH_MAX], tail[4096], qlog[PATH_MAX + 8],
	     unmet[1100] = "";
	struct json_object *b = json_object_new_object();
	enum cgs_vm_end end = CGS_VM_QEMU;
	int64_t t0 = cgs_now_ns();
	int signo = 0, rc;

	snprintf(name, sizeof(name), "%s-%u", k->label, idx);
	st->name = name;
	st->next_note = AB_NOTE_S;
	snprintf(con, sizeof(con), "%s/%s.console", st->tmpdir, name);
	snprintf(reply, sizeof(reply), "%s/%s.reply", st->tmpdir, name);
	snprintf(out, sizeof(out), "%s/%s/%s.json", st->cli->output, k->label, name);
	fprintf(stderr, "[ab] boot %u/%u: %s (%s %s)\n", st->nth, st->total, name, k->kind, k->path);
	rc = cgs_vm_boot(&st->spec, k, st->initrd[side], con, reply, progress, st, &end, &signo);
	if (st->tty)
		fprintf(stderr, "\r\033[K");
	if (!rc && end == CGS_VM_OK) {
		int took = ab_take_result(st, reply, out, k, idx, unmet, sizeof(unmet));

		end = took == -EPROTO ? CGS_VM_UNMET : took ? CGS_VM_NORESULT : CGS_VM_OK;
		st->badargs = end == CGS_VM_NORESULT && cgs_vm_reply_rc(reply) == CGS_EXIT_BADINPUT;
	}
	st->got[side] += !rc && end == CGS_VM_OK;
	/* keep what came back when it is not a result, to see why */
	keep_log(st, name, ".reply", end == CGS_VM_NORESULT);
	snprintf(qlog, sizeof(qlog), "%s.qemu", con);
	cgs_vm_tail(qlog, 5, tail, sizeof(tail));
	keep_log(st, name, ".console.qemu", *tail);
	if (end != CGS_VM_OK)
		cgs_vm_tail(con, 12, tail, sizeof(tail));
	if (end != CGS_VM_OK && !*tail)     /* ab boots with 'quiet' */
		snprintf(tail, sizeof(tail), "(the console is empty: the kernel printed nothing that 'quiet' lets through; a hang before the console, or an image that does not start; add --cmdline loglevel=7 to see the boot)");
	keep_log(st, name, ".console", true);
	snprintf(con, sizeof(con), "%s/logs/%s.console", st->cli->output, name);
	json_object_object_add(b, "name", json_object_new_string(name));
	json_object_object_add(b, "kernel", json_object_new_string(k->label));
	json_object_object_add(b, "seconds", json_object_new_double((double)(cgs_now_ns() - t0) / 1e9));
	say_boot(b, name, rc, end, end == CGS_VM_UNMET ? unmet : NULL, con, tail, out);
	json_object_array_add(st->boots, b);
	return end == CGS_VM_SIGNAL ? signo : 0;
}

/* The boots, ABBA, then ab.json and the compare: the exit status. */
int ab_run(struct ab_state *st)
{
	char a[PATH_MAX], b[PATH_MAX];
	char *argv[] = { st->self, "compare", "--axis", "kernel", "--allow-env-diff", a, b, NULL };
	char *aa_argv[] = { st->self, "compare", "--allow-env-diff", a, b, NULL };
	int sig = 0, status = CGS_EXIT_FAIL;
	unsigned missing;

	st->total = 2 * (unsigned)st->cli->boots;
	if (st->cli->boots < 4)
		fprintf(stderr, "[ab] WARNING: --boots %lld: each boot is one invocation, and compare needs 4 a side to give a verdict (with %lld a side no p can be below 0.05): every row will be INCONCLUSIVE at best; use --boots 4 or more\n",
			(long long)st->cli->boots, (long long)st->cli->boots);
	if (!st->spec.kvm)
		fprintf(stderr, "[ab] WARNING: no KVM here (/dev/kvm and the vmx/svm CPU flags): the guests run under TCG, emulated; %s\n",
			TCG_WARNING);
	for (unsigned i = 0; i < st->total && !sig && !st->badargs; i++) {
		st->nth = i + 1;
		sig = ab_boot(st, (int)((i / 2) % 2 ? 1 - i % 2 : i % 2));
	}
	missing = ab_summary(st, sig);
	if (sig)
		return CGS_EXIT_SIGNAL(sig);
	if (st->badargs) {
		cgs_errs("ab", "the guest's run refused its arguments (exit 2; its console's last lines above say why): fix the options after --; no more boots were made");
		return CGS_EXIT_BADINPUT;
	}
	snprintf(a, sizeof(a), "%s/%s", st->cli->output, st->k[0].label);
	snprintf(b, sizeof(b), "%s/%s", st->cli->output, st->k[1].label);
	if (st->got[0] && st->got[1]) {
		if (st->cli->aa)
			fprintf(stderr, "[ab] an A/A control (--aa): the same image and command line on both sides, compared along no axis; any verdict but SAME is a false one\n");
		fflush(stdout);
		status = cgs_vm_exec(st->cli->aa ? aa_argv : argv, 1, 2);
	}
	else
		cgs_errs("ab", "no compare: kernel %s has no result; see the consoles in %s/logs",
			 st->k[st->got[0] ? 1 : 0].label, st->cli->output);
	if (status == -EINTR)
		return CGS_EXIT_SIGNAL(SIGINT);   /* cmd_ab says which */
	if (status < 0)
		status = CGS_EXIT_FAIL;
	/* a verdict over fewer boots than asked is said to CI too */
	if (!status && missing)
		status = CGS_EXIT_FAIL;
	if (!st->spec.kvm)
		fprintf(stderr, "[ab] WARNING: TCG: %s\n", TCG_WARNING);
	return status;
}

/* SIGINT or SIGTERM that came while they were blocked and no boot was
 * running to take it (an unpack, the initramfs, the compare): the run
 * ends with its status, not with a failure of what it interrupted. */
int ab_pending_stop(int status)
{
	const struct timespec now = { 0, 0 };
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sig = sigtimedwait(&set, NULL, &now);
	if (sig <= 0)
		return status;
	fprintf(stderr, "[ab] interrupted (%s)\n", strsignal(sig));
	return CGS_EXIT_SIGNAL(sig);
}

void ab_state_free(struct ab_state *st)
{
	for (int i = 0; i < 2; i++) {
		char f[NAME_MAX + 1];

		snprintf(f, sizeof(f), "initrd-%s.cpio", st->k[i].label);
		if (st->initrd[i][0])
			cgs_unlink_at(st->tmpfd, f, NULL);
		cgs_vm_kernel_close(&st->k[i]);
	}
	if (st->tmpname[0])
		cgs_rmdir_at(st->outfd, st->tmpname);
	if (st->tmpfd >= 0)
		close(st->tmpfd);
	if (st->logsfd >= 0)
		close(st->logsfd);
	if (st->outfd >= 0)
		close(st->outfd);
	json_object_put(st->summary);
	json_object_put(st->boots);
}
