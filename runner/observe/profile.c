/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.c - the sampled profile of each point (profile.h): the run-wide
 * set-up (rate, event, permissions, symbols) and the per-point observer
 * that opens one sampling event per task, drains the ring buffers at the
 * sample instants and turns each sample's callchain into a folded stack.
 */
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#ifdef __x86_64__
#include <asm/perf_regs.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/folded.h"
#include "lib/perf_ring.h"
#include "lib/util.h"
#include "runner/point/point.h"
#include "runner/observe/profile.h"

static int perf_open(struct perf_event_attr *a, pid_t pid)
{
	return (int)syscall(SYS_perf_event_open, a, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* The rate: "" the default, else 1..perf_event_max_sample_rate. */
static int parse_rate(struct cgs_profile_set *ps, const char *arg, char *err,
		      size_t errlen)
{
	char line[64];
	int64_t max = 0;
	char *end;

	ps->hz = CGS_PROFILE_DEFAULT_HZ;
	if (*arg) {
		errno = 0;
		ps->hz = strtoll(arg, &end, 10);
		if (errno || *end || ps->hz < 1)
			return cgs_errf(err, errlen, -EINVAL,
					"--profile=%s: the rate must be a whole number of Hz >= 1, e.g. --profile=997",
					arg);
	}
	if (!cgs_read_line("/proc/sys/kernel/perf_event_max_sample_rate", line,
			   sizeof(line)))
		max = strtoll(line, NULL, 10);
	if (max > 0 && ps->hz > max)
		return cgs_errf(err, errlen, -EINVAL,
				"--profile=%" PRId64 ": above kernel.perf_event_max_sample_rate (%" PRId64
				"); give a rate <= %" PRId64 " or raise the sysctl",
				ps->hz, max, max);
	return 0;
}

/* Open the event on the runner itself: does it work with @a? */
static int probe(struct perf_event_attr *a)
{
	int fd = perf_open(a, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* Can @a sample here, in kernel mode too or else in user mode only? */
static int probe_modes(struct perf_event_attr *a, bool *user_only)
{
	int rc = probe(a);

	*user_only = false;
	if (rc != -EACCES && rc != -EPERM)
		return rc;
	a->exclude_kernel = 1;
	a->exclude_callchain_kernel = 1;
	rc = probe(a);
	if (!rc)
		*user_only = true;
	return rc;
}

/* cycles where there is a PMU, else cpu-clock; kernel mode where allowed. */
static int pick_event(struct cgs_profile_set *ps, char *err, size_t errlen)
{
	struct perf_event_attr *a = &ps->attr;
	char par[32] = "?";
	int rc;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_CPU_CYCLES;
	a->freq = 1;
	a->sample_freq = (uint64_t)ps->hz;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
#ifdef __x86_64__
	/* the user IP from the registers saved at kernel entry, not a walk
	 * of the user stack: cheaper per sample, and the only user frame
	 * kept anyway */
	a->sample_type |= PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = 1ULL << PERF_REG_X86_IP;
	a->exclude_callchain_user = 1;
#endif
	a->disabled = 1;
	ps->event = "cycles";
	rc = probe_modes(a, &ps->user_only);
	if (rc == -ENOENT || rc == -EOPNOTSUPP || rc == -ENODEV) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->exclude_kernel = a->exclude_callchain_kernel = 0;
		ps->event = "cpu-clock";
		rc = probe_modes(a, &ps->user_only);
	}
	if (rc)
		return cgs_errf(err, errlen, rc, "--profile: cannot sample %s here: %s%s",
				ps->event, strerror(-rc),
				rc == -EINVAL ? " (is the rate above kernel.perf_event_max_sample_rate?)" :
				rc == -EACCES ? "; run as root, give CAP_PERFMON or sysctl kernel.perf_event_paranoid=1" : "");
	if (ps->user_only) {
		cgs_read_line("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par));
		ps->note = cgs_fmt("perf_event_paranoid is %s and cgscale is not root: kernel samples are not allowed, so the profile is of user mode only; for kernel frames run as root, give CAP_PERFMON or sysctl kernel.perf_event_paranoid=1",
				   par);
	}
	return 0;
}

static int main_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uint64_t *)arg = info->dlpi_addr;   /* the first is the program */
	return 1;
}

/* Kernel symbols, said once when hidden; our own functions. */
static void load_symbols(struct cgs_profile_set *ps)
{
	uint64_t bias = 0;
	int rc;

	/* CGSCALE_KALLSYMS: another kallsyms file, for tests of the
	 * hidden-address path on a machine that shows them */
	const char *ks = getenv("CGSCALE_KALLSYMS") ? getenv("CGSCALE_KALLSYMS") : "/proc/kallsyms";

	if (!ps->user_only) {
		rc = cgs_symtab_load_kallsyms(&ps->ksyms, ks);
		if (rc)
			cgs_warn("--profile: cannot read %s (%s): kernel frames stay raw addresses",
				 ks, strerror(-rc));
		else if (ps->ksyms.hidden)
			cgs_warn("--profile: %s shows only zero addresses (kptr_restrict, not root): kernel frames stay raw addresses; run as root or sysctl kernel.kptr_restrict=0",
				 ks);
	}
	dl_iterate_phdr(main_bias, &bias);
	rc = cgs_symtab_load_elf(&ps->usyms, "/proc/self/exe", bias);
	if (rc)
		cgs_warn("--profile: cannot read cgscale's own symbols (%s): its frames show as [user]",
			 strerror(-rc));
}

int cgs_profile_setup(struct cgs_profile_set *ps, const char *arg,
		      int64_t interval_ns, char *err, size_t errlen)
{
	double need;
	int rc;

	memset(ps, 0, sizeof(*ps));
	if (!arg)
		return 0;
	rc = parse_rate(ps, arg, err, errlen);
	if (!rc)
		rc = pick_event(ps, err, errlen);
	if (rc)
		return rc;
	ps->on = true;
	/* about 768 bytes a sample, twice the samples of one interval */
	need = (double)ps->hz * ((double)interval_ns / 1e9) * 768 * 2 / 4096;
	for (ps->pages = 8; ps->pages < need && ps->pages < 1024; ps->pages *= 2)
		;
	return 0;
}

void cgs_profile_prepare(struct cgs_profile_set *ps)
{
	if (!ps->on)
		return;
	if (ps->note)
		cgs_warn("%s", ps->note);
	load_symbols(ps);
}

void cgs_profile_set_free(struct cgs_profile_set *ps)
{
	cgs_symtab_free(&ps->ksyms);
	cgs_symtab_free(&ps->usyms);
	free(ps->note);
	memset(ps, 0, sizeof(*ps));
}

/* ---- one point ---- */

struct cgs_profile_point {
	const struct cgs_profile_set *set;
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

struct cgs_profile_point *cgs_profile_point_new(const struct cgs_profile_set *ps,
						bool threads, int64_t duration_ns)
{
	struct cgs_profile_point *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return NULL;
	pp->set = ps;
	pp->threads = threads;
	pp->duration_ns = duration_ns;
	return pp;
}

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

void cgs_profile_point_free(struct cgs_profile_point *pp)
{
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

/* The name of a kernel or user frame into @buf. */
static const char *frame_name(const struct cgs_profile_set *ps, uint64_t ip,
			      bool kernel, char *buf, size_t len)
{
	const char *n = cgs_symtab_lookup(kernel ? &ps->ksyms : &ps->usyms, ip);

	if (n)
		return n;
	if (!kernel)
		return "[user]";
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
		const char *n = frame_name(pp->set, uip, false, buf, sizeof(buf));

		push(stack, sizeof(stack), &used, n);
		if (!pp->err && !cgs_stacks_find(&pp->user, n))
			pp->err = cgs_stacks_add(&pp->user, n, 0);
	}
	for (unsigned k = nk; k-- > 0;)
		push(stack, sizeof(stack), &used,
		     frame_name(pp->set, kips[k], true, buf, sizeof(buf)));
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

void cgs_profile_point_observer(struct cgs_profile_point *pp,
				struct cgs_observer *o)
{
	*o = (struct cgs_observer){
		.name = "profile",
		.priv = pp,
		.ready = prof_ready,
		.sample = prof_sample,
		.finish = prof_finish,
	};
}
