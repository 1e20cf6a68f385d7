/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scope.c - the `--profile-scope` observer (scope.h). For `system` and
 * `cgroup`, when the tasks wait at the gate it opens one cpu-clock
 * sampling event per CPU (pid -1, or the cgroup's directory with
 * PERF_FLAG_PID_CGROUP), kernel callchains only, one ring each; enables
 * them at the sample that opens the measured window, drains them at every
 * sample and disables them at the window's last; writes the point's
 * profile_scope section and its lines in run's table. The --stat-reader
 * thread is found by its name (statread.c names it) among the runner's
 * threads; other threads are named by the ring's COMM records or /proc.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/irqsite.h"
#include "lib/json.h"
#include "lib/macros.h"
#include "lib/perf_ring.h"
#include "lib/util.h"
#include "runner/cgroups/cgrun.h"
#include "runner/observe/observer.h"
#include "runner/observe/profile/scope.h"

struct scope_opts {
	int scope;                    /* enum cgs_scope */
};

/* The run's: what is sampled, the symbols. */
struct scope_set {
	enum cgs_scope scope;
	uint64_t period_ns;
	size_t pages;                 /* ring data pages per CPU */
	int ncpu;                     /* possible CPUs */
	struct cgs_symtab ksyms;
};

struct scope_point {
	const struct scope_set *set;
	const struct cgs_cgview *cg;
	int64_t duration_ns;
	int *fd;
	struct cgs_perf_ring *ring;
	int nopen;                    /* CPUs sampled */
	struct cgs_scopecalc *calc;
	int reader_tid;
	bool enabled, done;
	int64_t t_open, t_close;
	char cgdir[PATH_MAX];
	char why[512];                /* not supported: why */
	char err[256];                /* failed while running */
	char comm[16];                /* comm_fn's answer */
};

static int perf_open(struct perf_event_attr *a, int pid, int cpu, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, flags | PERF_FLAG_FD_CLOEXEC);
}

static void attr_of(const struct scope_set *ss, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = ss->period_ns;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	a->exclude_callchain_user = 1;
	a->sample_max_stack = CGS_SCOPE_MAX_STACK;
	a->comm = 1;
	a->disabled = 1;
}

/* /proc/PID/task/TID/comm, for threads the ring named not. */
static const char *comm_fn(void *arg, int pid, int tid)
{
	struct scope_point *sp = arg;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	if (cgs_read_line(path, sp->comm, sizeof(sp->comm)))
		return NULL;
	return sp->comm;
}

