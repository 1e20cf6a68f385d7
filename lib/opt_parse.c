/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt_parse.c - a command line into the option tables (lib/opt.h):
 * getopt_long's tables made from the rows, each value set through
 * cgs_opt_set, a single-value option given twice refused.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opt.h"
#include "lib/util.h"

/* Map a getopt return value back to its table entry. */
struct opt_ref {
	struct cgs_optset *set;
	const struct cgs_opt *opt;
};

static size_t count_opts(const struct cgs_optset *sets, size_t nsets)
{
	size_t n = 0;

	for (size_t s = 0; s < nsets; s++)
		n += sets[s].nopts;
	return n;
}

/* The getopt_long tables of @sets: one long option per entry (value
 * 256 + its index in @refs), the short ones in @shorts, then --help. */
static void getopt_tables(struct cgs_optset *sets, size_t nsets,
			  struct option *lopts, struct opt_ref *refs,
			  char *shorts)
{
	size_t k = 0;

	strcpy(shorts, ":h");  /* ':' reports a missing value apart */
	for (size_t s = 0; s < nsets; s++) {
		for (size_t i = 0; i < sets[s].nopts; i++, k++) {
			const struct cgs_opt *o = &sets[s].opts[i];

			refs[k].set = &sets[s];
			refs[k].opt = o;
			lopts[k].name = o->name;
			lopts[k].has_arg = o->type == CGS_OPT_BOOL ? no_argument :
					   o->type == CGS_OPT_OPTSTR ? optional_argument :
					   required_argument;
			lopts[k].val = 256 + (int)k;
			if (o->short_name) {
				size_t l = strlen(shorts);

				shorts[l] = o->short_name;
				if (o->type != CGS_OPT_BOOL)
					shorts[l + 1] = ':';
			}
		}
	}
	lopts[k].name = "help";
	lopts[k].val = 'h';
}

/* What getopt_long's '?' or ':' (@c) was about, as -EINVAL and @err. */
static int getopt_error(int c, char **argv, char *err, size_t errlen)
{
	const char *bad = argv[optind - 1];

	if (c == ':')
		return cgs_errf(err, errlen, -EINVAL, "option %s needs a value", bad);
	if (optopt && optopt < 256)
		return cgs_errf(err, errlen, -EINVAL,
				"unknown option '-%c'; see --help", optopt);
	return cgs_errf(err, errlen, -EINVAL, "unknown option '%s'; see --help",
			bad);
}

int cgs_opt_parse(struct cgs_optset *sets, size_t nsets, int argc,
		  char **argv, int *first_pos, char *err, size_t errlen)
{
	return cgs_opt_parse_given(sets, nsets, argc, argv, first_pos, NULL,
				   err, errlen);
}

int cgs_opt_parse_given(struct cgs_optset *sets, size_t nsets, int argc,
			char **argv, int *first_pos, const struct cgs_opt **given,
			char *err, size_t errlen)
{
	size_t n = count_opts(sets, nsets);
	struct option *lopts = calloc(n + 2, sizeof(*lopts));
	struct opt_ref *refs = calloc(n + 1, sizeof(*refs));
	char *shorts = calloc(2 * n + 4, 1), *seen = calloc(n + 1, 1);
	int rc = 0, c;

	if (!lopts || !refs || !shorts || !seen) {
		rc = -ENOMEM;
		goto out;
	}
	getopt_tables(sets, nsets, lopts, refs, shorts);
	for (size_t s = 0; given && s < nsets; s++)
		given[s] = NULL;
	optind = 0;  /* full re-initialisation, so parsing can run twice */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
		const struct opt_ref *r = NULL;

		if (c == 'h') {
			rc = 1;
			goto out;
		}
		if (c == '?' || c == ':') {
			rc = getopt_error(c, argv, err, errlen);
			goto out;
		}
		if (c >= 256) {
			r = &refs[c - 256];
		} else {
			for (size_t i = 0; i < n && !r; i++)
				if (refs[i].opt->short_name == c)
					r = &refs[i];
		}
		if (!r) {
			rc = cgs_errf(err, errlen, -EINVAL, "unexpected option '%c'", c);
			goto out;
		}
		/* a value given twice would silently replace the first (LKP's
		 * cgscale_opts='-o PATH' beside the program's own -o) */
		if (seen[r - refs]++ && r->opt->type != CGS_OPT_STRLIST &&
		    r->opt->type != CGS_OPT_BOOL) {
			rc = cgs_errf(err, errlen, -EINVAL,
				      "--%s is given twice; give it once (the second would replace the first)",
				      r->opt->name);
			goto out;
		}
		rc = cgs_opt_set(r->opt, r->set->base, optarg, err, errlen);
		if (rc)
			goto out;
		if (given && !given[r->set - sets])
			given[r->set - sets] = r->opt;
	}
	*first_pos = optind;
out:
	free(lopts);
	free(refs);
	free(shorts);
	free(seen);
	return rc;
}
