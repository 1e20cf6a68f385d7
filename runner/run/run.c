/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - `cgscale run [options] TEST...`: check the input, then for each
 * run, test, task count and mode run one point, and write every sample to
 * one JSON result file. Bad input exits 2 before anything is written;
 * SIGINT/SIGTERM stop the tasks between samples and keep the completed
 * points, marked incomplete.
 *
 * Knobs: -t tasks, --mode, --placement, -w/-d/-i timing, -r runs
 * (interleaved: all points once, then all again), --tmpdir, -o.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "runner/run/autoruns.h"
#include "runner/run/image.h"
#include "runner/run/causes.h"
#include "runner/cgroups/cgrun.h"
#include "runner/run/invoke.h"
#include "runner/run/dryrun.h"
#include "runner/run/fallback.h"
#include "runner/run/run_journal.h"
#include "runner/point/point.h"
#include "runner/run/run.h"
#include "runner/core/topo_desc.h"
#include "lib/freshtmp.h"
#include "lib/exit.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "results/model/disturb.h"
#include "lib/version.h"


/* Tasks run with ADDR_NO_RANDOMIZE, as LKP's `setarch -R`: it only takes
 * effect at exec, so set it and exec ourselves once. */
static void aslr_off_reexec(struct cgs_run *r)
{
	int cur = personality(0xffffffff);

	if (r->o.aslr || cur < 0)
		return;
	if (cur & ADDR_NO_RANDOMIZE) {
		r->aslr_off = true;
		return;
	}
	char **av = calloc(r->argc + 2, sizeof(*av));
	/* this very file, by fd: its path may not be reachable from here (a
	 * bench mounts a fresh tmpfs over the /tmp it was started from) */
	int self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), err;

	if (!av || self < 0 || personality((unsigned long)cur | ADDR_NO_RANDOMIZE) < 0) {
		if (self >= 0)
			close(self);
		free(av);
		return;
	}
	/* our argv starts at the subcommand: put the program name back */
	av[0] = "cgscale";
	memcpy(av + 1, r->argv, r->argc * sizeof(*av));
	fexecve(self, av, environ);
	err = errno;
	close(self);
	cgs_warn("could not re-exec with ASLR off (%s); tasks run with ASLR on",
		 strerror(err));
	personality((unsigned long)cur);
	free(av);
}

static int setup_signals(struct cgs_run *r)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	r->sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	/* orphans of a dead worker come to us, so we can reap them */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	return r->sigfd < 0 ? -errno : 0;
}

/* Where the run meant its tasks to run (image.h); each point's
 * harness.task_process says where they did. */
static struct json_object *task_process_json(const struct cgs_run *r)
{
	struct json_object *tp = json_object_new_object();

	json_object_object_add(tp, "image", json_object_new_string(r->image[0] ? "plain" : "runner"));
	json_object_object_add(tp, r->image[0] ? "exe" : "why",
			       json_object_new_string(r->image[0] ? r->image : r->image_why));
	return tp;
}

static struct json_object *environment_json(struct cgs_run *r)
{
	struct json_object *e = json_object_new_object();
	struct json_object *td = json_object_new_object();
	char type[64], opts[1024];

	json_object_object_add(e, "aslr", json_object_new_string(
		r->aslr_off ? "off in tasks (personality ADDR_NO_RANDOMIZE)"
			    : "on (see kernel.randomize_va_space)"));
	json_object_object_add(e, "governor", cgs_governor_json(&r->gov));
	json_object_object_add(td, "path", json_object_new_string(r->tmpdir));
	if (r->tmp_fresh) {      /* the workers' own, not the box's at that path */
		snprintf(opts, sizeof(opts), "rw,nosuid,nodev,size=%lluk,mode=1777 (a new tmpfs in each point's workers' own mount namespace)",
			 (unsigned long long)(r->tmp_size >> 10));
		json_object_object_add(td, "fstype", json_object_new_string("tmpfs"));
		json_object_object_add(td, "mount_options", json_object_new_string(opts));
	} else if (cgs_fs_of(r->tmpdir, type, sizeof(type), opts, sizeof(opts)) == 0) {
		json_object_object_add(td, "fstype", json_object_new_string(type));
		json_object_object_add(td, "mount_options", json_object_new_string(opts));
	}
	json_object_object_add(td, "fresh", json_object_new_boolean(r->tmp_fresh));
	if (r->tmp_fresh)
		json_object_object_add(td, "size_bytes", json_object_new_int64((int64_t)r->tmp_size));
	else if (!r->o.tmpdir)
		json_object_object_add(td, "not_fresh", json_object_new_string(r->tmp_why));
	json_object_object_add(e, "tmpdir", td);
	json_object_object_add(e, "task_process", task_process_json(r));
	json_object_object_add(e, "cgroup", cgs_cgrun_env_json(r->cg));
	json_object_object_add(e, "sampler", cgs_sampler_prio_json(&r->sprio));
	return e;
}

