/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opts.c - the options of `cgscale run` (one typed table: parsing,
 * defaults, ranges, help and the echo into results; each observer's rows
 * are its own, shown among them, runner/observe/observer.h) and the checks of
 * everything the user gave, done before anything runs or is written:
 * tests, timing, task list, --tmpdir and the output path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/run/autoruns.h"
#include "runner/run/image.h"
#include "runner/cgroups/cgrun.h"
#include "runner/run/invoke.h"
#include "runner/point/point.h"
#include "runner/run/run.h"
#include "runner/core/sampler_cpu.h"
#include "runner/core/sched_prio.h"
#include "lib/macros.h"
#include "lib/outpath.h"
#include "lib/safedir.h"
#include "lib/safefile.h"
#include "lib/util.h"

const char *const cgs_mode_names[] = { "process", "thread", "both", NULL };

#define RO struct cgs_run_opts
#define HOUR (3600LL * 1000000000LL)
static const struct cgs_opt_key runs_keys[] = {
	{ "auto", CGS_RUNS_AUTO }, { NULL, 0 },
};
const struct cgs_opt cgs_run_optdefs[] = {
	OPT_STRING("tasks", 't', RO, tasks, .def = "1", .metavar = "LIST",
		.help = "task counts: N, 1,2,4, 1-8, 50% of the CPUs, all, or sweep"),
	OPT_ENUM("mode", 'm', RO, mode, .def = "both",
		.choices = cgs_mode_names,
		.help = "tasks as processes, threads, or both (reported apart)"),
	OPT_ENUM("placement", 0, RO, placement, .def = "cores",
		.choices = cgs_placement_names,
		.help = "where task i runs: core i (whole core), one PU each, spread over packages/NUMA nodes, or unbound"),
	OPT_DURATION("warmup", 'w', RO, warmup_ns, .def = "2s", .min = 0,
		.max = HOUR,
		.help = "time before the measurement; its samples are kept, labelled warmup"),
	OPT_DURATION("duration", 'd', RO, duration_ns, .def = "5s",
		.min = 1000000, .max = 24 * HOUR,
		.help = "measured time per point"),
	OPT_DURATION("interval", 'i', RO, interval_ns, .def = "1s",
		.min = 1000000, .max = HOUR,
		.help = "time between samples of the counters"),
	OPT_INT_OR("runs", 'r', RO, runs_asked, .def = "1", .min = 1,
		.max = 1000, .keys = runs_keys, .metavar = "N|auto",
		.bad = ": give a count from 1 to 1000, or auto",
		.help = "repeat every point, interleaved: all points once, then all again; auto: until compare's CI of every point is at most T/2 wide"),
	OPT_INT("max-runs", 0, RO, max_runs, .def = "30", .min = 1, .max = 1000,
		.help = "-r auto: at most this many runs a point"),
	OPT_DURATION("max-time", 0, RO, max_time_ns, .def = "0", .min = 0,
		.max = 100 * HOUR,
		.help = "-r auto: no round that would end after this long (0: no limit)"),
	OPT_INT("invocations", 0, RO, invocations, .def = "1", .min = 1,
		.max = 100, .metavar = "K",
		.help = "run it all K times, each a fresh process writing its own file into the -o directory, so that compare sees the variance between invocations"),
	OPT_NUMBER("threshold", 'T', RO, threshold_pct, .def = "2", .dmin = 0,
		.dmax = 1e6, .echo_text = true, .metavar = "PCT",
		.bad = ": give the practical threshold T in %, a plain decimal from 0 to 1000000, e.g. 2",
		.help = "-r auto: the practical threshold T of compare (%); the target is a CI half-width of T/2"),
	OPT_STRING("output", 'o', RO, output, .metavar = "PATH",
		.help = "result file, or a directory for it (default: a new directory under results/runs/)"),
	OPT_STRING("tmpdir", 0, RO, tmpdir, .metavar = "DIR",
		.help = "directory for the tasks' files (default, as root: a new tmpfs of each point's own over /dev/shm, in its workers' own mount namespace; else $TMPDIR when a tmpfs, or /dev/shm)"),
	OPT_BOOL("csv", 0, RO, csv,
		.help = "print will-it-scale runtest.py CSV instead of the table (one test and cgroup layout)"),
	OPT_STRING("csv-dir", 0, RO, csv_dir, .metavar = "DIR",
		.help = "also write will-it-scale CSV, one file per test (and cgroup layout): DIR/TEST.csv"),
	OPT_BOOL("quiet", 'q', RO, quiet, .help = "no progress line"),
	OPT_ENUM("task-process", 0, RO, task_process, .def = "plain",
		.choices = cgs_task_process_names,
		.help = "where the tasks run: plain, a small program (cgscale-tasks) each worker execs, whose address space holds little but the workload, as will-it-scale's; runner, in forks of cgscale itself, with its libraries and heap"),
	OPT_BOOL("aslr", 0, RO, aslr,
		.help = "keep address-space randomisation on in the tasks (off by default, as LKP)"),
	OPT_STRING("governor", 0, RO, governor, .metavar = "NAME",
		.help = "set the cpufreq governor (e.g. performance) for the run, restore it after"),
	OPT_BOOL("fail-fast", 0, RO, fail_fast,
		.help = "stop at the first failed point"),
	OPT_BOOL("dry-run", 'n', RO, dry_run,
		.help = "print the plan (points, each task's place, cgroups, least wall time, tmpdir space) and run nothing"),
	OPT_STRING("topology", 0, RO, topology, .metavar = "DESC|XML",
		.help = "plan for a described machine: an hwloc synthetic description (\"pack:2 numa:2 l3:1 core:56 pu:2\") or an 'lstopo --of xml' file; with --dry-run or 'cgroup show' only"),
	OPT_ENUM("sampler-priority", 0, RO, sampler_priority, .def = "rt",
		.choices = cgs_sprio_names,
		.help = "the sampler at a low SCHED_FIFO priority where allowed (root or CAP_SYS_NICE), or at normal priority as will-it-scale"),
	OPT_INT_OR("sampler-cpu", 0, RO, sampler_cpu, .def = "auto", .min = 0,
		.max = CGS_CPU_MAX, .keys = cgs_sampler_cpu_keys, .metavar = "CPU",
		.bad = " is not a CPU number, auto or none",
		.help = "CPU the sampler is bound to while it samples; auto: the last CPU no task is bound to, else unbound; none: unbound"),
	OPT_DURATION("cpustat-interval", 0, RO, cpustat_interval_ns,
		.def = "1s", .min = 0, .max = HOUR,
		.help = "read /proc/stat (the idle and steal of each sample) at the window's edges and at most this often between them; 0: at every sample"),
	OPT_STRING("cgroup-depth", 0, RO, cgroup_depth, .metavar = "N|LIST",
		.help = "nested cgroups of our own, made fresh per point; a list like 0,3 runs every point in each layout (ABBA order over --runs); default 1 as root, else 0"),
	OPT_STRING("cgroup-parent", 0, RO, cgroup_parent, .metavar = "PATH",
		.help = "the cgroup to create them under, as /proc/self/cgroup writes it; / is the root (default: the runner's own cgroup)"),
	OPT_STRLIST("cgroup-set", 0, RO, cgroup_set,
		.metavar = "LEVEL:KNOB=VALUE",
		.help = "write a knob at a level, 1 = the top; repeatable, e.g. 1:memory.min=1G (v2) or 1:memory.limit_in_bytes=1G (v1)"),
	OPT_ENUM("cgroup-leaf", 0, RO, cgroup_leaf, .def = "shared",
		.choices = cgs_cg_leaf_names,
		.help = "all tasks in one leaf, or one sibling leaf per task (process mode only)"),
};
const size_t cgs_run_noptdefs = ARRAY_SIZE(cgs_run_optdefs);

