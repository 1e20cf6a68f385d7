/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt.c - the typed option table engine: values, defaults, ranges, help
 * and the echo of effective values into results (the check of a table is
 * opt_check.c's, the command line opt_parse.c's). See opt.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/opt.h"
#include "lib/util.h"
#include "lib/macros.h"

static void *opt_field(const struct cgs_opt *o, void *base)
{
	return (char *)base + o->offset;
}

static void fmt_bound(const struct cgs_opt *o, int64_t v, char *buf,
		      size_t len)
{
	if (o->type == CGS_OPT_DURATION)
		cgs_fmt_duration(v, buf, len);
	else if (o->type == CGS_OPT_SIZE)
		cgs_fmt_size(v, buf, len);
	else
		snprintf(buf, len, "%" PRId64, v);
}

/* INT_OR's keywords for a message: " or auto", ", auto or none". */
static void key_list(const struct cgs_opt *o, char *buf, size_t len)
{
	size_t n = 0, k;

	buf[0] = 0;
	for (k = 0; o->type == CGS_OPT_INT_OR && o->keys[k].name; k++)
		;
	for (size_t i = 0; i < k && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i + 1 == k ? " or " : ", ",
			      o->keys[i].name);
}

static int set_ranged(const struct cgs_opt *o, void *base, const char *val,
		      char *err, size_t errlen)
{
	static const char *const what[] = {
		[CGS_OPT_INT] = "a whole number such as 4",
		[CGS_OPT_DURATION] = "a duration such as 5s, 500ms or 1.5",
		[CGS_OPT_SIZE] = "a size such as 10K (10240) or 128M",
		[CGS_OPT_INT_OR] = "a whole number such as 4",
	};
	char lo[32], hi[32], keys[128];
	int64_t v;
	int rc;

	for (size_t i = 0; o->type == CGS_OPT_INT_OR && o->keys[i].name; i++)
		if (!strcmp(val, o->keys[i].name)) {
			*(int64_t *)opt_field(o, base) = o->keys[i].value;
			return 0;
		}
	key_list(o, keys, sizeof(keys));
	if (o->type == CGS_OPT_DURATION)
		rc = cgs_parse_duration(val, &v);
	else if (o->type == CGS_OPT_SIZE)
		rc = cgs_parse_size(val, &v);
	else
		rc = cgs_parse_int(val, &v);
	if (rc)
		return cgs_errf(err, errlen, -EINVAL, "--%s: '%s' is not %s%s",
			       o->name, val, what[o->type], keys);
	if (v < o->min || v > o->max) {
		fmt_bound(o, o->min, lo, sizeof(lo));
		fmt_bound(o, o->max, hi, sizeof(hi));
		return cgs_errf(err, errlen, -EINVAL,
			       "--%s: '%s' is out of range; give a value from %s to %s%s",
			       o->name, val, lo, hi, keys);
	}
	*(int64_t *)opt_field(o, base) = v;
	return 0;
}

static int set_number(const struct cgs_opt *o, void *base, const char *val,
		      char *err, size_t errlen)
{
	char ex[32];
	double v;

	if (!cgs_parse_number(val, &v) && v >= o->dmin && v <= o->dmax) {
		*(double *)opt_field(o, base) = v;
		return 0;
	}
	/* the example lies in the range: the default, else an end of it */
	if (o->def)
		snprintf(ex, sizeof(ex), "%s", o->def);
	else
		snprintf(ex, sizeof(ex), "%g", isinf(o->dmax) ? fmax(o->dmin, 2) : o->dmax);
	if (isinf(o->dmax))
		return cgs_errf(err, errlen, -EINVAL,
			       "--%s: '%s' is not a number of at least %g; give a plain decimal such as %s",
			       o->name, val, o->dmin, ex);
	return cgs_errf(err, errlen, -EINVAL,
		       "--%s: '%s' is not a number from %g to %g; give a plain decimal such as %s",
		       o->name, val, o->dmin, o->dmax, ex);
}

static int set_enum(const struct cgs_opt *o, void *base, const char *val,
		    char *err, size_t errlen)
{
	char list[256] = "";

	for (int i = 0; o->choices[i]; i++) {
		if (!strcmp(val, o->choices[i])) {
			*(int *)opt_field(o, base) = i;
			return 0;
		}
		if (i)
			strncat(list, "|", sizeof(list) - strlen(list) - 1);
		strncat(list, o->choices[i], sizeof(list) - strlen(list) - 1);
	}
	return cgs_errf(err, errlen, -EINVAL, "--%s: '%s' is not one of %s", o->name,
		       val, list);
}

