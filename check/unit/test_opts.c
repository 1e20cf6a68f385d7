/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_opts.c - the option-table engine (values, ranges, parsing, help,
 * echo) and the start-up check of the workload registry.
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

#include "../../lib/opt.h"
#include "../../runner/run.h"
#include "../../tests/workload.h"

struct o {
	int64_t n, d, sz;
	int e;
	bool b;
	char *s;
	struct cgs_strlist l;
};

static const char *const colours[] = { "red", "green", NULL };
static const struct cgs_opt table[] = {
	{ "num", 'n', CGS_OPT_INT, offsetof(struct o, n), "3", 1, 10, NULL, NULL, "a number" },
	{ "dur", 'd', CGS_OPT_DURATION, offsetof(struct o, d), "2s", 1000000, 3600000000000LL,
	  NULL, NULL, "a duration" },
	{ "size", 0, CGS_OPT_SIZE, offsetof(struct o, sz), "10K", 1, 1LL << 40, NULL, NULL, "a size" },
	{ "colour", 0, CGS_OPT_ENUM, offsetof(struct o, e), "green", 0, 0, colours, NULL, "a colour" },
	{ "flag", 0, CGS_OPT_BOOL, offsetof(struct o, b), NULL, 0, 0, NULL, NULL, "a flag" },
	{ "str", 's', CGS_OPT_STRING, offsetof(struct o, s), NULL, 0, 0, NULL, NULL, "a string" },
	{ "set", 0, CGS_OPT_STRLIST, offsetof(struct o, l), NULL, 0, 0, NULL, NULL, "repeatable" },
};
#define NT (sizeof(table) / sizeof(table[0]))

