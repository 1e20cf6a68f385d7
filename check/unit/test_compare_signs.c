/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_signs.c - the change compare prints is plain (B against
 * A: + means the value went up) in every format, and a word says what
 * that means for the metric: a lower-is-better time (stat_p99, ns) that
 * went up 58% reads "+58...%" and "worse" in text, markdown, json,
 * junit, mmtests and the HTML page; ops/s that went down reads "-" and
 * "worse"; the verdict follows the metric's direction (cmp_judge). The
 * HTML page opens with the primary metric's change, CI and verdict.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "check/unit/cmp_fixture.h"
#include "check/unit/synth.h"
#include "results/report/document.h"

/* A: 8 runs; B: ops/s 36.7% down, so every stats-reader latency is
 * 1 / 0.633 = 1.58 times A's: +58%. */
static void slower(struct fixture *f, struct cmp_result *r, bool reverse)
{
	put(f, "a.json", (struct synth){ .runs = 8, .cov = 0.2, .seed = 90, .p99_ns = 60000 });
	put(f, "b.json", (struct synth){ .runs = 8, .cov = 0.2, .seed = 91, .shift = -36.7,
					 .p99_ns = 60000 });
	if (reverse)
		analyse(r, path(f, "b.json"), path(f, "a.json"), 2);
	else
		analyse(r, path(f, "a.json"), path(f, "b.json"), 2);
}

static const struct cmp_delta *delta_of(const struct cmp_result *r, const char *metric)
{
	int m = cmp_mset_find(&r->ms, metric);

	assert_true(m >= 0);
	assert_int_equal(r->ngroups, 1);
	return cmp_delta_of(r, &r->groups[0], 1, (unsigned)m);
}

