/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_opts.c - the option-table engine (values, ranges, parsing, help,
 * echo, keywords) and the start-up check of a table's rows; the
 * workload registry's check and optional values are test_opt_values.c's. That a row's field type is checked at compile time is
 * check/integration/06-opt-types.sh's.
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

#include <cmocka.h>
#include <json-c/json.h>

#include "lib/opt.h"
#include "runner/run/run.h"
#include "tests/workload.h"
#include "lib/macros.h"

struct o {
	int64_t n, d, sz;
	int e;
	bool b;
	char *s;
	struct cgs_strlist l;
};

static const char *const colours[] = { "red", "green", NULL };
static const struct cgs_opt table[] = {
	OPT_INT("num", 'n', struct o, n, .def = "3", .min = 1, .max = 10,
		.help = "a number"),
	OPT_DURATION("dur", 'd', struct o, d, .def = "2s", .min = 1000000,
		.max = 3600000000000LL,
		.help = "a duration"),
	OPT_SIZE("size", 0, struct o, sz, .def = "10K", .min = 1,
		.max = 1LL << 40,
		.help = "a size"),
	OPT_ENUM("colour", 0, struct o, e, .def = "green", .choices = colours,
		.help = "a colour"),
	OPT_BOOL("flag", 0, struct o, b, .help = "a flag"),
	OPT_STRING("str", 's', struct o, s, .help = "a string"),
	OPT_STRLIST("set", 0, struct o, l, .help = "repeatable"),
};
#define NT (ARRAY_SIZE(table))

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
	for (size_t i = 0; i < ARRAY_SIZE(bad_d); i++)
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

/* One strict grammar for every number typed (issue 25, 18): what strtoll
 * and strtod take besides plain decimals is refused, and a whole number
 * beyond int64 is not clamped. */
