/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.c - a chart as plain data (struct rpt_chart: series, bands,
 * axes fitted to them) and the gnuplot commands that draw it with the
 * data inline ($D << EOD). The look of each series (colour, dash,
 * marker, fill) comes from one table. results/report/gnuplot.c runs gnuplot.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/document.h"

/* Okabe & Ito's palette; dashes, markers and fills differ as well. */
const struct rpt_look rpt_looks[RPT_NLOOKS] = {
	{ "#0072B2", "blue", 1, 7, -1 },            /* solid, filled circle */
	{ "#D55E00", "vermillion", 2, 9, 4 },       /* dashed, triangle */
	{ "#009E73", "bluish green", 4, 5, 5 },     /* dash-dot, square */
	{ "#CC79A7", "reddish purple", 5, 13, 6 },  /* dash-dot-dot, diamond */
	{ "#E69F00", "orange", 3, 11, 7 },          /* dotted, triangle down */
	{ "#56B4E9", "sky blue", 2, 6, 1 },         /* dashed, open circle */
	{ "#000000", "black", 1, 4, 2 },            /* solid, open square */
};

struct rpt_series *rpt_chart_series(struct rpt_chart *c, const char *name,
				    enum rpt_style style, unsigned look)
{
	struct rpt_series *s;

	if (c->nseries >= RPT_MAX_SERIES)
		return NULL;
	s = &c->series[c->nseries++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name ? name : "");
	s->style = style;
	s->look = look % RPT_NLOOKS;
	return s;
}

int rpt_series_add(struct rpt_series *s, double x, double y, double lo,
		   double hi)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		double *v[4] = { s->x, s->y, s->lo, s->hi };

		for (int k = 0; k < 4; k++) {
			double *nv = realloc(v[k], cap * sizeof(double));

			if (!nv)
				return -ENOMEM;
			v[k] = nv;
			switch (k) {
			case 0: s->x = nv; break;
			case 1: s->y = nv; break;
			case 2: s->lo = nv; break;
			default: s->hi = nv; break;
			}
		}
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->lo[s->n] = lo;
	s->hi[s->n] = hi;
	s->n++;
	return 0;
}

void rpt_chart_band(struct rpt_chart *c, bool on_y, double lo, double hi,
		    const char *label)
{
	struct rpt_band *b;

	if (c->nbands >= RPT_MAX_BANDS)
		return;
	b = &c->band[c->nbands++];
	b->on_y = on_y;
	b->lo = lo;
	b->hi = hi;
	snprintf(b->label, sizeof(b->label), "%s", label ? label : "");
}

static void widen(double *lo, double *hi, double v)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

void rpt_chart_fit(struct rpt_chart *c, unsigned xflags, unsigned yflags)
{
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;

	for (unsigned i = 0; i < c->nseries; i++) {
		const struct rpt_series *s = &c->series[i];

		for (size_t k = 0; k < s->n; k++) {
			if (!isfinite(s->x[k]) || !isfinite(s->y[k]))
				continue;
			widen(&xlo, &xhi, s->x[k] + s->xoff);
			widen(&ylo, &yhi, s->y[k]);
			if (s->style == RPT_ERRORBARS || s->style == RPT_XERRORBARS) {
				widen(&ylo, &yhi, s->lo[k]);
				widen(&ylo, &yhi, s->hi[k]);
			}
			if (s->style == RPT_XERRORBARS) {
				widen(&xlo, &xhi, s->lo[k]);
				widen(&xlo, &xhi, s->hi[k]);
			}
		}
	}
	for (unsigned b = 0; b < c->nbands; b++) {
		widen(c->band[b].on_y ? &ylo : &xlo, c->band[b].on_y ? &yhi : &xhi,
		      c->band[b].lo);
		widen(c->band[b].on_y ? &ylo : &xlo, c->band[b].on_y ? &yhi : &xhi,
		      c->band[b].hi);
	}
	/* headroom: no marker or end label on the top of the frame */
	if (yhi > ylo)
		yhi += (yhi - ylo) * RPT_HEADROOM;
	else if (yhi > 0)
		yhi *= 1 + RPT_HEADROOM;
	rpt_axis_fit(&c->x, xlo, xhi, 8, xflags);
	rpt_axis_fit(&c->y, ylo, yhi, 6, yflags);
}

