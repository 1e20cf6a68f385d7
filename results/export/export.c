/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.c - `cgscale export`: every observation of the result files in
 * one tidy long table (results/SCHEMA.md, "The export"), as TSV, CSV or
 * JSON lines, or as LKP's `key: value` stats (results/compare/lkp_stats.c).
 *
 * Tidy means: one row per value that exists (a metric a point cannot
 * have gives no row, never an NA placeholder); the `scope` column tells
 * per-task rows from whole-point rows, so summing `value` over the task
 * rows of one interval never counts a task twice; "no options" is the
 * value {} (an empty JSON object), never missing; `disturbed` marks the
 * rows of a run compare leaves out (results/model/disturb.h), so that a
 * mean in pandas or R can leave it out too.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/esc.h"
#include "lib/opt.h"
#include "results/compare/model.h"
#include "results/export/export.h"
#include "results/model/disturb.h"
#include "lib/macros.h"

const char *const exp_format_names[] = {
	[EXP_TSV] = "tsv", [EXP_CSV] = "csv", [EXP_JSONL] = "json-lines",
	[EXP_LKP_STATS] = "lkp-stats", NULL,
};

/* The columns, in order; the writers below follow them. */
static const char *const exp_columns[] = {
	"file", "test", "mode", "tasks", "cgroup", "options", "run", "status",
	"scope", "task", "interval", "phase", "t_s", "metric", "unit", "value",
	"disturbed",   /* last, so that scripts that count columns keep working */
};
#define EXP_NCOLS (ARRAY_SIZE(exp_columns))

/* One observation; task/interval < 0 when they do not apply. */
struct exp_row {
	const char *file, *layout, *wopts;
	const struct res_point *p;
	const char *scope;
	long task, interval;
	const char *phase;
	double t_s;
	const char *metric, *unit;
	double value;
	int disturbed;         /* 1, 0, or -1: not known (never checked) */
};

/* Text between the format's own escapes: any other control character,
 * C1 control or invalid UTF-8 as \xNN (lib/esc.h), never raw; a tab
 * or line end (CSV keeps them, quoted) as the format says. */
static void put_text(FILE *out, const char *s, size_t n)
{
	if (n)
		cgs_esc_write(out, s, n, CGS_ESC_KEEP_LINES);
}

/* TSV: backslash, tab, newline and carriage return as \\ \t \n \r. */
static void tsv_str(FILE *out, const char *s)
{
	for (;;) {
		size_t n = strcspn(s, "\\\t\n\r");

		put_text(out, s, n);
		s += n;
		if (!*s)
			return;
		fputs(*s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : "\\r", out);
		s++;
	}
}

/* CSV (RFC 4180): quoted when it holds a comma, a quote or a line end. */
static void csv_str(FILE *out, const char *s)
{
	bool quote = s[strcspn(s, ",\"\r\n")];

	if (quote)
		fputc('"', out);
	for (;;) {
		size_t n = strcspn(s, "\"\r\n");

		put_text(out, s, n);
		s += n;
		if (!*s)
			break;
		fputs(*s == '"' ? "\"\"" : *s == '\r' ? "\r" : "\n", out);
		s++;
	}
	if (quote)
		fputc('"', out);
}

/* The row's fields as text; NULL where the field does not apply. */
static void row_fields(const struct exp_row *r, const char *f[EXP_NCOLS],
		       char num[6][40])
{
	const struct res_point *p = r->p;

	snprintf(num[0], sizeof(num[0]), "%u", p->tasks);
	snprintf(num[1], sizeof(num[1]), "%u", p->run);
	snprintf(num[2], sizeof(num[2]), "%ld", r->task);
	snprintf(num[3], sizeof(num[3]), "%ld", r->interval);
	snprintf(num[4], sizeof(num[4]), "%.9f", r->t_s);
	snprintf(num[5], sizeof(num[5]), "%.17g", r->value);
	f[0] = r->file; f[1] = p->test; f[2] = p->mode; f[3] = num[0];
	f[4] = r->layout; f[5] = r->wopts; f[6] = num[1];
	f[7] = p->status ? res_status_names[p->status] : "ok"; f[8] = r->scope;
	f[9] = r->task >= 0 ? num[2] : NULL;
	f[10] = r->interval >= 0 ? num[3] : NULL;
	f[11] = r->interval >= 0 ? r->phase : NULL;
	f[12] = r->interval >= 0 ? num[4] : NULL;
	f[13] = r->metric; f[14] = r->unit; f[15] = num[5];
	/* as R and pandas both read a logical column */
	f[16] = r->disturbed < 0 ? NULL : r->disturbed ? "TRUE" : "FALSE";
}

