/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * document.h - the document `cgscale report` writes, shared by every file
 * of results/report/ (there is no report.c: each piece has its own file,
 * listed below): one self-contained HTML page (XHTML, so a
 * plain XML parser validates it) with inline SVG charts and the tables
 * behind them. No script, no network fetch: it opens from a mail
 * attachment or a file:// URL.
 *
 * The pieces, each in its own file:
 *   results/report/axis.c  what is drawn: axis ranges, "nice" ticks and their
 *                  labels, the linear reference of a scalability curve;
 *   results/report/text.c  escaping of every string for HTML and for gnuplot;
 *   results/report/plot.c  a chart (struct rpt_chart, pure data) and the
 *                  gnuplot commands that draw it;
 *   results/report/gnuplot.c  one gnuplot (SVG terminal) for all charts of a
 *                  page, and the SVG made safe to embed;
 *   results/report/html.c  the document: text blocks and chart blocks, the
 *                  style sheet, table cells;
 *   results/report/json.c  generic tables of JSON sections;
 *   results/report/run.c   the pages of result files: outline, summary, curves;
 *   results/report/env.c   their environment table and warnings;
 *   results/report/point.c per point: task bars, time series, aux counters;
 *   results/report/sections.c  per point: its extra sections, one row each;
 *   results/report/perf.c  per point: the perf counter summary;
 *   results/report/disturbed.c  disturbed runs: summary note, section;
 *   results/report/cgroup.c  per point: its cgroup tree, events, memory.stat;
 *   results/report/compare_page.c  the page of `cgscale compare --html`;
 *   results/report/io.c    loading result files, writing the page atomically;
 *   runner/cmd/report.c  the subcommand `cgscale report`.
 * A comparison adds its pages by filling charts with the same model:
 * sides as bar series, runs as point series, CIs as error bars, verdicts
 * as series of their own colour and marker, thresholds as bands.
 */
#ifndef CGS_REPORT_DOCUMENT_H
#define CGS_REPORT_DOCUMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "results/model/result.h"

struct json_object;

/* ---- axes and references (results/report/axis.c) ---- */

#define RPT_MAX_TICKS 32

enum rpt_axis_flags {
	RPT_AX_ZERO = 1 << 0,   /* the range includes 0 (rates, counts) */
	RPT_AX_INT = 1 << 1,    /* ticks on whole numbers (tasks, indices) */
	RPT_AX_PAD = 1 << 2,    /* half a unit of room at both ends (bars) */
	RPT_AX_TIGHT = 1 << 3,  /* the range ends at the data, not at a tick
				 * multiple (time axes end at the last sample;
				 * task axes start at the smallest count) */
	RPT_AX_LOG2 = 1 << 4,   /* log2 scale, ticks at the powers of two
				 * (task sweeps); needs lo > 0 */
};

struct rpt_axis {
	char label[128];          /* with its unit, e.g. "total ops/s" */
	double min, max;          /* the range drawn */
	double step;              /* between ticks; 2 on a log2 axis */
	bool log2;                /* drawn on a log2 scale */
	unsigned nticks;
	double tick[RPT_MAX_TICKS];
	char tick_label[RPT_MAX_TICKS][48];
};

/*
 * The "nice" step for a span to be cut in about @target parts: of 1, 2,
 * 2.5 and 5 times a power of ten, the one nearest span / target by ratio
 * (so within a factor of 1.42 of it). NAN when span or target is not
 * positive.
 */
double rpt_nice_step(double span, unsigned target);

/*
 * Fit @a to the data range [@lo, @hi] (NANs ignored by the caller): a
 * range on tick multiples that holds the data, ticks at a nice step,
 * about @target of them, and their labels (rpt_fmt_tick). A range of one
 * value is widened around it; none at all (lo > hi, or not finite)
 * becomes 0..1. The label is left alone. 0, or -EINVAL for target < 2.
 */
int rpt_axis_fit(struct rpt_axis *a, double lo, double hi, unsigned target,
		 unsigned flags);

