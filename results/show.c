/*
 * show.c - `cgscale show FILE...` prints the summary of result files (a
 * directory counts as one set of runs): the critical environment fields
 * and, per point, the runs and each metric's mean and CoV across runs.
 * `cgscale export --tsv FILE...` writes the long format that R, pandas
 * and gnuplot read directly: one value per row, NA where a factor does
 * not apply (run-level rows have no task, interval or phase).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "../lib/opt.h"
#include "compare.h"

static void show_one(const struct cmp_result *r, FILE *out)
{
	const struct cmp_side *s = &r->sides[0];
	unsigned width = 30;

	fprintf(out, "%s: %u file%s", s->arg, s->nfiles, s->nfiles == 1 ? "" : "s");
	if (s->nfiles == 1)
		fprintf(out, ", %s to %s%s", s->files[0].res.start_time ? s->files[0].res.start_time : "?",
			s->files[0].res.end_time ? s->files[0].res.end_time : "?",
			s->files[0].res.complete ? "" : " (incomplete)");
	fprintf(out, "\n");
	for (unsigned i = 0; i < r->nenv; i++)
		if (r->env[i].critical || !strncmp(r->env[i].field, "tool.", 5) ||
		    !strcmp(r->env[i].field, "machine.hostname"))
			fprintf(out, "  %-34s %.100s\n", r->env[i].field,
				r->env[i].val[0] ? r->env[i].val[0] : "-");
	for (unsigned i = 0; i < r->ngroups; i++) {
		char name[512];

		cmp_group_name(&r->groups[i], name, sizeof(name));
		if (strlen(name) > width)
			width = (unsigned)strlen(name);
	}
	fprintf(out, "\n  %-*s %7s", (int)width, "point", "ok/runs");
	for (size_t m = 0; m < cmp_nmetrics; m++)
		fprintf(out, " %24s", cmp_metrics[m].name);
	fprintf(out, " %8s\n", "drift%");
	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct cmp_group *g = &r->groups[i];
		const struct cmp_cell *c = &g->cell[0];
		char name[512], ok[32];

		cmp_group_name(g, name, sizeof(name));
		snprintf(ok, sizeof(ok), "%u/%u", c->ok, c->runs);
		fprintf(out, "  %-*s %7s", (int)width, name, ok);
		for (size_t m = 0; m < cmp_nmetrics; m++) {
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
				c->fail_reason);
		if (c->disturbed)
			fprintf(out, "  %u disturbed, left out (reasons in the notes)", c->disturbed);
		fprintf(out, "\n");
	}
	for (unsigned i = 0; i < r->nnotes; i++)
		fprintf(out, "  note: %s\n", r->notes[i]);
}

/* The options of show; the base is a bool. */
const struct cgs_opt cmp_show_optdefs[] = {
	{ "keep-disturbed", 0, CGS_OPT_BOOL, 0, NULL, 0, 0, NULL, NULL,
	  "use disturbed runs in the figures instead of leaving them out" },
};
const size_t cmp_show_noptdefs = sizeof(cmp_show_optdefs) / sizeof(cmp_show_optdefs[0]);

static void show_usage(const struct cgs_optset *set, FILE *out)
{
	fprintf(out, "usage: cgscale show [--keep-disturbed] FILE|DIR...\n"
		"Print the summary of result files: the environment that matters for comparing,\n"
		"and per point the runs and each metric's mean and CoV across runs (one value per\n"
		"run). A directory is read recursively as one set of runs. Disturbed runs are\n"
		"counted, listed and left out of the figures, unless --keep-disturbed.\n");
	cgs_opt_help(set, out);
	fprintf(out, "\nExit status: 0, or 2 when an input cannot be read.\n");
}

int cmp_cmd_show(int argc, char **argv)
{
	int status = 0, shown = 0, first = 0, rc;
	bool keep = false;
	struct cgs_optset set = { "show options", cmp_show_optdefs, cmp_show_noptdefs, &keep };
	char err[1024];

	rc = argc < 2 ? 1 : cgs_opt_parse(&set, 1, argc, argv, &first, err, sizeof(err));
	if (rc == 1 || (!rc && first >= argc)) {
		show_usage(&set, argc < 2 || !rc ? stderr : stdout);
		return argc < 2 || !rc ? CMP_EXIT_BADINPUT : 0;
	}
	if (rc) {
		fprintf(stderr, "cgscale show: %s\n", err);
		return CMP_EXIT_BADINPUT;
	}
	for (int a = first; a < argc; a++) {
		struct cmp_result r = { 0 };

		cmp_opts_default(&r.o);
		r.o.keep_unmeasured = true;
		r.o.keep_disturbed = keep;
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
			fprintf(stderr, "cgscale show: %s\n", *err ? err : strerror(-rc));
			status = CMP_EXIT_BADINPUT;
		} else {
			if (shown++)
				printf("\n");
			show_one(&r, stdout);
		}
		cmp_result_free(&r);
	}
	return status;
}