static void t_values(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(cgs_parse_duration("5", &v), 0);
	assert_int_equal(v, 5000000000LL);
	assert_int_equal(cgs_parse_duration("1.5s", &v), 0);
	assert_int_equal(v, 1500000000LL);
	assert_int_equal(cgs_parse_duration("500ms", &v), 0);
	assert_int_equal(v, 500000000LL);
	assert_int_equal(cgs_parse_duration("10us", &v), 0);
	assert_int_equal(v, 10000);
	assert_int_equal(cgs_parse_duration("2m", &v), 0);
	assert_int_equal(v, 120000000000LL);
	const char *bad_d[] = { "", "-1", "s", "1x", "1 s", "nan", "inf", "0x10", "1e3" };
	for (size_t i = 0; i < sizeof(bad_d) / sizeof(bad_d[0]); i++)
		assert_int_equal(cgs_parse_duration(bad_d[i], &v), -EINVAL);
	assert_int_equal(cgs_parse_size("10K", &v), 0);
	assert_int_equal(v, 10240);
	assert_int_equal(cgs_parse_size("10k", &v), 0);
	assert_int_equal(v, 10000);
	assert_int_equal(cgs_parse_size("128M", &v), 0);
	assert_int_equal(v, 128LL << 20);
	assert_int_equal(cgs_parse_size("1G", &v), 0);
	assert_int_equal(v, 1LL << 30);
	assert_int_equal(cgs_parse_size("0.5K", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(cgs_parse_size("0.1", &v), -EINVAL);   /* not whole */
	assert_int_equal(cgs_parse_size("5X", &v), -EINVAL);
}

static void t_parse(void **state)
{
	struct o o = { 0 };
	struct cgs_optset set = { "t", table, NT, &o };
	char *argv[] = { "run", "-n", "7", "--dur=250ms", "page_fault1", "--colour", "red",
			 "--flag", "--set", "a", "--set", "b", "-s", "x", "--size", "1M", NULL };
	char err[256];
	int first = 0;

	(void)state;
	assert_int_equal(cgs_opt_defaults(&set, err, sizeof(err)), 0);
	assert_int_equal(o.n, 3);
	assert_int_equal(o.d, 2000000000LL);
	assert_int_equal(o.sz, 10240);
	assert_int_equal(o.e, 1);
	assert_int_equal(cgs_opt_parse(&set, 1, 16, argv, &first, err, sizeof(err)), 0);
	assert_int_equal(o.n, 7);
	assert_int_equal(o.d, 250000000LL);
	assert_int_equal(o.e, 0);
	assert_true(o.b);
	assert_int_equal(o.l.n, 2);
	assert_string_equal(o.l.v[1], "b");
	assert_string_equal(o.s, "x");
	assert_int_equal(o.sz, 1 << 20);
	assert_int_equal(first, 15);                   /* positionals moved last */
	assert_string_equal(argv[first], "page_fault1");

	struct json_object *e = cgs_opt_echo(&set);
	assert_string_equal(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN),
			    "{\"num\":7,\"dur\":0.25,\"size\":1048576,\"colour\":\"red\","
			    "\"flag\":true,\"str\":\"x\",\"set\":[\"a\",\"b\"]}");
	json_object_put(e);
	cgs_opt_free(&set);
	assert_null(o.s);
}

static void expect_refused(char **argv, int argc, const char *needle)
{
	struct o o = { 0 };
	struct cgs_optset set = { "t", table, NT, &o };
	char err[256] = "";
	int first;

	assert_int_equal(cgs_opt_defaults(&set, err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_parse(&set, 1, argc, argv, &first, err, sizeof(err)), -EINVAL);
	if (!strstr(err, needle))
		fail_msg("'%s' does not mention '%s'", err, needle);
	cgs_opt_free(&set);
}

static void t_refused(void **state)
{
	char *a1[] = { "run", "-n", "11", NULL };
	char *a2[] = { "run", "--dur", "0", NULL };
	char *a3[] = { "run", "--colour", "blue", NULL };
	char *a4[] = { "run", "--bogus", NULL };
	char *a5[] = { "run", "--num", NULL };
	char *a6[] = { "run", "-n", "x", NULL };
	char *a7[] = { "run", "--dur", "-5s", NULL };

	(void)state;
	expect_refused(a1, 3, "out of range");
	expect_refused(a2, 3, "out of range");
	expect_refused(a3, 3, "red|green");
	expect_refused(a4, 2, "unknown option '--bogus'");
	expect_refused(a5, 2, "needs a value");
	expect_refused(a6, 3, "whole number");
	expect_refused(a7, 3, "duration");
}

static void t_help(void **state)
{
	struct o o = { 0 };
	struct cgs_optset set = { "things", table, NT, &o };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	cgs_opt_help(&set, f);
	fclose(f);
	assert_non_null(strstr(buf, "-n, --num N"));
	assert_non_null(strstr(buf, "(default 2s)"));
	assert_non_null(strstr(buf, "[red|green]"));
	free(buf);
}

static void t_tables(void **state)
{
	char err[256] = "";
	struct cgs_opt dup[2];

	(void)state;
	/* every registered workload and the run table pass the check */
	assert_int_equal(cgs_run_check_registry(err, sizeof(err)), 0);
	assert_true(cgs_nworkloads >= 4);
	assert_string_equal(cgs_workloads[0]->name, "page_fault1");
	assert_ptr_equal(cgs_workload_find("fallocate2"), cgs_workloads[3]);
	assert_null(cgs_workload_find("nope"));
	assert_int_equal(cgs_opt_check_table(table, NT, "t", err, sizeof(err)), 0);
	memcpy(dup, table, sizeof(dup));
	dup[1].name = "num";
	assert_int_equal(cgs_opt_check_table(dup, 2, "t", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "twice"));
}

static int noop_loop(struct cgs_task *t)
{
	(void)t;
	return 0;
}

static void t_bad_workloads(void **state)
{
	char err[256];
	const struct cgs_aux aux = { "x", NULL, 1 };
	struct cgs_workload ok = { .name = "ok1", .desc = "d", .unit = "u", .loop = noop_loop };
	struct cgs_workload w;

	(void)state;
	assert_int_equal(cgs_workload_check(&ok, err, sizeof(err)), 0);
	w = ok; w.loop = NULL;
	assert_int_equal(cgs_workload_check(&w, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "loop"));
	w = ok; w.unit = "";
	assert_int_equal(cgs_workload_check(&w, err, sizeof(err)), -EINVAL);
	w = ok; w.name = "Bad Name";
	assert_int_equal(cgs_workload_check(&w, err, sizeof(err)), -EINVAL);
	w = ok; w.aux = &aux; w.naux = 1;    /* no rate unit */
	assert_int_equal(cgs_workload_check(&w, err, sizeof(err)), -EINVAL);
	w = ok; w.opts = table; w.nopts = NT; w.opts_size = 0;
	assert_int_equal(cgs_workload_check(&w, err, sizeof(err)), -EINVAL);
}

/* CGS_OPT_OPTSTR: absent NULL, bare "", with =VALUE the value; a
 * separate word is not its value (getopt's optional_argument). */
struct oo {
	char *rate;
	bool q;
};

static const struct cgs_opt otable[] = {
	{ "rate", 0, CGS_OPT_OPTSTR, offsetof(struct oo, rate), NULL, 0, 0, NULL, "HZ", "optional value" },
	{ "q", 'q', CGS_OPT_BOOL, offsetof(struct oo, q), NULL, 0, 0, NULL, NULL, "a flag" },
};

static void parse_o(struct oo *v, int argc, char **argv, int *first)
{
	struct cgs_optset set = { "t", otable, 2, v };
	char err[256];

	memset(v, 0, sizeof(*v));
	assert_int_equal(cgs_opt_defaults(&set, err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_parse(&set, 1, argc, argv, first, err, sizeof(err)), 0);
}

static void t_optional_value(void **state)
{
	char *a1[] = { "x", "-q", "pos", NULL }, *a2[] = { "x", "--rate", "pos", NULL };
	char *a3[] = { "x", "--rate=499", "pos", NULL };
	struct cgs_optset set = { "t", otable, 2, NULL };
	struct oo v;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int first;

	(void)state;
	parse_o(&v, 3, a1, &first);
	assert_null(v.rate);
	parse_o(&v, 3, a2, &first);
	assert_string_equal(v.rate, "");
	assert_int_equal(first, 2);          /* "pos" stays a positional */
	free(v.rate);
	parse_o(&v, 3, a3, &first);
	assert_string_equal(v.rate, "499");
	set.base = &v;
	m = open_memstream(&buf, &len);
	cgs_opt_help(&set, m);
	fclose(m);
	assert_non_null(strstr(buf, "--rate[=HZ]"));
	free(buf);
	cgs_opt_free(&set);
	assert_null(v.rate);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_parse),
		cmocka_unit_test(t_refused),
		cmocka_unit_test(t_help),
		cmocka_unit_test(t_tables),
		cmocka_unit_test(t_bad_workloads),
		cmocka_unit_test(t_optional_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
