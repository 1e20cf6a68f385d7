/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_out.c - a point's "profile" section (counts, per-symbol self
 * and children, bounded folded stacks) and its lines in the run table:
 * the top kernel functions by self %, as `perf report --no-children`
 * sorts them, and the share of samples in kernel and user mode, each
 * share with its sampling error (the binomial standard error from the
 * number of samples: a share p of n samples is p +- sqrt(p(1-p)/n)), and
 * the warning of a skewed profile (lib/irqsite.h). The lines are read
 * from the result, so a re-read file prints the same.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/folded.h"
#include "lib/irqsite.h"
#include "lib/json.h"
#include "runner/cgroups/cgrun.h"
#include "runner/observe/profile/profile.h"
#include "lib/macros.h"
#include "runner/observe/observer.h"

#define TOP_KERNEL 5

static struct json_object *counts_json(const struct cgs_profile_counts *c)
{
	struct json_object *o = json_object_new_object();

	cgs_jadd(o, "taken", json_object_new_uint64(c->received + c->lost));
	cgs_jadd(o, "received", json_object_new_uint64(c->received));
	cgs_jadd(o, "lost", json_object_new_uint64(c->lost));
	cgs_jadd(o, "throttled", json_object_new_uint64(c->throttled));
	cgs_jadd(o, "kernel", json_object_new_uint64(c->kernel));
	cgs_jadd(o, "user", json_object_new_uint64(c->user));
	return o;
}

