/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt.h - one typed option table drives parsing, defaults, range checks,
 * help and the echo of effective values into the results (fio's idea).
 *
 * The runner's own options and each workload's knobs use the same table
 * type: an entry names a field of a plain struct, of the entry's type (the
 * compiler checks it), so a value is simply a field the code reads, parsed
 * once into its final type; there are no string look-ups at run time.
 */
#ifndef CGS_OPT_H
#define CGS_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

enum cgs_opt_type {
	CGS_OPT_BOOL,      /* bool; a flag that takes no value */
	CGS_OPT_INT,       /* int64_t, in [min, max] */
	CGS_OPT_DURATION,  /* int64_t nanoseconds: "5", "5s", "500ms", "1.5s" */
	CGS_OPT_SIZE,      /* int64_t bytes: "10K" = 10240, "10k" = 10000 */
	CGS_OPT_STRING,    /* char *, owned by the options struct */
	CGS_OPT_ENUM,      /* int, the index into choices[] */
	CGS_OPT_STRLIST,   /* struct cgs_strlist: repeatable, each use adds one */
	CGS_OPT_NUMBER,    /* double, finite, in [dmin, dmax] */
	CGS_OPT_OPTSTR,    /* char *: --name (sets "") or --name=VALUE; NULL when absent */
	CGS_OPT_INT_OR,    /* int64_t: in [min, max], or a keyword of keys[]
			    * (its value, outside the range); echoed as text */
};

struct cgs_strlist {
	char **v;
	size_t n;
};

/* A keyword an INT_OR option takes instead of a number ("auto"). */
struct cgs_opt_key {
	const char *name;            /* NULL ends the list */
	int64_t value;
};

struct cgs_opt {
	const char *name;            /* long name, without "--" */
	char short_name;             /* 0 when there is none */
	enum cgs_opt_type type;
	size_t offset;               /* of the field in the options struct */
	const char *def;             /* default, parsed as user input; NULL: zero */
	int64_t min, max;            /* INT, DURATION, SIZE and INT_OR ranges */
	double dmin, dmax;           /* NUMBER range; dmax may be INFINITY */
	const char *const *choices;  /* ENUM: NULL-terminated */
	const struct cgs_opt_key *keys;  /* INT_OR: ended by a NULL name */
	bool echo_text;              /* NUMBER: echoed as a string ("2") */
	const char *bad;             /* a value that does not parse or is out of
				      * range: the text after "--NAME 'VALUE'" in
				      * the message (NULL: the engine's own) */
	const char *metavar;         /* shown in help, e.g. "N" or "LIST" */
	const char *help;
};

/*
 * One table row each, as perf's OPT_UINTEGER(): the long and short name,
 * the options struct T and its field F, then designated fields for the
 * rest: .def (the default as the user would type it; none: zero),
 * .metavar (the value's name in the help; none: by type), .min/.max
 * (.dmin/.dmax for NUMBER), .choices, .keys, .bad, and .help, which every row
 * needs. A field whose type is not the row's fails to compile:
 *
 *	#define RO struct cgs_run_opts
 *	OPT_INT("max-runs", 0, RO, max_runs, .def = "30", .min = 1,
 *		.max = 1000, .help = "at most this many runs a point"),
 */
