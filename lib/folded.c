/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folded.c - collapsed stacks and what is derived from them (folded.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/folded.h"

#define MAX_FRAMES 256

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int rehash(struct cgs_stacks *s, size_t nslots)
{
	size_t *slot = calloc(nslots, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		size_t k = hash(s->v[i].stack) & (nslots - 1);

		while (slot[k])
			k = (k + 1) & (nslots - 1);
		slot[k] = i + 1;
	}
	free(s->slot);
	s->slot = slot;
	s->nslots = nslots;
	return 0;
}

/* The entry of @stack, or NULL. */
struct cgs_stack *cgs_stacks_find(const struct cgs_stacks *s, const char *stack)
{
	if (!s->nslots)
		return NULL;
	for (size_t k = hash(stack) & (s->nslots - 1); s->slot[k];
	     k = (k + 1) & (s->nslots - 1))
		if (!strcmp(s->v[s->slot[k] - 1].stack, stack))
			return &s->v[s->slot[k] - 1];
	return NULL;
}

int cgs_stacks_add(struct cgs_stacks *s, const char *stack, uint64_t count)
{
	size_t k;

	if ((s->n + 1) * 2 > s->nslots &&
	    rehash(s, s->nslots ? 2 * s->nslots : 256))
		return -ENOMEM;
	for (k = hash(stack) & (s->nslots - 1); s->slot[k];
	     k = (k + 1) & (s->nslots - 1))
		if (!strcmp(s->v[s->slot[k] - 1].stack, stack)) {
			s->v[s->slot[k] - 1].count += count;
			s->total += count;
			return 0;
		}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct cgs_stack *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n].stack = strdup(stack);
	if (!s->v[s->n].stack)
		return -ENOMEM;
	s->v[s->n].count = count;
	s->slot[k] = ++s->n;
	s->total += count;
	return 0;
}

int cgs_stacks_parse(struct cgs_stacks *s, const char *text, size_t *bad_line)
{
	size_t line = 0;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char *buf = strndup(text, len), *sp, *end;
		unsigned long long c;
		int rc = 0;

		line++;
		if (!buf)
			return -ENOMEM;
		sp = strrchr(buf, ' ');
		if (len && (!sp || sp == buf || !sp[1])) {
			rc = -EINVAL;
		} else if (len) {
			errno = 0;
			c = strtoull(sp + 1, &end, 10);
			if (errno || *end || sp[1] == '-')
				rc = -EINVAL;
			*sp = 0;
			if (!rc)
				rc = cgs_stacks_add(s, buf, c);
		}
		free(buf);
		if (rc) {
			if (bad_line)
				*bad_line = line;
			return rc;
		}
		text += len + (nl != NULL);
	}
	return 0;
}

static int stack_cmp(const void *a, const void *b)
{
	const struct cgs_stack *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->stack, y->stack);
}

void cgs_stacks_sort(struct cgs_stacks *s)
{
	free(s->slot);
	s->slot = NULL;
	s->nslots = 0;
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), stack_cmp);
}

int cgs_stacks_bound(struct cgs_stacks *s, double share, size_t max)
{
	uint64_t kept = 0, rest = 0;
	size_t keep = 0;
	char *other;

	while (keep < s->n && keep < max &&
	       (double)kept < share * (double)s->total)
		kept += s->v[keep++].count;
	if (keep == s->n)
		return 0;
	for (size_t i = keep; i < s->n; i++) {
		rest += s->v[i].count;
		free(s->v[i].stack);
	}
	other = strdup(CGS_FOLDED_OTHER);
	if (!other) {
		s->n = keep;
		return -ENOMEM;
	}
	s->v[keep].stack = other;
	s->v[keep].count = rest;
	s->n = keep + 1;
	return 0;
}

void cgs_stacks_write(const struct cgs_stacks *s, FILE *out)
{
	for (size_t i = 0; i < s->n; i++)
		fprintf(out, "%s %" PRIu64 "\n", s->v[i].stack, s->v[i].count);
}

