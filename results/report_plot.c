/*
 * report_plot.c - charts drawn by gnuplot's SVG terminal. A chart is
 * plain data (struct rpt_chart: axes already fitted, series, bands); this
 * file turns every chart of a page into one gnuplot script with the data
 * inline ($D << EOD), runs gnuplot once with the script on its stdin and
 * reads the SVG documents back from its stdout, split by markers that
 * gnuplot prints between them. Nothing touches the file system but two
 * unlinked temporary files. Each SVG is then made safe to embed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report.h"

extern char **environ;

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
			if (s->style == RPT_ERRORBARS) {
				widen(&ylo, &yhi, s->lo[k]);
				widen(&ylo, &yhi, s->hi[k]);
			}
		}
	}
	for (unsigned b = 0; b < c->nbands; b++) {
		widen(c->band[b].on_y ? &ylo : &xlo, c->band[b].on_y ? &yhi : &xhi,
		      c->band[b].lo);
		widen(c->band[b].on_y ? &ylo : &xlo, c->band[b].on_y ? &yhi : &xhi,
		      c->band[b].hi);
	}
	if (yhi > ylo)
		yhi += (yhi - ylo) * 0.03;   /* no marker on the frame */
	rpt_axis_fit(&c->x, xlo, xhi, 8, xflags);
	rpt_axis_fit(&c->y, ylo, yhi, 6, yflags);
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

static void gp_tics(FILE *out, const char *which, const struct rpt_axis *a)
{
	fprintf(out, "set %s (", which);
	for (unsigned i = 0; i < a->nticks; i++) {
		fprintf(out, "%s", i ? ", " : "");
		gp_str(out, a->tick_label[i]);
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
	case RPT_REFERENCE:
		fprintf(out, " with lines lw 1.2 dt 3");
		break;
	}
	fprintf(out, " lc rgb '%s' title ", l->colour);
	gp_str(out, s->name);
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
	gp_tics(out, "xtics", &c->x);
	gp_tics(out, "ytics", &c->y);
	fprintf(out, "set xlabel ");
	gp_str(out, c->x.label);
	fprintf(out, "\nset ylabel ");
	gp_str(out, c->y.label);
	fprintf(out, "\nset boxwidth %.10g absolute\n",
		c->bar_width > 0 ? c->bar_width : 0.8);
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
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct rpt_series *s = &c->series[i];

		fprintf(out, "$D%u << EOD\n", i);
		for (size_t k = 0; k < s->n; k++) {
			if (!isfinite(s->x[k]) || !isfinite(s->y[k]))
				continue;
			fprintf(out, "%.10g %.10g", s->x[k], s->y[k]);
			if (s->style == RPT_ERRORBARS)
				fprintf(out, " %.10g %.10g",
					isfinite(s->lo[k]) ? s->lo[k] : s->y[k],
					isfinite(s->hi[k]) ? s->hi[k] : s->y[k]);
			fprintf(out, "\n");
		}
		fprintf(out, "EOD\n");
	}
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

/* ---- making gnuplot's SVG embeddable ---- */

static bool starts(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - p) >= n && !memcmp(p, lit, n);
}

static const char *find(const char *p, const char *end, const char *lit)
{
	for (; p < end; p++)
		if (starts(p, end, lit))
			return p;
	return NULL;
}