#define CGS_OPT_FIELD_(T, F, FT, FTNAME) \
	(offsetof(T, F) + 0 * sizeof(struct { \
		_Static_assert(__builtin_types_compatible_p( \
			__typeof__(((T *)0)->F), FT), \
			"option field " #F " is not " FTNAME); \
		int ok_; }))
/* #FT here, where FT is still "bool" and not yet _Bool */
#define CGS_OPT_ROW_(TY, L, S, T, F, FT, ...) \
	{ .name = (L), .short_name = (S), .type = (TY), \
	  .offset = CGS_OPT_FIELD_(T, F, FT, #FT), __VA_ARGS__ }
#define OPT_BOOL(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_BOOL, L, S, T, F, bool, __VA_ARGS__)
#define OPT_INT(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_INT, L, S, T, F, int64_t, __VA_ARGS__)
#define OPT_DURATION(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_DURATION, L, S, T, F, int64_t, __VA_ARGS__)
#define OPT_SIZE(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_SIZE, L, S, T, F, int64_t, __VA_ARGS__)
#define OPT_INT_OR(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_INT_OR, L, S, T, F, int64_t, __VA_ARGS__)
#define OPT_STRING(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_STRING, L, S, T, F, char *, __VA_ARGS__)
#define OPT_OPTSTR(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_OPTSTR, L, S, T, F, char *, __VA_ARGS__)
#define OPT_ENUM(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_ENUM, L, S, T, F, int, __VA_ARGS__)
#define OPT_STRLIST(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_STRLIST, L, S, T, F, struct cgs_strlist, __VA_ARGS__)
#define OPT_NUMBER(L, S, T, F, ...) \
	CGS_OPT_ROW_(CGS_OPT_NUMBER, L, S, T, F, double, __VA_ARGS__)

/* A table together with the struct its entries point into. */
struct cgs_optset {
	const char *title;          /* help section title */
	const struct cgs_opt *opts;
	size_t nopts;
	void *base;                 /* the options struct */
};

/* Fill every field of @set with its default. Returns 0 or -EINVAL. */
int cgs_opt_defaults(const struct cgs_optset *set, char *err, size_t errlen);

/*
 * Parse one value for @o into @base. Returns 0, or -EINVAL with a one-line
 * message in @err that names the option, the problem and the fix.
 */
int cgs_opt_set(const struct cgs_opt *o, void *base, const char *val,
		char *err, size_t errlen);

/*
 * Parse argv against several tables (getopt_long). Positional arguments are
 * left in argv[*first_pos..argc). Returns 0, 1 when --help was asked for, or
 * -EINVAL with the message in @err.
 */
int cgs_opt_parse(struct cgs_optset *sets, size_t nsets, int argc,
		  char **argv, int *first_pos, char *err, size_t errlen);
/* The same, and @given[s] (of @nsets) the first row of set s that the
 * command line gave, or NULL: a knob given for nothing can be refused. */
int cgs_opt_parse_given(struct cgs_optset *sets, size_t nsets, int argc,
			char **argv, int *first_pos, const struct cgs_opt **given,
			char *err, size_t errlen);

/* Free the strings and lists that parsing allocated in @set. */
void cgs_opt_free(const struct cgs_optset *set);

/* The placeholder of @o's value in help: its metavar, else by type. */
const char *cgs_opt_metavar(const struct cgs_opt *o);

/* The default --help and the man page show for @o: its .def; "0" for a
 * number without one (the engine's zero); NULL for a flag, or a string
 * or list without one (its help says what happens then). */
const char *cgs_opt_shown_default(const struct cgs_opt *o);

/* Print the help of @set, one option per line, with default and range. */
void cgs_opt_help(const struct cgs_optset *set, FILE *out);

/* The effective value of every option of @set, as a JSON object. */
struct json_object *cgs_opt_echo(const struct cgs_optset *set);

/*
 * Check a table: names and help, unique names, known types, ranges
 * (min <= max; INT_OR keywords outside the range), only the fields the
 * type uses, and defaults that parse. 0 or -EINVAL with @err.
 */
int cgs_opt_check_table(const struct cgs_opt *opts, size_t nopts,
			const char *owner, char *err, size_t errlen);

/* Shared value parsers, also used outside tables (opt_value.c), of one
 * strict grammar: decimal digits, one '.' with digits on both sides (not
 * for whole numbers), '-' only for cgs_parse_int and cgs_parse_number and
 * never before zero; no '+', space, hex, exponent, inf or nan. A whole
 * number beyond int64_t is refused, not clamped. 0 or -EINVAL. */
int cgs_parse_duration(const char *s, int64_t *ns);
int cgs_parse_size(const char *s, int64_t *bytes);
int cgs_parse_int(const char *s, int64_t *v);
int cgs_parse_number(const char *s, double *v);

/* Format a duration in ns as the shortest exact text ("2s", "10ms"). */
void cgs_fmt_duration(int64_t ns, char *buf, size_t len);

/* Format a size in bytes with the largest exact binary unit ("10K"). */
void cgs_fmt_size(int64_t bytes, char *buf, size_t len);

#endif
