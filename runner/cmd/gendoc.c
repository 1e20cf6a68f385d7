/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gendoc.c - cgscale's man pages and bash completion, generated at build
 * time from the command table, the option tables that drive parsing and
 * --help, and the workload registry; never a second copy of them. The
 * Makefile runs the hidden commands `cgscale --gen-man PAGE < TEMPLATE`
 * (doc/man/PAGE.1.in holds the hand-written text) and
 * `cgscale --gen-completion bash`.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/optdoc.h"
#include "lib/util.h"
#include "lib/version.h"
#include "results/compare/compare.h"
#include "runner/cmd/gendoc.h"
#include "runner/run/run.h"

#define MAX_SETS 80

/* The option tables of subcommand @cmd into @sets; returns how many. */
static size_t cmd_sets(const char *cmd, struct cgs_optset *sets)
{
	size_t n = 0;

	if (!strcmp(cmd, "cgroup cleanup")) {
		sets[n++] = (struct cgs_optset){ "cleanup options", cgs_cleanup_optdefs,
						 cgs_cleanup_noptdefs, NULL };
	} else if (!strcmp(cmd, "run") || !strcmp(cmd, "cgroup")) {
		n += cgs_run_own_optsets(NULL, sets + n);
		for (size_t i = 0; !strcmp(cmd, "run") && i < cgs_nworkloads &&
		     n < MAX_SETS; i++)
			if (cgs_workloads[i]->nopts)
				sets[n++] = (struct cgs_optset){
					cgs_workloads[i]->name, cgs_workloads[i]->opts,
					cgs_workloads[i]->nopts, NULL };
	} else if (!strcmp(cmd, "compare")) {
		sets[n++] = (struct cgs_optset){ "compare options", cmp_optdefs,
						 cmp_noptdefs, NULL };
	} else if (!strcmp(cmd, "export")) {
		sets[n++] = (struct cgs_optset){ "export options", cmp_export_optdefs,
						 cmp_export_noptdefs, NULL };
	} else if (!strcmp(cmd, "show")) {
		sets[n++] = (struct cgs_optset){ "show options", cmp_show_optdefs,
						 cmp_show_noptdefs, NULL };
	} else if (!strcmp(cmd, "recover")) {
		sets[n++] = (struct cgs_optset){ "recover options", cgs_recover_optdefs,
						 cgs_recover_noptdefs, NULL };
	} else if (!strcmp(cmd, "report")) {
		sets[n++] = (struct cgs_optset){ "report options", cgs_report_optdefs,
						 cgs_report_noptdefs, NULL };
	}
	return n;
}

