/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_optdoc.c - an option table rendered as a man page section (roff
 * escapes, placeholders, choices, defaults: the words of its --help line)
 * and as bash and zsh completion, a --help text as roff (lib/helpman.h),
 * and the command table as documentation: a row of a test-only table
 * shows up in cgscale(1), its own page (with all of its --help), the list
 * of pages, both completions, `cgscale --help` and its own --help.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/helpman.h"
#include "lib/macros.h"
#include "lib/optdoc.h"
#include "runner/cmd/cmd.h"
#include "runner/cmd/gendoc.h"

struct o {
	int64_t n;
	int e;
	bool b;
	char *s, *prof;
	int64_t runs, zero;
	struct cgs_strlist set;
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
	OPT_SIZE("zero", 0, struct o, zero, .max = 10,
		 .help = "a size with no .def: the engine's zero"),
	OPT_STRLIST("set", 0, struct o, set, .metavar = "K:V",
		    .help = "repeatable: a key and its value"),
};
static const struct cgs_optset set = { "demo options", table, ARRAY_SIZE(table), NULL };

/* What @fn writes for the set into a string (caller frees). */
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

/* The same for the completion writers, with the value hints @values. */
static char *render_values(void (*fn)(const struct cgs_optset *, const char *, FILE *),
			   const char *values)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(&set, values, f);
	fclose(f);
	return buf;
}

static void test_man(void **state)
{
	char *m = render(cgs_opt_man), *h = render(cgs_opt_help);

	(void)state;
	assert_non_null(strstr(m, ".SS demo options\n"));
	/* the words of the --help line: help, [choices], (default X) */
	assert_non_null(strstr(m, ".TP\n\\fB\\-n\\fR, \\fB\\-\\-num\\fR \\fIN\\fR\n"
				  "a number, e.g. \\-1 is out (default \\fB3\\fR)\n"));
	assert_non_null(strstr(h, "a number, e.g. -1 is out (default 3)\n"));
	assert_non_null(strstr(m, "a colour [\\fBred\\fR|\\fBdark\\-green\\fR] (default \\fBred\\fR)\n"));
	assert_non_null(strstr(h, "a colour [red|dark-green] (default red)\n"));
	/* a flag has no placeholder and no default */
	assert_non_null(strstr(m, "\\fB\\-\\-dry\\-run\\fR\na flag with a back\\eslash\n"));
	/* a line that starts with a dot would be a request */
	assert_non_null(strstr(m, "\\fIFILE\\fR\n\\&.starts with a dot\n"));
	assert_null(strstr(m, "\n.starts"));
	/* an optional value is attached with = */
	assert_non_null(strstr(m, "\\fB\\-\\-profile\\fR[=\\fIHZ\\fR]\nan optional value\n"));
	/* a number or a keyword: a value like any other, with its default */
	assert_non_null(strstr(m, "\\fB\\-\\-runs\\fR \\fIN|auto\\fR\n"
				  "a count or auto (default \\fBauto\\fR)\n"));
	/* a number without .def shows the zero it gets, in both */
	assert_non_null(strstr(m, "the engine's zero (default \\fB0\\fR)\n"));
	assert_non_null(strstr(h, "the engine's zero (default 0)\n"));
	/* a list says "repeatable" once: its help does (cgs_opt_check_table) */
	assert_non_null(strstr(m, "\nrepeatable: a key and its value\n"));
	assert_null(strstr(m, "Repeatable"));
	free(m);
	free(h);
}

static void test_words_and_bash(void **state)
{
	char *w = render(cgs_opt_words), *b = render_values(cgs_opt_bash_values, NULL);
	char *v = render_values(cgs_opt_bash_values, "num=events\nout=none\n");

	(void)state;
	assert_string_equal(w, " --num -n --colour --dry-run --out -o --profile --runs --zero --set");
	assert_non_null(strstr(b, "-n|--num) return ;;\n"));
	assert_non_null(strstr(b, "--colour) COMPREPLY=($(compgen -W \"red dark-green\" -- \"$cur\")); return ;;\n"));
	assert_non_null(strstr(b, "-o|--out) compopt -o filenames 2>/dev/null; "
				  "COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"));
	assert_non_null(strstr(b, "--runs) return ;;\n"));  /* nothing to offer */
	assert_null(strstr(b, "dry-run"));  /* takes no value */
	/* its value only after '=': nothing then, else the word is an argument */
	assert_non_null(strstr(b, "--profile) [ \"$split\" != true ] || return ;;\n"));
	/* values the table does not know: the events of this machine, nothing */
	assert_non_null(strstr(v, "-n|--num) _cgscale_events \"${words[0]}\" \"$cur\"; return ;;\n"));
	assert_non_null(strstr(v, "-o|--out) return ;;\n"));
	free(w);
	free(b);
	free(v);
}

