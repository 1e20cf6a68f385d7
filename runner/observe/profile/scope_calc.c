/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scope_calc.c - the samples of `--profile-scope system|cgroup` given to
 * who ran and counted (scope.h); pure, unit-tested on fixed sample
 * buffers. Who, in this order: a sample whose kernel callchain passes
 * through the softirq entry (handle_softirqs, __do_softirq, the softirq
 * entry text) is "softirq" whatever task it interrupted; thread 0 is
 * "idle"; a measured task's thread is "tasks"; a thread of cgscale's own
 * process is "stat_reader" (the reader's thread id) or "runner"; then by
 * comm (from the ring's COMM records, else /proc through the caller's
 * callback): kworker/N, kswapdN, ksoftirqd/N (softirq); else "others",
 * also counted by comm. Each who keeps its samples as folded kernel
 * stacks (user-mode samples as "[user]"), for its top functions.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/folded.h"
#include "lib/irqsite.h"
#include "lib/json.h"
#include "lib/pidmap.h"
#include "runner/observe/profile/scope.h"

#define SC_NCOMM_CACHE 4096   /* thread names known, by tid % this */
#define SC_NCOMM 64           /* others' comms counted apart */
#define SC_TOP 12             /* functions listed per who */

const char *const cgs_scope_names[] = { "tasks", "cgroup", "system", NULL };
const char *const cgs_who_names[] = {
	[CGS_WHO_TASKS] = "tasks", [CGS_WHO_STAT_READER] = "stat_reader",
	[CGS_WHO_RUNNER] = "runner", [CGS_WHO_KWORKER] = "kworker",
	[CGS_WHO_KSWAPD] = "kswapd", [CGS_WHO_SOFTIRQ] = "softirq",
	[CGS_WHO_IDLE] = "idle", [CGS_WHO_OTHERS] = "others",
};

struct sc_comm { int tid; char comm[16]; };
struct sc_count { char comm[16]; uint64_t samples, ns; };

struct cgs_scopecalc {
	struct cgs_scope_ids ids;
	struct cgs_pidmap tasks;
	uint64_t softirq_text[2];
	uint64_t samples[CGS_WHO_N], ns[CGS_WHO_N];
	struct cgs_stacks stacks[CGS_WHO_N];
	struct sc_comm *cache;
	struct sc_count comm[SC_NCOMM + 1];     /* the last: the rest */
	unsigned ncomm;
	uint64_t received, lost, malformed;
	int err;
};

static uint64_t sym_addr(const struct cgs_symtab *t, const char *name)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return t->v[i].addr;
	return 0;
}

struct cgs_scopecalc *cgs_scopecalc_new(const struct cgs_scope_ids *ids)
{
	struct cgs_scopecalc *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->ids = *ids;
	c->cache = calloc(SC_NCOMM_CACHE, sizeof(*c->cache));
	if (!c->cache || cgs_pidmap_build(&c->tasks, ids->task_tid, ids->ntasks)) {
		cgs_scopecalc_free(c);
		return NULL;
	}
	c->softirq_text[0] = sym_addr(ids->ksyms, "__softirqentry_text_start");
	c->softirq_text[1] = sym_addr(ids->ksyms, "__softirqentry_text_end");
	snprintf(c->comm[SC_NCOMM].comm, sizeof(c->comm[0].comm), "[more]");
	return c;
}

void cgs_scopecalc_free(struct cgs_scopecalc *c)
{
	if (!c)
		return;
	for (int w = 0; w < CGS_WHO_N; w++)
		cgs_stacks_free(&c->stacks[w]);
	cgs_pidmap_free(&c->tasks);
	free(c->cache);
	free(c);
}

int cgs_scope_decode(const struct perf_event_header *h, struct cgs_scope_sample *s)
{
	const uint64_t *w = (const uint64_t *)(h + 1);
	const uint64_t *end = (const uint64_t *)((const char *)h + h->size);
	uint64_t nr;
	bool kernel = false;
	uint32_t pt[2];

	if (h->type != PERF_RECORD_SAMPLE || w + 6 > end)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	memcpy(pt, &w[1], 8);
	s->pid = (int)pt[0];
	s->tid = (int)pt[1];
	memcpy(pt, &w[3], 8);
	s->cpu = (int)pt[0];
	s->period = w[4];
	nr = w[5];
	w += 6;
	if (nr > (uint64_t)(end - w))
		return -EINVAL;
	for (uint64_t k = 0; k < nr; k++) {
		if (w[k] >= (uint64_t)PERF_CONTEXT_MAX)
			kernel = w[k] == (uint64_t)PERF_CONTEXT_KERNEL;
		else if (kernel && s->nips < CGS_SCOPE_MAX_STACK)
			s->ips[s->nips++] = w[k];
	}
	s->user = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
	return 0;
}

static bool softirq_frame(const struct cgs_scopecalc *c, uint64_t ip)
{
	const char *n;

	if (c->softirq_text[0] && ip >= c->softirq_text[0] && ip < c->softirq_text[1])
		return true;
	n = c->ids.ksyms ? cgs_symtab_lookup(c->ids.ksyms, ip) : NULL;
	return n && (!strcmp(n, "handle_softirqs") || !strcmp(n, "__do_softirq") ||
		     !strcmp(n, "do_softirq") || !strcmp(n, "run_ksoftirqd"));
}

