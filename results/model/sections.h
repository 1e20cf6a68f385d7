/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sections.h - what an observer's section of a point holds, declared as
 * data: the compare metrics it gives (name, unit, which way is better,
 * the dotted path of the number in a point's extra) and the report's view
 * of it (rows of label, path, unit). An observer declares them beside its
 * hooks (runner/observe/observer.h .section); the run writes them into
 * the result file's top-level "sections", and compare and the report read
 * them from the file: so a new observer reaches both without a line in
 * results/, and a file from a newer cgscale brings its own. A file is
 * input: what it declares is checked here before anyone uses it.
 */
#ifndef CGS_RESULTS_SECTIONS_H
#define CGS_RESULTS_SECTIONS_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* One compare metric of a section. */
struct res_metric_decl {
	const char *name;      /* unique among compare's metrics: "psi.some_ns_per_op" */
	const char *unit;      /* "ns/op" */
	const char *desc;      /* one line, as compare --help shows it */
	int dir;               /* +1 higher is better, -1 lower is better */
	const char *cls;       /* "primary", "secondary" or "tail-latency" */
	const char *path;      /* its number in a point's extra: "psi.some.ns_per_op";
				* starts with the section's key */
};

/* One row of the report's view of a section. */
struct res_view_decl {
	const char *label;     /* "some task stalled" */
	const char *path;      /* a number in a point's extra, as above */
	const char *unit;      /* "% of the window" */
};

struct res_section_decl {
	const char *key;       /* the section's key in a point's extra */
	const char *title;     /* the report's caption */
	const struct res_metric_decl *metrics;
	size_t nmetrics;
	const struct res_view_decl *view;
	size_t nview;
};

/* Limits of what a file may declare (longer strings are refused). */
#define RES_DECL_NAME_MAX 64
#define RES_DECL_UNIT_MAX 24
#define RES_DECL_DESC_MAX 200
#define RES_DECL_PATH_MAX 160

/*
 * @d as the JSON a result file holds under "sections"."KEY": {"title",
 * "metrics": [{"name", "unit", "desc", "better": "higher"|"lower",
 * "class", "path"}], "view": [{"label", "path", "unit"}]}. NULL: ENOMEM.
 */
struct json_object *res_section_decl_json(const struct res_section_decl *d);

/*
 * One metric that section @key of a file declares (@m, a member of its
 * "metrics"), checked: a name of [a-z0-9_.-] that starts with a letter,
 * a unit and desc of printable characters, better "higher" or "lower", a
 * known class, and a path of [a-z0-9_.|-] inside the section (it starts
 * with "KEY."); each within its limit. The strings point into @m. 0, or
 * -EINVAL with what is wrong in @why.
 */
int res_metric_decl_parse(struct json_object *m, const char *key,
			  struct res_metric_decl *out, char *why, size_t len);

/* One row of a declared view, checked as above. 0 or -EINVAL. */
int res_view_decl_parse(struct json_object *v, const char *key,
			struct res_view_decl *out, char *why, size_t len);

#endif
