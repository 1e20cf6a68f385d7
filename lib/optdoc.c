/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optdoc.c - man page paragraphs and bash completion arms from an option
 * table. See optdoc.h.
 */
#include <string.h>

#include "lib/optdoc.h"

void cgs_roff_puts(const char *s, FILE *out)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\n' && (s[1] == '.' || s[1] == '\''))
			fputs("\n\\&", out);
		else
			fputc(*s, out);
	}
}

static void man_choices(const struct cgs_opt *o, FILE *out)
{
	fputs(" One of:", out);
	for (int k = 0; o->choices[k]; k++) {
		fputs(k ? ", \\fB" : " \\fB", out);
		cgs_roff_puts(o->choices[k], out);
		fputs("\\fR", out);
	}
	fputs(".", out);
}

void cgs_opt_man(const struct cgs_optset *set, FILE *out)
{
	if (set->title) {
		fputs(".SS ", out);
		cgs_roff_puts(set->title, out);
		fputs("\n", out);
	}
	for (size_t i = 0; i < set->nopts; i++) {
		const struct cgs_opt *o = &set->opts[i];

		fputs(".TP\n", out);
		if (o->short_name)
			fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
		fputs("\\fB\\-\\-", out);
		cgs_roff_puts(o->name, out);
		fputs("\\fR", out);
		if (o->type == CGS_OPT_OPTSTR) {  /* --name[=VALUE] */
			fputs("[=\\fI", out);
			cgs_roff_puts(cgs_opt_metavar(o), out);
			fputs("\\fR]", out);
		} else if (o->type != CGS_OPT_BOOL) {
			fputs(" \\fI", out);
			cgs_roff_puts(cgs_opt_metavar(o), out);
			fputs("\\fR", out);
		}
		fputs("\n", out);
		cgs_roff_puts(o->help, out);
		fputs(".", out);
		if (o->type == CGS_OPT_ENUM)
			man_choices(o, out);
		if (o->type == CGS_OPT_STRLIST)
			fputs(" Repeatable.", out);
		if (o->def && o->type != CGS_OPT_BOOL) {
			fputs(" Default: \\fB", out);
			cgs_roff_puts(o->def, out);
			fputs("\\fR.", out);
		}
		fputs("\n", out);
	}
}

void cgs_opt_words(const struct cgs_optset *set, FILE *out)
{
	for (size_t i = 0; i < set->nopts; i++) {
		fprintf(out, " --%s", set->opts[i].name);
		if (set->opts[i].short_name)
			fprintf(out, " -%c", set->opts[i].short_name);
	}
}

/* The compgen arguments that complete a value of @o, or NULL: none. */
static const char *value_kind(const struct cgs_opt *o)
{
	const char *m = o->metavar ? o->metavar : "";

	if (!strcmp(m, "PATH") || !strcmp(m, "FILE"))
		return "-f";
	if (!strcmp(m, "DIR"))
		return "-d";
	if (!strcmp(m, "PROG"))
		return "-c";
	return NULL;
}

void cgs_opt_bash_values(const struct cgs_optset *set, FILE *out)
{
	for (size_t i = 0; i < set->nopts; i++) {
		const struct cgs_opt *o = &set->opts[i];
		const char *kind = value_kind(o);

		if (o->type == CGS_OPT_BOOL || o->type == CGS_OPT_OPTSTR)
			continue;  /* no value, or one only after '=' */
		fputs("\t\t", out);
		if (o->short_name)
			fprintf(out, "-%c|", o->short_name);
		fprintf(out, "--%s)", o->name);
		if (o->type == CGS_OPT_ENUM) {
			fputs(" COMPREPLY=($(compgen -W \"", out);
			for (int k = 0; o->choices[k]; k++)
				fprintf(out, "%s%s", k ? " " : "", o->choices[k]);
			fputs("\" -- \"$cur\"));", out);
		} else if (kind) {
			fprintf(out, " compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen %s -- \"$cur\"));",
				kind);
		}
		fputs(" return ;;\n", out);
	}
}
