/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.h - one record per subcommand: its name and summary, its option
 * table, its function, its --help, its man page and its completion. The
 * records are listed once, in runner/cmd/commands.h; main() dispatches from
 * that list, and `cgscale --help`, the man pages and the completion
 * (gendoc.c) are made from it, so a command cannot be missing from one.
 * Every command opens the same way (cgs_cmd_open) and returns one of the
 * exit statuses of lib/exit.h.
 */
#ifndef CGS_CMD_H
#define CGS_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/exit.h"
#include "lib/opt.h"

/* What a command's option tables are asked for. */
enum cgs_doc_use { CGS_DOC_MAN, CGS_DOC_COMPLETION };

/* complete_args: the positional arguments are workload names. */
#define CGS_COMPLETE_WORKLOADS "@WORKLOADS@"
/* complete_values of the commands that take run's options: -e completes
 * from `cgscale events` here, --cgroup-parent from nothing. */
#define CGS_COMPLETE_RUN_VALUES "events=events\ncgroup-parent=none\n"

struct cgs_command {
	const char *name;        /* cgscale NAME; its page is cgscale-NAME(1) */
	const char *summary;     /* one line: cgscale --help and cgscale(1) */
	/* the command, with argv[0] = NAME: returns the exit status */
	int (*fn)(const struct cgs_command *self, int argc, char **argv);
	/* its option table, with base NULL; { 0 }: none */
	struct cgs_optset opts;
	/* when its page or completion has other tables than opts: put them
	 * in @sets (at most @max); returns how many */
	size_t (*doc_sets)(enum cgs_doc_use use, struct cgs_optset *sets,
			   size_t max);
	/* --help: help_head, the option tables, help_more(), help_tail */
	const char *help_head, *help_tail;
	void (*help_more)(FILE *out);
	bool help_omits_opts;    /* the head names them instead ([run options]) */
	const char *err_who;     /* errors say "cgscale WHO: "; NULL: "cgscale: " */
	/* the page: roff, with the lines @SYNOPSIS@ (help_head's usage
	 * lines), @HELP_HEAD@ (the rest of help_head), @OPTIONS@ (the tables
	 * of doc_sets, else opts), @HELP_MORE@ and @HELP_TAIL@ (what --help
	 * prints after the tables), @WORKLOADS@, @COMMANDS@, @SEEALSO@ (the
	 * command list) and @VERSION@ anywhere replaced; the help texts keep
	 * to the shapes of lib/helpman.h, so the page holds all of --help */
	const char *man;
	/* completion: the positional arguments ("-f": files,
	 * CGS_COMPLETE_WORKLOADS), NULL: none; the options whose values the
	 * tables do not say, "NAME=KIND" lines, KIND "events" (a comma list
	 * of `cgscale events`) or "none"; bash lines before the `case "$cmd"`
	 * of every command, and zsh's whole arm of this command (both for a
	 * command with subcommands) */
	const char *complete_args, *complete_values;
	void (*complete_head)(FILE *out);
	void (*complete_zsh)(FILE *out);
};

/* The commands and the top page, as main() and gendoc.c take them. */
struct cgs_cmdtab {
	const struct cgs_command *const *cmds;
	size_t n;
	const char *man;         /* cgscale(1) */
	/* `cgscale --help`: the head, the commands, the tail */
	const char *help_head, *help_tail;
};

/* Each command's row: cgs_cmd_NAME, defined in runner/cmd/NAME.c. */
#define CGS_COMMAND(n) extern const struct cgs_command cgs_cmd_##n;
#include "runner/cmd/commands.h"
#undef CGS_COMMAND

/* At most this many tables a command documents (run's and the
 * workloads'; cmd.c checks it against CGS_RUN_MAX_SETS). */
#define CGS_CMD_MAX_DOC_SETS 128

/* The option tables of @c for @use into @sets (CGS_CMD_MAX_DOC_SETS of
 * them): doc_sets, else opts; returns how many. */
size_t cgs_cmd_doc_sets(const struct cgs_command *c, enum cgs_doc_use use,
			struct cgs_optset *sets);

/* Every command of commands.h, in its order (commands.c). */
extern const struct cgs_cmdtab cgs_cmdtab;

/* The command called @name, or NULL. */
const struct cgs_command *cgs_cmd_find(const struct cgs_cmdtab *t,
				       const char *name);

/* `cgscale --help`: the usage and one line per command. */
void cgs_cmd_top_usage(const struct cgs_cmdtab *t, FILE *out);

/* The --help of @c: head, the tables of @sets (unless help_omits_opts),
 * help_more, tail. */
void cgs_cmd_help(const struct cgs_command *c, const struct cgs_optset *sets,
		  size_t nsets, FILE *out);

/*
 * The opening every command shares, once its tables' defaults are in:
 * parse argv against @sets. -1 to go on, with the positional arguments
 * from argv[*@first]; else the exit status: 0 after --help or -h (on
 * stdout), CGS_EXIT_BADINPUT after a bad option, said in one line on
 * stderr ("cgscale[ WHO]: message; see --help").
 */
int cgs_cmd_parse(const struct cgs_command *c, struct cgs_optset *sets,
		  size_t nsets, int argc, char **argv, int *first);
/* The same, with the first row of each set the command line gave in
 * @given[nsets] (lib/opt.h cgs_opt_parse_given). */
int cgs_cmd_parse_given(const struct cgs_command *c, struct cgs_optset *sets,
			size_t nsets, int argc, char **argv, int *first,
			const struct cgs_opt **given);

/* The same for a command of one table, c->opts: check it and fill in its
 * defaults in @base first (CGS_EXIT_INTERNAL when that fails: a broken
 * table). @set becomes that table; the caller frees it (cgs_opt_free). */
int cgs_cmd_open(const struct cgs_command *c, struct cgs_optset *set,
		 void *base, int argc, char **argv, int *first);

#endif
