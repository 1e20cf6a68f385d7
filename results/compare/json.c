/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - the machine formats of `cgscale compare`: --format
 * json (every statistic, every run value, the environment, the verdicts
 * and the exit status; NaN becomes null; the change plain, with its
 * better/worse "effect") and --junit FILE (one test case
 * per point, metric and non-baseline side; REGRESSION is a failure,
 * INCONCLUSIVE and NOISY are skipped), written atomically.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/util.h"
#include "results/compare/fmt.h"
#include "results/compare/model.h"
#include "results/compare/profile.h"
#include "results/compare/why.h"
#include "lib/version.h"

static struct json_object *settings_json(const struct cmp_result *r)
{
	struct json_object *o = json_object_new_object(), *t = json_object_new_object();

	cgs_jadd(o, "axis", cgs_jstr(r->o.axis));
	for (int c = 0; c < CMP_NCLASS; c++)
		cgs_jadd(t, cmp_class_names[c], cgs_jnum(r->o.threshold[c]));
	cgs_jadd(o, "threshold_pct", t);
	cgs_jadd(o, "max_cov_pct", cgs_jnum(r->o.max_cov));
	cgs_jadd(o, "alpha", cgs_jnum(r->o.alpha));
	cgs_jadd(o, "ci_level", cgs_jnum(1 - r->o.alpha));
	cgs_jadd(o, "ci_method", cgs_jstr(r->o.welch ? "welch t interval of the log ratio"
					     : "exact hodges-lehmann rank interval"));
	/* absent before: change_pct and its CI had + meaning better */
	cgs_jadd(o, "change_sign", cgs_jstr("plain"));
	cgs_jadd(o, "resamples", json_object_new_int64(r->o.resamples));
	cgs_jadd(o, "seed", json_object_new_uint64(r->o.seed));
	cgs_jadd(o, "p_from", cgs_jstr(r->o.welch ? "welch" : "mann-whitney"));
	cgs_jadd(o, "fail_on_inconclusive", json_object_new_boolean(r->o.fail_on_inconclusive));
	cgs_jadd(o, "bisect", json_object_new_boolean(r->o.bisect));
	return o;
}

static struct json_object *sides_json(const struct cmp_result *r)
{
	struct json_object *a = json_object_new_array();

