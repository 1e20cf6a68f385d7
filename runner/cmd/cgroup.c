/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup.c - `cgscale cgroup show [run options]` prints the cgroups a run
 * with these options would create, where, with which knobs, and creates
 * nothing; `cgscale cgroup cleanup [--dry-run]` removes what a killed run
 * left behind: only cgroups with our name prefix and our marker whose
 * runner is gone and whose lock no one holds (cgroup-setup/cg_clean.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/cgroups/cgrun.h"
#include "runner/run/run.h"
#include "runner/core/topo_desc.h"
#include "lib/esc.h"
#include "lib/macros.h"
#include "lib/optdoc.h"
#include "lib/util.h"
#include "runner/cmd/cmd.h"

static const char help_head[] =
	"usage: cgscale cgroup show [run options] [TEST...]\n"
	"       cgscale cgroup cleanup [--dry-run] [--force]\n\n"
	"  show     print the cgroup layout of this system and the cgroups 'cgscale run'\n"
	"           would create with these options (--cgroup-depth, --cgroup-parent,\n"
	"           --cgroup-set, --cgroup-leaf, -t, --mode); creates nothing. With\n"
	"           --topology DESC|XML, -t resolves on that machine (sweep, 50%, all).\n"
	"  cleanup  remove the cgroups of cgscale runs that were killed: only those named\n"
	"           " CG_PREFIX "* that carry the " CG_MARKER " marker of a runner that is\n"
	"           gone and whose lock no one holds; never anything else, nor a dead\n"
	"           run's cgroup that holds a live run's. The workers the dead run recorded\n"
	"           in them (pid and start time) are killed; a cgroup that holds any other\n"
	"           process, whatever its name, is kept and its pids named, unless --force.\n"
	"           --dry-run shows what would be removed and killed.\n";

static const char help_tail[] =
	"\nexit status:\n"
	"  0  done\n"
	"  1  show: a layout cannot be made here; cleanup: some cgroups could not be removed\n"
	"  2  bad input\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-cgroup(1) - hand-written text; SYNOPSIS, DESCRIPTION's list,\n"
	".\\\" OPTIONS and EXIT STATUS are generated from the --help text and the\n"
	".\\\" option tables at build time.\n"
	".TH CGSCALE\\-CGROUP 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-cgroup \\- show the cgroups a run would create, or clean up a killed run's\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	".B show\n"
	"needs no privileges and takes every option of\n"
	".BR cgscale\\-run (1);\n"
	"it prints the tree per layout of\n"
	".BR \\-\\-cgroup\\-depth ,\n"
	"where, and with which knobs.\n"
	".B cleanup\n"
	"removes what a SIGKILL or a crash left; removing needs root.\n"
	".SH OPTIONS\n"
	".B cleanup\n"
	"takes the cleanup options;\n"
	".B show\n"
	"takes the run options, those of\n"
	".BR cgscale\\-run (1).\n"
	"@OPTIONS@\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale cgroup show \\-\\-cgroup\\-depth 0,3 \\-\\-cgroup\\-set 1:memory.max=1G \\-t 4\n"
	"cgscale cgroup cleanup \\-\\-dry\\-run\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-run (1),\n"
	".BR cgroups (7)\n";

static int cmd_show(const struct cgs_command *self, int argc, char **argv)
{
	struct cgs_run *r = calloc(1, sizeof(*r));
	struct cgs_optset sets[CGS_RUN_MAX_SETS];
	size_t nsets = 0;
	char err[1024], desc[4 * PATH_MAX];
	int rc, first = 0, status = CGS_EXIT_BADINPUT;
	unsigned maxtasks = 1;

	if (!r)
		return CGS_EXIT_INTERNAL;
	if (cgs_run_optsets(r, sets, &nsets, err, sizeof(err)))
		goto out;
	status = cgs_cmd_parse(self, sets, nsets, argc, argv, &first);
	if (status >= 0)
		goto out;
	status = CGS_EXIT_BADINPUT;
	rc = cgs_topo_load_desc(&r->topo, r->o.topology, err, sizeof(err));
	if (!rc)
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
		       cgs_esc(r->o.topology, desc, sizeof(desc)), r->topo.pus);
	status = cgs_cg_plan_print(r->cg, maxtasks);
out:
	cgs_run_optsets_free(r, sets, nsets);
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
	char safe[4 * PATH_MAX];

	printf("%s: %s\n", cgs_esc(path, safe, sizeof(safe)), what);
	if (!strcmp(what, "removed") || !strcmp(what, "would remove"))
		t->removed++;
	else if (strncmp(what, "turned off", 10) && strncmp(what, "would kill", 10) &&
		 strncmp(what, "killing", 7))
		t->kept++;
}

static const struct cgs_opt cleanup_opts[] = {
	OPT_BOOL("dry-run", 'n', struct cg_clean_opts, dry_run,
		.help = "only list what would be removed and killed; needs no root"),
	OPT_BOOL("force", 0, struct cg_clean_opts, force,
		.help = "also remove a dead run's cgroup that holds processes not its own, killing them"),
};

/* cleanup opens as cgroup does; its errors name it. */
static const struct cgs_command cleanup_cmd = {
	.name = "cgroup cleanup",
	.opts = { "cleanup options", cleanup_opts, ARRAY_SIZE(cleanup_opts), NULL },
	.help_head = help_head,
	.help_tail = help_tail,
	.help_omits_opts = true,
	.err_who = "cgroup cleanup",
};