static void test_zsh_specs(void **state)
{
	char *z = render_values(cgs_opt_zsh_specs, "num=events\n");

	(void)state;
	/* short and long, once, a value in the same word or the next; the
	 * description the help up to its first ':' */
	assert_non_null(strstr(z, "\t'(-n --num)'{-n+,--num=}'[a number, e.g. -1 is out]:N:_cgscale_events' \\\n"));
	assert_non_null(strstr(z, "\t'(--colour)--colour=[a colour]:WHICH:(red dark-green)' \\\n"));
	assert_non_null(strstr(z, "\t'(--dry-run)--dry-run[a flag with a back\\\\slash]' \\\n"));
	assert_non_null(strstr(z, "\t'(-o --out)'{-o+,--out=}'[.starts with a dot]:FILE:_files' \\\n"));
	/* an optional value only after '=' */
	assert_non_null(strstr(z, "\t'(--profile)--profile=-[an optional value]::HZ: ' \\\n"));
	/* repeatable; the ':' of the placeholder escaped */
	assert_non_null(strstr(z, "\t'*--set=[repeatable]:K\\:V: ' \\\n"));
	free(z);
}

/* @text through @fn into a string (caller frees). */
static char *helpman(void (*fn)(const char *, FILE *), const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(text, f);
	fclose(f);
	return buf;
}

static void test_helpman(void **state)
{
	static const char text[] =
		"usage: cgscale toy [options] FILE|DIR...\n"
		"       cgscale toy --fold [--point TEST:MODE[:N]] [--fmt a|b-c] FILE\n"
		"\n"
		"Toy  things in\n"
		"a paragraph.\n"
		"  + an indented line\n"
		"  that goes on\n"
		"Verdicts:\n"
		"  REGRESSION    worse beyond -T,\n"
		"                and on\n"
		"  OK  fine\n"
		"\n"
		".a dot\n"
		"\n"
		"exit status:\n"
		"  0  done\n";
	char *syn = helpman(cgs_help_synopsis, text), *m = helpman(cgs_help_man, text);

	(void)state;
	/* the command bold, options and their literal values bold,
	 * placeholders italic; one line each */
	assert_string_equal(syn, ".ad l\n"
		"\\fBcgscale\\fR \\fBtoy\\fR [\\fIoptions\\fR] \\fIFILE\\fR|\\fIDIR\\fR...\n"
		".br\n"
		"\\fBcgscale\\fR \\fBtoy\\fR \\fB\\-\\-fold\\fR [\\fB\\-\\-point\\fR \\fITEST\\fR:\\fIMODE\\fR"
		"[:\\fIN\\fR]] [\\fB\\-\\-fmt\\fR \\fBa\\fR|\\fBb\\-c\\fR] \\fIFILE\\fR\n.ad\n");
	/* no usage, no .PP before the first paragraph; spaces collapsed */
	assert_non_null(strstr(m, "Toy things in\na paragraph.\n.IP \"\" 4\n+ an indented line\nthat goes on\n"));
	assert_int_equal(strncmp(m, "Toy things", 10), 0);
	/* "Verdicts:" is a sentence (upper case), then a tagged list */
	assert_non_null(strstr(m, ".PP\nVerdicts:\n.TP\n\\fBREGRESSION\\fR\nworse beyond \\-T,\nand on\n"
				  ".TP\n\\fBOK\\fR\nfine\n"));
	assert_non_null(strstr(m, ".PP\n\\&.a dot\n"));
	assert_non_null(strstr(m, ".SH EXIT STATUS\n.TP\n\\fB0\\fR\ndone\n"));
	assert_null(strstr(m, "usage"));
	free(syn);
	free(m);
	/* a tail after the options opens its own paragraph */
	m = helpman(cgs_help_man, "\nSee also this.\n");
	assert_string_equal(m, ".PP\nSee also this.\n");
	free(m);
}