static void write_jsonl(FILE *out, const struct exp_row *r)
{
	struct json_object *o = json_object_new_object();
	const struct res_point *p = r->p;

	if (!o)
		return;
	json_object_object_add(o, "file", json_object_new_string(r->file));
	json_object_object_add(o, "test", json_object_new_string(p->test));
	json_object_object_add(o, "mode", json_object_new_string(p->mode));
	json_object_object_add(o, "tasks", json_object_new_int64(p->tasks));
	json_object_object_add(o, "cgroup", json_object_new_string(r->layout));
	json_object_object_add(o, "options", json_object_new_string(r->wopts));
	json_object_object_add(o, "run", json_object_new_int64(p->run));
	json_object_object_add(o, "status", json_object_new_string(p->status ? res_status_names[p->status] : "ok"));
	json_object_object_add(o, "scope", json_object_new_string(r->scope));
	json_object_object_add(o, "task", r->task >= 0 ? json_object_new_int64(r->task) : NULL);
	json_object_object_add(o, "interval", r->interval >= 0 ?
			       json_object_new_int64(r->interval) : NULL);
	json_object_object_add(o, "phase", r->interval >= 0 ?
			       json_object_new_string(r->phase) : NULL);
	json_object_object_add(o, "t_s", r->interval >= 0 ?
			       json_object_new_double(r->t_s) : NULL);
	json_object_object_add(o, "metric", json_object_new_string(r->metric));
	json_object_object_add(o, "unit", json_object_new_string(r->unit));
	json_object_object_add(o, "value", json_object_new_double(r->value));
	json_object_object_add(o, "disturbed", r->disturbed < 0 ? NULL :
			       json_object_new_boolean(r->disturbed));
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void write_row(FILE *out, enum exp_format fmt, const struct exp_row *r)
{
	const char *f[EXP_NCOLS];
	char num[6][40];

	if (!isfinite(r->value))
		return;   /* an observation that does not exist has no row */
	if (fmt == EXP_JSONL) {
		write_jsonl(out, r);
		return;
	}
	row_fields(r, f, num);
	for (size_t c = 0; c < EXP_NCOLS; c++) {
		if (c)
			fputc(fmt == EXP_TSV ? '\t' : ',', out);
		if (!f[c])
			fputs(fmt == EXP_TSV ? "NA" : "", out);
		else if (fmt == EXP_TSV)
			tsv_str(out, f[c]);
		else
			csv_str(out, f[c]);
	}
	fputc('\n', out);
}

static void write_header(FILE *out, enum exp_format fmt)
{
	if (fmt == EXP_JSONL)
		return;
	for (size_t c = 0; c < EXP_NCOLS; c++)
		fprintf(out, "%s%s", c ? (fmt == EXP_TSV ? "\t" : ",") : "", exp_columns[c]);
	fputc('\n', out);
}

const char *exp_wopts_text(const struct res_point *p)
{
	if (!p->wopts || !json_object_object_length(p->wopts))
		return "{}";
	return json_object_to_json_string_ext(p->wopts, JSON_C_TO_STRING_PLAIN);
}

/* The point's per-interval rows: each task, then the whole point. */
static void export_intervals(FILE *out, enum exp_format fmt, struct exp_row *r)
{
	const struct res_point *p = r->p;

	for (unsigned k = 1; k < p->nsamples; k++) {
		double dt = (p->t_ns[k] - p->t_ns[k - 1]) / 1e9;
		double tot = 0, atot[CGS_MAX_AUX] = { 0 };
		char name[CGS_MAX_AUX][80];

		if (dt <= 0)
			continue;
		r->interval = k;
		r->phase = res_phase_names[p->phase[k]];
		r->t_s = p->t_ns[k] / 1e9;
		r->scope = "task";
		for (unsigned i = 0; i < p->ntasks; i++) {
			r->task = i;
			r->metric = "ops_per_sec", r->unit = "ops/s";
			r->value = res_ops(p, i, k) / dt;
			tot += r->value;
			write_row(out, fmt, r);
			for (unsigned a = 0; a < p->naux; a++) {
				snprintf(name[a], sizeof(name[a]), "%s_rate", p->aux_name[a]);
				r->metric = name[a], r->unit = p->aux_unit[a];
				r->value = p->aux[a][(size_t)i * p->nsamples + k] / dt *
					   p->aux_scale[a];
				atot[a] += r->value;
				write_row(out, fmt, r);
			}
		}
		r->scope = "point", r->task = -1;
		r->metric = "ops_per_sec", r->unit = "ops/s", r->value = tot;
		write_row(out, fmt, r);
		for (unsigned a = 0; a < p->naux && p->ntasks; a++) {
			r->metric = name[a], r->unit = p->aux_unit[a], r->value = atot[a];
			write_row(out, fmt, r);
		}
	}
}

/* One point: its run-level metrics (ok points only), then its intervals. */
static void export_point(FILE *out, enum exp_format fmt, const char *file,
			 struct res_point *p)
{
	int dist = res_disturbed(p, NULL, 0);
	struct exp_row r = { .file = file, .p = p, .layout = cmp_point_layout(p),
			     .wopts = exp_wopts_text(p), .scope = "point",
			     .task = -1, .interval = -1,
			     /* a point that is not ok is never judged: false */
			     .disturbed = dist > 0 ? 1 : !dist || p->status != RES_OK ? 0 : -1 };
	char name[CGS_MAX_AUX][80];
	struct cmp_mset ms;

	res_point_summarise(p);
	cmp_mset_init(&ms);
	if (cmp_mset_add_point(&ms, p))   /* cannot be: CGS_MAX_AUX is small */
		cmp_mset_init(&ms);
	if (!p->status || p->status == RES_OK) {
		for (size_t m = 0; m < ms.n; m++) {
			r.metric = ms.m[m].name, r.unit = ms.m[m].unit;
			r.value = cmp_metric_value(&ms.m[m], p);
			write_row(out, fmt, &r);
		}
		r.metric = "total_ops_per_sec", r.unit = "ops/s";
		r.value = p->sum.total_ops_per_sec;
		write_row(out, fmt, &r);
		for (unsigned a = 0; a < p->naux; a++) {
			snprintf(name[a], sizeof(name[a]), "%s_rate", p->aux_name[a]);
			r.metric = name[a], r.unit = p->aux_unit[a];
			r.value = p->sum.aux_rate[a];
			write_row(out, fmt, &r);
		}
	}
	export_intervals(out, fmt, &r);
}

int exp_write_table(FILE *out, enum exp_format fmt, struct cmp_side *sides,
		    unsigned nsides)
{
	/* the runs compare would leave out, by the same rules */
	for (unsigned s = 0; s < nsides; s++)
		for (unsigned f = 0; f < sides[s].nfiles; f++)
			if (res_disturb_mark_unmarked(&sides[s].files[f].res))
				return -ENOMEM;
	write_header(out, fmt);
	for (unsigned s = 0; s < nsides; s++)
		for (unsigned f = 0; f < sides[s].nfiles; f++)
			for (unsigned i = 0; i < sides[s].files[f].res.npoints; i++)
				export_point(out, fmt, sides[s].files[f].path,
					     &sides[s].files[f].res.points[i]);
	return ferror(out) ? -EIO : 0;
}