/* Run rows [@from, @to) as one set; the first set is titled. */
static size_t run_piece(struct cgs_run *r, size_t from, size_t to,
			struct cgs_optset *sets, size_t n)
{
	if (from == to)
		return 0;
	sets[0] = (struct cgs_optset){ n ? NULL : "run options", cgs_run_optdefs + from,
				       to - from, r ? &r->o : NULL };
	return 1;
}

size_t cgs_run_own_optsets(struct cgs_run *r, struct cgs_optset *sets)
{
	const struct cgs_obs_run *or = r ? &r->obs : NULL;
	struct cgs_optset tmp[CGS_MAX_OBS];
	size_t n = 0, from = 0;

	for (size_t i = 0; i <= cgs_run_noptdefs; i++) {
		const char *at = i < cgs_run_noptdefs ? cgs_run_optdefs[i].name : NULL;
		size_t k = cgs_obs_optsets(or, at, tmp), to = at ? i + 1 : i;

		if (!k && at)
			continue;
		n += run_piece(r, from, to, sets + n, n);
		memcpy(sets + n, tmp, k * sizeof(*tmp));
		n += k;
		from = to;
	}
	return n;
}

int cgs_run_optsets(struct cgs_run *r, struct cgs_optset *sets, size_t *nsets,
		    char *err, size_t errlen)
{
	size_t n;

	*nsets = 0;
	for (size_t i = 0; i < cgs_nworkloads; i++)
		if (cgs_workloads[i]->opts_size &&
		    !(r->wopts[i] = calloc(1, cgs_workloads[i]->opts_size)))
			return -ENOMEM;
	r->obs_env = (struct cgs_obs_env){
		.o = &r->o, .topo = &r->topo, .places = &r->places, .tasks = &r->tasks,
		.tests = r->tests, .ntests = &r->ntests, .wopts = r->wopts,
	};
	if (cgs_obs_run_init(&r->obs, cgs_observers, cgs_nobservers, &r->obs_env))
		return -ENOMEM;
	n = cgs_run_own_optsets(r, sets);
	for (size_t i = 0; i < cgs_nworkloads; i++) {
		const struct cgs_workload *w = cgs_workloads[i];

		if (!w->nopts)
			continue;
		sets[n++] = (struct cgs_optset){ w->name, w->opts, w->nopts,
						 r->wopts[i] };
	}
	*nsets = n;
	for (size_t i = 0; i < n; i++)
		if (cgs_opt_defaults(&sets[i], err, errlen))
			return -EINVAL;
	return 0;
}