static void man_commands(const struct cgs_cmd *cmds, size_t ncmds, FILE *out)
{
	for (size_t i = 0; i < ncmds; i++) {
		fprintf(out, ".TP\n\\fB%s\\fR\n", cmds[i].name);
		cgs_roff_puts(cmds[i].help, out);
		fprintf(out, "; see \\fBcgscale\\-%s\\fR(1).\n", cmds[i].name);
	}
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

/* Print @line with every @VERSION@ replaced. */
static void put_line(const char *line, FILE *out)
{
	const char *at;

	while ((at = strstr(line, "@VERSION@"))) {
		fwrite(line, 1, (size_t)(at - line), out);
		fputs(CGS_VERSION, out);
		line = at + strlen("@VERSION@");
	}
	fputs(line, out);
}

int cgs_gen_man(const char *page, const struct cgs_cmd *cmds, size_t ncmds,
		FILE *in, FILE *out)
{
	struct cgs_optset sets[MAX_SETS];
	const char *cmd = NULL;
	size_t nsets = 0, cap = 0;
	char *line = NULL;

	for (size_t i = 0; i < ncmds && strcmp(page, "cgscale"); i++)
		if (!strncmp(page, "cgscale-", 8) && !strcmp(page + 8, cmds[i].name))
			cmd = cmds[i].name;
	if (strcmp(page, "cgscale") && !cmd) {
		cgs_err("--gen-man: no page '%s'; give cgscale or cgscale-COMMAND", page);
		return 2;
	}
	if (cmd && !strcmp(cmd, "cgroup"))  /* cleanup's options, then show's */
		nsets = cmd_sets("cgroup cleanup", sets);
	if (cmd)
		nsets += cmd_sets(cmd, sets + nsets);
	while (getline(&line, &cap, in) > 0) {
		if (!strcmp(line, "@OPTIONS@\n"))
			for (size_t i = 0; i < nsets; i++)
				cgs_opt_man(&sets[i], out);
		else if (!strcmp(line, "@COMMANDS@\n"))
			man_commands(cmds, ncmds, out);
		else if (!strcmp(line, "@WORKLOADS@\n"))
			man_workloads(out);
		else
			put_line(line, out);
	}
	free(line);
	return ferror(in) || fflush(out) ? 1 : 0;
}

/* The case arm of one subcommand: values of its options, then options or
 * its positional arguments (@pos: compgen arguments, NULL: none). */
static void bash_cmd(const char *cmd, const char *pos, FILE *out)
{
	struct cgs_optset sets[MAX_SETS];
	size_t n = cmd_sets(cmd, sets);

	fprintf(out, "\t%s)\n\t\tcase \"$prev\" in\n", cmd);
	if (!strcmp(cmd, "run") || !strcmp(cmd, "cgroup"))
		fputs("\t\t-e|--events) _cgscale_events \"${COMP_WORDS[0]}\" \"$cur\"; return ;;\n"
		      "\t\t--cgroup-parent) return ;;\n", out);
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

int cgs_gen_completion(const char *shell, const struct cgs_cmd *cmds,
		       size_t ncmds, FILE *out)
{
	char wl[4096] = "-W \"";
	size_t o = strlen(wl);
	struct cgs_optset cleanup;

	if (strcmp(shell, "bash")) {
		cgs_err("--gen-completion: no completion for '%s'; give bash", shell);
		return 2;
	}
	for (size_t i = 0; i < cgs_nworkloads && o < sizeof(wl); i++)
		o += (size_t)snprintf(wl + o, sizeof(wl) - o, "%s%s", i ? " " : "",
				      cgs_workloads[i]->name);
	if (o + 2 >= sizeof(wl))
		return 1;
	strcat(wl, "\"");
	fprintf(out, "# bash completion for cgscale %s, generated by 'cgscale --gen-completion bash'\n"
		     "# from its command and option tables and its workload registry.\n\n%s",
		CGS_VERSION, bash_events);
	fputs("_cgscale()\n{\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd=${COMP_WORDS[1]}\n\tCOMPREPLY=()\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W \"--help --version", out);
	for (size_t i = 0; i < ncmds; i++)
		fprintf(out, " %s", cmds[i].name);
	fputs("\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	      "\tif [ \"$cmd\" = cgroup ]; then\n"
	      "\t\tif [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	      "\t\t\tCOMPREPLY=($(compgen -W \"show cleanup --help\" -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n"
	      "\t\tif [ \"${COMP_WORDS[2]}\" = cleanup ]; then\n"
	      "\t\t\tCOMPREPLY=($(compgen -W \"--help", out);
	cleanup = (struct cgs_optset){ NULL, cgs_cleanup_optdefs, cgs_cleanup_noptdefs, NULL };
	cgs_opt_words(&cleanup, out);
	fputs("\" -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n"
	      "\tfi\n\tcase \"$cmd\" in\n", out);
	bash_cmd("run", wl, out);
	bash_cmd("cgroup", wl, out);
	bash_cmd("compare", "-f", out);
	bash_cmd("report", "-f", out);
	bash_cmd("export", "-f", out);
	bash_cmd("show", "-f", out);
	bash_cmd("recover", "-f", out);
	fputs("\tesac\n}\ncomplete -F _cgscale cgscale\n", out);
	return fflush(out) ? 1 : 0;
}