static int set_bool(const struct cgs_opt *o, void *base, const char *val,
		    char *err, size_t errlen)
{
	bool *b = opt_field(o, base);

	if (!val || !strcmp(val, "1") || !strcmp(val, "yes") ||
	    !strcmp(val, "true"))
		*b = true;
	else if (!strcmp(val, "0") || !strcmp(val, "no") ||
		 !strcmp(val, "false"))
		*b = false;
	else
		return cgs_errf(err, errlen, -EINVAL, "--%s: '%s' is not yes or no",
			       o->name, val);
	return 0;
}

/* A value the row's type refused, said in the row's own words (.bad). */
static int set_checked(const struct cgs_opt *o, void *base, const char *val,
		       char *err, size_t errlen)
{
	int rc;

	if (o->type == CGS_OPT_NUMBER)
		rc = set_number(o, base, val, err, errlen);
	else if (o->type == CGS_OPT_ENUM)
		rc = set_enum(o, base, val, err, errlen);
	else
		rc = set_ranged(o, base, val, err, errlen);
	if (rc == -EINVAL && o->bad)
		return cgs_errf(err, errlen, rc, "--%s '%s'%s", o->name, val, o->bad);
	return rc;
}

int cgs_opt_set(const struct cgs_opt *o, void *base, const char *val,
		char *err, size_t errlen)
{
	void *f = opt_field(o, base);

	switch (o->type) {
	case CGS_OPT_BOOL:
		return set_bool(o, base, val, err, errlen);
	case CGS_OPT_INT:
	case CGS_OPT_DURATION:
	case CGS_OPT_SIZE:
	case CGS_OPT_INT_OR:
	case CGS_OPT_NUMBER:
	case CGS_OPT_ENUM:
		return set_checked(o, base, val, err, errlen);
	case CGS_OPT_STRING:
	case CGS_OPT_OPTSTR: {
		char *copy;

		/* "--name=" is neither --name (the default) nor a value */
		if (o->type == CGS_OPT_OPTSTR && val && !*val)
			return cgs_errf(err, errlen, -EINVAL,
					"--%s=: an empty value; give --%s alone for its default, or --%s=%s",
					o->name, o->name, o->name, cgs_opt_metavar(o));
		copy = strdup(val ? val : "");

		if (!copy)
			return -ENOMEM;
		free(*(char **)f);
		*(char **)f = copy;
		return 0;
	}
	case CGS_OPT_STRLIST: {
		struct cgs_strlist *l = f;
		char **v = realloc(l->v, (l->n + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		if (!(l->v[l->n] = strdup(val)))
			return -ENOMEM;
		l->n++;
		return 0;
	}
	}
	return cgs_errf(err, errlen, -EINVAL, "--%s: unknown option type", o->name);
}

int cgs_opt_defaults(const struct cgs_optset *set, char *err, size_t errlen)
{
	for (size_t i = 0; i < set->nopts; i++) {
		const struct cgs_opt *o = &set->opts[i];
		int rc;

		if (!o->def)
			continue;
		rc = cgs_opt_set(o, set->base, o->def, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

void cgs_opt_free(const struct cgs_optset *set)
{
	for (size_t i = 0; i < set->nopts; i++) {
		const struct cgs_opt *o = &set->opts[i];
		void *f = opt_field(o, set->base);

		if (o->type == CGS_OPT_STRING || o->type == CGS_OPT_OPTSTR) {
			free(*(char **)f);
			*(char **)f = NULL;
		} else if (o->type == CGS_OPT_STRLIST) {
			struct cgs_strlist *l = f;

			for (size_t k = 0; k < l->n; k++)
				free(l->v[k]);
			free(l->v);
			l->v = NULL;
			l->n = 0;
		}
	}
}

const char *cgs_opt_metavar(const struct cgs_opt *o)
{
	if (o->metavar)
		return o->metavar;
	switch (o->type) {
	case CGS_OPT_INT: return "N";
	case CGS_OPT_INT_OR: return "N";
	case CGS_OPT_DURATION: return "TIME";
	case CGS_OPT_SIZE: return "SIZE";
	case CGS_OPT_ENUM: return "WHICH";
	default: return "VALUE";
	}
}

const char *cgs_opt_shown_default(const struct cgs_opt *o)
{
	if (o->type == CGS_OPT_BOOL)
		return NULL;
	if (o->def)
		return o->def;
	switch (o->type) {
	case CGS_OPT_INT:
	case CGS_OPT_DURATION:
	case CGS_OPT_SIZE:
	case CGS_OPT_NUMBER:
		return "0";
	default:
		return NULL;
	}
}

void cgs_opt_help(const struct cgs_optset *set, FILE *out)
{
	if (set->title)
		fprintf(out, "\n%s:\n", set->title);
	for (size_t i = 0; i < set->nopts; i++) {
		const struct cgs_opt *o = &set->opts[i];
		char left[64], extra[160] = "";

		if (o->type == CGS_OPT_BOOL)
			snprintf(left, sizeof(left), "%c%c%s--%s",
				 o->short_name ? '-' : ' ',
				 o->short_name ? o->short_name : ' ',
				 o->short_name ? ", " : "  ", o->name);
		else if (o->type == CGS_OPT_OPTSTR)
			snprintf(left, sizeof(left), "    --%s[=%s]", o->name,
				 cgs_opt_metavar(o));
		else
			snprintf(left, sizeof(left), "%c%c%s--%s %s",
				 o->short_name ? '-' : ' ',
				 o->short_name ? o->short_name : ' ',
				 o->short_name ? ", " : "  ", o->name,
				 cgs_opt_metavar(o));
		if (o->type == CGS_OPT_ENUM) {
			size_t n = 0;

			n += snprintf(extra + n, sizeof(extra) - n, " [");
			for (int k = 0; o->choices[k] && n < sizeof(extra); k++)
				n += snprintf(extra + n, sizeof(extra) - n,
					      "%s%s", k ? "|" : "",
					      o->choices[k]);
			if (n < sizeof(extra))
				snprintf(extra + n, sizeof(extra) - n, "]");
		}
		if (cgs_opt_shown_default(o)) {
			size_t n = strlen(extra);

			snprintf(extra + n, sizeof(extra) - n,
				 " (default %s)", cgs_opt_shown_default(o));
		}
		fprintf(out, "  %-28s %s%s\n", left, o->help, extra);
	}
}

/* A NUMBER, or an INT_OR as its keyword or digits; as text when the
 * row asks (echo_text), in the shortest form that reads back exactly. */
static struct json_object *echo_number(const struct cgs_opt *o, void *f)
{
	char buf[40];
	double d;

	if (o->type == CGS_OPT_INT_OR) {
		for (size_t i = 0; o->keys[i].name; i++)
			if (o->keys[i].value == *(int64_t *)f)
				return json_object_new_string(o->keys[i].name);
		snprintf(buf, sizeof(buf), "%" PRId64, *(int64_t *)f);
		return json_object_new_string(buf);
	}
	d = *(double *)f;
	if (!o->echo_text)
		return json_object_new_double(d);
	/* from as many digits as the whole part has: 5000, not 5e+03 */
	for (int prec = fabs(d) >= 1 ? (int)fmin(17, floor(log10(fabs(d))) + 1) : 1;
	     prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return json_object_new_string(buf);
}

struct json_object *cgs_opt_echo(const struct cgs_optset *set)
{
	struct json_object *obj = json_object_new_object();

	for (size_t i = 0; obj && i < set->nopts; i++) {
		const struct cgs_opt *o = &set->opts[i];
		void *f = opt_field(o, set->base);
		struct json_object *v = NULL;

		switch (o->type) {
		case CGS_OPT_BOOL:
			v = json_object_new_boolean(*(bool *)f);
			break;
		case CGS_OPT_INT:
		case CGS_OPT_SIZE:
			v = json_object_new_int64(*(int64_t *)f);
			break;
		case CGS_OPT_DURATION:
			v = json_object_new_double(*(int64_t *)f / 1e9);
			break;
		case CGS_OPT_NUMBER:
		case CGS_OPT_INT_OR:
			v = echo_number(o, f);
			break;
		case CGS_OPT_ENUM:
			v = json_object_new_string(o->choices[*(int *)f]);
			break;
		case CGS_OPT_STRING:
		case CGS_OPT_OPTSTR:
			v = *(char **)f ? json_object_new_string(*(char **)f)
					: NULL;
			break;
		case CGS_OPT_STRLIST: {
			struct cgs_strlist *l = f;

			v = json_object_new_array();
			for (size_t k = 0; v && k < l->n; k++)
				json_object_array_add(v,
					json_object_new_string(l->v[k]));
			break;
		}
		}
		json_object_object_add(obj, o->name, v);
	}
	return obj;
}
