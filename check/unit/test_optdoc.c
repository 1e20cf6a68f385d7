/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_optdoc.c - an option table rendered as a man page section (roff
 * escapes, placeholders, choices, defaults) and as bash completion arms,
 * and the generator's handling of a page template.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/macros.h"
#include "lib/optdoc.h"
#include "runner/cmd/gendoc.h"

struct o {
	int64_t n;
	int e;
	bool b;
	char *s, *prof;
	int64_t runs;
};
static const struct cgs_opt_key runs_keys[] = { { "auto", -1 }, { NULL, 0 } };

static const char *const colours[] = { "red", "dark-green", NULL };
static const struct cgs_opt table[] = {
	OPT_INT("num", 'n', struct o, n, .def = "3", .min = 1, .max = 10,
		.help = "a number, e.g. -1 is out"),
	OPT_ENUM("colour", 0, struct o, e, .def = "red", .choices = colours,
		.help = "a colour"),
	OPT_BOOL("dry-run", 0, struct o, b, .help = "a flag with a back\\slash"),
	OPT_STRING("out", 'o', struct o, s, .metavar = "FILE",
		.help = ".starts with a dot"),
	OPT_OPTSTR("profile", 0, struct o, prof, .metavar = "HZ",
		.help = "an optional value"),
	OPT_INT_OR("runs", 0, struct o, runs, .def = "auto", .min = 1, .max = 9,
		   .keys = runs_keys, .metavar = "N|auto", .help = "a count or auto"),
};
static const struct cgs_optset set = { "demo options", table, ARRAY_SIZE(table), NULL };

/* Run @fn on the set into a string (caller frees). */
static char *render(void (*fn)(const struct cgs_optset *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(&set, f);
	fclose(f);
	return buf;
}

static void test_man(void **state)
{
	char *m = render(cgs_opt_man);

	(void)state;
	assert_non_null(strstr(m, ".SS demo options\n"));
	assert_non_null(strstr(m, ".TP\n\\fB\\-n\\fR, \\fB\\-\\-num\\fR \\fIN\\fR\n"
				  "a number, e.g. \\-1 is out. Default: \\fB3\\fR.\n"));
	assert_non_null(strstr(m, "One of: \\fBred\\fR, \\fBdark\\-green\\fR."));
	/* a flag has no placeholder and no default */
	assert_non_null(strstr(m, "\\fB\\-\\-dry\\-run\\fR\na flag with a back\\eslash.\n"));
	/* a line that starts with a dot would be a request */
	assert_non_null(strstr(m, "\\fIFILE\\fR\n\\&.starts with a dot.\n"));
	assert_null(strstr(m, "\n.starts"));
	/* an optional value is attached with = */
	assert_non_null(strstr(m, "\\fB\\-\\-profile\\fR[=\\fIHZ\\fR]\nan optional value.\n"));
	/* a number or a keyword: a value like any other, with its default */
	assert_non_null(strstr(m, "\\fB\\-\\-runs\\fR \\fIN|auto\\fR\n"
				  "a count or auto. Default: \\fBauto\\fR.\n"));
	free(m);
}

static void test_words_and_bash(void **state)
{
	char *w = render(cgs_opt_words), *b = render(cgs_opt_bash_values);

	(void)state;
	assert_string_equal(w, " --num -n --colour --dry-run --out -o --profile --runs");
	assert_non_null(strstr(b, "-n|--num) return ;;\n"));
	assert_non_null(strstr(b, "--colour) COMPREPLY=($(compgen -W \"red dark-green\" -- \"$cur\")); return ;;\n"));
	assert_non_null(strstr(b, "-o|--out) compopt -o filenames 2>/dev/null; "
				  "COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"));
	assert_non_null(strstr(b, "--runs) return ;;\n"));  /* nothing to offer */
	assert_null(strstr(b, "dry-run"));  /* takes no value */
	assert_null(strstr(b, "profile"));  /* its value only after = */
	free(w);
	free(b);
}

static int fake(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void test_template(void **state)
{
	static const struct cgs_cmd cmds[] = { { "run", fake, "run things" },
					       { "list", fake, "list things" } };
	const char tmpl[] = ".TH X 1 \"\" \"cgscale @VERSION@\"\n@COMMANDS@\nplain @OPTIONS@ stays\n";
	FILE *in = fmemopen((void *)tmpl, strlen(tmpl), "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(cgs_gen_man("cgscale", cmds, 2, in, out), 0);
	fclose(out);
	fclose(in);
	assert_null(strstr(buf, "@VERSION@"));
	assert_non_null(strstr(buf, ".TP\n\\fBlist\\fR\nlist things; see \\fBcgscale\\-list\\fR(1).\n"));
	assert_non_null(strstr(buf, "plain @OPTIONS@ stays\n"));  /* only a whole line */
	free(buf);
	out = open_memstream(&buf, &len);
	assert_int_equal(cgs_gen_man("cgscale-nosuch", cmds, 2, stdin, out), 2);
	fclose(out);
	assert_int_equal(len, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_man),
		cmocka_unit_test(test_words_and_bash),
		cmocka_unit_test(test_template),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
