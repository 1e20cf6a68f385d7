/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * show.c - `cgscale show FILE...` prints the summary of result files (a
 * directory counts as one set of runs): the critical environment fields
 * and, per point, the runs and each metric's mean and CoV across runs.
 * (`cgscale export` lives in export.c and runner/cmd/export.c.)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/esc.h"
#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/util.h"
#include "results/compare/model.h"
#include "runner/cmd/cmd.h"

/* The file(s) of the input and the environment that matters. */
/* Every string here is the file's (or its name): escaped (lib/esc.h). */
static void show_head(const struct cmp_result *r, FILE *out)
{
	const struct cmp_side *s = &r->sides[0];
	const struct res_file *f = s->nfiles == 1 ? &s->files[0].res : NULL;
	char a[1024], b[128], c[128];

	fprintf(out, "%s: %u file%s", cgs_esc(s->arg, a, sizeof(a)), s->nfiles,
		s->nfiles == 1 ? "" : "s");
	if (f)
		fprintf(out, ", %s to %s%s", f->start_time ? cgs_esc(f->start_time, b, sizeof(b)) : "?",
			f->end_time ? cgs_esc(f->end_time, c, sizeof(c)) : "?",
			f->complete ? "" : " (incomplete)");
	fprintf(out, "\n");
	for (unsigned i = 0; i < r->nenv; i++)
		if (r->env[i].critical || !strncmp(r->env[i].field, "tool.", 5) ||
		    !strcmp(r->env[i].field, "machine.hostname"))
			fprintf(out, "  %-34s %.100s\n", cgs_esc(r->env[i].field, b, sizeof(b)),
				r->env[i].val[0] ? cgs_esc(r->env[i].val[0], a, sizeof(a)) : "-");
}

/* The line of one point: runs, each metric's mean and CoV, drift. */
static void show_point(const struct cmp_result *r, const struct cmp_group *g,
		       unsigned width, FILE *out)
{
	const struct cmp_cell *c = &g->cell[0];
	char name[512], ok[32], why[1024];

	cmp_group_name(g, name, sizeof(name));
	snprintf(ok, sizeof(ok), "%u/%u", c->ok, c->runs);
	fprintf(out, "  %-*s %7s", (int)width, name, ok);
	for (size_t m = 0; m < r->ms.n; m++) {
		char v[64];

		if (!c->n[m])
			snprintf(v, sizeof(v), "-");
		else
			snprintf(v, sizeof(v), fabs(c->d[m].mean) >= 100 ?
				 "%.0f" : "%.4g", c->d[m].mean);
		if (c->n[m] >= 2)
			snprintf(v + strlen(v), sizeof(v) - strlen(v),
				 " \xc2\xb1%.1f%%", c->d[m].cov_pct);
		fprintf(out, " %24s", v);
	}
	if (isfinite(c->drift_pct))
		fprintf(out, " %+8.1f", c->drift_pct);
	else
		fprintf(out, " %8s", "-");
	if (c->runs > c->ok + c->disturbed)
		fprintf(out, "  %u not ok: %s", c->runs - c->ok - c->disturbed,
			cgs_esc(c->fail_reason, why, sizeof(why)));
	if (c->disturbed)
		fprintf(out, "  %u disturbed, left out (reasons in the notes)", c->disturbed);
	fprintf(out, "\n");
}

static void show_one(const struct cmp_result *r, FILE *out)
{
	char note[4096];
	unsigned width = 30;

	show_head(r, out);
	for (unsigned i = 0; i < r->ngroups; i++) {
		char name[512];

		cmp_group_name(&r->groups[i], name, sizeof(name));
		if (strlen(name) > width)
			width = (unsigned)strlen(name);
	}
	fprintf(out, "\n  %-*s %7s", (int)width, "point", "ok/runs");
	for (size_t m = 0; m < r->ms.n; m++)
		fprintf(out, " %24s", r->ms.m[m].name);
	fprintf(out, " %8s\n", "drift%");
	for (unsigned i = 0; i < r->ngroups; i++)
		show_point(r, &r->groups[i], width, out);
	for (unsigned i = 0; i < r->nnotes; i++)
		fprintf(out, "  note: %s\n", cgs_esc(r->notes[i], note, sizeof(note)));
}

/* The options of show. */
struct show_cli {
	bool keep_disturbed;
};

