/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_plot.c - charts through a real gnuplot (skipped where it is
 * not installed): every series style and both kinds of band draw, each
 * chart gets its own SVG with prefixed ids; a chart without data is not
 * sent; a gnuplot that cannot be run, or that fails, is reported per
 * chart and as a whole.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "results/report/document.h"
#include "lib/macros.h"

/* A chart of every style, as a comparison page would fill it. */
static void fill(struct rpt_chart *c, unsigned id)
{
	static const enum rpt_style styles[] = {
		RPT_LINESPOINTS, RPT_LINES, RPT_POINTS, RPT_BARS, RPT_ERRORBARS,
		RPT_XERRORBARS, RPT_REFERENCE,
	};

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->width = 500;
	c->height = 300;
	c->bar_width = 0.3;
	snprintf(c->title, sizeof(c->title), "chart <%u> & more", id);
	snprintf(c->x.label, sizeof(c->x.label), "tasks");
	snprintf(c->y.label, sizeof(c->y.label), "change %% (+ is better)");
	for (size_t k = 0; k < ARRAY_SIZE(styles); k++) {
		struct rpt_series *s = rpt_chart_series(c, "side 'A' <b>", styles[k],
							(unsigned)k);

		s->xoff = styles[k] == RPT_BARS ? -0.15 : 0;
		for (int x = 1; x <= 4; x++)
			rpt_series_add(s, x, 10 * x + (double)k, 10 * x - 3.0, 10 * x + 4.0);
	}
	rpt_chart_band(c, true, -2, 2, "+-T");
	rpt_chart_band(c, false, 0.5, 1.5, "warm-up");
	rpt_chart_fit(c, RPT_AX_INT | RPT_AX_PAD, RPT_AX_ZERO);
}

static int have_gnuplot(void)
{
	return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static void all_styles(void **state)
{
	struct rpt_chart c[3], *v[3] = { &c[0], &c[1], &c[2] };
	char err[512];

	(void)state;
	if (!have_gnuplot())
		skip();
	fill(&c[0], 1);
	fill(&c[1], 2);
	memset(&c[2], 0, sizeof(c[2]));     /* no data: never sent */
	c[2].id = 3;
	rpt_chart_series(&c[2], "empty", RPT_LINES, 0);
	assert_int_equal(rpt_plot_all(v, 3, "gnuplot", err, sizeof(err)), 0);
	for (int i = 0; i < 2; i++) {
		char prefix[16];

		assert_non_null(c[i].svg);
		assert_null(c[i].error);
		assert_int_equal(strncmp(c[i].svg, "<svg class=\"chart\"", 18), 0);
		assert_null(strstr(c[i].svg, "<?xml"));
		assert_null(strstr(c[i].svg, "id=\"gnuplot_canvas\""));
		snprintf(prefix, sizeof(prefix), "id=\"c%d-", i + 1);
		assert_non_null(strstr(c[i].svg, prefix));
		/* the chart's title, escaped, replaces gnuplot's name */
		assert_non_null(strstr(c[i].svg, "&lt;"));
		assert_non_null(strstr(c[i].svg, "<title>chart &lt;"));
		assert_non_null(strstr(c[i].svg, "&gt; &amp; more</title>"));
		/* gnuplot escaped the legend itself */
		assert_non_null(strstr(c[i].svg, "side 'A' &lt;b>"));
		assert_non_null(strstr(c[i].svg, "</svg>"));
	}
	assert_null(c[2].svg);
	assert_non_null(c[2].error);
	assert_non_null(strstr(c[2].error, "no data"));
	for (int i = 0; i < 3; i++)
		rpt_chart_free(&c[i]);
}

static void no_gnuplot(void **state)
{
	struct rpt_chart c, *v[1] = { &c };
	char err[512];

	(void)state;
	fill(&c, 1);
	assert_int_equal(rpt_plot_all(v, 1, "/nonexistent/gnuplot", err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/gnuplot"));
	assert_null(c.svg);
	assert_non_null(c.error);
	rpt_chart_free(&c);
}

/* A "gnuplot" that says something and draws nothing. */
static void failing_gnuplot(void **state)
{
	struct rpt_chart c, *v[1] = { &c };
	char dir[] = "/tmp/cgs-gp-XXXXXX", path[64], err[512];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gnuplot", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\ncat >/dev/null\necho 'line 7: bad things' >&2\nexit 1\n");
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	fill(&c, 1);
	assert_int_equal(rpt_plot_all(v, 1, path, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, "line 7: bad things"));
	assert_null(c.svg);
	assert_non_null(strstr(c.error, "line 7: bad things"));
	rpt_chart_free(&c);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_styles),
		cmocka_unit_test(no_gnuplot),
		cmocka_unit_test(failing_gnuplot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