/* The thread's name: the ring's COMM records, else the caller's. */
static const char *comm_of(const struct cgs_scopecalc *c, int pid, int tid)
{
	struct sc_comm *e = &c->cache[(unsigned)tid % SC_NCOMM_CACHE];
	const char *n;

	if (e->tid == tid && e->comm[0])
		return e->comm;
	n = c->ids.comm ? c->ids.comm(c->ids.comm_arg, pid, tid) : NULL;
	if (!n)
		return NULL;
	e->tid = tid;
	snprintf(e->comm, sizeof(e->comm), "%s", n);
	return e->comm;
}

enum cgs_who cgs_scope_who(const struct cgs_scopecalc *c, const struct cgs_scope_sample *s,
			   const char **comm)
{
	const char *n;

	*comm = NULL;
	for (unsigned i = 0; i < s->nips; i++)
		if (softirq_frame(c, s->ips[i]))
			return CGS_WHO_SOFTIRQ;
	if (!s->tid)
		return CGS_WHO_IDLE;
	if (cgs_pidmap_find(&c->tasks, s->tid) >= 0)
		return CGS_WHO_TASKS;
	if (s->pid == c->ids.runner_pid)
		return c->ids.reader_tid && s->tid == c->ids.reader_tid ? CGS_WHO_STAT_READER
									: CGS_WHO_RUNNER;
	*comm = n = comm_of(c, s->pid, s->tid);
	if (n && !strncmp(n, "kworker/", 8))
		return CGS_WHO_KWORKER;
	if (n && !strncmp(n, "kswapd", 6))
		return CGS_WHO_KSWAPD;
	if (n && !strncmp(n, "ksoftirqd/", 10))
		return CGS_WHO_SOFTIRQ;
	return CGS_WHO_OTHERS;
}

/* The sample's stack, root first: its kernel frames, or "[user]". */
static void fold(const struct cgs_scopecalc *c, const struct cgs_scope_sample *s,
		 char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (unsigned k = s->nips; k-- > 0 && used + 1 < len;) {
		const char *n = c->ids.ksyms ? cgs_symtab_lookup(c->ids.ksyms, s->ips[k]) : NULL;
		char addr[24];
		int w;

		if (!n) {
			snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)s->ips[k]);
			n = addr;
		}
		w = snprintf(buf + used, len - used, "%s%s", used ? ";" : "", n);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	if (s->user || !used)
		snprintf(buf + used, len - used, "%s%s", used ? ";" : "",
			 s->user ? "[user]" : "[unknown]");
}

static void count_comm(struct cgs_scopecalc *c, const char *comm, uint64_t ns)
{
	unsigned i;

	if (!comm)
		comm = "?";
	for (i = 0; i < c->ncomm && strcmp(c->comm[i].comm, comm); i++)
		;
	if (i == c->ncomm && c->ncomm < SC_NCOMM)
		snprintf(c->comm[c->ncomm++].comm, sizeof(c->comm[0].comm), "%s", comm);
	else if (i == c->ncomm)
		i = SC_NCOMM;
	c->comm[i].samples++;
	c->comm[i].ns += ns;
}

static void on_sample(struct cgs_scopecalc *c, const struct perf_event_header *h)
{
	struct cgs_scope_sample s;
	const char *comm;
	enum cgs_who w;
	char stack[4096];

	if (cgs_scope_decode(h, &s)) {
		c->malformed++;
		return;
	}
	c->received++;
	w = cgs_scope_who(c, &s, &comm);
	c->samples[w]++;
	c->ns[w] += s.period;
	if (w == CGS_WHO_OTHERS)
		count_comm(c, comm, s.period);
	fold(c, &s, stack, sizeof(stack));
	if (!c->err)
		c->err = cgs_stacks_add(&c->stacks[w], stack, 1);
}

void cgs_scopecalc_record(struct cgs_scopecalc *c, const struct perf_event_header *h)
{
	const uint32_t *u = (const uint32_t *)(h + 1);

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(c, h);
		break;
	case PERF_RECORD_COMM:
		if (h->size >= sizeof(*h) + 9) {
			struct sc_comm *e = &c->cache[u[1] % SC_NCOMM_CACHE];
			size_t room = h->size - sizeof(*h) - 8;

			e->tid = (int)u[1];
			snprintf(e->comm, sizeof(e->comm), "%.*s",
				 (int)(room < 15 ? room : 15), (const char *)(u + 2));
		}
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16)
			c->lost += ((const uint64_t *)(h + 1))[1];
		break;
	default:
		break;
	}
}

/* ---- the section ---- */

static double per(double n, double d)
{
	return d > 0 ? n / d : NAN;
}

