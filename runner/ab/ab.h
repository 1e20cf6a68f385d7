/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ab.h - the state of one `cgscale ab` (runner/cmd/ab.c, runner/ab/ab_run.c), shared with
 * what writes its records (runner/ab/ab_json.c: each boot's result with
 * the VM and the side, and ab.json).
 */
#ifndef CGS_CMD_AB_H
#define CGS_CMD_AB_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "lib/opt.h"
#include "runner/ab/vm.h"

#define TCG_WARNING "TCG figures are for checking the flow, never for benchmark numbers"

struct ab_cli {
	struct cgs_strlist kernel;
	int64_t boots, cpus, mem, timeout;
	char *topology, *cmdline, *modules, *output;
	int cgroup;
	bool aa;
};

struct ab_state {
	const struct ab_cli *cli;
	struct cgs_vm_spec spec;
	struct cgs_vm_kernel k[2];
	int outfd, logsfd, tmpfd;     /* -o, its logs/, and our folder in it; -1 none */
	char tmpname[64];             /* that folder's name: .ab-RRRRRRRRRRRR */
	char tmpdir[PATH_MAX - 256];  /* its path */
	char initrd[2][PATH_MAX];     /* in tmpdir */
	char self[PATH_MAX];
	struct json_object *summary, *boots;
	unsigned done[2], got[2], nth, total;
	bool badargs;                 /* a guest's run exited 2: its arguments */
	const char *name;
	double next_note;             /* seconds into the boot of the next line (no tty) */
	bool tty;
};

/* Each boot's record: the VM, each side (path, kind, cmdline, config). */
struct json_object *ab_vm_json(const struct ab_state *st);
struct json_object *ab_kernels_json(const struct ab_state *st);

/* The result block of the guest's reply @reply, with the VM and the boot
 * added, written to @out (PATH_MAX). 0, or -ENODATA when the guest sent
 * none. Where the guest's run fell back from what it was asked (its
 * environment.cgroup.note: a cgroup version or controller the guest
 * kernel lacks), the result goes to logs/ instead, @out says where, the
 * note is copied to @unmet and the return is -EPROTO. */
int ab_take_result(const struct ab_state *st, const char *reply, char *out,
		   const struct cgs_vm_kernel *k, unsigned idx, char *unmet, size_t ulen);

/* ab.json: the VM, the sides, every boot and how the run ended (@sig, 0
 * when not interrupted); then what is missing or never ran is said on
 * stderr. The number of boots asked for that have no result. */
unsigned ab_summary(struct ab_state *st, int sig);

/* runner/ab/ab_run.c: the output folders and the kernels, checked (-1 to
 * go on, else the exit status); every boot and the compare (the same);
 * the status of a SIGINT or SIGTERM that came while blocked, else
 * @status; and the state's files and folders removed, on every end. */
int ab_prepare(struct ab_state *st, int nargs, char **args);
int ab_run(struct ab_state *st);
int ab_pending_stop(int status);
void ab_state_free(struct ab_state *st);

/* --vm-cgroup's names, for the option table and the boots. */
extern const char *const ab_cgroups[];

#endif
