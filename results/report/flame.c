/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flame.c - flame graphs as inline SVG (results/report/flame.h), drawn
 * the way flamegraph.pl draws them: the root at the bottom, each frame as
 * wide as its share of the samples, children sorted by name, warm
 * colours from a hash of the name so a frame keeps its colour from page
 * to page. The report's figure per point and the per-run table.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/folded.h"
#include "lib/irqsite.h"
#include "lib/json.h"
#include "results/compare/profile.h"
#include "results/report/flame.h"

/* The SVG is as wide as the page (width 100%, results/report/html.c's
 * style), so a unit is about a pixel at a page width of FW: the font of
 * FONT units reads at 12 px and more from a page of 1100 px up. The
 * page's script (results/report/flame_js.c) zooms and searches the
 * frames by their data- attributes and labels them again as C does. */
#define FW 1200.0      /* width in SVG units */
#define FONT 13        /* label font size, SVG units */
#define FH 20          /* frame height */
#define CHARW 7.9      /* a character of that monospace font (0.6 em) */
#define MINW 0.1       /* narrower frames are not drawn at all */

struct draw {
	FILE *out;
	const struct cgs_ftnode *root;
	double scale;          /* units per sample */
	unsigned height;
	double maxabs;         /* differential: the largest |change| drawn */
	bool ns;               /* differential in ns/op (merged with weights) */
};

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The change of @n against @b: of its time per op (ns), else of its
 * share of the samples (percentage points). */
static double change(const struct draw *w, const struct cgs_ftnode *n,
		     const struct cgs_ftnode *b, const struct cgs_ftnode *broot)
{
	double now = 100.0 * (double)n->total / (double)w->root->total;
	double was = b && broot->total ? 100.0 * (double)b->total / (double)broot->total : 0;

	if (w->ns)
		return n->ns - (b ? b->ns : 0);
	return now - was;
}

/* Whether the change @d is beyond the sampling error (2 SE) in ns/op;
 * a change of share always counts. */
static bool beyond_noise(const struct draw *w, const struct cgs_ftnode *n,
			 const struct cgs_ftnode *b, double d)
{
	return !w->ns || fabs(d) > 2 * sqrt(n->var + (b ? b->var : 0));
}

static void fill(const struct draw *w, const char *name, bool diff, double d,
		 char *buf, size_t len)
{
	uint32_t h = hash(name);

	if (!diff) {
		snprintf(buf, len, "rgb(%u,%u,%u)", 205 + h % 50, (h >> 8) % 230,
			 (h >> 16) % 55);
		return;
	}
	unsigned k = w->maxabs > 0 ? (unsigned)lround(200 * fmin(1, fabs(d) / w->maxabs)) : 0;

	if (d > 0)
		snprintf(buf, len, "rgb(255,%u,%u)", 245 - k, 245 - k);
	else if (d < 0)
		snprintf(buf, len, "rgb(%u,%u,255)", 245 - k, 245 - k);
	else
		snprintf(buf, len, "rgb(236,236,230)");
}

/* The label that fits in @width units: the name, cut with "..", or "". */
static void label(const char *name, const char *suffix, double width,
		  char *buf, size_t len)
{
	size_t fit = (size_t)((width - 6) / CHARW), n = strlen(name), s = strlen(suffix);

	buf[0] = 0;
	if (fit < 4)
		return;
	if (n + s <= fit)
		snprintf(buf, len, "%s%s", name, suffix);
	else if (fit > s + 3)
		snprintf(buf, len, "%.*s..%s", (int)(fit - s - 2), name, suffix);
	else
		snprintf(buf, len, "%.*s..", (int)(fit - 2), name);
}

/* The hover title of frame @n: its samples and share, and against the
 * base its change (@d) in ns/op or in pp. */
static void title(const struct draw *w, const struct cgs_ftnode *n,
		  const struct cgs_ftnode *b, bool diff, double d)
{
	double pct = 100.0 * (double)n->total / (double)w->root->total;

	fprintf(w->out, "<title>");
	rpt_html_puts(w->out, n->name);
	fprintf(w->out, " (%llu samples, %.2f%%", (unsigned long long)n->total, pct);
	if (diff && w->ns)
		fprintf(w->out, ", %.1f ns/op; base %.1f ns/op, %+.1f +-%.1f ns/op%s", n->ns,
			b ? b->ns : 0, d, sqrt(n->var + (b ? b->var : 0)),
			beyond_noise(w, n, b, d) ? "" : ", within the sampling error");
	else if (diff)
		fprintf(w->out, "; base %.2f%%, %+.2f pp", pct - d, d);
	fprintf(w->out, ")</title>");
}

