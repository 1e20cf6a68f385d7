/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sections.c - an observer's declared section (results/model/
 * sections.h): what res_section_decl_json writes reads back through the
 * checked parsers field for field; what a file may not declare is refused
 * with the field named (a path outside the section, markup in a name, an
 * unknown direction or class, a string too long); and compare takes a
 * file's declared metrics after its own, once per name, never a name it
 * has, and reads them by their path.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "results/compare/model.h"
#include "results/model/sections.h"

static const struct res_metric_decl metrics[] = {
	{ "zz.a_ns_per_op", "ns/op", "a cost", -1, "secondary", "zz.a.ns" },
	{ "zz.b", "ops/s", "a rate", 1, "tail-latency", "zz.b|0" },
};
static const struct res_view_decl view[] = {
	{ "the a cost", "zz.a.ns", "ns/op" },
};
static const struct res_section_decl sec = {
	.key = "zz", .title = "zz things", .metrics = metrics, .nmetrics = 2,
	.view = view, .nview = 1,
};

static void round_trip(void **state)
{
	struct json_object *o = res_section_decl_json(&sec), *ms, *vs;
	struct res_view_decl v;
	char why[160];

	(void)state;
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "metrics", &ms));
	assert_int_equal(json_object_array_length(ms), 2);
	for (size_t i = 0; i < 2; i++) {
		struct res_metric_decl d;

		assert_int_equal(res_metric_decl_parse(json_object_array_get_idx(ms, i), "zz",
						       &d, why, sizeof(why)), 0);
		assert_string_equal(d.name, metrics[i].name);
		assert_string_equal(d.unit, metrics[i].unit);
		assert_string_equal(d.desc, metrics[i].desc);
		assert_string_equal(d.cls, metrics[i].cls);
		assert_string_equal(d.path, metrics[i].path);
		assert_int_equal(d.dir, metrics[i].dir);
	}
	assert_true(json_object_object_get_ex(o, "view", &vs));
	assert_int_equal(res_view_decl_parse(json_object_array_get_idx(vs, 0), "zz", &v,
					     why, sizeof(why)), 0);
	assert_string_equal(v.label, "the a cost");
	assert_string_equal(v.path, "zz.a.ns");
	/* another section's key: the path is outside it */
	assert_int_equal(res_view_decl_parse(json_object_array_get_idx(vs, 0), "z", &v,
					     why, sizeof(why)), -EINVAL);
	json_object_put(o);
}

/* Metric @json of section "zz" is refused, and @what is in the reason. */
static void refused(const char *json, const char *what)
{
	struct json_object *m = json_tokener_parse(json);
	struct res_metric_decl d;
	char why[160] = "";

	assert_non_null(m);
	assert_int_equal(res_metric_decl_parse(m, "zz", &d, why, sizeof(why)), -EINVAL);
	if (!strstr(why, what))
		fail_msg("%s: refused for '%s', not for %s", json, why, what);
	json_object_put(m);
}

#define M(name, better, cls, path) "{\"name\": \"" name "\", \"unit\": \"u\", \"desc\": \"d\"," \
	" \"better\": \"" better "\", \"class\": \"" cls "\", \"path\": \"" path "\"}"

static void bad_input(void **state)
{
	char longname[200];

	(void)state;
	refused(M("zz.x", "lower", "secondary", "summary.ops"), "outside section zz");
	refused(M("zz.x", "lower", "secondary", "zz"), "outside section zz");
	refused(M("zz.x", "lower", "secondary", "zzz.a"), "outside section zz");
	refused(M("zz.<b>", "lower", "secondary", "zz.a"), "name");
	refused(M("Zz.x", "lower", "secondary", "zz.a"), "name");
	refused(M("9z", "lower", "secondary", "zz.a"), "not a letter first");
	refused(M("zz.x", "down", "secondary", "zz.a"), "better");
	refused(M("zz.x", "lower", "tertiary", "zz.a"), "class");
	refused(M("zz.x", "lower", "secondary", "zz.a/b"), "path");
	refused("{\"name\": \"zz.x\"}", "unit");
	refused("[1]", "not an object");
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	{
		char buf[512];

		snprintf(buf, sizeof(buf), M("%s", "lower", "secondary", "zz.a"), longname);
		refused(buf, "too long");
	}
}

/* A file whose sections are @json. */
static void file_with(struct res_file *f, const char *json)
{
	memset(f, 0, sizeof(*f));
	f->sections = json_tokener_parse(json);
	assert_non_null(f->sections);
}

static void compare_takes(void **state)
{
	static struct cmp_mset ms;
	struct res_file f1, f2;
	struct res_point p = { 0 };
	int a, b;

	(void)state;
	file_with(&f1, "{\"zz\": {\"metrics\": [" M("zz.a_ns_per_op", "lower", "secondary", "zz.a.ns")
		  "," M("per_task_ops", "lower", "secondary", "zz.a.ns")
		  "," M("lock_wait.zz", "lower", "secondary", "zz.a.ns") "]}}");
	file_with(&f2, "{\"zz\": {\"metrics\": [" M("zz.a_ns_per_op", "higher", "primary", "zz.b")
		  "," M("zz.c", "higher", "primary", "elsewhere.c") "]}}");
	cmp_mset_init(&ms);
	assert_int_equal(cmp_mset_add(&ms, &f1), 0);
	assert_int_equal(cmp_mset_add(&ms, &f2), 0);
	/* one row for zz.a_ns_per_op, the first file's; none for a name
	 * compare has (per_task_ops, a lock_wait. family) */
	assert_int_equal(ms.ndecl, 1);
	a = cmp_mset_find(&ms, "zz.a_ns_per_op");
	assert_true(a >= 0);
	assert_int_equal(ms.m[a].dir, -1);
	assert_string_equal(ms.m[a].extra_path, "zz.a.ns");
	assert_int_equal(cmp_mset_find(&ms, "zz.c"), -1);
	assert_int_equal(ms.ndecl_refused, 1);
	assert_non_null(strstr(ms.decl_why, "outside section zz"));
	b = cmp_mset_find(&ms, "per_task_ops");
	assert_true(b >= 0 && b < a);
	/* read by its path in a point's extra */
	p.extra = json_tokener_parse("{\"zz\": {\"a\": {\"ns\": 42.5}}}");
	assert_true(cmp_metric_value(&ms.m[a], &p) == 42.5);
	json_object_put(p.extra);
	json_object_put(f1.sections);
	json_object_put(f2.sections);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(compare_takes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