/*
 * A categorical axis of @n categories at 0..n-1, one tick each labelled
 * @labels[i] (every k-th when there are more than RPT_MAX_TICKS), half a
 * unit of room at both ends; @reverse puts the first at the top or right
 * end (min > max). 0, or -EINVAL for n = 0.
 */
int rpt_axis_categories(struct rpt_axis *a, unsigned n,
			const char *const *labels, bool reverse);

/*
 * A tick label: @v with an SI suffix (k, M, G, T) and as many decimals as
 * the @step between ticks needs, trailing zeros dropped: 1500000 with a
 * step of 500000 is "1.5M", 0 is "0", 0.25 with a step of 0.05 is "0.25".
 */
void rpt_fmt_tick(double v, double step, char *buf, size_t len);

/*
 * will-it-scale's linear reference: out[i] = tasks[i] x ops(1), where
 * ops(1) is @ops at the entry whose tasks is 1. Returns 0, or -ENOENT
 * (out all NAN) when there is no 1-task entry or its ops is not > 0.
 */
int rpt_linear(const double *tasks, const double *ops, size_t n, double *out);

/* ---- escaping (results/report/text.c) ---- */

/*
 * Write @s for HTML/XML text or a quoted attribute: & < > " ' as
 * entities; bytes that are not valid UTF-8, control characters (all but
 * tab, newline), DEL, C1 controls, surrogates and U+FFFE/U+FFFF as
 * U+FFFD, so the page stays well-formed whatever a result file holds.
 * NULL writes nothing.
 */
void rpt_html_puts(FILE *out, const char *s);

/* The same into a new string; NULL on ENOMEM. */
char *rpt_html_escape(const char *s);

/* printf, then rpt_html_puts of the result. */
void rpt_html_printf(FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * @s as one gnuplot single-quoted string, quotes included, into @buf:
 * ' doubled, anything rpt_html_puts would replace (newlines too, which
 * would end the command) replaced by U+FFFD, cut at a character boundary
 * to fit. Returns the length written.
 */
size_t rpt_gp_quote(const char *s, char *buf, size_t len);

/* ---- charts (results/report/plot.c) ---- */

#define RPT_MAX_SERIES 16
#define RPT_MAX_BANDS 4

enum rpt_style {
	RPT_LINESPOINTS,   /* data: a line with a marker at each point */
	RPT_LINES,         /* a line only (time series drawn as steps) */
	RPT_POINTS,        /* markers only (one dot per run) */
	RPT_BARS,          /* bars at x + xoff, the chart's bar width wide */
	RPT_ERRORBARS,     /* a marker at y with a bar from lo to hi */
	RPT_XERRORBARS,    /* a marker at x with a bar from lo to hi along x
			    * (a forest plot of changes and their CIs) */
	RPT_REFERENCE,     /* a thin dotted line, e.g. linear or a mean */
};

/* Colour (Okabe-Ito, safe for colour blindness), dash, marker and fill
 * pattern of series @look: every look differs in all four, so charts
 * read in grey scale too. Looks repeat after RPT_NLOOKS. */
#define RPT_NLOOKS 7
struct rpt_look {
	const char *colour;    /* "#rrggbb" */
	const char *name;      /* the colour's name, for the docs */
	int dash;              /* gnuplot dashtype */
	int point;             /* gnuplot pointtype (filled shapes) */
	int pattern;           /* gnuplot fill pattern of bars */
};
extern const struct rpt_look rpt_looks[RPT_NLOOKS];

struct rpt_series {
	char name[128];        /* the legend entry; "" for none */
	enum rpt_style style;
	unsigned look;
	double xoff;           /* bars: offset from x, for clusters */
	bool label_end;        /* write the name at the last point too */
	size_t n, cap;
	double *x, *y, *lo, *hi;   /* lo/hi: the error bars only */
};

/* A shaded stretch of one axis, e.g. the warm-up or +-threshold. */
struct rpt_band {
	bool on_y;             /* false: lo..hi along x */
	double lo, hi;
	char label[64];
};