/* What @print writes, as one string (free it). */
static char *printed(const struct cmp_result *r, enum cmp_format k)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(cmp_print(r, k, fp), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* "+58.03%" of @d's change, as the formats print it. */
static const char *pct(const struct cmp_delta *d, char *buf, size_t len)
{
	snprintf(buf, len, "%+.2f%%", d->pct);
	return buf;
}

/* The numbers, the verdict and the word, in both directions. */
static void test_plain_change_and_word(void **state)
{
	struct cmp_result r = { 0 };
	const struct cmp_delta *p99, *ops;

	slower(*state, &r, false);
	p99 = delta_of(&r, "stat_p99");
	ops = delta_of(&r, "per_task_ops");
	assert_int_equal(p99->dir, -1);
	/* the time went up 58%: +58%, its interval above +T, worse */
	assert_true(p99->pct > 55 && p99->pct < 61);
	assert_true(p99->lo > 10 && p99->lo < p99->pct && p99->pct < p99->hi);
	assert_true(p99->hl_pct > 50);
	assert_int_equal(p99->verdict, CMP_REGRESSION);
	assert_string_equal(cmp_effect(p99), "worse");
	/* ops/s went down 36.7%: -36.7%, worse */
	assert_true(ops->pct < -34 && ops->pct > -39);
	assert_true(ops->hi < -2);
	assert_int_equal(ops->verdict, CMP_REGRESSION);
	assert_string_equal(cmp_effect(ops), "worse");
	cmp_result_free(&r);
	/* the other way round: the time went down, ops/s up, both better */
	memset(&r, 0, sizeof(r));
	slower(*state, &r, true);
	p99 = delta_of(&r, "stat_p99");
	ops = delta_of(&r, "per_task_ops");
	assert_true(p99->pct < -34 && p99->hi < -10);
	assert_int_equal(p99->verdict, CMP_IMPROVEMENT);
	assert_string_equal(cmp_effect(p99), "better");
	assert_true(ops->pct > 55 && ops->lo > 2);
	assert_int_equal(ops->verdict, CMP_IMPROVEMENT);
	assert_string_equal(cmp_effect(ops), "better");
	cmp_result_free(&r);
}

/* The text block of @metric: its B row has "+58.03% worse". */
static void test_text_and_markdown(void **state)
{
	struct cmp_result r = { 0 };
	char want[96], a[32], *out, *blk, *end;

	slower(*state, &r, false);
	out = printed(&r, CMP_FMT_TEXT);
	assert_non_null(strstr(out, "change: " CMP_SIGN_LEGEND "\n"));
	blk = strstr(out, "  stat_p99 (ns, lower is better");
	assert_non_null(blk);
	end = strstr(blk + 1, "\n  stat_");   /* the next metric's block */
	if (end)
		*end = 0;
	snprintf(want, sizeof(want), " %s worse ", pct(delta_of(&r, "stat_p99"), a, 32));
	assert_true(want[1] == '+');
	assert_non_null(strstr(blk, want));
	assert_non_null(strstr(blk, "REGRESSION (CI entirely above +10%"));
	free(out);
	out = printed(&r, CMP_FMT_TEXT);
	blk = strstr(out, "  per_task_ops (ops/s, higher is better");
	assert_non_null(blk);
	snprintf(want, sizeof(want), " %s worse ", pct(delta_of(&r, "per_task_ops"), a, 32));
	assert_true(want[1] == '-');
	assert_non_null(strstr(blk, want));
	free(out);
	out = printed(&r, CMP_FMT_MARKDOWN);
	assert_non_null(strstr(out, "| change | effect |"));
	snprintf(want, sizeof(want), "| stat_p99 | ");
	blk = strstr(out, want);
	assert_non_null(blk);
	*strchr(blk, '\n') = 0;
	snprintf(want, sizeof(want), "| %s | worse | [+", pct(delta_of(&r, "stat_p99"), a, 32));
	assert_non_null(strstr(blk, want));
	assert_non_null(strstr(blk, "**REGRESSION**"));
	free(out);
	cmp_result_free(&r);
}

static struct json_object *comparison(struct json_object *doc, const char *metric)
{
	struct json_object *pts = json_object_object_get(doc, "points"), *cmps;

	assert_int_equal(json_object_array_length(pts), 1);
	cmps = json_object_object_get(json_object_array_get_idx(pts, 0), "comparisons");
	for (size_t i = 0; i < json_object_array_length(cmps); i++) {
		struct json_object *c = json_object_array_get_idx(cmps, i);

		if (!strcmp(json_object_get_string(json_object_object_get(c, "metric")), metric))
			return c;
	}
	fail_msg("no comparison of %s", metric);
	return NULL;
}

static const char *jstr(struct json_object *o, const char *k)
{
	return json_object_get_string(json_object_object_get(o, k));
}

static double jnum(struct json_object *o, const char *k)
{
	return json_object_get_double(json_object_object_get(o, k));
}

static void test_json(void **state)
{
	struct cmp_result r = { 0 };
	struct json_object *doc, *c;
	char *out;

	slower(*state, &r, false);
	out = printed(&r, CMP_FMT_JSON);
	doc = json_tokener_parse(out);
	assert_non_null(doc);
	assert_string_equal(jstr(json_object_object_get(doc, "settings"), "change_sign"), "plain");
	c = comparison(doc, "stat_p99");
	assert_string_equal(jstr(c, "direction"), "lower_is_better");
	assert_true(jnum(c, "change_pct") > 55 && jnum(c, "change_pct") < 61);
	assert_true(jnum(c, "ci_low_pct") > 10);
	assert_true(jnum(c, "hodges_lehmann_pct") > 50);
	assert_true(jnum(c, "welch_t") > 0);   /* B's mean above A's */
	assert_string_equal(jstr(c, "effect"), "worse");
	assert_string_equal(jstr(c, "verdict"), "REGRESSION");
	c = comparison(doc, "per_task_ops");
	assert_true(jnum(c, "change_pct") < -34 && jnum(c, "ci_high_pct") < -2);
	assert_true(jnum(c, "welch_t") < 0);
	assert_string_equal(jstr(c, "effect"), "worse");
	json_object_put(doc);
	free(out);
	cmp_result_free(&r);
}

static void test_junit_and_mmtests(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };
	char err[256], want[128], a[32], xml[65536], *out, *row;
	FILE *fp;
	size_t n;

	slower(f, &r, false);
	assert_int_equal(cmp_write_junit(&r, path(f, "j.xml"), err, sizeof(err)), 0);
	fp = fopen(path(f, "j.xml"), "r");
	assert_non_null(fp);
	n = fread(xml, 1, sizeof(xml) - 1, fp);
	fclose(fp);
	xml[n] = 0;
	snprintf(want, sizeof(want), "<failure message=\"REGRESSION: %s (worse) [+",
		 pct(delta_of(&r, "stat_p99"), a, 32));
	assert_true(a[0] == '+');
	assert_non_null(strstr(xml, want));
	snprintf(want, sizeof(want), "<failure message=\"REGRESSION: %s (worse) [-",
		 pct(delta_of(&r, "per_task_ops"), a, 32));
	assert_non_null(strstr(xml, want));
	/* mmtests: Amean of the time +58% (plain, not mmtests' pdiff) */
	out = printed(&r, CMP_FMT_MMTESTS);
	row = strstr(strstr(out, " stat_p99 (ns, lower is better)"), "\nAmean ");
	assert_non_null(row);
	*strchr(row + 1, '\n') = 0;
	assert_non_null(strstr(row, "(  58.") ? strstr(row, "(  58.") : strstr(row, "*  58."));
	free(out);
	out = printed(&r, CMP_FMT_MMTESTS);
	assert_non_null(strstr(out, "REGRESSION (worse)"));
	assert_null(strstr(out, "(better)"));
	free(out);
	cmp_result_free(&r);
}

/* The chart of metric @name (its title starts with it). */
static const struct rpt_chart *chart_of(const struct rpt_doc *d, const char *name)
{
	for (unsigned i = 0; i < d->nchart; i++)
		if (!strncmp(d->chart[i]->title, name, strlen(name)) &&
		    d->chart[i]->title[strlen(name)] == ' ')
			return d->chart[i];
	fail_msg("no chart of %s", name);
	return NULL;
}

