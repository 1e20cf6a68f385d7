/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_opt_values.c - the start-up check of workload records (a record
 * that lacks what it needs is refused, naming it), and options whose
 * value is optional (--opt, --opt=VALUE, never --opt VALUE). The engine
 * itself is test_opts.c's.
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

/* CGS_OPT_OPTSTR: absent NULL, bare "", with =VALUE the value; a
 * separate word is not its value (getopt's optional_argument). */
struct oo {
	char *rate;
	bool q;
};

static const struct cgs_opt otable[] = {
	OPT_OPTSTR("rate", 0, struct oo, rate, .metavar = "HZ",
		.help = "optional value"),
	OPT_BOOL("q", 'q', struct oo, q, .help = "a flag"),
};

static void parse_o(struct oo *v, int argc, char **argv, int *first)
{
	struct cgs_optset set = { "t", otable, ARRAY_SIZE(otable), v };
	char err[256];

	memset(v, 0, sizeof(*v));
	assert_int_equal(cgs_opt_defaults(&set, err, sizeof(err)), 0);
	assert_int_equal(cgs_opt_parse(&set, 1, argc, argv, first, err, sizeof(err)), 0);
}

static void t_optional_value(void **state)
{
	char *a1[] = { "x", "-q", "pos", NULL }, *a2[] = { "x", "--rate", "pos", NULL };
	char *a3[] = { "x", "--rate=499", "pos", NULL };
	struct cgs_optset set = { "t", otable, ARRAY_SIZE(otable), NULL };
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
	{	/* "--rate=" is neither the default nor a value */
		struct oo w = { 0 };
		struct cgs_optset ws = { "t", otable, ARRAY_SIZE(otable), &w };
		char *a4[] = { "x", "--rate=", NULL }, err[256] = "";

		assert_int_equal(cgs_opt_parse(&ws, 1, 2, a4, &first, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "--rate=: an empty value"));
		cgs_opt_free(&ws);
	}
	set.base = &v;
	m = open_memstream(&buf, &len);
	cgs_opt_help(&set, m);
	fclose(m);
	assert_non_null(strstr(buf, "--rate[=HZ]"));
	free(buf);
	cgs_opt_free(&set);
	assert_null(v.rate);
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
	w = ok; w.opts = otable; w.nopts = ARRAY_SIZE(otable); w.opts_size = 0;
	assert_int_equal(cgs_workload_check(&w, err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_bad_workloads),
		cmocka_unit_test(t_optional_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