struct rpt_chart {
	unsigned id;           /* unique in the document */
	char title[256];       /* caption; not drawn by gnuplot */
	unsigned width, height;    /* SVG units */
	struct rpt_axis x, y;
	double bar_width;
	unsigned key_rows;     /* legend: entries per column (0: gnuplot's
				* choice), e.g. one column per mode */
	unsigned nseries;
	struct rpt_series series[RPT_MAX_SERIES];
	unsigned nbands;
	struct rpt_band band[RPT_MAX_BANDS];
	char *svg;             /* drawn and made safe to embed, or NULL */
	char *error;           /* why it was not drawn, or NULL */
};

/* Room above the top value, as a fraction of the data's y span. */
#define RPT_HEADROOM 0.08
/* End labels closer than this fraction of the y range are stacked. */
#define RPT_LABEL_GAP 0.08

/* Where series @i writes its name at its last point (label_end); false
 * when it does not. */
bool rpt_end_label(const struct rpt_chart *c, unsigned i, double *x, double *y);
/* The label's vertical offset in character heights: +0.7 (above the
 * point), or one line lower for each earlier end label that would
 * overlap it. */
double rpt_end_label_offset(const struct rpt_chart *c, unsigned i);

/* A new series (NULL when the chart has RPT_MAX_SERIES already). */
struct rpt_series *rpt_chart_series(struct rpt_chart *c, const char *name,
				    enum rpt_style style, unsigned look);

/* Append a point; lo/hi matter only for the error bars. 0 or -ENOMEM. */
int rpt_series_add(struct rpt_series *s, double x, double y, double lo,
		   double hi);

/* Add a band; ignored beyond RPT_MAX_BANDS. */
void rpt_chart_band(struct rpt_chart *c, bool on_y, double lo, double hi,
		    const char *label);

/* Fit both axes to the data, bands included (see rpt_axis_fit). */
void rpt_chart_fit(struct rpt_chart *c, unsigned xflags, unsigned yflags);

/* Whether any series has a point to draw. */
bool rpt_chart_has_data(const struct rpt_chart *c);

void rpt_chart_free(struct rpt_chart *c);

/* The gnuplot commands that draw @c, data inline, to the current output. */
void rpt_gp_script(FILE *out, const struct rpt_chart *c);

/*
 * (results/report/gnuplot.c) Make one SVG document from gnuplot safe to embed in a page with other
 * charts: drop what comes before <svg (XML prolog, DOCTYPE, comments) and
 * after </svg>, prefix every id and every local reference to one
 * (href="#x", url(#x)) with @prefix, and escape "]]>". NULL when there is
 * no <svg> element, or on ENOMEM.
 */
char *rpt_svg_embed(const char *svg, size_t len, const char *prefix);

/*
 * (results/report/gnuplot.c) Draw @n charts with one run of @gnuplot (a path, or a name looked up in
 * PATH). Fills each chart's svg, or its error. Returns 0 when all were
 * drawn; -ENOENT when gnuplot cannot be run (no chart drawn; @err says
 * so); -EIO when some were not drawn (@err has what gnuplot said).
 */
int rpt_plot_all(struct rpt_chart **c, unsigned n, const char *gnuplot,
		 char *err, size_t errlen);

/* ---- the document (results/report/html.c) ---- */

struct rpt_block;

struct rpt_doc {
	FILE *out;                 /* the current text block */
	FILE *sink;                /* discards; out when memory ran out */
	char *buf;
	size_t len;
	struct rpt_block *blk;
	unsigned nblk;
	struct rpt_chart **chart;
	unsigned nchart;
	unsigned next_id;          /* for element ids */
	bool in_details;           /* a figure's table is open */
	bool flame_js;             /* the flame graphs' script is written */
	int err;                   /* first -errno, kept until the end */
	char chart_note[512];      /* why charts are missing, if they are */
};

