/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt_check.c - the start-up check of an option table (opt.h): what the
 * compiler cannot see in a row (its field's type is checked there) is
 * refused here, before any option is parsed: a row without a name or help,
 * a field its type does not use, an empty range, a keyword inside the
 * range, a default that does not parse, a name given twice.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lib/opt.h"
#include "lib/util.h"

static bool is_ranged(enum cgs_opt_type t)
{
	return t == CGS_OPT_INT || t == CGS_OPT_DURATION || t == CGS_OPT_SIZE ||
	       t == CGS_OPT_INT_OR;
}

/* The fields of @o its type uses, and the ranges they give. */
static int check_fields(const struct cgs_opt *o, const char *owner, char *err,
			size_t errlen)
{
	const char *why = NULL;

	if (o->choices && o->type != CGS_OPT_ENUM)
		why = ".choices is for ENUM rows only";
	else if (o->keys && o->type != CGS_OPT_INT_OR)
		why = ".keys is for INT_OR rows only";
	else if (o->type != CGS_OPT_NUMBER && (o->dmin || o->dmax || o->echo_text))
		why = ".dmin, .dmax and .echo_text are for NUMBER rows only";
	else if (!is_ranged(o->type) && (o->min || o->max))
		why = ".min and .max are for INT, DURATION, SIZE and INT_OR rows only";
	else if ((o->type == CGS_OPT_ENUM && (!o->choices || !o->choices[0])) ||
		 (o->type == CGS_OPT_INT_OR && (!o->keys || !o->keys[0].name)))
		why = "has no choices";
	if (why)
		return cgs_errf(err, errlen, -EINVAL, "%s: --%s: %s", owner,
				o->name, why);
	if ((is_ranged(o->type) && o->min > o->max) ||
	    (o->type == CGS_OPT_NUMBER && !(o->dmin <= o->dmax)))
		return cgs_errf(err, errlen, -EINVAL, "%s: --%s has min > max",
				owner, o->name);
	for (size_t k = 0; o->type == CGS_OPT_INT_OR && o->keys[k].name; k++)
		if (o->keys[k].value >= o->min && o->keys[k].value <= o->max)
			return cgs_errf(err, errlen, -EINVAL,
					"%s: --%s: keyword %s is a value of the range",
					owner, o->name, o->keys[k].name);
	return 0;
}

/* @o's default parses (into scratch storage: strings need no check). */
static int check_default(const struct cgs_opt *o, const char *owner, char *err,
			 size_t errlen)
{
	union { int64_t i; double d; int e; bool b; } scratch;
	struct cgs_opt c = *o;
	char why[200];

	if (!o->def || o->type == CGS_OPT_STRING || o->type == CGS_OPT_OPTSTR ||
	    o->type == CGS_OPT_STRLIST)
		return 0;
	c.offset = 0;
	if (cgs_opt_set(&c, &scratch, o->def, why, sizeof(why)))
		return cgs_errf(err, errlen, -EINVAL, "%s: the default of %s", owner,
				why);
	return 0;
}

int cgs_opt_check_table(const struct cgs_opt *opts, size_t nopts,
			const char *owner, char *err, size_t errlen)
{
	for (size_t i = 0; i < nopts; i++) {
		const struct cgs_opt *o = &opts[i];
		int rc;

		if (!o->name || !*o->name || !o->help || !*o->help)
			return cgs_errf(err, errlen, -EINVAL,
				       "%s: option %zu lacks a name or help",
				       owner, i);
		if ((unsigned)o->type > CGS_OPT_INT_OR)
			return cgs_errf(err, errlen, -EINVAL,
					"%s: --%s has an unknown type", owner, o->name);
		/* --help and the page say it once, from the help text */
		if (o->type == CGS_OPT_STRLIST && !strcasestr(o->help, "repeatable"))
			return cgs_errf(err, errlen, -EINVAL,
					"%s: --%s is repeatable, and its help does not say so",
					owner, o->name);
		rc = check_fields(o, owner, err, errlen);
		if (!rc)
			rc = check_default(o, owner, err, errlen);
		if (rc)
			return rc;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(opts[k].name, o->name) ||
			    (o->short_name &&
			     o->short_name == opts[k].short_name))
				return cgs_errf(err, errlen, -EINVAL,
					       "%s: --%s is declared twice",
					       owner, o->name);
	}
	return 0;
}
