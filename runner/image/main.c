/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - cgscale-tasks, the plain image: the program a point's worker
 * execs so that the address space its tasks measure holds the workloads,
 * the task code and the C library, and nothing of the runner (its
 * libraries, heap and state), as will-it-scale's does.
 *
 *   cgscale-tasks --abi      print the build's signature (the runner checks
 *                            it before it uses this file)
 *   cgscale-tasks FD GROUP   run group GROUP of the point in memfd FD
 *
 * The worker has already entered the group's tmpfs and cgroup and found
 * the workload's statistics file; everything else comes from the shared
 * memory the runner filled (runner/point/task.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "tests/workload.h"
#include "runner/point/task.h"

/* The point of group @group from the shared area @sh, into @pt; 0 or
 * -errno with why in @msg. */
static int rebuild(struct cgs_shared *sh, unsigned group, struct cgs_point_tasks *pt,
		   char *msg, size_t len)
{
	const struct cgs_image_spec *im = cgs_sh_image(sh);
	char abi[sizeof(im->abi)];
	void *opts = NULL;

	cgs_image_abi(abi, sizeof(abi));
	if (strcmp(abi, im->abi))
		return snprintf(msg, len, "cgscale-tasks is build %s, the runner %s", abi, im->abi), -EPROTO;
	pt->w = cgs_workload_find(im->workload);
	if (!pt->w || pt->w->opts_size != im->opts_size)
		return snprintf(msg, len, "cgscale-tasks has no workload %s of this build", im->workload), -ENOENT;
	if (im->opts_size && !(opts = malloc(im->opts_size)))
		return -ENOMEM;
	if (opts)
		memcpy(opts, (char *)sh + im->opts_off, im->opts_size);
	pt->ctx = (struct cgs_ctx){ .opts = opts, .tmpdir = im->tmpdir,
		.nr_tasks = im->nr_tasks, .threads = im->threads,
		.why = msg, .whylen = len };
	pt->sh = sh;
	pt->runner = im->runner;
	pt->group = group;
	return 0;
}

int main(int argc, char **argv)
{
	struct cgs_point_tasks pt = { 0 };
	struct cgs_shared *sh;
	char msg[sizeof(((struct cgs_task_info *)0)->msg)] = "", *end;
	long fd, group;
	int rc, maps;

	if (argc == 2 && !strcmp(argv[1], "--abi")) {
		cgs_image_abi(msg, sizeof(msg));
		return puts(msg) < 0 ? 1 : 0;
	}
	if (argc != 3 || (fd = strtol(argv[1], &end, 10)) < 0 || *end ||
	    (group = strtol(argv[2], &end, 10)) < 0 || *end) {
		fprintf(stderr, "cgscale-tasks: run by cgscale's workers only (usage: cgscale-tasks FD GROUP, or --abi)\n");
		return 2;
	}
	prctl(PR_SET_NAME, "cgs:worker");
	rc = cgs_shared_attach((int)fd, &sh);
	if (rc || (unsigned long)group >= sh->ngroups) {
		fprintf(stderr, "cgscale-tasks: no point's shared memory at fd %ld: %s\n",
			fd, strerror(rc ? -rc : EINVAL));
		return 2;
	}
	close((int)fd);
	pt.sh = sh;
	pt.group = (unsigned)group;
	rc = rebuild(sh, (unsigned)group, &pt, msg, sizeof(msg));
	if (rc)
		cgs_group_fail(&pt, rc, msg);
	maps = cgs_maps_count();
	cgs_sh_groups(sh)[group].maps = maps > 0 ? maps : 0;
	atomic_store(&cgs_sh_groups(sh)[group].plain, 1);
	/* prepare's state is this process's own: the runner's copy (which
	 * it recorded) stays in the runner */
	if (pt.w->prepare && (rc = pt.w->prepare(&pt.ctx)))
		cgs_group_fail(&pt, rc, msg);
	cgs_tasks_run(&pt);
	if (pt.w->prepare && pt.w->cleanup)
		pt.w->cleanup(&pt.ctx);
	free((void *)pt.ctx.opts);
	munmap(sh, sh->maplen);
	return 0;
}
