/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_page.c - the report of result files leads with the
 * answer: on a synthetic file of two runs, one marked disturbed, the
 * summary table comes before the contents and the environment, which is
 * folded, and whose long kernel command line is folded to its start; the
 * summary's notes say the run was disturbed as `cgscale run` says it, and
 * a warning counts it; the run's section says why; harness internals are
 * folded even in the first run; peak memory reads 257 MiB with the bytes
 * in the tooltip. And the cells behind that: byte counts for people,
 * long text folded at a character boundary, _bytes keys of generic
 * tables.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "check/unit/synth.h"
#include "results/model/disturb.h"
#include "results/report/document.h"

static const struct synth S = { .tasks = 2, .runs = 2, .mean = 1e5,
				.layout = "depth=1 leaf=shared" };

/* What @fn writes to a stream; malloc'd. */
#define CAPTURE(buf, fn)						\
	do {								\
		size_t len_ = 0;					\
		FILE *f_ = open_memstream(&(buf), &len_);		\
									\
		assert_non_null(f_);					\
		fn;							\
		assert_int_equal(fclose(f_), 0);			\
	} while (0)

static void fmt_bytes(void **state)
{
	static const struct { double b; const char *want; } t[] = {
		{ 269484032, "257 MiB" }, { 0, "0 B" }, { 999, "999 B" },
		{ 1536, "1.5 KiB" }, { 1000, "1.0 KiB" }, { 10 * 1024, "10 KiB" },
		{ 1536.0 * 1024 * 1024, "1.5 GiB" }, { 3.0 * (1ull << 40), "3.0 TiB" },
		{ NAN, "-" },
	};
	char buf[32], *html = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		rpt_fmt_bytes(t[i].b, buf, sizeof(buf));
		assert_string_equal(buf, t[i].want);
	}
	CAPTURE(html, rpt_td_bytes(f_, 269484032));
	assert_string_equal(html, "<td class=\"n\" title=\"269484032 bytes\">257 MiB</td>");
	free(html);
}

static void long_cells(void **state)
{
	/* "é" is two bytes: a cut at byte 4 would split it */
	const char *s = "abc\xc3\xa9 and more than ten bytes";
	char *html = NULL;

	(void)state;
	CAPTURE(html, rpt_td_long(f_, "mono", "short", 10));
	assert_string_equal(html, "<td class=\"mono\">short</td>");
	free(html);
	CAPTURE(html, rpt_td_long(f_, "mono", s, 4));
	assert_non_null(strstr(html, "<td class=\"mono\"><details class=\"long\"><summary>abc &#8230; "));
	assert_non_null(strstr(html, "(28 characters: show all)</summary>abc\xc3\xa9 and more"));
	assert_null(strstr(html, "\xef\xbf\xbd"));   /* no U+FFFD from a split */
	free(html);
}

static void bytes_in_tables(void **state)
{
	struct json_object *o = json_tokener_parse(
		"{\"file_bytes\": 1048576, \"bytes\": 7, \"x\": {\"peak_bytes\": 2048}}");
	char *html = NULL;

	(void)state;
	CAPTURE(html, rpt_json_tables(f_, o, "t"));
	assert_non_null(strstr(html, "title=\"1048576 bytes\">1.0 MiB</td>"));
	assert_non_null(strstr(html, "title=\"2048 bytes\">2.0 KiB</td>"));
	assert_non_null(strstr(html, "<td class=\"n\">7</td>"));   /* not a _bytes key */
	free(html);
	json_object_put(o);
}

/* Two runs of one point; run 2 disturbed, a long kernel command line,
 * the harness section and a cgroup with a peak in every run. */
static void build(struct res_file *f)
{
	char cmdline[600];

	memset(f, 0, sizeof(*f));
	synth_file_head(f, &S, 2);
	memset(cmdline, 'k', sizeof(cmdline) - 1);
	cmdline[sizeof(cmdline) - 1] = 0;
	json_object_object_add(f->kernel, "cmdline", json_object_new_string(cmdline));
	for (unsigned r = 0; r < 2; r++) {
		struct json_object *a = json_object_new_array(), *cg;

		assert_int_equal(synth_point(f, &S, r, 1e5 + r), 0);
		if (r)
			json_object_array_add(a, json_object_new_string("steal 5.0% (above 1%)"));
		json_object_object_add(f->points[r].extra, "disturbed", a);
		json_object_object_add(f->points[r].extra, "harness", json_tokener_parse(
			"{\"sampler_policy\": \"SCHED_FIFO\", \"spawn_ms\": 1.5}"));
		cg = json_object_object_get(f->points[r].extra, "cgroup");
		json_object_object_add(cg, "events", json_tokener_parse(
			"[{\"path\": \"/sys/fs/cgroup/x\", \"level\": 1, \"after\": {},"
			" \"delta\": {}, \"peak_bytes\": 269484032}]"));
	}
}