static void tsv_row(FILE *out, const char *file, const struct res_point *p,
		    const char *wopts, const char *metric, const char *task,
		    long interval, const char *phase, double t_s, double value)
{
	fprintf(out, "%s\t%s\t%s\t%u\t%s\t%s\t%u\t%s\t%s\t%s\t", file, p->test, p->mode,
		p->tasks, cmp_point_layout(p), *wopts ? wopts : "NA", p->run,
		p->status ? p->status : "NA", metric, task);
	if (interval < 0)
		fprintf(out, "NA\tNA\tNA\t");
	else
		fprintf(out, "%ld\t%s\t%.9f\t", interval, phase, t_s);
	if (isfinite(value))
		fprintf(out, "%.17g\n", value);
	else
		fprintf(out, "NA\n");
}

static const char *wopts_text(const struct res_point *p)
{
	if (!p->wopts || !json_object_object_length(p->wopts))
		return "";
	return json_object_to_json_string_ext(p->wopts, JSON_C_TO_STRING_PLAIN);
}

static void export_point(FILE *out, const char *file, struct res_point *p)
{
	const char *wopts = wopts_text(p);
	char task[16];

	res_point_summarise(p);
	for (size_t m = 0; m < cmp_nmetrics; m++)
		tsv_row(out, file, p, wopts, cmp_metrics[m].name, "NA", -1, NULL, 0,
			cmp_metric_value(&cmp_metrics[m], p));
	tsv_row(out, file, p, wopts, "total_ops_per_sec", "NA", -1, NULL, 0,
		p->sum.total_ops_per_sec);
	for (unsigned k = 1; k < p->nsamples; k++) {
		double dt = (p->t_ns[k] - p->t_ns[k - 1]) / 1e9, tot = 0;
		const char *phase = res_phase_names[p->phase[k]];

		for (unsigned i = 0; i < p->ntasks; i++) {
			tot += res_ops(p, i, k);
			snprintf(task, sizeof(task), "%u", i);
			tsv_row(out, file, p, wopts, "ops_per_sec", task, k, phase,
				p->t_ns[k] / 1e9, dt > 0 ? res_ops(p, i, k) / dt : NAN);
		}
		tsv_row(out, file, p, wopts, "ops_per_sec", "all", k, phase,
			p->t_ns[k] / 1e9, dt > 0 ? tot / dt : NAN);
	}
}

/* The one option of export; the base is a bool. */
const struct cgs_opt cmp_export_optdefs[] = {
	{ "tsv", 0, CGS_OPT_BOOL, 0, NULL, 0, 0, NULL, NULL,
	  "tab-separated long format, one value per row (the only format so far)" },
};
const size_t cmp_export_noptdefs = sizeof(cmp_export_optdefs) / sizeof(cmp_export_optdefs[0]);

int cmp_cmd_export(int argc, char **argv)
{
	bool tsv = false;
	struct cgs_optset set = { "export options", cmp_export_optdefs, cmp_export_noptdefs, &tsv };
	int first = 0, rc, status = CMP_EXIT_BADINPUT;
	char err[1024] = "";

	rc = cgs_opt_parse(&set, 1, argc, argv, &first, err, sizeof(err));
	if (rc == 1) {
		printf("usage: cgscale export --tsv FILE|DIR...\n"
		       "Write every run and interval of the result files in the long format, with the\n"
		       "header: file test mode tasks cgroup options run status metric task interval\n"
		       "phase t_s value. Run-level metrics have task, interval, phase and t_s NA;\n"
		       "ops_per_sec rows are per task and per interval (task 'all': their sum).\n");
		cgs_opt_help(&set, stdout);
		return 0;
	}
	if (!rc && !tsv)
		snprintf(err, sizeof(err), "give a format: --tsv");
	else if (!rc && first >= argc)
		snprintf(err, sizeof(err), "give one or more result files or directories");
	if (rc || *err) {
		fprintf(stderr, "cgscale export: %s\n", err);
		return CMP_EXIT_BADINPUT;
	}
	printf("file\ttest\tmode\ttasks\tcgroup\toptions\trun\tstatus\tmetric\ttask\tinterval\tphase\tt_s\tvalue\n");
	for (int a = first; a < argc; a++) {
		struct cmp_side s = { 0 };

		if (cmp_side_load(&s, argv[a], err, sizeof(err))) {
			fprintf(stderr, "cgscale export: %s\n", *err ? err : "out of memory");
			cmp_side_free(&s);
			goto out;
		}
		for (unsigned f = 0; f < s.nfiles; f++)
			for (unsigned i = 0; i < s.files[f].res.npoints; i++)
				export_point(stdout, s.files[f].path, &s.files[f].res.points[i]);
		cmp_side_free(&s);
	}
	status = fflush(stdout) ? CMP_EXIT_BADINPUT : 0;
out:
	return status;
}
