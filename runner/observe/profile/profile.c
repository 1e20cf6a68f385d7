/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.c - the sampled profile observer (--profile[=HZ], profile.h):
 * for each point one sampling event per task, the ring buffers drained at
 * the sample instants, each sample's callchain turned into a folded
 * stack. The run-wide set-up is profile_set.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/folded.h"
#include "lib/perf_ring.h"
#include "lib/util.h"
#include "lib/macros.h"
#include "runner/observe/observer.h"
#include "runner/observe/profile/profile.h"

static int perf_open(struct perf_event_attr *a, pid_t pid)
{
	return (int)syscall(SYS_perf_event_open, a, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* ---- one point ---- */

struct cgs_profile_point {
	struct cgs_profile_set *set;   /* the run's; its user symbols this point's */
	bool threads;
	int64_t duration_ns;
	unsigned ntasks;
	int *fd;
	struct cgs_perf_ring *ring;
	bool enabled, done;
	int64_t t_open;            /* t_ns of the sample that opened the window */
	struct cgs_profile_counts c;
	struct cgs_stacks stacks;  /* folded stack -> samples */
	struct cgs_stacks user;    /* the frame names that are user code */
	char *failure;
	int err;                   /* first error adding a stack */
};

static void point_close(struct cgs_profile_point *pp)
{
	for (unsigned i = 0; pp->fd && i < pp->ntasks; i++) {
		cgs_perf_ring_unmap(&pp->ring[i]);
		if (pp->fd[i] >= 0)
			close(pp->fd[i]);
	}
	free(pp->fd);
	free(pp->ring);
	pp->fd = NULL;
	pp->ring = NULL;
	pp->ntasks = 0;
}

static void prof_free(void *priv)
{
	struct cgs_profile_point *pp = priv;

	if (!pp)
		return;
	point_close(pp);
	cgs_stacks_free(&pp->stacks);
	cgs_stacks_free(&pp->user);
	free(pp->failure);
	free(pp);
}

static int prof_ready(void *priv, unsigned ntasks, const int *pid,
		      const int *tid, char *msg, size_t len)
{
	struct cgs_profile_point *pp = priv;

	point_close(pp);
	pp->fd = malloc((ntasks + 1) * sizeof(*pp->fd));
	pp->ring = calloc(ntasks + 1, sizeof(*pp->ring));
	if (!pp->fd || !pp->ring) {
		snprintf(msg, len, "out of memory for %u tasks' profiles", ntasks);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < ntasks; i++)
		pp->fd[i] = -1;
	pp->ntasks = ntasks;
	if (ntasks && cgs_profile_task_symbols(pp->set, pid[0]))
		cgs_warn("--profile: no symbols read from task pid %d's address space: its frames show as [user]",
			 pid[0]);
	for (unsigned i = 0; i < ntasks; i++) {
		struct perf_event_attr a = pp->set->attr;
		int target = pp->threads ? tid[i] : pid[i], rc;

		pp->fd[i] = perf_open(&a, target);
		rc = pp->fd[i] < 0 ? -errno
		     : cgs_perf_ring_map(&pp->ring[i], pp->fd[i], pp->set->pages);
		if (rc) {
			snprintf(msg, len, "task %u (%s %d): cannot %s the %s sampling event: %s",
				 i, pp->threads ? "tid" : "pid", target,
				 pp->fd[i] < 0 ? "open" : "map", pp->set->event,
				 strerror(-rc));
			return rc;
		}
	}
	return 0;
}

#define MAX_DEPTH 128

const char *cgs_profile_frame_name(const struct cgs_profile_set *ps, uint64_t ip,
				   bool kernel, char *buf, size_t len)
{
	const char *n = cgs_symtab_lookup(kernel ? &ps->ksyms : &ps->usyms, ip);

	if (n)
		return n;
	if (!kernel)   /* perf's names: the vDSO's static helpers have no symbol */
		return ip >= ps->vdso_lo && ip < ps->vdso_hi ? "[vdso]" : "[user]";
	snprintf(buf, len, "0x%" PRIx64, ip);
	return buf;
}

/* Append @name to the stack being built (root first). */
static void push(char *stack, size_t len, size_t *used, const char *name)
{
	int w = snprintf(stack + *used, len - *used, "%s%s", *used ? ";" : "",
			 name);

	if (w > 0 && (size_t)w < len - *used)
		*used += (size_t)w;
}

/*
 * One PERF_RECORD_SAMPLE (ip, pid/tid, callchain[, regs_user]): the user
 * frame first (only the IP the task was at, from the saved user registers
 * on x86-64, else the callchain's first user entry: cgscale is built
 * without frame pointers, so deeper user frames cannot be trusted), then
 * the kernel frames from the entry point down to the leaf.
 */
static void on_sample(struct cgs_profile_point *pp,
		      const struct perf_event_header *h)
{
	const uint64_t *w = (const uint64_t *)(h + 1);
	const uint64_t *end = (const uint64_t *)((const char *)h + h->size);
	uint64_t kips[MAX_DEPTH], uip = 0, nr;
	unsigned nk = 0;
	bool kernel_ctx = false, have_user = false;
	char stack[8192], buf[32];
	size_t used = 0;
	int ctx_user = 0;

	if (w + 3 > end)
		return;
	nr = w[2];
	w += 3;
	for (uint64_t k = 0; k < nr && w + k < end; k++) {
		uint64_t ip = w[k];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel_ctx = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			ctx_user += ip == (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		if (kernel_ctx && nk < MAX_DEPTH)
			kips[nk++] = ip;
		else if (!kernel_ctx && ctx_user && !have_user) {
			uip = ip;
			have_user = true;
		}
	}
	if ((pp->set->attr.sample_type & PERF_SAMPLE_REGS_USER) && nr < (uint64_t)(end - w) &&
	    w + nr + 2 <= end && w[nr] != PERF_SAMPLE_REGS_ABI_NONE) {
		uip = w[nr + 1];     /* regs_user: abi, then the IP */
		have_user = true;
	}
	pp->c.received++;
	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
		pp->c.kernel++;
	else
		pp->c.user++;
	if (have_user) {
		const char *n = cgs_profile_frame_name(pp->set, uip, false, buf, sizeof(buf));

		push(stack, sizeof(stack), &used, n);
		if (!pp->err && !cgs_stacks_find(&pp->user, n))
			pp->err = cgs_stacks_add(&pp->user, n, 0);
	}
	for (unsigned k = nk; k-- > 0;)
		push(stack, sizeof(stack), &used,
		     cgs_profile_frame_name(pp->set, kips[k], true, buf, sizeof(buf)));
	if (!used)
		push(stack, sizeof(stack), &used, "[unknown]");
	if (!pp->err)
		pp->err = cgs_stacks_add(&pp->stacks, stack, 1);
}

static void on_record(const struct perf_event_header *h, void *arg)
{
	struct cgs_profile_point *pp = arg;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(pp, h);
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16)
			pp->c.lost += ((const uint64_t *)(h + 1))[1];
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= sizeof(*h) + 8)
			pp->c.lost += ((const uint64_t *)(h + 1))[0];
		break;
	case PERF_RECORD_THROTTLE:
		pp->c.throttled++;
		break;
	default:
		break;
	}
}

