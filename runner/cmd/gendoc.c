/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gendoc.c - cgscale's man pages and bash completion, generated at build
 * time from the command table (cmd.h: each command's page text, option
 * tables and completion hints), the option tables that drive parsing and
 * --help, and the workload registry; never a second copy of them. The
 * Makefile runs the hidden commands `cgscale --gen-man PAGE` (and
 * `--gen-man --list` for the names of the pages) and
 * `cgscale --gen-completion bash`.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "lib/optdoc.h"
#include "lib/util.h"
#include "lib/version.h"
#include "runner/cmd/gendoc.h"
#include "runner/run/run.h"
#include "tests/workload.h"

/* run's own sets and one a workload, and cleanup's beside them */
#define MAX_SETS (CGS_RUN_MAX_SETS + 2)

/* The option tables of @c for @use into @sets; returns how many. */
static size_t cmd_sets(const struct cgs_command *c, enum cgs_doc_use use,
		       struct cgs_optset *sets)
{
	if (c->doc_sets)
		return c->doc_sets(use, sets, MAX_SETS);
	if (!c->opts.nopts)
		return 0;
	sets[0] = c->opts;
	return 1;
}

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

/* The page @text of @c (NULL: the top page) with its markers expanded. */
static void put_page(const char *text, const struct cgs_command *c,
		     const struct cgs_cmdtab *t, FILE *out)
{
	struct cgs_optset sets[MAX_SETS];
	size_t nsets = c ? cmd_sets(c, CGS_DOC_MAN, sets) : 0;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) + 1 : strlen(text);

		if (is_marker(text, len, "@OPTIONS@"))
			for (size_t i = 0; i < nsets; i++)
				cgs_opt_man(&sets[i], out);
		else if (is_marker(text, len, "@COMMANDS@"))
			man_commands(t, out);
		else if (is_marker(text, len, "@SEEALSO@"))
			man_see_also(t, out);
		else if (is_marker(text, len, "@WORKLOADS@"))
			man_workloads(out);
		else
			put_line(text, len, out);
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

/* The case arm of command @c: values of its options, then options or its
 * positional arguments; nothing when it has neither. @wl: the compgen
 * arguments of the workloads. */
static void bash_cmd(const struct cgs_command *c, const char *wl, FILE *out)
{
	struct cgs_optset sets[MAX_SETS];
	size_t n = cmd_sets(c, CGS_DOC_COMPLETION, sets);
	const char *pos = c->complete_args;

	if (pos && !strcmp(pos, CGS_COMPLETE_WORKLOADS))
		pos = wl;
	if (!n && !pos)
		return;
	fprintf(out, "\t%s)\n\t\tcase \"$prev\" in\n", c->name);
	if (c->complete_prev)
		fputs(c->complete_prev, out);
	for (size_t i = 0; i < n; i++)
		cgs_opt_bash_values(&sets[i], out);
	fputs("\t\tesac\n\t\tcase \"$cur\" in\n\t\t-*) COMPREPLY=($(compgen -W \"--help", out);
	for (size_t i = 0; i < n; i++)
		cgs_opt_words(&sets[i], out);
	fputs("\" -- \"$cur\")) ;;\n", out);
	if (pos)
		fprintf(out, "\t\t*) %sCOMPREPLY=($(compgen %s -- \"$cur\")) ;;\n",
			strcmp(pos, "-f") ? "" : "compopt -o filenames 2>/dev/null; ", pos);
	fputs("\t\tesac ;;\n", out);
}

static const char bash_events[] =
	"# -e takes a comma list of event names; they come from 'cgscale events'\n"
	"# on this machine, when asked for.\n"
	"_cgscale_events()\n{\n"
	"\tlocal pre= cur=$2 ev\n"
	"\tcase $cur in *,*) pre=${cur%,*}, cur=${cur##*,} ;; esac\n"
	"\tev=$(\"$1\" events 2>/dev/null | awk '/^Events/ { on = 1; next } on && /^  [^ ]/ { print $1 }')\n"
	"\tCOMPREPLY=($(compgen -P \"$pre\" -W \"none default $ev\" -- \"$cur\"))\n}\n\n";

/* compgen's -W "..." of the workload names into @wl; -ENOSPC if too many. */
static int workload_words(char *wl, size_t len)
{
	size_t o = (size_t)snprintf(wl, len, "-W \"");

	for (size_t i = 0; i < cgs_nworkloads && o < len; i++)
		o += (size_t)snprintf(wl + o, len - o, "%s%s", i ? " " : "",
				      cgs_workloads[i]->name);
	if (o + 2 >= len)
		return -ENOSPC;
	strcat(wl, "\"");
	return 0;
}

int cgs_gen_completion(const char *shell, const struct cgs_cmdtab *t, FILE *out)
{
	char wl[4096];

	if (strcmp(shell, "bash")) {
		cgs_err("--gen-completion: no completion for '%s'; give bash", shell);
		return 2;
	}
	if (workload_words(wl, sizeof(wl)))
		return 1;
	fprintf(out, "# bash completion for cgscale %s, generated by 'cgscale --gen-completion bash'\n"
		     "# from its command and option tables and its workload registry.\n\n%s",
		CGS_VERSION, bash_events);
	fputs("_cgscale()\n{\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd=${COMP_WORDS[1]}\n\tCOMPREPLY=()\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W \"--help --version", out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(out, " %s", t->cmds[i]->name);
	fputs("\" -- \"$cur\"))\n\t\treturn\n\tfi\n", out);
	for (size_t i = 0; i < t->n; i++)
		if (t->cmds[i]->complete_head)
			t->cmds[i]->complete_head(out);
	fputs("\tcase \"$cmd\" in\n", out);
	for (size_t i = 0; i < t->n; i++)
		bash_cmd(t->cmds[i], wl, out);
	fputs("\tesac\n}\ncomplete -F _cgscale cgscale\n", out);
	return fflush(out) ? 1 : 0;
}