/* A toy command in a test-only table: a row is all it takes to be
 * dispatched, listed, paged and completed. */
static int toy_fn(const struct cgs_command *self, int argc, char **argv)
{
	struct o v = { 0 };
	struct cgs_optset oset;
	int first = 0, status = cgs_cmd_open(self, &oset, &v, argc, argv, &first);

	cgs_opt_free(&oset);
	return status < 0 ? 42 : status;
}

static void toy_more(FILE *out)
{
	fputs("\nkinds:\n  red  a colour\n", out);
}

static const struct cgs_command toy = {
	.name = "toy",
	.summary = "toy things",
	.fn = toy_fn,
	.opts = { "toy options", table, ARRAY_SIZE(table), NULL },
	.help_head = "usage: cgscale toy [options] FILE\nToy with FILE.\n",
	.help_more = toy_more,
	.help_tail = "\nexit status:\n  0  done\n",
	.err_who = "toy",
	.man = ".TH CGSCALE\\-TOY 1 \"\" \"cgscale @VERSION@\"\n.SH SYNOPSIS\n@SYNOPSIS@\n"
	       ".SH DESCRIPTION\n@HELP_HEAD@\n.SH OPTIONS\n@OPTIONS@\n@HELP_MORE@\n@HELP_TAIL@\n",
	.complete_args = "-f",
};
static const struct cgs_command bare = {
	.name = "bare", .summary = "bare things", .fn = toy_fn, .man = ".TH B 1\n",
};
static const struct cgs_command *const toys[] = { &bare, &toy };
static const struct cgs_cmdtab toytab = {
	toys, 2,
	".TH X 1 \"\" \"cgscale @VERSION@\"\n@HELP_HEAD@\n@COMMANDS@\nplain @OPTIONS@ stays\n@HELP_TAIL@\n"
	".SH SEE ALSO\n@SEEALSO@\n",
	"usage: cgscale COMMAND\nToys.\n", "\nThat is all.\n",
};

/* What @fn writes for @arg into a string (caller frees); its status in *@rc. */
static char *gen(int (*fn)(const char *, const struct cgs_cmdtab *, FILE *),
		 const char *arg, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	*rc = fn(arg, &toytab, out);
	fclose(out);
	return buf;
}

