/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * task_api.c - the part of the workload API (tests/workload.h) that the
 * runner implements for the tasks: failure messages, a task's temporary
 * file, the statistics file its worker found. Below task.c and partner.c,
 * which both use it; like them, C library only (the plain image has it).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/safedir.h"
#include "runner/point/task.h"

int cgs_task_fail(struct cgs_task *t, int err, const char *fmt, ...)
{
	struct cgs_rtask *rt = cgs_rtask_of(t);
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = vsnprintf(rt->msg, rt->msglen, fmt, ap);
	va_end(ap);
	if (err && n < rt->msglen)
		snprintf(rt->msg + n, rt->msglen - n, ": %s", strerror(-err));
	return err;
}

bool cgs_task_failed(struct cgs_task *t)
{
	return cgs_rtask_of(t)->msg[0] != 0;
}

int cgs_ctx_fail(struct cgs_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!ctx->why)
		return err;
	va_start(ap, fmt);
	n = vsnprintf(ctx->why, ctx->whylen, fmt, ap);
	va_end(ap);
	if (err && err != -EOPNOTSUPP && n < ctx->whylen)
		snprintf(ctx->why + n, ctx->whylen - n, ": %s", strerror(-err));
	return err;
}

int cgs_task_tmpfile(struct cgs_task *t, int64_t size)
{
	int dfd = open(t->ctx->tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	/* a file with no name at all (or a random O_EXCL name, removed) */
	if (dfd < 0)
		return cgs_task_fail(t, -errno, "opening %s", t->ctx->tmpdir);
	fd = cgs_anon_file_at(dfd, 0);
	close(dfd);
	if (fd < 0)
		return cgs_task_fail(t, fd, "creating a file in %s", t->ctx->tmpdir);
	if (size && ftruncate(fd, size)) {
		int err = -errno;

		close(fd);
		return cgs_task_fail(t, err, "sizing a file in %s to %lld bytes",
				     t->ctx->tmpdir, (long long)size);
	}
	return fd;
}

int cgs_task_stat_locate(struct cgs_task *t, enum cgs_stat_file file,
			 enum cgs_stat_target target,
			 struct cgs_stat_where *w, char *err, size_t errlen)
{
	const struct cgs_point_tasks *pt = cgs_rtask_of(t)->pt;
	const struct cgs_group_rec *g = &cgs_sh_groups(pt->sh)[pt->group];

	/* the worker found it from the group's cgroup (worker.c) */
	if (g->stat_file != (int)file || g->stat_target != (int)target) {
		snprintf(err, errlen, "not the file %s's stat_file hook names, which its worker found",
			 pt->w->name);
		return -EINVAL;
	}
	if (g->stat_rc) {
		snprintf(err, errlen, "%s", g->stat_err);
		return g->stat_rc;
	}
	*w = g->stat;
	return 0;
}