static void drain_all(struct cgs_profile_point *pp)
{
	for (unsigned i = 0; i < pp->ntasks; i++)
		if (cgs_perf_ring_drain(&pp->ring[i], on_record, pp) < 0 &&
		    !pp->failure)
			pp->failure = cgs_fmt("task %u: the ring buffer held a malformed record; samples after it are missing",
					      i);
}

static void set_enabled(struct cgs_profile_point *pp, bool on)
{
	for (unsigned i = 0; i < pp->ntasks; i++)
		if (ioctl(pp->fd[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) &&
		    !pp->failure)
			pp->failure = cgs_fmt("task %u: cannot %s its sampling event: %s",
					      i, on ? "enable" : "disable", strerror(errno));
	pp->enabled = on;
}

/* Drain at every instant; enable when the window opens, disable at its
 * last sample (duration after the opening one). */
static void prof_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
			bool window_start)
{
	struct cgs_profile_point *pp = priv;

	(void)s;
	if (!pp->fd || pp->done)
		return;
	if (pp->enabled && ph == RES_PHASE_MEASURE &&
	    t_ns - pp->t_open >= pp->duration_ns) {
		set_enabled(pp, false);
		pp->done = true;
	}
	drain_all(pp);
	if (window_start && !pp->enabled && !pp->done) {
		pp->t_open = t_ns;
		set_enabled(pp, true);
	}
}

