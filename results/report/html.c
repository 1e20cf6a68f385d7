/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html.c - the report page as a list of blocks: text (XHTML, built
 * in memory streams), charts (drawn all at once by gnuplot when the page
 * is finished) and the status line that says whether charts were drawn;
 * the style sheet; table cells. results/report/json.c makes tables of JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/macros.h"
#include "lib/version.h"
#include "results/report/document.h"

enum blk_kind { BLK_TEXT, BLK_CHART, BLK_STATUS, BLK_DETAILS };

struct rpt_block {
	enum blk_kind kind;
	char *html;
	size_t len;
	struct rpt_chart *chart;
};

/* Plain, print-friendly, no web fonts; numbers in tabular figures. */
static const char css[] =
	"body{font-family:'DejaVu Sans',system-ui,sans-serif;color:#1a1a1a;"
	"background:#fff;max-width:1320px;margin:0 auto;padding:0 1.2em 3em;"
	"line-height:1.4;font-size:15px}\n"
	"h1{font-size:1.6em;margin:.8em 0 .1em}\n"
	"h2{font-size:1.3em;border-bottom:2px solid #0072B2;padding-bottom:.15em;"
	"margin-top:2.2em}\n"
	"h3{font-size:1.1em;margin:1.8em 0 .3em}\n"
	"h4{font-size:1em;margin:1em 0 .3em}\n"
	"p.sub{color:#555;margin:0 0 1em}\n"
	"table{border-collapse:collapse;font-size:.86em;margin:.3em 0 1em}\n"
	"caption{text-align:left;font-weight:600;padding:.2em 0}\n"
	"table.grid{display:block;max-width:100%;overflow-x:auto}\n"
	"th,td{border:1px solid #c8c8c8;padding:.15em .45em;text-align:left;"
	"vertical-align:top}\n"
	"th{background:#eef2f6}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"tr.differs td{background:#fff1d0}\n"
	"tr.bad td{background:#fbe3da}\n"
	"tr.disturbed td{background:#f1e4f3}\n"
	"td[title]{cursor:help;text-decoration:underline dotted #999}\n"
	"td.v-regression{background:#f6cdb9;font-weight:700}\n"
	"td.v-improvement{background:#c4ddf0;font-weight:700}\n"
	"td.v-noisy{background:#eed6e6}\n"
	"td.v-inconclusive{background:#fae3b8}\n"
	".warn{border-left:5px solid #D55E00;background:#fbeee6;padding:.4em .8em;"
	"margin:.6em 0}\n"
	".info{border-left:5px solid #0072B2;background:#eaf3fa;padding:.4em .8em;"
	"margin:.6em 0}\n"
	".facts{color:#333;margin:.2em 0 .6em}\n"
	".mono,code{font-family:'DejaVu Sans Mono',monospace;font-size:.92em}\n"
	".figs{display:grid;grid-template-columns:repeat(auto-fit,minmax(460px,1fr));"
	"gap:1em;align-items:start}\n"
	"figure.fig{margin:.5em 0;border:1px solid #d6d6d6;border-radius:4px;"
	"padding:.5em .6em;background:#fff;min-width:0}\n"
	"figure.wide{max-width:900px}\n"
	"figure.wide.flame{max-width:none}\n"
	".flamectl{display:flex;gap:.6em;align-items:center;margin:.2em 0 .4em}\n"
	".flamectl input{width:22em}\n"
	".top{display:flex;flex-wrap:wrap;gap:0 2em;align-items:flex-start}\n"
	".top td:last-child{max-width:17em}\n"
	"details.long>summary{color:inherit}\n"
	"figcaption{font-weight:600;margin-bottom:.3em}\n"
	"svg.chart{display:block;width:100%;height:auto}\n"
	"p.nochart{color:#555;font-style:italic;border:1px dashed #bbb;padding:1em}\n"
	"details{margin:.3em 0}\n"
	"summary{cursor:pointer;color:#005a8c}\n"
	"nav ul{columns:3 18em;margin:.2em 0 1em}\n"
	"a{color:#005a8c}\n"
	"@media print{details>*{display:block}figure.fig{break-inside:avoid}}\n";

/* A FILE that discards, so callers never check for a NULL stream. */
static ssize_t null_write(void *c, const char *b, size_t n)
{
	(void)c;
	(void)b;
	return (ssize_t)n;
}

static FILE *null_file(void)
{
	cookie_io_functions_t io = { .write = null_write };

	return fopencookie(NULL, "w", io);
}

static int push(struct rpt_doc *d, struct rpt_block b)
{
	struct rpt_block *v = realloc(d->blk, (d->nblk + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	d->blk = v;
	d->blk[d->nblk++] = b;
	return 0;
}

static void fail(struct rpt_doc *d, int err)
{
	if (!d->err)
		d->err = err;
}

/* Close the current text block and start another. */
static void cut(struct rpt_doc *d)
{
	if (d->out != d->sink &&
	    (fclose(d->out) || push(d, (struct rpt_block){ BLK_TEXT, d->buf,
							   d->len, NULL }))) {
		free(d->buf);
		fail(d, -ENOMEM);
	}
	d->buf = NULL;
	d->len = 0;
	d->out = open_memstream(&d->buf, &d->len);
	if (!d->out) {
		fail(d, -ENOMEM);
		d->out = d->sink;
	}
}

int rpt_doc_init(struct rpt_doc *d, const char *title)
{
	memset(d, 0, sizeof(*d));
	d->sink = null_file();
	d->out = open_memstream(&d->buf, &d->len);
	if (!d->out || !d->sink) {
		rpt_doc_free(d);
		return -ENOMEM;
	}
	fprintf(d->out, "<!DOCTYPE html>\n"
			"<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
			"<head>\n<meta charset=\"utf-8\"/>\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
			"<meta name=\"generator\" content=\"cgscale %s (git %s)\"/>\n<title>",
		CGS_VERSION, CGS_GIT);
	rpt_html_puts(d->out, title);
	fprintf(d->out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
	return 0;
}

void rpt_doc_free(struct rpt_doc *d)
{
	if (d->out && d->out != d->sink)
		fclose(d->out);
	if (d->sink)
		fclose(d->sink);
	free(d->buf);
	for (unsigned i = 0; i < d->nblk; i++)
		free(d->blk[i].html);
	for (unsigned i = 0; i < d->nchart; i++) {
		rpt_chart_free(d->chart[i]);
		free(d->chart[i]);
	}
	free(d->blk);
	free(d->chart);
	memset(d, 0, sizeof(*d));
}

void rpt_doc_id(struct rpt_doc *d, const char *prefix, char *buf, size_t len)
{
	snprintf(buf, len, "%s%u", prefix, ++d->next_id);
}

struct rpt_chart *rpt_figure(struct rpt_doc *d, const char *title,
			     unsigned width, unsigned height)
{
	struct rpt_chart *c = calloc(1, sizeof(*c));
	struct rpt_chart **v = realloc(d->chart, (d->nchart + 1) * sizeof(*v));

	if (v)
		d->chart = v;
	if (!c || !v) {
		free(c);
		fail(d, -ENOMEM);
		return NULL;
	}
	c->id = d->nchart + 1;
	c->width = width;
	c->height = height;
	snprintf(c->title, sizeof(c->title), "%s", title);
	fprintf(d->out, "<figure class=\"fig%s\">\n<figcaption>",
		width > 700 ? " wide" : "");
	rpt_html_puts(d->out, title);
	fprintf(d->out, "</figcaption>\n");
	cut(d);
	if (push(d, (struct rpt_block){ BLK_CHART, NULL, 0, c })) {
		free(c);
		fail(d, -ENOMEM);
		return NULL;
	}
	d->chart[d->nchart++] = c;
	return c;
}

void rpt_figure_table(struct rpt_doc *d)
{
	cut(d);
	if (!d->nchart || push(d, (struct rpt_block){ BLK_DETAILS, NULL, 0,
						      d->chart[d->nchart - 1] }))
		fail(d, -ENOMEM);
	d->in_details = true;
}

void rpt_figure_end(struct rpt_doc *d)
{
	if (d->in_details)
		fprintf(d->out, "</details>\n");
	d->in_details = false;
	fprintf(d->out, "</figure>\n");
}

void rpt_doc_status(struct rpt_doc *d)
{
	cut(d);
	if (push(d, (struct rpt_block){ BLK_STATUS, NULL, 0, NULL }))
		fail(d, -ENOMEM);
}

static void write_chart(FILE *out, const struct rpt_chart *c, const char *note)
{
	if (c->svg) {
		fprintf(out, "<div class=\"plot\">\n%s\n</div>\n", c->svg);
		return;
	}
	fprintf(out, "<p class=\"nochart\">No chart: ");
	rpt_html_puts(out, c->error ? c->error : note);
	fprintf(out, ". The table below has the numbers.</p>\n");
}

int rpt_doc_finish(struct rpt_doc *d, const char *gnuplot, FILE *out,
		   char *err, size_t errlen)
{
	const char *short_note = "charts were not asked for";
	int rc = 0;

	err[0] = 0;
	fprintf(d->out, "</body>\n</html>\n");
	cut(d);
	if (d->err)
		return d->err;
	if (!gnuplot) {
		snprintf(d->chart_note, sizeof(d->chart_note),
			 "Charts were not drawn (--no-charts); the tables hold every number.");
	} else if (d->nchart) {
		rc = rpt_plot_all(d->chart, d->nchart, gnuplot, err, errlen);
		if (rc == -ENOENT) {
			short_note = "gnuplot is not installed";
			snprintf(d->chart_note, sizeof(d->chart_note),
				 "The charts need gnuplot, which could not be run (%s). "
				 "Install the Debian package gnuplot-nox (apt-get install "
				 "gnuplot-nox) and run cgscale report again; the tables "
				 "below hold every number.", err);
		} else if (rc) {
			snprintf(d->chart_note, sizeof(d->chart_note),
				 "Some charts were not drawn: %s.", err);
		}
	}
	for (unsigned i = 0; i < d->nblk; i++) {
		const struct rpt_block *b = &d->blk[i];

		switch (b->kind) {
		case BLK_TEXT:
			fwrite(b->html, 1, b->len, out);
			break;
		case BLK_CHART:
			write_chart(out, b->chart, short_note);
			break;
		case BLK_DETAILS:   /* open when the chart is missing */
			fprintf(out, "<details%s><summary>table</summary>\n",
				b->chart->svg ? "" : " open=\"open\"");
			break;
		case BLK_STATUS:
			if (d->chart_note[0]) {
				fprintf(out, "<p class=\"warn\">");
				rpt_html_puts(out, d->chart_note);
				fprintf(out, "</p>\n");
			}
			break;
		}
	}
	if (fflush(out) || ferror(out))
		return -EIO;
	return rc;
}

void rpt_td(FILE *out, const char *s)
{
	fprintf(out, "<td>");
	rpt_html_puts(out, s ? s : "-");
	fprintf(out, "</td>");
}

void rpt_th(FILE *out, const char *s)
{
	fprintf(out, "<th>");
	rpt_html_puts(out, s);
	fprintf(out, "</th>");
}

void rpt_table_head(FILE *out, const char *const *head, size_t n)
{
	fprintf(out, "<table>\n<tr>");
	for (size_t i = 0; i < n; i++)
		rpt_th(out, head[i]);
	fprintf(out, "</tr>\n");
}

void rpt_fmt_bytes(double b, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned u = 0;

	if (!isfinite(b)) {
		snprintf(buf, len, "-");
		return;
	}
	while (fabs(b) >= 1000 && u < ARRAY_SIZE(unit) - 1) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, u && fabs(b) < 9.95 ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

void rpt_td_bytes(FILE *out, double b)
{
	char buf[32];

	rpt_fmt_bytes(b, buf, sizeof(buf));
	if (isfinite(b))
		fprintf(out, "<td class=\"n\" title=\"%.0f bytes\">%s</td>", b, buf);
	else
		fprintf(out, "<td class=\"n\">-</td>");
}

void rpt_td_long(FILE *out, const char *cls, const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0, cut = max, chars = 0;

	fprintf(out, "<td class=\"%s\">", cls);
	if (n <= max) {
		rpt_html_puts(out, s ? s : "-");
		fprintf(out, "</td>");
		return;
	}
	while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;   /* not in the middle of a character */
	for (size_t i = 0; i < n; i++)
		chars += ((unsigned char)s[i] & 0xC0) != 0x80;
	fprintf(out, "<details class=\"long\"><summary>");
	rpt_html_printf(out, "%.*s", (int)cut, s);
	fprintf(out, " &#8230; (%zu characters: show all)</summary>", chars);
	rpt_html_puts(out, s);
	fprintf(out, "</details></td>");
}

void rpt_td_num(FILE *out, double v, int prec)
{
	if (isfinite(v))
		fprintf(out, "<td class=\"n\">%.*f</td>", prec, v);
	else
		fprintf(out, "<td class=\"n\">-</td>");
}