static struct json_object *symbols_json(const struct cgs_symcounts *sc,
					const struct cgs_stacks *user,
					uint64_t total)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < sc->n; i++) {
		const struct cgs_symcount *s = &sc->v[i];
		struct json_object *o;

		if ((double)s->children < CGS_PROFILE_SYM_MIN * (double)total)
			continue;
		o = json_object_new_object();
		cgs_jadd(o, "name", json_object_new_string(s->name));
		cgs_jadd(o, "self", json_object_new_uint64(s->self));
		cgs_jadd(o, "children", json_object_new_uint64(s->children));
		cgs_jadd(o, "kernel", json_object_new_boolean(
				 !cgs_stacks_find(user, s->name)));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *folded_json(const struct cgs_stacks *s)
{
	struct json_object *a = json_object_new_array_ext((int)s->n);

	for (size_t i = 0; i < s->n; i++) {
		struct json_object *e = json_object_new_array_ext(2);

		json_object_array_add(e, json_object_new_string(s->v[i].stack));
		json_object_array_add(e, json_object_new_uint64(s->v[i].count));
		json_object_array_add(a, e);
	}
	return a;
}

struct json_object *cgs_profile_json(const struct cgs_profile_set *ps,
				     const struct cgs_profile_counts *c,
				     struct cgs_stacks *stacks,
				     const struct cgs_stacks *user,
				     const char *failure)
{
	struct json_object *sec = json_object_new_object();
	struct cgs_symcounts sc = { 0 };
	int rc;

	if (!sec)
		return NULL;
	cgs_jadd(sec, "event", json_object_new_string(ps->event));
	cgs_jadd(sec, "rate_hz", json_object_new_int64(ps->hz));
	cgs_jadd(sec, "counting", json_object_new_string(ps->user_only ? "user" : "user+kernel"));
	if (ps->note)
		cgs_jadd(sec, "note", json_object_new_string(ps->note));
	cgs_jadd(sec, "kernel_symbols", json_object_new_string(
			 ps->user_only ? "none" : ps->ksyms.hidden || !ps->ksyms.n
			 ? "raw addresses" : "kallsyms"));
	if (failure)
		cgs_jadd(sec, "failure", json_object_new_string(failure));
	cgs_jadd(sec, "samples", counts_json(c));
	rc = cgs_stacks_symbols(stacks, &sc);
	if (!rc) {
		cgs_jadd(sec, "symbols", symbols_json(&sc, user, stacks->total));
		cgs_jadd(sec, "skew", cgs_skew_json(&sc, stacks->total, ps->event));
	}
	cgs_symcounts_free(&sc);
	cgs_stacks_sort(stacks);
	if (!rc)
		rc = cgs_stacks_bound(stacks, CGS_PROFILE_SHARE, CGS_PROFILE_MAX_STACKS);
	cgs_jadd(sec, "folded_share", json_object_new_double(CGS_PROFILE_SHARE));
	cgs_jadd(sec, "folded_max", json_object_new_int(CGS_PROFILE_MAX_STACKS));
	if (!rc)
		cgs_jadd(sec, "folded", folded_json(stacks));
	else
		cgs_jadd(sec, "error", json_object_new_string("out of memory building the symbols or stacks"));
	return sec;
}

/* ---- table lines ---- */

struct ksym {
	const char *name;
	double self_pct;    /* summed over the runs, then the mean */
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->self_pct != y->self_pct)
		return x->self_pct > y->self_pct ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sum each kernel symbol's self % over the runs into @k (@nk of them). */
static size_t kernel_self(struct json_object *const *sec, unsigned n,
			  struct ksym *k, size_t cap)
{
	size_t nk = 0;

	for (unsigned r = 0; r < n; r++) {
		struct json_object *syms = cgs_jget(sec[r], "symbols");
		double tot = cgs_jget_num(cgs_jget(sec[r], "samples"), "received");

		for (size_t i = 0; syms && tot > 0 && i < json_object_array_length(syms); i++) {
			struct json_object *s = json_object_array_get_idx(syms, i);
			const char *name = json_object_get_string(cgs_jget(s, "name"));
			size_t j;

			if (!name || !json_object_get_boolean(cgs_jget(s, "kernel")))
				continue;
			for (j = 0; j < nk && strcmp(k[j].name, name); j++)
				;
			if (j == nk && nk == cap)
				continue;
			if (j == nk)
				k[nk++] = (struct ksym){ name, 0 };
			k[j].self_pct += 100 * cgs_jget_num(s, "self") / tot;
		}
	}
	for (size_t j = 0; j < nk; j++)
		k[j].self_pct /= n;
	qsort(k, nk, sizeof(*k), ksym_cmp);
	return nk;
}

/* The binomial standard error of a share @pct (%) of @n samples, in
 * percentage points. */
static double share_se(double pct, double n)
{
	double p = pct / 100;

	return n > 0 ? 100 * sqrt(p * (1 - p) / n) : NAN;
}

/* The samples received in all @n runs. */
static double received(struct json_object *const *sec, unsigned n)
{
	double recv = 0;

	for (unsigned r = 0; r < n; r++)
		recv += cgs_jget_num(cgs_jget(sec[r], "samples"), "received");
	return recv;
}

/* The warning of a skewed profile (lib/irqsite.h), when any run is. */
static void skew_line(struct json_object *const *sec, unsigned n, FILE *out)
{
	struct json_object *sk[64];
	char w[1024];

	for (unsigned r = 0; r < n && r < 64; r++)
		sk[r] = cgs_jget(sec[r], "skew");
	if (!cgs_skew_warning(sk, n < 64 ? n : 64, w, sizeof(w)))
		fprintf(out, "  profile: %s\n", w);
}

static void print_head(struct json_object *const *sec, unsigned n, FILE *out)
{
	double recv = 0, lost = 0, thr = 0, kern = 0;
	struct json_object *note = cgs_jget(sec[0], "note");

	for (unsigned r = 0; r < n; r++) {
		struct json_object *s = cgs_jget(sec[r], "samples");

		recv += cgs_jget_num(s, "received");
		lost += cgs_jget_num(s, "lost");
		thr += cgs_jget_num(s, "throttled");
		kern += cgs_jget_num(s, "kernel");
		if (cgs_jget(sec[r], "failure"))
			fprintf(out, "  profile: %s\n",
				json_object_get_string(cgs_jget(sec[r], "failure")));
	}
	fprintf(out, "  profile: %s %d Hz%s, %.0f samples%s (%.0f lost, %.0f throttled): kernel %.1f%%, user %.1f%%\n",
		json_object_get_string(cgs_jget(sec[0], "event")),
		(int)cgs_jget_num(sec[0], "rate_hz"),
		note ? " user mode only" : "", recv, n > 1 ? " in all runs" : "",
		lost, thr, recv > 0 ? 100 * kern / recv : NAN,
		recv > 0 ? 100 * (recv - kern) / recv : NAN);
	if (note)
		fprintf(out, "  profile: %s\n", json_object_get_string(note));
	skew_line(sec, n, out);
	if (recv == 0)
		fprintf(out, "  profile: no samples were received\n");
	else
		fprintf(out, "  profile: sampling error of a share (+-, 1 standard error from %.0f samples): %.2f points at 50%%, %.2f at 10%%, %.2f at 1%%\n",
			recv, share_se(50, recv), share_se(10, recv), share_se(1, recv));
}

void cgs_profile_print_rows(const struct res_file *f, const char *test,
			    const char *mode, unsigned tasks,
			    const char *layout, FILE *out)
{
	struct json_object *sec[64];
	struct ksym k[512];
	unsigned n = 0;
	size_t nk;

	n = cgs_obs_sections(f, "profile", test, mode, tasks, layout, sec, 64);
	if (!n)
		return;
	print_head(sec, n, out);
	nk = kernel_self(sec, n, k, ARRAY_SIZE(k));
	for (size_t j = 0; j < nk && j < TOP_KERNEL; j++)
		fprintf(out, "    %6.2f%% +-%.2f  %s\n", k[j].self_pct,
			share_se(k[j].self_pct, received(sec, n)), k[j].name);
}
