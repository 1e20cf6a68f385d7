/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_sections.c - the report's table of a point's extra
 * sections (results/report/sections.c): every row has a key of its own
 * and a writer; a point with every known section renders each under its
 * title and by its own writer (a row missing or wired to the wrong
 * function shows as a missing mark); a row of a test-only table is
 * called for its key with the member and the caption, and a key with no
 * row is drawn as generic tables under its own name. Rows marked folded
 * (harness internals, the disturbance check) stay folded in the first
 * run; the disturbance check lists a run's reasons.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "results/report/document.h"
#include "results/report/sections.h"

/* A section of each known key, in the shape its writer draws, and a mark
 * that only that writer prints. A new row needs one here. */
static const struct {
	const char *key, *json, *mark;
} shapes[] = {
	{ "perf", "{\"elapsed_s\": 2, \"events\": [{\"name\": \"instructions\"}],"
		  " \"totals\": {\"instructions\": {\"count\": 100}},"
		  " \"metrics\": {\"ipc\": 1.5}}", "<caption>Derived metrics</caption>" },
	{ "cgroup", "{\"layout\": \"depth=1 leaf=shared\", \"versions\": [\"2\"]}",
		    "layout <code>depth=1 leaf=shared</code>" },
	{ "profile", "{\"event\": \"cpu-clock\", \"rate_hz\": 99, \"counting\": \"kernel\","
		     " \"samples\": {\"received\": 10, \"taken\": 10},"
		     " \"symbols\": [{\"name\": \"do_fault\", \"kernel\": true,"
		     " \"self\": 5, \"children\": 7}]}", "10 samples taken" },
	{ "vmstat", "{\"elapsed_s\": 10, \"delta\": {\"pgfault\": 100, \"nr_x\": 3},"
		    " \"per_sec\": {\"pgfault\": 10}, \"per_op\": {\"pgfault\": 0.1}}",
		    "1 notable counters changed" },
	{ "disturbed", "[\"steal 5.0% (above 1%)\"]",
		       "disturbed, so compare leaves this run out" },
	{ "harness", "{\"sampler_policy\": \"SCHED_FIFO\"}",
		     "<th class=\"mono\">sampler_policy</th>" },
};