/* Start a document with @title; 0 or -ENOMEM. */
int rpt_doc_init(struct rpt_doc *d, const char *title);
void rpt_doc_free(struct rpt_doc *d);

/* A new element id: "@prefix<n>", unique in the document. */
void rpt_doc_id(struct rpt_doc *d, const char *prefix, char *buf, size_t len);

/*
 * A chart at this place in the document, in a <figure> with @title as
 * caption; the caller fills it, then writes what follows the drawing,
 * calls rpt_figure_table() and writes the table behind the chart, and
 * closes with rpt_figure_end(). The table is folded away in a <details>
 * when the chart is drawn, and open when it is not. NULL on ENOMEM
 * (recorded in d->err).
 */
struct rpt_chart *rpt_figure(struct rpt_doc *d, const char *title,
			     unsigned width, unsigned height);
void rpt_figure_table(struct rpt_doc *d);
void rpt_figure_end(struct rpt_doc *d);

/* The place where the charts' status goes (drawn, or why not). */
void rpt_doc_status(struct rpt_doc *d);

/*
 * Draw the charts with @gnuplot (NULL: no charts, by request) and write
 * the whole page to @out. Returns 0, -ENOENT (no gnuplot: page written,
 * tables only), -EIO (some charts failed: page written, @err says why),
 * or another -errno when the page could not be made.
 */
int rpt_doc_finish(struct rpt_doc *d, const char *gnuplot, FILE *out,
		   char *err, size_t errlen);

/* A <table> of @obj's members, recursively flattened into rows of
 * "key.subkey" and value, arrays of objects as their own tables. */
void rpt_json_tables(FILE *out, struct json_object *obj, const char *caption);

/* A JSON value as short text: strings as they are, numbers as %.6g,
 * null as "-"; objects and arrays as "{n keys}" / "[n items]". */
void rpt_json_text(struct json_object *v, char *buf, size_t len);

/* The value at a dotted @path of @o ("thp.enabled"), or NULL. */
struct json_object *rpt_json_path(struct json_object *o, const char *path);

/* Table cells: text escaped; numbers right-aligned with @prec decimals,
 * "-" when not finite. */
void rpt_td(FILE *out, const char *s);
void rpt_th(FILE *out, const char *s);
/* Open a table with a header row of @n cells. */
void rpt_table_head(FILE *out, const char *const *head, size_t n);
void rpt_td_num(FILE *out, double v, int prec);
/* A byte count for people, to three figures or so, in IEC units:
 * 269484032 is "257 MiB", 1536 "1.5 KiB", 512 "512 B"; "-" when not
 * finite. */
void rpt_fmt_bytes(double b, char *buf, size_t len);
/* Its cell: right-aligned, the exact count in the title (a tooltip). */
void rpt_td_bytes(FILE *out, double b);
/* A cell of class @cls for a text that may be long: beyond @max bytes,
 * its first @max (cut at a character) in a <details> that unfolds to
 * all of it, so one long value does not stretch its table. */
void rpt_td_long(FILE *out, const char *cls, const char *s, size_t max);

/* ---- the pages of result files (results/report/run.c, results/report/point.c) ---- */

struct rpt_input {
	char *path;
	struct res_file res;
};

/* A line that says what @test measures and what one op is, in @buf, or
 * NULL when it is not known (the report runs without the registry). */
typedef const char *(*rpt_describe_fn)(const char *test, char *buf,
				      size_t len);

/* One run of a point, and the file it came from. */
struct rpt_run {
	const struct res_point *p;
	unsigned file;
};

/* The runs of one (test, mode, tasks), from all the files. */
struct rpt_group {
	const char *test, *mode;
	unsigned tasks, test_idx, mode_idx;
	struct rpt_run *run;
	unsigned nrun, nok;
	char id[24];             /* its section's element id */
};

struct rpt_set {
	const struct rpt_input *in;
	unsigned nin;
	struct rpt_group *g;
	unsigned ng;
	const char **test, **mode;   /* in the order first seen */
	unsigned ntest, nmode;
	rpt_describe_fn describe;    /* may be NULL */
};

