/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_readback.c - does a knob read back what was written? The kernel
 * takes some values and keeps others: it rounds byte limits down to
 * whole pages, shows "no limit" as "max" on v2 and as the largest page
 * count in bytes on v1, wraps a number beyond 2^64 to what is left of it,
 * clamps cpu.shares to 2..262144, and fills in what a value leaves out
 * (cpu.max "50000" reads "50000 100000"). The families, and what counts
 * as the same value in each:
 *
 *  - byte limits (memory.max, .high, .low, .min, .swap.*, .zswap.max,
 *    memory.*limit_in_bytes, hugetlb.*): the kernel's memparse (base 0,
 *    K/M/G/T/P/E of 1024), rounded down to a page (hugetlb: its page
 *    size); "max", "-1" and anything of at least the largest count mean
 *    no limit. A limit that rounds to 0 from a value that was not 0 is
 *    not the same (a limit of 0 kills the tasks).
 *  - CPU and node lists (cpuset.cpus, .mems, .cpus.exclusive): the same
 *    set ("0,1" reads "0-1").
 *  - everything else: the same text, the same whole number ("0100" is
 *    100), or what was written followed by more words (cpu.max, io.max).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup-setup/cg.h"
#include "lib/util.h"

#define LIST_MAX 65536   /* CPU and node numbers a list may name */

static const char *const byte_knobs[] = {
	"memory.max", "memory.high", "memory.low", "memory.min",
	"memory.swap.max", "memory.swap.high", "memory.zswap.max",
	"memory.limit_in_bytes", "memory.soft_limit_in_bytes",
	"memory.memsw.limit_in_bytes", "memory.kmem.limit_in_bytes",
	"memory.kmem.tcp.limit_in_bytes", NULL,
};

static const char *const list_knobs[] = {
	"cpuset.cpus", "cpuset.mems", "cpuset.cpus.exclusive", NULL,
};

static bool in(const char *const *names, const char *name)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* hugetlb.2MB.limit_in_bytes, hugetlb.1GB.max...: the page size in the
 * name, or 0 when @name is not such a knob. */
static uint64_t hugetlb_page(const char *name)
{
	const char *p = name + strlen("hugetlb.");
	char *end;
	uint64_t n;

	if (strncmp(name, "hugetlb.", 8) || !isdigit((unsigned char)*p))
		return 0;
	n = strtoull(p, &end, 10);
	if (!strncmp(end, "KB.", 3))
		n <<= 10;
	else if (!strncmp(end, "MB.", 3))
		n <<= 20;
	else if (!strncmp(end, "GB.", 3))
		n <<= 30;
	else
		return 0;
	end += 3;
	return !strcmp(end, "limit_in_bytes") || !strcmp(end, "max") ||
	       !strcmp(end, "rsvd.limit_in_bytes") || !strcmp(end, "rsvd.max") ? n : 0;
}

/* The kernel's memparse() of @s: 0, or -ERANGE beyond 2^64 (where the
 * kernel wraps), or -EINVAL when it is not a number it reads. */
static int memparse(const char *s, uint64_t *v)
{
	static const char units[] = "KMGTPE";
	const char *u;
	char *end;
	uint64_t n;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno)
		return -ERANGE;
	if (*end && (u = strchr(units, toupper((unsigned char)*end)))) {
		for (long k = u - units + 1; k > 0; k--) {
			if (n > UINT64_MAX / 1024)
				return -ERANGE;
			n *= 1024;
		}
		end++;
	}
	if (*end)
		return -EINVAL;
	*v = n;
	return 0;
}

/*
 * A byte limit written as @w that reads @r: the kernel counts pages of
 * @page bytes, at most INT64_MAX / @page of them (no limit), and keeps a
 * multiple of @round bytes (a page, or hugetlb's page).
 */
