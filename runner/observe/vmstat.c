/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmstat.c - the vmstat observer: /proc/vmstat read twice, at the sample
 * that opens the measured window and at the one that closes it, so its
 * deltas cover exactly the window of the point's summary and the sampler
 * reads it no more often at a short --interval. The keys that changed go into extra.vmstat with
 * their rates per second and per op, as LKP's proc-vmstat.* figures.
 * System-wide: other work on the machine counts too. On by default
 * (--no-vmstat). The observer of docs/extending.md's walk-through.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/macros.h"
#include "lib/procstat.h"
#include "lib/util.h"
#include "runner/observe/edges.h"
#include "runner/observe/observer.h"

struct vm_opts {
	bool off;                     /* --no-vmstat */
};

struct cgs_vmobs {
	int fd;
	struct cgs_vmstat at[2];      /* window start, window end */
	struct cgs_edges e;           /* when they were read */
	char buf[32768];
};

static int vm_read(void *obs, int which)
{
	struct cgs_vmobs *v = obs;
	ssize_t n;

	if (v->fd < 0)
		v->fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);
	if (v->fd < 0)
		return -errno;
	n = pread(v->fd, v->buf, sizeof(v->buf) - 1, 0);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	v->buf[n] = 0;
	return cgs_vmstat_parse(v->buf, &v->at[which]);
}

static void vm_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
		      bool window_start)
{
	struct cgs_vmobs *v = priv;

	(void)s;
	(void)ph;
	cgs_edges_sample(&v->e, window_start, t_ns, vm_read, v);
}

static void vm_window_end(void *priv, unsigned s, int64_t t_ns, enum res_phase ph)
{
	struct cgs_vmobs *v = priv;

	(void)s;
	cgs_edges_end(&v->e, ph, t_ns, vm_read, v);
}

/* The value of @name at the window's start; absent keys count as 0. */
static uint64_t vm_start(const struct cgs_vmobs *v, unsigned i)
{
	uint64_t x = 0;

	if (i < v->at[0].n && !strcmp(v->at[0].name[i], v->at[1].name[i]))
		return v->at[0].v[i];
	cgs_vmstat_get(&v->at[0], v->at[1].name[i], &x);
	return x;
}

static void vm_finish(void *priv, struct res_point *p)
{
	struct cgs_vmobs *v = priv;
	struct json_object *o = json_object_new_object(), *d, *ps, *po;
	bool ok = p->status == RES_OK;
	double el = cgs_edges_seconds(&v->e);
	uint64_t ops = ok ? p->sum.ops : 0;

	if (!p->extra)
		p->extra = json_object_new_object();
	cgs_jadd(o, "source", json_object_new_string("/proc/vmstat, system-wide"));
	if (!cgs_edges_both(&v->e)) {
		char why[160];

		snprintf(why, sizeof(why), v->e.err ? "reading /proc/vmstat: %s" :
			 "the point ended before its measured window opened%s",
			 v->e.err ? strerror(-v->e.err) : "");
		cgs_jadd(o, "error", json_object_new_string(why));
		json_object_object_add(p->extra, "vmstat", o);
		return;
	}
	cgs_jadd(o, "elapsed_s", cgs_jnum(el));
	cgs_jadd(o, "ops", ok ? json_object_new_uint64(ops) : NULL);
	d = json_object_new_object();
	ps = json_object_new_object();
	po = json_object_new_object();
	for (unsigned i = 0; i < v->at[1].n; i++) {
		int64_t delta = (int64_t)(v->at[1].v[i] - vm_start(v, i));

		if (!delta)
			continue;
		cgs_jadd(d, v->at[1].name[i], json_object_new_int64(delta));
		cgs_jadd(ps, v->at[1].name[i], cgs_jnum(el > 0 ? delta / el : NAN));
		cgs_jadd(po, v->at[1].name[i], ops ? cgs_jnum((double)delta / ops) : NULL);
	}
	cgs_jadd(o, "delta", d);
	cgs_jadd(o, "per_sec", ps);
	cgs_jadd(o, "per_op", po);
	json_object_object_add(p->extra, "vmstat", o);
}

static int vm_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		  void **priv)
{
	struct cgs_vmobs *v = calloc(1, sizeof(*v));

	(void)ctx;
	(void)pt;
	if (!v)
		return -ENOMEM;
	v->fd = -1;
	*priv = v;
	return 0;
}

static void vm_free(void *priv)
{
	struct cgs_vmobs *v = priv;

	if (!v)
		return;
	if (v->fd >= 0)
		close(v->fd);
	free(v);
}

static int vm_supported(char *why, size_t len)
{
	char line[128];
	int rc = cgs_read_line("/proc/vmstat", line, sizeof(line));

	if (rc)
		snprintf(why, len, "cannot read /proc/vmstat: %s", strerror(-rc));
	return rc ? -EOPNOTSUPP : 0;
}

/* On unless --no-vmstat. */
static bool vm_wanted(const struct cgs_obs_ctx *ctx)
{
	const struct vm_opts *o = ctx->opts;

	return !o->off;
}

static const struct cgs_opt vm_optdefs[] = {
	OPT_BOOL("no-vmstat", 0, struct vm_opts, off,
		.help = "do not record /proc/vmstat deltas over the measured window"),
};

const struct cgs_obs_def vmstat_observer = {
	.name = "vmstat",
	.opts = vm_optdefs,
	.nopts = ARRAY_SIZE(vm_optdefs),
	.opts_size = sizeof(struct vm_opts),
	.supported = vm_supported,
	.wanted = vm_wanted,
	.new = vm_new,
	.free = vm_free,
	.sample = vm_sample,
	.window_end = vm_window_end,
	.write = vm_finish,
};