bool rpt_end_label(const struct rpt_chart *c, unsigned i, double *x, double *y)
{
	const struct rpt_series *sr = &c->series[i];
	size_t k = sr->n;

	while (k > 0 && !(isfinite(sr->x[k - 1]) && isfinite(sr->y[k - 1])))
		k--;
	if (!sr->label_end || !k)
		return false;
	*x = sr->x[k - 1] + sr->xoff;
	*y = sr->y[k - 1];
	return true;
}

/* Above its point, or, when an earlier end label sits at the same x and
 * within RPT_LABEL_GAP of the y range, one line lower per such label. */
double rpt_end_label_offset(const struct rpt_chart *c, unsigned i)
{
	double x, y, xj, yj, span = c->y.max - c->y.min;
	unsigned below = 0;

	if (!rpt_end_label(c, i, &x, &y))
		return 0;
	for (unsigned j = 0; j < i; j++)
		if (rpt_end_label(c, j, &xj, &yj) && fabs(xj - x) <= 1e-9 * fabs(x) &&
		    (!(span > 0) || fabs(yj - y) < RPT_LABEL_GAP * span))
			below++;
	return 0.7 - 1.3 * below;
}

bool rpt_chart_has_data(const struct rpt_chart *c)
{
	for (unsigned i = 0; i < c->nseries; i++)
		for (size_t k = 0; k < c->series[i].n; k++)
			if (isfinite(c->series[i].x[k]) && isfinite(c->series[i].y[k]))
				return true;
	return false;
}

void rpt_chart_free(struct rpt_chart *c)
{
	for (unsigned i = 0; i < c->nseries; i++) {
		free(c->series[i].x);
		free(c->series[i].y);
		free(c->series[i].lo);
		free(c->series[i].hi);
	}
	free(c->svg);
	free(c->error);
	memset(c, 0, sizeof(*c));
}

static void gp_str(FILE *out, const char *s)
{
	char buf[1024];

	rpt_gp_quote(s, buf, sizeof(buf));
	fputs(buf, out);
}

/* Tick labels are formats to gnuplot (of the tick's value): % doubled. */
static void gp_tics(FILE *out, const char *which, const struct rpt_axis *a)
{
	fprintf(out, "set %s (", which);
	for (unsigned i = 0; i < a->nticks; i++) {
		char fmt[2 * sizeof(a->tick_label[0])];
		size_t o = 0;

		for (const char *p = a->tick_label[i]; *p && o + 2 < sizeof(fmt); p++) {
			if (*p == '%')
				fmt[o++] = '%';
			fmt[o++] = *p;
		}
		fmt[o] = 0;
		fprintf(out, "%s", i ? ", " : "");
		gp_str(out, fmt);
		fprintf(out, " %.10g", a->tick[i]);
	}
	fprintf(out, ")\n");
}

static bool has_data(const struct rpt_series *s)
{
	for (size_t k = 0; k < s->n; k++)
		if (isfinite(s->x[k]) && isfinite(s->y[k]))
			return true;
	return false;
}

static void gp_plot_item(FILE *out, const struct rpt_chart *c, unsigned i)
{
	const struct rpt_series *s = &c->series[i];
	const struct rpt_look *l = &rpt_looks[s->look % RPT_NLOOKS];

	fprintf(out, "$D%u using ($1%+.10g):2", i, s->xoff);
	switch (s->style) {
	case RPT_LINESPOINTS:
		fprintf(out, " with linespoints lw 2 dt %d pt %d ps 0.9", l->dash,
			l->point);
		break;
	case RPT_LINES:
		fprintf(out, " with lines lw 1.5 dt %d", l->dash);
		break;
	case RPT_POINTS:
		fprintf(out, " with points pt %d ps 0.7", l->point);
		break;
	case RPT_BARS:
		if (l->pattern < 0)
			fprintf(out, " with boxes fs solid 0.85 border lc rgb '#333333'");
		else
			fprintf(out, " with boxes fs pattern %d border lc rgb '#333333'",
				l->pattern);
		break;
	case RPT_ERRORBARS:
		fprintf(out, ":3:4 with yerrorbars lw 1.5 pt %d ps 0.9", l->point);
		break;
	case RPT_XERRORBARS:
		fprintf(out, ":3:4 with xerrorbars lw 1.5 pt %d ps 1.1", l->point);
		break;
	case RPT_REFERENCE:
		fprintf(out, " with lines lw 1.2 dt 3");
		break;
	}
	fprintf(out, " lc rgb '%s' ", l->colour);
	if (s->name[0]) {
		fprintf(out, "title ");
		gp_str(out, s->name);
	} else {
		fprintf(out, "notitle");
	}
}

