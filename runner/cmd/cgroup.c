/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup.c - `cgscale cgroup show [run options]` prints the cgroups a run
 * with these options would create, where, with which knobs, and creates
 * nothing; `cgscale cgroup cleanup [--dry-run]` removes what a killed run
 * left behind: only cgroups with our name prefix and our marker whose
 * runner is gone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/cgroups/cgrun.h"
#include "runner/run/run.h"
#include "runner/core/topo_desc.h"
#include "lib/util.h"

#define EXIT_BADINPUT 2

static void usage(FILE *out)
{
	fprintf(out, "usage: cgscale cgroup show [run options] [TEST...]\n"
		     "       cgscale cgroup cleanup [--dry-run] [--force]\n\n"
		     "show     print the cgroup layout of this system and the cgroups 'cgscale run'\n"
		     "         would create with these options (--cgroup-depth, --cgroup-parent,\n"
		     "         --cgroup-set, --cgroup-leaf, -t, --mode); creates nothing. With\n"
		     "         --topology DESC|XML, -t resolves on that machine (sweep, 50%%, all).\n"
		     "cleanup  remove the cgroups of cgscale runs that were killed: only those named\n"
		     "         " CG_PREFIX "* that carry the " CG_MARKER " marker of a runner that is\n"
		     "         gone; never anything else. The dead run's workers in them are killed;\n"
		     "         a cgroup that holds any other process (one a person moved there) is kept\n"
		     "         and its pids named, unless --force. --dry-run shows what would be\n"
		     "         removed and killed. Exit 1 if some could not be removed.\n");
}

static int cmd_show(int argc, char **argv)
{
	struct cgs_run *r = calloc(1, sizeof(*r));
	struct cgs_optset sets[66];
	size_t nsets = 0;
	char err[1024];
	int rc, first = 0, status = EXIT_BADINPUT;
	unsigned maxtasks = 1;

	if (!r)
		return 70;
	if (cgs_run_optsets(r, sets, &nsets, err, sizeof(err)))
		goto out;
	rc = cgs_opt_parse(sets, nsets, argc, argv, &first, err, sizeof(err));
	if (rc == 1) {
		usage(stdout);
		status = 0;
		goto out;
	}
	if (!rc && !(rc = cgs_topo_load_desc(&r->topo, r->o.topology, err, sizeof(err))))
		rc = cgs_tasklist_parse(r->o.tasks, &r->topo, &r->tasks, err, sizeof(err));
	if (!rc)
		rc = cgs_cgrun_validate(&r->o, true, &r->cg, err, sizeof(err));
	if (rc) {
		cgs_err("%s", err);
		goto out;
	}
	for (unsigned i = 0; i < r->tasks.n; i++)
		maxtasks = r->tasks.v[i] > maxtasks ? r->tasks.v[i] : maxtasks;
	if (r->cg->detected)
		cgs_cg_layout_print(&r->cg->lay);
	if (r->cg->note[0])
		printf("note: %s\n", r->cg->note);
	if (r->o.topology)
		printf("topology: %s (%u PUs); the cgroup file systems are this machine's\n",
		       r->o.topology, r->topo.pus);
	status = cgs_cg_plan_print(r->cg, maxtasks);
out:
	for (size_t i = 0; i < nsets; i++)
		cgs_opt_free(&sets[i]);
	for (size_t i = 0; i < cgs_nworkloads; i++)
		free(r->wopts[i]);
	cgs_tasklist_free(&r->tasks);
	if (r->topo.t)
		cgs_topo_free(&r->topo);
	cgs_cgrun_free(r->cg);
	free(r);
	return status;
}

struct tally {
	unsigned removed, kept;
};

static void report(void *arg, const char *path, const char *what)
{
	struct tally *t = arg;

	printf("%s: %s\n", path, what);
	if (!strcmp(what, "removed") || !strcmp(what, "would remove"))
		t->removed++;
	else if (strncmp(what, "turned off", 10) && strncmp(what, "would kill", 10) &&
		 strncmp(what, "killing", 7))
		t->kept++;
}

const struct cgs_opt cgs_cleanup_optdefs[] = {
	OPT_BOOL("dry-run", 'n', struct cg_clean_opts, dry_run,
		.help = "only list what would be removed and killed; needs no root"),
	OPT_BOOL("force", 0, struct cg_clean_opts, force,
		.help = "also remove a dead run's cgroup that holds processes not its own, killing them"),
};
const size_t cgs_cleanup_noptdefs = ARRAY_SIZE(cgs_cleanup_optdefs);

static int cmd_cleanup(int argc, char **argv)
{
	struct cg_clean_opts o = { .wait_ns = 2 * 1000000000LL, .report = report };
	struct cgs_optset set = { "cleanup options", cgs_cleanup_optdefs,
				  cgs_cleanup_noptdefs, &o };
	struct tally t = { 0, 0 };
	struct cg_layout l;
	char err[1024];
	int rc, first = 0;

	rc = cgs_opt_parse(&set, 1, argc, argv, &first, err, sizeof(err));
	if (rc == 1) {
		usage(stdout);
		return 0;
	}
	if (!rc && first < argc)
		rc = cgs_errf(err, sizeof(err), -EINVAL,
			      "unknown argument '%s'; see 'cgscale cgroup --help'", argv[first]);
	if (rc) {
		cgs_err("cgroup cleanup: %s", err);
		return EXIT_BADINPUT;
	}
	o.arg = &t;
	if (geteuid() && !o.dry_run) {
		cgs_err("cgroup cleanup needs root: it removes cgroups (try --dry-run to list them)");
		return EXIT_BADINPUT;
	}
	rc = cg_layout_detect(&l, err, sizeof(err));
	if (!rc && l.kind == CG_NONE) {
		printf("no cgroup file system is mounted: nothing to clean up\n");
		return 0;
	}
	if (!rc)
		rc = cg_lib_init(err, sizeof(err));
	if (rc) {
		cgs_err("cgroup cleanup: %s", err);
		return 1;
	}
	rc = cg_clean(&l, &o, err, sizeof(err));
	if (rc < 0) {
		cgs_err("cgroup cleanup: %s", err);
		return 1;
	}
	if (!t.removed && !t.kept)
		printf("no cgroups left behind by cgscale\n");
	else
		printf("%u cgroup%s %s, %u left alone\n", t.removed, t.removed == 1 ? "" : "s",
		       o.dry_run ? "to remove" : "removed", t.kept);
	return rc ? 1 : 0;
}

int cgs_cmd_cgroup(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BADINPUT : 0;
	}
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(argv[1], "cleanup"))
		return cmd_cleanup(argc - 1, argv + 1);
	cgs_err("cgroup: unknown subcommand '%s'; use show or cleanup", argv[1]);
	return EXIT_BADINPUT;
}
