/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optdoc.c - man page paragraphs and bash completion arms from an option
 * table. See optdoc.h.
 */
#include <stdbool.h>
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

/* " [a|b|c]", as --help writes the choices, each in bold. */
static void man_choices(const struct cgs_opt *o, FILE *out)
{
	fputs(" [", out);
	for (int k = 0; o->choices[k]; k++) {
		fputs(k ? "|\\fB" : "\\fB", out);
		cgs_roff_puts(o->choices[k], out);
		fputs("\\fR", out);
	}
	fputs("]", out);
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
		const char *def = cgs_opt_shown_default(o);

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
		/* the words of its --help line: help, [choices], (default X) */
		fputs("\n", out);
		cgs_roff_puts(o->help, out);
		if (o->type == CGS_OPT_ENUM)
			man_choices(o, out);
		if (def) {
			fputs(" (default \\fB", out);
			cgs_roff_puts(def, out);
			fputs("\\fR)", out);
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

/* The KIND that @values ("NAME=KIND" lines) gives option @name: "events",
 * "none" (any other word: nothing to offer either), or NULL. */
static const char *special_kind(const char *values, const char *name)
{
	size_t n = strlen(name);

	while (values && *values) {
		const char *nl = strchr(values, '\n');
		size_t len = nl ? (size_t)(nl - values) : strlen(values);

		if (len > n && !strncmp(values, name, n) && values[n] == '=')
			return len == n + 7 && !strncmp(values + n + 1, "events", 6) ?
			       "events" : "none";
		values += len + (nl != NULL);
	}
	return NULL;
}

/* The kind of value of @o by its placeholder: 'f' files, 'd' directories,
 * 'c' commands, 0 none. */
static char value_kind(const struct cgs_opt *o)
{
	const char *m = o->metavar ? o->metavar : "";

	if (!strcmp(m, "PATH") || !strcmp(m, "FILE"))
		return 'f';
	if (!strcmp(m, "DIR"))
		return 'd';
	if (!strcmp(m, "PROG"))
		return 'c';
	return 0;
}

void cgs_opt_bash_values(const struct cgs_optset *set, const char *values, FILE *out)
{
	for (size_t i = 0; i < set->nopts; i++) {
		const struct cgs_opt *o = &set->opts[i];
		const char *special = special_kind(values, o->name);
		char kind = value_kind(o);

		if (o->type == CGS_OPT_BOOL)
			continue;  /* no value */
		fputs("\t\t", out);
		if (o->short_name)
			fprintf(out, "-%c|", o->short_name);
		fprintf(out, "--%s)", o->name);
		if (o->type == CGS_OPT_OPTSTR) {  /* a value only after '=' */
			fputs(" [ \"$split\" != true ] || return ;;\n", out);
			continue;
		}
		if (special && !strcmp(special, "events")) {
			fputs(" _cgscale_events \"${words[0]}\" \"$cur\";", out);
		} else if (special) {
			;  /* nothing to offer */
		} else if (o->type == CGS_OPT_ENUM) {
			fputs(" COMPREPLY=($(compgen -W \"", out);
			for (int k = 0; o->choices[k]; k++)
				fprintf(out, "%s%s", k ? " " : "", o->choices[k]);
			fputs("\" -- \"$cur\"));", out);
		} else if (kind) {
			fprintf(out, " compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -%c -- \"$cur\"));",
				kind);
		}
		fputs(" return ;;\n", out);
	}
}

/* @s, at most @n bytes, inside a zsh '...' word, with @esc escaped by a
 * backslash. */
static void zsh_quoted(const char *s, size_t n, const char *esc, FILE *out)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] == '\'')
			fputs("'\\''", out);
		else if (strchr(esc, s[i]))
			fprintf(out, "\\%c", s[i]);
		else
			fputc(s[i], out);
	}
}

/* The description of @o in a menu: its help up to the first ';', ':' or
 * " (", at most 70 bytes and then up to a word's end. */
static void zsh_desc(const struct cgs_opt *o, FILE *out)
{
	size_t n = strcspn(o->help, ";:");
	const char *paren = strstr(o->help, " (");

	if (paren && (size_t)(paren - o->help) < n)
		n = (size_t)(paren - o->help);
	if (n > 70) {
		size_t cut = 70;

		while (cut && o->help[cut] != ' ')
			cut--;
		n = cut ? cut : 70;
	}
	fputc('[', out);
	zsh_quoted(o->help, n, "[]\\", out);
	fputc(']', out);
}

/* The action that completes the value of @o. */
static void zsh_action(const struct cgs_opt *o, const char *special, FILE *out)
{
	char kind = value_kind(o);

	if (special && !strcmp(special, "events"))
		fputs("_cgscale_events", out);
	else if (special)
		fputs(" ", out);
	else if (o->type == CGS_OPT_ENUM) {
		fputc('(', out);
		for (int k = 0; o->choices[k]; k++) {
			fputs(k ? " " : "", out);
			zsh_quoted(o->choices[k], strlen(o->choices[k]), " ()\\", out);
		}
		fputc(')', out);
	} else
		fputs(kind == 'f' ? "_files" : kind == 'd' ? "_files -/" :
		      kind == 'c' ? "_command_names -e" : " ", out);
}

void cgs_opt_zsh_specs(const struct cgs_optset *set, const char *values, FILE *out)
{
	for (size_t i = 0; i < set->nopts; i++) {
		const struct cgs_opt *o = &set->opts[i];
		bool value = o->type != CGS_OPT_BOOL && o->type != CGS_OPT_OPTSTR;
		const char *lsfx = o->type == CGS_OPT_OPTSTR ? "=-" : value ? "=" : "";

		fputs("\t\t\t'", out);
		if (o->type == CGS_OPT_STRLIST)
			fputs("*", out);   /* repeatable */
		else if (o->short_name)
			fprintf(out, "(-%c --%s)", o->short_name, o->name);
		else
			fprintf(out, "(--%s)", o->name);
		if (o->short_name)
			fprintf(out, "'{-%c%s,--%s%s}'", o->short_name, value ? "+" : "",
				o->name, lsfx);
		else
			fprintf(out, "--%s%s", o->name, lsfx);
		zsh_desc(o, out);
		if (o->type != CGS_OPT_BOOL) {
			fputs(o->type == CGS_OPT_OPTSTR ? "::" : ":", out);
			zsh_quoted(cgs_opt_metavar(o), strlen(cgs_opt_metavar(o)), ":\\", out);
			fputc(':', out);
			zsh_action(o, special_kind(values, o->name), out);
		}
		fputs("' \\\n", out);
	}
}
