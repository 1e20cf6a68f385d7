/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo_size.c - how big a --topology is, read from its text before hwloc
 * builds it, so that one too big is refused at once (topo_desc.h).
 *
 * hwloc 2.9 builds a synthetic topology object by object, each one
 * inserted by comparing its cpuset (one bit per PU) with its siblings':
 * the time grows with PUs x objects x the widest level, the memory with
 * objects x PUs. So the size is bounded twice: PUs, and objects under
 * one parent. An XML file is bounded by its bytes, its PU objects and how
 * deep its elements nest (hwloc's XML import recurses once a level).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/core/topo_desc.h"

/* The end of the (...) or [...] group that opens at @s (nesting kept),
 * or NULL when it does not close. */
static const char *group_end(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		depth += *s == '(' || *s == '[';
		depth -= *s == ')' || *s == ']';
		if (!depth)
			return s + 1;
	}
	return NULL;
}

/* The count of one level, "core:56", "Package:2(indexes=...)" or "2",
 * that spans [@s, @e); 0 when it is not one. */
static uint64_t level_count(const char *s, const char *e)
{
	const char *colon = memchr(s, ':', (size_t)(e - s));
	const char *d = colon ? colon + 1 : s;
	uint64_t n = 0;

	if (d == e || *d < '0' || *d > '9')
		return 0;
	for (; d < e && *d >= '0' && *d <= '9'; d++)
		n = n > UINT64_MAX / 10 ? UINT64_MAX : n * 10 + (uint64_t)(*d - '0');
	if (d < e && *d != '(')
		return 0;
	return n;
}

int cgs_topo_synth_size(const char *desc, uint64_t *pus, uint64_t *widest)
{
	const char *s = desc;

	*pus = 1;
	*widest = 0;
	while (*s) {
		const char *e;
		uint64_t n;

		s += strspn(s, " \t\n");
		if (!*s)
			break;
		if (*s == '[' || *s == '(') {    /* memory children, attributes */
			if (!(e = group_end(s)))
				return -EINVAL;
			s = e;
			continue;
		}
		for (e = s; *e && !strchr(" \t\n(", *e); e++)
			;
		if (*e == '(' && !(e = group_end(e)))
			return -EINVAL;
		if (!(n = level_count(s, e)))
			return -EINVAL;
		*pus = *pus > UINT64_MAX / n ? UINT64_MAX : *pus * n;
		*widest = n > *widest ? n : *widest;
		s = e;
	}
	return *widest ? 0 : -EINVAL;
}

enum { X_TEXT, X_LT, X_OPEN, X_CLOSE, X_PI, X_BANG, X_BANG_DASH, X_COMMENT,
       X_CDATA, X_DECL };

/* One character inside a start tag: '>' outside quotes ends it, a level
 * deeper unless it is an empty-element tag (.../>). */
static void open_tag(struct cgs_xml_depth *x, char c)
{
	if (x->quote) {
		x->quote = c == x->quote ? 0 : x->quote;
	} else if (c == '"' || c == '\'') {
		x->quote = c;
	} else if (c == '>') {
		if (x->prev != '/' && ++x->depth > x->max)
			x->max = x->depth;
		x->state = X_TEXT;
	}
	x->prev = c;
}

/* One character of a declaration (<!DOCTYPE ...>, its [...] kept). */
static void decl(struct cgs_xml_depth *x, char c)
{
	if (x->quote)
		x->quote = c == x->quote ? 0 : x->quote;
	else if (c == '"' || c == '\'')
		x->quote = c;
	else if (c == '[')
		x->brackets++;
	else if (c == ']' && x->brackets)
		x->brackets--;
	else if (c == '>' && !x->brackets)
		x->state = X_TEXT;
}

/* In a comment or CDATA: it ends at '>' after two @rep (-->, ]]>). */
static void until(struct cgs_xml_depth *x, char c, char rep)
{
	if (c == '>' && x->run >= 2)
		x->state = X_TEXT;
	x->run = c == rep ? x->run + 1 : 0;
}

