/*
 * compare_json.c - the machine formats of `cgscale compare`: --format
 * json (every statistic, every run value, the environment, the verdicts
 * and the exit status; NaN becomes null) and --junit FILE (one test case
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

#include "compare.h"
#include "../runner/version.h"

static struct json_object *jnum(double d)
{
	return isfinite(d) ? json_object_new_double(d) : NULL;
}

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *settings_json(const struct cmp_result *r)
{
	struct json_object *o = json_object_new_object(), *t = json_object_new_object();

	add(o, "axis", jstr(r->o.axis));
	for (int c = 0; c < CMP_NCLASS; c++)
		add(t, cmp_class_names[c], jnum(r->o.threshold[c]));
	add(o, "threshold_pct", t);
	add(o, "max_cov_pct", jnum(r->o.max_cov));
	add(o, "alpha", jnum(r->o.alpha));
	add(o, "ci_level", jnum(1 - r->o.alpha));
	add(o, "ci_method", jstr("expanded percentile bootstrap of the ratio of means"));
	add(o, "resamples", json_object_new_int64(r->o.resamples));
	add(o, "seed", json_object_new_uint64(r->o.seed));
	add(o, "p_from", jstr(r->o.welch ? "welch" : "mann-whitney"));
	add(o, "fail_on_inconclusive", json_object_new_boolean(r->o.fail_on_inconclusive));
	add(o, "bisect", json_object_new_boolean(r->o.bisect));
	return o;
}

static struct json_object *sides_json(const struct cmp_result *r)
{
	struct json_object *a = json_object_new_array();

	for (unsigned s = 0; s < r->nsides; s++) {
		struct json_object *o = json_object_new_object();
		struct json_object *f = json_object_new_array();

		add(o, "label", jstr(r->sides[s].label));
		add(o, "arg", jstr(r->sides[s].arg));
		add(o, "name", jstr(r->sides[s].name));
		for (unsigned i = 0; i < r->sides[s].nfiles; i++)
			json_object_array_add(f, jstr(r->sides[s].files[i].path));
		add(o, "files", f);
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

		add(o, "field", jstr(e->field));
		add(o, "kind", jstr(e->axis ? "axis" : e->critical ? "critical" : "info"));
		add(o, "differs", json_object_new_boolean(e->differs));
		add(o, "mixed", json_object_new_boolean(e->mixed));
		for (unsigned s = 0; s < r->nsides; s++)
			add(v, r->sides[s].label, jstr(e->val[s]));
		add(o, "values", v);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *desc_json(const struct cmp_cell *c, size_t m)
{
	const struct st_desc *d = &c->d[m];
	struct json_object *o = json_object_new_object(), *v = json_object_new_array();

	add(o, "n", json_object_new_int64((int64_t)d->n));
	add(o, "mean", jnum(d->mean));
	add(o, "median", jnum(d->median));
	add(o, "stddev", jnum(d->sd));
	add(o, "cov_pct", jnum(d->cov_pct));
	add(o, "min", jnum(d->min));
	add(o, "max", jnum(d->max));
	for (size_t i = 0; i < c->n[m]; i++)
		json_object_array_add(v, jnum(c->v[m][i]));
	add(o, "values", v);
	return o;
}

static struct json_object *delta_json(const struct cmp_result *r,
				      const struct cmp_delta *d, unsigned s, size_t m)
{
	const struct cmp_metric *mt = &cmp_metrics[m];
	struct json_object *o = json_object_new_object();

	add(o, "side", jstr(r->sides[s].label));
	add(o, "metric", jstr(mt->name));
	add(o, "unit", jstr(mt->unit));
	add(o, "direction", jstr(mt->dir > 0 ? "higher_is_better" : "lower_is_better"));
	add(o, "class", jstr(cmp_class_names[mt->cls]));
	add(o, "threshold_pct", jnum(d->threshold));
	add(o, "change_pct", jnum(d->pct));
	add(o, "ci_low_pct", jnum(d->lo));
	add(o, "ci_high_pct", jnum(d->hi));
	add(o, "p", jnum(d->p));
	add(o, "mann_whitney_u", jnum(d->mwu.stat));
	add(o, "mann_whitney_p", jnum(d->mwu.p));
	add(o, "mann_whitney_exact", json_object_new_boolean(d->mwu.exact));
	add(o, "welch_t", jnum(d->welch.stat));
	add(o, "welch_df", jnum(d->welch.df));
	add(o, "welch_p", jnum(d->welch.p));
	add(o, "bh_q", jnum(d->q));
	add(o, "min_p", jnum(d->min_p));
	add(o, "runs_needed", json_object_new_int64(d->runs_needed));
	add(o, "verdict", jstr(cmp_verdict_names[d->verdict]));
	add(o, "why", jstr(d->why));
	return o;
}

static struct json_object *group_json(const struct cmp_result *r, const struct cmp_group *g)
{
	struct json_object *o = json_object_new_object(), *sides = json_object_new_object();
	struct json_object *cmp = json_object_new_array();

	add(o, "test", jstr(g->test));
	add(o, "mode", jstr(g->mode));
	add(o, "tasks", json_object_new_int64(g->tasks));
	add(o, "cgroup", jstr(g->layout));
	add(o, "workload_options", jstr(g->wopts));
	add(o, "compared", json_object_new_boolean(g->common));
	for (unsigned s = 0; s < r->nsides; s++) {
		const struct cmp_cell *c = &g->cell[s];
		struct json_object *so = json_object_new_object(), *mo = json_object_new_object();

		add(so, "runs", json_object_new_int64(c->runs));
		add(so, "ok", json_object_new_int64(c->ok));
		add(so, "fail_reason", jstr(c->fail_reason));
		add(so, "cgroup", jstr(c->layout));
		add(so, "drift_pct", jnum(c->drift_pct));
		for (size_t m = 0; m < cmp_nmetrics; m++)
			if (c->n[m] && !r->o.metric_off[m])
				add(mo, cmp_metrics[m].name, desc_json(c, m));
		add(so, "metrics", mo);
		add(sides, r->sides[s].label, so);
	}
	add(o, "sides", sides);
	for (unsigned s = 1; g->common && s < r->nsides; s++)
		for (size_t m = 0; m < cmp_nmetrics; m++) {
			const struct cmp_delta *d = cmp_delta_of(r, g, s, m);

			if (d->valid)
				json_object_array_add(cmp, delta_json(r, d, s, m));
		}
	add(o, "comparisons", cmp);
	return o;
}

int cmp_print_json(const struct cmp_result *r, FILE *out)
{
	struct json_object *o = json_object_new_object(), *tool = json_object_new_object();
	struct json_object *pts = json_object_new_array(), *v = json_object_new_object();
	struct json_object *n = json_object_new_array();
	int rc = 0;

	add(tool, "name", jstr("cgscale"));
	add(tool, "version", jstr(CGS_VERSION));
	add(tool, "git", jstr(CGS_GIT));
	add(o, "tool", tool);
	add(o, "settings", settings_json(r));
	add(o, "sides", sides_json(r));
	add(o, "environment", env_json(r));
	for (unsigned i = 0; i < r->ngroups; i++)
		json_object_array_add(pts, group_json(r, &r->groups[i]));
	add(o, "points", pts);
	for (int k = 0; k < CMP_NVERDICT; k++)
		add(v, cmp_verdict_names[k], json_object_new_int64(r->count[k]));
	add(o, "verdicts", v);
	for (unsigned i = 0; i < r->nnotes; i++)
		json_object_array_add(n, jstr(r->notes[i]));
	add(o, "notes", n);
	add(o, "exit_status", json_object_new_int(cmp_exit_status(r)));
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
	char name[512], msg[512];

	cmp_group_name(g, name, sizeof(name));
	snprintf(msg, sizeof(msg), "%s: %+.2f%% [%+.2f%%, %+.2f%%] p=%.4g (%s)",
		 cmp_verdict_names[d->verdict], d->pct, d->lo, d->hi, d->p, d->why);
	fputs("    <testcase classname=\"cgscale.", f);
	xml_escaped(f, name);
	fputs("\" name=\"", f);
	xml_escaped(f, cmp_metrics[m].name);
	fprintf(f, " %s vs %s\" time=\"0\">\n", r->sides[s].label, r->sides[0].label);
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
			for (size_t m = 0; r->groups[i].common && m < cmp_nmetrics; m++) {
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
			for (size_t m = 0; r->groups[i].common && m < cmp_nmetrics; m++)
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
	rc = res_write_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
}