/* The page of @in into *@html (malloc'd). */
static void page(struct rpt_input *in, char **html)
{
	struct rpt_doc d;
	char err[256];

	*html = NULL;
	assert_int_equal(rpt_doc_init(&d, "t"), 0);
	assert_int_equal(rpt_build_runs(&d, in, 1, NULL), 0);
	CAPTURE(*html, assert_int_equal(rpt_doc_finish(&d, NULL, f_, err, sizeof(err)), 0));
	rpt_doc_free(&d);
}

static void answer_first(void **state)
{
	struct rpt_input in = { .path = (char *)"r.json" };
	char *html, *sum, *nav, *env, *row;

	(void)state;
	build(&in.res);
	page(&in, &html);
	sum = strstr(html, "<table id=\"summary-table\">");
	nav = strstr(html, "<nav>");
	env = strstr(html, "<h2 id=\"env\">");
	assert_non_null(sum);
	assert_non_null(nav);
	assert_non_null(env);
	assert_true(sum < nav && nav < env);
	/* the title's line names the machine; the environment is folded */
	assert_non_null(strstr(html, "host synth, kernel 6.1.0-synthetic, 2 online CPUs, "
			      "Synthetic CPU."));
	assert_non_null(strstr(env, "<h2 id=\"env\">Environment</h2>\n<details><summary>"));
	assert_non_null(strstr(env, "<details class=\"long\"><summary>kkk"));
	assert_non_null(strstr(env, "(599 characters: show all)"));
	/* the disturbed run: a warning before the summary, its row marked
	 * and its note as the run's table words it, and why in its section */
	assert_non_null(strstr(html, "<p class=\"warn\">1 run was disturbed"));
	assert_true(strstr(html, "<p class=\"warn\">1 run was disturbed") < sum);
	row = strstr(sum, "<tr class=\"disturbed\">");
	assert_non_null(row);
	assert_non_null(strstr(row, "<td>1 of 2 runs disturbed (compare leaves them out), "
			      "e.g. steal 5.0% (above 1%)</td></tr>"));
	assert_non_null(strstr(html, "<p class=\"warn\">run 2 disturbed (compare leaves it "
			      "out): steal 5.0% (above 1%)</p>"));
	/* harness internals folded, in the first run too; the cgroup open */
	assert_non_null(strstr(html, "<details><summary>harness internals (cgscale&#39;s own "
			      "cost), run 1</summary>"));
	assert_null(strstr(html, "<details open=\"open\"><summary>harness"));
	assert_non_null(strstr(html, "<details open=\"open\"><summary>cgroup, run 1</summary>"));
	assert_non_null(strstr(html, "<details><summary>disturbance check, run 2</summary>"));
	/* peak memory for people */
	assert_non_null(strstr(html, "<th>peak memory</th>"));
	assert_non_null(strstr(html, "<td class=\"n\" title=\"269484032 bytes\">257 MiB</td>"));
	assert_null(strstr(html, ">269484032<"));
	free(html);
	res_file_free(&in.res);
}

/* A file no runner marked is marked by the same rules; a marked one is
 * left as it is. */
static void marks_unmarked(void **state)
{
	struct res_file f;
	char why[64];

	(void)state;
	build(&f);
	for (unsigned r = 0; r < 2; r++)
		json_object_object_del(f.points[r].extra, "disturbed");
	assert_int_equal(res_disturbed(&f.points[0], why, sizeof(why)), -1);
	assert_int_equal(res_disturb_mark_unmarked(&f), 0);
	assert_true(res_disturbed(&f.points[0], why, sizeof(why)) >= 0);
	res_file_free(&f);
	build(&f);
	assert_int_equal(res_disturb_mark_unmarked(&f), 0);
	assert_int_equal(res_disturbed(&f.points[1], why, sizeof(why)), 1);
	assert_string_equal(why, "steal 5.0% (above 1%)");
	res_file_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fmt_bytes),
		cmocka_unit_test(long_cells),
		cmocka_unit_test(bytes_in_tables),
		cmocka_unit_test(answer_first),
		cmocka_unit_test(marks_unmarked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