void cgs_run_note_given(struct cgs_run *r, const struct cgs_optset *sets,
			const struct cgs_opt *const *given, size_t nsets)
{
	for (size_t i = 0; i < cgs_nworkloads; i++)
		for (size_t k = 0; r->wopts[i] && k < nsets; k++)
			if (sets[k].base == r->wopts[i])
				r->wopt_given[i] = given[k];
}

void cgs_run_optsets_free(struct cgs_run *r, struct cgs_optset *sets, size_t nsets)
{
	for (size_t i = 0; i < nsets; i++)
		cgs_opt_free(&sets[i]);
	for (size_t i = 0; i < cgs_nworkloads; i++)
		free(r->wopts[i]);
	cgs_obs_run_free(&r->obs);
}

/* Workload @w's knobs clash with no option of run nor of an observer,
 * and the observer it names is listed. */
static int check_workload(const struct cgs_workload *w, char *err, size_t errlen)
{
	if (w->observer && !cgs_obs_find(cgs_observers, cgs_nobservers, w->observer))
		return cgs_errf(err, errlen, -EINVAL, "workload %s: no observer '%s'",
				w->name, w->observer);
	for (size_t k = 0; k < w->nopts; k++) {
		const struct cgs_opt *o = &w->opts[k];
		const char *clash = NULL;

		for (size_t g = 0; g < cgs_run_noptdefs; g++)
			if (!strcmp(o->name, cgs_run_optdefs[g].name) ||
			    (o->short_name && o->short_name == cgs_run_optdefs[g].short_name))
				clash = "a run option";
		for (size_t i = 0; i < cgs_nobservers; i++)
			for (size_t g = 0; g < cgs_observers[i]->nopts; g++)
				if (!strcmp(o->name, cgs_observers[i]->opts[g].name) ||
				    (o->short_name &&
				     o->short_name == cgs_observers[i]->opts[g].short_name))
					clash = "an observer's option";
		if (clash)
			return cgs_errf(err, errlen, -EINVAL, "workload %s: --%s clashes with %s",
					w->name, o->name, clash);
	}
	return 0;
}

/* Registry and option tables are checked before anything else. */
int cgs_run_test_supported(const struct cgs_run *r, unsigned t, char *why, size_t len)
{
	for (size_t i = 0; i < cgs_nworkloads; i++)
		if (cgs_workloads[i] == r->tests[t])
			return cgs_workload_supported(r->tests[t], r->wopts[i], why, len);
	return cgs_workload_supported(r->tests[t], NULL, why, len);
}

int cgs_run_check_registry(char *err, size_t errlen)
{
	int rc = cgs_opt_check_table(cgs_run_optdefs, cgs_run_noptdefs, "run",
				     err, errlen);

	if (cgs_nworkloads > 64)
		return cgs_errf(err, errlen, -EINVAL, "too many workloads");
	if (!rc)
		rc = cgs_obs_check(cgs_observers, cgs_nobservers, cgs_run_optdefs,
				   cgs_run_noptdefs, err, errlen);
	for (size_t i = 0; !rc && i < cgs_nworkloads; i++) {
		rc = cgs_workload_check(cgs_workloads[i], err, errlen);
		if (!rc)
			rc = check_workload(cgs_workloads[i], err, errlen);
	}
	return rc;
}