/* The chart of the sides, a dot per run. */
static const struct rpt_chart *sides_chart(const struct rpt_doc *d)
{
	for (unsigned i = 0; i < d->nchart; i++)
		if (strstr(d->chart[i]->title, "of each side, a dot per run"))
			return d->chart[i];
	fail_msg("no chart of the sides");
	return NULL;
}

/* First on the page, before the verdict counts and the forest plots:
 * the primary metric's change at each point, its CI and its verdict. */
static void headline(const struct cmp_result *r, const char *html)
{
	const struct cmp_delta *d = delta_of(r, "per_task_ops");
	const char *head = strstr(html, "<table id=\"headline\">");
	const char *verd = strstr(html, "<table id=\"verdicts\">");
	const char *forest = strstr(html, "<h2 id=\"changes\">");
	char want[256];

	assert_non_null(head);
	assert_non_null(verd);
	assert_non_null(forest);
	assert_true(head < verd && verd < forest);
	assert_non_null(strstr(head, "<caption>per_task_ops (ops/s, higher is better), "
			      "point by point: change against A, 95% CI</caption>"));
	assert_true(isfinite(d->lo) && isfinite(d->hi));
	snprintf(want, sizeof(want), "<td class=\"n\">%+.2f</td><td class=\"n\">[%+.2f, %+.2f]"
		 "</td><td class=\"v-regression\">REGRESSION</td>", d->pct, d->lo, d->hi);
	assert_non_null(strstr(head, want));
	assert_true(strstr(head, want) < verd);
}

static void test_html(void **state)
{
	struct cmp_result r = { 0 };
	struct rpt_doc d;
	char err[256], want[160], *html = NULL;
	size_t len = 0;
	FILE *fp;

	slower(*state, &r, false);
	assert_int_equal(rpt_doc_init(&d, "t"), 0);
	assert_int_equal(rpt_build_compare(&d, &r), 0);
	assert_non_null(strstr(chart_of(&d, "stat_p99")->x.label, "+ means up; better is to the left"));
	assert_non_null(strstr(chart_of(&d, "per_task_ops")->x.label, "better is to the right"));
	/* under the bars of the sides: the verdict, the change, the word */
	snprintf(want, sizeof(want), "2: REGRESSION %+.1f%% worse", delta_of(&r, "per_task_ops")->pct);
	assert_true(want[strlen("2: REGRESSION ")] == '-');
	assert_string_equal(sides_chart(&d)->x.tick_label[0], want);
	fp = open_memstream(&html, &len);
	assert_non_null(fp);
	assert_int_equal(rpt_doc_finish(&d, NULL, fp, err, sizeof(err)), 0);
	assert_int_equal(fclose(fp), 0);
	rpt_doc_free(&d);
	assert_non_null(strstr(html, CMP_SIGN_LEGEND));
	snprintf(want, sizeof(want), "<td class=\"n\">%+.2f</td><td>worse</td><td class=\"n\">+",
		 delta_of(&r, "stat_p99")->pct);
	assert_true(want[strlen("<td class=\"n\">")] == '+');
	assert_non_null(strstr(html, want));
	snprintf(want, sizeof(want), "<td class=\"n\">%+.2f</td><td>worse</td><td class=\"n\">-",
		 delta_of(&r, "per_task_ops")->pct);
	assert_non_null(strstr(html, want));
	headline(&r, html);
	free(html);
	cmp_result_free(&r);
}

/* cmp_judge by direction: the same interval is a REGRESSION or an
 * IMPROVEMENT by the metric's direction; the word within T is "-". */
static void test_judge_by_direction(void **state)
{
	struct cmp_opts o;
	struct cmp_delta d = { .valid = true, .threshold = 2, .q = 0.001 };

	(void)state;
	cmp_opts_default(&o);
	d.pct = 4, d.lo = 3, d.hi = 5;
	d.dir = 1;
	d.verdict = cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o);
	assert_int_equal(d.verdict, CMP_IMPROVEMENT);
	assert_string_equal(cmp_effect(&d), "better");
	d.dir = -1;
	d.verdict = cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o);
	assert_int_equal(d.verdict, CMP_REGRESSION);
	assert_string_equal(cmp_effect(&d), "worse");
	d.pct = -4, d.lo = -5, d.hi = -3;
	d.verdict = cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o);
	assert_int_equal(d.verdict, CMP_IMPROVEMENT);
	assert_string_equal(cmp_effect(&d), "better");
	/* undecided beyond T: the word says which side; within T: "-" */
	d.pct = 4, d.lo = 1, d.hi = 7;
	d.verdict = cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o);
	assert_int_equal(d.verdict, CMP_INCONCLUSIVE);
	assert_string_equal(cmp_effect(&d), "worse");
	d.pct = 1, d.lo = -1, d.hi = 1.5;
	d.verdict = cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o);
	assert_int_equal(d.verdict, CMP_NO_CHANGE);
	assert_string_equal(cmp_effect(&d), "-");
	d.pct = NAN;
	assert_string_equal(cmp_effect(&d), "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plain_change_and_word, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_and_markdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_junit_and_mmtests, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html, setup, teardown),
		cmocka_unit_test(test_judge_by_direction),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
