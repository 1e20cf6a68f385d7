/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * env.h - what the results record about the machine and its settings:
 * kernel (uname, cmdline, THP, ASLR, autogroup), machine (CPU model,
 * topology), the tmpdir's filesystem, and the CPU frequency governor,
 * which --governor may set for the run and restore after it.
 */
#ifndef CGS_ENV_H
#define CGS_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/core/topo.h"

struct json_object;

struct json_object *cgs_env_kernel(void);

/* Add to the kernel object @k its configuration (kernel.config), the THP
 * and khugepaged knobs, the vm.* sysctls (kernel.vm), the CPU
 * vulnerabilities, the cgroup mounts, and what of these was unreadable
 * (env_mm.c). @release: uname -r, for /boot/config-RELEASE. */
void cgs_env_kernel_mm(struct json_object *k, const char *release);
struct json_object *cgs_env_machine(const struct cgs_topo *topo);

/* The filesystem holding @path: type ("tmpfs") and mount options. */
int cgs_fs_of(const char *path, char *type, size_t tlen, char *opts,
	      size_t olen);

/*
 * The default --tmpdir: $TMPDIR when it is a tmpfs, else /dev/shm when it
 * is one, else $TMPDIR or /tmp with a warning in @note.
 */
void cgs_default_tmpdir(char *out, size_t len, char *note, size_t nlen);

/* The governor of every CPU that has cpufreq, saved to restore later. */
struct cgs_governor {
	unsigned n;
	char **path;        /* .../cpuN/cpufreq/scaling_governor */
	char **old;         /* what it was */
	char *requested;    /* --governor, or NULL */
	char *status;       /* what happened, for the results */
	bool changed;
};

/*
 * Read the governors and, when @want is not NULL, set them all to it.
 * With no cpufreq driver, says so in g->status and returns 0: the run
 * goes on. Returns -errno only when a write failed (restored already).
 */
int cgs_governor_apply(struct cgs_governor *g, const char *want);
void cgs_governor_restore(struct cgs_governor *g);
void cgs_governor_free(struct cgs_governor *g);
struct json_object *cgs_governor_json(const struct cgs_governor *g);

#endif