static void frame(const struct draw *w, const struct cgs_ftnode *n,
		  const struct cgs_ftnode *b, const struct cgs_ftnode *broot,
		  double x, unsigned depth)
{
	double wd = (double)n->total * w->scale, y = w->height - (depth + 1.0) * FH, d = 0;
	char col[32], lab[256], suf[32] = "";
	bool show = false;

	if (wd < MINW)
		return;
	if (broot) {
		d = change(w, n, b, broot);
		show = beyond_noise(w, n, b, d);
		if (show && fabs(d) >= (w->ns ? 0.5 : 0.05))
			snprintf(suf, sizeof(suf), w->ns ? " %+.0f ns" : " %+.1f", d);
	}
	fill(w, n->name, broot != NULL, show ? d : 0, col, sizeof(col));
	fprintf(w->out, "<g class=\"f\" data-d=\"%u\" data-s=\"%s\" data-dn=\"%.3f\">", depth,
		suf, w->ns ? d : 0);
	title(w, n, b, broot != NULL, d);
	fprintf(w->out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s/>",
		x, y, wd, FH - 1, col,
		broot && show && d < 0 ? " stroke=\"#333\" stroke-dasharray=\"2,2\" stroke-width=\"0.6\"" :
		broot && show && d > 0 ? " stroke=\"#333\" stroke-width=\"0.6\"" : "");
	label(n->name, suf, wd, lab, sizeof(lab));
	fprintf(w->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FH - 6);
	rpt_html_puts(w->out, lab);
	fprintf(w->out, "</text></g>\n");
	for (size_t i = 0; i < n->nkid; i++) {
		const struct cgs_ftnode *k = &n->kid[i];

		frame(w, k, broot ? cgs_ftree_child(b, k->name) : NULL, broot, x, depth + 1);
		x += (double)k->total * w->scale;
	}
}

/* The largest |change| beyond the noise of any drawn frame, for the
 * colour scale. */
static void max_change(struct draw *w, const struct cgs_ftnode *n,
		       const struct cgs_ftnode *b, const struct cgs_ftnode *broot)
{
	for (size_t i = 0; i < n->nkid; i++) {
		const struct cgs_ftnode *k = &n->kid[i], *bk = cgs_ftree_child(b, k->name);
		double d;

		if ((double)k->total * w->scale < MINW)
			continue;
		d = change(w, k, bk, broot);
		if (beyond_noise(w, k, bk, d))
			w->maxabs = fmax(w->maxabs, fabs(d));
		max_change(w, k, bk, broot);
	}
}

void rpt_flame_svg(FILE *out, const struct cgs_ftnode *root,
		   const struct cgs_ftnode *base)
{
	struct draw w = { out, root, root->total ? FW / (double)root->total : 0, 0, 0,
			  base && root->ns > 0 && base->ns > 0 };
	double x = 0;

	w.height = (cgs_ftree_depth(root) + 1) * FH + 4;
	if (base)
		max_change(&w, root, base, base);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart flame\" role=\"img\" "
		"viewBox=\"0 0 %.0f %u\" width=\"100%%\" font-family=\"monospace\" "
		"font-size=\"%d\" data-fh=\"%d\" data-cw=\"%.1f\" data-unit=\"%s\">\n", FW, w.height,
		FONT, FH, CHARW, w.ns ? "ns" : "");
	fprintf(out, "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%.0f\" height=\"%u\" fill=\"#fdfdf8\"/>\n",
		FW, w.height);
	for (size_t i = 0; i < root->nkid; i++) {
		const struct cgs_ftnode *k = &root->kid[i];

		frame(&w, k, base ? cgs_ftree_child(base, k->name) : NULL, base, x, 0);
		x += (double)k->total * w.scale;
	}
	fprintf(out, "</svg>\n");
}

int rpt_flame_add(struct cgs_ftnode *root, struct json_object *prof)
{
	struct cgs_stacks st = { 0 };
	int rc = cmp_profile_folded(prof, &st);

	for (size_t i = 0; !rc && i < st.n; i++)
		rc = cgs_ftree_add(root, st.v[i].stack, st.v[i].count);
	cgs_stacks_free(&st);
	return rc;
}