static void t_strict_numbers(void **state)
{
	static const char *const bad_int[] = {
		"", " 5", "5 ", "+5", "-0", "-00", "0x10", "1e3", "5.0", "9223372036854775808",
		"-9223372036854775809", "--5", "5-", "\t5", "five",
	};
	static const char *const bad_num[] = {
		"", " 5", "+5", ".5e2", ".5", "5.", "1e3", "0x10", "-0", "-0.0", "inf",
		"nan", "5..0", "1.2.3", "1,5",
	};
	static const char *const bad_dur[] = { ".5s", "5.s", "+5s", "-0", "1e3ms", " 5s" };
	int64_t v;
	double d;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_int); i++)
		if (cgs_parse_int(bad_int[i], &v) != -EINVAL)
			fail_msg("cgs_parse_int took '%s'", bad_int[i]);
	for (size_t i = 0; i < ARRAY_SIZE(bad_num); i++)
		if (cgs_parse_number(bad_num[i], &d) != -EINVAL)
			fail_msg("cgs_parse_number took '%s'", bad_num[i]);
	for (size_t i = 0; i < ARRAY_SIZE(bad_dur); i++)
		if (cgs_parse_duration(bad_dur[i], &v) != -EINVAL)
			fail_msg("cgs_parse_duration took '%s'", bad_dur[i]);
	assert_int_equal(cgs_parse_int("-5", &v), 0);
	assert_int_equal(v, -5);
	assert_int_equal(cgs_parse_int("007", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(cgs_parse_int("9223372036854775807", &v), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(cgs_parse_number("-2.5", &d), 0);
	assert_true(d == -2.5);
	assert_int_equal(cgs_parse_number("0", &d), 0);
	assert_true(d == 0);
	assert_int_equal(cgs_parse_duration("0.5s", &v), 0);
	assert_int_equal(v, 500000000);
}

/* cgs_opt_parse_given: the first row of each set the command line gave,
 * so that a knob given for a test that is not run can be refused. */
static void t_given(void **state)
{
	struct o a = { 0 }, b = { 0 };
	struct cgs_optset sets[2] = { { "a", table, 2, &a }, { "b", table + 2, 2, &b } };
	const struct cgs_opt *given[2] = { table, table };
	char *argv[] = { "run", "--colour", "red", "--size", "1M", "x", NULL };
	char err[256];
	int first = 0;

	(void)state;
	assert_int_equal(cgs_opt_defaults(&sets[0], err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_defaults(&sets[1], err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_parse_given(sets, 2, 6, argv, &first, given, err,
					     sizeof(err)), 0);
	assert_null(given[0]);                      /* nothing of set a */
	assert_ptr_equal(given[1], &table[3]);      /* --colour came first */
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
	char *a8[] = { "run", "-n", "5", "--num", "6", NULL };   /* once only */
	char *a9[] = { "run", "--str", "x", "-s", "y", NULL };

	(void)state;
	expect_refused(a8, 5, "--num is given twice");
	expect_refused(a9, 5, "--str is given twice");
	expect_refused(a1, 3, "out of range");
	expect_refused(a2, 3, "out of range");
	expect_refused(a3, 3, "red|green");
	expect_refused(a4, 2, "unknown option '--bogus'");
	expect_refused(a5, 2, "needs a value");
	expect_refused(a6, 3, "whole number");
	expect_refused(a7, 3, "duration");
}

/* The NUMBER type: a finite double in a range, default, echo, help. */
static void t_number(void **state)
{
	struct on { double a; };
	static const struct cgs_opt nt[] = {
		OPT_NUMBER("alpha", 'a', struct on, a, .def = "0.05", .dmin = 1e-6,
			   .dmax = 0.5, .metavar = "P", .help = "a level"),
	};
	static const char *const bad[] = { "x", "0.9", "0", "nan", "inf", "0.05x", "1e-3",
					   " 0.1", "+0.1", ".1", "0.1 ", "0x0.1p0", "" };
	double a = -1;
	struct cgs_optset set = { "n", nt, ARRAY_SIZE(nt), &a };
	char *argv[] = { "compare", "-a", "0.001", NULL };
	char err[256] = "";
	int first = 0;

	(void)state;
	assert_int_equal(cgs_opt_check_table(nt, ARRAY_SIZE(nt), "n", err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_defaults(&set, err, sizeof(err)), 0);
	assert_true(a == 0.05);
	assert_int_equal(cgs_opt_parse(&set, 1, 3, argv, &first, err, sizeof(err)), 0);
	assert_true(a == 1e-3);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(cgs_opt_set(&nt[0], &a, bad[i], err, sizeof(err)), -EINVAL);
		assert_true(a == 1e-3);
	}
	/* the option, the value and the fix */
	assert_string_equal(err, "--alpha: '' is not a number from 1e-06 to 0.5; give a plain decimal such as 0.05");
	struct json_object *e = cgs_opt_echo(&set);
	assert_string_equal(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN),
			    "{\"alpha\":0.001}");
	json_object_put(e);

	struct cgs_opt rev = nt[0];

	rev.dmin = 1;
	assert_int_equal(cgs_opt_check_table(&rev, 1, "n", err, sizeof(err)), -EINVAL);
}

/* CGS_OPT_INT_OR: a whole number in a range or a keyword, parsed once,
 * echoed as text; refusals name the keywords. */
struct ok {
	int64_t runs, cpu;
	double t;
};
static const struct cgs_opt_key auto_key[] = { { "auto", -1 }, { NULL, 0 } };
static const struct cgs_opt_key cpu_keys[] = {
	{ "auto", -1 }, { "none", -2 }, { NULL, 0 },
};
static const struct cgs_opt ktable[] = {
	OPT_INT_OR("runs", 'r', struct ok, runs, .def = "1", .min = 1, .max = 1000,
		   .keys = auto_key, .metavar = "N|auto", .help = "a count or auto"),
	OPT_INT_OR("cpu", 0, struct ok, cpu, .def = "auto", .min = 0, .max = 64,
		   .keys = cpu_keys, .metavar = "CPU", .help = "a CPU, auto or none"),
	OPT_NUMBER("t", 'T', struct ok, t, .def = "2", .dmin = 0, .dmax = INFINITY,
		   .echo_text = true, .help = "a number echoed as text"),
};

static char *echo_of(struct ok *v)
{
	struct cgs_optset set = { "k", ktable, ARRAY_SIZE(ktable), v };
	struct json_object *e = cgs_opt_echo(&set);
	char *s = strdup(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));

	json_object_put(e);
	return s;
}

static void t_int_or(void **state)
{
	struct ok v = { 0 };
	struct cgs_optset set = { "k", ktable, ARRAY_SIZE(ktable), &v };
	char *argv[] = { "run", "-r", "auto", "--cpu", "none", "-T", "0.25", NULL };
	char err[256] = "", *s;
	int first = 0;

	(void)state;
	assert_int_equal(cgs_opt_check_table(ktable, ARRAY_SIZE(ktable), "k", err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_defaults(&set, err, sizeof(err)), 0);
	assert_int_equal(v.runs, 1);
	assert_int_equal(v.cpu, -1);
	s = echo_of(&v);
	assert_string_equal(s, "{\"runs\":\"1\",\"cpu\":\"auto\",\"t\":\"2\"}");
	free(s);
	assert_int_equal(cgs_opt_parse(&set, 1, 7, argv, &first, err, sizeof(err)), 0);
	assert_int_equal(v.runs, -1);
	assert_int_equal(v.cpu, -2);
	s = echo_of(&v);
	assert_string_equal(s, "{\"runs\":\"auto\",\"cpu\":\"none\",\"t\":\"0.25\"}");
	free(s);
	assert_int_equal(cgs_opt_set(&ktable[0], &v, "1000", err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_set(&ktable[1], &v, "0", err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_set(&ktable[2], &v, "5000", err, sizeof(err)), 0);
	s = echo_of(&v);
	assert_string_equal(s, "{\"runs\":\"1000\",\"cpu\":\"0\",\"t\":\"5000\"}");
	free(s);
	/* refused, the field unchanged, one line naming option and keywords */
	assert_int_equal(cgs_opt_set(&ktable[0], &v, "0", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--runs: '0' is out of range; give a value from 1 to 1000 or auto");
	assert_int_equal(cgs_opt_set(&ktable[0], &v, "many", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--runs: 'many' is not a whole number such as 4 or auto");
	assert_int_equal(cgs_opt_set(&ktable[1], &v, "65", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--cpu: '65' is out of range; give a value from 0 to 64, auto or none");
	assert_int_equal(cgs_opt_set(&ktable[1], &v, "Auto", err, sizeof(err)), -EINVAL);
	assert_int_equal(cgs_opt_set(&ktable[1], &v, "", err, sizeof(err)), -EINVAL);
	assert_int_equal(cgs_opt_set(&ktable[2], &v, "-1", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--t: '-1' is not a number of at least 0; give a plain decimal such as 2");
	assert_int_equal(cgs_opt_set(&ktable[2], &v, "inf", err, sizeof(err)), -EINVAL);
	/* a row's own words for a refused value (.bad), else the engine's */
	{
		static const struct cgs_opt worded[] = {
			OPT_INT_OR("runs", 'r', struct ok, runs, .def = "1", .min = 1,
				   .max = 1000, .keys = ktable[0].keys,
				   .bad = ": give a count from 1 to 1000, or auto",
				   .help = "runs"),
		};

		assert_int_equal(cgs_opt_set(&worded[0], &v, "0", err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "--runs '0': give a count from 1 to 1000, or auto");
		assert_int_equal(cgs_opt_set(&worded[0], &v, "x", err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "--runs 'x': give a count from 1 to 1000, or auto");
		assert_int_equal(cgs_opt_set(&worded[0], &v, "auto", err, sizeof(err)), 0);
		assert_int_equal(v.runs, -1);
		v.runs = 1000;
	}
	assert_int_equal(v.runs, 1000);
	assert_int_equal(v.cpu, 0);
	assert_true(v.t == 5000);
}

/* The start-up check refuses what the compiler cannot see in a row. */
static void expect_bad_row(struct cgs_opt row, const char *needle)
{
	char err[256] = "";

	assert_int_equal(cgs_opt_check_table(&row, 1, "t", err, sizeof(err)), -EINVAL);
	if (!strstr(err, needle))
		fail_msg("'%s' does not mention '%s'", err, needle);
}

static void t_check_rows(void **state)
{
	struct cgs_opt r;

	(void)state;
	r = ktable[0], r.help = NULL;
	expect_bad_row(r, "lacks a name or help");
	r = ktable[0], r.min = 2000;
	expect_bad_row(r, "min > max");
	r = ktable[0], r.keys = cpu_keys, r.min = -5;      /* auto = -1 inside */
	expect_bad_row(r, "keyword auto is a value of the range");
	r = ktable[0], r.keys = NULL;
	expect_bad_row(r, "has no choices");
	r = ktable[0], r.def = "0";
	expect_bad_row(r, "the default of --runs: '0' is out of range");
	r = ktable[2], r.min = 1;                           /* .min, not .dmin */
	expect_bad_row(r, ".min and .max are for");
	r = table[0], r.dmax = 1;
	expect_bad_row(r, ".dmin, .dmax and .echo_text are for NUMBER rows only");
	r = table[5], r.choices = colours;                   /* a STRING */
	expect_bad_row(r, ".choices is for ENUM rows only");
	r = table[0], r.keys = auto_key;
	expect_bad_row(r, ".keys is for INT_OR rows only");
	r = table[3], r.def = "blue";
	expect_bad_row(r, "'blue' is not one of red|green");
	r = table[0], r.type = (enum cgs_opt_type)99;
	expect_bad_row(r, "unknown type");
	r = table[6], r.help = "a list";                     /* the STRLIST */
	expect_bad_row(r, "--set is repeatable, and its help does not say so");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_strict_numbers),
		cmocka_unit_test(t_given),
		cmocka_unit_test(t_parse),
		cmocka_unit_test(t_refused),
		cmocka_unit_test(t_help),
		cmocka_unit_test(t_number),
		cmocka_unit_test(t_int_or),
		cmocka_unit_test(t_check_rows),
		cmocka_unit_test(t_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
