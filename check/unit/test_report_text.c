/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_text.c - every string put into the report is escaped: HTML
 * entities, invalid UTF-8 and control characters replaced, gnuplot
 * quoting that no name can break out of; gnuplot's SVG made embeddable
 * (prolog gone, ids unique); the page without gnuplot says what to
 * install; generic tables of JSON sections escape keys and values.
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

#include <cmocka.h>
#include <json-c/json.h>

#include "results/report/document.h"
#include "lib/macros.h"

#define FFFD "\xef\xbf\xbd"

static void html_escape(void **state)
{
	static const struct { const char *in, *want; } t[] = {
		{ "<>&\"'", "&lt;&gt;&amp;&quot;&#39;" },
		{ "page_fault1 <script>alert(1)</script>",
		  "page_fault1 &lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x99\x82",
		  "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x99\x82" },
		{ "a\tb\nc", "a\tb\nc" },
		{ "x\x01y\x1b[31m", "x" FFFD "y" FFFD "[31m" },
		{ "\r", FFFD },
		{ "del\x7f", "del" FFFD },
		{ "nel\xc2\x85", "nel" FFFD },                 /* C1 control */
		{ "\xff\xfe", FFFD FFFD },                      /* not UTF-8 */
		{ "\xc0\xaf", FFFD FFFD },                      /* overlong '/' */
		{ "\xe0\x80\xaf", FFFD FFFD FFFD },             /* overlong */
		{ "\xed\xa0\x80", FFFD FFFD FFFD },             /* surrogate */
		{ "\xef\xbf\xbe", FFFD },                       /* U+FFFE */
		{ "\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD },    /* > U+10FFFF */
		{ "end\xe6\x97", "end" FFFD FFFD },             /* cut short */
		{ "", "" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *s = rpt_html_escape(t[i].in);

		assert_non_null(s);
		assert_string_equal(s, t[i].want);
		free(s);
	}
	{
		char *s = rpt_html_escape(NULL);

		assert_string_equal(s, "");
		free(s);
	}
}

static void html_printf(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	rpt_html_printf(f, "%s=%d", "a<b", 3);
	fclose(f);
	assert_string_equal(buf, "a&lt;b=3");
	free(buf);
}

static void gp_quote(void **state)
{
	char buf[64];

	(void)state;
	rpt_gp_quote("it's", buf, sizeof(buf));
	assert_string_equal(buf, "'it''s'");
	/* a newline would end the command: the rest could be any command */
	rpt_gp_quote("x'\nsystem('touch /tmp/pwned')", buf, sizeof(buf));
	assert_null(strchr(buf, '\n'));
	assert_string_equal(buf, "'x''" FFFD "system(''touch /tmp/pwned'')'");
	rpt_gp_quote("<>&\"\\ @x", buf, sizeof(buf));
	assert_string_equal(buf, "'<>&\"\\ @x'");
	rpt_gp_quote("\xff\t", buf, sizeof(buf));
	assert_string_equal(buf, "'" FFFD FFFD "'");
	/* cut at a character boundary, still quoted */
	rpt_gp_quote("\xe6\x97\xa5\xe6\x9c\xac", buf, 8);
	assert_string_equal(buf, "'\xe6\x97\xa5'");
	rpt_gp_quote("''''''", buf, 8);
	assert_string_equal(buf, "''''''");   /* two quotes doubled, quoted */
	assert_int_equal(rpt_gp_quote("x", buf, 2), 0);
	assert_string_equal(buf, "");
	rpt_gp_quote(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "''");
}

static void svg_embed(void **state)
{
	static const char in[] =
		"<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
		"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://x/svg11.dtd\">\n"
		"<!-- made by gnuplot -->\n"
		"<svg \n viewBox=\"0 0 10 10\">\n"
		"<g id=\"gnuplot_canvas\"><path id='gpPt1' d='M0,0'/>"
		"<use xlink:href='#gpPt1' id='gpPt2'/><use href=\"#gpPt2\"/>"
		"<rect filter='url(#textbox)' grid='x'/><text>a]]>b</text></g>\n"
		"</svg>\ntrailing junk";
	static const char want[] =
		"<svg class=\"chart\" role=\"img\" \n viewBox=\"0 0 10 10\">\n"
		"<g id=\"c7-gnuplot_canvas\"><path id='c7-gpPt1' d='M0,0'/>"
		"<use xlink:href='#c7-gpPt1' id='c7-gpPt2'/><use href=\"#c7-gpPt2\"/>"
		"<rect filter='url(#c7-textbox)' grid='x'/><text>a]]&gt;b</text></g>\n"
		"</svg>";
	char *s;

	(void)state;
	s = rpt_svg_embed(in, strlen(in), "c7-");
	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
	assert_null(rpt_svg_embed("<svgx></svgx>", 13, "p"));
	assert_null(rpt_svg_embed("no chart here", 13, "p"));
	assert_null(rpt_svg_embed("<svg>unclosed", 13, "p"));
}

/* A chart whose names try to break out of gnuplot's strings. */
static void gp_script(void **state)
{
	struct rpt_chart c = { .id = 3 };
	struct rpt_series *s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	snprintf(c.x.label, sizeof(c.x.label), "tasks'\nsystem('id')");
	snprintf(c.y.label, sizeof(c.y.label), "ops/s");
	s = rpt_chart_series(&c, "p'\n!rm -rf /", RPT_LINESPOINTS, 1);
	s->label_end = true;
	rpt_series_add(s, 1, 100, NAN, NAN);
	rpt_series_add(s, 2, NAN, NAN, NAN);        /* dropped from the data */
	rpt_series_add(s, 3, 250, NAN, NAN);
	s = rpt_chart_series(&c, "empty", RPT_POINTS, 2);   /* not plotted */
	rpt_chart_band(&c, false, 0, 1.5, "warm-up");
	rpt_chart_fit(&c, RPT_AX_ZERO | RPT_AX_INT, RPT_AX_ZERO);
	snprintf(c.x.tick_label[0], sizeof(c.x.tick_label[0]), "2: -5%%s");
	rpt_gp_script(f, &c);
	fclose(f);
	assert_null(strstr(buf, "\nsystem"));
	assert_null(strstr(buf, "\n!rm"));
	assert_non_null(strstr(buf, "set xlabel 'tasks''" FFFD "system(''id'')'"));
	assert_non_null(strstr(buf, "$D0 << EOD\n1 100\n3 250\nEOD\n"));
	assert_non_null(strstr(buf, "title 'p''" FFFD "!rm -rf /'"));
	assert_null(strstr(buf, "'empty'"));
	assert_non_null(strstr(buf, "lc rgb '#D55E00'"));   /* look 1 */
	assert_non_null(strstr(buf, "set object 1 rect from first 0, graph 0 to first 1.5"));
	assert_non_null(strstr(buf, "name 'cgs3'"));
	/* tick labels are formats to gnuplot: a % must not start a conversion */
	assert_non_null(strstr(buf, "set xtics ('2: -5%%s' 0"));
	/* the end label sits at the last point that has data */
	assert_non_null(strstr(buf, "set label 5 'p''" FFFD "!rm -rf /' at first 3, first 250 right"));
	free(buf);
	rpt_chart_free(&c);
}

static char *finish(struct rpt_doc *d, const char *gnuplot, int want_rc)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(rpt_doc_finish(d, gnuplot, f, err, sizeof(err)), want_rc);
	fclose(f);
	return buf;
}

/* Without gnuplot the page still has its tables and says what to install. */
static void doc_without_gnuplot(void **state)
{
	struct rpt_doc d;
	struct rpt_chart *c;
	char *html;

	(void)state;
	assert_int_equal(rpt_doc_init(&d, "t<i>tle"), 0);
	rpt_doc_status(&d);
	c = rpt_figure(&d, "caption & more", 600, 300);
	assert_non_null(c);
	rpt_series_add(rpt_chart_series(c, "s", RPT_LINES, 0), 1, 2, NAN, NAN);
	fprintf(d.out, "<table><tr><td>42</td></tr></table>\n");
	rpt_figure_end(&d);
	html = finish(&d, "/nonexistent/gnuplot", -ENOENT);
	assert_non_null(strstr(html, "<title>t&lt;i&gt;tle</title>"));
	assert_non_null(strstr(html, "<figcaption>caption &amp; more</figcaption>"));
	assert_non_null(strstr(html, "gnuplot-nox"));
	assert_non_null(strstr(html, "<p class=\"nochart\">"));
	assert_non_null(strstr(html, "<td>42</td>"));
	assert_null(strstr(html, "<script"));
	assert_non_null(strstr(html, "</body>\n</html>\n"));
	free(html);
	rpt_doc_free(&d);

	assert_int_equal(rpt_doc_init(&d, "x"), 0);
	rpt_doc_status(&d);
	html = finish(&d, NULL, 0);
	assert_non_null(strstr(html, "--no-charts"));
	free(html);
	rpt_doc_free(&d);
}

static void json_tables(void **state)
{
	struct json_object *o = json_tokener_parse(
		"{\"<b>\": \"x&y\", \"n\": 1.5, \"nested\": {\"deep\": \"</table>\"},"
		" \"totals\": {\"cycles\": {\"count\": 7, \"per_op\": 0.5},"
		"              \"instr'\": {\"count\": 9}},"
		" \"list\": [1, 2, 3], \"none\": null}");
	char *buf = NULL, txt[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(o);
	rpt_json_tables(f, o, "perf <counters>");
	fclose(f);
	assert_non_null(strstr(buf, "<caption>perf &lt;counters&gt;</caption>"));
	assert_non_null(strstr(buf, "&lt;b&gt;</th><td>x&amp;y</td>"));
	assert_non_null(strstr(buf, "nested.deep</th><td>&lt;/table&gt;</td>"));
	assert_non_null(strstr(buf, "<td>1, 2, 3</td>"));
	assert_non_null(strstr(buf, "instr&#39;"));       /* a grid row */
	assert_non_null(strstr(buf, "<th>per_op</th>"));  /* a grid column */
	assert_null(strstr(buf, "<b>"));
	free(buf);
	assert_non_null(rpt_json_path(o, "totals.cycles.count"));
	assert_null(rpt_json_path(o, "totals.nope"));
	assert_null(rpt_json_path(o, "n.x"));
	rpt_json_text(rpt_json_path(o, "totals.cycles.per_op"), txt, sizeof(txt));
	assert_string_equal(txt, "0.5");
	rpt_json_text(rpt_json_path(o, "none"), txt, sizeof(txt));
	assert_string_equal(txt, "-");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(html_escape),
		cmocka_unit_test(html_printf),
		cmocka_unit_test(gp_quote),
		cmocka_unit_test(svg_embed),
		cmocka_unit_test(gp_script),
		cmocka_unit_test(doc_without_gnuplot),
		cmocka_unit_test(json_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