static struct json_object *tasks_json(const struct cgs_tasklist *l)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < l->n; i++)
		json_object_array_add(a, json_object_new_int((int)l->v[i]));
	return a;
}

/* The effective value of every option of run's own (and its observers'),
 * in their order. */
static struct json_object *options_json(struct cgs_run *r)
{
	struct cgs_optset sets[CGS_RUN_MAX_SETS];
	size_t n = cgs_run_own_optsets(r, sets);
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < n; i++) {
		struct json_object *one = cgs_opt_echo(&sets[i]);

		json_object_object_foreach(one, k, v)
			json_object_object_add(o, k, json_object_get(v));
		json_object_put(one);
	}
	return o;
}

static void fill_header(struct cgs_run *r, int argc, char **argv)
{
	struct json_object *cl = json_object_new_array(), *ls;
	char when[32];

	json_object_array_add(cl, json_object_new_string("cgscale"));
	for (int i = 0; i < argc; i++)
		json_object_array_add(cl, json_object_new_string(argv[i]));
	cgs_iso8601_now(when, sizeof(when));
	r->res.schema_version = RES_SCHEMA_VERSION;
	r->res.tool_version = strdup(CGS_VERSION);
	r->res.git = strdup(CGS_GIT);
	r->res.start_time = strdup(when);
	r->res.command_line = cl;
	r->res.kernel = cgs_env_kernel();
	r->res.machine = cgs_env_machine(&r->topo);
	r->res.environment = environment_json(r);
	r->res.options = options_json(r);
	json_object_object_add(r->res.options, "tmpdir",
			       json_object_new_string(r->tmpdir));
	json_object_object_add(r->res.options, "tasks_resolved",
			       tasks_json(&r->tasks));
	ls = json_object_new_array();
	for (unsigned i = 0; i < r->cg->nlayouts; i++)
		json_object_array_add(ls, json_object_new_string(r->cg->L[i].name));
	json_object_object_add(r->res.options, "cgroup_layouts", ls);
	r->res.sections = cgs_obs_sections_json(&r->obs);
	cgs_invoke_record(r);
}

/* The result written in the fallback place (runner/run/fallback.h),
 * its path then in r->outpath: the output's directory is no longer the
 * one the run started in, and a result written there would be hidden
 * (under a mount) or elsewhere than said (renamed). */
static int write_fallback(struct cgs_run *r, char *err, size_t errlen)
{
	char dir[PATH_MAX], name[NAME_MAX + 1];
	int fd = cgs_fallback_open(dir, sizeof(dir), err, errlen), rc;

	if (fd < 0)
		return fd;
	rc = cgs_fallback_name(r->outpath, res_run_id(&r->res), name, sizeof(name));
	if (rc)
		cgs_errf(err, errlen, rc, "no name for the result in the fallback place %s (%s)", dir,
			 rc == -EINVAL ? "the run has no id" : strerror(-rc));
	if (!rc) {
		name[strlen(name) - strlen(".partial")] = 0;
		rc = res_write_file_at(&r->res, fd, name, err, errlen);
	}
	close(fd);
	if (!rc && snprintf(r->outpath, sizeof(r->outpath), "%s/%s", dir, name) >=
		   (int)sizeof(r->outpath))
		rc = cgs_errf(err, errlen, -ENAMETOOLONG, "the fallback place's path is too long");
	return rc;
}

/* 0 when the result is where -o said, 1 when the output's directory had
 * changed under the run and the result went to the fallback place, else
 * -errno (said). */
static int write_results(struct cgs_run *r)
{
	char when[32], err[512];
	int rc, dirfd = -1;

	cgs_iso8601_now(when, sizeof(when));
	r->res.end_time = strdup(when);
	r->res.complete = !r->res.interrupted;
	res_file_scalability(&r->res);
	if (res_disturb_mark(&r->res))
		return -ENOMEM;
	/* the directory the run started in, checked by its identity, as
	 * mounted now (a read-only bind over itself is then seen) */
	if (r->journal.dirfd >= 0)
		dirfd = cgs_reopen_dir(r->journal.dirfd, r->outpath);
	if (dirfd != -ESTALE) {
		rc = res_write_file_at(&r->res, dirfd, r->outpath, err, sizeof(err));
		if (dirfd >= 0)
			close(dirfd);
	} else {
		cgs_warn("the directory of %s is no longer the one this run started in (a mount over it, or it was renamed, removed or swapped): the result is not written there but in the fallback place",
			 r->outpath);
		rc = write_fallback(r, err, sizeof(err));
	}
	if (rc)
		cgs_err("%s", err);
	return rc ? rc : dirfd == -ESTALE;
}