char *rpt_svg_embed(const char *svg, size_t len, const char *prefix)
{
	const char *end = svg + len, *p, *last = NULL;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f;

	for (p = svg; (p = find(p, end, "<svg")); p += 4)
		if (p + 4 < end && strchr(" \t\r\n>", p[4]))
			break;
	if (!p)
		return NULL;
	for (const char *q = p; (q = find(q, end, "</svg>")); q += 6)
		last = q;
	if (!last)
		return NULL;
	end = last + 6;
	f = open_memstream(&buf, &blen);
	if (!f)
		return NULL;
	fputs("<svg class=\"chart\" role=\"img\"", f);
	for (p += 4; p < end; p++) {
		static const char *const refs[] = { "href=\"#", "href='#", "url(#" };
		bool done = false;

		if ((starts(p, end, "id=\"") || starts(p, end, "id='")) &&
		    strchr(" \t\r\n", p[-1])) {
			fwrite(p, 1, 4, f);
			fputs(prefix, f);
			p += 3;
			continue;
		}
		for (size_t r = 0; r < sizeof(refs) / sizeof(refs[0]) && !done; r++)
			if (starts(p, end, refs[r])) {
				fputs(refs[r], f);
				fputs(prefix, f);
				p += strlen(refs[r]) - 1;
				done = true;
			}
		if (done)
			continue;
		if (starts(p, end, "]]>")) {
			fputs("]]&gt;", f);
			p += 2;
			continue;
		}
		fputc(*p, f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Put @title in place of gnuplot's <title>NAME</title> (the first one). */
static char *retitle(char *svg, const char *title)
{
	char *t = strstr(svg, "<title>"), *e, *esc, *out;

	if (!t || !(e = strstr(t, "</title>")) || !(esc = rpt_html_escape(title)))
		return svg;
	if (asprintf(&out, "%.*s<title>%s%s", (int)(t - svg), svg, esc, e) < 0)
		out = NULL;
	free(esc);
	if (!out)
		return svg;
	free(svg);
	return out;
}

/* ---- running gnuplot ---- */

static int slurp(int fd, pid_t pid, char **out, size_t *outlen, unsigned secs)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	struct timespec t0, now;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (int)secs - (int)(now.tv_sec - t0.tv_sec);
		if (left <= 0) {
			kill(pid, SIGKILL);
			rc = -ETIMEDOUT;
			break;
		}
		n = poll(&pfd, 1, left * 1000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		if (n == 0)
			continue;   /* timed out: the next round kills it */
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				rc = -ENOMEM;
				kill(pid, SIGKILL);
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
	}
	buf[len] = 0;
	*out = buf;
	*outlen = len;
	return rc;
}

/* The first line gnuplot wrote on stderr that says something. */
static void first_error(FILE *ef, char *buf, size_t len)
{
	char line[512];

	buf[0] = 0;
	rewind(ef);
	while (fgets(line, sizeof(line), ef)) {
		char *s = line + strspn(line, " \t\r\n^");

		s[strcspn(s, "\r\n")] = 0;
		if (*s) {
			snprintf(buf, len, "%s", s);
			return;
		}
	}
}

static void chart_error(struct rpt_chart *c, const char *fmt, const char *what)
{
	free(c->error);
	if (asprintf(&c->error, fmt, what) < 0)
		c->error = NULL;
}

/* Cut gnuplot's output at the markers and embed each chart's SVG. */
static unsigned split_output(struct rpt_chart **c, unsigned n, const char *out,
			     size_t len, const char *why)
{
	const char *end = out + len;
	unsigned failed = 0;

	for (unsigned i = 0; i < n; i++) {
		char mark[48], prefix[24];
		const char *p, *q;

		if (c[i]->error)
			continue;
		snprintf(mark, sizeof(mark), "<!--cgs-chart %u-->", i);
		p = find(out, end, mark);
		if (p) {
			p += strlen(mark);
			q = find(p, end, "<!--cgs-chart ");
			snprintf(prefix, sizeof(prefix), "c%u-", c[i]->id);
			c[i]->svg = rpt_svg_embed(p, (size_t)((q ? q : end) - p), prefix);
		}
		if (c[i]->svg) {
			c[i]->svg = retitle(c[i]->svg, c[i]->title);
			continue;
		}
		chart_error(c[i], "gnuplot drew nothing: %s", why);
		failed++;
	}
	return failed;
}

static int write_script(FILE *sf, struct rpt_chart **c, unsigned n)
{
	unsigned todo = 0;

	fprintf(sf, "set encoding utf8\nset terminal svg\nset output\nset print '-'\n");
	for (unsigned i = 0; i < n; i++) {
		bool data = false;

		for (unsigned k = 0; k < c[i]->nseries; k++)
			data |= has_data(&c[i]->series[k]);
		if (!data) {
			chart_error(c[i], "%s", "no data to draw");
			continue;
		}
		fprintf(sf, "print '<!--cgs-chart %u-->'\n", i);
		rpt_gp_script(sf, c[i]);
		todo++;
	}
	fprintf(sf, "print '<!--cgs-chart end-->'\n");
	if (fflush(sf) || ferror(sf))
		return -EIO;
	rewind(sf);
	return (int)todo;
}

int rpt_plot_all(struct rpt_chart **c, unsigned n, const char *gnuplot,
		 char *err, size_t errlen)
{
	FILE *sf = tmpfile(), *ef = tmpfile();
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)gnuplot, "-d", NULL };
	char *out = NULL, why[512];
	int pfd[2] = { -1, -1 }, rc, status = 0, todo;
	size_t outlen = 0;
	unsigned failed;
	pid_t pid;

	err[0] = 0;
	if (!sf || !ef) {
		rc = -errno;
		snprintf(err, errlen, "cannot make a temporary file for gnuplot: %s",
			 strerror(-rc));
		goto out;
	}
	todo = write_script(sf, c, n);
	if (todo <= 0) {
		rc = todo;
		if (rc)
			snprintf(err, errlen, "cannot write the gnuplot script");
		goto out;
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		rc = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(-rc));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fileno(sf), 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(ef), 2);
	rc = posix_spawnp(&pid, gnuplot, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	pfd[1] = -1;
	if (rc) {
		snprintf(err, errlen, "cannot run %s: %s", gnuplot, strerror(rc));
		for (unsigned i = 0; i < n; i++)
			if (!c[i]->error)
				chart_error(c[i], "%s", err);
		rc = -ENOENT;
		goto out;
	}
	rc = slurp(pfd[0], pid, &out, &outlen, 120 + (unsigned)todo);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	first_error(ef, why, sizeof(why));
	if (rc == -ETIMEDOUT)
		snprintf(why, sizeof(why), "gnuplot took too long and was stopped");
	else if (!why[0] && WIFSIGNALED(status))
		snprintf(why, sizeof(why), "gnuplot died of signal %d",
			 WTERMSIG(status));
	else if (!why[0])
		snprintf(why, sizeof(why), "gnuplot exited with status %d and said nothing",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	failed = out ? split_output(c, n, out, outlen, why) : n;
	rc = 0;
	if (failed) {
		snprintf(err, errlen, "%u of %d charts were not drawn: %s", failed,
			 todo, why);
		rc = -EIO;
	}
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (sf)
		fclose(sf);
	if (ef)
		fclose(ef);
	free(out);
	return rc;
}