/* Can we create a file in @dir? A file with no name (lib/safedir.h:
 * O_TMPFILE, else a random O_EXCL name removed at once) leaves nothing. */
static int dir_writable(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (dfd < 0)
		return -errno;
	fd = cgs_anon_file_at(dfd, 0);
	close(dfd);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* The name of the file itself must fit the filesystem, with the journal's
 * ".partial" after it. */
static int check_name_length(const char *path, const char *dir, char *err,
			     size_t errlen)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	long max = pathconf(dir, _PC_NAME_MAX);

	if (max <= 0)
		max = NAME_MAX;
	if ((long)strlen(base) + 8 > max)
		return cgs_errf(err, errlen, -ENAMETOOLONG,
				"-o: the file name %.40s... is %zu characters; %s allows %ld with the journal's \".partial\": choose a shorter name",
				base, strlen(base), dir, max - 8);
	if (strlen(path) + 8 >= PATH_MAX)
		return cgs_errf(err, errlen, -ENAMETOOLONG, "-o: the path is longer than PATH_MAX; choose a shorter one");
	return 0;
}

static int check_output(struct cgs_run *r, char *err, size_t errlen)
{
	char stamp[32], dir[PATH_MAX], o[PATH_MAX];
	struct stat st;
	size_t n;
	int rc;

	cgs_stamp_now(stamp, sizeof(stamp));
	if (r->o.output && !*r->o.output)
		return cgs_errf(err, errlen, -EINVAL, "-o '': give a file or directory name");
	if (r->o.output && strlen(r->o.output) >= PATH_MAX - 64)
		return cgs_errf(err, errlen, -ENAMETOOLONG, "-o: the path is longer than PATH_MAX; choose a shorter one");
	snprintf(o, sizeof(o), "%s", r->o.output ? r->o.output : "");
	/* "dir/" and "dir//" name dir: no double slash in the paths we print */
	for (n = strlen(o); n > 1 && o[n - 1] == '/'; n--)
		o[n - 1] = 0;
	if (!r->o.output) {
		/* results/runs/<stamp>/result.json; check the nearest parent */
		snprintf(r->outpath, sizeof(r->outpath),
			 "results/runs/%s/result.json", stamp);
		r->out_is_default = true;
		snprintf(dir, sizeof(dir), "results/runs");
		if (stat(dir, &st))
			snprintf(dir, sizeof(dir), "results");
		if (stat(dir, &st))
			snprintf(dir, sizeof(dir), ".");
	} else if (!stat(o, &st) && S_ISDIR(st.st_mode)) {
		snprintf(r->outpath, sizeof(r->outpath), "%s%scgscale-%s.json", o,
			 strcmp(o, "/") ? "/" : "", stamp);
		r->out_in_dir = true;
		snprintf(dir, sizeof(dir), "%s", o);
	} else {
		const char *slash = strrchr(o, '/');

		if (o[strlen(o) - 1] == '/' || strlen(r->o.output) != strlen(o))
			return cgs_errf(err, errlen, -ENOENT, "-o %s: no such directory; create it or choose another path",
					r->o.output);
		snprintf(r->outpath, sizeof(r->outpath), "%s", o);
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - o + (slash == o)), o);
		if (stat(dir, &st) || !S_ISDIR(st.st_mode))
			return cgs_errf(err, errlen, -ENOENT,
					"-o %s: directory %s does not exist; create it or choose another path",
					o, dir);
		rc = check_name_length(o, dir, err, errlen);
		if (!rc)
			rc = cgs_check_out_kind("-o", o, err, errlen);
		if (rc)
			return rc;
		/* a terminal or FIFO is written into: nothing is made beside it
		 * (/dev/pts takes no new file, and needs none) */
		if (cgs_out_path_in_place(o))
			return 0;
	}
	rc = dir_writable(dir);
	if (rc)
		return cgs_errf(err, errlen, rc, "-o: cannot write in %s: %s; choose a writable path with -o",
				dir, strerror(-rc));
	return 0;
}