void cgs_run_free(struct cgs_run *r, struct cgs_optset *sets, size_t nsets)
{
	cgs_run_optsets_free(r, sets, nsets);
	cgs_places_free(&r->places);
	cgs_tasklist_free(&r->tasks);
	cgs_topo_free(&r->topo);
	cgs_governor_free(&r->gov);
	cgs_rj_close(&r->journal, true);
	res_file_free(&r->res);
	cgs_cgrun_free(r->cg);
	if (r->sigfd >= 0)
		close(r->sigfd);
}

/* Each test's options into @opts; the most tasks of a point. */
static unsigned test_opts(const struct cgs_run *r, const void **opts)
{
	unsigned most = 0;

	for (unsigned k = 0; k < r->tasks.n; k++)
		if (r->tasks.v[k] > most)
			most = r->tasks.v[k];
	for (unsigned t = 0; t < r->ntests && t < 64; t++)
		for (size_t i = 0; i < cgs_nworkloads; i++)
			if (cgs_workloads[i] == r->tests[t])
				opts[t] = r->wopts[i];
	return most;
}

/* Room in --tmpdir for the most tasks of every test, with its options;
 * then, without --tmpdir, a tmpfs of each point's own of that size (its
 * workers mount it: lib/freshtmp.h), or the shared default with the
 * reason said. */
static int tmpdir_check(struct cgs_run *r, char *err, size_t errlen)
{
	const void *opts[64] = { 0 };
	unsigned most = test_opts(r, opts);
	uint64_t need = 0;
	int rc = cgs_tmpdir_check(r->tmpdir, r->tests, opts, r->ntests, most, err, errlen);

	if (rc || r->o.tmpdir)
		return rc;
	for (unsigned t = 0; t < r->ntests && t < 64; t++)
		if (r->tests[t]->tmpdir_bytes && r->tests[t]->tmpdir_bytes(opts[t]) * most > need)
			need = r->tests[t]->tmpdir_bytes(opts[t]) * most;
	r->tmp_size = cgs_fresh_tmpfs_size(need);
	r->tmp_fresh = !cgs_fresh_tmpfs_check(r->tmp_why, sizeof(r->tmp_why));
	if (r->tmp_fresh)
		snprintf(r->tmpdir, sizeof(r->tmpdir), "%s", CGS_FRESH_TMPDIR);
	else
		cgs_warn("the tasks' files go to %s, shared with the box: %s; give --tmpdir to choose",
			 r->tmpdir, r->tmp_why);
	return 0;
}

/* Say once, before the first point, which tests this box cannot run:
 * their points are SKIPPED with the reason (runner/point/point.c). */
static void warn_unsupported(const struct cgs_run *r)
{
	for (unsigned t = 0; t < r->ntests; t++) {
		char why[256];
		int rc = cgs_run_test_supported(r, t, why, sizeof(why));

		if (rc)
			cgs_warn("%s is not supported here, so its points will be skipped: %s",
				 r->tests[t]->name, rc == -EOPNOTSUPP ? why : strerror(-rc));
	}
}

/* Everything checked and set up before the first point: the topology,
 * the options against it, placement, ASLR, signals, cgroups, readers,
 * the governor. -1 to go on, else the exit status. */