/* The shaded bands, each with its label. */
static void gp_bands(FILE *out, const struct rpt_chart *c)
{
	for (unsigned b = 0; b < c->nbands; b++) {
		const struct rpt_band *bd = &c->band[b];

		if (bd->on_y)
			fprintf(out, "set object %u rect from graph 0, first %.10g to "
				     "graph 1, first %.10g", b + 1, bd->lo, bd->hi);
		else
			fprintf(out, "set object %u rect from first %.10g, graph 0 to "
				     "first %.10g, graph 1", b + 1, bd->lo, bd->hi);
		fprintf(out, " behind fc rgb '#e6e6e6' fs solid 1.0 noborder\n");
		fprintf(out, "set label %u ", b + 1);
		gp_str(out, bd->label);
		if (bd->on_y)
			fprintf(out, " at graph 0.01, first %.10g left front tc rgb '#555555'\n",
				bd->hi);
		else
			fprintf(out, " at first %.10g, graph 0.04 center front tc rgb '#555555'\n",
				(bd->lo + bd->hi) / 2);
	}
}

/* The names written at the end of the series that ask for it. */
static void gp_end_labels(FILE *out, const struct rpt_chart *c)
{
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct rpt_series *sr = &c->series[i];
		double x, y;

		if (!rpt_end_label(c, i, &x, &y))
			continue;
		fprintf(out, "set label %u ", RPT_MAX_BANDS + 1 + i);
		gp_str(out, sr->name);
		fprintf(out, " at first %.10g, first %.10g right offset -0.6,%.1f front "
			     "tc rgb '%s'\n", x, y, rpt_end_label_offset(c, i),
			rpt_looks[sr->look % RPT_NLOOKS].colour);
	}
}

/* Every series' points as an inline data block $D<i>. */
static void gp_data(FILE *out, const struct rpt_chart *c)
{
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct rpt_series *s = &c->series[i];

		fprintf(out, "$D%u << EOD\n", i);
		for (size_t k = 0; k < s->n; k++) {
			if (!isfinite(s->x[k]) || !isfinite(s->y[k]))
				continue;
			fprintf(out, "%.10g %.10g", s->x[k], s->y[k]);
			if (s->style == RPT_ERRORBARS || s->style == RPT_XERRORBARS)
				fprintf(out, " %.10g %.10g",
					isfinite(s->lo[k]) ? s->lo[k] : s->y[k],
					isfinite(s->hi[k]) ? s->hi[k] : s->y[k]);
			fprintf(out, "\n");
		}
		fprintf(out, "EOD\n");
	}
}

void rpt_gp_script(FILE *out, const struct rpt_chart *c)
{
	bool first = true;

	fprintf(out, "reset\n"
		     "set terminal svg size %u,%u dynamic noenhanced font 'sans,11' "
		     "background rgb 'white' name 'cgs%u'\n",
		c->width ? c->width : 600, c->height ? c->height : 340, c->id);
	fprintf(out, "set border 3 lw 1\nset tics nomirror out\n"
		     "set grid ytics lc rgb '#d9d9d9' lw 1 dt 1\n"
		     "set offsets 0, 0, 0, 0\n");
	if (c->key_rows)
		fprintf(out, "set key outside top center vertical maxrows %u samplen 3 "
			     "spacing 1.1 width 2 noenhanced\n", c->key_rows);
	else
		fprintf(out, "set key outside top center horizontal samplen 3 "
			     "spacing 1.1 noenhanced\n");
	fprintf(out, "set xrange [%.10g:%.10g]\nset yrange [%.10g:%.10g]\n",
		c->x.min, c->x.max, c->y.min, c->y.max);
	if (c->x.log2)
		fprintf(out, "set logscale x 2\n");
	gp_tics(out, "xtics", &c->x);
	gp_tics(out, "ytics", &c->y);
	fprintf(out, "set xlabel ");
	gp_str(out, c->x.label);
	fprintf(out, "\nset ylabel ");
	gp_str(out, c->y.label);
	fprintf(out, "\nset boxwidth %.10g absolute\n",
		c->bar_width > 0 ? c->bar_width : 0.8);
	gp_bands(out, c);
	gp_end_labels(out, c);
	gp_data(out, c);
	fprintf(out, "plot ");
	for (unsigned i = 0; i < c->nseries; i++) {
		if (!has_data(&c->series[i]))
			continue;
		fprintf(out, "%s", first ? "" : ", \\\n     ");
		gp_plot_item(out, c, i);
		first = false;
	}
	fprintf(out, "\n");
}