/* What rpt_sections_write() writes for @extra with @tab; malloc'd. */
static char *render(struct json_object *extra, bool open,
		    const struct rpt_section *tab, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rpt_sections_write(f, extra, "run 1", open, tab, n, NULL);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void rows_are_whole(void **state)
{
	const struct rpt_section *def = rpt_section_find(rpt_sections, rpt_nsections,
							 "no such section");

	(void)state;
	assert_true(rpt_nsections > 0);
	for (size_t i = 0; i < rpt_nsections; i++) {
		const struct rpt_section *r = &rpt_sections[i];

		assert_non_null(r->key);
		assert_non_null(r->write);
		/* found by its key, so no later row shadows it */
		assert_ptr_equal(rpt_section_find(rpt_sections, rpt_nsections, r->key), r);
	}
	/* and every section this test knows has its row */
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		if (!rpt_section_find(rpt_sections, rpt_nsections, shapes[s].key)->key)
			fail_msg("no row for section '%s'", shapes[s].key);
	assert_null(def->title);
	assert_true(def->write == rpt_json_tables);
}

/* Each row's section renders under its title, drawn by its writer. */
static void every_known_section(void **state)
{
	struct json_object *extra = json_object_new_object();
	char *html, want[256];

	(void)state;
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		json_object_object_add(extra, shapes[s].key,
				       json_tokener_parse(shapes[s].json));
	html = render(extra, true, rpt_sections, rpt_nsections);
	for (size_t i = 0; i < rpt_nsections; i++) {
		const struct rpt_section *r = &rpt_sections[i];
		size_t s;

		for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
			if (!strcmp(shapes[s].key, r->key))
				break;
		if (s == sizeof(shapes) / sizeof(shapes[0]))
			fail_msg("section row '%s' has no shape in this test", r->key);
		char *title = rpt_html_escape(r->title ? r->title : r->key);

		/* open as asked, but internals stay folded */
		snprintf(want, sizeof(want), "<details%s><summary>%s, run 1</summary>",
			 r->folded ? "" : " open=\"open\"", title);
		free(title);
		if (!strstr(html, want))
			fail_msg("no '%s' in the page", want);
		if (!strstr(html, shapes[s].mark))
			fail_msg("section '%s' not drawn by its writer: no '%s'",
				 r->key, shapes[s].mark);
	}
	/* the titles of today's rows, as the report has always shown them */
	assert_non_null(strstr(html, "<summary>perf counters, run 1</summary>"));
	assert_non_null(strstr(html, "<summary>vmstat, run 1</summary>"));
	assert_non_null(strstr(html, "<details><summary>harness internals (cgscale&#39;s "
			      "own cost), run 1</summary>"));
	free(html);
	json_object_put(extra);
}

/* A run's disturbance check: its reasons, escaped, or that it is clean. */
static void disturbed_section(void **state)
{
	struct json_object *bad = json_tokener_parse("[\"steal 5%\", \"a <b> task\"]");
	struct json_object *clean = json_object_new_array();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	rpt_disturbed_section(f, bad, "disturbance check, run 2");
	rpt_disturbed_section(f, clean, "disturbance check, run 1");
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "<p class=\"warn\">disturbance check, run 2: disturbed, "
			      "so compare leaves this run out (--keep-disturbed uses it):</p>\n"
			      "<ul>\n<li>steal 5%</li>\n<li>a &lt;b&gt; task</li>\n</ul>\n"));
	assert_non_null(strstr(buf, "<p>disturbance check, run 1: not disturbed"));
	free(buf);
	json_object_put(bad);
	json_object_put(clean);
}

/* Writes what it was called with, so the page shows each call. */
static void spy_write(FILE *out, struct json_object *v, const char *caption)
{
	fprintf(out, "SPY[%s|%s]\n", caption, json_object_to_json_string(v));
}

/* A test-only row is called for its key; another key gets the default. */
static void test_row_called(void **state)
{
	static const struct rpt_section tab[] = {
		{ .key = "mine", .title = "my section", .write = spy_write },
	};
	struct json_object *extra = json_tokener_parse(
		"{\"zzz\": {\"answer\": 42}, \"mine\": {\"x\": 1}}");
	char *html, want[256], *spy;

	(void)state;
	html = render(extra, false, tab, 1);
	snprintf(want, sizeof(want), "<details><summary>my section, run 1</summary>\n"
		 "SPY[my section, run 1|%s]\n</details>\n",
		 json_object_to_json_string(json_object_object_get(extra, "mine")));
	spy = strstr(html, want);
	assert_non_null(spy);
	assert_null(strstr(strstr(html, "SPY[") + 1, "SPY["));   /* called once */
	/* no row: its own name, generic tables, in the file's order (first) */
	assert_non_null(strstr(html, "<details><summary>zzz, run 1</summary>"));
	assert_non_null(strstr(html, "answer"));
	assert_true(strstr(html, "zzz") < spy);
	assert_null(strstr(html, "open="));
	free(html);
	json_object_put(extra);
}

/* No extra, or one that is not an object: nothing at all. */
static void no_sections(void **state)
{
	struct json_object *arr = json_tokener_parse("[1, 2]");
	char *html;

	(void)state;
	html = render(NULL, true, rpt_sections, rpt_nsections);
	assert_string_equal(html, "");
	free(html);
	html = render(arr, true, rpt_sections, rpt_nsections);
	assert_string_equal(html, "");
	free(html);
	json_object_put(arr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_whole),
		cmocka_unit_test(every_known_section),
		cmocka_unit_test(test_row_called),
		cmocka_unit_test(no_sections),
		cmocka_unit_test(disturbed_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
