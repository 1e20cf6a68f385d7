/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gendoc.c - cgscale's man pages, generated at build time from the command
 * table (cmd.h: each command's page text and option tables), the --help
 * texts and option tables that drive parsing and --help, and the workload
 * registry; never a second copy of them. The Makefile runs the hidden
 * command `cgscale --gen-man PAGE` (and `--gen-man --list` for the names
 * of the pages); gencomp.c makes the completion the same way.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/helpman.h"
#include "lib/optdoc.h"
#include "lib/util.h"
#include "lib/version.h"
#include "runner/cmd/gendoc.h"
#include "tests/workload.h"

static void man_commands(const struct cgs_cmdtab *t, FILE *out)
{
	for (size_t i = 0; i < t->n; i++) {
		fprintf(out, ".TP\n\\fB%s\\fR\n", t->cmds[i]->name);
		cgs_roff_puts(t->cmds[i]->summary, out);
		fprintf(out, "; see \\fBcgscale\\-%s\\fR(1).\n", t->cmds[i]->name);
	}
}

static void man_see_also(const struct cgs_cmdtab *t, FILE *out)
{
	for (size_t i = 0; i < t->n; i++)
		fprintf(out, ".BR cgscale\\-%s (1)%s\n", t->cmds[i]->name,
			i + 1 < t->n ? "," : "");
}

static void man_workloads(FILE *out)
{
	for (size_t i = 0; i < cgs_nworkloads; i++) {
		const struct cgs_workload *w = cgs_workloads[i];

		fputs(".TP\n\\fB", out);
		cgs_roff_puts(w->name, out);
		fputs("\\fR\n", out);
		cgs_roff_puts(w->desc, out);
		fputs("; one op = one ", out);
		cgs_roff_puts(w->unit, out);
		fputs(".\n", out);
	}
}

/* Print the line @line (@len bytes, its newline included) with every
 * @VERSION@ replaced. */
static void put_line(const char *line, size_t len, FILE *out)
{
	const char *at, *end = line + len;

	while ((at = memmem(line, (size_t)(end - line), "@VERSION@", 9))) {
		fwrite(line, 1, (size_t)(at - line), out);
		fputs(CGS_VERSION, out);
		line = at + 9;
	}
	fwrite(line, 1, (size_t)(end - line), out);
}

/* Whether the line @line of @len bytes is exactly @marker and its newline. */
static bool is_marker(const char *line, size_t len, const char *marker)
{
	return len == strlen(marker) + 1 && !memcmp(line, marker, len - 1);
}

/* What c->help_more (a function) writes to --help, as roff. */
static void man_help_more(const struct cgs_command *c, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!c || !c->help_more)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	c->help_more(f);
	if (!fclose(f))
		cgs_help_man(buf, out);
	free(buf);
}

/* The line @l of @len bytes, a marker or text, of the page of @c (NULL:
 * the top page of @t). */
static void put_page_line(const char *l, size_t len, const struct cgs_command *c,
			  const struct cgs_cmdtab *t, FILE *out)
{
	const char *head = c ? c->help_head : t->help_head;
	const char *tail = c ? c->help_tail : t->help_tail;

	if (is_marker(l, len, "@OPTIONS@")) {
		struct cgs_optset sets[CGS_CMD_MAX_DOC_SETS];
		size_t nsets = c ? cgs_cmd_doc_sets(c, CGS_DOC_MAN, sets) : 0;

		for (size_t i = 0; i < nsets; i++)
			cgs_opt_man(&sets[i], out);
	} else if (is_marker(l, len, "@SYNOPSIS@")) {
		cgs_help_synopsis(head ? head : "", out);
	} else if (is_marker(l, len, "@HELP_HEAD@")) {
		cgs_help_man(head ? head : "", out);
	} else if (is_marker(l, len, "@HELP_MORE@")) {
		man_help_more(c, out);
	} else if (is_marker(l, len, "@HELP_TAIL@")) {
		cgs_help_man(tail ? tail : "", out);
	} else if (is_marker(l, len, "@COMMANDS@")) {
		man_commands(t, out);
	} else if (is_marker(l, len, "@SEEALSO@")) {
		man_see_also(t, out);
	} else if (is_marker(l, len, "@WORKLOADS@")) {
		man_workloads(out);
	} else {
		put_line(l, len, out);
	}
}

/* The page @text of @c (NULL: the top page) with its markers expanded. */
static void put_page(const char *text, const struct cgs_command *c,
		     const struct cgs_cmdtab *t, FILE *out)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) + 1 : strlen(text);

		put_page_line(text, len, c, t, out);
		text += len;
	}
}

int cgs_gen_man(const char *page, const struct cgs_cmdtab *t, FILE *out)
{
	const struct cgs_command *c = NULL;

	if (!strcmp(page, "--list")) {
		fputs("cgscale\n", out);
		for (size_t i = 0; i < t->n; i++)
			fprintf(out, "cgscale-%s\n", t->cmds[i]->name);
		return fflush(out) ? 1 : 0;
	}
	if (!strncmp(page, "cgscale-", 8))
		c = cgs_cmd_find(t, page + 8);
	if (strcmp(page, "cgscale") && (!c || !c->man)) {
		cgs_err("--gen-man: no page '%s'; give cgscale or cgscale-COMMAND", page);
		return 2;
	}
	put_page(c ? c->man : t->man, c, t, out);
	return fflush(out) ? 1 : 0;
}