/* The scalability charts of test @t (results/report/scal.c): total ops/s and each
 * aux counter against tasks, with the table behind them. */
void rpt_scalability(struct rpt_doc *d, const struct rpt_set *s, unsigned t);
/* The task axis for these task counts: log2 for a sweep (3 or more counts
 * spanning 8x), else whole numbers from the smallest count. */
unsigned rpt_task_axis_flags(const unsigned *tasks, size_t n);

static inline bool rpt_ok(const struct res_point *p)
{
	return p->status == RES_OK && p->sum.elapsed_s > 0;
}

/* "run 2", or "file 1 run 2" when there are several files (results/report/point.c). */
void rpt_run_label(const struct rpt_set *s, const struct rpt_run *r,
		   char *buf, size_t len);

/* The environment table (folded), the line of host, kernel and CPUs
 * (for the paragraph under the title), and the warnings
 * (results/report/env.c). */
void rpt_env_table(struct rpt_doc *d, const struct rpt_set *s);
void rpt_env_line(struct rpt_doc *d, const struct rpt_set *s);
void rpt_warnings(struct rpt_doc *d, const struct rpt_set *s);

/* The section of one group: facts, per-task bars, time series, counters. */
void rpt_group_section(struct rpt_doc *d, const struct rpt_set *s,
		       const struct rpt_group *g);

/* How many runs of @g are disturbed (results/report/disturbed.c), the
 * first one's reasons in @why. A point's sections: sections.h. */
unsigned rpt_disturbed_runs(const struct rpt_group *g, char *why, size_t len);

/* Measured ops/s of task @i of @p (from its samples); NAN if none. */
double rpt_task_rate(const struct res_point *p, unsigned i);   /* results/report/dist.c */

/* (results/report/dist.c) Above this many tasks a point's per-task figure is the
 * distribution of their rates, not a bar each; at most RPT_DIST_POINTS
 * points per run are drawn. */
#define RPT_TASK_BARS 64
#define RPT_DIST_POINTS 256
void rpt_task_dist(struct rpt_doc *d, const struct rpt_group *g,
		   const struct rpt_run *const *v, const char (*label)[64],
		   unsigned n);


/* Write the report of @n loaded result files into @d; @describe may be
 * NULL. 0 or -ENOMEM. */
int rpt_build_runs(struct rpt_doc *d, const struct rpt_input *in, unsigned n,
		   rpt_describe_fn describe);

/* Load one result file, or every *.json under a directory (sorted), and
 * append them to @in. 0, or -errno with a one-line message in @err. */
int rpt_load(const char *arg, struct rpt_input **in, unsigned *n, char *err,
	     size_t errlen);
void rpt_inputs_free(struct rpt_input *in, unsigned n);

/* Resolve an output argument: a directory gets report.html in it; the
 * directory must be writable. The path (malloc'd), or NULL with @err
 * naming the option @what. */
char *rpt_output_path(const char *what, const char *o, char *err, size_t errlen);

/*
 * Finish @d (its charts drawn by @gnuplot; NULL: none) and write it to
 * @path (NULL: stdout) atomically. Returns 0; -ENOENT, written without
 * charts (no gnuplot); -EIO, written but some charts failed;
 * -ECANCELED when the write failed (@err says why: never confused with a
 * missing gnuplot); another -errno when nothing was written.
 */
int rpt_doc_write(struct rpt_doc *d, const char *path, const char *gnuplot,
		  char *err, size_t errlen);

/* ---- the page of a comparison (results/report/compare_page.c) ---- */

struct cmp_result;

/* Write the page of a finished comparison into @d. 0 or -ENOMEM. */
int rpt_build_compare(struct rpt_doc *d, const struct cmp_result *r);

/* Build, draw with @gnuplot and write the page of @r to @path; returns
 * as rpt_doc_write(). */
int rpt_write_compare(const struct cmp_result *r, const char *path,
		      const char *gnuplot, char *err, size_t errlen);


#endif