static void test_row_everywhere(void **state)
{
	char *top, *page, *list, *comp;
	int rc;

	(void)state;
	top = gen(cgs_gen_man, "cgscale", &rc);
	assert_int_equal(rc, 0);
	assert_null(strstr(top, "@VERSION@"));
	assert_non_null(strstr(top, ".TP\n\\fBtoy\\fR\ntoy things; see \\fBcgscale\\-toy\\fR(1).\n"));
	assert_non_null(strstr(top, "plain @OPTIONS@ stays\n"));  /* only a whole line */
	assert_non_null(strstr(top, "\"\nToys.\n.TP\n"));          /* --help's head and tail */
	assert_non_null(strstr(top, "stays\n.PP\nThat is all.\n"));
	assert_non_null(strstr(top, ".SH SEE ALSO\n.BR cgscale\\-bare (1),\n.BR cgscale\\-toy (1)\n"));
	page = gen(cgs_gen_man, "cgscale-toy", &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(page, ".TH CGSCALE\\-TOY 1"));
	assert_non_null(strstr(page, ".SS toy options\n"));
	assert_non_null(strstr(page, "\\fB\\-\\-dry\\-run\\fR"));
	assert_null(strstr(page, "@OPTIONS@"));
	/* all of its --help: usage, head, options, help_more, tail */
	assert_non_null(strstr(page, ".SH SYNOPSIS\n.ad l\n\\fBcgscale\\fR \\fBtoy\\fR [\\fIoptions\\fR] \\fIFILE\\fR\n"
				     ".ad\n.SH DESCRIPTION\nToy with FILE.\n.SH OPTIONS\n"));
	assert_non_null(strstr(page, ".SH KINDS\n.TP\n\\fBred\\fR\na colour\n.SH EXIT STATUS\n.TP\n\\fB0\\fR\ndone\n"));
	list = gen(cgs_gen_man, "--list", &rc);
	assert_string_equal(list, "cgscale\ncgscale-bare\ncgscale-toy\n");
	comp = gen(cgs_gen_completion, "bash", &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(comp, "compgen -W \"--help --version bare toy\""));
	assert_non_null(strstr(comp, "\ttoy)\n"));
	assert_non_null(strstr(comp, "--help --num -n --colour --dry-run --out -o --profile --runs --zero --set\""));
	assert_null(strstr(comp, "\tbare)"));  /* no options, no arguments: no arm */
	free(comp);
	comp = gen(cgs_gen_completion, "zsh", &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(strncmp(comp, "#compdef cgscale\n", 17), 0);
	assert_non_null(strstr(comp, "\t\t'bare:bare things'\n\t\t'toy:toy things'\n"));
	assert_non_null(strstr(comp, "\t(toy)\n\t\t_arguments -s -S : \\\n"));
	assert_non_null(strstr(comp, "'(-n --num)'{-n+,--num=}'[a number, e.g. -1 is out]:N: ' \\\n"));
	assert_non_null(strstr(comp, "\t\t\t'*:file:_files' \\\n\t\t\t&& ret=0 ;;\n"));
	assert_null(strstr(comp, "\t(bare)"));
	free(gen(cgs_gen_completion, "fish", &rc));
	assert_int_equal(rc, 2);
	free(top);
	free(page);
	free(list);
	free(comp);
	free(gen(cgs_gen_man, "cgscale-nosuch", &rc));
	assert_int_equal(rc, 2);
}

/* What @argv does to stdout through the dispatch of the toy table. */
static char *dispatch(int argc, char **argv, int *rc)
{
	const struct cgs_command *c = cgs_cmd_find(&toytab, argv[0]);
	FILE *tmp = tmpfile();
	int saved = dup(1);
	char *buf = calloc(1, 4096);

	assert_non_null(c);
	assert_non_null(tmp);
	assert_non_null(buf);
	fflush(stdout);
	dup2(fileno(tmp), 1);
	*rc = c->fn(c, argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	assert_true(fread(buf, 1, 4095, tmp) < 4095);
	fclose(tmp);
	return buf;
}

static void test_row_help(void **state)
{
	char *help[] = { "toy", "--help" }, *bad[] = { "toy", "--nosuch" },
	     *ok[] = { "toy", "-n", "4", "f" }, *out;
	int rc;

	(void)state;
	out = dispatch(2, help, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "usage: cgscale toy [options] FILE\nToy with FILE.\n\ntoy options:\n"));
	assert_non_null(strstr(out, "--dry-run"));
	assert_non_null(strstr(out, "\nkinds:\n  red  a colour\n\nexit status:\n  0  done\n"));
	free(out);
	out = dispatch(2, bad, &rc);
	assert_int_equal(rc, CGS_EXIT_BADINPUT);
	assert_string_equal(out, "");
	free(out);
	free(dispatch(4, ok, &rc));
	assert_int_equal(rc, 42);   /* parsed: the command goes on */
}

static void test_row_top_usage(void **state)
{
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);

	(void)state;
	assert_non_null(o);
	cgs_cmd_top_usage(&toytab, o);
	fclose(o);
	assert_non_null(strstr(out, "usage: cgscale COMMAND\nToys.\n\ncommands:\n  bare       bare things\n"
				    "  toy        toy things\n\nThat is all.\n"));
	free(out);
}

/* The real table: every row is whole, and its page is its own. */
static void test_table(void **state)
{
	const struct cgs_cmdtab *t = &cgs_cmdtab;

	(void)state;
	assert_true(t->n >= 9);
	for (size_t i = 0; i < t->n; i++) {
		const struct cgs_command *c = t->cmds[i];
		char th[64];

		assert_non_null(c->name);
		assert_non_null(c->summary);
		assert_non_null(c->fn);
		assert_non_null(c->man);
		assert_ptr_equal(cgs_cmd_find(t, c->name), c);  /* names are unique */
		snprintf(th, sizeof(th), ".TH CGSCALE\\-%s 1 ", c->name);
		for (char *p = th + 13; *p != ' '; p++)
			*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
		assert_non_null(strstr(c->man, th));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_man),
		cmocka_unit_test(test_words_and_bash),
		cmocka_unit_test(test_zsh_specs),
		cmocka_unit_test(test_helpman),
		cmocka_unit_test(test_row_everywhere),
		cmocka_unit_test(test_row_help),
		cmocka_unit_test(test_row_top_usage),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