static int run_prepare(struct cgs_run *r, int argc, char **argv, int first)
{
	char err[1024];
	int rc;

	rc = cgs_topo_load_desc(&r->topo, r->o.topology, err, sizeof(err));
	if (rc) {
		cgs_err("%s", err);
		/* a description given (--topology, or hwloc's own variable) is input */
		return r->o.topology || getenv("HWLOC_XMLFILE") ? CGS_EXIT_BADINPUT : CGS_EXIT_INTERNAL;
	}
	if (cgs_run_validate(r, argc, argv, first, err, sizeof(err))) {
		cgs_err("%s", err);
		return CGS_EXIT_BADINPUT;
	}
	if (cgs_places_build(&r->topo, r->o.placement, &r->places)) {
		cgs_err("cannot build the %s placement", cgs_placement_names[r->o.placement]);
		return CGS_EXIT_INTERNAL;
	}
	if (r->o.dry_run)
		return cgs_dryrun_print(r, stdout);
	if (cgs_topo_check_real(&r->topo, r->o.topology, err, sizeof(err))) {
		cgs_err("%s", err);
		return CGS_EXIT_BADINPUT;
	}
	rc = cgs_invoke_all(r);
	if (rc >= 0)
		return rc;
	warn_unsupported(r);
	aslr_off_reexec(r);
	cgs_obs_run_prepare(&r->obs);
	if (setup_signals(r)) {
		cgs_err("cannot set up signal handling: %s", strerror(errno));
		return CGS_EXIT_INTERNAL;
	}
	rc = cgs_cgrun_preflight(r->cg, err, sizeof(err));
	if (!rc)
		rc = cgs_obs_run_preflight(&r->obs, r->cg, err, sizeof(err));
	if (!rc)
		rc = tmpdir_check(r, err, sizeof(err));
	if (rc) {
		cgs_err("%s", err);
		return CGS_EXIT_BADINPUT;
	}
	cgs_image_find(r->o.task_process, r->image, sizeof(r->image),
		       r->image_why, sizeof(r->image_why));
	if (!r->image[0] && r->o.task_process == CGS_TASKS_PLAIN)
		cgs_warn("the tasks run in forks of cgscale, with its libraries in their address space: %s",
			 r->image_why);
	rc = cgs_governor_apply(&r->gov, r->o.governor);
	if (rc) {
		cgs_err("--governor: %s", r->gov.status);
		return CGS_EXIT_FAIL;
	}
	if (r->o.governor && !r->gov.n)
		cgs_warn("--governor %s: %s", r->o.governor, r->gov.status);
	cgs_sampler_prio_probe(r->o.sampler_priority, &r->sprio);
	if (!r->sprio.rt && r->o.sampler_priority == CGS_SPRIO_RT)
		cgs_warn("the sampler runs at normal priority: %s; it may be late when tasks outnumber the CPUs",
			 r->sprio.why);
	return -1;
}

static void print_results(const struct cgs_run *r)
{
	if (r->o.csv)
		cgs_print_csv_block(r, 0, stdout);
	else
		cgs_print_table(r, stdout);
	fflush(stdout);
}

/* Write and print the results (the table even when the file cannot be
 * written: the journal keeps the points); the exit status of the run. */
static int run_report(struct cgs_run *r, int rc, int signo)
{
	char err[1024];
	int status = 0, moved;

	moved = write_results(r);
	if (moved < 0) {
		/* the figures are measured: show them, and say where they are kept */
		unsigned left = cgs_rj_flush(&r->journal, &r->res);

		print_results(r);
		cgs_rj_say_kept(&r->journal, r->outpath, r->res.npoints, left);
		return CGS_EXIT_FAIL;
	}
	cgs_rj_close(&r->journal, false);
	print_results(r);
	cgs_info("results in %s%s", r->outpath,
		r->res.interrupted ? " (incomplete: interrupted)" : "");
	if (moved)
		status = CGS_EXIT_FAIL;   /* not where -o said: a CI must see it */
	if (r->o.csv_dir && cgs_csv_write(r, err, sizeof(err))) {
		cgs_err("%s", err);
		status = CGS_EXIT_FAIL;
	}
	for (unsigned i = 0; i < r->res.npoints; i++)
		if (r->res.points[i].status == RES_FAILED)
			status = CGS_EXIT_FAIL;
	if (r->cg->cleanup_failures)
		status = CGS_EXIT_FAIL;
	if (rc == -EINTR)
		status = CGS_EXIT_SIGNAL(signo);
	else if (rc)
		status = CGS_EXIT_INTERNAL;
	return status;
}

/* Name the output and open its journal before the first point; -1 to go
 * on, else the exit status (nothing run). */
static int journal_start(struct cgs_run *r)
{
	char err[1024];
	int rc = cgs_rj_claim_output(&r->journal, r->outpath, sizeof(r->outpath),
				     r->out_is_default, r->out_in_dir, err, sizeof(err));

	if (!rc) {
		rc = cgs_rj_open(&r->journal, r->outpath, &r->res, err, sizeof(err));
		if (rc && r->out_in_dir)
			cgs_rj_unclaim(&r->journal);
	}
	if (!rc)
		return -1;
	cgs_governor_restore(&r->gov);
	cgs_err("%s", err);
	return CGS_EXIT_BADINPUT;
}

struct cgs_run *cgs_run_new(int argc, char **argv)
{
	struct cgs_run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->sigfd = -1;
	r->journal.fd = -1;
	r->journal.dirfd = -1;
	r->argc = argc;
	r->argv = argv;
	return r;
}

int cgs_run_main(struct cgs_run *r, int argc, char **argv, int first)
{
	int rc, status, signo = 0;

	status = run_prepare(r, argc, argv, first);
	if (status >= 0)
		return status;
	fill_header(r, argc, argv);
	status = journal_start(r);
	if (status >= 0)
		return status;
	rc = cgs_run_all(r, &signo);
	cgs_progress_done(r);
	cgs_governor_restore(&r->gov);
	return run_report(r, rc, signo);
}