static void prof_finish(void *priv, struct res_point *p)
{
	struct cgs_profile_point *pp = priv;
	struct json_object *sec;

	if (!pp->fd && !pp->failure)
		pp->failure = cgs_fmt("nothing was sampled: the point ended before its tasks were ready");
	if (pp->fd && pp->enabled)
		set_enabled(pp, false);
	if (pp->fd)
		drain_all(pp);
	if (pp->err && !pp->failure)
		pp->failure = cgs_fmt("adding stacks: %s", strerror(-pp->err));
	sec = cgs_profile_json(pp->set, &pp->c, &pp->stacks, &pp->user,
			       pp->failure ? pp->failure
			       : !pp->done && pp->fd ? "the measured window did not end; the profile covers part of it"
			       : NULL);
	if (sec && !p->extra)
		p->extra = json_object_new_object();
	if (sec && p->extra)
		json_object_object_add(p->extra, "profile", sec);
	else
		json_object_put(sec);
	point_close(pp);
}

struct prof_opts {
	char *hz;                     /* --profile[=HZ]: NULL off */
};

/* --profile[=HZ]: the rate the kernel allows, what may be sampled. */
static int prof_check(struct cgs_obs_ctx *ctx, char *err, size_t errlen)
{
	const struct prof_opts *o = ctx->opts;

	ctx->state = calloc(1, sizeof(struct cgs_profile_set));
	if (!ctx->state)
		return -ENOMEM;
	return cgs_profile_setup(ctx->state, o->hz, ctx->env->o->interval_ns, err,
				 errlen);
}

/* What --profile would sample here: cycles, or cpu-clock and its skew. */
static int prof_supported(char *why, size_t len)
{
	struct cgs_profile_set ps;
	char err[300];
	int rc = cgs_profile_setup(&ps, "", 1000000000, err, sizeof(err));

	if (rc) {
		snprintf(why, len, "%s", err);
		cgs_profile_set_free(&ps);
		return -EOPNOTSUPP;
	}
	if (strcmp(ps.event, "cycles") || ps.user_only)
		snprintf(why, len, "%s%s%s", strcmp(ps.event, "cycles") ? "sampled by cpu-clock "
			 "(no hardware PMU): samples skew toward interrupt-enable sites, which "
			 "profile.skew measures" : "sampled by cycles",
			 ps.user_only ? "; user mode only: " : "", ps.user_only ? ps.note : "");
	cgs_profile_set_free(&ps);
	return 0;
}

static void prof_prepare(struct cgs_obs_ctx *ctx)
{
	if (ctx->state)
		cgs_profile_prepare(ctx->state);
}

static void prof_run_free(struct cgs_obs_ctx *ctx)
{
	if (ctx->state)
		cgs_profile_set_free(ctx->state);
	free(ctx->state);
	ctx->state = NULL;
}

static bool prof_wanted(const struct cgs_obs_ctx *ctx)
{
	const struct cgs_profile_set *ps = ctx->state;

	return ps && ps->on;
}

static int prof_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		    void **priv)
{
	struct cgs_profile_point *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return -ENOMEM;
	pp->set = ctx->state;
	pp->threads = pt->threads;
	pp->duration_ns = ctx->env->o->duration_ns;
	*priv = pp;
	return 0;
}

static const struct cgs_opt prof_optdefs[] = {
	OPT_OPTSTR("profile", 0, struct prof_opts, hz, .metavar = "HZ",
		.help = "sample the tasks' kernel and user stacks in the measured window, HZ a second (default 397; cycles, else cpu-clock): per-symbol self/children % and folded stacks per point"),
};

const struct cgs_obs_def profile_observer = {
	.name = "profile",
	.opts = prof_optdefs,
	.nopts = ARRAY_SIZE(prof_optdefs),
	.opts_size = sizeof(struct prof_opts),
	.opts_after = "cpustat-interval",
	.before_cgroup = true,
	.check = prof_check,
	.supported = prof_supported,
	.prepare = prof_prepare,
	.run_free = prof_run_free,
	.wanted = prof_wanted,
	.new = prof_new,
	.free = prof_free,
	.ready = prof_ready,
	.sample = prof_sample,
	.write = prof_finish,
	.table_rows = cgs_profile_print_rows,
};