static int check_tmpdir(struct cgs_run *r, char *err, size_t errlen)
{
	char note[512];
	struct stat st;

	if (!r->o.tmpdir) {
		cgs_default_tmpdir(r->tmpdir, sizeof(r->tmpdir), note, sizeof(note));
		if (note[0])
			cgs_warn("%s", note);
		return 0;
	}
	if (stat(r->o.tmpdir, &st))
		return cgs_errf(err, errlen, -ENOENT, "--tmpdir %s: %s; give an existing directory",
				r->o.tmpdir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cgs_errf(err, errlen, -ENOTDIR, "--tmpdir %s is not a directory",
				r->o.tmpdir);
	if (dir_writable(r->o.tmpdir))
		return cgs_errf(err, errlen, -EACCES, "--tmpdir %s is not writable; choose another directory",
				r->o.tmpdir);
	snprintf(r->tmpdir, sizeof(r->tmpdir), "%s", r->o.tmpdir);
	return 0;
}

/* The TESTs named on the command line, each once, into r->tests. */
static int collect_tests(struct cgs_run *r, int argc, char **argv, int first,
			 char *err, size_t errlen)
{
	if (first >= argc)
		return cgs_errf(err, errlen, -EINVAL,
			   "no test given; name one or more, e.g. 'cgscale run page_fault1' (see 'cgscale list')");
	for (int i = first; i < argc; i++) {
		const struct cgs_workload *w = cgs_workload_find(argv[i]);
		bool dup = false;

		if (!w)
			return cgs_errf(err, errlen, -EINVAL,
				   "unknown test '%s'; see 'cgscale list'", argv[i]);
		for (unsigned k = 0; k < r->ntests; k++)
			dup |= r->tests[k] == w;
		if (!dup)
			r->tests[r->ntests++] = w;
	}
	return 0;
}

/* A workload's knob for a test that is not run would be ignored
 * silently: refused, naming the test it belongs to. */
static int check_knobs_used(const struct cgs_run *r, char *err, size_t errlen)
{
	for (size_t i = 0; i < cgs_nworkloads; i++) {
		bool run = false;

		for (unsigned k = 0; k < r->ntests; k++)
			run |= r->tests[k] == cgs_workloads[i];
		if (r->wopt_given[i] && !run)
			return cgs_errf(err, errlen, -EINVAL,
					"--%s is a knob of %s, which this run does not run; add %s to the tests or leave --%s out",
					r->wopt_given[i]->name, cgs_workloads[i]->name,
					cgs_workloads[i]->name, r->wopt_given[i]->name);
	}
	return 0;
}

/* Everything that can be wrong with the input, before anything runs. */
int cgs_run_validate(struct cgs_run *r, int argc, char **argv, int first,
		    char *err, size_t errlen)
{
	char a[32], b[32];
	int rc = collect_tests(r, argc, argv, first, err, errlen);

	if (!rc)
		rc = check_knobs_used(r, err, errlen);
	if (rc)
		return rc;
	if (r->o.interval_ns > r->o.duration_ns) {
		cgs_fmt_duration(r->o.interval_ns, a, sizeof(a));
		cgs_fmt_duration(r->o.duration_ns, b, sizeof(b));
		return cgs_errf(err, errlen, -EINVAL,
				"--interval %s is longer than --duration %s; give a shorter interval",
				a, b);
	}
	if (cgs_schedule(r->o.warmup_ns, r->o.duration_ns, r->o.interval_ns,
			 NULL, NULL) > CGS_MAX_SAMPLES)
		return cgs_errf(err, errlen, -EINVAL,
				"more than %d samples per point; give a longer --interval",
				CGS_MAX_SAMPLES);
	rc = cgs_sampler_cpu_check(r->o.sampler_cpu, &r->topo, err, errlen);
	if (!rc)
		rc = cgs_placement_check(&r->topo, r->o.placement, err, errlen);
	if (rc)
		return rc;
	if (r->o.governor && (!*r->o.governor || strpbrk(r->o.governor, "/ \n")))
		return cgs_errf(err, errlen, -EINVAL, "--governor '%s' is not a governor name",
				r->o.governor);
	rc = cgs_auto_validate(r, err, errlen);
	if (!rc)
		rc = cgs_tasklist_parse(r->o.tasks, &r->topo, &r->tasks, err, errlen);
	if (!rc)
		rc = check_tmpdir(r, err, errlen);
	if (!rc)
		rc = check_output(r, err, errlen);
	if (!rc)
		rc = cgs_invoke_validate(r, err, errlen);
	if (!rc)
		rc = cgs_obs_run_check(&r->obs, err, errlen);
	if (!rc)
		rc = cgs_cgrun_validate(&r->o, r->o.dry_run, &r->cg, err, errlen);
	if (!rc)
		rc = cgs_csv_validate(r, err, errlen);
	return rc;
}