static int self_cmp(const void *a, const void *b)
{
	const struct cgs_symcount *x = *(const struct cgs_symcount *const *)a;
	const struct cgs_symcount *y = *(const struct cgs_symcount *const *)b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The top SC_TOP functions by self or by children (sc is sorted by
 * children), each with its samples and ns per op; with @map an object of
 * their ns per op by name instead, which compare reads as a family. */
static struct json_object *tops(const struct cgs_symcounts *sc, bool self,
				double ns_per_sample, uint64_t ops, bool map)
{
	struct json_object *a = map ? json_object_new_object() : json_object_new_array();
	const struct cgs_symcount **v = malloc((sc->n + 1) * sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; v && i < sc->n; i++)
		if (self ? sc->v[i].self : sc->v[i].children)
			v[n++] = &sc->v[i];
	if (v && self)
		qsort(v, n, sizeof(*v), self_cmp);
	for (size_t i = 0; v && i < n && i < SC_TOP; i++) {
		struct json_object *o = json_object_new_object();
		uint64_t k = self ? v[i]->self : v[i]->children;

		if (map) {
			json_object_put(o);
			cgs_jadd(a, v[i]->name, cgs_jnum(per((double)k * ns_per_sample, (double)ops)));
			continue;
		}
		cgs_jadd(o, "name", json_object_new_string(v[i]->name));
		cgs_jadd(o, "samples", json_object_new_uint64(k));
		cgs_jadd(o, "ns_per_op", cgs_jnum(per((double)k * ns_per_sample, (double)ops)));
		json_object_array_add(a, o);
	}
	free(v);
	return a;
}

static struct json_object *who_json(const struct cgs_scopecalc *c, int w, uint64_t ops,
				    double cpu_ns)
{
	struct json_object *o = json_object_new_object();
	struct cgs_symcounts sc = { 0 };
	double each = per((double)c->ns[w], (double)c->samples[w]);

	cgs_jadd(o, "samples", json_object_new_uint64(c->samples[w]));
	cgs_jadd(o, "ns", json_object_new_uint64(c->ns[w]));
	cgs_jadd(o, "ns_per_op", cgs_jnum(per((double)c->ns[w], (double)ops)));
	/* the count is Poisson: its 95% half-width is 1.96 sqrt(samples) */
	cgs_jadd(o, "ns_per_op_ci95", cgs_jnum(c->samples[w] ? per(1.96 * sqrt((double)c->samples[w]) * each,
								       (double)ops) : 0));
	cgs_jadd(o, "cpu_share", cgs_jnum(per((double)c->ns[w], cpu_ns)));
	if (c->samples[w] && !cgs_stacks_symbols(&c->stacks[w], &sc)) {
		cgs_jadd(o, "top_self", tops(&sc, true, each, ops, false));
		cgs_jadd(o, "top_children", tops(&sc, false, each, ops, false));
		if (w == CGS_WHO_STAT_READER)   /* compare's stat_reader.fn.NAME */
			cgs_jadd(o, "self_ns_per_op", tops(&sc, true, each, ops, true));
		cgs_jadd(o, "skew", cgs_skew_json(&sc, c->samples[w], "cpu-clock"));
	}
	cgs_symcounts_free(&sc);
	return o;
}

static int comm_cmp(const void *a, const void *b)
{
	const struct sc_count *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

static struct json_object *comms_json(const struct cgs_scopecalc *c, uint64_t ops)
{
	struct json_object *a = json_object_new_array();
	struct sc_count v[SC_NCOMM + 1];
	unsigned n = c->ncomm;

	memcpy(v, c->comm, n * sizeof(v[0]));
	qsort(v, n, sizeof(v[0]), comm_cmp);
	if (c->comm[SC_NCOMM].samples)
		v[n++] = c->comm[SC_NCOMM];
	for (unsigned i = 0; i < n && i < SC_TOP; i++) {
		struct json_object *o = json_object_new_object();

		cgs_jadd(o, "comm", json_object_new_string(v[i].comm));
		cgs_jadd(o, "samples", json_object_new_uint64(v[i].samples));
		cgs_jadd(o, "ns_per_op", cgs_jnum(per((double)v[i].ns, (double)ops)));
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *cgs_scopecalc_json(const struct cgs_scopecalc *c, uint64_t ops,
				       int64_t elapsed_ns, int ncpus)
{
	struct json_object *o = json_object_new_object(), *who = json_object_new_object();
	struct json_object *s = json_object_new_object();
	double cpu_ns = (double)elapsed_ns * ncpus;

	cgs_jadd(s, "received", json_object_new_uint64(c->received));
	cgs_jadd(s, "lost", json_object_new_uint64(c->lost));
	cgs_jadd(s, "malformed", json_object_new_uint64(c->malformed));
	cgs_jadd(o, "samples", s);
	for (int w = 0; w < CGS_WHO_N; w++)
		cgs_jadd(who, cgs_who_names[w], who_json(c, w, ops, cpu_ns));
	cgs_jadd(o, "who", who);
	cgs_jadd(o, "others_by_comm", comms_json(c, ops));
	if (c->err)
		cgs_jadd(o, "error", json_object_new_string("out of memory for the stacks: the top functions are partial"));
	return o;
}