/* The reader's thread among ours, by the name statread.c gives it. */
static int find_reader(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int tid = 0;

	while (d && (e = readdir(d)) && !tid) {
		char path[300], comm[32];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if (!cgs_read_line(path, comm, sizeof(comm)) &&
		    !strcmp(comm, CGS_SCOPE_READER_COMM))
			tid = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return tid;
}

static int open_all(struct scope_point *sp)
{
	int cgfd = -1, rc = 0;

	if (sp->set->scope == CGS_SCOPE_CGROUP) {
		cgfd = open(sp->cgdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cgfd < 0)
			return cgs_errf(sp->err, sizeof(sp->err), -errno, "opening %s: %s",
					sp->cgdir, strerror(errno));
	}
	for (int c = 0; !rc && c < sp->set->ncpu; c++) {
		struct perf_event_attr a;

		attr_of(sp->set, &a);
		sp->fd[c] = cgfd >= 0 ? perf_open(&a, cgfd, c, PERF_FLAG_PID_CGROUP)
				      : perf_open(&a, -1, c, 0);
		if (sp->fd[c] < 0 && (errno == ENODEV || errno == EINVAL) && c > 0)
			continue;          /* an offline CPU */
		if (sp->fd[c] < 0)
			rc = cgs_errf(sp->err, sizeof(sp->err), -errno,
				      "opening cpu-clock on CPU %d%s: %s", c,
				      cgfd >= 0 ? " for the cgroup" : "", strerror(errno));
		else if ((rc = cgs_perf_ring_map(&sp->ring[c], sp->fd[c], sp->set->pages)))
			cgs_errf(sp->err, sizeof(sp->err), rc, "mapping CPU %d's ring: %s", c,
				 strerror(-rc));
		else
			sp->nopen++;
	}
	if (cgfd >= 0)
		close(cgfd);
	return rc;
}

static int scope_ready(void *priv, unsigned ntasks, const int *pid, const int *tid,
		       char *msg, size_t len)
{
	struct scope_point *sp = priv;
	struct cgs_scope_ids ids = { tid, ntasks, getpid(), 0, &sp->set->ksyms,
				     comm_fn, sp };

	(void)msg;
	(void)len;
	if (sp->set->scope == CGS_SCOPE_CGROUP &&
	    cgs_scope_cgroup(pid[0], sp->cg, sp->cgdir, sizeof(sp->cgdir), sp->why,
			     sizeof(sp->why)))
		return 0;          /* the point runs; the section says why not */
	ids.reader_tid = sp->reader_tid = find_reader();
	sp->calc = cgs_scopecalc_new(&ids);
	sp->fd = malloc((size_t)sp->set->ncpu * sizeof(*sp->fd));
	sp->ring = calloc((size_t)sp->set->ncpu, sizeof(*sp->ring));
	if (!sp->calc || !sp->fd || !sp->ring) {
		snprintf(sp->err, sizeof(sp->err), "out of memory");
		return 0;
	}
	for (int c = 0; c < sp->set->ncpu; c++)
		sp->fd[c] = -1;
	open_all(sp);
	return 0;
}

static void on_record(const struct perf_event_header *h, void *arg)
{
	cgs_scopecalc_record(arg, h);
}

static void drain(struct scope_point *sp)
{
	for (int c = 0; sp->ring && c < sp->set->ncpu; c++)
		if (cgs_perf_ring_drain(&sp->ring[c], on_record, sp->calc) < 0 && !sp->err[0])
			snprintf(sp->err, sizeof(sp->err),
				 "CPU %d's ring held a malformed record; samples after it are missing", c);
}

static void set_enabled(struct scope_point *sp, bool on)
{
	for (int c = 0; c < sp->set->ncpu; c++)
		if (sp->fd[c] >= 0)
			ioctl(sp->fd[c], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
	sp->enabled = on;
}

static void scope_sample(void *priv, unsigned s, int64_t t_ns, enum res_phase ph,
			 bool window_start)
{
	struct scope_point *sp = priv;

	(void)s;
	if (!sp->nopen || sp->err[0] || sp->done)
		return;
	if (sp->enabled && ph == RES_PHASE_MEASURE && t_ns - sp->t_open >= sp->duration_ns) {
		set_enabled(sp, false);
		sp->t_close = t_ns;
		sp->done = true;
	}
	drain(sp);
	if (window_start && !sp->enabled && !sp->done) {
		sp->t_open = t_ns;
		set_enabled(sp, true);
	}
}

static void scope_write(void *priv, struct res_point *p)
{
	struct scope_point *sp = priv;
	struct json_object *o = json_object_new_object();
	bool ok = p->status == RES_OK;
	const char *err = sp->err[0] ? sp->err : NULL;

	if (sp->enabled) {
		set_enabled(sp, false);
		sp->t_close = 0;          /* the window did not end */
	}
	if (sp->nopen)
		drain(sp);
	if (!err && !sp->why[0] && !sp->t_close)
		err = "the measured window did not complete";
	cgs_jadd(o, "scope", json_object_new_string(cgs_scope_names[sp->set->scope]));
	cgs_jadd(o, "event", json_object_new_string("cpu-clock"));
	cgs_jadd(o, "period_ns", json_object_new_uint64(sp->set->period_ns));
	cgs_jadd(o, "supported", json_object_new_boolean(!sp->why[0]));
	cgs_jadd(o, "reason", sp->why[0] ? json_object_new_string(sp->why) : NULL);
	if (sp->set->scope == CGS_SCOPE_CGROUP && !sp->why[0])
		cgs_jadd(o, "cgroup", json_object_new_string(sp->cgdir));
	cgs_jadd(o, "cpus", json_object_new_int(sp->nopen));
	cgs_jadd(o, "reader_tid", sp->reader_tid ? json_object_new_int(sp->reader_tid) : NULL);
	if (!sp->why[0] && !err && sp->calc) {
		struct json_object *fig = cgs_scopecalc_json(sp->calc, ok ? p->sum.ops : 0,
							     sp->t_close - sp->t_open, sp->nopen);

		cgs_jadd(o, "elapsed_s", cgs_jnum((double)(sp->t_close - sp->t_open) / 1e9));
		json_object_object_foreach(fig, k, v)
			cgs_jadd(o, k, cgs_jref(v));
		json_object_put(fig);
	}
	cgs_jadd(o, "error", err ? json_object_new_string(err) : NULL);
	if (!p->extra)
		p->extra = json_object_new_object();
	json_object_object_add(p->extra, "profile_scope", o);
}

static void scope_free(void *priv)
{
	struct scope_point *sp = priv;

	if (!sp)
		return;
	for (int c = 0; sp->fd && sp->ring && c < sp->set->ncpu; c++) {
		cgs_perf_ring_unmap(&sp->ring[c]);
		if (sp->fd[c] >= 0)
			close(sp->fd[c]);
	}
	free(sp->fd);
	free(sp->ring);
	cgs_scopecalc_free(sp->calc);
	free(sp);
}

static int scope_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		     void **priv)
{
	struct scope_point *sp = calloc(1, sizeof(*sp));

	if (!sp)
		return -ENOMEM;
	sp->set = ctx->state;
	sp->cg = pt->cg;
	sp->duration_ns = ctx->env->o->duration_ns;
	*priv = sp;
	return 0;
}

/* system or cgroup: may we sample every CPU? Bad input when not. */
static int scope_check(struct cgs_obs_ctx *ctx, char *err, size_t errlen)
{
	const struct scope_opts *o = ctx->opts;
	struct scope_set *ss;
	struct perf_event_attr a;
	double need;
	int fd;

	if (o->scope == CGS_SCOPE_TASKS)
		return 0;
	ss = calloc(1, sizeof(*ss));
	if (!ss)
		return -ENOMEM;
	ctx->state = ss;
	ss->scope = (enum cgs_scope)o->scope;
	ss->period_ns = 1000000000ULL / CGS_SCOPE_HZ;
	ss->ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	/* about 512 bytes a sample, twice the samples of one interval */
	need = CGS_SCOPE_HZ * ((double)ctx->env->o->interval_ns / 1e9) * 512 * 2 / 4096;
	for (ss->pages = 8; ss->pages < need && ss->pages < 1024; ss->pages *= 2)
		;
	attr_of(ss, &a);
	fd = perf_open(&a, -1, 0, 0);
	if (fd < 0)
		return cgs_errf(err, errlen, -errno,
				"--profile-scope %s: cannot sample CPU 0 with cpu-clock: %s%s",
				cgs_scope_names[o->scope], strerror(errno),
				errno == EACCES || errno == EPERM
				? "; sampling every CPU needs root, CAP_PERFMON or sysctl kernel.perf_event_paranoid=0 (or leave --profile-scope out)" : "");
	close(fd);
	return 0;
}

static void scope_prepare(struct cgs_obs_ctx *ctx)
{
	struct scope_set *ss = ctx->state;
	int rc;

	if (!ss)
		return;
	rc = cgs_symtab_load_kallsyms(&ss->ksyms, getenv("CGSCALE_KALLSYMS") ?
				      getenv("CGSCALE_KALLSYMS") : "/proc/kallsyms");
	if (rc || ss->ksyms.hidden)
		cgs_warn("--profile-scope: no kernel symbols (%s): frames stay addresses and softirqs are told by ksoftirqd only",
			 rc ? strerror(-rc) : "kallsyms shows only zero addresses");
}

static void scope_run_free(struct cgs_obs_ctx *ctx)
{
	struct scope_set *ss = ctx->state;

	if (ss)
		cgs_symtab_free(&ss->ksyms);
	free(ss);
	ctx->state = NULL;
}

static bool scope_wanted(const struct cgs_obs_ctx *ctx)
{
	return ctx->state != NULL;
}

/* ---- table lines ---- */

/* Each who whose samples are skewed (lib/irqsite.h): its warning. */
static void skew_lines(struct json_object *const *sec, unsigned n, FILE *out)
{
	for (int w = 0; w < CGS_WHO_N; w++) {
		struct json_object *sk[64];
		char path[64], msg[1024];

		snprintf(path, sizeof(path), "who.%s.skew", cgs_who_names[w]);
		for (unsigned r = 0; r < n && r < 64; r++)
			sk[r] = cgs_jpath(sec[r], path);
		if (!cgs_skew_warning(sk, n < 64 ? n : 64, msg, sizeof(msg)))
			fprintf(out, "    %s: %s\n", cgs_who_names[w], msg);
	}
}

/* The top @n of list @k of who @w in run @sec, as "name 12.3". */
static void print_top(struct json_object *sec, const char *w, const char *k,
		      unsigned n, FILE *out)
{
	char path[64];
	struct json_object *a;

	snprintf(path, sizeof(path), "who.%s.%s", w, k);
	a = cgs_jpath(sec, path);
	for (size_t i = 0, k = 0; a && i < json_object_array_length(a) && k < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		const char *name = json_object_get_string(cgs_jpath(e, "name"));

		/* the system call entry is under every call: it says nothing */
		if (!strncmp(name, "entry_SYSCALL", 13) || !strcmp(name, "do_syscall_64") ||
		    !strcmp(name, "x64_sys_call"))
			continue;
		fprintf(out, "%s %s %.1f", k++ ? "," : "", name, cgs_jpath_num(e, "ns_per_op"));
	}
}

/* Each who's ns/op (the mean over the runs), then where the stat reader
 * and the others spent theirs (the first run's top functions). */
static void print_runs(struct json_object *const *sec, unsigned n, FILE *out)
{
	if (!json_object_get_boolean(cgs_jpath(sec[0], "supported"))) {
		fprintf(out, "  who: %s scope <not supported> (%s)\n",
			json_object_get_string(cgs_jpath(sec[0], "scope")),
			json_object_get_string(cgs_jpath(sec[0], "reason")));
		return;
	}
	if (cgs_jpath(sec[0], "error")) {
		fprintf(out, "  who: %s\n", json_object_get_string(cgs_jpath(sec[0], "error")));
		return;
	}
	fprintf(out, "  who (%s, cpu-clock every %.0f us, %d CPUs), ns/op:",
		json_object_get_string(cgs_jpath(sec[0], "scope")), cgs_jpath_num(sec[0], "period_ns") / 1e3,
		(int)cgs_jpath_num(sec[0], "cpus"));
	for (int w = 0; w < CGS_WHO_N; w++) {
		char path[64];
		double v = 0;

		snprintf(path, sizeof(path), "who.%s.ns_per_op", cgs_who_names[w]);
		for (unsigned r = 0; r < n; r++)
			v += cgs_jpath_num(sec[r], path) / n;
		fprintf(out, "%s %s %.1f", w ? "," : "", cgs_who_names[w], v);
	}
	fprintf(out, "%s\n", n > 1 ? " (mean of the runs)" : "");
	skew_lines(sec, n, out);
	if (cgs_jpath_num(sec[0], "who.stat_reader.samples") > 0) {
		fprintf(out, "    stat_reader, children ns/op:");
		print_top(sec[0], "stat_reader", "top_children", 4, out);
		fprintf(out, "\n");
	}
	if (cgs_jpath_num(sec[0], "who.others.samples") > 0) {
		struct json_object *a = cgs_jpath(sec[0], "others_by_comm");

		fprintf(out, "    others by comm, ns/op:");
		for (size_t i = 0; a && i < json_object_array_length(a) && i < 4; i++)
			fprintf(out, "%s %s %.1f", i ? "," : "",
				json_object_get_string(cgs_jpath(json_object_array_get_idx(a, i), "comm")),
				cgs_jpath_num(json_object_array_get_idx(a, i), "ns_per_op"));
		fprintf(out, "\n");
	}
}

static void scope_rows(const struct res_file *f, const char *test, const char *mode,
		       unsigned tasks, const char *layout, FILE *out)
{
	struct json_object *sec[64];
	unsigned n = 0;

	n = cgs_obs_sections(f, "profile_scope", test, mode, tasks, layout, sec, 64);
	if (n)
		print_runs(sec, n, out);
}

static const struct cgs_opt scope_optdefs[] = {
	OPT_ENUM("profile-scope", 0, struct scope_opts, scope, .def = "tasks",
		 .choices = cgs_scope_names, .metavar = "WHICH",
		 .help = "who the profile covers: tasks (--profile's measured tasks); system: also sample every CPU (cpu-clock, 997 Hz) and give the CPU time per op to who ran (the tasks, the --stat-reader, kworkers, kswapd, softirqs, others); cgroup: the same within the run's cgroups (needs them in the perf_event hierarchy)"),
};

const struct cgs_obs_def profile_scope_observer = {
	.name = "profile scope",
	.opts = scope_optdefs,
	.nopts = ARRAY_SIZE(scope_optdefs),
	.opts_size = sizeof(struct scope_opts),
	.opts_after = "cpustat-interval",
	.check = scope_check,
	.prepare = scope_prepare,
	.run_free = scope_run_free,
	.wanted = scope_wanted,
	.new = scope_new,
	.free = scope_free,
	.ready = scope_ready,
	.sample = scope_sample,
	.write = scope_write,
	.table_rows = scope_rows,
};