static const struct cgs_opt show_opts[] = {
	OPT_BOOL("keep-disturbed", 0, struct show_cli, keep_disturbed,
		.help = "use disturbed runs in the figures instead of leaving them out"),
};

static const char help_head[] =
	"usage: cgscale show [--keep-disturbed] FILE|DIR...\n"
	"Print the summary of result files: the environment that matters for comparing,\n"
	"and per point the runs and each metric's mean and CoV across runs (one value per\n"
	"run). A directory is read recursively as one set of runs. Disturbed runs are\n"
	"counted, listed and left out of the figures, unless --keep-disturbed.\n";

static const char help_tail[] =
	"\nexit status:\n"
	"  0  printed\n"
	"  2  bad usage, or an input cannot be read\n";

static const char man[] =
	".\\\" SPDX-License-Identifier: GPL-2.0-or-later\n"
	".\\\" cgscale-show(1) - hand-written; SYNOPSIS, DESCRIPTION, OPTIONS and EXIT\n"
	".\\\" STATUS are generated from the --help text and the option table.\n"
	".TH CGSCALE\\-SHOW 1 \"\" \"cgscale @VERSION@\" \"cgscale manual\"\n"
	".SH NAME\n"
	"cgscale\\-show \\- print the summary of result files\n"
	".SH SYNOPSIS\n"
	"@SYNOPSIS@\n"
	".SH DESCRIPTION\n"
	"@HELP_HEAD@\n"
	".PP\n"
	"A run is disturbed when the runner saw something else take its CPUs\n"
	"(steal time, a late sampler); the result file marks it.\n"
	".SH OPTIONS\n"
	"@OPTIONS@\n"
	"@HELP_TAIL@\n"
	".SH EXAMPLES\n"
	".EX\n"
	"cgscale show results/runs/\n"
	".EE\n"
	".SH SEE ALSO\n"
	".BR cgscale\\-compare (1),\n"
	".BR cgscale\\-export (1)\n";

/* show_one on stdout, escaped whole (lib/esc.h): strings from the file
 * drive no terminal. 0, or -errno said on stderr. */
static int print_one(const struct cmp_result *r)
{
	struct cgs_esc_buf b;
	int rc = cgs_esc_open(&b);

	if (!rc) {
		show_one(r, b.f);
		rc = cgs_esc_close(&b, stdout);
	}
	if (rc)
		cgs_errs("show", "cannot write the output: %s", strerror(-rc));
	return rc;
}

static int cmd_show(const struct cgs_command *self, int argc, char **argv)
{
	int status = 0, shown = 0, first = 0, rc;
	struct show_cli so = { 0 };
	struct cgs_optset set;
	char err[1024];

	status = cgs_cmd_open(self, &set, &so, argc, argv, &first);
	if (status < 0 && first >= argc) {
		cgs_cmd_help(self, &set, 1, stderr);
		status = CGS_EXIT_BADINPUT;
	}
	if (status >= 0)
		return status;
	status = 0;
	for (int a = first; a < argc; a++) {
		struct cmp_result r = { 0 };

		cmp_opts_default(&r.o);
		r.o.keep_unmeasured = true;
		r.o.keep_disturbed = so.keep_disturbed;
		r.sides = calloc(1, sizeof(*r.sides));
		if (r.sides) {
			r.nsides = 1;
			snprintf(r.sides[0].label, sizeof(r.sides[0].label), "A");
		}
		err[0] = 0;
		rc = r.sides ? cmp_side_load(&r.sides[0], argv[a], err, sizeof(err)) : -ENOMEM;
		if (!rc)
			rc = cmp_analyse(&r, err, sizeof(err));
		if (rc == -EXDEV) {
			/* mixed environments within one input are worth showing */
			rc = 0;
			cmp_note(&r, "%s", r.problem);
		}
		if (rc) {
			cgs_errs("show", "%s", *err ? err : strerror(-rc));
			status = CGS_EXIT_BADINPUT;
		} else {
			if (shown++)
				printf("\n");
			if (print_one(&r))
				status = CGS_EXIT_FAIL;
		}
		cmp_result_free(&r);
	}
	return status;
}

const struct cgs_command cgs_cmd_show = {
	.name = "show",
	.summary = "print the summary of result files",
	.fn = cmd_show,
	.opts = { "show options", show_opts, ARRAY_SIZE(show_opts), NULL },
	.help_head = help_head,
	.help_tail = help_tail,
	.err_who = "show",
	.man = man,
	.complete_args = "-f",
};