void cgs_stacks_free(struct cgs_stacks *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].stack);
	free(s->v);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

/* Split a copy of @stack into frames; returns how many (<= MAX_FRAMES). */
static size_t split(char *copy, char **fr)
{
	size_t n = 0;

	for (char *p = copy, *save = NULL; n < MAX_FRAMES;
	     p = NULL) {
		char *f = strtok_r(p, ";", &save);

		if (!f)
			break;
		fr[n++] = f;
	}
	return n;
}

static int symcount_cmp(const void *a, const void *b)
{
	const struct cgs_symcount *x = a, *y = b;

	if (x->children != y->children)
		return x->children > y->children ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Add @count to frame @f of one stack: children once per stack, self
 * when it is the leaf. */
static int count_frame(struct cgs_stacks *self, struct cgs_stacks *chil,
		       char **fr, size_t i, size_t n, uint64_t count)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(fr[j], fr[i]))
			return 0;    /* recursion: counted at its first place */
	if (cgs_stacks_add(chil, fr[i], count))
		return -ENOMEM;
	return cgs_stacks_add(self, fr[i], strcmp(fr[n - 1], fr[i]) ? 0 : count);
}

int cgs_stacks_symbols(const struct cgs_stacks *s, struct cgs_symcounts *out)
{
	struct cgs_stacks self = { 0 }, chil = { 0 };
	char *fr[MAX_FRAMES];
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; !rc && i < s->n; i++) {
		char *copy = strdup(s->v[i].stack);
		size_t n = copy ? split(copy, fr) : 0;

		if (!copy)
			rc = -ENOMEM;
		for (size_t k = 0; !rc && k < n; k++)
			rc = count_frame(&self, &chil, fr, k, n, s->v[i].count);
		free(copy);
	}
	/* chil and self were filled in the same order: same indexes */
	out->v = rc ? NULL : calloc(chil.n + 1, sizeof(*out->v));
	if (!rc && !out->v)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < chil.n; i++) {
		out->v[i].name = chil.v[i].stack;
		chil.v[i].stack = NULL;
		out->v[i].children = chil.v[i].count;
		out->v[i].self = self.v[i].count;
		out->n++;
	}
	if (!rc && out->n)
		qsort(out->v, out->n, sizeof(*out->v), symcount_cmp);
	cgs_stacks_free(&self);
	cgs_stacks_free(&chil);
	return rc;
}

/* One sample's call-trace keys: frame i and its callers up to @depth. */
static int stack_traces(struct cgs_stacks *all, char **fr, size_t n,
			unsigned depth, uint64_t count)
{
	struct cgs_stacks seen = { 0 };
	char key[4096];
	int rc = 0;

	for (size_t i = n; !rc && i-- > 0;) {
		size_t used = 0;

		if (!strcmp(fr[i], CGS_FOLDED_OTHER))
			continue;
		for (size_t j = i + 1, d = 0; j-- > 0 && d < depth; d++)
			used += (size_t)snprintf(key + used, used < sizeof(key) ?
						 sizeof(key) - used : 0, "%s%s",
						 d ? "." : "", fr[j]);
		if (used >= sizeof(key))
			continue;
		if (cgs_stacks_find(&seen, key))
			continue;     /* once per sample, as children */
		rc = cgs_stacks_add(&seen, key, 1);
		if (!rc)
			rc = cgs_stacks_add(all, key, count);
	}
	cgs_stacks_free(&seen);
	return rc;
}

int cgs_stacks_calltraces(const struct cgs_stacks *s, unsigned depth,
			  struct cgs_stacks *out)
{
	char *fr[MAX_FRAMES];
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; !rc && i < s->n; i++) {
		char *copy = strdup(s->v[i].stack);

		if (!copy)
			return -ENOMEM;
		rc = stack_traces(out, fr, split(copy, fr), depth, s->v[i].count);
		free(copy);
	}
	out->total = s->total;   /* shares are of the samples */
	return rc;
}

void cgs_symcounts_free(struct cgs_symcounts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	memset(c, 0, sizeof(*c));
}