	for (unsigned s = 0; s < r->nsides; s++) {
		struct json_object *o = json_object_new_object();
		struct json_object *f = json_object_new_array();

		cgs_jadd(o, "label", cgs_jstr(r->sides[s].label));
		cgs_jadd(o, "arg", cgs_jstr(r->sides[s].arg));
		cgs_jadd(o, "name", cgs_jstr(r->sides[s].name));
		for (unsigned i = 0; i < r->sides[s].nfiles; i++)
			json_object_array_add(f, cgs_jstr(r->sides[s].files[i].path));
		cgs_jadd(o, "files", f);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *env_json(const struct cmp_result *r)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < r->nenv; i++) {
		const struct cmp_envrow *e = &r->env[i];
		struct json_object *o = json_object_new_object();
		struct json_object *v = json_object_new_object();

		cgs_jadd(o, "field", cgs_jstr(e->field));
		cgs_jadd(o, "kind", cgs_jstr(e->axis ? "axis" : e->critical ? "critical" : "info"));
		cgs_jadd(o, "differs", json_object_new_boolean(e->differs));
		cgs_jadd(o, "mixed", json_object_new_boolean(e->mixed));
		for (unsigned s = 0; s < r->nsides; s++)
			cgs_jadd(v, r->sides[s].label, cgs_jstr(e->val[s]));
		cgs_jadd(o, "values", v);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *desc_json(const struct cmp_cell *c, size_t m)
{
	const struct st_desc *d = &c->d[m];
	struct json_object *o = json_object_new_object(), *v = json_object_new_array();

	cgs_jadd(o, "n", json_object_new_int64((int64_t)d->n));
	cgs_jadd(o, "mean", cgs_jnum(d->mean));
	cgs_jadd(o, "median", cgs_jnum(d->median));
	cgs_jadd(o, "stddev", cgs_jnum(d->sd));
	cgs_jadd(o, "cov_pct", cgs_jnum(d->cov_pct));
	cgs_jadd(o, "min", cgs_jnum(d->min));
	cgs_jadd(o, "max", cgs_jnum(d->max));
	for (size_t i = 0; i < c->n[m]; i++)
		json_object_array_add(v, cgs_jnum(c->v[m][i]));
	cgs_jadd(o, "values", v);
	return o;
}

static struct json_object *delta_json(const struct cmp_result *r,
				      const struct cmp_group *g, unsigned s, size_t m)
{
	const struct cmp_metric *mt = &r->ms.m[m];
	const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "side", cgs_jstr(r->sides[s].label));
	cgs_jadd(o, "metric", cgs_jstr(mt->name));
	cgs_jadd(o, "unit", cgs_jstr(mt->unit));
	cgs_jadd(o, "direction", cgs_jstr(mt->dir > 0 ? "higher_is_better" : "lower_is_better"));
	cgs_jadd(o, "class", cgs_jstr(cmp_class_names[mt->cls]));
	cgs_jadd(o, "threshold_pct", cgs_jnum(d->threshold));
	cgs_jadd(o, "change_pct", cgs_jnum(d->pct));
	/* B's mean over A's: what the text writes as "x788" from +900% */
	cgs_jadd(o, "ratio", cgs_jnum(isnan(d->pct) ? NAN : 1 + d->pct / 100));
	cgs_jadd(o, "from_zero", json_object_new_boolean(d->from_zero));
	cgs_jadd(o, "to_zero", json_object_new_boolean(d->to_zero));
	cgs_jadd(o, "bh_family", cgs_jstr(d->sporadic ? "sporadic" : "others"));
	cgs_jadd(o, "ci_low_pct", cgs_jnum(d->lo));
	cgs_jadd(o, "ci_high_pct", cgs_jnum(d->hi));
	cgs_jadd(o, "effect", cgs_jstr(cmp_effect(d)));
	cgs_jadd(o, "p", cgs_jnum(d->p));
	cgs_jadd(o, "mann_whitney_u", cgs_jnum(d->mwu.stat));
	cgs_jadd(o, "mann_whitney_p", cgs_jnum(d->mwu.p));
	cgs_jadd(o, "mann_whitney_exact", json_object_new_boolean(d->mwu.exact));
	cgs_jadd(o, "welch_t", cgs_jnum(d->welch.stat));
	cgs_jadd(o, "welch_df", cgs_jnum(d->welch.df));
	cgs_jadd(o, "welch_p", cgs_jnum(d->welch.p));
	cgs_jadd(o, "bh_q", cgs_jnum(d->q));
	cgs_jadd(o, "min_p", cgs_jnum(d->min_p));
	cgs_jadd(o, "runs_needed", json_object_new_int64(d->runs_needed));
	cgs_jadd(o, "hodges_lehmann_pct", cgs_jnum(d->hl_pct));
	cgs_jadd(o, "hodges_lehmann_ci_low_pct", cgs_jnum(d->hl_lo));
	cgs_jadd(o, "hodges_lehmann_ci_high_pct", cgs_jnum(d->hl_hi));
	cgs_jadd(o, "one_outlier", json_object_new_boolean(d->one_outlier));
	cgs_jadd(o, "verdict_by_rank_ci", json_object_new_boolean(d->by_rank));
	cgs_jadd(o, "invocations", cmp_inv_json(r, g, s, m));
	cgs_jadd(o, "verdict", cgs_jstr(cmp_verdict_names[d->verdict]));
	cgs_jadd(o, "why", cgs_jstr(d->why));
	return o;
}

static struct json_object *group_json(const struct cmp_result *r, const struct cmp_group *g)
{
	struct json_object *o = json_object_new_object(), *sides = json_object_new_object();
	struct json_object *cmp = json_object_new_array();

