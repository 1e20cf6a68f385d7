/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt_value.c - the value syntax shared by the option tables and the
 * rest: durations ("5s", "500ms", "1.5"), sizes ("10K" = 10240, "10k" =
 * 10000), whole numbers, plain decimals, and their shortest exact text.
 * See opt.h.
 *
 * One strict grammar for every number a user types: decimal digits, at
 * most one '.' with digits on both sides, a '-' only where negative
 * values make sense and never before zero; no '+', spaces, hex, octal,
 * exponents, "inf" or "nan", and nothing after it but a unit where the
 * type has units. strtod/strtoll take all of those, so they only convert
 * what this grammar has accepted.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opt.h"
#include "lib/macros.h"

#define NSEC_PER_SEC ((int64_t)1000000000)

/* The length of "D+" or, with @frac, "D+(.D+)?" at @s; 0: none. */
static size_t digits_len(const char *s, bool frac)
{
	size_t n = 0, f = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	if (!n || !frac || s[n] != '.')
		return n;
	while (isdigit((unsigned char)s[n + 1 + f]))
		f++;
	return f ? n + 1 + f : 0;   /* "5." is not a number */
}

/* "-0", "-0.00": a minus before zero is a typo or a trick, never meant. */
static bool negative_zero(const char *s, size_t n)
{
	if (*s != '-')
		return false;
	for (size_t i = 1; i < n; i++)
		if (s[i] != '0' && s[i] != '.')
			return false;
	return true;
}

/* A number of the grammar at the start of @s (a '-' with @neg): its
 * length, or 0 when there is none. */
static size_t number_len(const char *s, bool neg, bool frac)
{
	size_t sign, n;

	if (!s)
		return 0;
	sign = neg && *s == '-';
	n = digits_len(s + sign, frac);
	if (!n || negative_zero(s, sign + n))
		return 0;
	return sign + n;
}

/* Split "1.5ms" into a finite non-negative number and its unit. */
static int split_number(const char *s, double *num, const char **unit)
{
	size_t n = number_len(s, false, true);

	if (!n)
		return -EINVAL;
	errno = 0;
	*num = strtod(s, NULL);
	if (errno || !isfinite(*num))
		return -EINVAL;
	*unit = s + n;
	return 0;
}

struct unit {
	const char *name;
	double mul;
};

/* A number and one of @units; @whole: the result must be an integer. */
static int parse_scaled(const char *s, const struct unit *units, size_t n,
			bool whole, int64_t *out)
{
	const char *unit;
	double num;

	if (split_number(s, &num, &unit))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		double v = num * units[i].mul;

		if (strcmp(unit, units[i].name))
			continue;
		if (v > 9.2e18 || (whole && v != floor(v)))
			return -EINVAL;
		*out = whole ? (int64_t)v : (int64_t)llround(v);
		return 0;
	}
	return -EINVAL;
}

int cgs_parse_duration(const char *s, int64_t *ns)
{
	static const struct unit units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
		{ "ns", 1 }, { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};

	return parse_scaled(s, units, ARRAY_SIZE(units), false, ns);
}

int cgs_parse_size(const char *s, int64_t *bytes)
{
	/* netperf's convention: K/M/G are powers of 1024, k/m/g of 1000 */
	static const struct unit units[] = {
		{ "", 1 }, { "B", 1 },
		{ "K", 1024.0 }, { "KiB", 1024.0 }, { "k", 1e3 },
		{ "M", 1048576.0 }, { "MiB", 1048576.0 }, { "m", 1e6 },
		{ "G", 1073741824.0 }, { "GiB", 1073741824.0 }, { "g", 1e9 },
		{ "T", 1099511627776.0 }, { "TiB", 1099511627776.0 },
	};

	return parse_scaled(s, units, ARRAY_SIZE(units), true, bytes);
}

int cgs_parse_int(const char *s, int64_t *v)
{
	size_t n = number_len(s, true, false);
	long long x;

	if (!n || s[n])
		return -EINVAL;
	errno = 0;
	x = strtoll(s, NULL, 10);
	if (errno)                  /* beyond int64: not silently clamped */
		return -EINVAL;
	*v = x;
	return 0;
}

int cgs_parse_number(const char *s, double *v)
{
	size_t n = number_len(s, true, true);
	double x;

	if (!n || s[n])
		return -EINVAL;
	errno = 0;
	x = strtod(s, NULL);
	if (errno || !isfinite(x))
		return -EINVAL;
	*v = x;
	return 0;
}

void cgs_fmt_duration(int64_t ns, char *buf, size_t len)
{
	if (ns % NSEC_PER_SEC == 0)
		snprintf(buf, len, "%" PRId64 "s", ns / NSEC_PER_SEC);
	else if (ns % 1000000 == 0)
		snprintf(buf, len, "%" PRId64 "ms", ns / 1000000);
	else if (ns % 1000 == 0)
		snprintf(buf, len, "%" PRId64 "us", ns / 1000);
	else
		snprintf(buf, len, "%" PRId64 "ns", ns);
}

void cgs_fmt_size(int64_t b, char *buf, size_t len)
{
	if (b && b % 1073741824 == 0)
		snprintf(buf, len, "%" PRId64 "G", b / 1073741824);
	else if (b && b % 1048576 == 0)
		snprintf(buf, len, "%" PRId64 "M", b / 1048576);
	else if (b && b % 1024 == 0)
		snprintf(buf, len, "%" PRId64 "K", b / 1024);
	else
		snprintf(buf, len, "%" PRId64, b);
}
