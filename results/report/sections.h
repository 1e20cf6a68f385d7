/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sections.h - the report's sections of a point: the table of the
 * sections it draws with a function of its own (sections.c), the writers
 * of those, and the view an observer declared in the result file
 * (declared.c). The rest of the page is document.h's.
 */
#ifndef CGS_REPORT_SECTIONS_H
#define CGS_REPORT_SECTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

/*
 * The sections a point's extra may hold (results/report/sections.c): one
 * row per key, with the title its caption starts with and the function
 * that writes it (each in its own file below). A key with no row is
 * titled by itself and drawn by rpt_json_tables().
 */
struct rpt_section {
	const char *key;       /* the member of the point's extra */
	const char *title;     /* its caption's title; NULL: the key */
	void (*write)(FILE *out, struct json_object *v, const char *caption);
	bool folded;           /* internals: folded even in the first run */
};
extern const struct rpt_section rpt_sections[];
extern const size_t rpt_nsections;

/* @key's row of the @n rows @tab, or the default row for a key with none. */
const struct rpt_section *rpt_section_find(const struct rpt_section *tab,
					   size_t n, const char *key);

/* Each member of @extra (one run's, labelled @label) in its own
 * <details>, @open (unless its row is folded) or folded, captioned
 * "title, label", drawn by its row of @tab; a member with no row that
 * the file's @decls ("sections", results/model/sections.h; may be NULL)
 * declares a view for is drawn as that view (results/report/declared.c). */
void rpt_sections_write(FILE *out, struct json_object *extra, const char *label,
			bool open, const struct rpt_section *tab, size_t n,
			struct json_object *decls);

/* The title that @decls (a file's "sections") gives section @key when
 * it declares a view of it; NULL: none. */
const char *rpt_declared_title(struct json_object *decls, const char *key);
/* Section @key of @extra as the view @decls declares: a table of each
 * row's label, value and unit (a row that is not valid input is left
 * out), then the whole section as generic tables. */
void rpt_declared_view(FILE *out, struct json_object *extra, const char *key,
		       struct json_object *decls, const char *caption);

/* A point's "disturbed" section (results/report/disturbed.c;
 * results/model/disturb.h): its reasons, or that it is clean. */
void rpt_disturbed_section(FILE *out, struct json_object *v, const char *caption);

/* A point's "perf" section as a summary table (results/report/perf.c); another
 * shape falls back to rpt_json_tables(). */
void rpt_perf_section(FILE *out, struct json_object *perf, const char *caption);

/* A point's "vmstat" section: the notable counters that changed, with
 * their rates (results/report/vmstat.c); another shape: rpt_json_tables(). */
void rpt_vmstat_section(FILE *out, struct json_object *vm, const char *caption);
/* Is /proc/vmstat key @k one the report shows? */
bool rpt_vmstat_notable(const char *k);

/* A point's "cgroup" section: layout, warnings, tree, knobs, events,
 * memory.stat (results/report/cgroup.c); another shape: rpt_json_tables(). */
void rpt_cgroup_section(FILE *out, struct json_object *cg, const char *caption);

#endif
