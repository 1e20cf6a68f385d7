/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stat_read - read a cgroup statistics file whole, in a loop: the read
 * side of the memcg stats trade-off (a memory.stat read flushes the
 * pending per-CPU updates of the whole subtree it covers, rstat).
 *
 * Each task opens its cgroup's file, preads it from offset 0 until end of
 * file into a buffer, and closes it. One op = one complete read. The aux
 * counter counts the bytes read.
 * Knobs: --stat-file (memory.stat, cgroup.stat, cpu.stat,
 * memory.numa_stat), --stat-target (leaf: the task's own cgroup; top:
 * level 1 of the cgroups cgscale made, whose file covers the subtree;
 * parent: the cgroup they were made in). Without cgroups of our own
 * (--cgroup-depth 0), every target is the tasks' own cgroup.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/macros.h"
#include "tests/workload.h"

struct sr_opts {
	int file;      /* enum cgs_stat_file */
	int target;    /* enum cgs_stat_target */
};

struct sr_task {
	struct cgs_stat_where where;
	char *buf;
	size_t cap;
};

static const struct cgs_opt sr_optdefs[] = {
	OPT_ENUM("stat-file", 0, struct sr_opts, file, .def = "memory.stat",
		.choices = cgs_stat_file_names,
		.help = "the statistics file each task reads"),
	OPT_ENUM("stat-target", 0, struct sr_opts, target, .def = "leaf",
		.choices = cgs_stat_target_names,
		.help = "whose file: the task's cgroup, level 1 of cgscale's cgroups (covers the subtree), or their parent"),
};

static const struct cgs_aux sr_aux[] = {
	{ "bytes", "kB/s", 1e-3 },
};

static int sr_setup(struct cgs_task *t)
{
	const struct sr_opts *o = t->ctx->opts;
	struct sr_task *st = calloc(1, sizeof(*st));
	char err[512];
	ssize_t n;
	int rc;

	if (!st)
		return cgs_task_fail(t, -ENOMEM, "stat_read state");
	t->priv = st;
	rc = cgs_task_stat_locate(t, (enum cgs_stat_file)o->file,
				  (enum cgs_stat_target)o->target, &st->where,
				  err, sizeof(err));
	if (rc) {
		/* a file this system does not have: skipped, not failed */
		cgs_task_fail(t, 0, "--stat-file %s", err);
		return rc == -ENODEV || rc == -ENOENT ? -EOPNOTSUPP : rc;
	}
	n = cgs_stat_read(st->where.path, &st->buf, &st->cap);
	if (n < 0)
		return cgs_task_fail(t, (int)n, "reading %s", st->where.path);
	return 0;
}

static void sr_teardown(struct cgs_task *t)
{
	struct sr_task *st = t->priv;

	if (st)
		free(st->buf);
	free(st);
}

static int sr_loop(struct cgs_task *t)
{
	struct sr_task *st = t->priv;

	while (!cgs_stop(t)) {
		ssize_t n = cgs_stat_read(st->where.path, &st->buf, &st->cap);

		if (n < 0)
			return cgs_task_fail(t, (int)n, "reading %s", st->where.path);
		cgs_aux_add(t, 0, (uint64_t)n);
		cgs_add(t, 1);
	}
	return 0;
}

/* For its observer (extra.stat_read): the file and target of its knobs. */
static void sr_stat_file(const void *opts, enum cgs_stat_file *file,
			 enum cgs_stat_target *target)
{
	const struct sr_opts *o = opts;

	*file = (enum cgs_stat_file)o->file;
	*target = (enum cgs_stat_target)o->target;
}

/* Whether cgroup controller @c is enabled (/proc/cgroups' last column). */
static bool sr_controller(const char *c)
{
	char line[256], name[64];
	int hier, num, on;
	bool yes = false;
	FILE *f = fopen("/proc/cgroups", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %d %d %d", name, &hier, &num, &on) == 4 && !strcmp(name, c))
			yes = on == 1;
	if (f)
		fclose(f);
	return yes;
}

/* memory.stat and memory.numa_stat need the memory controller; cgroup.stat
 * and cpu.stat are files of every v2 cgroup (cpu.stat of v1's cpu). */
static int sr_supported(const void *opts, char *why, size_t len)
{
	const struct sr_opts *o = opts;
	const char *file = cgs_stat_file_names[o->file];

	if ((o->file == CGS_SF_MEMORY_STAT || o->file == CGS_SF_NUMA_STAT) &&
	    !sr_controller("memory")) {
		snprintf(why, len, "%s needs the memory controller, which this kernel does not "
			 "enable (/proc/cgroups; booted cgroup_disable=memory?)", file);
		return -EOPNOTSUPP;
	}
	return 0;
}

const struct cgs_workload stat_read_workload = {
	.name = "stat_read",
	.desc = "Read a cgroup statistics file whole (memory.stat flushes rstat)",
	.unit = "complete read",
	.aux = sr_aux,
	.naux = ARRAY_SIZE(sr_aux),
	.opts = sr_optdefs,
	.nopts = ARRAY_SIZE(sr_optdefs),
	.opts_size = sizeof(struct sr_opts),
	.setup = sr_setup,
	.loop = sr_loop,
	.teardown = sr_teardown,
	.observer = "stat_read",
	.stat_file = sr_stat_file,
	.supported = sr_supported,
};