static void step(struct cgs_xml_depth *x, char c)
{
	switch (x->state) {
	case X_TEXT:
		x->state = c == '<' ? X_LT : X_TEXT;
		break;
	case X_LT:
		x->prev = x->quote = 0;
		x->run = x->brackets = 0;
		x->state = c == '?' ? X_PI : c == '!' ? X_BANG : c == '/' ? X_CLOSE : X_OPEN;
		if (x->state == X_OPEN)
			open_tag(x, c);
		break;
	case X_OPEN:
		open_tag(x, c);
		break;
	case X_CLOSE:
		if (c == '>') {
			x->depth -= x->depth > 0;
			x->state = X_TEXT;
		}
		break;
	case X_PI:
		x->state = c == '>' && x->prev == '?' ? X_TEXT : X_PI;
		x->prev = c;
		break;
	case X_BANG:
	case X_BANG_DASH:
		if (c == '-')
			x->state = x->state == X_BANG ? X_BANG_DASH : X_COMMENT;
		else if (c == '[' && x->state == X_BANG)
			x->state = X_CDATA;
		else {
			x->state = X_DECL;
			decl(x, c);
		}
		break;
	case X_COMMENT:
		until(x, c, '-');
		break;
	case X_CDATA:
		until(x, c, ']');
		break;
	default:
		decl(x, c);
	}
}

void cgs_xml_depth_feed(struct cgs_xml_depth *x, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		step(x, s[i]);
}

int cgs_topo_xml_size(const char *path, uint64_t *pus, char *err, size_t errlen)
{
	static const char pat[] = "type=\"PU\"";
	const size_t pl = sizeof(pat) - 1;
	char buf[65536 + sizeof(pat)];
	struct cgs_xml_depth depth = { 0 };
	size_t keep = 0;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	*pus = 0;
	if (fd < 0)
		return cgs_errf(err, errlen, -ENOENT, "--topology %s: %s", path, strerror(errno));
	if (fstat(fd, &st) || st.st_size > CGS_TOPO_MAX_XML) {
		close(fd);
		return cgs_errf(err, errlen, -EFBIG,
				"--topology %s: larger than %d MiB, more than lstopo writes for %d PUs; describe a smaller machine",
				path, CGS_TOPO_MAX_XML >> 20, CGS_TOPO_MAX_PUS);
	}
	for (;;) {
		ssize_t n = read(fd, buf + keep, sizeof(buf) - keep - 1);
		char *p;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : 0;
			break;
		}
		cgs_xml_depth_feed(&depth, buf + keep, (size_t)n);
		keep += (size_t)n;
		buf[keep] = 0;
		for (p = buf; (p = memmem(p, keep - (size_t)(p - buf), pat, pl)); p += pl)
			(*pus)++;
		/* a pattern cut at the end is found in the next piece */
		n = keep >= pl ? (ssize_t)(pl - 1) : (ssize_t)keep;
		memmove(buf, buf + keep - (size_t)n, (size_t)n);
		keep = (size_t)n;
	}
	close(fd);
	if (rc)
		return cgs_errf(err, errlen, rc, "--topology %s: %s", path, strerror(-rc));
	if (depth.max > CGS_TOPO_MAX_XML_DEPTH)
		return cgs_errf(err, errlen, -E2BIG,
				"--topology %s: nests XML elements %llu deep, more than the %d cgscale reads (a machine's lstopo XML nests 10 to 20); write it with 'lstopo --of xml FILE'",
				path, (unsigned long long)depth.max, CGS_TOPO_MAX_XML_DEPTH);
	return 0;
}

int cgs_topo_size_check(const char *desc, uint64_t pus, uint64_t widest,
			char *err, size_t errlen)
{
	if (pus > CGS_TOPO_MAX_PUS)
		return cgs_errf(err, errlen, -E2BIG,
				"--topology %s: %llu PUs; cgscale plans for at most %d (the most CPUs a Linux kernel is built for: NR_CPUS with MAXSMP); describe a smaller machine",
				desc, (unsigned long long)pus, CGS_TOPO_MAX_PUS);
	if (widest > CGS_TOPO_MAX_ARITY)
		return cgs_errf(err, errlen, -E2BIG,
				"--topology %s: %llu objects under one parent; at most %d (hwloc's time and memory grow with it): add a level, e.g. pack:2 core:%llu",
				desc, (unsigned long long)widest, CGS_TOPO_MAX_ARITY,
				(unsigned long long)(widest + 1) / 2);
	return 0;
}