static int cmd_cleanup(int argc, char **argv)
{
	struct cg_clean_opts o = { .wait_ns = 2 * 1000000000LL, .report = report };
	struct cgs_optset set = cleanup_cmd.opts;
	struct tally t = { 0, 0 };
	struct cg_layout l;
	char err[1024];
	int rc, first = 0;

	set.base = &o;
	rc = cgs_cmd_parse(&cleanup_cmd, &set, 1, argc, argv, &first);
	if (rc >= 0)
		return rc;
	if (first < argc) {
		cgs_err("cgroup cleanup: unknown argument '%s'; see 'cgscale cgroup --help'",
			argv[first]);
		return CGS_EXIT_BADINPUT;
	}
	o.arg = &t;
	if (geteuid() && !o.dry_run) {
		cgs_err("cgroup cleanup needs root: it removes cgroups (try --dry-run to list them)");
		return CGS_EXIT_BADINPUT;
	}
	rc = cg_layout_detect(&l, err, sizeof(err));
	if (!rc && l.kind == CG_NONE) {
		printf("no cgroup file system is mounted: nothing to clean up\n");
		return CGS_EXIT_OK;
	}
	if (!rc)
		rc = cg_lib_init(err, sizeof(err));
	if (rc) {
		cgs_err("cgroup cleanup: %s", err);
		return CGS_EXIT_FAIL;
	}
	rc = cg_clean(&l, &o, err, sizeof(err));
	if (rc < 0) {
		cgs_err("cgroup cleanup: %s", err);
		return CGS_EXIT_FAIL;
	}
	if (!t.removed && !t.kept)
		printf("no cgroups left behind by cgscale\n");
	else
		printf("%u cgroup%s %s, %u left alone\n", t.removed, t.removed == 1 ? "" : "s",
		       o.dry_run ? "to remove" : "removed", t.kept);
	return rc ? CGS_EXIT_FAIL : CGS_EXIT_OK;
}

static int cmd_cgroup(const struct cgs_command *self, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cgs_cmd_help(self, NULL, 0, argc < 2 ? stderr : stdout);
		return argc < 2 ? CGS_EXIT_BADINPUT : CGS_EXIT_OK;
	}
	if (!strcmp(argv[1], "show"))
		return cmd_show(self, argc - 1, argv + 1);
	if (!strcmp(argv[1], "cleanup"))
		return cmd_cleanup(argc - 1, argv + 1);
	cgs_err("cgroup: unknown subcommand '%s'; use show or cleanup", argv[1]);
	return CGS_EXIT_BADINPUT;
}

/* The page: cleanup's options, then show's (run's own); the completion
 * after show: run's (cleanup's are in complete_head). */
static size_t doc_sets(enum cgs_doc_use use, struct cgs_optset *sets, size_t max)
{
	size_t n = 0;

	if (use == CGS_DOC_MAN && n < max)
		sets[n++] = cleanup_cmd.opts;
	if (n + CGS_RUN_MAX_SETS <= max)
		n += cgs_run_own_optsets(NULL, sets + n);
	return n;
}

/* bash: the subcommands, and cleanup's options. */
static void complete_head(FILE *out)
{
	fputs("\tif [ \"$cmd\" = cgroup ]; then\n"
	      "\t\tif [ \"$cword\" -eq 2 ]; then\n"
	      "\t\t\tCOMPREPLY=($(compgen -W \"show cleanup --help\" -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n"
	      "\t\tif [ \"${words[2]}\" = cleanup ]; then\n"
	      "\t\t\tCOMPREPLY=($(compgen -W \"--help", out);
	cgs_opt_words(&cleanup_cmd.opts, out);
	fputs("\" -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n\tfi\n", out);
}

/* zsh: the subcommands, then cleanup's options or show's (run's). */
static void complete_zsh(FILE *out)
{
	struct cgs_optset sets[CGS_RUN_MAX_SETS];
	size_t n = cgs_run_own_optsets(NULL, sets);

	fputs("\t(cgroup)\n"
	      "\t\tif (( CURRENT == 2 )); then\n"
	      "\t\t\tlocal -a subs\n"
	      "\t\t\tsubs=('show:print the cgroups a run with these options would create'\n"
	      "\t\t\t      'cleanup:remove the cgroups of cgscale runs that were killed')\n"
	      "\t\t\t_describe -t commands 'cgroup command' subs && ret=0\n"
	      "\t\t\treturn ret\n\t\tfi\n"
	      "\t\tlocal sub=$words[2]\n\t\tshift words\n\t\t(( CURRENT-- ))\n"
	      "\t\tcase $sub in\n"
	      "\t\t(cleanup)\n\t\t\t_arguments -s -S : \\\n"
	      "\t\t\t'(- *)--help[print the help and exit]' \\\n", out);
	cgs_opt_zsh_specs(&cleanup_cmd.opts, NULL, out);
	fputs("\t\t\t&& ret=0 ;;\n"
	      "\t\t(show)\n\t\t\t_arguments -s -S : \\\n"
	      "\t\t\t'(- *)--help[print the help and exit]' \\\n", out);
	for (size_t i = 0; i < n; i++)
		cgs_opt_zsh_specs(&sets[i], CGS_COMPLETE_RUN_VALUES, out);
	fputs("\t\t\t'*:test:_cgscale_tests' \\\n\t\t\t&& ret=0 ;;\n\t\tesac ;;\n", out);
}

const struct cgs_command cgs_cmd_cgroup = {
	.name = "cgroup",
	.summary = "show the cgroups a run would create, or clean up a killed run's",
	.fn = cmd_cgroup,
	.doc_sets = doc_sets,
	.help_head = help_head,
	.help_tail = help_tail,
	.help_omits_opts = true,
	.man = man,
	.complete_args = CGS_COMPLETE_WORKLOADS,
	.complete_values = CGS_COMPLETE_RUN_VALUES,
	.complete_head = complete_head,
	.complete_zsh = complete_zsh,
};
