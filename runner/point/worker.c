/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker.c - start the worker of one group of tasks: a fork of the runner
 * that puts itself in a process group of its own, enters the group's
 * tmpfs and cgroup, finds the workload's statistics file from there, and
 * then execs the plain image (runner/image/), so that nothing of the
 * runner - its libraries, its heap - is in the address space the tasks
 * measure. Where there is no image, or it cannot be exec'ed, the tasks
 * run in this fork of the runner, and the group's record says why.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/freshtmp.h"
#include "lib/pdeath.h"
#include "runner/point/task.h"

bool cgs_image_carries(const struct cgs_workload *w, char *why, size_t len)
{
	for (size_t i = 0; i < w->nopts; i++) {
		enum cgs_opt_type ty = w->opts[i].type;

		if (ty == CGS_OPT_STRING || ty == CGS_OPT_STRLIST || ty == CGS_OPT_OPTSTR) {
			snprintf(why, len, "%s's option --%s is text, which the plain image is not given",
				 w->name, w->opts[i].name);
			return false;
		}
	}
	return true;
}

/* The workload's statistics file, found from the group's cgroup now, as
 * its tasks would find it: the plain image has no cgroup code. */
static void locate_stat(const struct cgs_point_tasks *pt)
{
	struct cgs_group_rec *g = &cgs_sh_groups(pt->sh)[pt->group];
	enum cgs_stat_file file;
	enum cgs_stat_target target;

	if (!pt->w->stat_file || !pt->locate)
		return;
	pt->w->stat_file(pt->ctx.opts, &file, &target);
	g->stat_file = (int)file;
	g->stat_target = (int)target;
	g->stat_rc = pt->locate(0, file, target, pt->ctx.cg, &g->stat,
				g->stat_err, sizeof(g->stat_err));
}

/* Exec the plain image with the shared memfd; returns only on failure,
 * with why in the group's record. */
static void exec_image(const struct cgs_point_tasks *pt)
{
	struct cgs_group_rec *g = &cgs_sh_groups(pt->sh)[pt->group];
	char fd[16], group[16];
	char *argv[] = { "cgs:worker", fd, group, NULL };
	int flags = fcntl(pt->sh->fd, F_GETFD);

	if (!pt->image) {
		snprintf(g->why, sizeof(g->why), "%s", pt->image_why ? pt->image_why : "no plain image");
		return;
	}
	snprintf(fd, sizeof(fd), "%d", pt->sh->fd);
	snprintf(group, sizeof(group), "%u", pt->group);
	if (flags < 0 || fcntl(pt->sh->fd, F_SETFD, flags & ~FD_CLOEXEC)) {
		snprintf(g->why, sizeof(g->why), "handing the shared memory to %s: %s",
			 pt->image, strerror(errno));
		return;
	}
	execv(pt->image, argv);
	snprintf(g->why, sizeof(g->why), "exec %s: %s", pt->image, strerror(errno));
	fcntl(pt->sh->fd, F_SETFD, flags);
}

pid_t cgs_worker_start(const struct cgs_point_tasks *pt)
{
	char msg[sizeof(cgs_sh_info(pt->sh)[0].msg)] = "";
	sigset_t none;
	pid_t pid = fork();
	int rc = 0, maps;

	if (pid)
		return pid < 0 ? -errno : pid;
	/* the worker: its own process group, so ^C reaches only the runner */
	setpgid(0, 0);
	cgs_die_with_parent(pt->runner);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_NAME, "cgs:worker");
	if (pt->fresh_tmp)
		rc = cgs_fresh_tmpfs_enter(pt->fresh_tmp, msg, sizeof(msg));
	if (!rc && pt->enter)
		rc = pt->enter(pt->enter_arg, pt->group, msg, sizeof(msg));
	if (rc)
		cgs_group_fail(pt, rc, msg);   /* the group's tasks never start */
	locate_stat(pt);
	exec_image(pt);
	maps = cgs_maps_count();
	cgs_sh_groups(pt->sh)[pt->group].maps = maps > 0 ? maps : 0;
	cgs_tasks_run(pt);
	_exit(0);
}