void rpt_flame_group(struct rpt_doc *d, const struct rpt_group *g)
{
	struct cgs_ftnode root = { 0 };
	struct json_object *first = NULL;
	unsigned runs = 0;
	char cap[512];

	for (unsigned r = 0; r < g->nrun; r++) {
		struct json_object *prof = cgs_jget(g->run[r].p->extra, "profile");

		if (!prof || !rpt_ok(g->run[r].p))
			continue;
		if (!first)
			first = prof;
		runs++;
		if (rpt_flame_add(&root, prof))
			d->err = d->err ? d->err : -ENOMEM;
	}
	if (!runs)
		return;
	snprintf(cap, sizeof(cap), "Flame graph of %s, %s, %u task%s: %s at %d Hz, %llu samples of %u run%s (hover a frame for its samples and %%, click to zoom)",
		 g->test, g->mode, g->tasks, g->tasks == 1 ? "" : "s",
		 json_object_get_string(cgs_jget(first, "event")),
		 json_object_get_int(cgs_jget(first, "rate_hz")),
		 (unsigned long long)root.total, runs, runs == 1 ? "" : "s");
	if (root.total)
		rpt_flame_script(d);
	fprintf(d->out, "<figure class=\"fig wide flame\">\n<figcaption>");
	rpt_html_puts(d->out, cap);
	fprintf(d->out, "</figcaption>\n");
	if (root.total)
		rpt_flame_svg(d->out, &root, NULL);
	else
		fprintf(d->out, "<p class=\"nochart\">No samples were received.</p>\n");
	fprintf(d->out, "</figure>\n");
	cgs_ftree_free(&root);
}

void rpt_profile_section(FILE *out, struct json_object *prof, const char *caption)
{
	static const char *const head[] = { "symbol", "mode", "self %", "children %" };
	struct json_object *s = cgs_jget(prof, "samples"), *syms = cmp_profile_array(prof, "symbols");
	double recv = json_object_get_double(cgs_jget(s, "received"));
	const char *what[] = { "note", "failure" };

	fprintf(out, "<p>");
	rpt_html_printf(out, "%s at %d Hz (%s): %lld samples taken, %lld lost, %lld throttled; kernel %lld, user %lld.",
			json_object_get_string(cgs_jget(prof, "event")),
			json_object_get_int(cgs_jget(prof, "rate_hz")),
			json_object_get_string(cgs_jget(prof, "counting")),
			(long long)json_object_get_int64(cgs_jget(s, "taken")),
			(long long)json_object_get_int64(cgs_jget(s, "lost")),
			(long long)json_object_get_int64(cgs_jget(s, "throttled")),
			(long long)json_object_get_int64(cgs_jget(s, "kernel")),
			(long long)json_object_get_int64(cgs_jget(s, "user")));
	fprintf(out, "</p>\n");
	for (size_t k = 0; k < 2; k++)
		if (cgs_jget(prof, what[k])) {
			fprintf(out, "<p class=\"warn\">");
			rpt_html_puts(out, json_object_get_string(cgs_jget(prof, what[k])));
			fprintf(out, "</p>\n");
		}
	{   /* a skewed clock-event profile (lib/irqsite.h) */
		struct json_object *sk = cgs_jget(prof, "skew");
		char w[1024];

		if (!cgs_skew_warning(&sk, 1, w, sizeof(w))) {
			fprintf(out, "<p class=\"warn\">");
			rpt_html_puts(out, w);
			fprintf(out, "</p>\n");
		}
	}
	rpt_table_head(out, head, 4);
	for (size_t i = 0; syms && recv > 0 && i < json_object_array_length(syms) && i < 25; i++) {
		struct json_object *e = json_object_array_get_idx(syms, i);

		fprintf(out, "<tr>");
		rpt_td(out, json_object_get_string(cgs_jget(e, "name")));
		rpt_td(out, json_object_get_boolean(cgs_jget(e, "kernel")) ? "kernel" : "user");
		rpt_td_num(out, 100 * json_object_get_double(cgs_jget(e, "self")) / recv, 2);
		rpt_td_num(out, 100 * json_object_get_double(cgs_jget(e, "children")) / recv, 2);
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n");
	(void)caption;
}