	cgs_jadd(o, "test", cgs_jstr(g->test));
	cgs_jadd(o, "mode", cgs_jstr(g->mode));
	cgs_jadd(o, "tasks", json_object_new_int64(g->tasks));
	cgs_jadd(o, "cgroup", cgs_jstr(g->layout));
	cgs_jadd(o, "workload_options", cgs_jstr(g->wopts));
	cgs_jadd(o, "compared", json_object_new_boolean(g->common));
	for (unsigned s = 0; s < r->nsides; s++) {
		const struct cmp_cell *c = &g->cell[s];
		struct json_object *so = json_object_new_object(), *mo = json_object_new_object();

		cgs_jadd(so, "runs", json_object_new_int64(c->runs));
		cgs_jadd(so, "ok", json_object_new_int64(c->ok));
		cgs_jadd(so, "disturbed", json_object_new_int64(c->disturbed));
		cgs_jadd(so, "fail_reason", cgs_jstr(c->fail_reason));
		cgs_jadd(so, "cgroup", cgs_jstr(c->layout));
		cgs_jadd(so, "drift_pct", cgs_jnum(c->drift_pct));
		for (size_t m = 0; m < r->ms.n; m++)
			if (c->n[m] && !r->o.metric_off[m])
				cgs_jadd(mo, r->ms.m[m].name, desc_json(c, m));
		cgs_jadd(so, "metrics", mo);
		cgs_jadd(sides, r->sides[s].label, so);
	}
	cgs_jadd(o, "sides", sides);
	for (unsigned s = 1; g->common && s < r->nsides; s++)
		for (size_t m = 0; m < r->ms.n; m++) {
			const struct cmp_delta *d = cmp_delta_of(r, g, s, m);

			if (d->valid)
				json_object_array_add(cmp, delta_json(r, g, s, m));
		}
	cgs_jadd(o, "comparisons", cmp);
	if (g->common)
		cgs_jadd(o, "where_the_time_went", cmp_why_json_group(r, (unsigned)(g - r->groups)));
	return o;
}

int cmp_print_json(const struct cmp_result *r, FILE *out)
{
	struct json_object *o = json_object_new_object(), *tool = json_object_new_object();
	struct json_object *pts = json_object_new_array(), *v = json_object_new_object();
	struct json_object *n = json_object_new_array();
	int rc = 0;

	cgs_jadd(tool, "name", cgs_jstr("cgscale"));
	cgs_jadd(tool, "version", cgs_jstr(CGS_VERSION));
	cgs_jadd(tool, "git", cgs_jstr(CGS_GIT));
	cgs_jadd(o, "tool", tool);
	cgs_jadd(o, "settings", settings_json(r));
	cgs_jadd(o, "sides", sides_json(r));
	cgs_jadd(o, "environment", env_json(r));
	for (unsigned i = 0; i < r->ngroups; i++)
		json_object_array_add(pts, group_json(r, &r->groups[i]));
	cgs_jadd(o, "points", pts);
	if (r->prof && r->prof->n)
		cgs_jadd(o, "profile", cmp_profile_json(r, r->prof));
	if (r->prof && r->prof->npts)
		cgs_jadd(o, "profile_ns", cmp_profile_ns_json(r, r->prof));
	for (int k = 0; k < CMP_NVERDICT; k++)
		cgs_jadd(v, cmp_verdict_names[k], json_object_new_int64(r->count[k]));
	cgs_jadd(o, "verdicts", v);
	for (unsigned i = 0; i < r->nnotes; i++)
		json_object_array_add(n, cgs_jstr(r->notes[i]));
	cgs_jadd(o, "notes", n);
	cgs_jadd(o, "exit_status", json_object_new_int(cmp_exit_status(r)));
	if (fprintf(out, "%s\n", json_object_to_json_string_ext(o,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		rc = -EIO;
	json_object_put(o);
	return rc;
}

static void xml_escaped(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

static void junit_case(const struct cmp_result *r, const struct cmp_group *g,
		       unsigned s, size_t m, FILE *f)
{
	const struct cmp_delta *d = cmp_delta_of(r, g, s, m);
	const struct st_desc *a = &g->cell[0].d[m], *b = &g->cell[s].d[m];
	const char *eff = cmp_effect(d);
	char name[512], msg[512], c[3][32];

	cmp_group_name(g, name, sizeof(name));
	snprintf(msg, sizeof(msg), "%s: %s%s%s%s [%s, %s] p=%.4g (%s)",
		 cmp_verdict_names[d->verdict], cmp_fmt_change(c[0], 32, d), *eff == '-' ? "" : " (",
		 *eff == '-' ? "" : eff, *eff == '-' ? "" : ")", cmp_fmt_pct(c[1], 32, d->lo),
		 cmp_fmt_pct(c[2], 32, d->hi), d->p, d->why);
	fputs("    <testcase classname=\"cgscale.", f);
	xml_escaped(f, name);
	fputs("\" name=\"", f);
	xml_escaped(f, r->ms.m[m].name);
	fputc(' ', f);
	xml_escaped(f, r->sides[s].name);
	fprintf(f, " (%s) vs ", r->sides[s].label);
	xml_escaped(f, r->sides[0].name);
	fprintf(f, " (%s)\" time=\"0\">\n", r->sides[0].label);
	if (d->verdict == CMP_REGRESSION || d->verdict == CMP_INCONCLUSIVE ||
	    d->verdict == CMP_NOISY) {
		fprintf(f, "      <%s message=\"", d->verdict == CMP_REGRESSION ?
			"failure" : "skipped");
		xml_escaped(f, msg);
		fprintf(f, "\"%s\n", d->verdict == CMP_REGRESSION ?
			" type=\"REGRESSION\"></failure>" : "/>");
	}
	fprintf(f, "      <system-out>");
	xml_escaped(f, msg);
	fprintf(f, "\n%s n=%zu mean=%.6g cov=%.2f%%; %s n=%zu mean=%.6g cov=%.2f%%</system-out>\n",
		r->sides[0].label, a->n, a->mean, a->cov_pct,
		r->sides[s].label, b->n, b->mean, b->cov_pct);
	fputs("    </testcase>\n", f);
}

static void junit_body(const struct cmp_result *r, FILE *f)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cgscale compare\">\n");
	for (unsigned s = 1; s < r->nsides; s++) {
		unsigned tests = 0, fail = 0, skip = 0;

		for (unsigned i = 0; i < r->ngroups; i++)
			for (size_t m = 0; r->groups[i].common && m < r->ms.n; m++) {
				const struct cmp_delta *d = cmp_delta_of(r, &r->groups[i], s, m);

				if (!d->valid)
					continue;
				tests++;
				fail += d->verdict == CMP_REGRESSION;
				skip += d->verdict == CMP_INCONCLUSIVE || d->verdict == CMP_NOISY;
			}
		fputs("  <testsuite name=\"cgscale compare ", f);
		xml_escaped(f, r->sides[s].name);
		fputs(" vs ", f);
		xml_escaped(f, r->sides[0].name);
		fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\">\n",
			tests, fail, skip);
		for (unsigned i = 0; i < r->ngroups; i++)
			for (size_t m = 0; r->groups[i].common && m < r->ms.n; m++)
				if (cmp_delta_of(r, &r->groups[i], s, m)->valid)
					junit_case(r, &r->groups[i], s, m, f);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

int cmp_write_junit(const struct cmp_result *r, const char *path, char *err,
		    size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f) {
		snprintf(err, errlen, "--junit %s: out of memory", path);
		return -ENOMEM;
	}
	junit_body(r, f);
	if (fclose(f)) {
		free(buf);
		snprintf(err, errlen, "--junit %s: out of memory", path);
		return -ENOMEM;
	}
	rc = cgs_write_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
}