static int same_bytes(const char *w, const char *r, uint64_t page, uint64_t round,
		      char *why, size_t len)
{
	uint64_t top = INT64_MAX / page * page, wb = 0, rb = 0, want;
	bool w_none = !strcmp(w, "max") || !strcmp(w, "-1"), r_none = !strcmp(r, "max");
	int rc = w_none ? 0 : memparse(w, &wb);

	if (rc == -EINVAL)
		return -EINVAL;         /* not ours to read: compare as text */
	if (!r_none && memparse(r, &rb))
		return cgs_errf(why, len, 0, "reads it back as '%s', not a byte count", r);
	if (rc == -ERANGE)
		return cgs_errf(why, len, 0,
				"reads it back as %s: the value is beyond 2^64 bytes, which the kernel wraps; give max (v2) or -1 (v1) for no limit",
				r);
	r_none |= rb > top - round;     /* the top, rounded down (hugetlb) */
	if (w_none || wb > top - round)
		return r_none ? 1 : cgs_errf(why, len, 0, "reads it back as %s, a limit, where no limit was asked for", r);
	want = wb / round * round;
	if (r_none || rb != want)
		return cgs_errf(why, len, 0, "reads it back as %s, not %" PRIu64 " (%s rounded down to a whole %" PRIu64 "-byte page)",
				r, want, w, round);
	if (!want && wb)
		return cgs_errf(why, len, 0,
				"reads it back as 0: the kernel counts whole %" PRIu64 "-byte pages, and a limit of 0 lets no task run; give at least %" PRIu64,
				round, round);
	return 1;
}

/* @s as a canonical list ("0-3,8") into @out; -EINVAL when it is not a
 * list of numbers and ranges. */
static int list_norm(const char *s, char *out, size_t len)
{
	unsigned char *bits = calloc(LIST_MAX / 8, 1);
	size_t used = 0;
	int rc = 0;

	if (!bits)
		return -ENOMEM;
	for (const char *p = s; *p && !rc;) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p || !isdigit((unsigned char)*p))
			rc = -EINVAL;
		else if (*end == '-' && isdigit((unsigned char)end[1]))
			b = strtoul(end + 1, &end, 10);
		if (!rc && (b < a || b >= LIST_MAX || (*end && *end != ',')))
			rc = -EINVAL;
		for (unsigned long i = a; !rc && i <= b; i++)
			bits[i / 8] |= (unsigned char)(1u << (i % 8));
		p = *end ? end + 1 : end;
	}
	out[0] = 0;
	for (unsigned long i = 0; !rc && i < LIST_MAX; i++) {
		unsigned long j = i;

		if (!(bits[i / 8] & (1u << (i % 8))))
			continue;
		while (j + 1 < LIST_MAX && bits[(j + 1) / 8] & (1u << ((j + 1) % 8)))
			j++;
		used += (size_t)snprintf(out + used, used < len ? len - used : 0,
					 j > i ? "%s%lu-%lu" : "%s%lu", used ? "," : "", i, j);
		i = j;
	}
	free(bits);
	return !rc && used >= len ? -ENAMETOOLONG : rc;
}

/* Whole numbers both: the same one. -EINVAL when either is not one. */
static int same_int(const char *w, const char *r)
{
	char *e1, *e2;
	long long a, b;

	errno = 0;
	a = strtoll(w, &e1, 10);
	b = strtoll(r, &e2, 10);
	if (errno || e1 == w || e2 == r || *e1 || *e2 || !isdigit((unsigned char)w[*w == '-']) ||
	    !isdigit((unsigned char)r[*r == '-']))
		return -EINVAL;
	return a == b;
}

/* @r is @w, or @w followed by a blank and more words. */
static bool same_words(const char *w, const char *r)
{
	size_t n = strlen(w);

	return !strncmp(w, r, n) && (!r[n] || r[n] == ' ');
}

int cg_knob_same(const char *name, const char *written, const char *read,
		 uint64_t page, char *why, size_t len)
{
	char r[4096], a[4096], b[4096];
	uint64_t huge = hugetlb_page(name);
	int rc;

	/* one line, blanks folded: "50000 100000\n" is "50000 100000" */
	snprintf(r, sizeof(r), "%s", read);
	for (char *c = r; *c; c++)
		if (*c == '\n' || *c == '\t')
			*c = ' ';
	while (*r && r[strlen(r) - 1] == ' ')
		r[strlen(r) - 1] = 0;
	if (!strcmp(r, written))
		return 1;
	if (in(byte_knobs, name) || huge) {
		rc = same_bytes(written, r, page, huge ? huge : page, why, len);
		if (rc != -EINVAL)
			return rc;
	}
	if (in(list_knobs, name) && !list_norm(written, a, sizeof(a)) &&
	    !list_norm(r, b, sizeof(b)))
		return !strcmp(a, b) ? 1 : cgs_errf(why, len, 0, "reads it back as '%s'", r);
	rc = same_int(written, r);
	if (rc == 1 || (rc < 0 && same_words(written, r)))
		return 1;
	return cgs_errf(why, len, 0, "reads it back as '%s'", r);
}
